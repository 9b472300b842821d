// gjkref/floating.hpp — the floating layer: what rounding forces on GJK in floating modes, kept apart from the textbook.
//
// gjk.hpp's loop and regions.hpp's simplex cases are the textbook's, the same code for every scalar; with an exact
// scalar they are all there is. A floating query runs them first as the textbook pass (TextbookPass, at the end of
// this file: TextbookRegions, one frame per query, a hand-over where it cannot vouch for its answer), and after a
// hand-over as the careful pass, which calls this layer through two compile-time policies:
//   FloatingRegions<T>  regions.hpp asks it for a triangle's normal and a tetrahedron's volumes; and, in floating
//                       modes only, to settle a face region the rounded tests missed and to refine face and enclosing
//                       weights;
//   FloatingLoop<V>     gjk.hpp asks it for v and for v·v and v·w (in a power-of-two frame), for the touching band, for
//                       rule 3's separating test; and, in floating modes only, for the secondary stop rules 5 and 6.
// Their textbook counterparts, TextbookRegions (regions.hpp) and TextbookLoop (gjk.hpp), are what the exact scalar
// runs. Each mechanism below says what rounding does without it and names the regression test that pins it;
// docs/algorithm.md ("The floating layer") lists them, docs/edge-cases.md the findings behind them.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

#include "gjkref/regions.hpp"
#include "gjkref/simplex.hpp"
#include "gjkref/support.hpp"
#include "gjkref/tolerances.hpp"

