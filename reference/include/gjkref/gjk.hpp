// gjkref/gjk.hpp — the GJK loop: boolean intersection and distance with witness points.
//
// Both queries run the same loop (Gilbert, Johnson & Keerthi 1988, in van den Bergen's formulation):
//   v ← the point of the current simplex closest to the origin (regions.hpp), then
//   w ← s_{A⊖B}(−v), the support point of the Minkowski difference in direction −v, then
//   the simplex grows by w and shrinks to the feature closest to the origin, until a stop rule fires.
// Stop rules, in the order they are tested (docs/algorithm.md explains each):
//   1. the simplex encloses the origin, v = 0, or |v| is within the touching band → Intersecting
//   2. the iteration cap is reached                                             → IterationLimit (|v| is an upper
//   bound)
//   3. boolean query only: the plane v·x = v·w separates (v·w > 0, and in floating
//      modes by more than the touching band)                                      → Separated
//   4. duality gap: |v|² − v·w ≤ gap·|v|²                                         → Separated (distance converged)
//   5. w is already a vertex of the simplex (same vertex pair of A and B)         → Separated (stalled by rounding)
//   6. the new simplex is not closer to the origin than the old one              → Separated (stalled by rounding)
// Rules 4 to 6 are reached only with |v| outside the touching band (rule 1), so their verdict rests on the distance.
// With an exact scalar, the touching band and the gap are zero and rules 5 and 6 cannot fire (|v| decreases
// strictly while v·w < |v|²), so every answer is exactly right; the loop ends because |v| strictly decreases over
// finitely many simplices.
//
// The power-of-two frame. Each iteration scales the simplex points and w by the same power of two 2^−e, chosen so
// that the largest coordinate lies in [1, 2), and runs every decision in that frame. Scaling by a power of two is
// exact, so nothing is lost; it keeps dot products and the degree-4 signed areas and volumes of regions.hpp far from
// overflow and underflow for any finite input, and it makes the computation bit-for-bit the same for the input
// scaled by 2^k: every output then scales by exactly 2^k. Exact scalars use the identity frame.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "gjkref/regions.hpp"
#include "gjkref/support.hpp"
#include "gjkref/tolerances.hpp"

namespace gjkref {

enum class Status {
  Separated,       // the shapes are disjoint; `closest` is the shortest vector between them
  Intersecting,    // the shapes share a point; touching counts (the shapes are closed sets)
  IterationLimit,  // the cap was reached first; |closest| is an upper bound on the distance, nothing more
  InvalidInput,    // see `input_error`; no other field is meaningful
};

// Which stop rule ended the loop (the numbered rules at the top of this file). Tells why an answer is what it is.
enum class StopRule {
  None,             // invalid input: the loop never ran
  Enclosed,         // 1: the full-dimensional simplex contains the origin (as the region test decided)
  OriginOnSimplex,  // 1: v, computed, is exactly zero: the origin lies on the simplex (a vertex, edge or face)
  TouchingBand,     // 1: v is not zero but within the touching band (floating modes only)
  IterationCap,     // 2
  SeparatingPlane,  // 3: boolean query, v·w > 0
  DualityGap,       // 4
  RepeatedSupport,  // 5: w is already in the simplex (floating modes only)
  NoProgress,       // 6: the new simplex is not closer (floating modes only)
};

enum class InputError {
  None,
  EmptyA,              // shape A has no points
  EmptyB,              // shape B has no points
  NonFiniteA,          // shape A has a NaN or infinite coordinate (or transform entry)
  NonFiniteB,          // likewise for B
  DifferenceOverflow,  // a difference a − b overflowed to infinity (finite inputs near the top of the range)
  BadWarmStart,        // a warm-start index pair names a vertex that does not exist
};

// The simplex GJK ended with: points of A⊖B (with the vertices of A and B that made them) and the barycentric
// weights of the closest point. Weights are ≥ 0 and sum to 1 (exactly, with an exact scalar).
template <Vector V>
struct Simplex {
  std::array<SupportPoint<V>, 4> points{};
  std::array<scalar_t<V>, 4> weights{};
  int size = 0;
  bool encloses_origin = false;  // full-dimensional and containing the origin (the weights locate it)

