// gjkref/certified.hpp — exact answers for double input: the double core's answer, proven exactly, or finished exactly.
//
// certified_distance(A, B) takes every double coordinate as the exact rational it denotes and answers exactly:
//   - the class in the oracle's words: separated, touching (the origin is on the boundary of A⊖B) or overlapping
//     (in its interior);
//   - the squared distance as a rational, and the distance correctly rounded to double;
//   - witness points as exact combinations of input vertices (indices and rational weights), and their roundings.
//
// How (docs/algorithm.md, "The certified mode"):
//   1. Run the double core (gjk.hpp). Its final simplex names vertex pairs (a_i, b_i) of the input.
//   2. certify(): take those pairs' exact differences w_i = a_i − b_i and the exact closest point v of their hull
//      (regions.hpp, instantiated on rationals). Then
//        v ≠ 0: the answer is proven when min over A⊖B of v·x ≥ |v|² — the plane v·x = |v|² then has all of A⊖B on its
//               far side, so v is the closest point of A⊖B and |v|² the squared distance. min v·x = min v·a − max v·b,
//               one exact support pass over each shape (a floating-point filter leaves only near-ties to rationals);
//        v = 0: the origin is in the hull of points of A⊖B, so the shapes intersect. The class: overlapping when the
//               simplex is full-dimensional with every barycentric weight positive (the origin is interior to it);
//               otherwise classify_contact() decides exactly.
//   3. If step 2 refutes the double answer, the exact core finishes, warm-started from the double simplex, and its
//      answer is certified by the same step 2 (it cannot fail: a failure is a bug in gjkref and throws).
// Every decision in steps 2 and 3 is an exact sign: the answer is right whoever found the simplex.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "gjkref/certify.hpp"
#include "gjkref/exact.hpp"
#include "gjkref/gjk.hpp"

namespace gjkref {

// Where the origin is relative to A⊖B.
enum class ContactClass {
  Separated,   // outside: the shapes are apart
  Touching,    // on the boundary: the shapes share boundary points only
  Overlapping  // in the interior
};

// Which path produced a certified answer.
enum class CertifiedPath {
  None,             // invalid input
  DoubleCertified,  // the double core's answer, proven by step 2
  ExactFinish,      // step 2 refuted the double answer (or the double core could not answer); the exact core finished
};

struct ExactWeight {
  std::size_t index = 0;  // into the shape's points
  Exact weight;           // > 0; a shape's weights sum to 1
};

template <Vector V>
struct CertifiedResult {
  using ExactVector = exact_vector_t<V>;
  Status status = Status::InvalidInput;  // Separated, Intersecting or InvalidInput
  InputError input_error = InputError::None;
  ContactClass contact_class = ContactClass::Separated;
  CertifiedPath path = CertifiedPath::None;
  Exact squared_distance;  // exact; 0 unless separated
  double distance = 0;     // √squared_distance correctly rounded to double (to nearest, ties to even)
  // Witness points: witness_a = Σ weight·a[index] over weights_a, likewise B; exact. When intersecting, a common point.
  std::vector<ExactWeight> weights_a, weights_b;
  ExactVector exact_witness_a{}, exact_witness_b{};
  V witness_a{}, witness_b{};  // each coordinate correctly rounded
  // Touching: u ≠ 0 with u·x ≤ 0 for every x of A⊖B — a plane through the origin with A⊖B on one side.
  std::optional<ExactVector> touching_normal;
  int double_iterations = 0;  // the double core's
  int exact_iterations = 0;   // the exact core's (ExactFinish)
};

// Cap on the exact core's iterations in step 3. Not a tolerance: exact GJK ends by itself (|v| strictly decreases over
// finitely many simplices), in a few dozen iterations on the shapes measured; the cap only guarantees termination in
// writing. Reaching it throws (a bug in gjkref). Pinned by Certified.ExactFinishAnswersWithinTheCap.
inline constexpr int kExactFinishMaxIterations = 1 << 20;

inline const char* to_string(ContactClass c) {
  switch (c) {
    case ContactClass::Separated: return "separated";
    case ContactClass::Touching: return "touching";
    case ContactClass::Overlapping: return "overlapping";
  }
  return "?";
}

inline const char* to_string(CertifiedPath p) {
  switch (p) {
    case CertifiedPath::None: return "none";
    case CertifiedPath::DoubleCertified: return "double-certified";
    case CertifiedPath::ExactFinish: return "exact-finish";
  }
  return "?";
}

// ---- Exact supports of a double point cloud -------------------------------------------------------------------------

// A double point cloud seen with exact coordinates: a support mapping over exact directions whose answer is the exact
// maximiser of d·p (the lowest index among ties, as ConvexPoints). A floating-point filter does the work: with d scaled
// by a power of two to unit size and rounded to d̃, each f(p) = fl(d̃·p) is within
//   B(p) = 2^−50·Σ|d̃ᵢpᵢ| + 2^−1000·Σ|pᵢ| + 2^−1070
// of the scaled d·p (d̃'s rounding, ≤ 2^−52 relative per component or 2^−1074 absolute once subnormal, and three
// products and two sums, ≤ 3·2^−53 relative plus 2^−1074 each; 2^−50 bounds 5·2^−53 with room for the rounding of the
// bound itself). Only points whose interval [f − B, f + B] reaches the best lower end can be maximisers; they are
// compared exactly. Points whose f or B is not finite are always compared exactly.
template <Vector V>
requires std::same_as<scalar_t<V>, double>
class ExactView {
 public:
  using vector_type = exact_vector_t<V>;
  using scalar_type = Exact;

