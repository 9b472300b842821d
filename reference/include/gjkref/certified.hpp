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
#include <type_traits>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "gjkref/certify.hpp"
#include "gjkref/exact.hpp"
#include "gjkref/filter.hpp"
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
  Filtered,         // the double core's answer, proven by floating-point filters alone (step 2a: no rational)
  DoubleCertified,  // the double core's answer, proven by exact rational checks (step 2b)
  ExactFinish,      // step 2 refuted the double answer (or the double core could not answer); the exact core finished
};

struct ExactWeight {
  std::size_t index = 0;  // into the shape's points
  Exact weight;           // > 0; a shape's weights sum to 1
};

// The rational side of a certified answer, computed on request (CertifiedOutput::WithExact, or exact_answer()).
template <Vector V>
struct ExactAnswer {
  using ExactVector = exact_vector_t<V>;
  Exact squared_distance;  // 0 unless separated
  // witness_a = Σ weight·a[index] over weights_a, likewise B. When intersecting, a common point.
  std::vector<ExactWeight> weights_a, weights_b;
  ExactVector witness_a{}, witness_b{};
};

// How much of the answer certified_distance computes. Every level gives the class, the correctly rounded distance
// and the proven simplex; each adds to the one before.
enum class CertifiedOutput {
  Distance,   // nothing more (the witnesses are left unset)
  Witnesses,  // the witnesses, each coordinate correctly rounded
  WithExact,  // and the rational side, `exact` (the exact squared distance and the witnesses' vertex weights)
};

template <Vector V>
struct CertifiedResult {
  using ExactVector = exact_vector_t<V>;
  Status status = Status::InvalidInput;  // Separated, Intersecting or InvalidInput
  InputError input_error = InputError::None;
  ContactClass contact_class = ContactClass::Separated;
  CertifiedPath path = CertifiedPath::None;
  double distance = 0;  // the exact distance correctly rounded to double (to nearest, ties to even)
  // The exact witnesses, each coordinate correctly rounded (equal when intersecting); set from CertifiedOutput::Witnesses
  // on.
  std::optional<V> witness_a, witness_b;
  // The proven simplex: vertex pairs (index in A, index in B) whose differences' point nearest the origin is the
  // answer's closest point (the origin when intersecting). exact_answer() derives the rational side from it.
  std::vector<std::pair<std::size_t, std::size_t>> simplex;
  // Touching: u ≠ 0 with u·x ≤ 0 for every x of A⊖B — a plane through the origin with A⊖B on one side.
  std::optional<ExactVector> touching_normal;
  std::optional<ExactAnswer<V>> exact;  // with CertifiedOutput::WithExact
  int double_iterations = 0;            // the double core's
  int exact_iterations = 0;             // the exact core's (ExactFinish)
};

// The exact core's iterations in step 3 are capped by kExactFinishMaxIterations (finish.hpp); reaching it throws (a bug
// in gjkref).

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
    case CertifiedPath::Filtered: return "filtered";
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

// ---- Step 2a: certify by floating-point filters ------------------------------------------------------------------

namespace detail {

using filter::Enclosure;

template <class T, std::size_t D>
std::array<T, D> operator-(const std::array<T, D>& x, const std::array<T, D>& y) {
  std::array<T, D> r;
  for (std::size_t i = 0; i < D; ++i) r[i] = x[i] - y[i];
  return r;
}
template <class T, std::size_t D>
T dot(const std::array<T, D>& x, const std::array<T, D>& y) {
  T r = x[0] * y[0];
  for (std::size_t i = 1; i < D; ++i) r = r + x[i] * y[i];
  return r;
}
template <class T>
std::array<T, 3> cross(const std::array<T, 3>& x, const std::array<T, 3>& y) {
  return {x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]};
}
template <class T>
T cross(const std::array<T, 2>& x, const std::array<T, 2>& y) {
  return x[0] * y[1] - x[1] * y[0];
}

// The arithmetics step 2a's algebra runs in: 1, and a sign (decided, or 0 when a filter cannot decide it).
template <class T>
T unit() {
  if constexpr (std::is_same_v<T, mpz_class>)
    return T(1);
  else if constexpr (std::is_same_v<T, filter::Framed>)
    return T{1, 1};  // an exact leaf: its magnitude is |1|
  else
    return T{1, 0};
}
inline int sign_of(const filter::Framed& x) { return filter::sign(x); }
inline int sign_of(const filter::Enclosure& x) { return filter::sign(x); }
inline int sign_of(const mpz_class& x) { return sgn(x); }

