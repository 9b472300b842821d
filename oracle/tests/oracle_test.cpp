// The hull oracle: hand-computed rationals, the shipped examples, CGAL's collinear defect worked around, invalid
// input, correctly rounded distances, and exact agreement with the exact reference (an independent exact method:
// GJK with region tests, no hull) on random lattice pairs.
#include "gjkref/oracle.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>

#include "gjkref/exact.hpp"
#include "gjkref/gjkref.hpp"

namespace gjkref::oracle {
namespace {

using casefile::Case;

std::uint64_t seed_or(std::uint64_t fallback) {
  const char* s = std::getenv("GJKREF_SEED");  // printed by the test; set it to rerun one
  return s ? std::strtoull(s, nullptr, 0) : fallback;
}

Case make(int dim, std::vector<std::array<double, 3>> a, std::vector<std::array<double, 3>> b) {
  Case c;
  c.name = "test";
  c.dim = dim;
  c.a.points = std::move(a);
  c.b.points = std::move(b);
  return c;
}

ExactPoint point(mpq_class x, mpq_class y, mpq_class z) { return {x, y, z}; }

// A random case on the integer lattice [−w, w]^dim with 1 to max_points points per shape: degenerate configurations
// (touching, flat, collinear, duplicate) are frequent by construction.
Case random_lattice_case(std::mt19937_64& rng, int dim, int half_width, int max_points) {
  std::uniform_int_distribution<int> coord(-half_width, half_width), count(1, max_points);
  Case c = make(dim, {}, {});
  for (auto* s : {&c.a, &c.b})
    for (int k = count(rng); k > 0; --k) {
      std::array<double, 3> p{0, 0, 0};
      for (int i = 0; i < dim; ++i) p[i] = coord(rng);
      s->points.push_back(p);
    }
  return c;
}

TEST(HullOracle, HandComputedFeatures) {
  // Vertex: two points.
  Answer r = hull_oracle(make(3, {{0, 0, 0}}, {{3, 4, 0}}));
  EXPECT_EQ(r.verdict, Verdict::Separated);
  EXPECT_EQ(r.squared_distance, 25);
  EXPECT_EQ(r.distance, 5.0);
  EXPECT_EQ(r.feature, Feature::Vertex);
  EXPECT_EQ(r.witness_b, point(3, 4, 0));
  // Edge: the origin above the middle of a segment.
  r = hull_oracle(make(3, {{-1, 1, 0}, {3, 1, 0}}, {{0, 0, 0}}));
  EXPECT_EQ(r.squared_distance, 1);
  EXPECT_EQ(r.feature, Feature::Edge);
  EXPECT_EQ(r.witness_a, point(0, 1, 0));
  // Face, with a non-dyadic answer: the triangle x + y + z = 1 is at squared distance 1/3, nearest at (1/3, 1/3, 1/3).
  r = hull_oracle(make(3, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{0, 0, 0}}));
  EXPECT_EQ(r.verdict, Verdict::Separated);
  EXPECT_EQ(r.squared_distance, mpq_class(1, 3));
  EXPECT_EQ(r.feature, Feature::Face);
  EXPECT_EQ(r.witness_a, point(mpq_class(1, 3), mpq_class(1, 3), mpq_class(1, 3)));
  EXPECT_EQ(r.distance, correctly_rounded_sqrt(mpq_class(1, 3)));
  // A face of a full polytope: a point 2 above the top face of a cube.
  r = hull_oracle(make(3, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}},
                       {{0.25, 0.5, 3}}));
  EXPECT_EQ(r.squared_distance, 4);
  EXPECT_EQ(r.feature, Feature::Face);
  EXPECT_EQ(r.affine_dimension, 3);
  EXPECT_EQ(r.witness_a, point(mpq_class(1, 4), mpq_class(1, 2), 1));
  // Touching features of a cube: a point on a face, on an edge, at a vertex (planar faces come triangulated, and a
  // point on a triangulation diagonal is still on the face).
  const std::vector<std::array<double, 3>> cube = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0},
                                                   {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
  EXPECT_EQ(hull_oracle(make(3, cube, {{0.5, 0.5, 1}})).feature, Feature::Face);
  EXPECT_EQ(hull_oracle(make(3, cube, {{0.25, 0.25, 1}})).feature, Feature::Face);
  EXPECT_EQ(hull_oracle(make(3, cube, {{0.5, 1, 1}})).feature, Feature::Edge);
  EXPECT_EQ(hull_oracle(make(3, cube, {{1, 1, 1}})).feature, Feature::Vertex);
  EXPECT_EQ(hull_oracle(make(3, cube, {{1, 1, 1}})).verdict, Verdict::Touching);
  EXPECT_EQ(hull_oracle(make(3, cube, {{2, 2, 0.5}})).feature, Feature::Edge);  // separated, nearest to an edge
}

