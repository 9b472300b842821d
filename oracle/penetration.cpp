// Penetration depth (docs/oracle.md, "Penetration depth"): the exact check of the hull method's certificate, the second
// method (from the faces and edges of A and B, never the hull of A⊖B), and the exact measures the judge applies to
// reported normals and contact points. No CGAL beyond its exact float type (Mpzf).
//
// Every sign is filtered: first evaluated in double with a forward error bound (kFilterEpsilons), and exactly
// (CGAL::Mpzf, or GMP rationals) only when the bound cannot decide — in practice, points on the plane being tested.
#include <CGAL/Mpzf.h>
#include <mpfr.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "depth_facet.hpp"
#include "exact_geometry.hpp"
#include "gjkref/oracle.hpp"

namespace gjkref::oracle {
namespace {

using namespace exact_geometry;
using D3 = std::array<double, 3>;

// The vertical unit vector: a 2D edge e has the outward normal e × ẑ = (e_y, −e_x, 0) when the polygon is
// counter-clockwise.
const D3 kUp{0, 0, 1};

// A vector made of input points, p₁ + p₂ − q₁ − q₂ (absent terms are 0): the edge of a shape (p − q), of A⊖B
// ((a₁ − b₁) − (a₀ − b₀)), or the vertical.
struct Vector {
  const D3* plus[2] = {nullptr, nullptr};
  const D3* minus[2] = {nullptr, nullptr};

  std::array<CGAL::Mpzf, 3> exactly() const {
    std::array<CGAL::Mpzf, 3> v{CGAL::Mpzf(0.0), CGAL::Mpzf(0.0), CGAL::Mpzf(0.0)};
    for (int k = 0; k < 3; ++k)
      for (int t = 0; t < 2; ++t) {
        if (plus[t]) v[k] = v[k] + CGAL::Mpzf((*plus[t])[k]);
        if (minus[t]) v[k] = v[k] - CGAL::Mpzf((*minus[t])[k]);
      }
    return v;
  }
  P rational() const {
    P v = zero();
    for (int t = 0; t < 2; ++t) {
      if (plus[t]) v = add(v, exact(*plus[t]));
      if (minus[t]) v = sub(v, exact(*minus[t]));
    }
    return v;
  }
};
Vector edge(const D3& p, const D3& q) { return {{&p, nullptr}, {&q, nullptr}}; }
Vector edge_of_difference(const D3& a1, const D3& b1, const D3& a0, const D3& b0) { return {{&a1, &b0}, {&b1, &a0}}; }

// The filter's error bound: a sign computed in double from sums of at most four input doubles, a cross product and a
// dot product is off from the exact value by at most about 12u times the same expression evaluated on magnitudes
// (u = 2⁻⁵³: 3u for each vector's sum, u for each product and difference; second-order terms far below). 64u leaves
// room for the rounding of the magnitudes themselves. Below kFilterFloor the relative bounds fail (underflow), and a
// non-finite value means overflow: both go to the exact evaluation. A wider bound costs only speed, never a sign.
constexpr double kFilterEpsilons = 64 * 0x1p-53;
constexpr double kFilterFloor = 0x1p-900;
// The relative bound does not cover underflow inside a normal's components: a product below 2⁻¹⁰²² carries an absolute
// error up to 2⁻¹⁰⁷⁵, which the dot product then multiplies by coordinates as large as 2¹⁰²⁴ — far above 12u of the
// other terms (FilterUnderflow.ANormalComponentBelowDoublesRange, cases/findings/pd-filter-underflow-*.json). Each
// component's magnitude therefore carries this absolute term: 64u·2⁻⁹⁶⁰ = 2⁻¹⁰⁰⁷ exceeds the at most 2·2⁻¹⁰⁷⁵ lost
// per component by far, and costs nothing elsewhere (it is below every magnitude that is not itself near underflow).
constexpr double kUnderflowSlack = 0x1p-960;

// A normal n = ±(U × V) of two vectors of input points, or an exact vector. Signs of n·(x − y) are filtered: in
// double with the bound above; then exactly, in CGAL::Mpzf (exact multiprecision floats: fast on doubles) when n
// comes from input points, in rationals otherwise.
class Normal {
 public:
  Normal(const Vector& u, const Vector& v, int sign = 1) : u_(u), v_(v), from_points_(true), sign_(sign) {
    D3 us{0, 0, 0}, ua{0, 0, 0}, vs{0, 0, 0}, va{0, 0, 0};
    sums(u, us, ua);
    sums(v, vs, va);
    for (int k = 0; k < 3; ++k) {
      const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
      n_[k] = sign * (us[k1] * vs[k2] - us[k2] * vs[k1]);
      magnitude_[k] = ua[k1] * va[k2] + ua[k2] * va[k1] + kUnderflowSlack;
    }
  }
  explicit Normal(const P& n) : e_(n) {
    // get_d truncates (relative error below 2u); the slack covers components below double's normal range.
    for (int k = 0; k < 3; ++k) n_[k] = n[k].get_d(), magnitude_[k] = std::fabs(n_[k]) + kUnderflowSlack;
  }