// Step 2a's quantities of a simplex w_0..w_{k−1}, in the arithmetic T (filter::Framed for signs, filter::Enclosure
// for roundings; mpz_class, on integers, for the exact weights of a proven simplex, exact_answer): the barycentric numerators c_i, their sum Q, Q·|v*|² (separated), and a positive multiple of v*
// (separated). `orientation`: the decided sign of the area (2D, k = 2) or volume (k = 3) that orients v*; 0 when T
// cannot decide it (then `toward` is not set). The formulas are listed above certify_by_filters.
template <class T, std::size_t D>
struct SimplexAlgebra {
  std::array<T, 4> weight{};
  T total{}, squared{};
  std::array<T, D> toward{};
  int orientation = 1;
};

// Which of simplex_algebra's quantities a caller reads; the others are left unset. Each costs products (in double
// words or on integers), and every caller reads only some: the cheap filter the signs and the direction, the double
// words the sizes (and the weights for witnesses, everything when the cheap filter leaves a sign undecided), the
// integers the weights and the sizes. A quantity computed is the same expression whichever others are.
struct AlgebraParts {
  bool weights = false;    // the c_i
  bool direction = false;  // separated: `toward` and `orientation`
  bool size = false;       // separated: Q and Q·|v*|²
};

// The quantities `parts` asks for (for an enclosing simplex only the c_i: `total` is formed once their common sign is
// known). k = 1's c_0 = Q = 1 is always set.
template <class T, std::size_t D>
SimplexAlgebra<T, D> simplex_algebra(const std::array<std::array<T, D>, 4>& w, int k, bool separated,
                                     AlgebraParts parts) {
  using TV = std::array<T, D>;
  SimplexAlgebra<T, D> out;
  if (!separated) {
    if (!parts.weights) return out;
    // c_i = (−1)^i det(w_j, j ≠ i), each determinant a triple product: c_0 and c_1 share w_2 × w_3, c_2 and c_3
    // share w_0 × w_1 (c_2 = det(w_0, w_1, w_3) = w_3·(w_0 × w_1), c_3 = −det(w_0, w_1, w_2) = −w_2·(w_0 × w_1)).
    if constexpr (D == 3) {
      const TV last = cross(w[2], w[3]);
      const TV first = cross(w[0], w[1]);
      out.weight[0] = dot(w[1], last);
      out.weight[1] = -dot(w[0], last);
      out.weight[2] = dot(w[3], first);
      out.weight[3] = -dot(w[2], first);
    } else {
      out.weight[0] = cross(w[1], w[2]);
      out.weight[1] = -cross(w[0], w[2]);
      out.weight[2] = cross(w[0], w[1]);
    }
    return out;  // `total` is formed once the common sign is known
  }
  if (k == 1) {
    out.weight[0] = out.total = unit<T>();
    if (parts.size) out.squared = dot(w[0], w[0]);
    if (parts.direction) out.toward = w[0];
  } else if (k == 2) {
    const TV edge = w[1] - w[0];
    if (parts.size) out.total = dot(edge, edge);
    if (parts.weights) {
      out.weight[0] = dot(w[1], edge);
      out.weight[1] = -dot(w[0], edge);
    }
    if constexpr (D == 3) {
      if (parts.size) {
        const TV normal = cross(w[0], w[1]);
        out.squared = dot(normal, normal);
      }
      if (parts.direction) out.toward = cross(edge, cross(w[0], edge));
    } else {
      const T area = cross(w[0], w[1]);
      if (parts.size) out.squared = area * area;
      if (parts.direction) {
        out.orientation = sign_of(area);  // v* ∥ (w_1 × w_0)·perp(edge), and w_1 × w_0 = −area
        out.toward = out.orientation > 0 ? TV{edge[1], -edge[0]} : TV{-edge[1], edge[0]};
      }
    }
  } else if constexpr (D == 3) {
    const TV normal = cross(w[1] - w[0], w[2] - w[0]);
    const TV across = cross(w[1], w[2]);  // in c_0 and in the volume
    if (parts.weights) {
      out.weight[0] = dot(normal, across);
      out.weight[1] = dot(normal, cross(w[2], w[0]));
      out.weight[2] = dot(normal, cross(w[0], w[1]));
    }
    if (parts.size) out.total = dot(normal, normal);
    const T volume = dot(w[0], across);
    if (parts.size) out.squared = volume * volume;
    if (parts.direction) {
      out.orientation = sign_of(volume);
      out.toward = out.orientation > 0 ? normal : TV{-normal[0], -normal[1], -normal[2]};
    }
  }
  return out;
}

