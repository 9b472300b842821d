// The reference's EPA in exact arithmetic (gjkref/epa.hpp): its start from every simplex GJK can end with, in every
// order of its points, against an independent brute-force depth; and its exact depth equal to the penetration-depth
// oracle's on every family (docs/oracle.md, "Penetration depth"), with a normal among the oracle's optimal ones (or, for
// touching pairs, the normal of a plane through the origin that supports A⊖B), witness points that differ by the
// translation, and B moved by the translation touching A (by a little more, apart; by a little less, overlapping);
// and the certified mode's depth for the double input, correctly rounded, bit-equal to the oracle's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "generators.hpp"
#include "property.hpp"
#include "gjkref/case_shapes.hpp"
#include "gjkref/certified.hpp"
#include "gjkref/certified_penetration.hpp"
#include "gjkref/epa.hpp"
#include "gjkref/exact.hpp"
#include "gjkref/oracle.hpp"

namespace gjkref {
namespace {

using casefile::Case;
using V3 = Vec3<Exact>;
using V2 = Vec2<Exact>;

// ---- An independent exact depth: every supporting plane of conv(points) through D + 0… points, brute force ----------

// PD² of conv(points) containing the origin: the least o²/|n|² over the planes through D affinely independent points
// with every point on one side (n·p ≤ o), o ≥ 0. O(n^(D+1)): small sets only.
template <Vector V>
Exact brute_force_squared_depth(const std::vector<V>& points) {
  std::optional<Exact> best;
  const int n = static_cast<int>(points.size());
  const auto consider = [&](V normal, const V& on) {
    if (is_zero(normal)) return;
    Exact offset = dot(normal, on);
    bool below = true, above = true;
    for (const V& p : points) {
      const Exact h = dot(normal, p);
      below = below && h <= offset;
      above = above && h >= offset;
    }
    if (!below && !above) return;
    if (!below) normal = -normal, offset = -offset;
    const Exact d = offset * offset / dot(normal, normal);
    if (!best || d < *best) best = d;
  };
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if constexpr (V::dimension == 2) {
        const V e = points[j] - points[i];
        consider(V{Exact(-e[1]), e[0]}, points[i]);
      } else {
        for (int k = j + 1; k < n; ++k) consider(cross(V(points[j] - points[i]), V(points[k] - points[i])), points[i]);
      }
    }
  return *best;
}

// ---- Starts: GJK's simplex, hand-made, in every order of its points ---------------------------------------------------

// A GJK answer "intersecting" whose simplex is `chosen` (indices into A's points; B is the single point 0, so A⊖B is
// A) with the given weights of the origin.
Result<V3> gjk_answer(const std::vector<V3>& a, const std::vector<int>& chosen, const std::vector<Exact>& weights,
                      bool encloses) {
  std::vector<SupportPoint<V3>> points;
  for (const int i : chosen) points.push_back({a[i], a[i], V3{}, static_cast<std::size_t>(i), 0});
  Result<V3> r = detail::intersecting_answer(points, static_cast<int>(chosen.size()), encloses);
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    r.simplex.weights[k] = weights[k];
    r.witness_a = r.witness_a + weights[k] * a[chosen[k]];
  }
  return r;
}