  const P& exact() const {
    if (!e_) {
      const P n = cross(u_.rational(), v_.rational());
      e_ = sign_ < 0 ? negate(n) : n;
    }
    return *e_;
  }
  bool is_zero() const {
    for (int k = 0; k < 3; ++k)
      if (std::fabs(n_[k]) > kFilterEpsilons * magnitude_[k] && magnitude_[k] > kFilterFloor && std::isfinite(n_[k]))
        return false;
    return exact_geometry::is_zero(exact());
  }
  Normal negated() const {
    Normal m = *this;
    m.sign_ = -sign_;
    for (double& x : m.n_) x = -x;
    if (e_) m.e_ = negate(*e_);
    return m;
  }
  // The exact sign of n·(x − y).
  int sign_dot(const D3& x, const D3& y) const {
    double value = 0, bound = 0;
    for (int k = 0; k < 3; ++k) {
      value += n_[k] * (x[k] - y[k]);
      bound += magnitude_[k] * (std::fabs(x[k]) + std::fabs(y[k]));
    }
    if (std::isfinite(bound) && bound > kFilterFloor) {
      if (value > kFilterEpsilons * bound) return 1;
      if (value < -kFilterEpsilons * bound) return -1;
    }
    if (!from_points_) return sgn(dot(exact(), sub(exact_geometry::exact(x), exact_geometry::exact(y))));
    const auto u = u_.exactly(), v = v_.exactly();
    CGAL::Mpzf total(0.0);
    for (int k = 0; k < 3; ++k) {
      const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
      const CGAL::Mpzf component = u[k1] * v[k2] - u[k2] * v[k1];
      total = total + component * (CGAL::Mpzf(x[k]) - CGAL::Mpzf(y[k]));
    }
    return sign_ * static_cast<int>(total.sign());
  }

 private:
  // A vector's components summed in double, and the sums of its terms' magnitudes.
  static void sums(const Vector& w, D3& value, D3& magnitude) {
    for (int k = 0; k < 3; ++k)
      for (int t = 0; t < 2; ++t) {
        if (w.plus[t]) value[k] += (*w.plus[t])[k], magnitude[k] += std::fabs((*w.plus[t])[k]);
        if (w.minus[t]) value[k] -= (*w.minus[t])[k], magnitude[k] += std::fabs((*w.minus[t])[k]);
      }
  }

