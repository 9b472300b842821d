// RapidCheck generators of gjkref cases (docs/properties.md): every family builds its degenerate configurations on
// purpose — uniform random coordinates hit a boundary about 0.2 % of the time — with coordinates for which the
// construction is exact in double (small integers, dyadic offsets, exact transforms). Each case's `name` is its
// family and kind ("touching/vertex-face"), which the properties tag (RC_TAG) so that a run shows the mix.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "gjkref/case_boxes.hpp"
#include "gjkref/case_shapes.hpp"
#include "gjkref/casefile.hpp"

namespace gjkref::proptests {

using casefile::Case;
using Point = std::array<double, 3>;
using Points = std::vector<Point>;

// ---- building blocks

// A choice uniform over [min, max) at every size. rc::gen::inRange narrows its range toward min at small sizes: at size
// s it draws from [min, min + (max − min)·s/100]. That suits counts — RapidCheck's size scales how many points a shape
// has, and a small size gives a small case — and nothing else: a coordinate, an offset, an extent, an angle, a kind
// or an exponent would slide from its least value rather than grow (at size 0 every lattice point was (−w, −w, −w),
// and deep-overlap clouds were apart below size 25). So every value here that is not a count is a choice.
// Pinned by Generators.ValuesSpanTheirRangeAtEverySize.
inline rc::Gen<int> choice(int min, int max) { return rc::gen::resize(100, rc::gen::inRange(min, max)); }

// A lattice point with coordinates in [−w, w] (z = 0 in 2D).
inline rc::Gen<Point> lattice_point(int dim, int w) {
  return rc::gen::map(rc::gen::container<std::vector<int>>(3, choice(-w, w + 1)), [dim](const std::vector<int>& v) {
    return Point{double(v[0]), double(v[1]), dim == 3 ? double(v[2]) : 0.0};
  });
}

// 1 to `most` lattice points (RapidCheck's size scales the count).
inline rc::Gen<Points> lattice_cloud(int dim, int w, int most) {
  return rc::gen::mapcat(rc::gen::inRange(1, most + 1), [dim, w](int n) {
    return rc::gen::container<Points>(static_cast<std::size_t>(n), lattice_point(dim, w));
  });
}

// The plane (3D) or line (2D) of contact: the last coordinate is the height.
inline int height_axis(int dim) { return dim - 1; }

// Points strictly below (sign −1) or above (+1) the contact plane, at heights 1..w.
inline rc::Gen<Points> cloud_beside(int dim, int w, int sign, int most) {
  return rc::gen::map(lattice_cloud(dim, w, most), [dim, w, sign](Points ps) {
    for (Point& p : ps) p[height_axis(dim)] = sign * (1 + std::fabs(p[height_axis(dim)]));
    (void)w;
    return ps;
  });
}

// An exact transform of both shapes: an axis permutation, axis reflections, and in `with_shear` an integer shear
// x_i += k·x_j (determinant 1: lattice points stay lattice points, contact stays contact), then an integer
// translation. All exact in double for the small integers used here.
struct ExactTransform {
  std::array<int, 3> permutation{0, 1, 2};
  std::array<int, 3> sign{1, 1, 1};
  int shear_from = 0, shear_to = 0, shear = 0;  // x[to] += shear · x[from] (from ≠ to)
  std::array<int, 3> offset{0, 0, 0};