// Is d*·(p − p_anchor) > 0 for every point p of `shape` outside `members`, where d* is a direction known to within
// `err` per component of the double vector d (max |d_i| in [1, 2))? A proof, or false when the filter cannot decide.
// One pass: q(p) = fl(d·p) is within β = (γ₃·max|d_i| + err)·dim·M + 2^−1070 of d*·p (M: the shape's largest
// |coordinate|; γ₃ ≤ 2^−51 bounds a three-term dot product's rounding; the constants are filter.hpp's), so
// q(p) > q(p_anchor) + 2β, with the sum's own rounding covered, proves the point. A point that fails this cheap test is either a member or an exact copy of one
// (skipped: the caller knows d*·p = d*·p_anchor exactly) or tested again on p − p_anchor, whose rounding does not grow
// with |p|.
// `undecided(i)`: called for each point the filter cannot decide; returns whether the caller settles it (then the pass
// goes on) — by default it does not, and the pass fails.
template <Vector V, class Undecided = bool (*)(std::size_t)>
bool strictly_beyond(const ConvexPoints<V>& shape, const V& d, double err, std::size_t anchor,
                     const std::array<std::size_t, 4>& members, int member_count,
                     const Undecided& undecided = [](std::size_t) { return false; }) {
  constexpr int D = V::dimension;
  const std::vector<V>& points = shape.points();
  const V& p0 = points[anchor];
  const double reach = max_abs_component(d) * D * shape.max_abs_coordinate();
  if (!(reach < std::numeric_limits<double>::max() / 8)) return false;  // d·p might overflow
  using filter::kDotProductRounding, filter::kSumRounding, filter::kHalfUlp, filter::kSubnormalSlack;
  const double beta = ((kDotProductRounding * max_abs_component(d) + err) * D * shape.max_abs_coordinate() +
                       kSubnormalSlack) *
                      filter::kBoundRounding;
  const double q0 = dot(d, p0);
  const double threshold = q0 + (2 * beta * (1 + kSumRounding) + kHalfUlp * std::fabs(q0) + kSubnormalSlack);
  // The loop's bounds and d's components held in locals: `undecided` may be called in it, after which the compiler
  // would otherwise read them from memory again on every point.
  std::array<double, D> direction{};
  for (int c = 0; c < D; ++c) direction[c] = d[c];
  const V* const first = points.data();
  const std::size_t count = points.size();
  for (std::size_t i = 0; i < count; ++i) {
    const V& p = first[i];
    double q = direction[0] * p[0];
    for (int c = 1; c < D; ++c) q += direction[c] * p[c];
    if (q > threshold) continue;
    // A member, or a copy of one (equal coordinates are the same point: d*·p is the members' value exactly).
    if (std::any_of(members.begin(), members.begin() + member_count,
                    [&](std::size_t m) { return m == i || points[m] == p; }))
      continue;
    double value = 0, weighted = 0, size = 0;
    for (int c = 0; c < D; ++c) {
      const double difference = p[c] - p0[c];
      value += d[c] * difference;
      weighted += std::fabs(d[c] * difference);
      size += std::fabs(difference);
    }
    const double bound =
        (kSumRounding * weighted + (1 + kSumRounding) * err * size + kSubnormalSlack) * filter::kBoundRounding;
    if (!(value > bound) && !undecided(i)) return false;
  }
  return true;
}

// A direction for strictly_beyond: d, known to within `err` per component, scaled by a power of two (exactly) to
// max |d_i| in [1, 2), err with it. False when it is zero, not finite, has a component that would underflow, or is
// not known well enough for a pass to be worth making (filter.hpp, kDirectionErrorLimit).
template <Vector V>
bool pass_direction(V& d, double& err) {
  using Tr = ScalarTraits<double>;
  const double biggest = max_abs_component(d);
  if (!(biggest > 0) || !std::isfinite(biggest) || !std::isfinite(err)) return false;
  const int f = Tr::frame_exponent(biggest);
  for (int c = 0; c < V::dimension; ++c) {
    const double scaled = Tr::scale_by_power_of_two(d[c], -f);
    if (d[c] != 0 && std::fabs(scaled) < filter::kDirectionComponentFloor) return false;
    d[c] = scaled;
  }
  err = Tr::scale_by_power_of_two(err, -f) * (1 + filter::kHalfUlp) + filter::kSubnormalSlack;
  return err < filter::kDirectionErrorLimit;
}

// The indices of A (`first`) or of B among the simplex's pairs, each once; false when the pairs do not form one
// connected graph (vertex of A — vertex of B for each pair), for then the simplex does not tie its A-vertices together.
inline bool connected_members(const std::array<std::pair<std::size_t, std::size_t>, 4>& pairs, int k,
                              std::array<std::size_t, 4>& on_a, int& count_a, std::array<std::size_t, 4>& on_b,
                              int& count_b) {
  count_a = count_b = 0;
  const auto add = [](std::array<std::size_t, 4>& set, int& n, std::size_t x) {
    if (std::find(set.begin(), set.begin() + n, x) == set.begin() + n) set[n++] = x;
  };
  for (int i = 0; i < k; ++i) add(on_a, count_a, pairs[i].first), add(on_b, count_b, pairs[i].second);
  // Grow the component of pair 0: a pair joins when it shares a vertex with the component.
  std::array<bool, 4> joined{};
  joined[0] = true;
  for (bool grew = true; grew;) {
    grew = false;
    for (int i = 0; i < k; ++i) {
      if (joined[i]) continue;
      for (int j = 0; j < k; ++j)
        if (joined[j] && (pairs[i].first == pairs[j].first || pairs[i].second == pairs[j].second)) {
          joined[i] = grew = true;
          break;
        }
    }
  }
  return std::all_of(joined.begin(), joined.begin() + k, [](bool x) { return x; });
}