  explicit ExactView(const ConvexPoints<V>& shape) : shape_(&shape) {}

  Support<vector_type> support(const vector_type& d) const {
    const std::vector<V>& points = shape_->points();
    // d·2^−k, each component |·| < 4, the largest ≥ 1/4.
    long k = std::numeric_limits<long>::min();
    for (int i = 0; i < V::dimension; ++i)
      if (d[i] != 0) k = std::max(k, binary_magnitude(d[i]));
    V rounded{};
    if (k != std::numeric_limits<long>::min())
      for (int i = 0; i < V::dimension; ++i)
        rounded[i] = ScalarTraits<Exact>::scale_by_power_of_two(d[i], static_cast<int>(-k)).get_d();
    const auto estimate = [&rounded](const V& p, double& bound) {
      double value = 0, magnitude = 0, size = 0;
      for (int i = 0; i < V::dimension; ++i) {
        value += rounded[i] * p[i];
        magnitude += std::fabs(rounded[i] * p[i]);
        size += std::fabs(p[i]);
      }
      bound = std::ldexp(magnitude, -50) + std::ldexp(size, -1000) + std::ldexp(1.0, -1070);
      return value;
    };
    double best_lower = -std::numeric_limits<double>::infinity();
    for (const V& p : points) {
      double bound = 0;
      const double value = estimate(p, bound);
      if (std::isfinite(value) && std::isfinite(bound)) best_lower = std::max(best_lower, value - bound);
    }
    std::size_t best = 0;
    std::optional<Exact> best_value;
    for (std::size_t i = 0; i < points.size(); ++i) {
      double bound = 0;
      const double value = estimate(points[i], bound);
      if (std::isfinite(value) && std::isfinite(bound) && value + bound < best_lower) continue;
      const Exact exact_value = dot(d, vector_type(convert<Exact>(points[i])));
      if (!best_value || *best_value < exact_value) {
        best_value = exact_value;
        best = i;
      }
    }
    return {convert<Exact>(points[best]), best};
  }

  ShapeCheck check() const { return shape_->check(); }
  vector_type vertex(std::size_t i) const { return convert<Exact>(shape_->vertex(i)); }
  std::size_t size() const { return shape_->size(); }