namespace gjkref {

// ==== The region layer ===============================================================================================

// Which vertex of triangle (a, b, c) — 0, 1 or 2 — is opposite its longest edge (a tie goes to the earlier vertex).
template <class T>
int opposite_longest_edge(const Vec3<T>& a, const Vec3<T>& b, const Vec3<T>& c) {
  const Vec3<T> ab = b - a, bc = c - b, ca = a - c;
  const T lab = dot(ab, ab), lbc = dot(bc, bc), lca = dot(ca, ca);
  if (!(lbc < lab) && !(lbc < lca)) return 0;  // bc the longest
  if (!(lca < lab)) return 1;                  // ca the longest
  return 2;                                    // ab the longest
}

// The triangle's normal n = (b−a)×(c−a), taken from the vertex opposite the longest edge, keeping the cyclic order
// (so n is the same vector in exact arithmetic: (b−a)×(c−a) = (c−b)×(a−b) = (a−c)×(b−c)). On a needle, where one
// vertex is far from the other two, the two long edges are nearly parallel and their cross product keeps little but
// rounding; the two short ones give n to about ε (regression: SearchDirection.NeedleTriangleNormalUsesItsShortEdges).
template <class T>
Vec3<T> triangle_normal(const Vec3<T>& a, const Vec3<T>& b, const Vec3<T>& c) {
  switch (opposite_longest_edge(a, b, c)) {
    case 0: return cross(Vec3<T>(b - a), Vec3<T>(c - a));
    case 1: return cross(Vec3<T>(c - b), Vec3<T>(a - b));
    default: return cross(Vec3<T>(a - c), Vec3<T>(b - c));
  }
}

// A point of the plane through a, b, c to measure the origin's height from, n·x with n = triangle_normal(a, b, c): the
// nearer to the origin of the vertex nearest it and the point of the longest edge's line nearest it. n's direction is
// good to an angle θ, and n·x then errs by about θ·|x|. The nearest vertex does well on a needle (the far vertex would
// lose it all). On a sliver — three nearly collinear points, width h — θ grows to about ε·R/h, and every vertex may be
// R from the origin; the point of the longest edge's line nearest the origin is within about h of the origin's
// projection when that lies over the sliver (finding 11, and finding 13 for a tetrahedron's face).
// The line's point is x₀ = p + t·u, u = q − p, t = −p·u / u·u, from the edge's end p nearer the origin (so t·u is no
// longer than p, and x₀ carries an error of about ε·|p|). A triangle whose three points coincide uses the vertex.
template <class T>
Vec3<T> plane_point_near_origin(const Vec3<T>& a, const Vec3<T>& b, const Vec3<T>& c) {
  Vec3<T> nearest = a;
  for (const Vec3<T>* x : {&b, &c})
    if (dot(*x, *x) < dot(nearest, nearest)) nearest = *x;
  Vec3<T> p = a, q = b;
  switch (opposite_longest_edge(a, b, c)) {
    case 0: p = b, q = c; break;
    case 1: p = c, q = a; break;
    default: break;
  }
  if (dot(q, q) < dot(p, p)) std::swap(p, q);
  const Vec3<T> u = q - p;
  const T uu = dot(u, u);
  if (!(uu > T(0))) return nearest;
  const Vec3<T> on_line = p + (-dot(p, u) / uu) * u;
  return dot(on_line, on_line) < dot(nearest, nearest) ? on_line : nearest;
}

// Steps of the weight refinements below (refine_face_weights, refine_enclosing_weights): a count, not a tolerance; a
// refinement stops earlier at its first step that does not bring its point nearer. Measured: on finding 12's flattest
// tetrahedron the first step took the witnesses from 2.4·10⁻⁷ to 9·10⁻¹³ apart, the second to 0; finding 15's
// tetrahedron (volume 5·10⁻¹³) took |r| from 1.6·10⁻⁴ to 1.2·10⁻⁷, 9.5·10⁻¹¹, 8.6·10⁻¹⁴ and 3.7·10⁻¹⁷, four steps;
// finding 14's sliver triangle needed one. Six leaves two spare.
inline constexpr int kWeightRefinementSteps = 6;

// Iterative refinement of a triangle's face-region weights λ = (va, vb, vc) / sum, in 3D floating modes. Their point
// r = Σ λᵢpᵢ should be the origin's projection t onto the plane; on a sliver (three nearly collinear points, width h)
// the numerators' rounding over their small sum leaves it off by about ε·R²/h, and the witnesses Σλᵢaᵢ and Σλᵢbᵢ
// drift apart by as much (finding 14: 2.2·10⁻⁸ in double). λ is affine in the point, with gradients
// gₐ = n×(c − b)/n·n, g_b = n×(a − c)/n·n, g_c = n×(b − a)/n·n, so λ − gᵢ·(r − t) are t's weights, up to the rounding
// of that product, which shrinks with r − t. As for the tetrahedron (refine_enclosing_weights): rescaled to sum 1,
// kept only if its point is nearer t and every weight stays positive, at most kWeightRefinementSteps steps.
// t = n (n·x)/n·n from plane_point_near_origin, as closest_in_frame measures v.
// Regression: SearchDirection.DoubleWitnessesOfASliverTriangle.
template <class T>
void refine_face_weights(const Vec3<T>& a, const Vec3<T>& b, const Vec3<T>& c, const Vec3<T>& n,
                         std::array<T, 4>& weight) {
  const T nn = dot(n, n);
  const Vec3<T> t = (dot(n, plane_point_near_origin(a, b, c)) / nn) * n;
  const std::array<Vec3<T>, 3> gradient = {Vec3<T>(cross(n, Vec3<T>(c - b))), Vec3<T>(cross(n, Vec3<T>(a - c))),
                                            Vec3<T>(cross(n, Vec3<T>(b - a)))};
  const auto offset_of = [&](const std::array<T, 4>& w) { return Vec3<T>(w[0] * a + w[1] * b + w[2] * c - t); };
  Vec3<T> r = offset_of(weight);
  for (int step = 0; step < kWeightRefinementSteps; ++step) {
    std::array<T, 4> refined = weight;
    for (int i = 0; i < 3; ++i) refined[i] = weight[i] - dot(gradient[i], r) / nn;
    const T total = refined[0] + refined[1] + refined[2];
    for (int i = 0; i < 3; ++i) refined[i] = refined[i] / total;
    if (!(refined[0] > T(0) && refined[1] > T(0) && refined[2] > T(0))) return;  // face-region weights stay positive
    const Vec3<T> refined_offset = offset_of(refined);
    if (!(dot(refined_offset, refined_offset) < dot(r, r))) return;
    weight = refined;
    r = refined_offset;
  }
}

// The volume D(p, q, r, s) = det(q−p, r−p, s−p) with its rounding bound, in floating modes.
// D is computed from its most central point — the one with the least sum of squared distances to the other three —
// as (−1)^k·det(q_i − q_k, q_j − q_k, q_l − q_k) when that point is the k-th (moving it to the front takes k
// transpositions). In exact arithmetic every choice gives D; in floating modes the edges from a central point are the
// short ones. From a far vertex (a needle: one point of A⊖B 10¹⁰ times farther than the rest) all three edges are
// long and nearly parallel, and D kept little but rounding (regression:
// SearchDirection.NeedleTetrahedronVolumesUseShortEdges).
// `rounding` bounds the error of `value`: kVolumeRoundingEpsilons·ε·|e₁||e₂||e₃| for the three edges (0 when exact).
template <class T>
Volume<T> signed_volume(const Vec3<T>& p, const Vec3<T>& q, const Vec3<T>& r, const Vec3<T>& s) {
  const std::array<const Vec3<T>*, 4> x = {&p, &q, &r, &s};
  int base = 0;
  T least(0);
  for (int k = 0; k < 4; ++k) {
    T spread(0);
    for (int i = 0; i < 4; ++i) {
      const Vec3<T> e = *x[i] - *x[k];
      spread += dot(e, e);
    }
    if (k == 0 || spread < least) least = spread, base = k;
  }
  std::array<Vec3<T>, 3> edge;
  for (int i = 0, j = 0; i < 4; ++i)
    if (i != base) edge[j++] = *x[i] - *x[base];
  const T d = triple(edge[0], edge[1], edge[2]);
  const T value = base % 2 == 0 ? d : T(-d);
  if constexpr (ScalarTraits<T>::is_exact) {
    return {value, T(0)};
  } else {
    using std::sqrt;
    return {value, Tolerances<T>::volume_rounding() *
                       sqrt(dot(edge[0], edge[0]) * dot(edge[1], edge[1]) * dot(edge[2], edge[2]))};
  }
}

// A volume with the origin as a vertex, D(0, q, r, s) = det(q, r, s) = n·x, is also the face's normal n times the
// origin's height over the face: x may be any point of the face's plane. When signed_volume's value is within its
// rounding (floating modes), this measures it from triangle_normal and plane_point_near_origin instead, and takes that
// if it clears its own rounding bound: kVolumeRoundingEpsilons·ε·(|a||b||x| + 2|n|·R), for n's edges a and b (the error
// of n, times x) and R the face's largest point (the error of x, from an edge end, times n, and the product's).
// Otherwise the signed_volume value stands (on small-integer input it is often exactly right, where x is not). Finding
// 13: on a sliver face whose line passes 1.57·10⁻¹⁵ from the origin, det(q, r, s) from vectors about 5 long came out
// 1.5·10⁻²³ (its bound: 5.2·10⁻¹⁷) against a true −9.5·10⁻³⁰, and the region tests put the origin beyond a face it was
// inside; from the line's nearest point it is −9.47·10⁻³⁰ (its bound: 2.3·10⁻³¹). `sign`: −1 where the origin is moved
// to the front by an odd number of transpositions. Regression:
// SearchDirection.LongDoubleMeasuresATetrahedronFromItsSliverFace.
template <class T>
T volume_with_origin(const Volume<T>& central, int sign, const Vec3<T>& q, const Vec3<T>& r, const Vec3<T>& s) {
  if constexpr (ScalarTraits<T>::is_exact) {
    return central.value;
  } else {
    using std::abs, std::sqrt;
    if (abs(central.value) > central.rounding) return central.value;
    const Vec3<T> n = triangle_normal(q, r, s);
    const Vec3<T> x = plane_point_near_origin(q, r, s);
    const T height = dot(n, x);
    // The two shortest edges are n's (triangle_normal), and no longer than the two shortest of the three lengths.
    std::array<T, 3> length = {dot(Vec3<T>(r - q), Vec3<T>(r - q)), dot(Vec3<T>(s - r), Vec3<T>(s - r)),
                               dot(Vec3<T>(q - s), Vec3<T>(q - s))};
    std::sort(length.begin(), length.end());
    const T largest = sqrt(std::max({dot(q, q), dot(r, r), dot(s, s)}));
    const T bound = Tolerances<T>::volume_rounding() *
                    (sqrt(length[0] * length[1] * dot(x, x)) + T(2) * sqrt(dot(n, n)) * largest);
    if (!(abs(height) > bound)) return central.value;
    return sign > 0 ? height : T(-height);
  }
}

// Iterative refinement of an enclosing tetrahedron's weights λ = v / sum. Their point r = Σ λᵢpᵢ should be the
// origin; on a nearly flat tetrahedron the volumes' rounding, divided by a small sum, leaves it off by far more than
// ε·R, and the witnesses Σλᵢaᵢ and Σλᵢbᵢ drift apart by as much (finding 12: 2.4·10⁻⁷ in double). Each vᵢ is the
// volume with pᵢ replaced by the origin, affine in that point with gradient gᵢ (the area vector of the opposite face,
// signed), so the weights of r itself are λ + (gᵢ·r)/sum, and λᵢ − (gᵢ·r)/sum are the origin's, up to the rounding of
// gᵢ·r, which shrinks with r. Each step multiplies |r| by about the tetrahedron's condition number times ε; a step is
// kept only if its point is nearer the origin, and the refinement stops at the first that is not. In exact arithmetic
// r = 0 and nothing changes. Regression: SearchDirection.DoubleWitnessesOfAFlatEnclosingTetrahedron.

template <class T>
void refine_enclosing_weights(const Points<Vec3<T>>& p, T sum, std::array<T, 4>& weight) {
  const auto point_of_weights = [&p](const std::array<T, 4>& w) {
    Vec3<T> r = w[0] * p[0];
    for (int i = 1; i < 4; ++i) r = r + w[i] * p[i];
    return r;
  };
  // D(p₀, p₁, p₂, p₃) = ((p₁ − p₀) × (p₂ − p₀))·(p₃ − p₀): its gradient in each point.
  const std::array<Vec3<T>, 4> gradient = {Vec3<T>(cross(Vec3<T>(p[2] - p[3]), Vec3<T>(p[1] - p[3]))),
                                            Vec3<T>(cross(Vec3<T>(p[2] - p[0]), Vec3<T>(p[3] - p[0]))),
                                            Vec3<T>(cross(Vec3<T>(p[3] - p[0]), Vec3<T>(p[1] - p[0]))),
                                            Vec3<T>(cross(Vec3<T>(p[1] - p[0]), Vec3<T>(p[2] - p[0])))};
  Vec3<T> r = point_of_weights(weight);
  for (int step = 0; step < kWeightRefinementSteps; ++step) {
    std::array<T, 4> refined = weight;
    for (int i = 0; i < 4; ++i) refined[i] = weight[i] - dot(gradient[i], r) / sum;
    // The gradients sum to zero (D does not change when all four points move alike), so the corrections do; their
    // rounding does not, and over a small sum it would move Σλᵢ off 1 (and the witnesses off their hulls): rescale.
    const T total = refined[0] + refined[1] + refined[2] + refined[3];
    for (T& w : refined) w = w / total;
    const Vec3<T> refined_point = point_of_weights(refined);
    if (!(dot(refined_point, refined_point) < dot(r, r))) return;
    weight = refined;
    r = refined_point;
  }
}


template <class T>
struct FloatingRegions {
  static constexpr bool rounds = true;