// Step 2a: the double core's answer proven with floating-point filters alone, or nullopt (then step 2b decides).
// Two shapes of answer are handled, those the double core gives on generic input:
//   Separated, simplex w_0..w_{k−1} (k ≤ dimension): the answer is v*, the projection of the origin onto aff(w_i),
//     when (i) it lies inside the simplex: its barycentric weights λ_i = c_i/Q are all positive; and (ii) every point
//     of A⊖B is on the far side of the plane through v* normal to it (as in certify_pairs). With e = w_1 − w_0 and, in
//     3D, n = (w_1 − w_0) × (w_2 − w_0):
//       k = 1: λ_0 = 1;                             |v*|² = |w_0|²;                     v* ∥ w_0
//       k = 2: c_0 = w_1·e, c_1 = −w_0·e, Q = |e|²;  |v*|² = |w_0 × w_1|²/Q;            v* ∥ e × (w_0 × e)
//              (2D: |v*|² = (w_0 × w_1)²/Q, v* ∥ (w_1 × w_0)·perp(e), perp(e) = (−e_y, e_x))
//       k = 3: c_i = n·(w_{i+1} × w_{i+2}), Q = |n|²; |v*|² = det(w_0, w_1, w_2)²/Q;     v* ∥ det(w_0, w_1, w_2)·n
//     For (ii), the pairs' graph must be connected: then v*·a is the same for every simplex vertex a of A (and v*·b for
//     every b of B), because v*·(a_i − b_i) = |v*|² for every pair; so min over A⊖B of v*·x = |v*|² holds when every
//     other vertex of A is strictly beyond them along v*, and every other vertex of B strictly behind (one filtered
//     pass over each shape, strictly_beyond).
//   Intersecting, enclosing simplex of dimension + 1 points: overlapping when the origin is strictly inside, that is
//     when its barycentric numerators c_i = (−1)^i det(w_j, j ≠ i) (2D: the cross product) share one strict sign.
// The filters run in a power-of-two frame (the simplex's vertices scaled by 2^−e below 2, exactly), where every
// quantity above is a polynomial of degree at most 6 in exact double-word differences w_i = a_i − b_i. Each sign and
// each rounding is decided by filter.hpp, or the step gives up. The distance is √(|v*|²) rounded by comparing with
// midpoints (filter::round_quotient); each witness coordinate Σλ_i a_i = (Σ c_i a_i)/Q likewise, or exactly a_0's
// coordinate when every a_i shares it.
// The power-of-two frame in which the certified filters evaluate polynomials in differences a − b of vertices: the
// exponent e of the largest coordinate (framed coordinates are then below 2 in magnitude, exactly), and the floor
// 2^(e − 960) below which a non-zero coordinate could sink the filters' products into their underflow slack
// (filter.hpp): input with such a coordinate is left to rationals.
struct DifferenceFrame {
  int exponent = 0;
  double floor = 0;
  explicit DifferenceFrame(double largest)
      : exponent(ScalarTraits<double>::frame_exponent(largest)),
        floor(ScalarTraits<double>::scale_by_power_of_two(1.0, std::max(exponent - 960, -1074))) {}
  bool admits(double x) const { return x == 0 || std::fabs(x) >= floor; }
  double framed(double x) const { return ScalarTraits<double>::scale_by_power_of_two(x, -exponent); }
};