 private:
  const ConvexPoints<V>* shape_;
};

// ---- Touching or overlapping ----------------------------------------------------------------------------------------

namespace detail {

// A normal u ≠ 0 of a plane through the origin with every point of `s` on the side u·x ≤ 0 (a supporting plane of
// conv(s) through the origin), or nullopt when there is none — then, as the origin is in conv(s), conv(s) is
// full-dimensional with the origin in its interior.
// Why the candidates suffice (3D): if conv(s) spans at most a line, any u normal to that line supports it. If it spans
// a plane through the origin, the cross product of two independent points is that plane's normal, and supports it. If
// it is full-dimensional with the origin on its boundary, a facet contains the origin; the facet's points span its
// plane (which passes through the origin), so two of them are independent, and their cross product is the facet's
// normal. In 2D the same with perp(w) = (−w_y, w_x) for single points.
template <Vector VE>
std::optional<VE> supporting_normal(const std::vector<VE>& s) {
  const auto one_side = [&s](const VE& u) -> std::optional<VE> {
    bool below = true, above = true;
    for (const VE& w : s) {
      const Exact side = dot(u, w);
      if (side > 0) below = false;
      if (side < 0) above = false;
    }
    if (below) return u;
    if (above) return VE(-u);
    return std::nullopt;
  };
  const auto nonzero = std::find_if(s.begin(), s.end(), [](const VE& w) { return !is_zero(w); });
  if (nonzero == s.end()) {
    VE u{};
    u[0] = 1;
    return u;
  }
  if constexpr (VE::dimension == 2) {
    for (const VE& w : s) {
      if (is_zero(w)) continue;
      if (auto u = one_side(VE{Exact(-w[1]), w[0]})) return u;
    }
    return std::nullopt;
  } else {
    bool spans_a_plane = false;
    for (std::size_t i = 0; i < s.size(); ++i)
      for (std::size_t j = i + 1; j < s.size(); ++j) {
        const VE u = cross(s[i], s[j]);
        if (is_zero(u)) continue;
        spans_a_plane = true;
        if (auto side = one_side(u)) return side;
      }
    if (spans_a_plane) return std::nullopt;
    // Every point on the line through the origin and *nonzero: a normal of that line.
    for (int axis = 0; axis < 3; ++axis) {
      VE e{};
      e[axis] = 1;
      const VE u = cross(*nonzero, e);
      if (!is_zero(u)) return u;
    }
    return std::nullopt;  // unreachable: a non-zero vector is parallel to at most one axis
  }
}

}  // namespace detail

template <Vector VE>
struct ContactDecision {
  ContactClass contact_class = ContactClass::Overlapping;
  std::optional<VE> normal;  // touching: the supporting plane's normal
};

// Is the origin on the boundary of A⊖B or in its interior? `s`: points of A⊖B whose hull contains the origin.
// Exact expansion: while conv(s) has a supporting plane through the origin (normal u), ask A⊖B for its support w along
// u. If u·w = 0, that plane supports A⊖B too: touching. Otherwise u·w > 0 ≥ u·x for every x in s, so w is a new
// point: add it. When conv(s) has no such plane, the origin is interior to conv(s) ⊆ A⊖B: overlapping. Each round
// adds a new difference of input vertices, so it ends within |A|·|B| rounds.
template <SupportMapping A, SupportMapping B>
ContactDecision<typename A::vector_type> classify_contact(const A& a, const B& b,
                                                          std::vector<typename A::vector_type> s) {
  using VE = typename A::vector_type;
  for (;;) {
    const std::optional<VE> u = detail::supporting_normal(s);
    if (!u) return {ContactClass::Overlapping, std::nullopt};
    const SupportPoint<VE> w = minkowski_support(a, b, *u);
    if (!(dot(*u, w.w) > 0)) return {ContactClass::Touching, *u};
    s.push_back(w.w);
  }
}

// ---- Step 2: certify a simplex --------------------------------------------------------------------------------------

namespace detail {

// Per-shape weights from weights over vertex pairs (a vertex named by several pairs gets their sum).
inline std::vector<ExactWeight> per_vertex(const std::vector<std::pair<std::size_t, Exact>>& pairs) {
  std::vector<ExactWeight> out;
  for (const auto& [index, weight] : pairs) {
    if (weight == 0) continue;  // a vertex of an enclosing simplex whose face holds the origin
    auto it = std::find_if(out.begin(), out.end(), [index = index](const ExactWeight& w) { return w.index == index; });
    if (it == out.end())
      out.push_back({index, weight});
    else
      it->weight += weight;
  }
  return out;
}

// The exact answer on the simplex of vertex pairs `pairs`, if it proves itself (step 2); nullopt if refuted.
template <Vector V>
std::optional<CertifiedResult<V>> certify_pairs(const ConvexPoints<V>& a, const ConvexPoints<V>& b,
                                                const std::vector<std::pair<std::size_t, std::size_t>>& pairs) {
  using VE = exact_vector_t<V>;
  const ExactView<V> ea(a), eb(b);
  // The pairs' exact differences, each distinct point once.
  std::array<SupportPoint<VE>, 4> points{};
  Points<VE> w{};
  int k = 0;
  for (const auto& [ia, ib] : pairs) {
    if (ia >= a.size() || ib >= b.size() || k == V::dimension + 1) return std::nullopt;
    const VE pa = ea.vertex(ia), pb = eb.vertex(ib);
    const VE d = pa - pb;
    if (std::any_of(w.begin(), w.begin() + k, [&d](const VE& q) { return q == d; })) continue;
    points[k] = {d, pa, pb, ia, ib};
    w[k++] = d;
  }
  if (k == 0) return std::nullopt;
  const ClosestFeature<Exact> feature = closest_on_simplex(w, k);
  const VE v = point_of(w, feature);

  CertifiedResult<V> out;
  std::vector<std::pair<std::size_t, Exact>> on_a, on_b;
  for (int i = 0; i < feature.count; ++i) {
    const SupportPoint<VE>& p = points[feature.vertex[i]];
    on_a.push_back({p.index_a, feature.weight[i]});
    on_b.push_back({p.index_b, feature.weight[i]});
    out.exact_witness_a = out.exact_witness_a + feature.weight[i] * p.a;
    out.exact_witness_b = out.exact_witness_b + feature.weight[i] * p.b;
  }
  out.weights_a = per_vertex(on_a);
  out.weights_b = per_vertex(on_b);
  for (int i = 0; i < V::dimension; ++i) {
    out.witness_a[i] = round_to_double(out.exact_witness_a[i]);
    out.witness_b[i] = round_to_double(out.exact_witness_b[i]);
  }

  if (!is_zero(v)) {
    // min over A⊖B of v·x = min v·a − max v·b = −h_A(−v) − h_B(v).
    const Exact vv = dot(v, v);
    const Exact lowest = dot(v, ea.support(VE(-v)).point) - dot(v, eb.support(v).point);
    if (lowest < vv) return std::nullopt;
    out.status = Status::Separated;
    out.contact_class = ContactClass::Separated;
    out.squared_distance = vv;
    out.distance = correctly_rounded_sqrt(vv);
    return out;
  }
  out.status = Status::Intersecting;
  out.squared_distance = 0;
  out.distance = 0;
  const bool interior = feature.encloses_origin && feature.count == V::dimension + 1 &&
                        std::all_of(feature.weight.begin(), feature.weight.begin() + feature.count,
                                    [](const Exact& x) { return x > 0; });
  if (interior) {
    out.contact_class = ContactClass::Overlapping;
    return out;
  }
  const ContactDecision<VE> decision = classify_contact(ea, eb, std::vector<VE>(w.begin(), w.begin() + k));
  out.contact_class = decision.contact_class;
  out.touching_normal = decision.normal;
  return out;
}

template <Vector V>
std::vector<std::pair<std::size_t, std::size_t>> pairs_of(const Simplex<V>& s) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (int i = 0; i < s.size; ++i) out.push_back({s.points[i].index_a, s.points[i].index_b});
  return out;
}

}  // namespace detail