// A = twelve points around the origin (D = A, B the origin): the origin is a point of A, on a segment of two of them,
// the centroid of three, on an edge of a triangle, on a face of a tetrahedron and inside another. Each of those simplices, in each order, starts EPA to the same exact depth as
// the brute force's; a point, a segment or a triangle through the origin is blown up (start_polytope) first.
TEST(EpaStarts, EveryGjkSimplexInEveryOrderGivesTheExactDepth) {
  const std::vector<V3> a = {{0, 0, 0},  {0, 0, 2},  {0, 0, -3},  {2, 0, 0},  {-1, 1, 0},  {-1, -1, 0},
                             {1, 3, 1},  {1, -2, -1}, {1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
  const ConvexPoints<V3> shape_a(a), origin(std::vector<V3>{{0, 0, 0}});
  const Exact expected = brute_force_squared_depth(a);
  ASSERT_GT(expected, 0);
  struct Start {
    std::vector<int> chosen;
    std::vector<Exact> weights;
    bool encloses;
  };
  const std::vector<Start> starts = {
      {{0}, {1}, false},                                                   // the origin is a vertex of the simplex
      {{1, 2}, {Exact(3, 5), Exact(2, 5)}, false},                         // on a segment
      {{3, 4, 5}, {Exact(1, 3), Exact(1, 3), Exact(1, 3)}, false},         // inside a triangle
      {{1, 2, 3}, {Exact(3, 5), Exact(2, 5), 0}, false},                   // on a triangle's edge (weight 0 kept)
      {{3, 4, 5, 1}, {Exact(1, 3), Exact(1, 3), Exact(1, 3), 0}, false},   // on a tetrahedron's face
      {{8, 9, 10, 11}, {Exact(1, 4), Exact(1, 4), Exact(1, 4), Exact(1, 4)}, true},  // inside a tetrahedron
  };
  for (const Start& s : starts) {
    std::vector<int> order(s.chosen.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int>(k);
    do {
      std::vector<int> chosen;
      std::vector<Exact> weights;
      for (const int k : order) chosen.push_back(s.chosen[k]), weights.push_back(s.weights[k]);
      const Penetration<V3> p = detail::expand(shape_a, origin, gjk_answer(a, chosen, weights, s.encloses), 1000);
      SCOPED_TRACE(::testing::Message() << "start of " << chosen.size() << " points, first " << chosen[0]);
      ASSERT_EQ(p.status, PenetrationStatus::Penetrating);
      EXPECT_EQ(p.squared_depth, expected);
      EXPECT_EQ(p.witness_a - p.witness_b, p.translation);
    } while (std::next_permutation(order.begin(), order.end()));
  }
  // GJK's own start.
  const Penetration<V3> p = penetration(shape_a, origin);
  ASSERT_EQ(p.status, PenetrationStatus::Penetrating);
  EXPECT_EQ(p.squared_depth, expected);
}

// The origin on the boundary of A⊖B: GJK ends on a lower-dimensional simplex, and a supporting plane through the
// origin is found when the start is blown up (or as a nearest facet at distance 0): touching, depth 0, and a normal
// whose plane supports A⊖B. A unit cube against its own corner, edge midpoint and face centre, in every order.
TEST(EpaStarts, TheOriginOnTheBoundaryIsTouching) {
  const std::vector<V3> cube = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
  for (const V3& b : {V3{0, 0, 0}, V3{Exact(1, 2), 0, 0}, V3{Exact(1, 2), Exact(1, 2), 0}}) {
    const ConvexPoints<V3> shape_a(cube), shape_b(std::vector<V3>{b});
    const Penetration<V3> p = penetration(shape_a, shape_b);
    SCOPED_TRACE(::testing::Message() << "B = " << b);
    ASSERT_EQ(p.status, PenetrationStatus::Touching);
    EXPECT_EQ(p.squared_depth, 0);
    ASSERT_FALSE(is_zero(p.normal));
    for (const V3& x : cube) EXPECT_LE(dot(p.normal, V3(x - b)), 0);  // the plane through the origin supports A⊖B
  }
}

// Two unit squares (2D) and cubes (3D) overlapping by a quarter along x: PD = 1/4, normal along +x, in every order of
// the points of A (EPA's polytope and ties differ with the order; the depth does not).
TEST(EpaStarts, OverlappingBoxesByAQuarter) {
  std::vector<V2> square = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  std::sort(square.begin(), square.end(), [](const V2& x, const V2& y) { return x.x < y.x || (x.x == y.x && x.y < y.y); });
  do {
    std::vector<V2> moved;
    for (const V2& p : square) moved.push_back({p.x + Exact(3, 4), p.y});
    const Penetration<V2> p = penetration(ConvexPoints<V2>(square), ConvexPoints<V2>(moved));
    ASSERT_EQ(p.status, PenetrationStatus::Penetrating);
    EXPECT_EQ(p.squared_depth, Exact(1, 16));
    EXPECT_GT(p.normal.x, 0);
    EXPECT_EQ(p.normal.y, 0);
  } while (std::next_permutation(square.begin(), square.end(),
                                 [](const V2& x, const V2& y) { return x.x < y.x || (x.x == y.x && x.y < y.y); }));
  const std::vector<V3> cube = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
  std::vector<V3> moved;
  for (const V3& p : cube) moved.push_back({p.x + Exact(3, 4), p.y, p.z});
  const Penetration<V3> p = penetration(ConvexPoints<V3>(cube), ConvexPoints<V3>(moved));
  ASSERT_EQ(p.status, PenetrationStatus::Penetrating);
  EXPECT_EQ(p.squared_depth, Exact(1, 16));
  EXPECT_GT(p.normal.x, 0);
  EXPECT_EQ(p.normal.y, 0);
  EXPECT_EQ(p.normal.z, 0);
}

// ---- Against the oracle, on every family ------------------------------------------------------------------------------

int cases_per_family() {
  const char* s = std::getenv("GJKREF_EPA_CASES");
  return s ? std::atoi(s) : GJKREF_EPA_CASES_DEFAULT;
}
std::uint64_t seed() {
  const char* s = std::getenv("GJKREF_SEED");
  return s ? std::strtoull(s, nullptr, 0) : 20261124;
}

oracle::ExactPoint as_exact_point(const auto& v) {
  oracle::ExactPoint x{0, 0, 0};
  for (int i = 0; i < std::remove_cvref_t<decltype(v)>::dimension; ++i) x[i] = v[i];
  return x;
}

bool parallel(const oracle::ExactPoint& m, const oracle::ExactPoint& n) {
  return m[0] * n[1] == m[1] * n[0] && m[1] * n[2] == m[2] * n[1] && m[0] * n[2] == m[2] * n[0] &&
         m[0] * n[0] + m[1] * n[1] + m[2] * n[2] > 0;
}

// Is `rounded` the unit vector u/|u| with each coordinate correctly rounded to double? Checked from the definition, by
// exact comparisons (no rounding of the check's own): the sign bit is u_k's (a nonzero u_k can round to a zero, which
// keeps its sign: −0 for a negative one, as IEEE 754 rounds), and u_k²/|u|² lies between the squares of the midpoints
// from |rounded_k| to its neighbours.
bool is_rounded_unit(const oracle::ExactPoint& u, const std::array<double, 3>& rounded, int dim) {
  const Exact uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
  for (int k = 0; k < dim; ++k) {
    const double c = std::fabs(rounded[k]);
    if (std::signbit(rounded[k]) != (u[k] < 0)) return false;
    const Exact q = u[k] * u[k] / uu;
    const Exact above = (Exact(c) + Exact(std::nextafter(c, 2.0))) / 2;
    if (q > above * above) return false;
    if (c > 0) {
      const Exact below = (Exact(c) + Exact(std::nextafter(c, 0.0))) / 2;
      if (q < below * below) return false;
    }
  }
  return true;
}

// The dimension of the affine hull of the points `which` of `points`: the rank of their differences from the first, by
// Gaussian elimination in rationals.
int affine_dimension(const std::vector<std::array<double, 3>>& points, const std::vector<std::size_t>& which, int dim) {
  std::vector<std::array<Exact, 3>> rows;
  for (const std::size_t i : which) {
    std::array<Exact, 3> r;
    for (int k = 0; k < 3; ++k) r[k] = Exact(points[i][k]) - Exact(points[which.front()][k]);
    rows.push_back(r);
  }
  int rank = 0;
  for (int column = 0; column < dim && rank < static_cast<int>(rows.size()); ++column) {
    const auto pivot = std::find_if(rows.begin() + rank, rows.end(), [&](const auto& r) { return r[column] != 0; });
    if (pivot == rows.end()) continue;
    std::swap(*pivot, rows[rank]);
    for (std::size_t j = rank + 1; j < rows.size(); ++j) {
      const Exact factor = rows[j][column] / rows[rank][column];
      for (int k = 0; k < 3; ++k) rows[j][k] -= factor * rows[rank][k];
    }
    ++rank;
  }
  return rank;
}

// The largest u·(a − b) over the case's points: h_D(u).
Exact support_value(const Case& c, const oracle::ExactPoint& u) {
  std::optional<Exact> best;
  for (const auto& pa : c.a.points)
    for (const auto& pb : c.b.points) {
      Exact h = 0;
      for (int i = 0; i < c.dim; ++i) h += u[i] * (Exact(pa[i]) - Exact(pb[i]));
      if (!best || *best < h) best = h;
    }
  return *best;
}

// How the certified mode answered, per family: counts by path (CertifiedPath), printed after each family.
std::array<int, 4> certified_paths{};
std::array<int, 6> double_faults{};  // why the double EPA's answer was not proven (PenetrationFault)
std::array<std::array<int, 3>, 3> feature_kinds{};  // contact features by dimension (A's, B's)

// Scaled by 2^k, exactly (k small enough for the property suite's coordinates to stay normal numbers).
template <Vector VD>
ConvexPoints<VD> scaled(const ConvexPoints<VD>& s, int k) {
  std::vector<VD> points;
  for (VD x : s.points()) {
    for (int i = 0; i < VD::dimension; ++i) x[i] = std::ldexp(x[i], k);
    points.push_back(x);
  }
  return ConvexPoints<VD>(std::move(points));
}

template <Vector V>
void agrees_with_the_oracle(const Case& c, const oracle::Answer& answer, const oracle::Penetration& truth, int index) {
  const ConvexPoints<V> a = casefile::to_shape<V>(c.a), b = casefile::to_shape<V>(c.b);
  const Penetration<V> p = penetration(a, b);
  if (answer.verdict == oracle::Verdict::Touching) {
    ASSERT_EQ(p.status, PenetrationStatus::Touching);
    ASSERT_FALSE(is_zero(p.normal));
    EXPECT_EQ(support_value(c, as_exact_point(p.normal)), 0);  // a plane through the origin supports A⊖B
    EXPECT_EQ(p.witness_a, p.witness_b);
  } else {
    ASSERT_EQ(p.status, PenetrationStatus::Penetrating);
    EXPECT_EQ(p.squared_depth, truth.squared_depth);
    EXPECT_TRUE(std::any_of(truth.optimal.begin(), truth.optimal.end(),
                            [&](const oracle::DepthFacet& f) { return parallel(f.normal, as_exact_point(p.normal)); }))
        << "the normal is not among the oracle's optimal ones";
    EXPECT_EQ(p.witness_a - p.witness_b, p.translation);
    Exact total = 0;
    for (int k = 0; k < p.facet_size; ++k) {
      EXPECT_GE(p.weights[k], 0);
      total += p.weights[k];
    }
    EXPECT_EQ(total, 1);
    // B translated by t touches A, exactly; by (1 + 2^−20)·t it is apart, by (1 − 2^−20)·t still overlapping.
    const auto moved = [&](const Exact& f) {
      std::vector<V> points;
      for (const V& x : b.points()) points.push_back(x + f * p.translation);
      return ConvexPoints<V>(std::move(points));
    };
    const Exact delta(1, 1 << 20);
    EXPECT_EQ(penetration(a, moved(1)).status, PenetrationStatus::Touching);
    EXPECT_EQ(distance(a, moved(1 + delta)).status, Status::Separated);
    EXPECT_EQ(penetration(a, moved(1 - delta)).status, PenetrationStatus::Penetrating);
  }
  // (A, B) ↔ (B, A): the same depth.
  const Penetration<V> swapped = penetration(b, a);
  EXPECT_EQ(swapped.status, p.status);
  EXPECT_EQ(swapped.squared_depth, p.squared_depth);
  // The certified mode on the double input: the same answer, PD correctly rounded (bit-equal to the oracle's).
  using VD = std::conditional_t<V::dimension == 2, Vec2<double>, Vec3<double>>;
  const CertifiedPenetration<VD> certified =
      certified_penetration(casefile::to_shape<VD>(c.a), casefile::to_shape<VD>(c.b), true);
  if (certified.status == PenetrationStatus::Penetrating) {
    ++certified_paths[static_cast<int>(certified.path)];
    if (certified.path == CertifiedPath::ExactFinish) ++double_faults[static_cast<int>(certified.double_fault)];
    // An exact finish says why the double answer was not proven (Malformed: there was none).
    if (certified.path == CertifiedPath::ExactFinish) EXPECT_NE(certified.double_fault, PenetrationFault::None);
  }
  EXPECT_EQ(certified.status, p.status);
  ASSERT_TRUE(certified.exact.has_value());
  EXPECT_EQ(certified.exact->squared_depth, p.squared_depth);
  EXPECT_EQ(certified.depth, truth.depth);
  std::array<double, 3> certified_normal{};
  for (int k = 0; k < V::dimension; ++k) certified_normal[k] = certified.normal[k];
  if (certified.status == PenetrationStatus::Touching) {
    // A supporting normal's unit vector u, rounded to ũ: h_D(ũ) ≤ h_D(u) + |ũ − u|·max |x| over D, with h_D(u) = 0 and
    // |ũ − u| ≤ ε/2.
    Exact radius = 0;
    for (const auto* s : {&c.a, &c.b}) {
      Exact largest = 0;
      for (const auto& x : s->points)
        for (int i = 0; i < c.dim; ++i) largest = std::max(largest, Exact(std::fabs(x[i])));
      radius += largest * c.dim;  // ≥ max |x| over the shape (|x| ≤ dim·max |x_i|)
    }
    EXPECT_LE(support_value(c, as_exact_point(certified.normal)), Exact(std::numeric_limits<double>::epsilon()) * radius);
    EXPECT_FALSE(is_zero(certified.normal));
  }
  if (certified.status != PenetrationStatus::Penetrating) return;
  // The unit normal, correctly rounded, of an optimal normal of the oracle's.
  EXPECT_TRUE(std::any_of(truth.optimal.begin(), truth.optimal.end(), [&](const oracle::DepthFacet& f) {
    return is_rounded_unit(f.normal, certified_normal, c.dim);
  })) << "the certified unit normal is not an optimal normal of the oracle's, correctly rounded";
  // Its contact features are that facet's witness features, F_A(n) and F_B(−n) (the oracle's, in input order), and
  // their dimensions add up to at least that of a facet of A⊖B.
  ASSERT_TRUE(certified.features.has_value());
  const auto facet = std::find_if(truth.optimal.begin(), truth.optimal.end(), [&](const oracle::DepthFacet& f) {
    return is_rounded_unit(f.normal, certified_normal, c.dim);
  });
  if (facet != truth.optimal.end()) {
    EXPECT_EQ(certified.features->a.vertices, facet->on_a);
    EXPECT_EQ(certified.features->b.vertices, facet->on_b);
    EXPECT_EQ(certified.features->a.dimension, affine_dimension(c.a.points, facet->on_a, c.dim));
    EXPECT_EQ(certified.features->b.dimension, affine_dimension(c.b.points, facet->on_b, c.dim));
    EXPECT_GE(certified.features->a.dimension + certified.features->b.dimension, c.dim - 1);
    ++feature_kinds[certified.features->a.dimension][certified.features->b.dimension];
    // The patch: each corner a point of A, and of B moved by the oracle's translation t = (o/|n|²)·n; and the exact
    // witness on A (when the exact answer has this normal) a point of the patch. Membership by exact GJK.
    using VE = exact_vector_t<VD>;
    ASSERT_FALSE(certified.patch.empty());
    const Exact scale = facet->offset / (facet->normal[0] * facet->normal[0] + facet->normal[1] * facet->normal[1] +
                                         facet->normal[2] * facet->normal[2]);
    VE t{};
    for (int k = 0; k < c.dim; ++k) t[k] = scale * facet->normal[k];
    const auto exact_shape = [&](const std::vector<std::array<double, 3>>& points, const VE& by) {
      std::vector<VE> out;
      for (const auto& x : points) {
        VE y{};
        for (int k = 0; k < c.dim; ++k) y[k] = Exact(x[k]) + by[k];
        out.push_back(y);
      }
      return ConvexPoints<VE>(std::move(out));
    };
    const auto holds = [](const ConvexPoints<VE>& shape, const VE& x) {
      return distance(shape, ConvexPoints<VE>(std::vector<VE>{x})).status == Status::Intersecting;
    };
    const ConvexPoints<VE> on_a = exact_shape(c.a.points, VE{}), on_b = exact_shape(c.b.points, t);
    for (const VE& x : certified.patch) {
      EXPECT_TRUE(holds(on_a, x)) << "a corner of the patch outside A";
      EXPECT_TRUE(holds(on_b, x)) << "a corner of the patch outside B moved by t";
    }
    if (parallel(facet->normal, as_exact_point(certified.exact->normal))) {
      EXPECT_TRUE(holds(ConvexPoints<VE>(certified.patch), certified.exact->witness_a)) << "the witness outside the patch";
    }
  }
  // Its certificate stands on its own, and its exact answer is an optimal one.
  EXPECT_EQ(check_penetration(casefile::to_shape<VD>(c.a), casefile::to_shape<VD>(c.b), certified.certificate).fault,
            PenetrationFault::None);
  EXPECT_TRUE(std::any_of(truth.optimal.begin(), truth.optimal.end(), [&](const oracle::DepthFacet& f) {
    return parallel(f.normal, as_exact_point(certified.exact->normal));
  })) << "the certified normal is not among the oracle's optimal ones";
  EXPECT_EQ(certified.exact->witness_a - certified.exact->witness_b, certified.exact->translation);
  // Scaling by 2^k scales the certified depth by 2^k bit for bit, and the double EPA's too (no absolute tolerance in
  // either).
  // Only where the scaling is exact: a coordinate near either end of double's range (a kept case holds DBL_MAX)
  // would overflow or lose bits, and the scaled pair would be another question.
  const int k = index % 41 - 20;
  const ConvexPoints<VD> ad = casefile::to_shape<VD>(c.a), bd = casefile::to_shape<VD>(c.b);
  const ConvexPoints<VD> as = scaled(ad, k), bs = scaled(bd, k);
  const auto scaled_exactly = [k](const ConvexPoints<VD>& s, const ConvexPoints<VD>& t) {
    for (std::size_t j = 0; j < s.points().size(); ++j)
      for (int i = 0; i < VD::dimension; ++i)
        if (!std::isfinite(t.points()[j][i]) || std::ldexp(t.points()[j][i], -k) != s.points()[j][i]) return false;
    return true;
  };
  const Penetration<VD> raw = penetration(ad, bd);
  EXPECT_TRUE(std::isfinite(raw.squared_depth));
  if (!scaled_exactly(ad, as) || !scaled_exactly(bd, bs)) return;
  EXPECT_EQ(certified_penetration(as, bs).depth, std::ldexp(certified.depth, k)) << "scaled by 2^" << k;
  // The double EPA's quantities are of degree at most the dimension in the coordinates of its frame (EpaFrame,
  // epa.hpp; visibility's orientation the highest): covariant under 2^k while none underflows or overflows, which
  // coordinates within 2^±60 keep far from (the depth-scales family goes beyond, where it may answer rounding-failure).
  const auto moderate = [](const ConvexPoints<VD>& s) {
    return std::all_of(s.points().begin(), s.points().end(), [](const VD& x) {
      for (int i = 0; i < VD::dimension; ++i)
        if (x[i] != 0 && (std::fabs(x[i]) < 0x1p-60 || std::fabs(x[i]) > 0x1p60)) return false;
      return true;
    });
  };
  if (!moderate(ad) || !moderate(bd)) return;
  const Penetration<VD> raw_scaled = penetration(as, bs);
  EXPECT_EQ(raw_scaled.status, raw.status) << "scaled by 2^" << k;
  if (raw.status == PenetrationStatus::Penetrating && raw_scaled.status == raw.status) {
    EXPECT_EQ(raw_scaled.squared_depth, std::ldexp(raw.squared_depth, 2 * k)) << "scaled by 2^" << k;
  }
}

// Separated shapes have no depth: the certified EPA passes GJK's verdict through, as every input's verdict must be
// GJK's (the oracle's, exactly); so does the exact EPA, checked on one separated case in kExactSeparatedSampling.
// A cost, not a tolerance: the exact EPA's verdict is the exact GJK's, which the distance suite holds to the oracle on
// every case, and most cases of some families are separated (lower-dimensional 3D: 15 for each overlapping one), where
// the exact GJK would dominate the family's time. 8 checks thousands of separated cases per campaign run; any value
// checks the same property.
inline constexpr int kExactSeparatedSampling = 8;

template <Vector V>
void passes_separated_through(const Case& c, int separated_so_far) {
  using VD = std::conditional_t<V::dimension == 2, Vec2<double>, Vec3<double>>;
  EXPECT_EQ(certified_penetration(casefile::to_shape<VD>(c.a), casefile::to_shape<VD>(c.b)).status,
            PenetrationStatus::Separated);
  if (separated_so_far % kExactSeparatedSampling == 0) {
    EXPECT_EQ(penetration(casefile::to_shape<V>(c.a), casefile::to_shape<V>(c.b)).status, PenetrationStatus::Separated);
  }
}

// A failing case is kept as a gjkref-case/1 file that replays it (`gjkref eval FILE` judges the certified depth on it;
// GJKREF_SEED and the index regenerate it here): $GJKREF_FAILURE_DIR/<Suite>.<Name>.seed<S>.case<I>.json (default
// directory gjkref-failures/). The family stops at its first failure.
void keep_failing_case(const Case& c, int index) {
  std::error_code ignored;
  std::filesystem::create_directories(proptests::failure_dir(), ignored);
  const std::filesystem::path file = proptests::failure_dir() / (proptests::current_test_id() + ".seed" +
                                                                   std::to_string(seed()) + ".case" +
                                                                   std::to_string(index) + ".json");
  std::ofstream(file) << casefile::write(c);
  std::printf("  failing case kept: %s\n", file.c_str());
}

// Runs `check` on case `index` of a family with the case's text traced; a failure, an assertion's or an exception's,
// keeps the case (keep_failing_case), and an exception goes on. False when the check failed.
template <class Check>
bool checked(const Case& c, int index, const Check& check) {
  SCOPED_TRACE(casefile::write(c));
  try {
    check();
  } catch (...) {
    keep_failing_case(c, index);
    throw;
  }
  if (!::testing::Test::HasFailure()) return true;
  keep_failing_case(c, index);
  return false;
}

// Which cases a family's test counts: every case that reaches depth (overlapping or touching), or the overlapping ones
// alone, the touching ones generated and passed over unchecked (the ...Overlapping tests of the families where most
// cases that reach depth touch: their campaigns reach a million overlapping cases in as many runs as the others).
enum class Counted { ReachingDepth, OverlappingOnly };

void family(const char* name, rc::Gen<Case> (*generator)(int), int dim, Counted counted = Counted::ReachingDepth) {
  const int wanted = cases_per_family();
  int reached = 0, touching = 0, passed_over = 0, separated = 0;
  certified_paths = {};
  double_faults = {};
  feature_kinds = {};
  std::printf("%s %dD: seed %llu (GJKREF_SEED), %d %s cases wanted\n", name, dim,
              static_cast<unsigned long long>(seed()), wanted,
              counted == Counted::OverlappingOnly ? "overlapping" : "reaching-depth");
  for (int index = 0; reached < wanted; ++index) {
    ASSERT_LT(index, 50 * wanted) << name << " " << dim << "D reaches depth too rarely";
    // A stream of its own for the overlapping-only tests: their cases are not the other test's again.
    const std::uint64_t stream = counted == Counted::OverlappingOnly ? 2 : 1;
    const rc::Random random(
        rc::Random::Key{seed(), static_cast<std::uint64_t>(dim), static_cast<std::uint64_t>(index), stream});
    const Case c = generator(dim)(random, index % 101).value();
    const oracle::Answer answer = oracle::fast_oracle(c);
    if (answer.verdict == oracle::Verdict::Separated) {
      const bool passed = checked(c, index, [&] {
        if (dim == 2)
          passes_separated_through<V2>(c, separated);
        else
          passes_separated_through<V3>(c, separated);
      });
      if (!passed) return;
      ++separated;
      continue;
    }
    if (answer.verdict != oracle::Verdict::Overlapping && answer.verdict != oracle::Verdict::Touching) continue;
    if (counted == Counted::OverlappingOnly && answer.verdict == oracle::Verdict::Touching) {
      ++passed_over;
      continue;
    }
    const bool passed = checked(c, index, [&] {
      const oracle::Penetration truth = oracle::penetration_oracle(c, answer);
      if (dim == 2)
        agrees_with_the_oracle<V2>(c, answer, truth, index);
      else
        agrees_with_the_oracle<V3>(c, answer, truth, index);
    });
    if (!passed) return;
    ++reached;
    touching += answer.verdict == oracle::Verdict::Touching;
  }
  std::printf("  %d cases: %d overlapping, %d touching\n", reached, reached - touching, touching);
  std::printf("  separated cases passed through: %d (certified EPA), %d (exact EPA)\n", separated, (separated + 7) / 8);
  if (counted == Counted::OverlappingOnly) std::printf("  touching cases passed over unchecked: %d\n", passed_over);
  std::printf("  certified mode's paths: %d filtered, %d double-certified, %d exact finish\n",
              certified_paths[static_cast<int>(CertifiedPath::Filtered)],
              certified_paths[static_cast<int>(CertifiedPath::DoubleCertified)],
              certified_paths[static_cast<int>(CertifiedPath::ExactFinish)]);
  for (int f = 0; f < 6; ++f)
    if (double_faults[f]) std::printf("    exact finish after %s: %d\n", to_string(PenetrationFault(f)), double_faults[f]);
  std::printf("  contact features (A-B):");
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (feature_kinds[i][j]) std::printf(" %s-%s %d", feature_name(i), feature_name(j), feature_kinds[i][j]);
  std::printf("\n");
}

// check_penetration's filtered pass over a shape gives up where d·p might overflow (A holds DBL_MAX here); a give-up
// refutes nothing, and every point is then settled in rationals. Before, it was taken as a refutation of condition (4),
// so the exact EPA's own certificate was refused and certified_penetration threw. What does not matter: B's repeated
// point, the depth's size (2^−43). Found by the differential_2d fuzz smoke.
TEST(CertifiedEpaFindings, APassThatGivesUpRefutesNothing) {
  const casefile::Parsed parsed =
      casefile::read_file(std::string(GJKREF_FINDINGS_DIR) + "/epa-certificate-pass-gives-up-at-dbl-max.json");
  ASSERT_FALSE(parsed.error) << parsed.error->message();
  const Case& c = parsed.cases.at(0);
  const oracle::Answer answer = oracle::fast_oracle(c);
  ASSERT_EQ(answer.verdict, oracle::Verdict::Overlapping);
  const oracle::Penetration truth = oracle::penetration_oracle(c, answer);
  CertifiedPenetration<Vec2<double>> r;
  ASSERT_NO_THROW(r = certified_penetration(casefile::to_shape<Vec2<double>>(c.a), casefile::to_shape<Vec2<double>>(c.b), true));
  ASSERT_EQ(r.status, PenetrationStatus::Penetrating);
  EXPECT_EQ(r.exact->squared_depth, truth.squared_depth);
  EXPECT_EQ(r.depth, truth.depth);
  EXPECT_EQ(check_penetration(casefile::to_shape<Vec2<double>>(c.a), casefile::to_shape<Vec2<double>>(c.b),
                              r.certificate).fault,
            PenetrationFault::None);
}

// Every EPA finding kept in cases/findings (the files named epa-*.json), replayed through the whole property check
// above; each file's note gives its cause.
TEST(CertifiedEpaFindings, EveryKeptCaseAgreesWithTheOracle) {
  int replayed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(GJKREF_FINDINGS_DIR)) {
    const std::string file = entry.path().filename().string();
    if (!file.starts_with("epa-") || entry.path().extension() != ".json") continue;
    SCOPED_TRACE(file);
    const casefile::Parsed parsed = casefile::read_file(entry.path().string());
    ASSERT_FALSE(parsed.error) << parsed.error->message();
    for (const Case& c : parsed.cases) {
      const oracle::Answer answer = oracle::fast_oracle(c);
      ASSERT_TRUE(answer.verdict == oracle::Verdict::Overlapping || answer.verdict == oracle::Verdict::Touching);
      const oracle::Penetration truth = oracle::penetration_oracle(c, answer);
      if (c.dim == 2)
        agrees_with_the_oracle<V2>(c, answer, truth, replayed);
      else
        agrees_with_the_oracle<V3>(c, answer, truth, replayed);
      ++replayed;
    }
  }
  EXPECT_GE(replayed, 2);
}

#define GJKREF_EPA_FAMILY(Test, name, generator)                         \
  TEST(ExactEpaEqualsTheOracle, Test##2d) { family(name, generator, 2); } \
  TEST(ExactEpaEqualsTheOracle, Test##3d) { family(name, generator, 3); }

GJKREF_EPA_FAMILY(DeepOverlap, "deep-overlap", proptests::deep_overlap)
GJKREF_EPA_FAMILY(ShallowOverlap, "shallow-overlap", proptests::shallow_overlap)
GJKREF_EPA_FAMILY(RestingContact, "resting-contact", proptests::resting_contact)
GJKREF_EPA_FAMILY(TiedFacets, "tied-facets", proptests::tied_facets)
GJKREF_EPA_FAMILY(ThinBoxes, "thin-boxes", proptests::thin_boxes)
GJKREF_EPA_FAMILY(PosedBoxes, "posed-boxes", proptests::posed_boxes)
GJKREF_EPA_FAMILY(DepthScales, "depth-scales", proptests::depth_scales)
GJKREF_EPA_FAMILY(Random, "random", proptests::random_polytopes)
GJKREF_EPA_FAMILY(Touching, "touching", proptests::exactly_touching)
GJKREF_EPA_FAMILY(OnFeature, "on-feature", proptests::origin_on_feature)
GJKREF_EPA_FAMILY(LowerDimensional, "lower-dimensional", proptests::lower_dimensional)

// The families where few of the cases that reach depth overlap (about 22 % on a feature, 13 % lower-dimensional in
// 3D; lower-dimensional in 2D never overlaps), counted on their overlapping cases alone: beside the tests above, which
// check their touching cases too.
TEST(ExactEpaEqualsTheOracle, OnFeature2dOverlapping) {
  family("on-feature", proptests::origin_on_feature, 2, Counted::OverlappingOnly);
}
TEST(ExactEpaEqualsTheOracle, OnFeature3dOverlapping) {
  family("on-feature", proptests::origin_on_feature, 3, Counted::OverlappingOnly);
}
TEST(ExactEpaEqualsTheOracle, LowerDimensional3dOverlapping) {
  family("lower-dimensional", proptests::lower_dimensional, 3, Counted::OverlappingOnly);
}

}  // namespace
}  // namespace gjkref