TEST(HullOracle, ShippedExamplesGetTheirStatedAnswers) {
  const auto all = casefile::read_file(std::string(GJKREF_SOURCE_DIR) + "/cases/examples/examples.json");
  ASSERT_FALSE(all.error) << all.error->message();
  const std::vector<std::pair<Verdict, mpq_class>> expected = {
      {Verdict::Separated, 9},
      {Verdict::Touching, 0},
      {Verdict::Overlapping, 0},
      {Verdict::Touching, 0},
      {Verdict::Separated, mpq_class(1, 4) * std::ldexp(1.0, -80)}};
  ASSERT_EQ(all.cases.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const Answer r = hull_oracle(all.cases[i]);
    EXPECT_EQ(r.verdict, expected[i].first) << all.cases[i].name;
    EXPECT_EQ(r.squared_distance, expected[i].second) << all.cases[i].name;
  }
  EXPECT_EQ(hull_oracle(all.cases[4]).distance, std::ldexp(1.0, -41));
  // Features: the skew segments' closest point is the centre of the flat square A⊖B (a face, though a fan
  // triangulation puts it on a diagonal); the 2D point lies inside the segment A⊖B (an edge).
  EXPECT_EQ(hull_oracle(all.cases[0]).feature, Feature::Face);
  EXPECT_EQ(hull_oracle(all.cases[1]).feature, Feature::Edge);
  EXPECT_EQ(hull_oracle(all.cases[2]).feature, Feature::Interior);
  for (const char* file : {"point-on-face-3d.json", "touching-squares-2d.json"}) {
    const auto one = casefile::read_file(std::string(GJKREF_SOURCE_DIR) + "/cases/examples/" + file);
    ASSERT_FALSE(one.error) << one.error->message();
    EXPECT_EQ(hull_oracle(one.cases[0]).verdict, Verdict::Touching) << file;
  }
}

// CGAL 5.5's convex_hull_3 and extreme_points_3 keep (0,0,0)–(1,0,0) of this collinear set, not (−1,0,0)–(1,0,0)
// (docs/oracle.md). The oracle decides collinearity itself and never hands CGAL such a set: with B = (−0.75, 0, 0),
// A⊖B = [−0.25, 1.75] on the x axis contains the origin (the defect would give [0.75, 1.75]: separated).
TEST(HullOracle, CollinearInputKeepsTheTrueExtremes) {
  const Answer r = hull_oracle(make(3, {{0, 0, 0}, {1, 0, 0}, {-1, 0, 0}, {0.5, 0, 0}}, {{-0.75, 0, 0}}));
  EXPECT_EQ(r.verdict, Verdict::Touching);
  EXPECT_EQ(r.affine_dimension, 1);
  const Answer s = hull_oracle(make(3, {{0, 0, 0}, {1, 0, 0}, {-1, 0, 0}, {0.5, 0, 0}}, {{-1.5, 0, 0}}));
  EXPECT_EQ(s.verdict, Verdict::Separated);
  EXPECT_EQ(s.squared_distance, mpq_class(1, 4));
}

TEST(HullOracle, InvalidInput) {
  EXPECT_EQ(hull_oracle(make(3, {}, {{0, 0, 0}})).verdict, Verdict::InvalidInput);
  EXPECT_EQ(hull_oracle(make(3, {{std::nan(""), 0, 0}}, {{0, 0, 0}})).verdict, Verdict::InvalidInput);
  EXPECT_EQ(hull_oracle(make(2, {{0, HUGE_VAL, 0}}, {{0, 0, 0}})).verdict, Verdict::InvalidInput);
}