  // Σ λ_i x_i for x = w, a or b.
  template <class Member>
  V combine(Member member) const {
    V r = weights[0] * (points[0].*member);
    for (int i = 1; i < size; ++i) r = r + weights[i] * (points[i].*member);
    return r;
  }
  bool contains(const SupportPoint<V>& p) const {
    for (int i = 0; i < size; ++i)
      if (points[i].same_vertices(p)) return true;
    return false;
  }
};

// Proof of separation: every point x of A⊖B has direction·x ≤ direction·support.w < 0, so the origin is not in A⊖B.
// `support` is s_{A⊖B}(direction) as computed; an exact re-check recomputes the maximum over all vertices.
template <Vector V>
struct SeparationCertificate {
  V direction;
  SupportPoint<V> support;
};

template <Vector V>
struct Options {
  int max_iterations = kDefaultMaxIterations;
  // Warm start (temporal coherence), optional. Either a first search direction (e.g. the previous query's
  // `closest`, negated: any non-zero vector), or a previous simplex as (index in A, index in B) pairs, for shapes
  // that hand out vertices by index. The answer (status and distance) is the same as a cold start's; only the path
  // and the iteration count change.
  std::optional<V> initial_direction;
  std::vector<std::pair<std::size_t, std::size_t>> warm_start_simplex;
};

template <Vector V>
struct Result {
  using scalar_type = scalar_t<V>;

  Status status = Status::InvalidInput;
  InputError input_error = InputError::None;
  StopRule stop_rule = StopRule::None;
  // v = witness_a − witness_b, the point of A⊖B closest to the origin. Zero when intersecting.
  V closest{};
  // Closest points on A and B: Σ λ_i a_i and Σ λ_i b_i over the final simplex. When intersecting, a common point
  // (in floating modes the two may differ by up to the touching band).
  V witness_a{}, witness_b{};
  Simplex<V> simplex;  // when intersecting: the certificate, a simplex of A⊖B containing the origin
  // Passes of the main loop: each makes one support query after the first. The walk past a flat segment (rule 6) makes
  // at most kStalledStepsWithGap more per query, not counted here.
  int iterations = 0;
  std::optional<SeparationCertificate<V>> separation;  // when separated: the certificate

  // |v|², exact with an exact scalar. In floating modes it may under/overflow for extreme inputs: use distance().
  scalar_type squared_distance() const { return dot(closest, closest); }