  static Vec3<T> normal(const Vec3<T>& a, const Vec3<T>& b, const Vec3<T>& c) { return triangle_normal(a, b, c); }
  static Volume<T> volume(const Vec3<T>& p, const Vec3<T>& q, const Vec3<T>& r, const Vec3<T>& s) {
    return signed_volume(p, q, r, s);
  }
  // va = D(0, b, c, d), vb = D(a, 0, c, d) = −D(0, a, c, d), vc = D(a, b, 0, d) = D(0, a, b, d),
  // vd = D(a, b, c, 0) = −D(0, a, b, c); each from its central point, or from a face's height (volume_with_origin).
  static std::array<T, 4> origin_volumes(const Points<Vec3<T>>& p) {
    const Vec3<T> o{};
    return {volume_with_origin(signed_volume(o, p[1], p[2], p[3]), 1, p[1], p[2], p[3]),
            volume_with_origin(signed_volume(p[0], o, p[2], p[3]), -1, p[0], p[2], p[3]),
            volume_with_origin(signed_volume(p[0], p[1], o, p[3]), 1, p[0], p[1], p[3]),
            volume_with_origin(signed_volume(p[0], p[1], p[2], o), -1, p[0], p[1], p[2])};
  }

  // The triangle's face region with a weight ≤ 0: the rounded tests rejected every vertex and edge region, yet the
  // face's weights are not all positive (unreachable in exact arithmetic). The closest of the three edges, flagged.
  template <Vector V>
  static ClosestFeature<T> face_region_missed(const Points<V>& p, int ia, int ib, int ic) {
    const std::array<ClosestFeature<T>, 3> edges = {closest_on_segment(p, ia, ib), closest_on_segment(p, ib, ic),
                                                    closest_on_segment(p, ia, ic)};
    ClosestFeature<T> f = closest_of(p, edges, 3);
    f.rounding_fallback = true;
    return f;
  }