TEST(HullOracle, CorrectlyRoundedSquareRoot) {
  EXPECT_EQ(correctly_rounded_sqrt(2), std::sqrt(2.0));  // IEEE sqrt is correctly rounded
  std::mt19937_64 rng(5);
  for (int i = 0; i < 2000; ++i) {
    const double x = std::fabs(std::bit_cast<double>(rng() >> 2));  // finite, positive, any exponent below 2^512
    const mpq_class q = mpq_class(x) * mpq_class(x);
    EXPECT_EQ(correctly_rounded_sqrt(q), x);
    const mpq_class r(x);
    EXPECT_EQ(correctly_rounded_sqrt(r), std::sqrt(x));
  }
  // An exact tie: √((1 + 2^-53)²) = 1 + 2^-53, halfway between 1 and 1 + 2^-52; ties go to even, 1.
  const mpq_class half_ulp = mpq_class(1) + mpq_class(std::ldexp(1.0, -53));
  EXPECT_EQ(correctly_rounded_sqrt(half_ulp * half_ulp), 1.0);
}

// Two independent exact methods must agree exactly: the hull oracle and the exact reference GJK.
template <class V>
void agrees_with_exact_reference(int dim, std::uint64_t seed, int pairs) {
  std::mt19937_64 rng(seed);
  int touching = 0, overlapping = 0, separated = 0;
  for (int t = 0; t < pairs; ++t) {
    const Case c = random_lattice_case(rng, dim, 3, 8);
    const Answer o = hull_oracle(c);
    auto shape = [&](const casefile::Shape& s) {
      std::vector<V> pts;
      for (const auto& p : s.points) {
        V v;
        for (int i = 0; i < dim; ++i) v[i] = Exact(p[i]);
        pts.push_back(v);
      }
      return ConvexPoints<V>(pts);
    };
    const auto r = distance(shape(c.a), shape(c.b));
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " pair " << t << ": " << casefile::write(c));
    ASSERT_EQ(r.status == Status::Intersecting, o.verdict != Verdict::Separated) << to_string(o.verdict);
    ASSERT_EQ(r.squared_distance(), o.squared_distance);
    for (int i = 0; i < dim; ++i) ASSERT_EQ(r.closest[i], o.witness_a[i] - o.witness_b[i]);
    (o.verdict == Verdict::Touching ? touching : o.verdict == Verdict::Overlapping ? overlapping : separated)++;
  }
  std::printf("seed %llu: %d separated, %d touching, %d overlapping\n", static_cast<unsigned long long>(seed),
              separated, touching, overlapping);
  EXPECT_GT(touching, pairs / 50);  // the lattice must keep producing touching pairs
  EXPECT_GT(separated, pairs / 10);
  EXPECT_GT(overlapping, pairs / 10);
}

// The two exact oracles must agree exactly: the verdict (separated / touching / overlapping), the squared distance,
// the affine dimension, and the closest vector v = witness_a − witness_b (unique, though the witnesses need not be).
void oracles_agree(int dim, std::uint64_t seed, int pairs, int half_width) {
  std::mt19937_64 rng(seed);
  int touching = 0, overlapping = 0, separated = 0;
  for (int t = 0; t < pairs; ++t) {
    const Case c = random_lattice_case(rng, dim, half_width, 7);
    const Answer h = hull_oracle(c), q = qp_oracle(c);
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " pair " << t << ": " << casefile::write(c));
    ASSERT_EQ(h.verdict, q.verdict) << to_string(h.verdict) << " vs " << to_string(q.verdict);
    ASSERT_EQ(h.squared_distance, q.squared_distance);
    ASSERT_EQ(h.affine_dimension, q.affine_dimension);
    ASSERT_EQ(h.distance, q.distance);
    for (int i = 0; i < 3; ++i) ASSERT_EQ(h.witness_a[i] - h.witness_b[i], q.witness_a[i] - q.witness_b[i]);
    (h.verdict == Verdict::Touching ? touching : h.verdict == Verdict::Overlapping ? overlapping : separated)++;
  }
  std::printf("seed %llu: %d separated, %d touching, %d overlapping\n", static_cast<unsigned long long>(seed),
              separated, touching, overlapping);
  EXPECT_GT(touching, pairs / 50);
  EXPECT_GT(separated, pairs / 10);
  EXPECT_GT(overlapping, pairs / 20);
}

