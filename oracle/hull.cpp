// The hull oracle (method 1 of docs/oracle.md): exact, from the convex hull of the pairwise differences.
//
// Every number is an exact rational (mpq_class); CGAL computes only the convex hulls of full-dimensional point sets:
// convex_hull_2 on a plane with the exact kernel Simple_cartesian<mpq_class>, and convex_hull_3 in space on Epeck
// points (exact, with filtered predicates: fast) through an index adapter, so that the hull comes back as indices
// into our own exact points and no Epeck number is ever compared or converted. The affine
// dimension of every set is decided here, by exact tests, before CGAL sees it: CGAL 5.5's convex_hull_3 keeps the
// wrong two points of a collinear input (docs/oracle.md), so it is never given one.
// The classification and the closest point are written here too, in a form unlike the reference's region tests:
// project, test the barycentric signs, else take the best of the boundary's segments.
#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Extreme_points_traits_adapter_3.h>
#include <CGAL/Simple_cartesian.h>
#include <CGAL/Surface_mesh.h>
#include <CGAL/convex_hull_2.h>
#include <CGAL/convex_hull_3.h>
#include <CGAL/gmpxx.h>
#include <mpfr.h>

#include <algorithm>
#include <boost/iterator/counting_iterator.hpp>
#include <map>
#include <optional>
#include <tuple>

#include "depth_facet.hpp"
#include "exact_geometry.hpp"
#include "gjkref/oracle.hpp"

namespace gjkref::oracle {
namespace {

using namespace exact_geometry;
using Kernel = CGAL::Simple_cartesian<mpq_class>;
using EPoint = CGAL::Epeck::Point_3;

// The convex hull of a full-dimensional 3D point set, as a mesh whose "points" are indices into `points`.
CGAL::Surface_mesh<std::size_t> hull_3(const std::vector<EPoint>& points) {
  CGAL::Surface_mesh<std::size_t> mesh;
  CGAL::convex_hull_3(boost::counting_iterator<std::size_t>(0), boost::counting_iterator<std::size_t>(points.size()),
                      mesh, CGAL::make_extreme_points_traits_adapter(CGAL::make_property_map(points)));
  return mesh;
}

// A point of A⊖B with the vertices of A and B it is the difference of.
struct Labeled {
  P p;
  std::size_t i = 0, j = 0;
};

// A point of A⊖B as a convex combination of labelled points (weights > 0, summing to 1).
struct Combination {
  std::vector<std::pair<const Labeled*, Q>> terms;

