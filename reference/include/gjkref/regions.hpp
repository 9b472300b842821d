// gjkref/regions.hpp — the closest point of a simplex to the origin, one function per simplex case.
//
// Each function receives the simplex's points and decides, by region tests (signs of dot products and of signed
// areas/volumes), which feature of the simplex is closest to the origin: a vertex, an edge, a triangle, or — when
// the simplex is full-dimensional and contains the origin — the simplex itself. It returns that feature's vertices
// and the barycentric weights of the closest point on it.
//
// Exactness: with an exact scalar every region test is an exact sign and the weights are exact; the functions are
// then exactly right on every input, degenerate ones included (duplicate points, collinear triangles, coplanar
// tetrahedra): a degenerate simplex never reaches a division by zero, because each division happens only in a
// region whose own test proves its denominator positive. With a floating scalar the same tests run on rounded
// values; the only extra branch (marked "rounding fallback") is unreachable in exact arithmetic.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

#include "gjkref/tolerances.hpp"
#include "gjkref/vec.hpp"

namespace gjkref {

// The closest feature of a simplex: `count` of its vertices (indices into the caller's point array) and the
// barycentric weights of the closest point, each > 0 and summing to 1 (exactly, for exact scalars).
// `encloses_origin`: the simplex is full-dimensional (a triangle in 2D, a tetrahedron in 3D) and contains the
// origin; the closest point is the origin itself, with these weights.
template <class T>
struct ClosestFeature {
  int count = 0;
  std::array<int, 4> vertex{};
  std::array<T, 4> weight{};
  bool encloses_origin = false;
  // The triangle's rounding fallback chose this feature (floating scalars only; in exact arithmetic it is
  // unreachable, and the tests assert that it never fires there, so that it cannot hide a wrong region test).
  bool rounding_fallback = false;
};

template <Vector V>
using Points = std::array<V, 4>;  // a simplex's points; only the first k are used

// The feature's point Σ λᵢ pᵢ. For a feature that encloses the origin the weights are its barycentric coordinates, so
// the sum is the origin (up to rounding in floating modes).
template <Vector V>
V point_of(const Points<V>& p, const ClosestFeature<scalar_t<V>>& f) {
  V r = f.weight[0] * p[f.vertex[0]];
  for (int i = 1; i < f.count; ++i) r = r + f.weight[i] * p[f.vertex[i]];
  return r;
}

template <class T>
ClosestFeature<T> vertex_feature(int i) {
  ClosestFeature<T> f;
  f.count = 1;
  f.vertex[0] = i;
  f.weight[0] = T(1);
  return f;
}

// Segment [a, b], e = b − a. The origin's projection onto the line is a + t·e with t = −a·e / e·e.
//   a·e ≥ 0  (t ≤ 0)   →  vertex a;
//   b·e ≤ 0  (t ≥ 1)   →  vertex b;
//   otherwise a·e < 0 < b·e, so b·e − a·e = e·e > 0, and the closest point is
//   λa·a + λb·b with λa = b·e / (b·e − a·e), λb = −a·e / (b·e − a·e).
// A degenerate segment (a = b) has e = 0 and lands in vertex a.
template <Vector V>
ClosestFeature<scalar_t<V>> closest_on_segment(const Points<V>& p, int ia, int ib) {
  using T = scalar_t<V>;
  const V& a = p[ia];
  const V& b = p[ib];
  const V e = b - a;
  const T ae = dot(a, e);
  if (ae >= T(0)) return vertex_feature<T>(ia);
  const T be = dot(b, e);
  if (be <= T(0)) return vertex_feature<T>(ib);
  const T denominator = be - ae;
  ClosestFeature<T> f;
  f.count = 2;
  f.vertex = {ia, ib, 0, 0};
  f.weight[0] = be / denominator;
  f.weight[1] = -ae / denominator;
  return f;
}

// Which vertex of triangle (a, b, c) — 0, 1 or 2 — is opposite its longest edge (a tie goes to the earlier vertex).
template <class T>
int opposite_longest_edge(const Vec3<T>& a, const Vec3<T>& b, const Vec3<T>& c) {
  const Vec3<T> ab = b - a, bc = c - b, ca = a - c;
  const T lab = dot(ab, ab), lbc = dot(bc, bc), lca = dot(ca, ca);
  if (!(lbc < lab) && !(lbc < lca)) return 0;  // bc the longest
  if (!(lca < lab)) return 1;                  // ca the longest
  return 2;                                    // ab the longest
}

// Signed-area helpers shared by the 2D and 3D triangle. With n the triangle's normal — n = (b−a)×(c−a) in 3D, the
// scalar n = cross(b−a, c−a) in 2D — the barycentric weight of vertex c at the origin's projection is
// n·(a×b) / n·n (in 2D: n·cross(a,b) / n²), and cyclically for a and b; the three numerators sum to n·n.
// In 3D the cross product is taken from the vertex opposite the longest edge, keeping the cyclic order (so n is the
// same vector in exact arithmetic: (b−a)×(c−a) = (c−b)×(a−b) = (a−c)×(b−c)). On a needle, where one vertex is far
// from the other two, the two long edges are nearly parallel and their cross product keeps little but rounding; the
// two short ones give n to about ε (regression: SearchDirection.NeedleTriangleNormalUsesItsShortEdges).
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

template <class T>
T triangle_normal(const Vec2<T>& a, const Vec2<T>& b, const Vec2<T>& c) {
  return cross(b - a, c - a);
}
template <class T>
T weight_numerator(const Vec3<T>& n, const Vec3<T>& x, const Vec3<T>& y) {
  return dot(n, cross(x, y));
}
template <class T>
T weight_numerator(const T& n, const Vec2<T>& x, const Vec2<T>& y) {
  return n * cross(x, y);
}

template <Vector V>
scalar_t<V> squared_norm_of(const Points<V>& p, const ClosestFeature<scalar_t<V>>& f) {
  const V v = point_of(p, f);
  return dot(v, v);
}

// The closest of several candidate features (by |v|²); the first one wins a tie.
template <Vector V, std::size_t N>
ClosestFeature<scalar_t<V>> closest_of(const Points<V>& p, const std::array<ClosestFeature<scalar_t<V>>, N>& c,
                                       int count) {
  int best = 0;
  scalar_t<V> best_norm = squared_norm_of(p, c[0]);
  for (int i = 1; i < count; ++i) {
    scalar_t<V> norm = squared_norm_of(p, c[i]);
    if (norm < best_norm) {
      best_norm = norm;
      best = i;
    }
  }
  return c[best];
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

// Triangle (a, b, c), in 2D or 3D. Voronoi region tests, vertices first, then edges, then the face:
//   vertex a  iff  a·(b−a) ≥ 0 and a·(c−a) ≥ 0   (the origin is behind both edges leaving a); likewise b and c.
//   edge ab   iff  a·(b−a) < 0 < b·(b−a)          (the origin projects inside ab)
//             and  vc = n·(a×b) ≤ 0                (it lies on the far side of ab from c); likewise bc (va), ca (vb).
//   face      otherwise: va, vb, vc > 0, and λ = (va, vb, vc) / (va + vb + vc).
// In 2D the face region means the closed triangle contains the origin (encloses_origin). In 3D the face's point
// is the origin's projection onto the plane, which is the origin itself exactly when the origin lies on the face.
// A collinear triangle (n = 0) has va = vb = vc = 0: every "far side" test holds, the face region is never
// reached, and the region tests pick the closest vertex or edge of the segment it spans.
template <Vector V>
ClosestFeature<scalar_t<V>> closest_on_triangle(const Points<V>& p, int ia, int ib, int ic) {
  using T = scalar_t<V>;
  const V& a = p[ia];
  const V& b = p[ib];
  const V& c = p[ic];
  const V ab = b - a, ac = c - a, bc = c - b;
  const T a_ab = dot(a, ab), a_ac = dot(a, ac);
  const T b_ab = dot(b, ab), b_bc = dot(b, bc);
  const T c_ac = dot(c, ac), c_bc = dot(c, bc);

  if (a_ab >= T(0) && a_ac >= T(0)) return vertex_feature<T>(ia);
  if (b_ab <= T(0) && b_bc >= T(0)) return vertex_feature<T>(ib);
  if (c_ac <= T(0) && c_bc <= T(0)) return vertex_feature<T>(ic);

  const auto n = triangle_normal(a, b, c);
  const T va = weight_numerator(n, b, c);
  const T vb = weight_numerator(n, c, a);
  const T vc = weight_numerator(n, a, b);

  if (vc <= T(0) && a_ab < T(0) && b_ab > T(0)) return closest_on_segment(p, ia, ib);
  if (va <= T(0) && b_bc < T(0) && c_bc > T(0)) return closest_on_segment(p, ib, ic);
  if (vb <= T(0) && a_ac < T(0) && c_ac > T(0)) return closest_on_segment(p, ia, ic);

  if (!(va > T(0) && vb > T(0) && vc > T(0))) {
    // Rounding fallback (floating scalars only): the rounded tests rejected every vertex and edge region yet a
    // weight is not positive. Take the closest of the three edges.
    const std::array<ClosestFeature<T>, 3> edges = {closest_on_segment(p, ia, ib), closest_on_segment(p, ib, ic),
                                                    closest_on_segment(p, ia, ic)};
    ClosestFeature<T> f = closest_of(p, edges, 3);
    f.rounding_fallback = true;
    return f;
  }
  const T sum = va + vb + vc;
  ClosestFeature<T> f;
  f.count = 3;
  f.vertex = {ia, ib, ic, 0};
  f.weight = {va / sum, vb / sum, vc / sum, T(0)};
  f.encloses_origin = (V::dimension == 2);
  if constexpr (V::dimension == 3 && !ScalarTraits<T>::is_exact) refine_face_weights(a, b, c, n, f.weight);
  return f;
}

// Tetrahedron (a, b, c, d), 3D. With D(p, q, r, s) = det(q−p, r−p, s−p) (six times the signed volume), the origin's
// barycentric weights come from replacing one vertex by the origin:
//   va = D(0,b,c,d), vb = D(a,0,c,d), vc = D(a,b,0,d), vd = D(a,b,c,0),   va + vb + vc + vd = D(a,b,c,d).
// If the sum is non-zero and no numerator has the opposite sign, the closed tetrahedron contains the origin:
// enclosed, λ = v / sum, refined in floating modes (refine_enclosing_weights; if a refined weight goes negative, the
// closest face opposite it wins instead). Otherwise the closest point lies on a face: a face whose numerator has the
// opposite sign (the origin is beyond that face) — or, for a flat tetrahedron (sum = 0, coplanar points), any of the
// four faces, since four coplanar points' hull is the union of their four triangles. The closest candidate wins.
// D is computed from its most central point — the one with the least sum of squared distances to the other three —
// as (−1)^k·det(q_i − q_k, q_j − q_k, q_l − q_k) when that point is the k-th (moving it to the front takes k
// transpositions). In exact arithmetic every choice gives D; in floating modes the edges from a central point are the
// short ones. From a far vertex (a needle: one point of A⊖B 10¹⁰ times farther than the rest) all three edges are
// long and nearly parallel, and D kept little but rounding (regression: SearchDirection.NeedleTetrahedronVolumesUseShortEdges).
// `rounding` bounds the error of `value`: kVolumeRoundingEpsilons·ε·|e₁||e₂||e₃| for the three edges (0 when exact).
template <class T>
struct Volume {
  T value;
  T rounding;
};

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
ClosestFeature<T> closest_on_tetrahedron(const Points<Vec3<T>>& p) {
  const Vec3<T> o{};
  // va = D(0, b, c, d), vb = D(a, 0, c, d) = −D(0, a, c, d), vc = D(a, b, 0, d) = D(0, a, b, d),
  // vd = D(a, b, c, 0) = −D(0, a, b, c).
  const std::array<T, 4> v = {volume_with_origin(signed_volume(o, p[1], p[2], p[3]), 1, p[1], p[2], p[3]),
                              volume_with_origin(signed_volume(p[0], o, p[2], p[3]), -1, p[0], p[2], p[3]),
                              volume_with_origin(signed_volume(p[0], p[1], o, p[3]), 1, p[0], p[1], p[3]),
                              volume_with_origin(signed_volume(p[0], p[1], p[2], o), -1, p[0], p[1], p[2])};
  const T sum = v[0] + v[1] + v[2] + v[3];
  const bool flat = (sum == T(0));
  // Faces opposite each vertex, in the order of v.
  static constexpr std::array<std::array<int, 3>, 4> face = {{{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}}};

  std::array<ClosestFeature<T>, 4> candidates{};
  int count = 0;
  for (int i = 0; i < 4; ++i) {
    const bool beyond_face = flat || (sum > T(0) ? v[i] < T(0) : v[i] > T(0));
    if (beyond_face) candidates[count++] = closest_on_triangle(p, face[i][0], face[i][1], face[i][2]);
  }
  if (count > 0) return closest_of(p, candidates, count);

  ClosestFeature<T> f;
  f.count = 4;
  f.vertex = {0, 1, 2, 3};
  for (int i = 0; i < 4; ++i) f.weight[i] = v[i] / sum;
  f.encloses_origin = true;
  refine_enclosing_weights(p, sum, f.weight);
  // Refined weights below zero: as rounded, the origin lies outside the tetrahedron by a hair, beyond the faces opposite
  // those vertices, and the closest of them holds the closest point (with weights that keep the witnesses in their
  // hulls). Regression: SearchDirection.DoubleWitnessesOfAFlatEnclosingTetrahedron.
  count = 0;
  for (int i = 0; i < 4; ++i)
    if (f.weight[i] < T(0)) candidates[count++] = closest_on_triangle(p, face[i][0], face[i][1], face[i][2]);
  if (count > 0) return closest_of(p, candidates, count);
  return f;
}

// Dispatch on the number of points: the closest feature of the simplex p[0..k-1] to the origin.
template <Vector V>
ClosestFeature<scalar_t<V>> closest_on_simplex(const Points<V>& p, int k) {
  switch (k) {
    case 1: return vertex_feature<scalar_t<V>>(0);
    case 2: return closest_on_segment(p, 0, 1);
    case 3: return closest_on_triangle(p, 0, 1, 2);
    default:
      if constexpr (V::dimension == 3)
        return closest_on_tetrahedron(p);
      else
        return closest_on_triangle(p, 0, 1, 2);  // unreachable: a 2D simplex has at most 3 points
  }
}

}  // namespace gjkref