  static void refine_face_weights(const Vec3<T>& a, const Vec3<T>& b, const Vec3<T>& c, const Vec3<T>& n,
                                  std::array<T, 4>& weight) {
    gjkref::refine_face_weights(a, b, c, n, weight);
  }

  // The enclosing tetrahedron's weights, refined (refine_enclosing_weights). Refined weights below zero: as rounded,
  // the origin lies outside the tetrahedron by a hair, beyond the faces opposite those vertices, and the closest of
  // them holds the closest point (with weights that keep the witnesses in their hulls). Regression:
  // SearchDirection.DoubleWitnessesOfAFlatEnclosingTetrahedron.
  static ClosestFeature<T> settle_enclosing_weights(const Points<Vec3<T>>& p, T sum, ClosestFeature<T> f) {
    static constexpr std::array<std::array<int, 3>, 4> face = {{{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}}};
    refine_enclosing_weights(p, sum, f.weight);
    std::array<ClosestFeature<T>, 4> candidates{};
    int count = 0;
    for (int i = 0; i < 4; ++i)
      if (f.weight[i] < T(0)) candidates[count++] = closest_on_triangle(p, face[i][0], face[i][1], face[i][2]);
    if (count > 0) return closest_of(p, candidates, count);
    return f;
  }
};

// ==== The loop layer =================================================================================================

namespace detail {

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
    n = triangle_normal(f.points[0], f.points[1], f.points[2]);  // from its two shortest edges
  }
  const T nn = dot(n, n);
  if (!(nn > T(0))) return v;
  // n·p from a point p of the plane near the origin: n's direction is good to an angle θ, and n·p then errs by about
  // θ·|p|. In 2D the vertex nearest the origin; in 3D also the point of the longest edge's line nearest it, for a
  // sliver (plane_point_near_origin; finding 11 was off by 5,000 times the distance from the vertex).
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
  if (!(b.squared > T(0))) return false;
  if (!(a.squared > T(0))) return true;
  const int ea = std::ilogb(a.squared) + 2 * a.exponent, eb = std::ilogb(b.squared) + 2 * b.exponent;
  if (ea != eb) return ea < eb;
  return std::scalbn(a.squared, -std::ilogb(a.squared)) < std::scalbn(b.squared, -std::ilogb(b.squared));
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


}  // namespace detail

