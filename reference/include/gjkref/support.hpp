// gjkref/support.hpp — support mappings: the only thing GJK knows about a shape.
//
// A convex shape S is given by its support mapping s_S(d) = argmax_{p ∈ S} d·p. gjkref also asks each support point
// for the index of the vertex that produced it, so that every answer can be re-checked exactly from the original
// coordinates, and asks the shape to validate itself (empty shapes and non-finite coordinates are invalid input).
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "gjkref/vec.hpp"

namespace gjkref {

// A support point of one shape: the point and the index of the vertex it is (shape-defined; for a point cloud
// the position in the cloud).
template <Vector V>
struct Support {
  V point;
  std::size_t index = 0;
};

// What a shape's own validation found. Returned, never printed.
enum class ShapeCheck { Ok, Empty, NonFinite };

// The requirement on a shape: its vector type, a support mapping returning Support<V>, and a validation.
// The support must be a maximiser of d·p over the shape, for every direction d (d is never the zero vector).
template <class S>
concept SupportMapping = Vector<typename S::vector_type> && requires(const S& s, const typename S::vector_type& d) {
  { s.support(d) } -> std::same_as<Support<typename S::vector_type>>;
  { s.check() } -> std::same_as<ShapeCheck>;
};

// Shapes that can also hand out a vertex by index (point clouds and transforms of them): needed to warm-start from
// a previous simplex given as index pairs.
template <class S>
concept IndexedShape = SupportMapping<S> && requires(const S& s, std::size_t i) {
  { s.vertex(i) } -> std::same_as<typename S::vector_type>;
  { s.size() } -> std::convertible_to<std::size_t>;
};

// The textbook's support over a point set with an exact scalar: the first point of largest d·p, the dot products
// compared as they are.
template <Vector V>
std::size_t first_maximiser(const std::vector<V>& points, const V& d) {
  std::size_t best = 0;
  scalar_t<V> best_value = dot(d, points[0]);
  for (std::size_t i = 1; i < points.size(); ++i) {
    scalar_t<V> value = dot(d, points[i]);
    if (best_value < value) best_value = value, best = i;
  }
  return best;
}

// How an exact shape finds its first maximiser. This primary template is the textbook (first_maximiser). An exact
// scalar may specialise it with an equivalent exact search that is cheaper for its type — the same maximiser, the same
// tie-break (exact.hpp does, for mpq_class). Built once with the points.
template <Vector V>
class ExactSupportSearch {
 public:
  ExactSupportSearch() = default;
  explicit ExactSupportSearch(const std::vector<V>&) {}
  std::size_t argmax(const std::vector<V>& points, const V& d) const { return first_maximiser(points, d); }
};

// The convex hull of a finite point set. Any count >= 1; duplicates, interior points, collinear, coplanar and
// lower-dimensional sets are all allowed. The support is the first point (lowest index) attaining max d·p.
//
// Accuracy far from the origin: the support compares d·(p − p₀) rather than d·p, with p₀ the first point. Both have
// the same maximiser, but the rounding error of d·p grows with |p| — for a shape of size 1 at distance 10^9 in float
// it swamps the differences between vertices and picks a wrong one — while that of d·(p − p₀) grows only with the
// shape's own size. The subtraction is exact under scaling by 2^k, so scale covariance is kept. (An exact scalar
// compares d·p itself, through ExactSupportSearch: no rounding, the same maximiser and tie-break.)
// Pinned by FloatingModesMeetTheContractOnRandomReals (reference/tests/gjk_test.cpp).
template <Vector V>
class ConvexPoints {
 public:
  using vector_type = V;
  using scalar_type = scalar_t<V>;

  ConvexPoints() = default;
  explicit ConvexPoints(std::vector<V> points) : points_(std::move(points)) { validate(); }
  ConvexPoints(std::initializer_list<V> points) : points_(points) { validate(); }

  // Precondition: check() == ShapeCheck::Ok (gjkref's queries check before asking). The floating loop is written out
  // over the components, with no vector temporaries: it is the inner loop of every query.
  Support<V> support(const V& d) const {
    std::size_t best = 0;
    if constexpr (ScalarTraits<scalar_type>::is_exact) {
      best = exact_search_.argmax(points_, d);
    } else {
      const V& origin = points_[0];
      scalar_type best_value(0);  // d·(p₀ − p₀)
      for (std::size_t i = 1; i < points_.size(); ++i) {
        const V& p = points_[i];
        scalar_type value = d[0] * (p[0] - origin[0]);
        for (int k = 1; k < V::dimension; ++k) value += d[k] * (p[k] - origin[k]);
        if (best_value < value) best_value = value, best = i;
      }
    }
    return {points_[best], best};
  }

  // Computed once, when the shape is built (the points cannot change after).
  ShapeCheck check() const { return check_; }
  // The largest |coordinate| over the points (when check() is Ok): bounds every |p_i|, for the certified mode's
  // filters (certified.hpp). Computed with check().
  scalar_type max_abs_coordinate() const { return max_abs_; }

  V vertex(std::size_t i) const { return points_[i]; }
  std::size_t size() const { return points_.size(); }
  const std::vector<V>& points() const { return points_; }

