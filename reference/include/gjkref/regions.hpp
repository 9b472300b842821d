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
// region whose own test proves its denominator positive.
//
// The functions are the textbook's, for every scalar. Where a floating scalar needs more, they call the region layer
// RegionLayer<T>: for an exact scalar that is TextbookRegions below (the formulas as written), for a floating one
// FloatingRegions in gjkref/floating.hpp (included by gjk.hpp). The layer is asked for three things — a triangle's
// normal, a tetrahedron's volumes, and a volume with its rounding bound — and, in floating modes only, inside the two
// blocks marked "floating modes", to repair what rounding leaves: a face region whose weights are not all positive,
// and face and enclosing weights whose point is off by more than rounding.
#pragma once

#include <algorithm>
#include <array>
#include <type_traits>

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
  // The floating layer's triangle fallback chose this feature (FloatingRegions::face_region_missed; never in exact
  // arithmetic, and the tests assert that it never fires there, so that it cannot hide a wrong region test).
  bool rounding_fallback = false;
};

template <Vector V>
using Points = std::array<V, 4>;  // a simplex's points; only the first k are used

// A determinant and a bound on its rounding error: |exact − value| ≤ rounding (0 with an exact scalar).
template <class T>
struct Volume {
  T value;
  T rounding;
};

// ---- The region layer ------------------------------------------------------------------------------------------------

// The textbook, for exact scalars.
template <class T>
struct TextbookRegions {
  static constexpr bool rounds = false;
  // n = (b − a) × (c − a).
  static Vec3<T> normal(const Vec3<T>& a, const Vec3<T>& b, const Vec3<T>& c) { return cross(b - a, c - a); }
  // D(p, q, r, s) = det(q − p, r − p, s − p), six times the signed volume; exact.
  static Volume<T> volume(const Vec3<T>& p, const Vec3<T>& q, const Vec3<T>& r, const Vec3<T>& s) {
    return {triple(Vec3<T>(q - p), Vec3<T>(r - p), Vec3<T>(s - p)), T(0)};
  }
  // The tetrahedron's volumes with the origin in place of each vertex (closest_on_tetrahedron):
  // va = D(0,b,c,d) = det(b,c,d), vb = D(a,0,c,d) = −det(a,c,d), vc = D(a,b,0,d) = det(a,b,d), vd = D(a,b,c,0) =
  // −det(a,b,c) (subtracting a multiple of one column from the others leaves a determinant unchanged).
  static std::array<T, 4> origin_volumes(const Points<Vec3<T>>& p) {
    return {triple(p[1], p[2], p[3]), T(-triple(p[0], p[2], p[3])), triple(p[0], p[1], p[3]),
            T(-triple(p[0], p[1], p[2]))};
  }
};

template <class T>
struct FloatingRegions;  // gjkref/floating.hpp

template <class T>
using RegionLayer = std::conditional_t<is_exact_v<T>, TextbookRegions<T>, FloatingRegions<T>>;

// ---- Features ----------------------------------------------------------------------------------------------------------

// The feature's point Σ λᵢ pᵢ. For a feature that encloses the origin the weights are its barycentric coordinates, so
// the sum is the origin (up to rounding in floating modes).
template <Vector V>
V point_of(const Points<V>& p, const ClosestFeature<scalar_t<V>>& f) {
  std::array<const V*, 4> x{};
  for (int i = 0; i < f.count; ++i) x[i] = &p[f.vertex[i]];
  return weighted_sum(f.weight, x, f.count);
}