  P point() const {
    P r{Q(0), Q(0), Q(0)};
    for (const auto& [l, w] : terms) r = add(r, scale(w, l->p));
    return r;
  }
};

Combination combination(std::initializer_list<std::pair<const Labeled*, Q>> terms) {
  Combination c;
  for (const auto& t : terms)
    if (t.second != 0) c.terms.push_back(t);
  return c;
}

// The affine dimension of a point set and a basis: o, u, v, w index points such that u − o, v − o, w − o are
// independent as far as the dimension goes; `normal` is (u − o) × (v − o) when the dimension is at least 2.
struct Affine {
  int dim = 0;
  std::size_t o = 0, u = 0, v = 0;
  P normal{};
};

Affine affine_of(const std::vector<P>& pts) {
  Affine a;
  const P& o = pts[0];
  auto u = std::find_if(pts.begin(), pts.end(), [&](const P& p) { return p != o; });
  if (u == pts.end()) return a;
  a.dim = 1;
  a.u = static_cast<std::size_t>(u - pts.begin());
  const P e = sub(*u, o);
  for (std::size_t k = 0; k < pts.size(); ++k) {
    const P n = cross(e, sub(pts[k], o));
    if (!is_zero(n)) {
      a.dim = 2;
      a.v = k;
      a.normal = n;
      break;
    }
  }
  if (a.dim < 2) return a;
  for (const P& p : pts)
    if (dot(a.normal, sub(p, o)) != 0) {
      a.dim = 3;
      break;
    }
  return a;
}

// Coordinates on a plane with normal n: drop the axis where |n| is largest (an injective affine map of the plane).
int dropped_axis(const P& n) {
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (abs(n[i]) > abs(n[k])) k = i;
  return k;
}
Kernel::Point_2 project(const P& p, int dropped) { return {p[(dropped + 1) % 3], p[(dropped + 2) % 3]}; }

// The extreme points of a point set (indices), by its affine dimension. `epoints` are the same points as Epeck points.
std::vector<std::size_t> extreme_points(const std::vector<P>& pts, const std::vector<EPoint>& epoints,
                                        const Affine& aff) {
  std::vector<std::size_t> out;
  if (aff.dim == 0) return {0};
  if (aff.dim == 1) {
    const P e = sub(pts[aff.u], pts[aff.o]);
    std::size_t lo = 0, hi = 0;
    Q tlo = dot(e, sub(pts[0], pts[aff.o])), thi = tlo;
    for (std::size_t k = 1; k < pts.size(); ++k) {
      const Q t = dot(e, sub(pts[k], pts[aff.o]));
      if (t < tlo) tlo = t, lo = k;
      if (t > thi) thi = t, hi = k;
    }
    return {lo, hi};
  }
  if (aff.dim == 2) {
    const int drop = dropped_axis(aff.normal);
    std::map<std::pair<Q, Q>, std::size_t> index;
    std::vector<Kernel::Point_2> projected;
    for (std::size_t k = 0; k < pts.size(); ++k) {
      const Kernel::Point_2 q = project(pts[k], drop);
      if (index.emplace(std::pair<Q, Q>{q.x(), q.y()}, k).second) projected.push_back(q);
    }
    std::vector<Kernel::Point_2> hull;
    CGAL::convex_hull_2(projected.begin(), projected.end(), std::back_inserter(hull));
    for (const auto& q : hull) out.push_back(index.at({q.x(), q.y()}));
    return out;  // in boundary order
  }
  const CGAL::Surface_mesh<std::size_t> mesh = hull_3(epoints);
  for (auto v : mesh.vertices()) out.push_back(mesh.point(v));
  return out;
}

// The closest point of segment [s, e] to the origin: s + t(e − s) with t = −s·(e − s)/|e − s|², clamped to [0, 1].
Combination closest_on_segment(const Labeled& s, const Labeled& e) {
  const P d = sub(e.p, s.p);
  const Q dd = dot(d, d);
  if (dd == 0) return combination({{&s, Q(1)}});
  const Q t = -dot(s.p, d) / dd;
  if (t <= 0) return combination({{&s, Q(1)}});
  if (t >= 1) return combination({{&e, Q(1)}});
  return combination({{&s, Q(1 - t)}, {&e, t}});
}

// Barycentric weights of q (a point of the triangle's plane) in the non-degenerate triangle (a, b, c). The triangle's
// own normal n = (b − a)×(c − a) is used, so that the three weights sum to 1 whatever the orientation.
std::array<Q, 3> barycentric(const P& q, const P& a, const P& b, const P& c) {
  const P n = cross(sub(b, a), sub(c, a));
  const Q nn = dot(n, n);
  const Q la = dot(n, cross(sub(b, q), sub(c, q))) / nn;
  const Q lb = dot(n, cross(sub(c, q), sub(a, q))) / nn;
  return {la, lb, Q(1 - la - lb)};
}

// The closest of several candidates.
Combination closest_of(const std::vector<Combination>& candidates) {
  const Combination* best = &candidates[0];
  Q best_norm = dot(best->point(), best->point());
  for (const Combination& c : candidates) {
    const P p = c.point();
    const Q norm = dot(p, p);
    if (norm < best_norm) best_norm = norm, best = &c;
  }
  return *best;
}

// The closest point of a convex polygon (labelled vertices in boundary order, normal n) to the origin.
Combination closest_on_polygon(const std::vector<const Labeled*>& ring, const P& n) {
  // The origin's projection onto the plane: n (n·p)/(n·n). Inside the polygon: the closest point.
  const P q = scale(Q(dot(n, ring[0]->p) / dot(n, n)), n);
  for (std::size_t k = 1; k + 1 < ring.size(); ++k) {  // fan triangulation from ring[0]
    const auto w = barycentric(q, ring[0]->p, ring[k]->p, ring[k + 1]->p);
    if (w[0] >= 0 && w[1] >= 0 && w[2] >= 0)
      return combination({{ring[0], w[0]}, {ring[k], w[1]}, {ring[k + 1], w[2]}});
  }
  std::vector<Combination> edges;
  for (std::size_t k = 0; k < ring.size(); ++k)
    edges.push_back(closest_on_segment(*ring[k], *ring[(k + 1) % ring.size()]));
  return closest_of(edges);
}

struct Located {
  Verdict verdict;
  // Separated or touching: the closest point. Overlapping: the origin, with every hull vertex weighted positively
  // (the certificate of an interior point: interior_combination).
  Combination closest;
  Feature feature;           // the minimal face of A⊖B containing the closest point (Interior when overlapping)
  int affine_dimension = 0;  // of A⊖B
  P normal{};                // touching: a plane through the origin with A⊖B on its side normal·x ≤ 0
};

// A facet of a full-dimensional hull: its vertices (2 in a plane, 3 in space) and an outward normal.
struct Facet {
  std::vector<const Labeled*> vertices;
  P normal;
};

// The origin, strictly inside a full-dimensional hull, as a combination giving every hull vertex a positive weight.
// Let c be the vertices' centroid (weights 1/N each). If c ≠ 0, the ray from c through the origin leaves the hull at
// e = −s·c on the facet where s = (n·f₀)/(n·(−c)) is least among facets with n·(−c) > 0; then 0 = (s·c + e)/(1 + s),
// with e a convex combination of that facet's vertices.
Combination interior_combination(const std::vector<const Labeled*>& vertices, const std::vector<Facet>& facets) {
  const Q share = Q(1) / static_cast<long>(vertices.size());
  P centroid = zero();
  for (const Labeled* l : vertices) centroid = add(centroid, scale(share, l->p));
  Combination out;
  if (is_zero(centroid)) {
    for (const Labeled* l : vertices) out.terms.push_back({l, share});
    return out;
  }
  // The exit parameter s, then a facet on whose plane e lies and which contains e (a planar face comes as several
  // triangles on one plane: e lies in one of them).
  std::optional<Q> s;
  for (const Facet& f : facets)
    if (const Q toward = -dot(f.normal, centroid); toward > 0) {
      const Q t = dot(f.normal, f.vertices[0]->p) / toward;
      if (!s || t < *s) s = t;
    }
  if (!s) throw std::logic_error("hull oracle: no facet faces away from the centroid");
  const P e = scale(-*s, centroid);
  const Facet* exit = nullptr;
  std::vector<Q> facet_weights;
  for (const Facet& f : facets) {
    if (dot(f.normal, sub(e, f.vertices[0]->p)) != 0) continue;
    const auto& fv = f.vertices;
    if (fv.size() == 2) {
      const P d = sub(fv[1]->p, fv[0]->p);
      const Q t = dot(sub(e, fv[0]->p), d) / dot(d, d);
      facet_weights = {Q(1 - t), t};
    } else {
      const auto w = barycentric(e, fv[0]->p, fv[1]->p, fv[2]->p);
      facet_weights = {w[0], w[1], w[2]};
    }
    if (std::all_of(facet_weights.begin(), facet_weights.end(), [](const Q& w) { return w >= 0; })) {
      exit = &f;
      break;
    }
  }
  if (!exit) throw std::logic_error("hull oracle: the ray from the centroid leaves through no facet");
  const auto& fv = exit->vertices;
  const Q alpha = *s / (1 + *s);
  for (const Labeled* l : vertices) out.terms.push_back({l, Q(alpha * share)});
  for (std::size_t k = 0; k < fv.size(); ++k)
    if (facet_weights[k] != 0) out.terms.push_back({fv[k], Q((1 - alpha) * facet_weights[k])});
  return out;
}

// A normal of the affine hull of a lower-dimensional A⊖B containing the origin: every point x of it has normal·x = 0.
P flat_normal(const Affine& aff, const std::vector<P>& pts, int ambient) {
  const P axes[3] = {{Q(1), Q(0), Q(0)}, {Q(0), Q(1), Q(0)}, {Q(0), Q(0), Q(1)}};
  if (aff.dim == 0) return axes[0];
  const P e = sub(pts[aff.u], pts[aff.o]);
  if (ambient == 2) return {Q(-e[1]), e[0], Q(0)};
  if (aff.dim == 2) return aff.normal;
  for (const P& axis : axes)
    if (const P n = cross(e, axis); !is_zero(n)) return n;
  throw std::logic_error("hull oracle: a segment with no normal");
}

// p lies on segment [s, e] (closed).
bool on_segment(const P& p, const P& s, const P& e) {
  const P d = sub(e, s), w = sub(p, s);
  if (!is_zero(cross(d, w))) return false;
  const Q t = dot(w, d);
  return t >= 0 && t <= dot(d, d);
}

// The minimal face of a polygon (boundary ring) containing p, a point of the polygon: a vertex, an edge (p on one
// boundary edge), or the face (on none).
Feature polygon_feature(const P& p, const std::vector<const Labeled*>& ring) {
  int edges = 0;
  for (std::size_t k = 0; k < ring.size(); ++k)
    if (on_segment(p, ring[k]->p, ring[(k + 1) % ring.size()]->p)) ++edges;
  return edges == 0 ? Feature::Face : (edges == 1 ? Feature::Edge : Feature::Vertex);
}

Located locate_in(const std::vector<Labeled>& d, const std::vector<EPoint>& ed, int ambient, const Affine& aff,
                  const std::vector<P>& pts) {
  const auto verdict_for = [&](const Combination& c, bool interior) {
    if (!is_zero(c.point())) return Verdict::Separated;
    return interior && aff.dim == ambient ? Verdict::Overlapping : Verdict::Touching;
  };

  if (aff.dim == 0) {
    const Combination c = combination({{&d[0], Q(1)}});
    return {verdict_for(c, false), c, Feature::Vertex, 0, flat_normal(aff, pts, ambient)};
  }
  const std::vector<std::size_t> ext = extreme_points(pts, ed, aff);
  if (aff.dim == 1) {
    const Combination c = closest_on_segment(d[ext[0]], d[ext[1]]);
    const P v = c.point();
    return {verdict_for(c, false), c, v == d[ext[0]].p || v == d[ext[1]].p ? Feature::Vertex : Feature::Edge, 1,
            flat_normal(aff, pts, ambient)};
  }
  if (aff.dim == 2) {
    std::vector<const Labeled*> ring;
    for (std::size_t k : ext) ring.push_back(&d[k]);
    const Combination c = closest_on_polygon(ring, aff.normal);
    // Interior (2D cases only): the origin is inside and on no edge of the ring. In 2D the ring is counter-clockwise
    // (convex_hull_2 on (x, y)), so the outward normal of the edge p → q is (e_y, −e_x) with e = q − p.
    std::optional<P> edge_normal;
    std::vector<Facet> edges;
    for (std::size_t k = 0; k < ring.size(); ++k) {
      const Labeled* p = ring[k];
      const Labeled* q = ring[(k + 1) % ring.size()];
      const P e = sub(q->p, p->p);
      edges.push_back({{p, q}, {e[1], Q(-e[0]), Q(0)}});
      if (is_zero(closest_on_segment(*p, *q).point())) edge_normal = edges.back().normal;
    }
    const Verdict verdict = verdict_for(c, !edge_normal);
    if (verdict == Verdict::Overlapping) return {verdict, interior_combination(ring, edges), Feature::Interior, 2};
    return {verdict, c, polygon_feature(c.point(), ring), 2,
            ambient == 2 && edge_normal ? *edge_normal : flat_normal(aff, pts, ambient)};
  }

  // Full-dimensional polytope: the hull's triangles, outward. For each, s = n·(0 − a) > 0 means the origin lies
  // beyond that face.
  std::vector<EPoint> extreme;
  for (std::size_t k : ext) extreme.push_back(ed[k]);
  const CGAL::Surface_mesh<std::size_t> mesh = hull_3(extreme);
  std::vector<std::array<const Labeled*, 3>> faces;
  for (auto f : mesh.faces()) {
    std::array<const Labeled*, 3> t{};
    int i = 0;
    for (auto v : CGAL::vertices_around_face(mesh.halfedge(f), mesh)) t[i++] = &d[ext[mesh.point(v)]];
    faces.push_back(t);
  }
  std::vector<Combination> visible;
  std::optional<P> boundary_normal;  // the outward normal of a hull triangle containing the origin
  std::vector<Facet> facets;
  for (const auto& t : faces) {
    const P n = cross(sub(t[1]->p, t[0]->p), sub(t[2]->p, t[0]->p));
    facets.push_back({{t[0], t[1], t[2]}, n});
    const Q s = -dot(n, t[0]->p);
    if (s > 0) visible.push_back(closest_on_polygon({t[0], t[1], t[2]}, n));
    if (s == 0) {
      const Combination c = closest_on_polygon({t[0], t[1], t[2]}, n);
      if (is_zero(c.point())) boundary_normal = n;
    }
  }
  // The minimal face containing a boundary point p: count the distinct planes of the hull triangles containing it
  // (planar faces come triangulated): one plane — a face, two — an edge, three or more — a vertex.
  const auto feature_of = [&](const P& p) {
    std::vector<P> normals;
    for (const auto& t : faces) {
      const P n = cross(sub(t[1]->p, t[0]->p), sub(t[2]->p, t[0]->p));
      if (dot(n, sub(p, t[0]->p)) != 0) continue;
      const auto w = barycentric(p, t[0]->p, t[1]->p, t[2]->p);
      if (w[0] < 0 || w[1] < 0 || w[2] < 0) continue;
      const bool known = std::any_of(normals.begin(), normals.end(),
                                     [&](const P& m) { return is_zero(cross(m, n)) && dot(m, n) > 0; });
      if (!known) normals.push_back(n);
    }
    return normals.size() == 1 ? Feature::Face : (normals.size() == 2 ? Feature::Edge : Feature::Vertex);
  };
  if (!visible.empty()) {
    const Combination c = closest_of(visible);
    return {Verdict::Separated, c, feature_of(c.point()), 3};
  }
  if (!boundary_normal) {
    std::vector<const Labeled*> vertices;
    for (std::size_t k : ext) vertices.push_back(&d[k]);
    return {Verdict::Overlapping, interior_combination(vertices, facets), Feature::Interior, 3};
  }
  // The origin is on the boundary: locate it in a tetrahedron of the fan from one hull vertex.
  const Labeled* apex = faces[0][0];
  for (const auto& t : faces) {
    if (t[0] == apex || t[1] == apex || t[2] == apex) continue;
    const P a = apex->p;
    const Q volume = dot(sub(t[0]->p, a), cross(sub(t[1]->p, a), sub(t[2]->p, a)));
    if (volume == 0) continue;  // a triangle of a planar hull face that the apex lies on: no tetrahedron
    const P o = zero();
    std::array<Q, 4> w = {dot(sub(t[0]->p, o), cross(sub(t[1]->p, o), sub(t[2]->p, o))) / volume,
                          dot(sub(o, a), cross(sub(t[1]->p, a), sub(t[2]->p, a))) / volume,
                          dot(sub(t[0]->p, a), cross(sub(o, a), sub(t[2]->p, a))) / volume,
                          dot(sub(t[0]->p, a), cross(sub(t[1]->p, a), sub(o, a))) / volume};
    if (std::all_of(w.begin(), w.end(), [](const Q& x) { return x >= 0; })) {
      Combination c;
      const std::array<const Labeled*, 4> vertex = {apex, t[0], t[1], t[2]};
      for (int k = 0; k < 4; ++k)
        if (w[k] != 0) c.terms.push_back({vertex[k], w[k]});
      return {Verdict::Touching, c, feature_of(zero()), 3, *boundary_normal};
    }
  }
  throw std::logic_error("hull oracle: the origin is on the hull but in no tetrahedron of the fan");
}

std::vector<std::size_t> extreme_points(const std::vector<P>& pts, const std::vector<EPoint>& epoints) {
  return extreme_points(pts, epoints, affine_of(pts));
}

// Where the origin lies relative to A⊖B = conv(d), and A⊖B's affine dimension.
Located locate(const std::vector<Labeled>& d, const std::vector<EPoint>& ed, int ambient) {
  std::vector<P> pts;
  for (const Labeled& l : d) pts.push_back(l.p);
  const Affine aff = affine_of(pts);
  Located located = locate_in(d, ed, ambient, aff, pts);
  located.affine_dimension = aff.dim;
  return located;
}

// A⊖B as labelled differences of the extreme points of A and B, identical differences kept once, with the exact
// deduplicated input points and their Epeck twins. input_a[i] is the index in the case of a's point i (its first
// occurrence).
struct Differences {
  std::vector<P> a, b;
  std::vector<EPoint> ea, eb;
  std::vector<std::size_t> input_a, input_b;
  std::vector<Labeled> d;
  std::vector<EPoint> ed;
};

Differences differences_of(const casefile::Case& c) {
  Differences x;
  // Exact points, duplicates removed (Epeck's equality tests on identical points are slow), with their Epeck twins.
  for (const auto& [shape, exact_points, epeck_points, input_index] :
       {std::tuple{&c.a, &x.a, &x.ea, &x.input_a}, std::tuple{&c.b, &x.b, &x.eb, &x.input_b}}) {
    std::map<P, bool> seen_input;
    for (std::size_t k = 0; k < shape->points.size(); ++k) {
      const auto& p = shape->points[k];
      if (seen_input.emplace(exact(p), true).second) {
        exact_points->push_back(exact(p));
        epeck_points->emplace_back(p[0], p[1], p[2]);
        input_index->push_back(k);
      }
    }
  }
  // A⊖B's vertices are differences of A's and B's extreme points; identical differences are kept once.
  std::map<P, bool> seen;
  const std::vector<std::size_t> ext_a = extreme_points(x.a, x.ea), ext_b = extreme_points(x.b, x.eb);
  for (std::size_t i : ext_a)
    for (std::size_t j : ext_b) {
      const P p = sub(x.a[i], x.b[j]);
      if (seen.emplace(p, true).second) {
        x.d.push_back({p, i, j});
        x.ed.push_back(CGAL::ORIGIN + (x.ea[i] - x.eb[j]));
      }
    }
  return x;
}

}  // namespace

double correctly_rounded_sqrt(const mpq_class& q) {
  if (q == 0) return 0.0;
  // Bracket √q between two roundings at increasing precision until both round to the same double.
  for (mpfr_prec_t precision = 128; precision <= 1 << 16; precision *= 2) {
    mpfr_t lo, hi;
    mpfr_inits2(precision, lo, hi, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_q(lo, q.get_mpq_t(), MPFR_RNDD);
    mpfr_sqrt(lo, lo, MPFR_RNDD);
    mpfr_set_q(hi, q.get_mpq_t(), MPFR_RNDU);
    mpfr_sqrt(hi, hi, MPFR_RNDU);
    const double a = mpfr_get_d(lo, MPFR_RNDN), b = mpfr_get_d(hi, MPFR_RNDN);
    mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr));
    if (a == b) return a;
  }
  throw std::logic_error("correctly_rounded_sqrt: no agreement at 65536 bits");
}