 private:
  void validate() {
    check_ = points_.empty() ? ShapeCheck::Empty : ShapeCheck::Ok;
    for (const V& p : points_) {
      if (!is_finite(p)) {
        check_ = ShapeCheck::NonFinite;
        return;
      }
      const scalar_type m = max_abs_component(p);
      if (max_abs_ < m) max_abs_ = m;
    }
    if constexpr (ScalarTraits<scalar_type>::is_exact)
      if (check_ == ShapeCheck::Ok) exact_search_ = ExactSupportSearch<V>(points_);
  }

  std::vector<V> points_;
  ShapeCheck check_ = ShapeCheck::Empty;
  scalar_type max_abs_{0};
  [[no_unique_address]] std::conditional_t<ScalarTraits<scalar_type>::is_exact, ExactSupportSearch<V>, std::monostate>
      exact_search_;
};

// A linear map stored by rows: M x = (row_0 · x, row_1 · x, ...).
template <Vector V>
struct LinearMap {
  std::array<V, V::dimension> rows;

  static LinearMap identity() {
    LinearMap m;
    for (int i = 0; i < V::dimension; ++i) m.rows[i][i] = scalar_t<V>(1);
    return m;
  }
  V apply(const V& x) const {
    V r;
    for (int i = 0; i < V::dimension; ++i) r[i] = dot(rows[i], x);
    return r;
  }
  // Mᵀ d = Σ_i d_i row_i.
  V apply_transposed(const V& d) const {
    V r;
    for (int i = 0; i < V::dimension; ++i) r = r + d[i] * rows[i];
    return r;
  }
  bool is_finite() const {
    for (const V& row : rows)
      if (!gjkref::is_finite(row)) return false;
    return true;
  }
};

// An affine image T(S) of a shape, T(x) = M x + c. Its support is s_T(S)(d) = T(s_S(Mᵀ d)): the maximiser of d·(Mx+c)
// over S is the maximiser of (Mᵀd)·x. The index is passed through from S. If Mᵀd is the zero vector (a singular M),
// every point of T(S) is a maximiser and S is asked in direction Mᵀd = 0 — which a support mapping never receives —
// so that case asks S in an arbitrary fixed direction instead (any point of S is a valid answer).
template <SupportMapping S>
class Transformed {
 public:
  using vector_type = typename S::vector_type;
  using scalar_type = scalar_t<vector_type>;

  Transformed(S shape, LinearMap<vector_type> linear, vector_type offset)
      : shape_(std::move(shape)), linear_(linear), offset_(offset) {}

  Support<vector_type> support(const vector_type& d) const {
    vector_type inner = linear_.apply_transposed(d);
    if (is_zero(inner)) inner[0] = scalar_type(1);
    Support<vector_type> s = shape_.support(inner);
    return {transform(s.point), s.index};
  }

  ShapeCheck check() const {
    ShapeCheck inner = shape_.check();
    if (inner != ShapeCheck::Ok) return inner;
    if (!linear_.is_finite() || !is_finite(offset_)) return ShapeCheck::NonFinite;
    return ShapeCheck::Ok;
  }

  vector_type vertex(std::size_t i) const requires IndexedShape<S> { return transform(shape_.vertex(i)); }
  std::size_t size() const requires IndexedShape<S> { return shape_.size(); }

  vector_type transform(const vector_type& x) const { return linear_.apply(x) + offset_; }

 private:
  S shape_;
  LinearMap<vector_type> linear_;
  vector_type offset_;
};

// One point of the Minkowski difference A ⊖ B = {a − b}: w = a − b, with the two vertices and their indices.
template <Vector V>
struct SupportPoint {
  V w;
  V a, b;
  std::size_t index_a = 0, index_b = 0;

  bool same_vertices(const SupportPoint& o) const { return index_a == o.index_a && index_b == o.index_b; }
};

// s_{A⊖B}(d) = s_A(d) − s_B(−d).
template <SupportMapping A, SupportMapping B>
requires std::same_as<typename A::vector_type, typename B::vector_type> SupportPoint<typename A::vector_type>
minkowski_support(const A& a, const B& b, const typename A::vector_type& d) {
  Support<typename A::vector_type> sa = a.support(d);
  Support<typename A::vector_type> sb = b.support(-d);
  return {sa.point - sb.point, sa.point, sb.point, sa.index, sb.index};
}

// s_{A⊖B}(d) for a direction d of any magnitude: in floating modes d is first scaled by a power of two into its own
// frame (its largest coordinate in [1, 2)), the same direction, so that the support's products d·(p − p₀) have the
// magnitude of the points' differences. Along a d far from 1 they can underflow where the differences do not: then
// every product rounds to 0 and the first point wins, which is no support at all (and on overflow the first +∞ wins).
// Used where a support proves something along a direction not in the points' frame: the post-pass's check
// (finish.hpp). The main loop's v is in its frame already; a caller's initial direction is used as given (a poor first
// point costs iterations, nothing else).
// Regression: PostPass.TheCheckAsksTheSupportAlongAUnitScaledDirection.
template <SupportMapping A, SupportMapping B>
requires std::same_as<typename A::vector_type, typename B::vector_type> SupportPoint<typename A::vector_type>
minkowski_support_along(const A& a, const B& b, const typename A::vector_type& d) {
  return minkowski_support(a, b, in_own_scale(d));
}

}  // namespace gjkref