template <class T>
ClosestFeature<T> vertex_feature(int i) {
  ClosestFeature<T> f;
  f.count = 1;
  f.vertex[0] = i;
  f.weight[0] = T(1);
  return f;
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

// The triangle's normal: n = (b−a)×(c−a) in 3D (from the region layer: the same vector, computed by the careful
// floating layer from the two shortest edges), the scalar n = cross(b−a, c−a) in 2D.
template <class Layer, class T>
Vec3<T> normal_of(const Vec3<T>& a, const Vec3<T>& b, const Vec3<T>& c) {
  return Layer::normal(a, b, c);
}
template <class Layer, class T>
T normal_of(const Vec2<T>& a, const Vec2<T>& b, const Vec2<T>& c) {
  return cross(b - a, c - a);
}

// The barycentric weight of vertex c at the origin's projection onto the triangle's plane is n·(a×b) / n·n (in 2D:
// n·cross(a,b) / n²), and cyclically for a and b; the three numerators sum to n·n.
template <class T>
T weight_numerator(const Vec3<T>& n, const Vec3<T>& x, const Vec3<T>& y) {
  return dot(n, cross(x, y));
}
template <class T>
T weight_numerator(const T& n, const Vec2<T>& x, const Vec2<T>& y) {
  return n * cross(x, y);
}

// ---- The simplex cases -------------------------------------------------------------------------------------------------

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

// Triangle (a, b, c), in 2D or 3D. Voronoi region tests, vertices first, then edges, then the face:
//   vertex a  iff  a·(b−a) ≥ 0 and a·(c−a) ≥ 0   (the origin is behind both edges leaving a); likewise b and c.
//   edge ab   iff  a·(b−a) < 0 < b·(b−a)          (the origin projects inside ab)
//             and  vc = n·(a×b) ≤ 0                (it lies on the far side of ab from c); likewise bc (va), ca (vb).
//   face      otherwise: va, vb, vc > 0, and λ = (va, vb, vc) / (va + vb + vc).
// In 2D the face region means the closed triangle contains the origin (encloses_origin). In 3D the face's point
// is the origin's projection onto the plane, which is the origin itself exactly when the origin lies on the face.
// A collinear triangle (n = 0) has va = vb = vc = 0: every "far side" test holds, the face region is never
// reached, and the region tests pick the closest vertex or edge of the segment it spans.
template <Vector V, class Layer = RegionLayer<scalar_t<V>>>
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

  const auto n = normal_of<Layer>(a, b, c);
  const T va = weight_numerator(n, b, c);
  const T vb = weight_numerator(n, c, a);
  const T vc = weight_numerator(n, a, b);

  if (vc <= T(0) && a_ab < T(0) && b_ab > T(0)) return closest_on_segment(p, ia, ib);
  if (va <= T(0) && b_bc < T(0) && c_bc > T(0)) return closest_on_segment(p, ib, ic);
  if (vb <= T(0) && a_ac < T(0) && c_ac > T(0)) return closest_on_segment(p, ia, ic);

  // The face region: here va, vb, vc > 0 in exact arithmetic.
  if constexpr (Layer::rounds) {  // floating modes: the rounded tests may leave a weight ≤ 0
    if (!(va > T(0) && vb > T(0) && vc > T(0))) return Layer::face_region_missed(p, ia, ib, ic);
  }
  const T sum = va + vb + vc;
  ClosestFeature<T> f;
  f.count = 3;
  f.vertex = {ia, ib, ic, 0};
  f.weight = {va / sum, vb / sum, vc / sum, T(0)};
  f.encloses_origin = (V::dimension == 2);
  if constexpr (Layer::rounds && V::dimension == 3) Layer::refine_face_weights(a, b, c, n, f.weight);
  return f;
}

// Tetrahedron (a, b, c, d), 3D. With D(p, q, r, s) = det(q−p, r−p, s−p) (six times the signed volume), the origin's
// barycentric weights come from replacing one vertex by the origin:
//   va = D(0,b,c,d), vb = D(a,0,c,d), vc = D(a,b,0,d), vd = D(a,b,c,0),   va + vb + vc + vd = D(a,b,c,d).
// If the sum is non-zero and no numerator has the opposite sign, the closed tetrahedron contains the origin:
// enclosed, λ = v / sum. Otherwise the closest point lies on a face: a face whose numerator has the opposite sign
// (the origin is beyond that face) — or, for a flat tetrahedron (sum = 0, coplanar points), any of the four faces,
// since four coplanar points' hull is the union of their four triangles. The closest candidate wins.
template <class T, class Layer = RegionLayer<T>>
ClosestFeature<T> closest_on_tetrahedron(const Points<Vec3<T>>& p) {
  const std::array<T, 4> v = Layer::origin_volumes(p);
  const T sum = v[0] + v[1] + v[2] + v[3];
  const bool flat = (sum == T(0));
  // Faces opposite each vertex, in the order of v.
  static constexpr std::array<std::array<int, 3>, 4> face = {{{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}}};

  std::array<ClosestFeature<T>, 4> candidates{};
  int count = 0;
  for (int i = 0; i < 4; ++i) {
    const bool beyond_face = flat || (sum > T(0) ? v[i] < T(0) : v[i] > T(0));
    if (beyond_face) candidates[count++] = closest_on_triangle<Vec3<T>, Layer>(p, face[i][0], face[i][1], face[i][2]);
  }
  if (count > 0) return closest_of(p, candidates, count);

  ClosestFeature<T> f;
  f.count = 4;
  f.vertex = {0, 1, 2, 3};
  for (int i = 0; i < 4; ++i) f.weight[i] = v[i] / sum;
  f.encloses_origin = true;
  if constexpr (Layer::rounds) return Layer::settle_enclosing_weights(p, sum, f);  // floating modes
  return f;
}

// Dispatch on the number of points: the closest feature of the simplex p[0..k-1] to the origin. Layer: the region
// layer (the default, RegionLayer, is the textbook for exact scalars and the careful layer for floating ones).
template <Vector V, class Layer = RegionLayer<scalar_t<V>>>
ClosestFeature<scalar_t<V>> closest_on_simplex(const Points<V>& p, int k) {
  switch (k) {
    case 1: return vertex_feature<scalar_t<V>>(0);
    case 2: return closest_on_segment(p, 0, 1);
    case 3: return closest_on_triangle<V, Layer>(p, 0, 1, 2);
    default:
      if constexpr (V::dimension == 3)
        return closest_on_tetrahedron<scalar_t<V>, Layer>(p);
      else
        return closest_on_triangle<V, Layer>(p, 0, 1, 2);  // unreachable: a 2D simplex has at most 3 points
  }
}

}  // namespace gjkref