// `fast` is distance(a, b)'s own answer: its simplex's points are the vertices their indices name (the filters read
// the points, the passes over each shape the indices). A result from elsewhere goes through check_certificate first.
template <Vector V>
std::optional<CertifiedResult<V>> certify_by_filters(const ConvexPoints<V>& a, const ConvexPoints<V>& b,
                                                     const Result<V>& fast, bool witnesses) {
  constexpr int D = V::dimension;
  using Tr = ScalarTraits<double>;
  const Simplex<V>& s = fast.simplex;
  const int k = s.size;
  const bool separated = fast.status == Status::Separated && k >= 1 && k <= D;
  const bool enclosing = fast.status == Status::Intersecting && fast.stop_rule == StopRule::Enclosed && k == D + 1;
  if (!separated && !enclosing) return std::nullopt;

  // The frame.
  double largest = 0;
  for (int i = 0; i < k; ++i)
    largest = std::max({largest, max_abs_component(s.points[i].a), max_abs_component(s.points[i].b)});
  if (largest == 0) return std::nullopt;
  const DifferenceFrame frame(largest);
  const int e = frame.exponent;
  std::array<V, 4> fa{}, fb{};
  std::array<std::array<filter::Framed, D>, 4> framed{};
  std::array<std::array<Enclosure, D>, 4> w{};
  for (int i = 0; i < k; ++i)
    for (int c = 0; c < D; ++c) {
      const double x = s.points[i].a[c], y = s.points[i].b[c];
      if (!frame.admits(x) || !frame.admits(y)) return std::nullopt;
      fa[i][c] = frame.framed(x);
      fb[i][c] = frame.framed(y);
      framed[i][c] = filter::framed_difference(fa[i][c], fb[i][c]);
      w[i][c] = filter::difference(fa[i][c], fb[i][c]);
    }

  // Signs: each decided by the cheap filter, or else by double words.
  const auto signs_hold = [&](const auto& q) {
    if (q.orientation == 0) return false;
    const int side = separated ? 1 : filter::sign(q.weight[0]);
    if (side == 0) return false;
    for (int i = 0; i < (separated ? k : D + 1); ++i)
      if (filter::sign(q.weight[i]) != side) return false;
    return true;
  };
  const SimplexAlgebra<filter::Framed, D> cheap =
      simplex_algebra(framed, k, separated, {.weights = true, .direction = true});
  const bool cheap_signs = signs_hold(cheap);
  // Double words: for the roundings, and for the signs (and then the direction) the cheap filter left undecided.
  SimplexAlgebra<Enclosure, D> q = simplex_algebra(
      w, k, separated, {.weights = witnesses || !cheap_signs, .direction = !cheap_signs, .size = true});
  if (!cheap_signs && !signs_hold(q)) return std::nullopt;
  if (!separated && filter::sign(q.weight[0]) < 0)
    for (int i = 0; i <= D; ++i) q.weight[i] = -q.weight[i];
  if (!separated && (witnesses || !cheap_signs)) {
    q.total = q.weight[0];
    for (int i = 1; i <= D; ++i) q.total = q.total + q.weight[i];
  }
  const std::array<Enclosure, 4>& weight = q.weight;
  const Enclosure& total = q.total;
  const Enclosure& squared = q.squared;

  CertifiedResult<V> out;
  out.simplex.reserve(k);  // one allocation, not one per doubling
  for (int i = 0; i < k; ++i) out.simplex.push_back({s.points[i].index_a, s.points[i].index_b});
  // Rounded results, scaled back out of the frame (exact when the result is a normal number).
  const auto unframed = [e](double x, double& result) {
    result = Tr::scale_by_power_of_two(x, e);
    return std::isfinite(result) && std::fabs(result) >= std::numeric_limits<double>::min();
  };
  const auto witness = [&](const std::array<V, 4>& framed, const auto& original, V& result) {
    for (int c = 0; c < D; ++c) {
      bool shared = true;
      for (int i = 1; i < k; ++i) shared = shared && framed[i][c] == framed[0][c];
      if (shared) {
        result[c] = original(0)[c];  // Σλ_i = 1
        continue;
      }
      Enclosure sum = weight[0] * framed[0][c];
      for (int i = 1; i < k; ++i) sum = sum + weight[i] * framed[i][c];
      double rounded = 0;
      if (!filter::round_quotient(sum, total, false, rounded) || !unframed(rounded, result[c])) return false;
    }
    return true;
  };
  if (witnesses) {
    V on_a{};
    if (!witness(fa, [&s](int i) { return s.points[i].a; }, on_a)) return std::nullopt;
    out.witness_a = on_a;
    if (enclosing) out.witness_b = on_a;  // Σλ_i (a_i − b_i) = 0
  }
  if (enclosing) {
    out.status = Status::Intersecting;
    out.contact_class = ContactClass::Overlapping;
    return out;
  }

  double distance = 0;
  if (filter::sign(squared) <= 0 || !filter::round_quotient(squared, total, true, distance) ||
      !unframed(distance, out.distance))
    return std::nullopt;
  if (witnesses) {
    V on_b{};
    if (!witness(fb, [&s](int i) { return s.points[i].b; }, on_b)) return std::nullopt;
    out.witness_b = on_b;
  }

  // (ii): the direction in doubles, with its error, scaled to max |component| in [1, 2) exactly.
  V d{};
  double err = 0;
  const auto take = [&](const auto& toward) {
    for (int c = 0; c < D; ++c) {
      d[c] = filter::value_of(toward[c]);
      err = std::max(err, filter::error_of(toward[c]));
    }
  };
  if (cheap_signs)
    take(cheap.toward);
  else
    take(q.toward);  // (the weights' signs flipped above do not touch the direction)
  if (!pass_direction(d, err)) return std::nullopt;

  std::array<std::pair<std::size_t, std::size_t>, 4> pairs{};
  for (int i = 0; i < k; ++i) pairs[i] = out.simplex[i];
  std::array<std::size_t, 4> on_a{}, on_b{};
  int count_a = 0, count_b = 0;
  if (!connected_members(pairs, k, on_a, count_a, on_b, count_b)) return std::nullopt;
  if (!strictly_beyond(a, d, err, pairs[0].first, on_a, count_a)) return std::nullopt;
  if (!strictly_beyond(b, V(-d), err, pairs[0].second, on_b, count_b)) return std::nullopt;

  out.status = Status::Separated;
  out.contact_class = ContactClass::Separated;
  return out;
}