  Vector u_, v_;
  bool from_points_ = false;
  int sign_ = 1;
  D3 n_{0, 0, 0}, magnitude_{0, 0, 0};
  mutable std::optional<P> e_;
};

int sign_dot(const Normal& n, const D3& x, const D3& y) { return n.sign_dot(x, y); }

// The index of a point maximising s·n·p (s = ±1), the first such, exactly.
std::size_t extreme_index(const std::vector<D3>& points, const Normal& n, int s) {
  std::size_t best = 0;
  for (std::size_t k = 1; k < points.size(); ++k)
    if (s * sign_dot(n, points[k], points[best]) > 0) best = k;
  return best;
}

// Do all points p satisfy s·n·(p − on) ≤ 0? Stops at the first that does not.
bool all_behind(const std::vector<D3>& points, const Normal& n, const D3& on, int s) {
  return std::all_of(points.begin(), points.end(), [&](const D3& p) { return s * sign_dot(n, p, on) <= 0; });
}

std::vector<D3> distinct(const std::vector<D3>& points) {
  std::vector<D3> out = points;
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// ---- The faces and edges of one shape, for the second method ------------------------------------------------------

// A face of a shape: an outward normal and a point on it, given as indices (Normal keeps pointers into `points`).
struct Face {
  Normal normal;
  std::size_t on;
};

struct Structure {
  std::vector<Face> faces;                               // 3D: the 2-faces; 2D: the edges, as outward normals
  std::vector<std::pair<std::size_t, std::size_t>> edges;  // 3D only: a superset of the 1-faces' endpoint pairs
};

// The affine dimension of a point set, exactly.
int affine_dimension(const std::vector<D3>& s) {
  std::vector<P> rows;
  for (std::size_t k = 1; k < s.size(); ++k) rows.push_back(sub(exact(s[k]), exact(s[0])));
  return rows.empty() ? 0 : rank(rows);
}

// The supporting planes through pairs (2D) or triples (3D) of points: every hyperplane spanned by points of S with S
// on one side is a facet's plane. Each plane is kept once (by the set of points on it and its side).
Structure structure_of(const std::vector<D3>& s, int ambient) {
  Structure out;
  const int dim = affine_dimension(s);
  std::set<std::pair<std::vector<std::size_t>, int>> seen;
  const auto consider = [&](const Normal& n, std::size_t on) {
    if (n.is_zero()) return;
    bool ahead = false, behind = false;
    std::vector<std::size_t> plane;
    for (std::size_t k = 0; k < s.size() && !(ahead && behind); ++k) {
      const int sg = sign_dot(n, s[k], s[on]);
      ahead |= sg > 0, behind |= sg < 0;
      if (sg == 0) plane.push_back(k);
    }
    if (ahead && behind) return;
    for (int side : {1, -1}) {
      if ((side > 0 && ahead) || (side < 0 && behind)) continue;
      if (!seen.insert({plane, side}).second) continue;
      out.faces.push_back({side > 0 ? n : n.negated(), on});
      if (ambient == 3 && dim == 3)
        for (std::size_t x = 0; x < plane.size(); ++x)
          for (std::size_t y = x + 1; y < plane.size(); ++y) out.edges.push_back({plane[x], plane[y]});
    }
  };
  const std::size_t n = s.size();
  if (ambient == 2) {
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) consider(Normal(edge(s[j], s[i]), Vector{{&kUp, nullptr}, {nullptr, nullptr}}), i);
    return out;
  }
  if (dim == 3) {
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j)
        for (std::size_t k = j + 1; k < n; ++k) consider(Normal(edge(s[j], s[i]), edge(s[k], s[i])), i);
  } else if (dim == 2) {
    // A flat shape: its plane's two normals are faces, and every pair of its points may be an edge (the pairs that
    // are not are rejected by the support tests).
    for (std::size_t j = 1; j < n && out.faces.empty(); ++j)
      for (std::size_t k = j + 1; k < n && out.faces.empty(); ++k) consider(Normal(edge(s[j], s[0]), edge(s[k], s[0])), 0);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) out.edges.push_back({i, j});
  } else if (dim == 1) {
    const Normal along(P(sub(exact(s[1]), exact(s[0]))));
    out.edges.push_back({extreme_index(s, along, -1), extreme_index(s, along, 1)});
  }
  std::sort(out.edges.begin(), out.edges.end());
  out.edges.erase(std::unique(out.edges.begin(), out.edges.end()), out.edges.end());
  return out;
}

// ---- Judging helpers in MPFR -----------------------------------------------------------------------------------

constexpr mpfr_prec_t kBits = 256;

struct Real {
  mpfr_t x;
  Real() { mpfr_init2(x, kBits); mpfr_set_zero(x, 1); }
  explicit Real(const Q& q) { mpfr_init2(x, kBits); mpfr_set_q(x, q.get_mpq_t(), MPFR_RNDN); }
  Real(const Real&) = delete;
  Real& operator=(const Real&) = delete;
  ~Real() { mpfr_clear(x); }
};

}  // namespace

bool same_direction(const ExactPoint& u, const ExactPoint& n) { return is_zero(cross(u, n)) && dot(u, n) > 0; }