// The input on which CGAL's Polytope_distance_d cycles forever (docs/oracle.md): B's point is A's fourth vertex, so
// the shapes touch. The QP oracle (Bland pricing) must return, and agree with the hull oracle.
TEST(QpOracle, PolytopeDistanceCyclingInputTerminates) {
  const Case c =
      make(3, {{9.5, 23.75, 24.75}, {30, 26.25, 29.5}, {12.25, 12.5, -30}, {-30, -30, -30}}, {{-30, -30, -30}});
  const Answer q = qp_oracle(c);
  EXPECT_EQ(q.verdict, Verdict::Touching);
  EXPECT_EQ(q.squared_distance, 0);
  EXPECT_EQ(hull_oracle(c).verdict, Verdict::Touching);
}

// Coordinates mixing 2^719 and subnormals (the kind of input on which CGAL's QP with its default pricing returned a
// wrong positive distance; docs/oracle.md): the segment from (2^719, 0) to (−2^719, 2^−1070) passes through
// (0, 2^−1071), which is B. Truth: touching, distance 0.
TEST(QpOracle, HugeAndSubnormalCoordinatesTouch) {
  const double huge = std::ldexp(1.0, 719), tiny = std::ldexp(1.0, -1070);
  const Case c = make(2, {{huge, 0, 0}, {-huge, tiny, 0}}, {{0, tiny / 2, 0}});
  for (const Answer& r : {qp_oracle(c), hull_oracle(c)}) {
    EXPECT_EQ(r.verdict, Verdict::Touching);
    EXPECT_EQ(r.squared_distance, 0);
  }
}

// Near-boundary 2D cases: B is a point within a few ulps of an oblique edge of the triangle A (the rounded midpoint
// of the edge, nudged by −4..4 ulps in y). The two exact oracles must agree exactly on every one; Boost.Geometry's
// double-precision verdict is measured against them (printed, and quoted in docs/oracle.md).
TEST(BoostGeometry, NearBoundaryOpinionsAreMeasured) {
  std::mt19937_64 rng(seed_or(301));
  std::uniform_real_distribution<double> unit(-1, 1);
  std::uniform_int_distribution<int> nudge(-4, 4);
  constexpr int kCases = 2000;
  int separated = 0, boost_wrong = 0;
  for (int t = 0; t < kCases; ++t) {
    const std::array<double, 3> p{unit(rng), unit(rng), 0}, q{unit(rng), unit(rng), 0}, r{unit(rng), unit(rng), 0};
    std::array<double, 3> m{(p[0] + q[0]) / 2, (p[1] + q[1]) / 2, 0};
    for (int k = nudge(rng); k != 0; k += k > 0 ? -1 : 1) m[1] = std::nextafter(m[1], k > 0 ? 2.0 : -2.0);
    const Case c = make(2, {p, q, r}, {m});
    const Answer h = hull_oracle(c), o = qp_oracle(c);
    ASSERT_EQ(h.verdict, o.verdict) << casefile::write(c);
    ASSERT_EQ(h.squared_distance, o.squared_distance) << casefile::write(c);
    const auto opinion = boost_geometry_opinion(c);
    ASSERT_TRUE(opinion.has_value());
    if (opinion->intersecting != (h.verdict != Verdict::Separated)) ++boost_wrong;
    if (h.verdict == Verdict::Separated) ++separated;
  }
  std::printf("near-boundary 2D: %d of %d separated; Boost.Geometry's verdict differs from the exact one on %d\n",
              separated, kCases, boost_wrong);
  EXPECT_GT(separated, kCases / 10);
  EXPECT_LT(separated, kCases - kCases / 10);
}

TEST(QpOracle, AgreesWithTheHullOracle3d) { oracles_agree(3, seed_or(201), 600, 3); }
TEST(QpOracle, AgreesWithTheHullOracle2d) { oracles_agree(2, seed_or(202), 1000, 3); }

TEST(HullOracle, AgreesWithTheExactReference3d) { agrees_with_exact_reference<Vec3<Exact>>(3, seed_or(101), 600); }
TEST(HullOracle, AgreesWithTheExactReference2d) { agrees_with_exact_reference<Vec2<Exact>>(2, seed_or(102), 1500); }

}  // namespace
}  // namespace gjkref::oracle