// ---- Step 2b: certify a simplex exactly ----------------------------------------------------------------------------

// Per-shape weights from weights over vertex pairs (a vertex named by several pairs gets their sum).
// Takes the pairs by value: their weights move into the result rather than being copied.
inline std::vector<ExactWeight> per_vertex(std::vector<std::pair<std::size_t, Exact>> pairs) {
  std::vector<ExactWeight> out;
  out.reserve(pairs.size());
  for (auto& [index, weight] : pairs) {
    if (weight == 0) continue;  // a vertex of an enclosing simplex whose face holds the origin
    auto it = std::find_if(out.begin(), out.end(), [index = index](const ExactWeight& w) { return w.index == index; });
    if (it == out.end())
      out.push_back({index, std::move(weight)});
    else
      it->weight += weight;
  }
  return out;
}

// The exact points of the simplex of vertex pairs `pairs` (each distinct difference once) and the feature of their
// hull nearest the origin; nullopt if a pair names a vertex that does not exist, or there are too many.
template <Vector V>
struct ExactFeature {
  using VE = exact_vector_t<V>;
  std::array<SupportPoint<VE>, 4> points{};
  Points<VE> w{};
  int count = 0;
  ClosestFeature<Exact> feature;
  VE v{};  // the feature's point nearest the origin
};

template <Vector V>
std::optional<ExactFeature<V>> exact_feature(const ConvexPoints<V>& a, const ConvexPoints<V>& b,
                                             const std::vector<std::pair<std::size_t, std::size_t>>& pairs) {
  using VE = exact_vector_t<V>;
  ExactFeature<V> out;
  for (const auto& [ia, ib] : pairs) {
    if (ia >= a.size() || ib >= b.size() || out.count == V::dimension + 1) return std::nullopt;
    const VE pa = convert<Exact>(a.vertex(ia)), pb = convert<Exact>(b.vertex(ib));
    const VE d = pa - pb;
    if (std::any_of(out.w.begin(), out.w.begin() + out.count, [&d](const VE& q) { return q == d; })) continue;
    out.points[out.count] = {d, pa, pb, ia, ib};
    out.w[out.count++] = d;
  }
  if (out.count == 0) return std::nullopt;
  out.feature = closest_on_simplex(out.w, out.count);
  out.v = point_of(out.w, out.feature);
  return out;
}

template <Vector V>
ExactAnswer<V> answer_of(const ExactFeature<V>& f) {
  ExactAnswer<V> out;
  std::vector<std::pair<std::size_t, Exact>> on_a, on_b;
  for (int i = 0; i < f.feature.count; ++i) {
    const auto& p = f.points[f.feature.vertex[i]];
    on_a.push_back({p.index_a, f.feature.weight[i]});
    on_b.push_back({p.index_b, f.feature.weight[i]});
    out.witness_a = out.witness_a + f.feature.weight[i] * p.a;
    out.witness_b = out.witness_b + f.feature.weight[i] * p.b;
  }
  out.weights_a = per_vertex(std::move(on_a));
  out.weights_b = per_vertex(std::move(on_b));
  out.squared_distance = dot(f.v, f.v);
  return out;
}