namespace {

// The affine dimension of D = A⊖B: the rank of the differences aᵢ − a₀ and bⱼ − b₀, exactly.
int difference_dimension(const casefile::Case& c) {
  std::vector<P> rows;
  for (const auto* s : {&c.a, &c.b})
    for (std::size_t k = 1; k < s->points.size(); ++k) rows.push_back(sub(exact(s->points[k]), exact(s->points[0])));
  return rank(std::move(rows));
}

// What is wrong with weights claimed to put the origin in D: each strictly positive, naming an input point, each set
// summing to 1, and Σ w·a = Σ w·b exactly. nullopt when they do.
std::optional<std::string> origin_in_difference(const casefile::Case& c, const std::vector<Weight>& on_a,
                                                const std::vector<Weight>& on_b) {
  P sums[2] = {zero(), zero()};
  for (int s = 0; s < 2; ++s) {
    const std::vector<Weight>& weights = s == 0 ? on_a : on_b;
    const std::vector<D3>& points = s == 0 ? c.a.points : c.b.points;
    if (weights.empty()) return "a flat A⊖B without weights putting the origin in it";
    Q total = 0;
    for (const Weight& w : weights) {
      if (w.index >= points.size()) return "an origin weight names a point out of range";
      if (w.weight <= 0) return "an origin weight is not positive";
      total += w.weight;
      sums[s] = add(sums[s], scale(w.weight, exact(points[w.index])));
    }
    if (total != 1) return "the origin weights on a shape do not sum to 1";
  }
  if (sums[0] != sums[1]) return "the origin weights do not put the origin in A⊖B";
  return std::nullopt;
}

}  // namespace

DepthFacet facet_plane(const casefile::Case& c, const std::array<PointPair, 3>& facet) {
  P d[3];
  for (int k = 0; k < 3; ++k) d[k] = sub(exact(c.a.points[facet[k].a]), exact(c.b.points[facet[k].b]));
  DepthFacet f;
  if (c.dim == 3) {
    f.normal = cross(sub(d[1], d[0]), sub(d[2], d[0]));
  } else {
    const P e = sub(d[1], d[0]);
    f.normal = {e[1], Q(-e[0]), Q(0)};
  }
  f.offset = dot(f.normal, d[0]);
  return f;
}

DepthFacet supporting_facet(const casefile::Case& c, const ExactPoint& n) {
  const Normal normal(n);
  const std::size_t ia = extreme_index(c.a.points, normal, 1), ib = extreme_index(c.b.points, normal, -1);
  DepthFacet f;
  f.normal = n;
  f.offset = dot(n, sub(exact(c.a.points[ia]), exact(c.b.points[ib])));
  for (std::size_t k = 0; k < c.a.points.size(); ++k)
    if (sign_dot(normal, c.a.points[k], c.a.points[ia]) == 0) f.on_a.push_back(k);
  for (std::size_t k = 0; k < c.b.points.size(); ++k)
    if (sign_dot(normal, c.b.points[k], c.b.points[ib]) == 0) f.on_b.push_back(k);
  return f;
}