// The exact answer for double input (the steps at the top of this file). `options` go to the double core (a warm
// start, an iteration cap); the answer does not depend on them, only the path does.
template <Vector V>
requires std::same_as<scalar_t<V>, double> CertifiedResult<V> certified_distance(const ConvexPoints<V>& a,
                                                                                 const ConvexPoints<V>& b,
                                                                                 const Options<V>& options = {}) {
  const Result<V> fast = distance(a, b, options);
  // Invalid input as the double core names it, except an overflowing difference, which the rationals hold.
  if (fast.status == Status::InvalidInput && fast.input_error != InputError::DifferenceOverflow) {
    CertifiedResult<V> invalid;
    invalid.input_error = fast.input_error;
    return invalid;
  }
  std::vector<std::pair<std::size_t, std::size_t>> start;
  if (fast.status == Status::Separated || fast.status == Status::Intersecting ||
      fast.status == Status::IterationLimit) {
    start = detail::pairs_of(fast.simplex);
    if (fast.status != Status::IterationLimit) {
      if (auto proven = detail::certify_pairs(a, b, start)) {
        proven->path = CertifiedPath::DoubleCertified;
        proven->double_iterations = fast.iterations;
        return *proven;
      }
    }
  }
  // Step 3. (A double core that could not start — a difference a − b overflowing double — starts the exact core cold.)
  using VE = exact_vector_t<V>;
  Options<VE> exact_options;
  exact_options.max_iterations = kExactFinishMaxIterations;
  exact_options.warm_start_simplex = start;
  const Result<VE> exact = distance(ExactView<V>(a), ExactView<V>(b), exact_options);
  if (exact.status != Status::Separated && exact.status != Status::Intersecting)
    throw std::logic_error(std::string("gjkref: the exact core did not answer (") + to_string(exact.status) +
                           ") — a bug in gjkref");
  std::optional<CertifiedResult<V>> proven = detail::certify_pairs(a, b, detail::pairs_of(exact.simplex));
  if (!proven) throw std::logic_error("gjkref: the exact core's answer failed its certificate — a bug in gjkref");
  proven->path = CertifiedPath::ExactFinish;
  proven->double_iterations = fast.iterations;
  proven->exact_iterations = exact.iterations;
  return *proven;
}

}  // namespace gjkref