  // |v|: for floating scalars, in the scalar's own precision, computed in a power-of-two frame (it never under- or
  // overflows and scales exactly); for exact scalars (no square root), the square root of the exact squared
  // distance rounded to double — for display; the exact answer is squared_distance().
  auto distance() const {
    using Tr = ScalarTraits<scalar_type>;
    if constexpr (Tr::is_exact) {
      return Tr::sqrt_as_double(squared_distance());
    } else {
      const int e = Tr::frame_exponent(max_abs_component(closest));
      const V scaled = scale_by_power_of_two(closest, -e);
      return Tr::scale_by_power_of_two(std::sqrt(dot(scaled, scaled)), e);
    }
  }
};

namespace detail {

enum class Query { Boolean, Distance };

// The simplex's points (and optionally one more) scaled into the current power-of-two frame: points = w·2^−exponent.
template <Vector V>
struct Frame {
  Points<V> points{};
  int count = 0;
  int exponent = 0;
};

template <Vector V>
Frame<V> make_frame(const Simplex<V>& s, std::type_identity_t<const SupportPoint<V>*> extra) {
  using T = scalar_t<V>;
  using Tr = ScalarTraits<T>;
  T largest = max_abs_component(s.points[0].w);
  for (int i = 1; i < s.size; ++i) largest = std::max(largest, max_abs_component(s.points[i].w));
  if (extra) largest = std::max(largest, max_abs_component(extra->w));
  const int e = Tr::frame_exponent(largest);
  Frame<V> f;
  for (int i = 0; i < s.size; ++i) f.points[i] = scale_by_power_of_two(s.points[i].w, -e);
  f.count = s.size;
  f.exponent = e;
  if (extra) f.points[f.count++] = scale_by_power_of_two(extra->w, -e);
  return f;
}

// Two-word ("double-double") arithmetic for one formula: a value is hi + lo with |lo| ≤ ulp(hi)/2. Sums and products
// of two T values are exact as two words (Knuth's two-sum, and fma for the product's rounding error); further
// products keep about twice T's precision.
template <class T>
struct TwoWord {
  T hi{}, lo{};
};
template <class T>
TwoWord<T> two_sum(T a, T b) {
  const T s = a + b, bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
template <class T>
TwoWord<T> two_product(T a, T b) {
  const T p = a * b;
  return {p, std::fma(a, b, -p)};
}
template <class T>
TwoWord<T> operator+(TwoWord<T> x, TwoWord<T> y) {
  const TwoWord<T> s = two_sum(x.hi, y.hi);
  return two_sum(s.hi, s.lo + x.lo + y.lo);
}
template <class T>
TwoWord<T> operator-(TwoWord<T> x) {
  return {-x.hi, -x.lo};
}
template <class T>
TwoWord<T> operator*(TwoWord<T> x, TwoWord<T> y) {
  const TwoWord<T> p = two_product(x.hi, y.hi);
  return two_sum(p.hi, p.lo + x.hi * y.lo + x.lo * y.hi);
}

// The point of the segment [p, q] closest to the origin, for an interior closest point: v = (e × (p × e))/(e·e) with
// e = q − p, evaluated in two-word arithmetic (e exactly, the cross products to about ε²·|p|·|e|²) and rounded once.
// With one-word arithmetic, v's absolute error is about ε·|p| whatever |v|, so its direction is noise when the
// origin is within about √ε·|p| of the segment's line; here the error is about ε·|v| + ε²·|p|.
template <Vector V>
V segment_closest_two_word(const V& p, const V& q) {
  using T = scalar_t<V>;
  using W = TwoWord<T>;
  std::array<W, 3> e, pw, c, n;
  for (int i = 0; i < 3; ++i) e[i] = two_sum(q[i], T(-p[i])), pw[i] = W{p[i], T(0)};
  const auto cross_w = [](const std::array<W, 3>& a, const std::array<W, 3>& b) {
    return std::array<W, 3>{a[1] * b[2] + -(a[2] * b[1]), a[2] * b[0] + -(a[0] * b[2]), a[0] * b[1] + -(a[1] * b[0])};
  };
  c = cross_w(pw, e);
  n = cross_w(e, c);
  const W ee = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
  const T denominator = ee.hi + ee.lo;
  V v;
  for (int i = 0; i < 3; ++i) v[i] = (n[i].hi + n[i].lo) / denominator;
  return v;
}

// v in the frame: the simplex's point closest to the origin, from its own points (the first s.size of the frame).
// In exact arithmetic that is Σ λ_i p_i. In floating point Σ λ_i p_i carries an absolute rounding error of about
// ε·max|p_i| in every direction, so when |v| is small its direction is off by about ε·max|p_i|/|v|: searching along
// it can miss the support that makes progress, and a stop test v·w against |v|² becomes noise (the sign and size of
// v·w − |v|² are then decided by the rounding, not by the shapes). Where the closest point is interior to a feature
// with a well-defined normal n — a segment in 2D, a triangle in 3D — v is computed as its projection onto that
// normal, v = n (n·p₀)/(n·n): n is a few products of the vertices (its direction good to about ε whatever |v|), so v
// has n's direction and only its length carries the ε·max|p_i| error. The support search and the stop rules then
// compare along a reliable direction (docs/algorithm.md). A point, or a segment in 3D (whose perpendicular towards
// the origin is as ill-defined as v itself), uses the weights.
// A segment in 3D has no such normal; its v is computed in two-word arithmetic instead (segment_closest_two_word).
// Regression: SearchDirection.IsTheEdgeNormalNotTheRoundedV, SearchDirection.IsTheFaceNormalNotTheRoundedV,
// SearchDirection.StepsPastAFlatWedgeAtASegment, SearchDirection.NeedleDistanceIsNotMisplaced.
// Precondition: s does not enclose the origin (run() stops on such a simplex before measuring it).
template <Vector V>
V closest_in_frame(const Simplex<V>& s, const Frame<V>& f) {
  using T = scalar_t<V>;
  V v = s.weights[0] * f.points[0];
  for (int i = 1; i < s.size; ++i) v = v + s.weights[i] * f.points[i];
  for (int i = 0; i < s.size; ++i)
    if (!(s.weights[i] > T(0))) return v;  // the closest point is not interior to the feature
  if constexpr (V::dimension == 3 && !ScalarTraits<T>::is_exact) {
    if (s.size == 2) return segment_closest_two_word(f.points[0], f.points[1]);
  }
  if (s.size != V::dimension) return v;  // the normal is defined for a segment in 2D and a triangle in 3D
  V n;
  if constexpr (V::dimension == 2) {
    const V e = f.points[1] - f.points[0];
    n = V{-e[1], e[0]};
  } else {
    n = triangle_normal(f.points[0], f.points[1], f.points[2]);  // from its two shortest edges (regions.hpp)
  }
  const T nn = dot(n, n);
  if (!(nn > T(0))) return v;
  // n·p from a point p of the plane near the origin: n's direction is good to an angle θ, and n·p then errs by about
  // θ·|p|. In 2D the vertex nearest the origin; in 3D also the point of the longest edge's line nearest it, for a
  // sliver (plane_point_near_origin, regions.hpp; finding 11 was off by 5,000 times the distance from the vertex).
  // Regression: SearchDirection.LongDoubleMeasuresASliverFromItsLongestEdge.
  V base = f.points[0];
  if constexpr (V::dimension == 3) {
    base = plane_point_near_origin(f.points[0], f.points[1], f.points[2]);
  } else {
    if (dot(f.points[1], f.points[1]) < dot(base, base)) base = f.points[1];
  }
  return (dot(n, base) / nn) * n;
}

// max |p|² over the frame's points.
template <Vector V>
scalar_t<V> largest_squared(const Frame<V>& f) {
  scalar_t<V> largest = dot(f.points[0], f.points[0]);
  for (int i = 1; i < f.count; ++i) largest = std::max(largest, dot(f.points[i], f.points[i]));
  return largest;
}

// Rule 1, second half: v is not zero but within the touching band of it (floating modes only).
template <Vector V>
bool within_touching_band(const V& v, const Frame<V>& f) {
  return dot(v, v) <= Tolerances<scalar_t<V>>::touching_ratio_squared() * largest_squared(f);
}

// |v|² of a simplex as the loop measures it when that simplex is current: in the simplex's own frame, with the frame's
// exponent. The true |v|² is squared·4^exponent.
template <class T>
struct FrameNorm {
  T squared;
  int exponent;
};

template <Vector V>
FrameNorm<scalar_t<V>> norm_in_own_frame(const Simplex<V>& s) {
  const Frame<V> f = make_frame(s, nullptr);
  const V v = closest_in_frame(s, f);
  return {dot(v, v), f.exponent};
}

// Is a's true |v|² below b's? Rule 6 compares two simplices each in its own frame, never in a frame shared with a
// much larger point: in that frame the small simplex's degree-4 region quantities underflow (in float, once its
// points are 2^−37 of the largest), its measured |v| is noise, and two simplices can each look closer than the other,
// so the loop cycles to its cap (regression: SearchDirection.FloatMeasuresProgressInTheSimplexOwnFrame). Measured
// each in its own frame, as the next iteration will measure it, |v| strictly decreases from one simplex to the next
// and the loop ends. The comparison is by binary exponent, then by significand: the scaled values need not be
// representable in one frame.
template <class T>
bool is_closer(const FrameNorm<T>& a, const FrameNorm<T>& b) {
  if constexpr (ScalarTraits<T>::is_exact) {
    return a.squared < b.squared;  // exact scalars use the identity frame
  } else {
    if (!(b.squared > T(0))) return false;
    if (!(a.squared > T(0))) return true;
    const int ea = std::ilogb(a.squared) + 2 * a.exponent, eb = std::ilogb(b.squared) + 2 * b.exponent;
    if (ea != eb) return ea < eb;
    return std::scalbn(a.squared, -std::ilogb(a.squared)) < std::scalbn(b.squared, -std::ilogb(b.squared));
  }
}

template <Vector V>
Simplex<V> reduce(const std::array<SupportPoint<V>, 4>& candidates, const ClosestFeature<scalar_t<V>>& f) {
  Simplex<V> s;
  s.size = f.count;
  for (int i = 0; i < f.count; ++i) {
    s.points[i] = candidates[f.vertex[i]];
    s.weights[i] = f.weight[i];
  }
  s.encloses_origin = f.encloses_origin;
  return s;
}

template <Vector V>
Result<V> finish(Result<V> r, Status status, StopRule rule, const Simplex<V>& s) {
  r.status = status;
  r.stop_rule = rule;
  r.simplex = s;
  r.witness_a = s.combine(&SupportPoint<V>::a);
  r.witness_b = s.combine(&SupportPoint<V>::b);
  r.closest = (status == Status::Intersecting) ? V{} : s.combine(&SupportPoint<V>::w);
  return r;
}

template <Vector V>
Result<V> invalid(InputError e) {
  Result<V> r;
  r.status = Status::InvalidInput;
  r.input_error = e;
  return r;
}

template <SupportMapping A, SupportMapping B>
std::optional<InputError> validate(const A& a, const B& b) {
  const ShapeCheck check_a = a.check(), check_b = b.check();
  if (check_a == ShapeCheck::Empty) return InputError::EmptyA;
  if (check_a == ShapeCheck::NonFinite) return InputError::NonFiniteA;
  if (check_b == ShapeCheck::Empty) return InputError::EmptyB;
  if (check_b == ShapeCheck::NonFinite) return InputError::NonFiniteB;
  return std::nullopt;
}

// The warm-start layer. Every simplex the loop builds from a cold start is affinely independent in exact arithmetic
// (each new w lies off the affine hull of the current feature), and the region functions are written for such
// simplices. A warm start names arbitrary points of A⊖B, so it is held to the same rule: a point that lies in the
// affine hull of the points kept before it adds nothing and is dropped — any subset of A⊖B's points is a valid start,
// so dropping never changes the answer, only how warm the start is. "Lies in the hull" is decided exactly in exact
// arithmetic; in floating modes a measure within its rounding counts as zero (kVolumeRoundingEpsilons·ε times the
// product of the edge lengths, as in signed_volume): a repeated point; a third point whose cross product with the
// first two is that small (collinear); a fourth whose volume with the first three is (coplanar). Kept, such a point
// makes a flat triangle or tetrahedron whose rounded areas or volumes can all share one sign, and the region tests
// then see the origin enclosed. Regressions: WarmStart.RepeatedPointsDoNotMakeAFalseEnclosure,
// WarmStart.CoplanarPointsDoNotMakeAFalseEnclosure; properties: WarmStart.FlatDifferencesGiveTheColdAnswer{2d,3d}.
template <Vector V>
bool extends_the_hull(const std::array<SupportPoint<V>, 4>& kept, int k, const V& w) {
  using T = scalar_t<V>;
  using std::abs;
  if (k == 0 || !is_finite(w)) return true;  // an overflowing difference is kept, for the loop to report
  const V& p = kept[0].w;
  if (k == 1) return !(w == p);
  if (k == 2) {
    const V e1 = kept[1].w - p, e2 = w - p;
    const auto n = cross(e1, e2);
    T nn;
    if constexpr (V::dimension == 3)
      nn = dot(n, n);
    else
      nn = n * n;
    const T r = Tolerances<T>::volume_rounding();
    return nn > r * r * dot(e1, e1) * dot(e2, e2);
  }
  if constexpr (V::dimension == 3) {
    const Volume<T> volume = signed_volume(p, kept[1].w, kept[2].w, w);
    return abs(volume.value) > volume.rounding;
  } else {
    return false;  // a 2D simplex has at most three points
  }
}

// The first simplex: from a warm-start simplex (through the warm-start layer above), or the support point in the
// initial direction (default: +x).
template <SupportMapping A, SupportMapping B, Vector V = typename A::vector_type>
std::optional<Simplex<V>> initial_simplex(const A& a, const B& b, const Options<V>& options) {
  if (!options.warm_start_simplex.empty()) {
    if constexpr (IndexedShape<A> && IndexedShape<B>) {
      std::array<SupportPoint<V>, 4> pts{};
      if (options.warm_start_simplex.size() > static_cast<std::size_t>(V::dimension + 1)) return std::nullopt;
      int k = 0;
      for (const auto& [ia, ib] : options.warm_start_simplex) {
        if (ia >= a.size() || ib >= b.size()) return std::nullopt;
        const V pa = a.vertex(ia), pb = b.vertex(ib);
        const V w = pa - pb;
        if (extends_the_hull(pts, k, w)) pts[k++] = {w, pa, pb, ia, ib};
      }
      Simplex<V> whole;
      whole.points = pts;
      whole.size = k;
      const Frame<V> f = make_frame(whole, nullptr);
      return reduce(pts, closest_on_simplex(f.points, k));
    } else {
      return std::nullopt;  // warm start by indices needs shapes that hand out vertices by index
    }
  }
  V d{};
  if (options.initial_direction && !is_zero(*options.initial_direction))
    d = *options.initial_direction;
  else
    d[0] = scalar_t<V>(1);
  Simplex<V> s;
  s.points[0] = minkowski_support(a, b, d);
  s.weights[0] = scalar_t<V>(1);
  s.size = 1;
  return s;
}

// Rule 6's stall at a 3D segment [p, q] of a nearly flat A⊖B, when the region tests drop w: every triangle (p, q, x)
// then has its closest point on [p, q] to within rounding (the origin is off the line pq by |v|, off every such
// triangle's plane by as much), so v — perpendicular to the segment — cannot tell which way A⊖B extends, and the
// loop sees no progress. Exact arithmetic walks on through triangles (p, q, x) whose closest points are interior by a
// relative 10⁻³²: along each triangle's normal towards the origin it finds the next x. This does the same walk, at
// most kStalledStepsWithGap supports per query (counted in `stalled`): for each new support y it examines the
// tetrahedron (p, q, x, y), and returns its closest feature if that encloses the origin or is measurably closer than
// [p, q]; otherwise it moves on to the triangle (p, q, y). nullopt: no progress.
// Regression: SearchDirection.LongDoubleStepsPastAFlatSegment.
template <SupportMapping A, SupportMapping B, Vector V = typename A::vector_type>
std::optional<Simplex<V>> step_past_a_flat_segment(const A& a, const B& b, const Simplex<V>& segment,
                                                   SupportPoint<V> x, int& stalled) {
  using T = scalar_t<V>;
  while (stalled < kStalledStepsWithGap) {
    ++stalled;
    Simplex<V> triangle = segment;
    triangle.points[2] = x;
    triangle.size = 3;
    const Frame<V> f3 = make_frame(triangle, nullptr);
    const V n = triangle_normal(f3.points[0], f3.points[1], f3.points[2]);
    const T side = dot(n, f3.points[0]);  // > 0: the origin is on the side −n of the triangle's plane
    if (side == T(0)) return std::nullopt;
    const SupportPoint<V> y = minkowski_support(a, b, side > T(0) ? V(-n) : n);
    if (!is_finite(y.w) || triangle.contains(y)) return std::nullopt;
    const Frame<V> f4 = make_frame(triangle, &y);
    std::array<SupportPoint<V>, 4> four = triangle.points;
    four[3] = y;
    const ClosestFeature<T> feature = closest_on_simplex(f4.points, 4);
    const Simplex<V> next = reduce(four, feature);
    if (feature.encloses_origin) return next;
    if (is_closer(norm_in_own_frame(next), norm_in_own_frame(segment))) return next;
    x = y;
  }
  return std::nullopt;
}

template <SupportMapping A, SupportMapping B, Vector V = typename A::vector_type>
Result<V> run(const A& a, const B& b, const Options<V>& options, Query query) {
  using T = scalar_t<V>;
  if (auto error = validate(a, b)) return invalid<V>(*error);
  std::optional<Simplex<V>> start = initial_simplex(a, b, options);
  if (!start) return invalid<V>(InputError::BadWarmStart);
  Simplex<V> s = *start;
  for (int i = 0; i < s.size; ++i)
    if (!is_finite(s.points[i].w)) return invalid<V>(InputError::DifferenceOverflow);

  Result<V> r;
  int stalled_steps = 0;  // see rule 6
  for (int iteration = 0;; ++iteration) {
    r.iterations = iteration;
    if (s.encloses_origin) return finish(r, Status::Intersecting, StopRule::Enclosed, s);
    const Frame<V> frame = make_frame(s, nullptr);
    const V v0 = closest_in_frame(s, frame);
    if (is_zero(v0)) return finish(r, Status::Intersecting, StopRule::OriginOnSimplex, s);
    if (within_touching_band(v0, frame)) return finish(r, Status::Intersecting, StopRule::TouchingBand, s);
    if (iteration >= options.max_iterations) return finish(r, Status::IterationLimit, StopRule::IterationCap, s);

    const SupportPoint<V> w = minkowski_support(a, b, -v0);
    if (!is_finite(w.w)) return invalid<V>(InputError::DifferenceOverflow);
    r.iterations = iteration + 1;

    // Re-frame with w included (its magnitude may exceed the simplex's).
    const Frame<V> f = make_frame(s, &w);
    const V v = closest_in_frame(s, f);
    const V& wf = f.points[s.size];
    const T vv = dot(v, v);
    const T vw = dot(v, wf);
    // Rule 3. The plane v·x = v·w separates A⊖B from the origin when v·w > 0. In floating modes it must also clear
    // the origin by more than the touching band, (v·w)² > band²·|v|²·max|w_i|² (w included): then the rounding of
    // v·w and of the support's choice cannot have made the sign, and the certificate (−v, w) holds exactly. Exact:
    // band 0, so simply v·w > 0.
    const bool clears_band = vw > T(0) && vw * vw > Tolerances<T>::touching_ratio_squared() * vv * largest_squared(f);
    // Rules 4 to 6 answer Separated by the distance: rule 1 has just found |v| outside the touching band. (Not by the
    // sign of v·w: v carries an absolute rounding error of about ε·max|w_i|, which tilts its direction by about
    // ε·max|w_i|/|v|; for distances below about √ε·max|w_i| that tilt, across the shapes' size, exceeds |v|², and
    // v·w can take either sign. The distance itself stays accurate — docs/contract.md.)
    const auto separated = [&](StopRule rule) {
      r.separation = SeparationCertificate<V>{-v, w};
      return finish(r, Status::Separated, rule, s);
    };
    if (query == Query::Boolean && clears_band) return separated(StopRule::SeparatingPlane);
    if (vv - vw <= Tolerances<T>::relative_gap() * vv) return separated(StopRule::DualityGap);
    if (s.contains(w)) return separated(StopRule::RepeatedSupport);

    std::array<SupportPoint<V>, 4> candidates = s.points;
    candidates[s.size] = w;
    const ClosestFeature<T> feature = closest_on_simplex(f.points, s.size + 1);
    const Simplex<V> next = reduce(candidates, feature);
    if (!feature.encloses_origin) {
      // Rule 6: the next simplex must be closer, each |v| measured in its simplex's own frame (is_closer).
      if (!is_closer(norm_in_own_frame(next), FrameNorm<T>{dot(v0, v0), frame.exponent})) {
        // A stall with a real duality gap: w beats the simplex by more than the rounding of v·w, the region tests
        // took w into the next simplex, but that simplex is closer by less than the rounding — the closer points lie
        // in a wedge too flat to measure (two shapes sharing a vertex make one). Take the step anyway, at most
        // kStalledStepsWithGap times per query, and search along the next simplex's own normal.
        const bool real_gap = (vv - vw) * (vv - vw) > Tolerances<T>::touching_ratio_squared() * vv * largest_squared(f);
        if (real_gap && next.contains(w) && stalled_steps < kStalledStepsWithGap) {
          ++stalled_steps;
          s = next;
          continue;
        }
        if constexpr (V::dimension == 3) {
          if (real_gap && s.size == 2 && !next.contains(w)) {
            if (auto past = step_past_a_flat_segment(a, b, s, w, stalled_steps)) {
              if (past->encloses_origin) return finish(r, Status::Intersecting, StopRule::Enclosed, *past);
              s = *past;
              continue;
            }
          }
        }
        return separated(StopRule::NoProgress);
      }
    }
    s = next;
  }
}

}  // namespace detail

// Do A and B intersect? Touching counts as intersecting. Stops as soon as a separating plane is found, so for a
// separated answer `closest` is only an upper bound on the distance; use distance() for the distance.
template <SupportMapping A, SupportMapping B>
requires std::same_as<typename A::vector_type, typename B::vector_type> Result<typename A::vector_type> intersect(
    const A& a, const B& b, const Options<typename A::vector_type>& options = {}) {
  return detail::run(a, b, options, detail::Query::Boolean);
}

// The distance between A and B with witness points, or Intersecting.
template <SupportMapping A, SupportMapping B>
requires std::same_as<typename A::vector_type, typename B::vector_type> Result<typename A::vector_type> distance(
    const A& a, const B& b, const Options<typename A::vector_type>& options = {}) {
  return detail::run(a, b, options, detail::Query::Distance);
}

inline const char* to_string(Status s) {
  switch (s) {
    case Status::Separated: return "separated";
    case Status::Intersecting: return "intersecting";
    case Status::IterationLimit: return "iteration-limit";
    case Status::InvalidInput: return "invalid-input";
  }
  return "?";
}

inline const char* to_string(StopRule r) {
  switch (r) {
    case StopRule::None: return "none";
    case StopRule::Enclosed: return "enclosed";
    case StopRule::OriginOnSimplex: return "origin-on-simplex";
    case StopRule::TouchingBand: return "touching-band";
    case StopRule::IterationCap: return "iteration-cap";
    case StopRule::SeparatingPlane: return "separating-plane";
    case StopRule::DualityGap: return "duality-gap";
    case StopRule::RepeatedSupport: return "repeated-support";
    case StopRule::NoProgress: return "no-progress";
  }
  return "?";
}

inline const char* to_string(InputError e) {
  switch (e) {
    case InputError::None: return "none";
    case InputError::EmptyA: return "empty shape A";
    case InputError::EmptyB: return "empty shape B";
    case InputError::NonFiniteA: return "non-finite coordinate in A";
    case InputError::NonFiniteB: return "non-finite coordinate in B";
    case InputError::DifferenceOverflow: return "a difference a - b overflows";
    case InputError::BadWarmStart: return "warm-start index out of range (or shapes without vertex access)";
  }
  return "?";
}

}  // namespace gjkref