std::optional<std::string> check_penetration_certificate(const casefile::Case& c, const Penetration& p) {
  if (p.verdict != Verdict::Overlapping && p.verdict != Verdict::Touching) {
    if (!p.optimal.empty() || !p.surface.empty() || p.squared_depth != 0 || !p.origin_a.empty() || !p.origin_b.empty())
      return "a depth for shapes that do not touch";
    return std::nullopt;
  }
  const bool touching = p.verdict == Verdict::Touching;
  if (touching && p.squared_depth != 0) return "touching, with a depth that is not 0";
  // Every listed optimal facet is a supporting plane of D with the stated offset and witness features.
  for (const DepthFacet& f : p.optimal) {
    if (is_zero(f.normal)) return "an optimal facet with a zero normal";
    const DepthFacet truth = supporting_facet(c, f.normal);
    if (truth.offset != f.offset || truth.on_a != f.on_a || truth.on_b != f.on_b)
      return "an optimal facet is not the supporting plane of its normal";
    if (touching ? f.offset != 0 : f.offset * f.offset / dot(f.normal, f.normal) != p.squared_depth)
      return "an optimal facet is not at the stated depth";
  }
  // No surface: a flat D, which has no interior, holding the origin — so the origin is on its boundary.
  if (p.surface.empty()) {
    if (!touching) return "overlapping, without a surface";
    if (!p.optimal.empty()) return "a cone without a surface";
    if (difference_dimension(c) == c.dim) return "touching without a surface, but A⊖B is full-dimensional";
    return origin_in_difference(c, p.origin_a, p.origin_b);
  }
  // The surface: each facet non-degenerate, its plane supporting D with D behind it, the origin strictly behind it
  // (overlapping) or not in front of it (touching); and D full-dimensional (some point of D strictly behind the first
  // facet's plane), without which a surface proves nothing (a triangle of a flat D and its reverse close up).
  const auto point_a = [&](const PointPair& v) -> const D3& { return c.a.points[v.a]; };
  const auto point_b = [&](const PointPair& v) -> const D3& { return c.b.points[v.b]; };
  std::optional<Q> least;
  std::vector<P> least_directions;
  for (const auto& f : p.surface) {
    for (const PointPair& v : f)
      if (v.a >= c.a.points.size() || v.b >= c.b.points.size()) return "a surface vertex names a point out of range";
    if (c.dim == 2 && !(f[1] == f[2])) return "a 2D surface edge whose third entry differs from its second";
    const DepthFacet plane = facet_plane(c, f);
    const P& n = plane.normal;
    if (is_zero(n)) return "a degenerate surface facet";
    const Vector e1 = edge_of_difference(point_a(f[1]), point_b(f[1]), point_a(f[0]), point_b(f[0]));
    const Normal normal = c.dim == 3 ? Normal(e1, edge_of_difference(point_a(f[2]), point_b(f[2]), point_a(f[0]),
                                                                      point_b(f[0])))
                                     : Normal(e1, Vector{{&kUp, nullptr}, {nullptr, nullptr}});
    if (!all_behind(c.a.points, normal, point_a(f[0]), 1) || !all_behind(c.b.points, normal, point_b(f[0]), -1))
      return "a surface facet whose plane does not support A⊖B";
    if (&f == &p.surface.front() &&
        std::none_of(c.a.points.begin(), c.a.points.end(), [&](const D3& a) { return sign_dot(normal, a, point_a(f[0])) < 0; }) &&
        std::none_of(c.b.points.begin(), c.b.points.end(), [&](const D3& b) { return sign_dot(normal, b, point_b(f[0])) > 0; }))
      return "a surface for a flat A⊖B";
    const Q& offset = plane.offset;
    if (touching ? offset < 0 : offset <= 0) return "the origin is not behind a surface facet";
    const Q squared = offset * offset / dot(n, n);
    if (!least || squared < *least) least = squared, least_directions.clear();
    if (squared == *least &&
        std::none_of(least_directions.begin(), least_directions.end(), [&](const P& m) { return same_direction(m, n); }))
      least_directions.push_back(n);
  }
  // Closed: every directed edge is matched by its reverse (3D), every vertex is entered as often as left (2D).
  const auto key = [](const PointPair& v) { return std::pair{v.a, v.b}; };
  std::map<std::pair<std::pair<std::size_t, std::size_t>, std::pair<std::size_t, std::size_t>>, int> edges;
  for (const auto& f : p.surface) {
    const int corners = c.dim == 3 ? 3 : 2;
    for (int k = 0; k < corners; ++k) {
      const auto u = key(f[k]), v = key(f[(k + 1) % corners]);
      ++edges[{u, v}];
      if (c.dim == 2) break;
    }
  }
  if (c.dim == 3) {
    for (const auto& [e, count] : edges) {
      const auto it = edges.find({e.second, e.first});
      if (it == edges.end() || it->second != count) return "the surface is not closed";
    }
  } else {
    std::map<std::pair<std::size_t, std::size_t>, int> balance;
    for (const auto& [e, count] : edges) balance[e.first] += count, balance[e.second] -= count;
    for (const auto& [v, b] : balance)
      if (b != 0) return "the boundary polygon is not closed";
  }
  // The least offset: PD² when overlapping; exactly 0 when touching, the origin on the boundary of D, and the facets
  // through it — every one, each direction once — generate the normal cone there.
  if (*least != p.squared_depth) {
    if (touching) return "touching, but no surface facet passes through the origin: it is interior";
    return "the squared depth is not the least over the surface (" + least->get_str() + ")";
  }
  if (least_directions.size() != p.optimal.size()) return "the optimal facets are not every nearest plane";
  for (const P& n : least_directions)
    if (std::none_of(p.optimal.begin(), p.optimal.end(), [&](const DepthFacet& f) { return same_direction(f.normal, n); }))
      return "a nearest plane is missing from the optimal facets";
  return std::nullopt;
}