  Point apply(const Point& p, int dim) const {
    Point q{0, 0, 0};
    for (int i = 0; i < dim; ++i) q[i] = sign[i] * p[permutation[i]];
    if (shear != 0 && shear_from != shear_to) q[shear_to] += shear * q[shear_from];
    for (int i = 0; i < dim; ++i) q[i] += offset[i];
    return q;
  }
};

inline rc::Gen<ExactTransform> exact_transform(int dim, bool with_shear) {
  return rc::gen::map(
      rc::gen::tuple(choice(0, 6), rc::gen::container<std::vector<int>>(3, rc::gen::element(-1, 1)),
                     choice(0, dim), choice(0, dim), choice(-2, 3),
                     rc::gen::container<std::vector<int>>(3, choice(-20, 21))),
      [dim, with_shear](const auto& t) {
        static const std::array<std::array<int, 3>, 6> perms3 = {
            {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
        ExactTransform x;
        const int which = std::get<0>(t);
        x.permutation = dim == 3 ? perms3[which] : (which % 2 ? std::array<int, 3>{1, 0, 2} : std::array<int, 3>{0, 1, 2});
        for (int i = 0; i < 3; ++i) x.sign[i] = std::get<1>(t)[i];
        x.shear_from = std::get<2>(t);
        x.shear_to = std::get<3>(t);
        x.shear = with_shear ? std::get<4>(t) : 0;
        for (int i = 0; i < 3; ++i) x.offset[i] = i < dim ? std::get<5>(t)[i] : 0;
        return x;
      });
}

inline Case make_case(int dim, std::string name, Points a, Points b) {
  Case c;
  c.name = std::move(name);
  c.dim = dim;
  c.a.points = std::move(a);
  c.b.points = std::move(b);
  return c;
}

inline Case transformed(Case c, const ExactTransform& x) {
  for (auto* s : {&c.a, &c.b})
    for (Point& p : s->points) p = x.apply(p, c.dim);
  return c;
}

// ---- families

// Random polytopes: clouds of 1–64 points (the count grows with RapidCheck's size), with duplicates and interior
// points (the centroid-ish midpoint of two points, dyadic), from a lattice, dyadic reals or arbitrary doubles, B
// offset so that about half the pairs overlap.
inline rc::Gen<Case> random_polytopes(int dim) {
  return rc::gen::mapcat(rc::gen::tuple(choice(0, 3), rc::gen::inRange(1, 65), rc::gen::inRange(1, 65)),
                         [dim](const auto& t) {
    // (Plain variables, not a structured binding: clang 14 cannot capture one.)
    const int kind = std::get<0>(t), n = std::get<1>(t), m = std::get<2>(t);
    const auto cloud = [dim, kind](int count) -> rc::Gen<Points> {
      if (kind == 0) return rc::gen::container<Points>(count, lattice_point(dim, 8));
      const double scale = kind == 1 ? 1.0 / 1024 : 1.0;
      // Dyadic: k/1024 with |k| ≤ 8192; real: k/125000 (not dyadic), both within ±8.
      const rc::Gen<double> coordinate =
          kind == 1 ? rc::gen::map(choice(-8192, 8193), [](int k) { return double(k); })
                    : rc::gen::map(choice(-1000000, 1000001), [](int k) { return k / 125000.0; });
      return rc::gen::map(rc::gen::container<std::vector<double>>(3 * count, coordinate),
                          [dim, count, scale](const std::vector<double>& v) {
                            Points ps;
                            for (int i = 0; i < count; ++i)
                              ps.push_back({v[3 * i] * scale, v[3 * i + 1] * scale, dim == 3 ? v[3 * i + 2] * scale : 0});
                            return ps;
                          });
    };
    static const char* kinds[] = {"random/lattice", "random/dyadic", "random/real"};
    return rc::gen::map(rc::gen::tuple(cloud(n), cloud(m), choice(0, 4), choice(0, 4),
                                       lattice_point(dim, 16)),
                        [dim, kind](const auto& u) {
                          Points a = std::get<0>(u), b = std::get<1>(u);
                          // Duplicates and interior points: repeat the first point; add the midpoint of two.
                          if (std::get<2>(u) & 1) a.push_back(a.front());
                          if ((std::get<2>(u) & 2) && a.size() > 1)
                            a.push_back({(a[0][0] + a[1][0]) / 2, (a[0][1] + a[1][1]) / 2, (a[0][2] + a[1][2]) / 2});
                          if (std::get<3>(u) & 1) b.push_back(b.back());
                          // B moved by a lattice offset (exact: small integers), so that some pairs are apart.
                          const Point offset = std::get<4>(u);
                          for (Point& p : b)
                            for (int i = 0; i < dim; ++i) p[i] += offset[i];
                          return make_case(dim, kinds[kind], std::move(a), std::move(b));
                        });
  });
}

// Exactly touching pairs. In a frame where the contact plane is "height = 0", A lies at heights ≤ 0 and B at
// heights ≥ 0; each has a contact feature in the plane through the common point p: a vertex {p}; an edge through p
// (p its midpoint); a face around p (a triangle with centroid p); so the contact is exact. Then an exact transform.
// Kinds (3D): vertex-vertex, vertex-edge, vertex-face, edge-edge (crossing), edge-edge-collinear, edge-face,
// face-face (coincident), face-face-partial; (2D): vertex-vertex, vertex-edge, edge-edge-collinear.
// touching_in_frame gives the pair before the transform (contact plane: height = 0).
inline rc::Gen<Case> touching_in_frame(int dim) {
  const int kinds = dim == 3 ? 8 : 3;
  return rc::gen::mapcat(choice(0, kinds), [dim](int kind) {
    return rc::gen::map(
        rc::gen::tuple(lattice_point(dim, 4), lattice_point(dim, 3), lattice_point(dim, 3),
                       cloud_beside(dim, 6, -1, 30), cloud_beside(dim, 6, +1, 30)),
        [dim, kind](const auto& t) {
          const int h = height_axis(dim);
          Point p = std::get<0>(t), u = std::get<1>(t), v = std::get<2>(t);
          p[h] = u[h] = v[h] = 0;
          if (u == Point{0, 0, 0}) u[0] = 1;
          if (dim == 3 && (u[0] * v[1] - u[1] * v[0]) == 0) v = {-u[1], u[0], 0};  // independent of u in the plane
          const auto add = [](Point x, const Point& y, double k) {
            for (int i = 0; i < 3; ++i) x[i] += k * y[i];
            return x;
          };
          const Points vertex = {p};
          const Points edge = {add(p, u, 1), add(p, u, -1)};
          const Points edge_across = {add(p, v, 1), add(p, v, -1)};
          const Points edge_along = {add(p, u, 2), add(p, u, -1)};  // collinear with `edge`, through p
          const Points face = {add(p, u, 1), add(p, v, 1), add(add(p, u, -1), v, -1)};
          const Points face_shifted = {add(p, u, 2), add(add(p, v, 1), u, -1), add(p, v, -1)};
          static const char* names3[] = {"vertex-vertex", "vertex-edge", "vertex-face", "edge-edge",
                                         "edge-edge-collinear", "edge-face", "face-face", "face-face-partial"};
          static const char* names2[] = {"vertex-vertex", "vertex-edge", "edge-edge-collinear"};
          Points fa, fb;
          switch (dim == 3 ? kind : (kind == 2 ? 4 : kind)) {
            case 0: fa = vertex, fb = vertex; break;
            case 1: fa = vertex, fb = edge; break;
            case 2: fa = vertex, fb = face; break;
            case 3: fa = edge, fb = edge_across; break;
            case 4: fa = edge, fb = edge_along; break;
            case 5: fa = edge, fb = face; break;
            case 6: fa = face, fb = face; break;
            default: fa = face, fb = face_shifted; break;
          }
          Points a = std::get<3>(t), b = std::get<4>(t);
          a.insert(a.end(), fa.begin(), fa.end());
          b.insert(b.end(), fb.begin(), fb.end());
          const std::string name = std::string("touching/") + (dim == 3 ? names3[kind] : names2[kind]);
          return make_case(dim, name, std::move(a), std::move(b));
        });
  });
}

inline rc::Gen<Case> exactly_touching(int dim) {
  return rc::gen::map(rc::gen::tuple(touching_in_frame(dim), exact_transform(dim, true)),
                      [](const auto& t) { return transformed(std::get<0>(t), std::get<1>(t)); });
}

// The origin exactly on a feature of A⊖B in other ways: B = {b} a single point of A's boundary made as above
// (origin on a vertex, an edge or a face of A⊖B = A − b); B = A translated by the difference of A's two extremes along
// an axis (A and its copy touch); B = A (A⊖A is symmetric about the origin: inside, or flat); flat pairs in a common
// plane or line through the origin (A⊖B flat, containing the origin or not).
inline rc::Gen<Case> origin_on_feature(int dim) {
  return rc::gen::mapcat(choice(0, 4), [dim](int kind) -> rc::Gen<Case> {
    if (kind == 0)
      return rc::gen::map(exactly_touching(dim), [](Case c) {
        // Keep B's contact feature only, then one of its points: the origin is on a feature of A − b.
        const Point b = c.b.points.back();
        c.b.points = {b};
        c.name = "on-feature/point-on-boundary";
        return c;
      });
    if (kind == 1)
      return rc::gen::map(rc::gen::tuple(lattice_cloud(dim, 6, 40), choice(0, dim)), [dim](const auto& t) {
        const Points a = std::get<0>(t);
        const int axis = std::get<1>(t);
        Point lo = a[0], hi = a[0];
        for (const Point& p : a) {
          if (p[axis] < lo[axis]) lo = p;
          if (p[axis] > hi[axis]) hi = p;
        }
        Points b;
        for (const Point& p : a) b.push_back({p[0] + hi[0] - lo[0], p[1] + hi[1] - lo[1], p[2] + hi[2] - lo[2]});
        return make_case(dim, "on-feature/translated-copy", a, b);
      });
    if (kind == 2)
      return rc::gen::map(lattice_cloud(dim, 6, 40),
                          [dim](const Points& a) { return make_case(dim, "on-feature/self", a, a); });
    return rc::gen::map(rc::gen::tuple(lattice_cloud(dim, 4, 20), lattice_cloud(dim, 4, 20)), [dim](const auto& t) {
      Points a = std::get<0>(t), b = std::get<1>(t);
      for (auto* s : {&a, &b})
        for (Point& p : *s) {
          if (dim == 3) p[2] = 0;  // the plane z = 0 (3D), the line y = x (2D)
          else p[1] = p[0];
        }
      return make_case(dim, "on-feature/flat-through-origin", a, b);
    });
  });
}

// Lower-dimensional shapes, placed anywhere: single points, segments, coplanar polygons (3D), collinear sets.
inline rc::Gen<Case> lower_dimensional(int dim) {
  return rc::gen::map(rc::gen::tuple(choice(0, dim), choice(0, dim), lattice_cloud(dim, 5, 12),
                                     lattice_cloud(dim, 5, 12), exact_transform(dim, true)),
                      [dim](const auto& t) {
                        // Flatten each shape to `k` dimensions: 0 a point, 1 a segment/line, 2 a plane (3D).
                        const auto flatten = [dim](Points ps, int k) {
                          for (Point& p : ps) {
                            if (k == 0) p = ps[0];
                            if (k == 1) p = {p[0], 2 * p[0], dim == 3 ? -p[0] : 0};
                            if (k == 2) p[2] = p[0] + p[1];
                          }
                          return ps;
                        };
                        static const char* names[] = {"point", "segment", "polygon"};
                        const int ka = std::get<0>(t), kb = std::get<1>(t);
                        Case c = make_case(dim, std::string("flat/") + names[ka] + "-" + names[kb],
                                           flatten(std::get<2>(t), ka), flatten(std::get<3>(t), kb));
                        return transformed(std::move(c), std::get<4>(t));
                      });
}

// Flat through the origin: A and B on one line y = (p/8)·x (2D) or plane z = (p/8)·x + (q/16)·y (3D) through the
// origin, p and q in [−8, 8], with x and y multiples of 2^−20 below 8 in magnitude (23 significant bits): every point
// lies on it exactly, yet products of three coordinates round. B is moved within it by up to 16 along x and y. A⊖B then
// lies in the same line or plane, which holds the origin: separated within it, or touching (a flat A⊖B has no
// interior). Points of such an A⊖B are affinely dependent, which warm starts may name and cold runs never build
// (WarmStart.FlatDifferencesGiveTheColdAnswer*).
inline rc::Gen<Case> flat_through_origin(int dim) {
  const auto coordinate =
      rc::gen::map(choice(-(1 << 23) + 1, 1 << 23), [](int i) { return std::ldexp(double(i), -20); });
  return rc::gen::map(
      rc::gen::tuple(choice(-8, 9), choice(-8, 9), choice(2, 7), choice(1, 4),
                     rc::gen::container<std::vector<double>>(20, coordinate), rc::gen::container<std::vector<double>>(2, coordinate)),
      [dim](const auto& t) {
        const int p = std::get<0>(t), q = std::get<1>(t), na = std::get<2>(t), nb = std::get<3>(t);
        const std::vector<double>& xs = std::get<4>(t);
        const std::vector<double>& offset = std::get<5>(t);
        const auto on_it = [&](double x, double y) -> Point {
          if (dim == 2) return {x, p / 8.0 * x, 0};
          return {x, y, p / 8.0 * x + q / 16.0 * y};
        };
        Points a, b;
        for (int k = 0; k < na; ++k) a.push_back(on_it(xs[2 * k], xs[2 * k + 1]));
        for (int k = 0; k < nb; ++k) b.push_back(on_it(xs[12 + 2 * k] + 2 * offset[0], xs[13 + 2 * k] + 2 * offset[1]));
        return make_case(dim, dim == 2 ? "flat-through-origin/line" : "flat-through-origin/plane", std::move(a),
                         std::move(b));
      });
}

// Near-touching: an exactly touching pair with B moved off the contact plane by ±2^−k (k = 1..60), then axis
// permutations and reflections only (no shear, no offset: the move stays exact): apart by 2^−k, or pushed into A by
// that much (overlapping, or apart when A has no room below the contact). The contact points' heights are 0, so
// ±2^−k is exact for them; B's other points round, which does not matter: the oracle decides on the doubles as they
// are.
inline rc::Gen<Case> near_touching(int dim) {
  return rc::gen::map(rc::gen::tuple(touching_in_frame(dim), choice(1, 61), rc::gen::element(-1, 1),
                                     exact_transform(dim, false)),
                      [dim](const auto& t) {
                        Case c = std::get<0>(t);
                        const int k = std::get<1>(t), side = std::get<2>(t);
                        const double step = side * std::ldexp(1.0, -k);
                        for (Point& p : c.b.points) p[height_axis(dim)] += step;
                        c.name = std::string("near/") + (side > 0 ? "apart" : "into");
                        ExactTransform x = std::get<3>(t);
                        x.offset = {0, 0, 0};
                        return transformed(std::move(c), x);
                      });
}

// Needles and slivers: A is a segment's two ends (in [−1, 1]^dim) and one or two points within 2^−k of the segment
// (k = 10..52, per coordinate), a needle or a sliver triangle; B is A with every coordinate moved by up to 2^−j
// (j = 5..30). A⊖B is then a needle or a sliver around the origin: the floating modes' careful pass stopped there
// outside the contract until the post-pass (docs/edge-cases.md, "Needle and sliver differences"; scripts/needle-pairs
// makes the same pairs in bulk). Coordinates are k/2^20 and the offsets powers of two; the sums round, which does not
// matter: the oracle decides on the doubles as they are.
inline rc::Gen<Case> needles(int dim) {
  const rc::Gen<double> unit = rc::gen::map(choice(-(1 << 20), (1 << 20) + 1), [](int k) { return std::ldexp(k, -20); });
  return rc::gen::map(
      rc::gen::tuple(rc::gen::container<std::vector<double>>(6, unit), choice(1, 3),
                     rc::gen::container<std::vector<int>>(2, choice(0, 1 << 16)),
                     rc::gen::container<std::vector<int>>(6, choice(10, 53)),
                     rc::gen::container<std::vector<int>>(6, rc::gen::element(-1, 1)), choice(5, 31),
                     rc::gen::container<std::vector<double>>(15, unit)),
      [dim](const auto& t) {
        const std::vector<double>& ends = std::get<0>(t);
        const int near_points = std::get<1>(t);
        const std::vector<int>& along = std::get<2>(t);
        const std::vector<int>& exponent = std::get<3>(t);
        const std::vector<int>& side = std::get<4>(t);
        const double jitter = std::ldexp(1.0, -std::get<5>(t));
        const std::vector<double>& moves = std::get<6>(t);
        Points a = {{ends[0], ends[1], dim == 3 ? ends[2] : 0}, {ends[3], ends[4], dim == 3 ? ends[5] : 0}};
        for (int i = 0; i < near_points; ++i) {
          const double s = std::ldexp(along[i], -16);
          Point p{0, 0, 0};
          for (int k = 0; k < dim; ++k)
            p[k] = a[0][k] * s + a[1][k] * (1 - s) + side[3 * i + k] * std::ldexp(1.0, -exponent[3 * i + k]);
          a.push_back(p);
        }
        Points b = a;
        for (std::size_t i = 0; i < b.size(); ++i)
          for (int k = 0; k < dim; ++k) b[i][k] += jitter * moves[3 * i + k];
        return make_case(dim, near_points == 1 ? "needles/needle-or-sliver" : "needles/two-near-points", std::move(a),
                         std::move(b));
      });
}

// Scale families: a random or touching pair scaled by 2^k (k in [−100, 100]); translated by 1e6 or 1e9; tiny shapes
// (2^−20) far from the origin (1e6); needles and plates (one or two axes stretched by 2^20 ≈ 1e6); rotated (a rotation
// matrix applied in double: the rounded points are the case) about the last axis, or in 3D about two axes. Rotated
// touching pairs keep their shared points shared (equal inputs round alike) while every other contact is perturbed
// at rounding level: the flat wedges behind findings 3 and 6 (docs/properties.md) come from them.
inline rc::Gen<Case> scales(int dim) {
  return rc::gen::map(
      rc::gen::tuple(rc::gen::oneOf(exactly_touching(dim), random_polytopes(dim)), choice(0, 6),
                     choice(-100, 101), choice(0, 1000), choice(0, 1000)),
      [dim](const auto& t) {
        Case c = std::get<0>(t);
        const int kind = std::get<1>(t), k = std::get<2>(t);
        const double turn = 6.283185307179586;  // 2π
        const double angle = std::get<3>(t) * 0.001 * turn, tilt = std::get<4>(t) * 0.001 * turn;
        const std::string base = c.name.substr(0, c.name.find('/'));
        for (auto* s : {&c.a, &c.b})
          for (Point& p : s->points) {
            if (kind == 0)
              for (double& x : p) x = std::ldexp(x, k);
            if (kind == 1)
              for (int i = 0; i < dim; ++i) p[i] += (k % 2 ? 1e9 : 1e6);
            if (kind == 2)
              for (int i = 0; i < dim; ++i) p[i] = std::ldexp(p[i], -20) + 1e6;
            if (kind == 3) {  // a needle (one long axis), or in 3D for odd k a plate (two)
              p[0] = std::ldexp(p[0], 20);
              if (k % 2 && dim == 3) p[1] = std::ldexp(p[1], 20);
            }
            if (kind >= 4) {
              const double x = p[0], y = p[1];
              p[0] = std::cos(angle) * x - std::sin(angle) * y;
              p[1] = std::sin(angle) * x + std::cos(angle) * y;
            }
            if (kind == 5 && dim == 3) {  // then about the first axis
              const double y = p[1], z = p[2];
              p[1] = std::cos(tilt) * y - std::sin(tilt) * z;
              p[2] = std::sin(tilt) * y + std::cos(tilt) * z;
            }
          }
        static const char* names[] = {"scaled-2^k", "translated", "tiny-far", "needle-plate", "rotated", "rotated-twice"};
        c.name = std::string("scale/") + names[kind] + "-" + base;
        return c;
      });
}

// Extreme scales: a random or touching pair scaled by 2^e, e in [900, 1000] or [−1060, −961] — near the ends of
// double's range, where tiny coordinates are subnormal (the case is the doubles the scaling gives) and squares of the
// coordinates under- or overflow. Beyond double's judged range (docs/contract.md, "Range"), so the family property
// holds the exact and certified modes to the oracle and long double to its contract, not double or float.
inline rc::Gen<Case> extreme_scales(int dim) {
  return rc::gen::map(rc::gen::tuple(rc::gen::oneOf(exactly_touching(dim), random_polytopes(dim)), choice(-100, 101)),
                      [](const auto& t) {
                        Case c = std::get<0>(t);
                        const int k = std::get<1>(t), e = k >= 0 ? 900 + k : -960 + k;
                        for (auto* s : {&c.a, &c.b})
                          for (Point& p : s->points)
                            for (double& x : p) x = std::ldexp(x, e);
                        c.name = std::string("extreme-scale/") + (e > 0 ? "huge-" : "tiny-") +
                                 c.name.substr(0, c.name.find('/'));
                        return c;
                      });
}

// ---- Families that reach penetration (docs/properties.md, "Penetration families"): overlaps of every depth, and
// boxes as engines build them. Small shapes (boxes have 2^dim corners; clouds at most 24 points), so that the exact
// penetration-depth oracle stays cheap.

using casefile::axis_box;   // gjkref/case_boxes.hpp
using casefile::posed_box;

// Deep overlap: two clouds of 4–24 points with coordinates k/1000 in [−4, 4] (not dyadic), B moved by a lattice
// offset of at most 2: mostly overlapping by a good part of their size.
inline rc::Gen<Case> deep_overlap(int dim) {
  const auto cloud = [dim](int count) {
    return rc::gen::map(rc::gen::container<std::vector<int>>(3 * count, choice(-4000, 4001)),
                        [dim, count](const std::vector<int>& v) {
                          Points ps;
                          for (int i = 0; i < count; ++i)
                            ps.push_back({v[3 * i] / 1000.0, v[3 * i + 1] / 1000.0, dim == 3 ? v[3 * i + 2] / 1000.0 : 0});
                          return ps;
                        });
  };
  return rc::gen::mapcat(rc::gen::tuple(rc::gen::inRange(4, 25), rc::gen::inRange(4, 25)), [=](const auto& n) {
    return rc::gen::map(rc::gen::tuple(cloud(std::get<0>(n)), cloud(std::get<1>(n)), lattice_point(dim, 2)),
                        [dim](const auto& t) {
                          Points b = std::get<1>(t);
                          for (Point& p : b)
                            for (int i = 0; i < dim; ++i) p[i] += std::get<2>(t)[i];
                          return make_case(dim, "deep/clouds", std::get<0>(t), std::move(b));
                        });
  });
}

// Shallow overlap: an exactly touching pair (touching_in_frame) with B pushed into A by 2^−k (k = 1..60) along the
// contact plane's normal, then axis permutations and reflections (exact): overlapping by at most 2^−k along that
// normal (or apart, when A has no room below the contact).
inline rc::Gen<Case> shallow_overlap(int dim) {
  return rc::gen::map(rc::gen::tuple(touching_in_frame(dim), choice(1, 61), exact_transform(dim, false)),
                      [dim](const auto& t) {
                        Case c = std::get<0>(t);
                        const double step = std::ldexp(1.0, -std::get<1>(t));
                        for (Point& p : c.b.points) p[height_axis(dim)] -= step;
                        c.name = "shallow/" + c.name.substr(c.name.find('/') + 1);
                        ExactTransform x = std::get<2>(t);
                        x.offset = {0, 0, 0};
                        return transformed(std::move(c), x);
                      });
}

// Resting contact: a box on a box, exactly touching — face on face (full or partial), edge on face, edge on edge,
// corner on corner — lattice extents and offsets, then an exact transform with a shear (contact stays contact).
inline rc::Gen<Case> resting_contact(int dim) {
  return rc::gen::map(rc::gen::tuple(choice(0, 4), lattice_point(dim, 3), lattice_point(dim, 3), lattice_point(dim, 3),
                                     exact_transform(dim, true)),
                      [dim](const auto& t) {
                        const int kind = std::get<0>(t), h = height_axis(dim);
                        Point ea = std::get<1>(t), eb = std::get<2>(t), shift = std::get<3>(t);
                        for (int i = 0; i < dim; ++i) ea[i] = 1 + std::fabs(ea[i]), eb[i] = 1 + std::fabs(eb[i]);
                        Point lo_a{0, 0, 0}, hi_a = ea, lo_b{0, 0, 0}, hi_b = eb;
                        lo_a[h] = -ea[h], hi_a[h] = 0, lo_b[h] = 0, hi_b[h] = eb[h];  // A below the plane, B above
                        for (int i = 0; i < dim; ++i) {
                          if (i == h) continue;
                          // 0: B's extent overlaps A's in every lateral axis; 1: along the first axis only at an edge
                          // (face-face becomes edge on face); 2, 3: at edges in every lateral axis (edge-edge, corner).
                          double o = std::fmod(std::fabs(shift[i]), ea[i]);
                          if ((kind == 1 && i == 0) || kind >= 2) o = (kind == 3 || i == 0) ? ea[i] : -eb[i];
                          lo_b[i] = o, hi_b[i] = o + eb[i];
                        }
                        static const char* names[] = {"face-face", "edge-face", "edge-edge", "corner"};
                        return transformed(make_case(dim, std::string("resting/") + names[kind], axis_box(dim, lo_a, hi_a),
                                                     axis_box(dim, lo_b, hi_b)),
                                           std::get<4>(t));
                      });
}

// Tied optimal facets: congruent cubes of side w, B = A moved by s·t with s = j/8·w and t an axis, a face diagonal
// or (3D) the space diagonal: the facets across the moved axes tie.
inline rc::Gen<Case> tied_facets(int dim) {
  return rc::gen::map(rc::gen::tuple(choice(1, 9), choice(1, 8), choice(0, dim), exact_transform(dim, false)),
                      [dim](const auto& t) {
                        const double w = std::get<0>(t), s = std::get<1>(t) * w / 8;
                        const int axes = std::get<2>(t) + 1;  // how many axes the offset moves along
                        Point hi{w, w, dim == 3 ? w : 0}, lo{0, 0, 0}, lo_b{0, 0, 0}, hi_b = hi;
                        for (int i = 0; i < axes; ++i) lo_b[i] += s, hi_b[i] += s;
                        static const char* names[] = {"axis", "face-diagonal", "space-diagonal"};
                        return transformed(make_case(dim, std::string("tied/") + names[axes - 1], axis_box(dim, lo, hi),
                                                     axis_box(dim, lo_b, hi_b)),
                                           std::get<3>(t));
                      });
}

// Thin boxes: a box of thickness 2^−k (k = 0..20, aspect down to 1e−6) overlapping a unit box or another thin box by
// a fraction j/8 of the thickness across its thin axis.
inline rc::Gen<Case> thin_boxes(int dim) {
  return rc::gen::map(rc::gen::tuple(choice(0, 21), choice(1, 16), rc::gen::element(0, 1), lattice_point(dim, 1)),
                      [dim](const auto& t) {
                        const int h = height_axis(dim);
                        const double thick = std::ldexp(1.0, -std::get<0>(t));
                        Point hi_a{1, 1, 1}, lo_a{-1, -1, -1};
                        lo_a[h] = -thick, hi_a[h] = thick;
                        Point lo_b = lo_a, hi_b = hi_a;
                        if (std::get<2>(t) == 0) lo_b = {-1, -1, -1}, hi_b = {1, 1, 1};
                        const double shift = (std::get<1>(t) - 8) * thick / 8;
                        for (int i = 0; i < dim; ++i) {
                          const double lateral = i == h ? shift : std::get<3>(t)[i] / 2.0;
                          lo_b[i] += lateral, hi_b[i] += lateral;
                        }
                        if (dim == 2) lo_a[2] = hi_a[2] = lo_b[2] = hi_b[2] = 0;
                        return make_case(dim, std::get<2>(t) ? "thin/thin-thin" : "thin/thin-unit",
                                         axis_box(dim, lo_a, hi_a), axis_box(dim, lo_b, hi_b));
                      });
}

// Posed boxes: a box stacked on another, each vertex computed from a pose (posed_box) the way an engine does:
// half-extents j/4, B's centre above A's top face by its own half-height minus 2^−k (k = 1..40, or exactly 0 before
// rounding), both turned about the vertical axis and tilted slightly (up to 1/100 of a turn), the stack moved by up
// to 1e3: box-box contacts as engines meet them.
inline rc::Gen<Case> posed_boxes(int dim) {
  return rc::gen::map(rc::gen::tuple(rc::gen::container<std::vector<int>>(6, choice(1, 9)), choice(0, 41),
                                     rc::gen::container<std::vector<int>>(4, choice(-500, 501)),
                                     choice(-1000, 1001)),
                      [dim](const auto& t) {
                        const std::vector<int>& e = std::get<0>(t);
                        const std::vector<int>& turn = std::get<2>(t);
                        const int h = height_axis(dim), k = std::get<1>(t);
                        const double push = k == 0 ? 0 : std::ldexp(1.0, -k);
                        const double offset = std::get<3>(t);
                        Point ha{e[0] / 4.0, e[1] / 4.0, e[2] / 4.0}, hb{e[3] / 4.0, e[4] / 4.0, e[5] / 4.0};
                        constexpr double kTurn = 6.283185307179586;
                        Point ca{offset, offset, offset}, cb = ca;
                        if (dim == 2) ca[2] = cb[2] = 0;
                        cb[h] += ha[h] + hb[h] - push;
                        Points a = posed_box(dim, ca, ha, turn[0] * kTurn / 50000, turn[1] * kTurn / 50000);
                        Points b = posed_box(dim, cb, hb, turn[2] * kTurn / 50000, turn[3] * kTurn / 50000);
                        return make_case(dim, k == 0 ? "posed/resting" : "posed/stacked", std::move(a), std::move(b));
                      });
}

// Depth at scale: a deep overlap or tied cubes scaled by 2^±40, or moved by 1e6 or 1e9, or stretched unevenly: the
// axes scaled by 2^500, 2^−500 and 2^−560 in a random order (a linear map, so the class is kept). Under the uneven
// stretch a product of two edge components falls below double's range (2^−1060) while a coordinate is 2^500: the
// exact oracles' double filters must then bound their underflow (FilterUnderflow.*, docs/edge-cases.md).
inline rc::Gen<Case> depth_scales(int dim) {
  return rc::gen::map(rc::gen::tuple(rc::gen::oneOf(deep_overlap(dim), tied_facets(dim)), choice(0, 5), choice(0, 3)),
                      [dim](const auto& t) {
                        Case c = std::get<0>(t);
                        const int kind = std::get<1>(t);
                        constexpr int kStretch[3] = {500, -500, -560};
                        for (auto* s : {&c.a, &c.b})
                          for (Point& p : s->points)
                            for (int i = 0; i < dim; ++i) {
                              if (kind == 0) p[i] = std::ldexp(p[i], 40);
                              if (kind == 1) p[i] = std::ldexp(p[i], -40);
                              if (kind == 2) p[i] += 1e6;
                              if (kind == 3) p[i] += 1e9;
                              if (kind == 4) p[i] = std::ldexp(p[i], kStretch[(i + std::get<2>(t)) % 3]);
                            }
                        static const char* names[] = {"2^40", "2^-40", "1e6", "1e9", "stretch"};
                        c.name = std::string("depth-scale/") + names[kind] + "-" + c.name.substr(0, c.name.find('/'));
                        return c;
                      });
}

// Flat pairs under a chord (3D; the wedges of findings 9 and 11, built on purpose). Before rounding, A and B are
// lattice polygons in the plane z = 0, each point raised or lowered by a tiny dyadic height j·u (u = 2^−k, k in
// [20, 56], |j| ≤ 8), and B lowered by h = i·u as a whole (|i| ≤ 8). They share the direction of an edge from a common
// corner: A holds p = (0, 0, 0), a = (m, r·m, 0) and points with 1 ≤ x ≤ m − 1; B holds p − (0, 0, h),
// b = (n, r·n, −h) and points with 1 ≤ x ≤ n − 1 (r in [−0.1, 0.1], so a and b round). GJK's first support, along +x,
// is then a − (p − h·z) and its second p − b: the ends of a chord of A⊖B passing at height h right over (or under) the
// origin. A⊖B is flat to about u over a size of about 10, so every triangle through the chord has its closest point on
// it to within about (u/10)²: rule 6 stalls there (the stalled step), or at a sliver triangle (finding 11), or walks
// past the segment. Depending on h and the heights the pair is apart by about h, touching or overlapping. Then both
// shapes are turned about the x axis (any angle; the chord stays the first supports) and moved by the same integer
// offset, in double: the rounding makes the region tests' own rounding matter.
// It found findings 11 to 15 (docs/edge-cases.md); it runs as FamilyProperties.FlatUnderAChord3d.
inline rc::Gen<Case> flat_under_a_chord() {
  return rc::gen::map(
      rc::gen::tuple(lattice_cloud(2, 8, 6), lattice_cloud(2, 8, 6), choice(2, 9), choice(2, 9), choice(20, 57),
                     choice(-8, 9), rc::gen::container<std::vector<int>>(6, choice(-8, 9)), choice(-100, 101),
                     choice(0, 1000), rc::gen::container<std::vector<int>>(3, choice(-20, 21))),
      [](const auto& t) {
        const int m = std::get<2>(t), n = std::get<3>(t);
        const double u = std::ldexp(1.0, -std::get<4>(t)), h = std::get<5>(t) * u;
        const double r = std::get<7>(t) / 1000.0;
        Points a = {{0, 0, 0}, {double(m), r * m, 0}}, b = {{0, 0, -h}, {double(n), r * n, -h}};
        // Each lattice point folded into 1 ≤ x ≤ length − 1, at height j·u (B's then lowered by h).
        const std::vector<int>& heights = std::get<6>(t);
        const auto fold = [u, &heights](const Points& cloud, int length, double lowered, Points& out) {
          for (std::size_t i = 0; i < cloud.size(); ++i) {
            Point q = cloud[i];
            q[0] = 1 + std::fmod(std::fabs(q[0]), length - 1);
            q[2] = heights[i] * u - lowered;
            out.push_back(q);
          }
        };
        fold(std::get<0>(t), m, 0, a);
        fold(std::get<1>(t), n, h, b);
        const double turn = std::get<8>(t) * 0.001 * 6.283185307179586;  // about the x axis
        for (Points* shape : {&a, &b})
          for (Point& q : *shape) {
            const double y = q[1], z = q[2];
            q[1] = std::cos(turn) * y - std::sin(turn) * z;
            q[2] = std::sin(turn) * y + std::cos(turn) * z;
            for (int i = 0; i < 3; ++i) q[i] += std::get<9>(t)[i];
          }
        return make_case(3, "flat/under-a-chord", std::move(a), std::move(b));
      });
}

// Invalid input: a random case with one coordinate replaced by NaN, +∞ or −∞, or with an empty shape.
inline rc::Gen<Case> non_finite(int dim) {
  return rc::gen::map(rc::gen::tuple(random_polytopes(dim), choice(0, 4), rc::gen::arbitrary<bool>(),
                                     choice(0, 1000)),
                      [dim](const auto& t) {
                        Case c = std::get<0>(t);
                        auto& shape = std::get<2>(t) ? c.a : c.b;
                        if (std::get<1>(t) == 3) {
                          shape.points.clear();
                          c.name = "invalid/empty";
                          return c;
                        }
                        const double bad[] = {std::nan(""), HUGE_VAL, -HUGE_VAL};
                        const std::size_t i = static_cast<std::size_t>(std::get<3>(t)) % shape.points.size();
                        shape.points[i][std::get<3>(t) % dim] = bad[std::get<1>(t)];
                        c.name = "invalid/non-finite";
                        return c;
                      });
}

// Simplices for the region tests alone (regions.hpp), named like cases: 1 to dimension+1 points, "simplex/lattice"
// on [−3, 3] (many duplicates, collinear and coplanar sets, the origin on features), "simplex/near-flat" (the last
// point an affine combination of the others with weights k/8, moved off by 2^−j, j in [10, 60]: region tests at
// the edge of rounding) and "simplex/real" (k/125000, within ±8). The case's A holds the points; B is {0}.
inline rc::Gen<Case> simplices(int dim) {
  return rc::gen::mapcat(rc::gen::tuple(choice(1, dim + 2), choice(0, 3)), [dim](const auto& t) {
    const int k = std::get<0>(t), kind = std::get<1>(t);
    return rc::gen::map(
        rc::gen::tuple(rc::gen::container<std::vector<int>>(3 * 4, choice(-3, 4)),
                       rc::gen::container<std::vector<int>>(3 * 4, choice(-1000000, 1000001)),
                       rc::gen::container<std::vector<int>>(4, choice(-8, 9)), choice(10, 61),
                       rc::gen::container<std::vector<int>>(3, choice(-1, 2))),
        [dim, k, kind](const auto& u) {
          const std::vector<int>& lattice = std::get<0>(u);
          const std::vector<int>& real = std::get<1>(u);
          Points ps;
          for (int i = 0; i < k; ++i) {
            Point p{0, 0, 0};
            for (int j = 0; j < dim; ++j)
              p[j] = kind == 2 ? real[3 * i + j] / 125000.0 : double(lattice[3 * i + j]);
            ps.push_back(p);
          }
          if (kind == 1 && k >= 2) {
            // The last point: Σ (w_i/8) p_i over the others (weights summing to 1), then moved by 2^−j·δ.
            Point q{0, 0, 0};
            int total = 0;
            for (int i = 0; i + 1 < k; ++i) total += std::get<2>(u)[i];
            for (int i = 0; i + 1 < k; ++i)
              for (int j = 0; j < dim; ++j) {
                const double w = (i == 0 ? 8 - total + std::get<2>(u)[0] : std::get<2>(u)[i]) / 8.0;
                q[j] += w * ps[i][j];
              }
            for (int j = 0; j < dim; ++j) q[j] += std::ldexp(double(std::get<4>(u)[j]), -std::get<3>(u));
            ps.back() = q;
          }
          static const char* kinds[] = {"simplex/lattice", "simplex/near-flat", "simplex/real"};
          return make_case(dim, kinds[kind], ps, {Point{0, 0, 0}});
        });
  });
}

// Every case committed to `directory` (its *.json files), sorted by name.
inline std::vector<Case> committed_cases(const std::string& directory) {
  std::vector<Case> cases;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    if (entry.path().extension() != ".json") continue;
    casefile::Parsed parsed = casefile::read_file(entry.path().string());
    if (parsed.error) throw std::runtime_error(parsed.error->message());
    for (Case& c : parsed.cases) cases.push_back(std::move(c));
  }
  std::sort(cases.begin(), cases.end(), [](const Case& x, const Case& y) { return x.name < y.name; });
  return cases;
}

// Past findings: every counterexample the suite has found (cases/findings/*.json, the directory given at build time
// as GJKREF_FINDINGS_DIR).
inline const std::vector<Case>& findings() {
  static const std::vector<Case> all = committed_cases(GJKREF_FINDINGS_DIR);
  return all;
}

// Rare paths (cases/rare-paths/*.json, GJKREF_RARE_PATHS_DIR): inputs that reach a part of the reference the random
// families reach about once in thousands of cases — the walk past a flat segment and its exits — harvested from
// rotated touching pairs (docs/properties.md). Not counterexamples: the reference answered each within contract.
inline const std::vector<Case>& rare_path_cases() {
  static const std::vector<Case> all = committed_cases(GJKREF_RARE_PATHS_DIR);
  return all;
}

// Committed cases of one dimension, each met in other exact ways: scaled by 2^k (k in [−40, 40]: away from underflow
// and overflow every double and long double operation of the reference scales exactly, so the same rounding and the
// same path, the rare ones included; a case whose coordinates would not all scale exactly — a subnormal losing bits, a
// huge one becoming infinite — is left unscaled, since it would no longer be the same case); its axes permuted and
// reflected (exact too: the same geometry in other coordinates, whose sums are formed in other orders and whose search
// directions point elsewhere, so other paths to the same hard spot); A and B swapped; A's points in reverse order (the
// cold start, a₀ − b₀, is then another vertex pair). The properties then judge each one
// in every mode, so a fixed finding stays fixed under the transformations that keep it hard. `kind` prefixes the name.
inline rc::Gen<Case> committed_variants(const std::vector<Case>& cases, int dim, const std::string& kind) {
  std::vector<Case> of_dim;
  for (const Case& c : cases)
    if (c.dim == dim) of_dim.push_back(c);
  if (of_dim.empty()) throw std::runtime_error("no committed " + kind + " cases of dimension " + std::to_string(dim));
  return rc::gen::map(
      rc::gen::tuple(rc::gen::elementOf(of_dim), choice(-40, 41), choice(0, 4), choice(0, dim == 3 ? 6 : 2),
                     choice(0, 1 << dim)),
      [kind](const auto& t) {
        Case c = std::get<0>(t);
        const int k = std::get<1>(t), variant = std::get<2>(t), permutation = std::get<3>(t),
                  reflections = std::get<4>(t);
        std::array<int, 3> axes = {0, 1, 2};
        for (int i = 0; i < permutation; ++i) std::next_permutation(axes.begin(), axes.begin() + c.dim);
        bool exact_scale = true;
        for (const auto* s : {&c.a, &c.b})
          for (const Point& p : s->points)
            for (int i = 0; i < c.dim; ++i) {
              const double scaled = std::ldexp(p[i], k);
              exact_scale = exact_scale && std::isfinite(scaled) && std::ldexp(scaled, -k) == p[i];
            }
        const int scale = exact_scale ? k : 0;
        for (auto* s : {&c.a, &c.b})
          for (Point& p : s->points) {
            const Point q = p;
            for (int i = 0; i < c.dim; ++i) p[i] = std::ldexp((reflections >> i & 1) ? -q[axes[i]] : q[axes[i]], scale);
          }
        if (variant & 1) std::swap(c.a, c.b);
        if (variant & 2) std::reverse(c.a.points.begin(), c.a.points.end());
        // A warm start follows its points: pairs swap with the shapes and A's indices reverse with A's points; a
        // direction turns with the axes (a hint only: the answer does not depend on it) and flips with the swap.
        if (c.warm_start) {
          for (auto& pair : c.warm_start->pairs) {
            if (variant & 1) std::swap(pair[0], pair[1]);
            if (variant & 2) pair[0] = c.a.points.size() - 1 - pair[0];
          }
          if (auto& d = c.warm_start->direction) {
            const Point q = *d;
            for (int i = 0; i < c.dim; ++i)
              (*d)[i] = ((reflections >> i & 1) ? -1 : 1) * ((variant & 1) ? -1 : 1) * q[axes[i]];
          }
        }
        c.name = kind + "/" + c.name;
        return c;
      });
}

inline rc::Gen<Case> past_findings(int dim) { return committed_variants(findings(), dim, "finding"); }

inline rc::Gen<Case> rare_paths(int dim) { return committed_variants(rare_path_cases(), dim, "rare"); }

// Warm-started queries, made as an engine makes them: a pair from another family (a random cloud, an exactly touching
// or near-touching pair, shapes on one line or plane through the origin — three times as often as each of the others:
// the case the warm-start layer is for — or posed boxes) and, as its warm start, the answer at the previous pose as
// the double reference gives it: that answer's simplex as index pairs (two cases in three), or its closest vector,
// negated, as the first search direction. At the previous pose B was turned by 2^−k radians about its centroid and
// moved back by 2^−k of the pair's extent (k = 1..40), and in two cases in three also by half or all of the way from
// A's centroid to B's — the shapes were overlapping a frame ago, and the warm start is then often a full-dimensional
// simplex (on shapes now on one plane through the origin, coplanar points of A⊖B: issue 17's false enclosure). The
// previous pose is only where the warm start comes from; the case is the current pose, and its answer must not depend
// on the warm start (docs/contract.md).
inline rc::Gen<Case> warm_started(int dim) {
  return rc::gen::map(
      rc::gen::tuple(rc::gen::weightedOneOf<Case>({{1, random_polytopes(dim)},
                                                   {1, exactly_touching(dim)},
                                                   {1, near_touching(dim)},
                                                   {3, flat_through_origin(dim)},
                                                   {1, posed_boxes(dim)}}),
                     choice(1, 41), rc::gen::container<std::vector<int>>(3, choice(-1000, 1001)),
                     choice(0, 3), choice(0, 3)),
      [dim](const auto& t) {
        Case c = std::get<0>(t);
        const int k = std::get<1>(t), overlap = std::get<4>(t);
        const std::vector<int>& towards = std::get<2>(t);
        double extent = 0;
        Point centroid_a{0, 0, 0}, centroid_b{0, 0, 0};
        for (const auto* s : {&c.a, &c.b})
          for (const Point& p : s->points)
            for (int i = 0; i < dim; ++i) {
              extent = std::max(extent, std::fabs(p[i]));
              (s == &c.a ? centroid_a : centroid_b)[i] += p[i] / static_cast<double>(s->points.size());
            }
        const double step = extent > 0 ? std::ldexp(1.0, std::ilogb(extent) - k) : 1.0;
        // B at the previous pose: turned about its centroid by 2^−k radians (about the axis `towards`; in 2D in the
        // plane), then moved. Computed in double: the previous pose is only where the warm start comes from.
        Point axis{0, 0, 1};
        double norm = 0;
        for (int i = 0; i < 3; ++i) norm += double(towards[static_cast<std::size_t>(i)]) * towards[static_cast<std::size_t>(i)];
        if (dim == 3 && norm > 0)
          for (int i = 0; i < 3; ++i) axis[i] = towards[static_cast<std::size_t>(i)] / std::sqrt(norm);
        const double angle = std::ldexp(1.0, -k), cosine = std::cos(angle), sine = std::sin(angle);
        Case previous = c;
        for (Point& p : previous.b.points) {
          Point v{0, 0, 0};
          for (int i = 0; i < dim; ++i) v[i] = p[i] - centroid_b[i];
          const Point cross{axis[1] * v[2] - axis[2] * v[1], axis[2] * v[0] - axis[0] * v[2], axis[0] * v[1] - axis[1] * v[0]};
          const double along = axis[0] * v[0] + axis[1] * v[1] + axis[2] * v[2];
          for (int i = 0; i < dim; ++i)
            p[i] = centroid_b[i] + v[i] * cosine + cross[i] * sine + axis[i] * along * (1 - cosine) +
                   (centroid_a[i] - centroid_b[i]) * overlap / 2 - step * towards[static_cast<std::size_t>(i)] / 1000.0;
        }
        casefile::in_dimension<double>(previous, [&]<class V>() {
          const auto r = distance(casefile::to_shape<V>(previous.a), casefile::to_shape<V>(previous.b));
          if (r.status != Status::Separated && r.status != Status::Intersecting) return;
          casefile::WarmStart warm;
          const bool by_direction = std::get<3>(t) == 2 && r.status == Status::Separated && is_finite(r.closest);
          if (by_direction) {
            Point d{0, 0, 0};
            for (int i = 0; i < V::dimension; ++i) d[i] = -r.closest[i];
            warm.direction = d;
          } else {
            for (int i = 0; i < r.simplex.size; ++i)
              warm.pairs.push_back({r.simplex.points[i].index_a, r.simplex.points[i].index_b});
          }
          c.warm_start = warm;
        });
        c.name = "warm/" + c.name;
        return c;
      });
}

// Finite input whose differences overflow double: a random pair moved apart by ±h = ±2^1023 along an axis
// ("overflow/all": every a − b overflows), or with one far point added to each shape, A's at −h and B's at +h
// ("overflow/far-points": only the differences of the two far points overflow, and only a search direction that picks
// both reaches them).
inline rc::Gen<Case> overflowing(int dim) {
  return rc::gen::map(rc::gen::tuple(random_polytopes(dim), rc::gen::arbitrary<bool>(), choice(0, dim)),
                      [](const auto& t) {
                        Case c = std::get<0>(t);
                        const int axis = std::get<2>(t);
                        const double h = std::ldexp(1.0, 1023);
                        if (std::get<1>(t)) {
                          for (Point& p : c.a.points) p[axis] += h;
                          for (Point& p : c.b.points) p[axis] -= h;
                          c.name = "overflow/all";
                        } else {
                          Point far_a{0, 0, 0}, far_b{0, 0, 0};
                          far_a[axis] = -h;
                          far_b[axis] = h;
                          c.a.points.push_back(far_a);
                          c.b.points.push_back(far_b);
                          c.name = "overflow/far-points";
                        }
                        return c;
                      });
}

}  // namespace gjkref::proptests
