// bench/lean_gjk.hpp — a probe for bench/peers_bench, not an implementation: the leanest GJK distance query we know
// how to write in double, to measure what issue 17's speed targets ask of any GJK on these workloads.
//
// It is the loop of van den Bergen's formulation with nothing but its two stop rules (the duality gap, and no progress
// — which keeps the simplex from before the step — with a repeated support as its early form), the closest-point
// routines of Ericson (Real-Time Collision Detection, §5.1.5 and §5.1.6: the triangle's regions from six dot products,
// and barycentric numerators from their 2×2 minors; a tetrahedron flat up to rounding is a step without progress), a
// support loop over the points as they are (d·p, no shift), and no frame, band, hand-over or check. Nothing vouches for
// its answers (the benchmark's agreement column compares them with gjkref-double's); it is what a fast unguarded GJK
// costs, against which both the reference and the peers can be read.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

namespace gjkref::bench::lean {

struct P3 {
  double x, y, z;
};
inline P3 operator-(P3 a, P3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline P3 operator+(P3 a, P3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline P3 operator*(double s, P3 a) { return {s * a.x, s * a.y, s * a.z}; }
inline double dot(P3 a, P3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline P3 cross(P3 a, P3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }

// The first point maximising d·p.
inline std::size_t support(const std::vector<P3>& points, P3 d) {
  std::size_t best = 0;
  double best_value = dot(d, points[0]);
  for (std::size_t i = 1; i < points.size(); ++i) {
    const double value = dot(d, points[i]);
    if (value > best_value) best_value = value, best = i;
  }
  return best;
}

struct Vertex {
  P3 w;
  std::size_t ia, ib;
};

struct Simplex {
  std::array<Vertex, 4> v;
  std::array<double, 4> weight;
  int size = 0;
};

// Closest point of segment, triangle, tetrahedron to the origin (Ericson §5.1): each reduces s to the closest feature,
// with its barycentric weights (keep writes that feature).
inline void keep(Simplex& s, std::array<int, 3> which, std::array<double, 3> weight, int count) {
  std::array<Vertex, 4> v = s.v;
  for (int i = 0; i < count; ++i) s.v[i] = v[which[i]], s.weight[i] = weight[i];
  s.size = count;
}

inline void segment(Simplex& s, int ia, int ib) {
  const P3 a = s.v[ia].w, ab = s.v[ib].w - a;
  const double t = -dot(a, ab);
  if (t <= 0) return keep(s, {ia, 0, 0}, {1, 0, 0}, 1);
  const double denominator = dot(ab, ab);
  if (t >= denominator) return keep(s, {ib, 0, 0}, {1, 0, 0}, 1);
  const double u = t / denominator;
  keep(s, {ia, ib, 0}, {1 - u, u, 0}, 2);
}

// Triangle (a, b, c): the six dot products of the edges from a with the three vertices decide the region.
inline void triangle(Simplex& s, int ia, int ib, int ic) {
  const P3 a = s.v[ia].w, b = s.v[ib].w, c = s.v[ic].w;
  const P3 ab = b - a, ac = c - a;
  const double d1 = -dot(ab, a), d2 = -dot(ac, a);
  if (d1 <= 0 && d2 <= 0) return keep(s, {ia, 0, 0}, {1, 0, 0}, 1);
  const double d3 = -dot(ab, b), d4 = -dot(ac, b);
  if (d3 >= 0 && d4 <= d3) return keep(s, {ib, 0, 0}, {1, 0, 0}, 1);
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const double t = d1 / (d1 - d3);
    return keep(s, {ia, ib, 0}, {1 - t, t, 0}, 2);
  }
  const double d5 = -dot(ab, c), d6 = -dot(ac, c);
  if (d6 >= 0 && d5 <= d6) return keep(s, {ic, 0, 0}, {1, 0, 0}, 1);
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const double t = d2 / (d2 - d6);
    return keep(s, {ia, ic, 0}, {1 - t, t, 0}, 2);
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return keep(s, {ib, ic, 0}, {1 - t, t, 0}, 2);
  }
  const double denominator = 1 / (va + vb + vc);
  keep(s, {ia, ib, ic}, {va * denominator, vb * denominator, vc * denominator}, 3);
}

inline P3 combine(const Simplex& s) {
  P3 v = s.weight[0] * s.v[0].w;
  for (int i = 1; i < s.size; ++i) v = v + s.weight[i] * s.v[i].w;
  return v;
}

// The tetrahedron (a, b, c, d), d the newest point: the origin lies on d's side of the face abc (the previous
// simplex's closest point v had w = d beyond it), so only the three faces through d can have the origin outside.
// Flat: d lies in the plane of abc up to rounding (|det| within 1e-12 of the product of the edges), where the faces'
// signs are noise; the loop then keeps the triangle and stops.
enum class Tetrahedron { Reduced, Inside, Flat };
inline Tetrahedron tetrahedron(Simplex& s) {
  constexpr double kFlat = 1e-12;
  const P3 a = s.v[0].w, b = s.v[1].w, c = s.v[2].w, d = s.v[3].w;
  const P3 da = a - d, db = b - d, dc = c - d;
  // Face (d, a, b) opposite c: the origin is outside when it and c lie on opposite sides of the face's plane.
  const P3 n_ab = cross(da, db), n_bc = cross(db, dc), n_ca = cross(dc, da);
  const double volume = dot(n_ab, dc);  // = dot(n_bc, da) = dot(n_ca, db) in exact arithmetic
  if (std::fabs(volume) <= kFlat * std::sqrt(dot(da, da) * dot(db, db) * dot(dc, dc))) return Tetrahedron::Flat;
  // The origin's side of a face's plane is that of −n·d (n·(0 − d)); outside when opposite to the fourth vertex's.
  const bool out_ab = dot(n_ab, d) * volume > 0;
  const bool out_bc = dot(n_bc, d) * volume > 0;
  const bool out_ca = dot(n_ca, d) * volume > 0;
  if (!out_ab && !out_bc && !out_ca) return Tetrahedron::Inside;
  double best = INFINITY;
  Simplex result = s;
  const auto candidate = [&](int i, int j) {
    Simplex t = s;
    triangle(t, i, j, 3);
    const P3 v = combine(t);
    const double vv = dot(v, v);
    if (vv < best) best = vv, result = t;
  };
  if (out_ab) candidate(0, 1);
  if (out_bc) candidate(1, 2);
  if (out_ca) candidate(2, 0);
  s = result;
  return Tetrahedron::Reduced;
}

// A point set scanned as it is stored.
struct Points {
  std::vector<P3> points;
  std::size_t support(P3 d) const { return lean::support(points, d); }
  const P3& operator[](std::size_t i) const { return points[i]; }
};

// The distance between the hulls of a and b (0 when they intersect). Shape: support(P3) → index, and [index] → P3.
template <class Shape>
double distance(const Shape& a, const Shape& b) {
  Simplex s;
  const std::size_t ia = 0, ib = 0;  // a₀ − b₀, without a support call, as the reference and openGJK start
  s.v[0] = {a[ia] - b[ib], ia, ib};
  s.weight[0] = 1;
  s.size = 1;
  P3 v = s.v[0].w;
  double vv = dot(v, v);
  constexpr double kGap = 1e-12;
  for (int iteration = 0; iteration < 128; ++iteration) {
    const std::size_t na = a.support(-1.0 * v), nb = b.support(v);
    const P3 w = a[na] - b[nb];
    if (vv - dot(v, w) <= kGap * vv) break;
    bool repeated = false;
    for (int i = 0; i < s.size; ++i) repeated |= s.v[i].ia == na && s.v[i].ib == nb;
    if (repeated) break;
    const Simplex previous = s;  // what the answer comes from if the step below makes no progress
    s.v[s.size++] = {w, na, nb};
    switch (s.size) {
      case 2: segment(s, 0, 1); break;
      case 3: triangle(s, 0, 1, 2); break;
      default: {
        const Tetrahedron t = tetrahedron(s);
        if (t == Tetrahedron::Inside) return 0.0;
        if (t == Tetrahedron::Flat) s = previous;
      }
    }
    const P3 next = combine(s);
    const double next_vv = dot(next, next);
    if (!(next_vv < vv)) {
      s = previous;
      break;
    }
    v = next, vv = next_vv;
  }
  P3 on_a = s.weight[0] * a[s.v[0].ia], on_b = s.weight[0] * b[s.v[0].ib];
  for (int i = 1; i < s.size; ++i) on_a = on_a + s.weight[i] * a[s.v[i].ia], on_b = on_b + s.weight[i] * b[s.v[i].ib];
  const P3 d = on_a - on_b;
  return std::sqrt(dot(d, d));
}

}  // namespace gjkref::bench::lean