Penetration penetration_by_support(const casefile::Case& c, const Answer& answer) {
  Penetration out;
  out.verdict = answer.verdict;
  out.method = Method::Support;
  if (answer.verdict != Verdict::Overlapping && answer.verdict != Verdict::Touching) return out;
  const TimeLimit bound(c, "support-depth");
  const std::vector<D3> a = distinct(c.a.points), b = distinct(c.b.points);
  const Structure sa = structure_of(a, c.dim), sb = structure_of(b, c.dim);
  const bool touching = answer.verdict == Verdict::Touching;
  std::optional<Q> least;
  std::vector<P> directions;
  // A supporting plane of D with outward normal m through a − b: its squared distance from the origin.
  const auto record = [&](const Normal& m, const D3& on_a, const D3& on_b) {
    const P& n = m.exact();
    const Q offset = dot(n, sub(exact(on_a), exact(on_b)));
    if (offset < 0 || (offset == 0 && !touching))
      throw std::logic_error("support depth: a supporting plane of A⊖B with the origin outside or on it, overlapping");
    if (touching && offset != 0) return;
    const Q squared = offset * offset / dot(n, n);
    if (!least || squared < *least) least = squared, directions.clear();
    if (squared == *least &&
        std::none_of(directions.begin(), directions.end(), [&](const P& u) { return same_direction(u, n); }))
      directions.push_back(n);
  };
  // A face of A (outward normal n) plus B's extreme point along −n; a face of B (outward n) gives D the normal −n.
  for (const Face& f : sa.faces) record(f.normal, a[f.on], b[extreme_index(b, f.normal, -1)]);
  for (const Face& f : sb.faces) {
    const Normal m = f.normal.negated();
    record(m, a[extreme_index(a, m, 1)], b[f.on]);
  }
  // An edge of A plus a non-parallel edge of B, when both lie on the plane of their cross product's normal.
  for (const auto& [i, j] : sa.edges)
    for (const auto& [k, l] : sb.edges) {
      const Normal n(edge(a[j], a[i]), edge(b[l], b[k]));
      if (n.is_zero()) continue;
      for (int s : {1, -1}) {
        const Normal m = s > 0 ? n : n.negated();
        if (all_behind(a, m, a[i], 1) && all_behind(b, m, b[k], -1)) record(m, a[i], b[k]);
      }
    }
  out.squared_depth = touching ? Q(0) : least.value_or(Q(0));
  if (!touching && !least) throw std::logic_error("support depth: no supporting plane found");
  // The origin on the boundary of a full-dimensional D lies on one of its facets.
  if (touching && !least && difference_dimension(c) == c.dim)
    throw std::logic_error("support depth: touching, but no supporting plane of a full-dimensional A⊖B passes through "
                           "the origin");
  for (const P& n : directions) out.optimal.push_back(supporting_facet(c, n));
  out.depth = correctly_rounded_sqrt(out.squared_depth);
  return out;
}