template <Vector V>
struct FloatingLoop {
  using T = scalar_t<V>;
  using Regions = FloatingRegions<T>;
  static constexpr bool rounds = true;
  static constexpr Pass pass = Pass::Careful;

  // The current simplex as the loop measures it: v in the simplex's own frame.
  struct Measure {
    V v;             // the closest point, in the frame (scaled by 2^−exponent)
    int exponent;    // the frame's
    T vv;            // |v|², in the frame
    T largest;       // max |p|² over the simplex's points, in the frame
  };
  // One step: the simplex's points and w in one frame (w included: its magnitude may exceed the simplex's), and v
  // measured again in it.
  struct Step {
    Points<V> points;
    V v;
    T vv, vw;
    T largest;  // max |p|² over the points and w, in the frame
  };
  // What the loop's rules 5 and 6 remember across iterations.
  struct State {
    int stalled_steps = 0;         // steps taken past a stall (kStalledStepsWithGap)
    std::optional<Measure> known;  // rule 6 measured the simplex the loop goes on with: the next measure() is this
  };

  static Points<V> frame_points(const Simplex<V>& s) { return detail::make_frame(s, nullptr).points; }

  static Measure measure(const Simplex<V>& s, State& state) {
    if (state.known) {
      const Measure m = *state.known;
      state.known.reset();
      return m;
    }
    const detail::Frame<V> f = detail::make_frame(s, nullptr);
    const V v = detail::closest_in_frame(s, f);
    return {v, f.exponent, dot(v, v), detail::largest_squared(f)};
  }

  // Rule 1, second half: v is not zero but within the touching band of it.
  static bool within_touching_band(const Measure& m) {
    return m.vv <= Tolerances<T>::touching_ratio_squared() * m.largest;
  }