Answer hull_oracle(const casefile::Case& c) {
  Answer out;
  if (c.has_empty_shape() || c.has_non_finite_coordinate()) return out;
  const TimeLimit bound(c, "hull");
  const Differences x = differences_of(c);
  const auto& [a, b, ea, eb, input_a, input_b, d, ed] = x;
  const Located located = locate(d, ed, c.dim);
  out.affine_dimension = located.affine_dimension;
  out.verdict = located.verdict;
  out.feature = located.feature;
  out.witness_a = out.witness_b = zero();
  const auto add_weight = [](std::vector<Weight>& weights, std::size_t index, const Q& w) {
    auto it = std::find_if(weights.begin(), weights.end(), [&](const Weight& x) { return x.index == index; });
    if (it == weights.end()) weights.push_back({index, w});
    else it->weight += w;
  };
  for (const auto& [l, w] : located.closest.terms) {
    out.witness_a = add(out.witness_a, scale(w, a[l->i]));
    out.witness_b = add(out.witness_b, scale(w, b[l->j]));
    add_weight(out.certificate.weights_a, input_a[l->i], w);
    add_weight(out.certificate.weights_b, input_b[l->j], w);
  }
  if (out.verdict == Verdict::Touching) out.certificate.normal = located.normal;
  const P v = located.closest.point();
  out.squared_distance = dot(v, v);
  out.distance = correctly_rounded_sqrt(out.squared_distance);
  if (auto problem = check_certificate(c, out))
    throw CertificateError("hull oracle: the certificate fails (" + *problem + ") on\n" + casefile::write(c));
  return out;
}