Penetration cross_check_penetration(const casefile::Case& c, const Answer& answer, const Penetration& p) {
  Penetration q = penetration_by_support(c, answer);
  const auto same_directions = [](const std::vector<DepthFacet>& x, const std::vector<DepthFacet>& y) {
    return x.size() == y.size() && std::all_of(x.begin(), x.end(), [&](const DepthFacet& f) {
             return std::any_of(y.begin(), y.end(), [&](const DepthFacet& g) { return same_direction(f.normal, g.normal); });
           });
  };
  std::string problem;
  if (q.squared_depth != p.squared_depth) {
    problem = "PD² differs";
  } else if (!p.surface.empty()) {
    // D full-dimensional: both list its facets nearest the origin (touching: through it).
    if (!same_directions(p.optimal, q.optimal)) problem = "the optimal normal directions differ";
  } else if (p.verdict == Verdict::Touching) {
    // A flat D, by the hull method's claim: it lists no cone. The support method's facets are then the normals of D's
    // hyperplane when D spans one (two, opposite, each plane holding every input point), none when it spans less.
    const int dimension = difference_dimension(c);
    if (dimension == c.dim) {
      problem = "the hull method lists no surface, but A⊖B is full-dimensional";
    } else {
      const std::size_t expected = dimension == c.dim - 1 ? 2 : 0;
      const bool holds_all = std::all_of(q.optimal.begin(), q.optimal.end(), [&](const DepthFacet& f) {
        return f.offset == 0 && f.on_a.size() == c.a.points.size() && f.on_b.size() == c.b.points.size();
      });
      if (q.optimal.size() != expected || !holds_all || !p.optimal.empty())
        problem = "on a flat A⊖B of dimension " + std::to_string(dimension) +
                  ", the support method's facets are not its hyperplane's normals";
    }
  }
  if (!problem.empty()) {
    std::ostringstream s;
    s << "penetration depth methods disagree on case '" << c.name << "' (" << problem << "): hull PD² "
      << p.squared_depth.get_str() << " with " << p.optimal.size() << " optimal facets, support PD² "
      << q.squared_depth.get_str() << " with " << q.optimal.size() << "\n"
      << casefile::write(c);
    throw DisagreementError(s.str());
  }
  return q;
}

std::optional<double> directional_depth_excess(const casefile::Case& c, const std::array<double, 3>& u,
                                               const mpq_class& squared_depth) {
  const P n = exact(u);
  if (is_zero(n)) return std::nullopt;
  const DepthFacet f = supporting_facet(c, n);
  Real h(f.offset), length(dot(n, n)), depth(squared_depth);
  mpfr_sqrt(length.x, length.x, MPFR_RNDN);
  mpfr_sqrt(depth.x, depth.x, MPFR_RNDN);
  mpfr_div(h.x, h.x, length.x, MPFR_RNDN);
  mpfr_sub(h.x, h.x, depth.x, MPFR_RNDN);
  return mpfr_get_d(h.x, MPFR_RNDN);
}

double contact_offset(const std::array<double, 3>& a, const std::array<double, 3>& b, const Penetration& p) {
  const P v = sub(exact(a), exact(b));
  Real pd(p.squared_depth);
  mpfr_sqrt(pd.x, pd.x, MPFR_RNDN);
  std::optional<double> best;
  const auto measure = [&](const P* n) {
    // |v − PD·n/|n||
    Real length, sum;
    if (n) {
      Real nn(dot(*n, *n));
      mpfr_sqrt(length.x, nn.x, MPFR_RNDN);
    }
    for (int k = 0; k < 3; ++k) {
      Real term(v[k]);
      if (n) {
        Real share((*n)[k]);
        mpfr_mul(share.x, share.x, pd.x, MPFR_RNDN);
        mpfr_div(share.x, share.x, length.x, MPFR_RNDN);
        mpfr_sub(term.x, term.x, share.x, MPFR_RNDN);
      }
      mpfr_sqr(term.x, term.x, MPFR_RNDN);
      mpfr_add(sum.x, sum.x, term.x, MPFR_RNDN);
    }
    mpfr_sqrt(sum.x, sum.x, MPFR_RNDN);
    const double d = mpfr_get_d(sum.x, MPFR_RNDN);
    if (!best || d < *best) best = d;
  };
  if (p.optimal.empty()) measure(nullptr);
  for (const DepthFacet& f : p.optimal) measure(&f.normal);
  return *best;
}

mpq_class squared_distance_to_hull(const std::vector<std::array<double, 3>>& points, const std::array<double, 3>& x,
                                   int dim) {
  casefile::Case c;
  c.name = "distance to a hull";
  c.dim = dim;
  c.a.points = points;
  c.b.points = {x};
  return fast_oracle(c).squared_distance;
}

}  // namespace gjkref::oracle