  static Step step(const Simplex<V>& s, const SupportPoint<V>& w, const Measure&, State&) {
    const detail::Frame<V> f = detail::make_frame(s, &w);
    const V v = detail::closest_in_frame(s, f);
    return {f.points, v, dot(v, v), dot(v, f.points[s.size]), detail::largest_squared(f)};
  }

  // Rule 3. The plane v·x = v·w separates A⊖B from the origin when v·w > 0; here it must also clear the origin by more
  // than the touching band, (v·w)² > band²·|v|²·max|w_i|² (w included): then the rounding of v·w and of the support's
  // choice cannot have made the sign, and the certificate (−v, w) holds exactly.
  static bool separates(const Step& step) {
    return step.vw > T(0) && step.vw * step.vw > Tolerances<T>::touching_ratio_squared() * step.vv * step.largest;
  }

  // Rules 5 and 6, the secondary stop rules: they stop a loop that rounding has stalled, where exact arithmetic would
  // have stopped by rule 4 or gone on making progress.
  //   5. w is already a vertex of the simplex (the same vertex pair of A and B)  → stop, separated;
  //   6. the next simplex is not closer to the origin than the current one, each |v| measured in its own frame
  //      (is_closer)                                                              → stop, separated;
  // except where the duality gap is real (w beats the simplex by more than the rounding of v·w): then the loop steps
  // on past the stall, at most kStalledStepsWithGap times per query (take_stalled_step, step_past_a_flat_segment).
  struct Progress {
    std::optional<StopRule> stop;  // RepeatedSupport or NoProgress: stop on the current simplex
    bool hand_over = false;        // never: the careful pass answers every query it runs
  };
  // `next` is the simplex the loop goes on with, unless this stops the loop; a step past a flat segment replaces it.
  template <SupportMapping A, SupportMapping B>
  static Progress progress(const A& a, const B& b, const Simplex<V>& s, const SupportPoint<V>& w, const Measure& m,
                           const Step& step, const ClosestFeature<T>&, Simplex<V>& next,
                           State& state) {
    if (s.contains(w)) return {StopRule::RepeatedSupport};
    if (next.encloses_origin) return {};
    const detail::Frame<V> f = detail::make_frame(next, nullptr);
    const V v_next = detail::closest_in_frame(next, f);
    const Measure measured{v_next, f.exponent, dot(v_next, v_next), detail::largest_squared(f)};
    if (detail::is_closer(detail::FrameNorm<T>{measured.vv, measured.exponent}, detail::FrameNorm<T>{m.vv, m.exponent})) {
      state.known = measured;
      return {};
    }
    // A stall with a real duality gap: w beats the simplex by more than the rounding of v·w, the region tests took w
    // into the next simplex, but that simplex is closer by less than the rounding — the closer points lie in a wedge
    // too flat to measure (two shapes sharing a vertex make one). Take the step anyway and search along the next
    // simplex's own normal.
    const T gap = step.vv - step.vw;
    const bool real_gap = gap * gap > Tolerances<T>::touching_ratio_squared() * step.vv * step.largest;
    if (real_gap && next.contains(w) && state.stalled_steps < kStalledStepsWithGap) {
      ++state.stalled_steps;
      state.known = measured;
      return {};
    }
    if constexpr (V::dimension == 3) {
      if (real_gap && s.size == 2 && !next.contains(w)) {
        if (auto past = detail::step_past_a_flat_segment(a, b, s, w, state.stalled_steps)) {
          next = *past;
          return {};
        }
      }
    }
    return {StopRule::NoProgress};
  }
};

// ==== The textbook pass ==============================================================================================