// The exact answer on the simplex of vertex pairs `pairs`, if it proves itself (step 2b); nullopt if refuted. Only the
// parts of the answer that `output` asks for are computed (the decisions need only v and |v|²).
template <Vector V>
std::optional<CertifiedResult<V>> certify_pairs(const ConvexPoints<V>& a, const ConvexPoints<V>& b,
                                                const std::vector<std::pair<std::size_t, std::size_t>>& pairs,
                                                CertifiedOutput output = CertifiedOutput::WithExact) {
  using VE = exact_vector_t<V>;
  const ExactView<V> ea(a), eb(b);
  const std::optional<ExactFeature<V>> found = exact_feature(a, b, pairs);
  if (!found) return std::nullopt;
  const ExactFeature<V>& f = *found;
  const VE& v = f.v;

  CertifiedResult<V> out;
  for (int i = 0; i < f.feature.count; ++i) {
    const auto& p = f.points[f.feature.vertex[i]];
    out.simplex.push_back({p.index_a, p.index_b});
  }
  // The rational side: whole for the witnesses (rounded below, once the answer is proven) or the exact output, else
  // only the squared distance (answer_of's own dot(v, v)).
  ExactAnswer<V> exact;
  if (output == CertifiedOutput::Distance)
    exact.squared_distance = dot(v, v);
  else
    exact = answer_of(f);
  // Sets the proven answer's rounded witnesses and rational side, as asked.
  const auto complete = [&]() {
    if (output != CertifiedOutput::Distance) {
      V on_a{}, on_b{};
      for (int i = 0; i < V::dimension; ++i) {
        on_a[i] = round_to_double(exact.witness_a[i]);
        on_b[i] = round_to_double(exact.witness_b[i]);
      }
      out.witness_a = on_a;
      out.witness_b = on_b;
    }
    if (output == CertifiedOutput::WithExact) out.exact = std::move(exact);
  };

  if (!is_zero(v)) {
    // min over A⊖B of v·x = min v·a − max v·b = −h_A(−v) − h_B(v).
    const Exact lowest = dot(v, ea.support(VE(-v)).point) - dot(v, eb.support(v).point);
    if (lowest < exact.squared_distance) return std::nullopt;
    out.status = Status::Separated;
    out.contact_class = ContactClass::Separated;
    out.distance = correctly_rounded_sqrt(exact.squared_distance);
    complete();
    return out;
  }
  out.status = Status::Intersecting;
  out.distance = 0;
  const bool interior = f.feature.encloses_origin && f.feature.count == V::dimension + 1 &&
                        std::all_of(f.feature.weight.begin(), f.feature.weight.begin() + f.feature.count,
                                    [](const Exact& x) { return x > 0; });
  if (interior) {
    out.contact_class = ContactClass::Overlapping;
  } else {
    const ContactDecision<VE> decision = classify_contact(ea, eb, std::vector<VE>(f.w.begin(), f.w.begin() + f.count));
    out.contact_class = decision.contact_class;
    out.touching_normal = decision.normal;
  }
  complete();
  return out;
}

// The rational side of an answer proven by step 2a, from its simplex: the barycentric weights are λ_i = c_i / Σc_j with
// the c_i of step 2a (polynomials in the w_i), computed here on integers. The simplex's coordinates are m·2^e with
// integer m; scaled by 2^−e_min (e_min the finest exponent among them), every w_i is an integer vector, and the weights
// do not change with the scale. Only the weights, the witnesses and the squared distance are rationals.
template <Vector V>
ExactAnswer<V> filtered_answer(const ConvexPoints<V>& a, const ConvexPoints<V>& b, const CertifiedResult<V>& r) {
  constexpr int D = V::dimension;
  const int k = static_cast<int>(r.simplex.size());
  const auto split = [](double x, mpz_class& m) {  // x = m·2^e, m an integer
    int e = 0;
    const double f = std::frexp(x, &e);
    m = mpz_class(std::ldexp(f, 53));
    return static_cast<long>(e) - 53;
  };
  const auto exponent = [](double x) {  // split's e alone
    int e = 0;
    std::frexp(x, &e);
    return static_cast<long>(e) - 53;
  };
  long finest = std::numeric_limits<long>::max();
  for (const auto& [ia, ib] : r.simplex)
    for (int c = 0; c < D; ++c)
      for (double x : {a.vertex(ia)[c], b.vertex(ib)[c]})
        if (x != 0) finest = std::min(finest, exponent(x));
  if (finest == std::numeric_limits<long>::max()) finest = 0;
  const auto integer = [&](double x) {
    mpz_class out(0);
    if (x == 0) return out;
    const long e = split(x, out);
    mpz_mul_2exp(out.get_mpz_t(), out.get_mpz_t(), static_cast<mp_bitcnt_t>(e - finest));
    return out;
  };
  // The simplex's points on integers, each converted once: the w_i and the witnesses are made of them.
  std::array<std::array<mpz_class, D>, 4> pa, pb, w;
  for (int i = 0; i < k; ++i)
    for (int c = 0; c < D; ++c) {
      pa[i][c] = integer(a.vertex(r.simplex[i].first)[c]);
      pb[i][c] = integer(b.vertex(r.simplex[i].second)[c]);
      w[i][c] = pa[i][c] - pb[i][c];
    }
  const bool separated = r.status == Status::Separated;
  SimplexAlgebra<mpz_class, D> q = simplex_algebra(w, k, separated, {.weights = true, .size = true});
  mpz_class total = 0;
  for (int i = 0; i < k; ++i) total += q.weight[i];
  ExactAnswer<V> out;
  std::vector<std::pair<std::size_t, Exact>> on_a, on_b;
  on_a.reserve(k);
  on_b.reserve(k);
  for (int i = 0; i < k; ++i) {
    Exact weight(q.weight[i], total);
    weight.canonicalize();
    on_a.push_back({r.simplex[i].first, weight});
    on_b.push_back({r.simplex[i].second, std::move(weight)});
  }
  // Witnesses: (Σ c_i p_i)/Σc_j with p_i on integers, one rational per coordinate.
  for (int c = 0; c < D; ++c) {
    mpz_class sum_a = 0, sum_b = 0;
    for (int i = 0; i < k; ++i) {
      sum_a += q.weight[i] * pa[i][c];
      sum_b += q.weight[i] * pb[i][c];
    }
    Exact x(sum_a, total), y(sum_b, total);
    x.canonicalize();
    y.canonicalize();
    out.witness_a[c] = ScalarTraits<Exact>::scale_by_power_of_two(x, static_cast<int>(finest));
    out.witness_b[c] = ScalarTraits<Exact>::scale_by_power_of_two(y, static_cast<int>(finest));
  }
  out.weights_a = per_vertex(std::move(on_a));
  out.weights_b = per_vertex(std::move(on_b));
  if (separated) {
    out.squared_distance = Exact(q.squared, q.total);
    out.squared_distance.canonicalize();
    out.squared_distance = ScalarTraits<Exact>::scale_by_power_of_two(out.squared_distance, static_cast<int>(2 * finest));
  } else {
    out.squared_distance = 0;
  }
  return out;
}