Penetration penetration_oracle(const casefile::Case& c, const Answer& answer) {
  Penetration out;
  out.verdict = answer.verdict;
  out.method = Method::Hull;
  if (answer.verdict != Verdict::Overlapping && answer.verdict != Verdict::Touching) return out;
  const TimeLimit bound(c, "hull-depth");
  const Differences x = differences_of(c);
  std::vector<P> pts;
  for (const Labeled& l : x.d) pts.push_back(l.p);
  const Affine aff = affine_of(pts);
  if (aff.dim < c.dim) {  // a flat D: the origin is on its boundary (touching), PD = 0 and no facet to list
    if (answer.verdict == Verdict::Overlapping) throw CertificateError("hull depth: overlapping, but A⊖B is flat");
    // The certificate: the answer's weights, which put the origin in D.
    out.origin_a = answer.certificate.weights_a;
    out.origin_b = answer.certificate.weights_b;
    if (auto problem = check_penetration_certificate(c, out))
      throw CertificateError("hull depth: the certificate fails (" + *problem + ") on\n" + casefile::write(c));
    return out;
  }
  // D's boundary as oriented facets of labelled differences: the hull's triangles (3D, outward as CGAL orients them)
  // or the counter-clockwise ring's edges (2D).
  std::vector<std::array<const Labeled*, 3>> facets;
  if (c.dim == 3) {
    const CGAL::Surface_mesh<std::size_t> mesh = hull_3(x.ed);
    for (auto f : mesh.faces()) {
      std::array<const Labeled*, 3> t{};
      int i = 0;
      for (auto v : CGAL::vertices_around_face(mesh.halfedge(f), mesh)) t[i++] = &x.d[mesh.point(v)];
      facets.push_back(t);
    }
  } else {
    const std::vector<std::size_t> ring = extreme_points(pts, x.ed, aff);
    for (std::size_t k = 0; k < ring.size(); ++k) {
      const Labeled* p = &x.d[ring[k]];
      const Labeled* q = &x.d[ring[(k + 1) % ring.size()]];
      facets.push_back({p, q, q});
    }
  }
  const auto normal_of = [&](const std::array<const Labeled*, 3>& f) {
    if (c.dim == 3) return cross(sub(f[1]->p, f[0]->p), sub(f[2]->p, f[0]->p));
    const P e = sub(f[1]->p, f[0]->p);
    return P{e[1], Q(-e[0]), Q(0)};
  };
  // Overlapping: the facets whose planes are nearest the origin; touching: those whose planes pass through it.
  std::optional<Q> best;
  std::vector<P> chosen;
  for (const auto& f : facets) {
    out.surface.push_back({PointPair{x.input_a[f[0]->i], x.input_b[f[0]->j]},
                           PointPair{x.input_a[f[1]->i], x.input_b[f[1]->j]},
                           PointPair{x.input_a[f[2]->i], x.input_b[f[2]->j]}});
    const P n = normal_of(f);
    const Q offset = dot(n, f[0]->p);
    if (answer.verdict == Verdict::Touching && offset != 0) continue;
    const Q squared = offset * offset / dot(n, n);  // 0 for every facet kept when touching
    if (!best || squared < *best) {
      best = squared;
      chosen.clear();
    }
    if (squared == *best && std::none_of(chosen.begin(), chosen.end(), [&](const P& m) { return same_direction(m, n); }))
      chosen.push_back(n);
  }
  out.squared_depth = answer.verdict == Verdict::Touching ? Q(0) : best.value_or(Q(0));
  for (const P& n : chosen) out.optimal.push_back(supporting_facet(c, n));
  out.depth = correctly_rounded_sqrt(out.squared_depth);
  if (auto problem = check_penetration_certificate(c, out))
    throw CertificateError("hull depth: the certificate fails (" + *problem + ") on\n" + casefile::write(c));
  return out;
}

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::Separated: return "separated";
    case Verdict::Touching: return "touching";
    case Verdict::Overlapping: return "overlapping";
    case Verdict::InvalidInput: return "invalid-input";
  }
  return "?";
}

const char* to_string(Feature f) {
  switch (f) {
    case Feature::None: return "none";
    case Feature::Vertex: return "vertex";
    case Feature::Edge: return "edge";
    case Feature::Face: return "face";
    case Feature::Interior: return "interior";
  }
  return "?";
}

}  // namespace gjkref::oracle