namespace detail {

// The sign of a determinant computed in T, when rounding cannot have made it: +1 or −1 when |value| exceeds
// determinant_rounding()·permanent plus the smallest normal number (tolerances.hpp, kDeterminantRoundingEpsilons),
// else 0 (undecided; also for a non-finite value or bound).
template <class T>
int certain_sign(T value, T permanent) {
  const T bound = Tolerances<T>::determinant_rounding() * permanent + std::numeric_limits<T>::min();
  if (value > bound) return 1;
  if (value < -bound) return -1;
  return 0;
}

// det(x, y, z) = x·(y×z), as TextbookRegions computes it, and its certain sign.
template <class T>
int certain_sign_of_triple(const Vec3<T>& x, const Vec3<T>& y, const Vec3<T>& z) {
  using std::abs;
  const T permanent = abs(x.x) * (abs(y.y * z.z) + abs(y.z * z.y)) + abs(x.y) * (abs(y.z * z.x) + abs(y.x * z.z)) +
                      abs(x.z) * (abs(y.x * z.y) + abs(y.y * z.x));
  return certain_sign(triple(x, y, z), permanent);
}

template <class T>
int certain_sign_of_cross(const Vec2<T>& x, const Vec2<T>& y) {
  using std::abs;
  return certain_sign(cross(x, y), T(abs(x.x * y.y) + abs(x.y * y.x)));
}

// Does the full-dimensional simplex p contain the origin, for certain? Its barycentric determinants — det(b, c, d),
// −det(a, c, d), det(a, b, d), −det(a, b, c) for a tetrahedron; cross(a, b), cross(b, c), cross(c, a) for a triangle —
// all have one certain sign: then the origin lies strictly inside, in exact arithmetic.
template <class T>
bool encloses_for_certain(const Points<Vec3<T>>& p) {
  const int s0 = certain_sign_of_triple(p[1], p[2], p[3]), s1 = -certain_sign_of_triple(p[0], p[2], p[3]),
            s2 = certain_sign_of_triple(p[0], p[1], p[3]), s3 = -certain_sign_of_triple(p[0], p[1], p[2]);
  return s0 != 0 && s0 == s1 && s0 == s2 && s0 == s3;
}
template <class T>
bool encloses_for_certain(const Points<Vec2<T>>& p) {
  const int s0 = certain_sign_of_cross(p[0], p[1]), s1 = certain_sign_of_cross(p[1], p[2]),
            s2 = certain_sign_of_cross(p[2], p[0]);
  return s0 != 0 && s0 == s1 && s0 == s2;
}

}  // namespace detail

// In floating modes a query runs the textbook first: TextbookLoop's measures and TextbookRegions' simplex cases, in T,
// in one power-of-two frame fixed for the query by the first simplex's largest coordinate (so scaling the input by 2^k
// changes no decision, and the degree-4 quantities stay in range). It answers itself where docs/contract.md's bounds
// hold for any rounded v that is a combination of simplex points with weights ≥ 0:
//   rule 1: v exactly zero, or within the touching band;
//   rule 1: an enclosing simplex whose barycentric determinants all clear their rounding bound (encloses_for_certain:
//           then the origin is inside exactly) and whose weights' point Σ λᵢpᵢ is within the touching band of the
//           origin (the witnesses are then as close as the contract asks; on a nearly flat tetrahedron the weights
//           carry the volumes' rounding over a small sum, and the careful pass refines them);
//   rule 2: the iteration cap (|v| an upper bound, as in the careful pass);
//   rule 3: the separating plane, with the touching band's margin (as in the careful pass);
//   rule 4: the duality gap.
// Everything else it hands over to the careful pass (FloatingLoop and FloatingRegions above), which starts the query
// again from the first simplex:
//   w repeats a vertex of the simplex (where the careful pass's rule 5 would stop);
//   the next simplex is not strictly closer to the origin, or has a weight that is not ≥ 0 (rule 6's stall, and what
//   rounded region tests leave behind);
//   an enclosure the determinants cannot prove, or whose weights' point is outside the touching band.
// In exact arithmetic none of these happens before rule 4 or rule 1 stops the loop (|v| strictly decreases and the
// region tests give weights > 0), so a hand-over is rounding's doing alone. Regressions: every case that a careful
// mechanism was written for is pinned twice, through the whole query (TextbookPass.* and the edge-case tables) and
// through the careful pass alone (Options::careful_pass_only, SearchDirection.*).
template <Vector V>
struct TextbookPass {
  using T = scalar_t<V>;
  using Regions = TextbookRegions<T>;
  static constexpr bool rounds = true;
  static constexpr Pass pass = Pass::Textbook;