template <Vector V>
std::vector<std::pair<std::size_t, std::size_t>> pairs_of(const Simplex<V>& s) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (int i = 0; i < s.size; ++i) out.push_back({s.points[i].index_a, s.points[i].index_b});
  return out;
}

}  // namespace detail

// The rational side of a certified answer (its exact squared distance, and its witnesses as exact vertex weights),
// from its proven simplex. Throws std::invalid_argument for a result of other shapes, or one with no simplex.
template <Vector V>
requires std::same_as<scalar_t<V>, double> ExactAnswer<V> exact_answer(const ConvexPoints<V>& a,
                                                                      const ConvexPoints<V>& b,
                                                                      const CertifiedResult<V>& r) {
  for (const auto& [ia, ib] : r.simplex)
    if (ia >= a.size() || ib >= b.size())
      throw std::invalid_argument("gjkref: exact_answer: the result's simplex does not name vertices of A and B");
  if (r.path == CertifiedPath::Filtered) return detail::filtered_answer(a, b, r);
  const auto f = detail::exact_feature(a, b, r.simplex);
  if (!f) throw std::invalid_argument("gjkref: exact_answer: the result's simplex does not name vertices of A and B");
  return detail::answer_of(*f);
}

// The exact answer for double input (the steps at the top of this file). `options` go to the double core (a warm
// start, an iteration cap); the answer does not depend on them, only the path does.
template <Vector V>
requires std::same_as<scalar_t<V>, double> CertifiedResult<V> certified_distance(
    const ConvexPoints<V>& a, const ConvexPoints<V>& b, const Options<V>& options = {},
    CertifiedOutput output = CertifiedOutput::Witnesses) {
  const Result<V> fast = distance(a, b, options);
  // Invalid input as the double core names it, except an overflowing difference, which the rationals hold.
  if (fast.status == Status::InvalidInput && fast.input_error != InputError::DifferenceOverflow) {
    CertifiedResult<V> invalid;
    invalid.input_error = fast.input_error;
    return invalid;
  }
  // Completes a proven answer in place, then moves it out once.
  const auto finish = [&](CertifiedResult<V>&& r, CertifiedPath path, int exact_iterations) {
    r.path = path;
    r.double_iterations = fast.iterations;
    r.exact_iterations = exact_iterations;
    if (output == CertifiedOutput::WithExact && !r.exact) r.exact = exact_answer(a, b, r);
    if (output != CertifiedOutput::WithExact) r.exact.reset();
    if (output == CertifiedOutput::Distance) r.witness_a.reset(), r.witness_b.reset();
    return std::move(r);
  };
  if (auto proven = detail::certify_by_filters(a, b, fast, output != CertifiedOutput::Distance))
    return finish(std::move(*proven), CertifiedPath::Filtered, 0);
  std::vector<std::pair<std::size_t, std::size_t>> start;
  if (fast.status == Status::Separated || fast.status == Status::Intersecting ||
      fast.status == Status::IterationLimit) {
    start = detail::pairs_of(fast.simplex);
    if (fast.status != Status::IterationLimit) {
      if (auto proven = detail::certify_pairs(a, b, start, output))
        return finish(std::move(*proven), CertifiedPath::DoubleCertified, 0);
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
  std::optional<CertifiedResult<V>> proven = detail::certify_pairs(a, b, detail::pairs_of(exact.simplex), output);
  if (!proven) throw std::logic_error("gjkref: the exact core's answer failed its certificate — a bug in gjkref");
  return finish(std::move(*proven), CertifiedPath::ExactFinish, exact.iterations);
}

}  // namespace gjkref