  struct Measure {
    Points<V> points;  // the simplex's points in the frame (and, during a step, w after them)
    V v;               // Σ λᵢ pᵢ, in the frame
    T vv;              // |v|²
    T largest;         // max |pᵢ|²
  };
  // One step: the points s ∪ {w} are the current measure's (step() writes w after the simplex's points).
  struct Step {
    const Points<V>& points;
    V v;
    T vv, vw;
    T largest;  // max |p|² over the points and w
  };
  // The pass keeps two measures, the current simplex's and the next one's (progress() measures the simplex the loop
  // goes on with from the step's points), and hands out the current one by reference: no measure is copied.
  struct State {
    bool framed = false;
    int exponent = 0;     // the query's frame: points are w·2^−exponent
    bool known = false;   // progress() measured the simplex the loop goes on with, in measures[1 − current]
    int current = 0;      // the current simplex's measure
    std::array<Measure, 2> measures{};
  };
  struct Progress {
    std::optional<StopRule> stop;  // never: the textbook pass stops only by rules 1 to 4
    bool hand_over = false;
  };

  // w·2^−exponent: a product by the power of two where that is a normal number, else component by component.
  static V in_frame(const V& w, int exponent) {
    constexpr int kNormalExponents = std::numeric_limits<T>::max_exponent - 2;
    if (exponent > -kNormalExponents && exponent < kNormalExponents)
      return ScalarTraits<T>::scale_by_power_of_two(T(1), -exponent) * w;
    V r;
    for (int i = 0; i < V::dimension; ++i) r[i] = ScalarTraits<T>::scale_by_power_of_two(w[i], -exponent);
    return r;
  }
  // v, |v|² and the largest |p|² of the measure's first `count` points, with weights λ.
  static void measure_points(Measure& m, const std::array<T, 4>& weight, int count) {
    m.v = weight[0] * m.points[0];
    m.largest = dot(m.points[0], m.points[0]);
    for (int i = 1; i < count; ++i) {
      m.v = m.v + weight[i] * m.points[i];
      m.largest = std::max(m.largest, dot(m.points[i], m.points[i]));
    }
    m.vv = dot(m.v, m.v);
  }

  static const Measure& measure(const Simplex<V>& s, State& state) {
    if (state.known) {
      state.known = false;
      state.current = 1 - state.current;
      return state.measures[state.current];
    }
    if (!state.framed) {
      T largest = max_abs_component(s.points[0].w);
      for (int i = 1; i < s.size; ++i) largest = std::max(largest, max_abs_component(s.points[i].w));
      state.exponent = ScalarTraits<T>::frame_exponent(largest);
      state.framed = true;
    }
    Measure& m = state.measures[state.current];
    for (int i = 0; i < s.size; ++i) m.points[i] = in_frame(s.points[i].w, state.exponent);
    measure_points(m, s.weights, s.size);
    return m;
  }

  // Rule 1, second half, as in the careful pass.
  static bool within_touching_band(const Measure& m) {
    return m.vv <= Tolerances<T>::touching_ratio_squared() * m.largest;
  }

  static Step step(const Simplex<V>& s, const SupportPoint<V>& w, const Measure& m, State& state) {
    Measure& current = state.measures[state.current];  // m itself
    const V x = in_frame(w.w, state.exponent);
    current.points[s.size] = x;
    return {current.points, m.v, m.vv, dot(m.v, x), std::max(m.largest, dot(x, x))};
  }

  // Rule 3, as in the careful pass (FloatingLoop::separates).
  static bool separates(const Step& step) {
    return step.vw > T(0) && step.vw * step.vw > Tolerances<T>::touching_ratio_squared() * step.vv * step.largest;
  }

  // `next` is `feature` of the step's points: its points in the frame are the step's, taken by the feature's indices.
  template <SupportMapping A, SupportMapping B>
  static Progress progress(const A&, const B&, const Simplex<V>& s, const SupportPoint<V>& w, const Measure& m,
                           const Step& step, const ClosestFeature<T>& feature, const Simplex<V>& next,
                           State& state) {
    const Progress hand_over{std::nullopt, true};
    if (s.contains(w)) return hand_over;
    for (int i = 0; i < next.size; ++i)
      if (!(next.weights[i] >= T(0))) return hand_over;
    Measure& measured_next = state.measures[1 - state.current];
    for (int i = 0; i < feature.count; ++i) measured_next.points[i] = step.points[feature.vertex[i]];
    measure_points(measured_next, next.weights, next.size);
    if (next.encloses_origin) {
      const bool certain = detail::encloses_for_certain(measured_next.points) && within_touching_band(measured_next);
      return certain ? Progress{} : hand_over;
    }
    if (!(measured_next.vv < m.vv)) return hand_over;
    state.known = true;
    return {};
  }
};

}  // namespace gjkref
