// The hull oracle: hand-computed rationals, the shipped examples, CGAL's collinear defect worked around, invalid
// input, correctly rounded distances, and exact agreement with the exact reference (an independent exact method:
// GJK with region tests, no hull) on random lattice pairs.
#include "gjkref/oracle.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <limits>
#include <random>
#include <thread>

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
  // x at every finite exponent (biased exponents 0 to 2046: subnormals to DBL_MAX's binade), each with a random
  // significand: √(x²) = x exactly, and √x is IEEE's.
  std::mt19937_64 rng(5);
  int subnormal = 0, below_one = 0, above_2_to_512 = 0;
  for (std::uint64_t biased_exponent = 0; biased_exponent <= 2046; ++biased_exponent) {
    const std::uint64_t bits = biased_exponent << 52 | (rng() & ((std::uint64_t{1} << 52) - 1));
    const double x = std::bit_cast<double>(bits);
    if (x == 0) continue;
    subnormal += x < std::numeric_limits<double>::min();
    below_one += x < 1;
    above_2_to_512 += x > 0x1p512;
    const mpq_class q = mpq_class(x) * mpq_class(x);
    EXPECT_EQ(correctly_rounded_sqrt(q), x) << std::hexfloat << x;
    const mpq_class r(x);
    EXPECT_EQ(correctly_rounded_sqrt(r), std::sqrt(x)) << std::hexfloat << x;
  }
  EXPECT_EQ(subnormal, 1);         // biased exponent 0 (its significand drawn non-zero)
  EXPECT_EQ(below_one, 1023);      // 0 to 1022
  EXPECT_EQ(above_2_to_512, 512);  // 1535 to 2046
  // An exact tie: √((1 + 2^-53)²) = 1 + 2^-53, halfway between 1 and 1 + 2^-52; ties go to even, 1.
  const mpq_class half_ulp = mpq_class(1) + mpq_class(std::ldexp(1.0, -53));
  EXPECT_EQ(correctly_rounded_sqrt(half_ulp * half_ulp), 1.0);
  // Beyond DBL_MAX: +∞ from the overflow threshold T = DBL_MAX + half an ulp = 2^1024 − 2^970 on (T itself is a tie,
  // and DBL_MAX's significand is odd), DBL_MAX just below it.
  const mpz_class threshold = (mpz_class(1) << 1024) - (mpz_class(1) << 970);
  const mpq_class t(threshold);
  const double inf = std::numeric_limits<double>::infinity(), largest = std::numeric_limits<double>::max();
  EXPECT_EQ(correctly_rounded_sqrt(t * t), inf);
  EXPECT_EQ(correctly_rounded_sqrt(t * t - 1), largest);
  EXPECT_EQ(correctly_rounded_sqrt(t * t + 1), inf);
  EXPECT_EQ(correctly_rounded_sqrt(mpq_class(largest) * mpq_class(largest)), largest);
  for (int i = 0; i < 200; ++i) {
    // y = m·2^e with a 53-bit m and e from 972 to 2000: y ≥ 2^1024, far beyond.
    const mpz_class m((rng() >> 11) | (std::uint64_t{1} << 52));
    const mpq_class y(m << static_cast<mp_bitcnt_t>(972 + rng() % 1029));
    EXPECT_EQ(correctly_rounded_sqrt(y * y), inf);
  }
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

// ---- Families (docs/oracle.md): the three exact methods on generated cases, GJKREF_ORACLE_CASES per family and
// dimension (10,000 by default; the ASan preset sets fewer). Every case: hull = QP exactly (verdict, squared distance,
// affine dimension, closest vector), = the fast path (and its feature), = the exact reference GJK (intersecting or
// not, squared distance); the double and float references within docs/contract.md.

int cases_per_family() {
  const char* s = std::getenv("GJKREF_ORACLE_CASES");
  return s ? std::atoi(s) : 10000;
}

// minkowski_sum_2 is slow (an arrangement per case): it checks the first cases of each 2D family only.
int minkowski_cases_per_family() { return std::min(cases_per_family(), 2000); }

using Family = Case (*)(std::mt19937_64&, int dim);

// A boundary point of a lattice shape: the midpoint of two points maximising a random lattice direction (both lie on
// the supporting face, so the midpoint does too). Exact: lattice coordinates, one halving.
std::array<double, 3> boundary_point(const casefile::Shape& s, std::mt19937_64& rng, int dim) {
  std::uniform_int_distribution<int> coord(-2, 2);
  std::array<double, 3> dir{0, 0, 0};
  while (dir[0] == 0 && dir[1] == 0 && dir[2] == 0)
    for (int i = 0; i < dim; ++i) dir[i] = coord(rng);
  double best = -1e300;
  std::vector<std::array<double, 3>> top;
  for (const auto& p : s.points) {
    const double v = dir[0] * p[0] + dir[1] * p[1] + dir[2] * p[2];  // small integers: exact
    if (v > best) best = v, top.clear();
    if (v == best) top.push_back(p);
  }
  const auto& u = top[rng() % top.size()];
  const auto& w = top[rng() % top.size()];
  return {(u[0] + w[0]) / 2, (u[1] + w[1]) / 2, (u[2] + w[2]) / 2};
}

Case family_random(std::mt19937_64& rng, int dim) { return random_lattice_case(rng, dim, 3, 6); }

// B = A reflected through a boundary point p of A: A ∩ (2p − A) lies in A's supporting plane at p — exact contact.
Case family_touching(std::mt19937_64& rng, int dim) {
  Case c = random_lattice_case(rng, dim, 3, 6);
  const auto p = boundary_point(c.a, rng, dim);
  c.b.points.clear();
  for (const auto& a : c.a.points) c.b.points.push_back({2 * p[0] - a[0], 2 * p[1] - a[1], 2 * p[2] - a[2]});
  if (c.b.points.size() > 1 && rng() % 2) c.b.points.pop_back();  // sometimes a sub-shape: still touching or apart
  return c;
}

// Flat, collinear and single-point sets: in 3D on the plane z = 0 or on a line; in 2D on a line or a point.
Case family_flat(std::mt19937_64& rng, int dim) {
  Case c = random_lattice_case(rng, dim, 3, 6);
  const int kind = static_cast<int>(rng() % 3);
  for (auto* s : {&c.a, &c.b})
    for (auto& p : s->points) {
      if (kind == 0 && dim == 3) p[2] = 0;                // coplanar
      if (kind == 1) p[1] = p[0], p[2] = dim == 3 ? -p[0] : 0;  // collinear, through the origin's line x = y = −z
      if (kind == 2) p = s->points[0];                     // a single point, repeated
    }
  return c;
}

// A touching pair, then B moved by 2^−k (k = 1..49) along a lattice direction: just apart or just overlapping. B's
// coordinates are integers of magnitude at most 9 (2p − a, with 2p and a in [−6, 6] and [−3, 3]), so v + 2^−k needs
// the bits from 2³ down to 2^−k: at most 53 for k ≤ 49, exact. Beyond, the sum rounds back to v for |v| ≥ 8 and B
// does not move; the generator refuses any move that is not exact.
constexpr int kNearestMoveExponent = 49;
Case family_near(std::mt19937_64& rng, int dim) {
  Case c = family_touching(rng, dim);
  std::uniform_int_distribution<int> coord(-1, 1), exponent(1, kNearestMoveExponent);
  const double step = std::ldexp(1.0, -exponent(rng));
  std::array<double, 3> dir{0, 0, 0};
  for (int i = 0; i < dim; ++i) dir[i] = coord(rng) * step;
  for (auto& p : c.b.points)
    for (int i = 0; i < 3; ++i) {
      const double moved = p[i] + dir[i];
      if (mpq_class(moved) - mpq_class(p[i]) != dir[i])
        throw std::logic_error("family_near: a move that is not exact in double");
      p[i] = moved;
    }
  return c;
}

// A random or touching lattice pair scaled by 2^s, s = −500..500: exact, huge and tiny.
Case family_scaled(std::mt19937_64& rng, int dim) {
  Case c = rng() % 2 ? family_touching(rng, dim) : family_random(rng, dim);
  std::uniform_int_distribution<int> exponent(-500, 500);
  const int s = exponent(rng);
  for (auto* shape : {&c.a, &c.b})
    for (auto& p : shape->points)
      for (double& x : p) x = std::ldexp(x, s);
  return c;
}

template <class V>
V exact_vector(const std::array<double, 3>& p) {
  V v;
  for (int i = 0; i < V::dimension; ++i) v[i] = Exact(p[i]);
  return v;
}

// The reference in scalar T judged under docs/contract.md against the oracle's truth.
template <class T>
Judgement judged_reference(const Case& c, const Answer& truth) {
  const auto judge = [&]<class V>() {
    std::vector<V> a, b;
    std::vector<Vec3<double>> ad, bd;
    for (const auto* s : {&c.a, &c.b})
      for (const auto& p : s->points) {
        V v;
        for (int i = 0; i < V::dimension; ++i) v[i] = static_cast<T>(p[i]);
        (s == &c.a ? a : b).push_back(v);
        (s == &c.a ? ad : bd).push_back({p[0], p[1], p[2]});
      }
    const auto r = distance(ConvexPoints<V>(a), ConvexPoints<V>(b));
    if (r.status != Status::Separated && r.status != Status::Intersecting) return Judgement::Violates;
    const ConvexPoints<Vec3<double>> da(ad), db(bd);
    return judge_floating({r.status == Status::Separated, static_cast<double>(r.distance())},
                          truth.verdict == Verdict::Separated, truth.distance, ScalarTraits<T>::epsilon(),
                          input_scale(da, db), largest_coordinate(da, db), c.dim, !std::is_same_v<T, double>);
  };
  return c.dim == 2 ? judge.template operator()<Vec2<T>>() : judge.template operator()<Vec3<T>>();
}

bool fits_float(const Case& c) {
  return float_rounding_is_relative(c.a.points) && float_rounding_is_relative(c.b.points);
}

template <class V>
void family_agreement(Family family, const char* name, int dim, std::uint64_t seed, double min_touching_share) {
  std::mt19937_64 rng(seed);
  const int n = cases_per_family();
  int counts[3] = {0, 0, 0}, certified = 0, summed = 0, double_in_band = 0, float_judged = 0, float_in_band = 0;
  for (int t = 0; t < n; ++t) {
    const Case c = family(rng, dim);
    // Each oracle checks its own certificate and throws if it fails.
    const Answer h = hull_oracle(c), q = qp_oracle(c), f = fast_oracle(c);
    SCOPED_TRACE(::testing::Message() << name << " " << dim << "D seed " << seed << " case " << t << ": "
                                      << casefile::write(c));
    ASSERT_EQ(h.verdict, q.verdict) << to_string(h.verdict) << " vs " << to_string(q.verdict);
    ASSERT_EQ(h.squared_distance, q.squared_distance);
    ASSERT_EQ(h.affine_dimension, q.affine_dimension);
    for (int i = 0; i < 3; ++i) ASSERT_EQ(h.witness_a[i] - h.witness_b[i], q.witness_a[i] - q.witness_b[i]);
    // The fast path: the same answer, feature included.
    ASSERT_EQ(f.verdict, h.verdict) << to_string(f.method);
    ASSERT_EQ(f.squared_distance, h.squared_distance) << to_string(f.method);
    ASSERT_EQ(f.feature, h.feature) << to_string(f.method);
    ASSERT_EQ(f.affine_dimension, h.affine_dimension) << to_string(f.method);
    for (int i = 0; i < 3; ++i) ASSERT_EQ(f.witness_a[i] - f.witness_b[i], h.witness_a[i] - h.witness_b[i]);
    if (f.method == Method::Certified) ++certified;
    // The fast path leaves a case to the hull for one reason only: an overlapping answer whose weighted points do not
    // span the space (any other failure of the certified answer is a DisagreementError).
    if (f.method == Method::Hull) {
      ASSERT_EQ(h.verdict, Verdict::Overlapping) << "the fast path fell back";
    }
    // The third method (2D, both hulls polygons): CGAL's literal Minkowski sum.
    if (dim == 2 && t < minkowski_cases_per_family())
      if (const auto sum = minkowski_sum_oracle(c)) {
        ASSERT_EQ(sum->verdict, h.verdict) << "minkowski_sum_2";
        ASSERT_EQ(sum->squared_distance, h.squared_distance) << "minkowski_sum_2";
        ++summed;
      }
    std::vector<V> a, b;
    for (const auto& p : c.a.points) a.push_back(exact_vector<V>(p));
    for (const auto& p : c.b.points) b.push_back(exact_vector<V>(p));
    const auto r = distance(ConvexPoints<V>(a), ConvexPoints<V>(b));
    ASSERT_EQ(r.status == Status::Intersecting, h.verdict != Verdict::Separated);
    ASSERT_EQ(r.squared_distance(), h.squared_distance);
    // The floating references meet docs/contract.md (float only where float input rounding is relative).
    const Judgement in_double = judged_reference<double>(c, h);
    ASSERT_NE(in_double, Judgement::Violates) << "reference-double";
    if (in_double == Judgement::WithinBand) ++double_in_band;
    if (fits_float(c)) {
      const Judgement in_float = judged_reference<float>(c, h);
      ASSERT_NE(in_float, Judgement::Violates) << "reference-float";
      ++float_judged;
      if (in_float == Judgement::WithinBand) ++float_in_band;
    }
    ++counts[static_cast<int>(h.verdict)];
  }
  std::printf("%s %dD seed %llu: %d cases: %d separated, %d touching, %d overlapping; fast path certified %d; "
              "minkowski_sum_2 checked %d\n",
              name, dim, static_cast<unsigned long long>(seed), n, counts[0], counts[1], counts[2], certified, summed);
  std::printf("  reference-double within contract on all (%d by the verdict band); reference-float on %d (%d by the band)\n",
              double_in_band, float_judged, float_in_band);
  // Representativeness: the family must keep producing what it is for (boundary cases), and some separated ones.
  EXPECT_GE(counts[1], min_touching_share * n) << name << " " << dim << "D produces too few touching cases";
  EXPECT_GT(counts[0], 0) << name << " " << dim << "D produces no separated case";
}

TEST(OracleFamilies, Random) {
  family_agreement<Vec2<Exact>>(family_random, "random", 2, seed_or(401), 0.02);
  family_agreement<Vec3<Exact>>(family_random, "random", 3, seed_or(402), 0.02);
}
TEST(OracleFamilies, ExactlyTouching) {
  family_agreement<Vec2<Exact>>(family_touching, "touching", 2, seed_or(403), 0.5);
  family_agreement<Vec3<Exact>>(family_touching, "touching", 3, seed_or(404), 0.5);
}
TEST(OracleFamilies, FlatCollinearAndPoints) {
  family_agreement<Vec2<Exact>>(family_flat, "flat", 2, seed_or(405), 0.2);
  family_agreement<Vec3<Exact>>(family_flat, "flat", 3, seed_or(406), 0.2);
}
TEST(OracleFamilies, NearTouching) {
  // Touching cases: mostly the unmoved ones (the direction drawn 0: 1 in 9 in 2D, 1 in 27 in 3D). The floors sit well
  // below those shares, so that a run of a few hundred cases (the sanitizer preset's) with any seed reaches them.
  family_agreement<Vec2<Exact>>(family_near, "near", 2, seed_or(407), 0.05);
  family_agreement<Vec3<Exact>>(family_near, "near", 3, seed_or(408), 0.01);
}
TEST(OracleFamilies, HugeAndTinyScales) {
  family_agreement<Vec2<Exact>>(family_scaled, "scaled", 2, seed_or(409), 0.2);
  family_agreement<Vec3<Exact>>(family_scaled, "scaled", 3, seed_or(410), 0.2);
}

// ---- Certificates (docs/oracle.md): every oracle's answer carries one and it checks; every corruption is caught.

std::vector<Case> certificate_cases() {
  const std::vector<std::array<double, 3>> cube = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0},
                                                   {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
  const std::vector<std::array<double, 3>> square = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  return {make(3, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{0, 0, 0}}),  // separated, face
          make(3, cube, {{2, 2, 0.5}}),                             // separated, edge
          make(3, cube, {{0.5, 1, 1}}),                             // touching, edge
          make(3, cube, {{0.25, 0.5, 1}}),                          // touching, face
          make(3, cube, {{0.25, 0.5, 0.75}}),                       // overlapping
          make(3, cube, {{0.5, 0.5, 0.5}, {0.25, 0.5, 0.75}}),      // overlapping, B a segment
          make(3, square, {{0.5, 0.5, 0}}),                         // touching: flat A⊖B
          make(2, square, {{2, 0.5, 0}}),                           // separated, edge
          make(2, square, {{1, 0.5, 0}}),                           // touching, edge
          make(2, square, {{0.5, 0.25, 0}})};                       // overlapping
}

// The verdict each of certificate_cases() is built for, in the same order.
const std::vector<Verdict> kCertificateCaseVerdicts = {
    Verdict::Separated,   Verdict::Separated, Verdict::Touching, Verdict::Touching,  Verdict::Overlapping,
    Verdict::Overlapping, Verdict::Touching,  Verdict::Separated, Verdict::Touching, Verdict::Overlapping};

// Every method's answer on hand cases of every kind. Each oracle checks its own certificate before returning and
// throws CertificateError when it fails, so a failing check shows here as that exception. What the test asserts beyond
// it: each answer has the verdict its case is built for, and its certificate checks whoever claims it — relabelled
// with every other method it checks the same (check_certificate reads no label), and every touching answer names its
// supporting plane.
TEST(Certificate, EveryMethodsAnswersCheck) {
  const std::vector<Case> cases = certificate_cases();
  ASSERT_EQ(cases.size(), kCertificateCaseVerdicts.size());
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const Case& c = cases[k];
    for (const Answer& r : {hull_oracle(c), qp_oracle(c), fast_oracle(c)}) {
      SCOPED_TRACE(::testing::Message() << to_string(r.method) << " on " << casefile::write(c));
      EXPECT_EQ(r.verdict, kCertificateCaseVerdicts[k]);
      if (r.verdict == Verdict::Touching) {
        EXPECT_TRUE(r.certificate.normal.has_value());
      }
      for (Method label : {Method::Hull, Method::Qp, Method::Certified, Method::Support}) {
        Answer relabelled = r;
        relabelled.method = label;
        EXPECT_EQ(check_certificate(c, relabelled), std::nullopt) << "labelled " << to_string(label);
      }
    }
  }
}

// The check does not take an answer's word for how it was made: a touching answer without a supporting plane is
// refused whatever its method, here on a point inside the unit square (the truth: overlapping), with weights that do
// put the origin in A⊖B.
TEST(Certificate, AMethodLabelProvesNothing) {
  const Case c = make(2, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}, {{0.5, 0.5, 0}});
  const Answer truth = hull_oracle(c);
  ASSERT_EQ(truth.verdict, Verdict::Overlapping);
  for (Method label : {Method::Hull, Method::Qp, Method::Certified, Method::Support}) {
    Answer forged = truth;
    forged.verdict = Verdict::Touching;
    forged.method = label;
    forged.certificate.normal.reset();
    EXPECT_NE(check_certificate(c, forged), std::nullopt) << to_string(label);
  }
}

TEST(Certificate, EveryCorruptionIsCaught) {
  int separated = 0, touching = 0, overlapping = 0;
  for (const Case& c : certificate_cases()) {
    const Answer good = hull_oracle(c);
    SCOPED_TRACE(casefile::write(c));
    const auto caught = [&](const char* what, auto corrupt) {
      Answer bad = good;
      corrupt(bad);
      EXPECT_NE(check_certificate(c, bad), std::nullopt) << what;
    };
    caught("squared distance", [](Answer& r) { r.squared_distance += mpq_class(1, 1000); });
    caught("witness", [](Answer& r) { r.witness_a[1] += 1; });
    caught("weights not summing to 1", [](Answer& r) { r.certificate.weights_a[0].weight *= 2; });
    caught("index out of range", [](Answer& r) { r.certificate.weights_b[0].index = 999; });
    caught("zero weight", [](Answer& r) { r.certificate.weights_a.push_back({0, 0}); });
    caught("no weights", [](Answer& r) { r.certificate.weights_b.clear(); });
    caught("invalid-input verdict", [](Answer& r) { r.verdict = Verdict::InvalidInput; });
    if (good.verdict == Verdict::Separated) {
      ++separated;
      caught("separated called touching", [](Answer& r) { r.verdict = Verdict::Touching; });
      // Every other single vertex of A as the closest point (witnesses consistent): the plane test must refute it.
      for (std::size_t k = 0; k < c.a.points.size(); ++k) {
        Answer other = good;
        other.certificate.weights_a = {{k, 1}};
        for (int i = 0; i < 3; ++i) other.witness_a[i] = c.a.points[k][i];
        ExactPoint v;
        for (int i = 0; i < 3; ++i) v[i] = other.witness_a[i] - other.witness_b[i];
        other.squared_distance = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        if (other.squared_distance != good.squared_distance) {
          EXPECT_NE(check_certificate(c, other), std::nullopt) << "a farther vertex " << k;
        }
      }
    }
    if (good.verdict == Verdict::Touching) {
      ++touching;
      caught("touching called overlapping", [](Answer& r) { r.verdict = Verdict::Overlapping; });
      caught("touching called separated", [](Answer& r) { r.verdict = Verdict::Separated; });
      caught("no plane", [](Answer& r) { r.certificate.normal.reset(); });
      caught("zero normal", [](Answer& r) { r.certificate.normal = ExactPoint{0, 0, 0}; });
      if (good.affine_dimension == c.dim)  // a flat A⊖B lies in planes both ways
        caught("reversed normal", [](Answer& r) {
          for (auto& x : *r.certificate.normal) x = -x;
        });
    }
    if (good.verdict == Verdict::Overlapping) {
      ++overlapping;
      caught("overlapping called touching", [](Answer& r) { r.verdict = Verdict::Touching; });
      caught("overlapping on too few points", [](Answer& r) {
        r.certificate.weights_a.resize(1);
        r.certificate.weights_a[0].weight = 1;
      });
    }
  }
  EXPECT_GE(separated, 3);
  EXPECT_GE(touching, 4);
  EXPECT_GE(overlapping, 3);
}

// The fast path certifies generic cases itself (hit rate): random real points, n = 4..16 per shape, half of them
// overlapping. Lattice families, with many ties, are measured by the family tests (printed).
TEST(FastOracle, CertifiesGenericCasesWithoutTheHull) {
  std::mt19937_64 rng(seed_or(501));
  std::uniform_real_distribution<double> unit(-1, 1);
  std::uniform_int_distribution<int> count(4, 16);
  const int cases = std::min(cases_per_family(), 2000);  // 200 in the ASan preset
  int certified = 0;
  for (int t = 0; t < cases; ++t) {
    const int dim = 2 + t % 2;
    Case c = make(dim, {}, {});
    const double shift = unit(rng) * 1.5;
    for (auto* s : {&c.a, &c.b})
      for (int k = count(rng); k > 0; --k)
        s->points.push_back({unit(rng) + (s == &c.b ? shift : 0), unit(rng), dim == 3 ? unit(rng) : 0});
    const Answer f = fast_oracle(c), h = hull_oracle(c);
    ASSERT_EQ(f.verdict, h.verdict) << casefile::write(c);
    ASSERT_EQ(f.squared_distance, h.squared_distance) << casefile::write(c);
    ASSERT_EQ(f.feature, h.feature) << casefile::write(c);
    if (f.method == Method::Certified) ++certified;
  }
  std::printf("fast path: %d of %d generic cases certified without the hull\n", certified, cases);
  EXPECT_GE(certified, cases * 99 / 100);
}

TEST(FastOracle, HandComputedFeatures) {
  for (const Case& c : certificate_cases()) {
    const Answer f = fast_oracle(c), h = hull_oracle(c);
    EXPECT_EQ(f.verdict, h.verdict) << casefile::write(c);
    EXPECT_EQ(f.squared_distance, h.squared_distance) << casefile::write(c);
    EXPECT_EQ(f.feature, h.feature) << casefile::write(c);
    EXPECT_EQ(f.affine_dimension, h.affine_dimension) << casefile::write(c);
  }
}

// The feature beyond the answer's own simplex, and beyond the hull's reach (kHullReachPairs). Two columns of points on
// parallel lines, B = A moved 1 along x: the distance is 1 between A's right column and B's left one, an edge of A⊖B,
// while the certified simplex is one vertex pair at the same height (a vertex of that edge). The feature is then found
// by the hull method on the exposed face (A's right column against B's left one), not on the whole case. With 300
// points a column, the exposed face has 90,000 pairs and the whole case 360,000: still found. With 600, the exposed
// face has 360,000 pairs: the certified answer is returned with the feature not computed, proven all the same.
Case columns(int per_column) {
  Case c = make(2, {}, {});
  for (int k = 0; k < per_column; ++k) {
    const double y = static_cast<double>(k) / (per_column - 1);
    c.a.points.push_back({0, y, 0});
    c.a.points.push_back({1, y, 0});
    c.b.points.push_back({2, y, 0});
    c.b.points.push_back({3, y, 0});
  }
  return c;
}

TEST(FastOracle, AnswersBeyondTheHullsReach) {
  const Case small = columns(4), large = columns(300), huge = columns(600);
  const Answer near = fast_oracle(small);
  EXPECT_EQ(near.method, Method::Certified);
  EXPECT_EQ(near.squared_distance, 1);
  EXPECT_EQ(near.feature, Feature::Edge);
  EXPECT_EQ(near.feature, hull_oracle(small).feature);
  ASSERT_GT(double(large.a.points.size()) * double(large.b.points.size()), kHullReachPairs);
  const Answer far = fast_oracle(large);
  EXPECT_EQ(far.method, Method::Certified);
  EXPECT_EQ(far.feature, Feature::Edge);
  EXPECT_EQ(far.squared_distance, 1);
  ASSERT_GT(600.0 * 600.0, kHullReachPairs);
  const Answer farther = fast_oracle(huge);
  EXPECT_EQ(farther.method, Method::Certified);
  EXPECT_EQ(farther.verdict, Verdict::Separated);
  EXPECT_EQ(farther.squared_distance, 1);
  EXPECT_EQ(farther.distance, 1.0);
  EXPECT_EQ(farther.feature, Feature::None);
  EXPECT_EQ(farther.affine_dimension, 2);
  EXPECT_FALSE(check_certificate(huge, farther));
}

TEST(FastOracle, CrossCheckRunsTheSecondMethod) {
  const Case c = make(3, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{0, 0, 0}});
  Answer f = fast_oracle(c);
  EXPECT_EQ(cross_check(c, f).method, Method::Qp);
  f.squared_distance += 1;  // a wrong answer
  EXPECT_THROW(cross_check(c, f), DisagreementError);
}

// ---- Touching penetration depth (docs/oracle.md, "Penetration depth"): a touching verdict is proven, not taken.

const std::vector<std::array<double, 3>> kCube = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0},
                                                  {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};

bool lists_direction(const std::vector<DepthFacet>& facets, const ExactPoint& n) {
  return std::any_of(facets.begin(), facets.end(), [&](const DepthFacet& f) {
    const mpq_class d = f.normal[0] * n[0] + f.normal[1] * n[1] + f.normal[2] * n[2];
    return f.normal[1] * n[2] == f.normal[2] * n[1] && f.normal[2] * n[0] == f.normal[0] * n[2] &&
           f.normal[0] * n[1] == f.normal[1] * n[0] && d > 0;
  });
}

// The centre of the unit cube against the cube: overlapping, PD = 1/2. Called touching, it is refused: by the hull
// method (no facet of D passes through the origin), by the support method (no supporting plane through it), and by
// the certificate check when the forged penetration is handed to it — with the surface (the least offset is not 0)
// and without (D is not flat).
TEST(TouchingDepth, AForgedVerdictOnAnInteriorOriginIsRefused) {
  const Case c = make(3, kCube, {{0.5, 0.5, 0.5}});
  const Answer truth = hull_oracle(c);
  ASSERT_EQ(truth.verdict, Verdict::Overlapping);
  Answer forged = truth;
  forged.verdict = Verdict::Touching;
  EXPECT_THROW(penetration_oracle(c, forged), CertificateError);
  EXPECT_THROW(penetration_by_support(c, forged), std::logic_error);
  const Penetration p = penetration_oracle(c, truth);
  ASSERT_EQ(p.squared_depth, mpq_class(1, 4));
  Penetration touching = p;
  touching.verdict = Verdict::Touching;
  touching.squared_depth = 0;
  touching.depth = 0;
  touching.optimal.clear();
  EXPECT_NE(check_penetration_certificate(c, touching), std::nullopt) << "every offset positive";
  touching.surface.clear();
  // With weights that do put the origin in D (the distance answer's), so that only D's dimension refuses it.
  touching.origin_a = truth.certificate.weights_a;
  touching.origin_b = truth.certificate.weights_b;
  EXPECT_NE(check_penetration_certificate(c, touching), std::nullopt) << "no surface, D full-dimensional";
}

// A flat D that does not hold the origin (a triangle in z = 0, B beside it): a touching claim needs the origin in D.
// Neither an empty surface nor a "pillow" (D's triangle and its reverse: closed, each plane supporting D and through
// the origin) proves it.
TEST(TouchingDepth, AFlatDifferenceNeedsTheOriginInIt) {
  const Case c = make(3, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{5, 5, 0}});
  ASSERT_EQ(hull_oracle(c).verdict, Verdict::Separated);
  Penetration forged;
  forged.verdict = Verdict::Touching;
  EXPECT_NE(check_penetration_certificate(c, forged), std::nullopt) << "an empty surface";
  // Weights that are well formed but do not put the origin in D: a vertex of A against B's point.
  forged.origin_a = {Weight{1, 1}};
  forged.origin_b = {Weight{0, 1}};
  const auto not_in_d = check_penetration_certificate(c, forged);
  ASSERT_NE(not_in_d, std::nullopt) << "weights that miss the origin";
  EXPECT_NE(not_in_d->find("do not put the origin in A⊖B"), std::string::npos) << *not_in_d;
  forged.origin_a.clear();
  forged.origin_b.clear();
  forged.surface = {{PointPair{0, 0}, PointPair{1, 0}, PointPair{2, 0}}, {PointPair{0, 0}, PointPair{2, 0}, PointPair{1, 0}}};
  for (int s : {1, -1}) {
    DepthFacet f;
    f.normal = {0, 0, s};
    f.offset = 0;
    f.on_a = {0, 1, 2};
    f.on_b = {0};
    forged.optimal.push_back(f);
  }
  EXPECT_NE(check_penetration_certificate(c, forged), std::nullopt) << "a pillow over a flat D";
}

// The unit cube and a cube at its corner (1, 1, 1): touching at a vertex of D, whose normal cone has three generators.
// A certificate that drops one is refused (the cone listed must be every facet through the origin), and so is the
// cross-check of such an answer.
TEST(TouchingDepth, EveryConeGeneratorIsRequired) {
  std::vector<std::array<double, 3>> corner = kCube;
  for (auto& p : corner)
    for (double& x : p) x += 1;
  const Case c = make(3, kCube, corner);
  const Answer truth = hull_oracle(c);
  ASSERT_EQ(truth.verdict, Verdict::Touching);
  const Penetration p = penetration_oracle(c, truth);
  ASSERT_EQ(p.optimal.size(), 3u);
  EXPECT_NO_THROW(cross_check_penetration(c, truth, p));
  Penetration dropped = p;
  dropped.optimal.pop_back();
  EXPECT_NE(check_penetration_certificate(c, dropped), std::nullopt);
  EXPECT_THROW(cross_check_penetration(c, truth, dropped), DisagreementError);
}

// Flat D, where the hull method lists no cone (every normal of D's affine hull qualifies) and the support method
// lists D's hyperplane normals when D spans a hyperplane, none when it spans less: the cross-check compares them.
TEST(TouchingDepth, MethodsCompareWhatTheyClaimOnAFlatDifference) {
  const std::vector<std::array<double, 3>> square = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  const Case plane = make(3, square, {{0.5, 0.5, 0}});  // D a square in z = 0
  const Answer truth = hull_oracle(plane);
  ASSERT_EQ(truth.verdict, Verdict::Touching);
  const Penetration hull = penetration_oracle(plane, truth);
  EXPECT_TRUE(hull.optimal.empty());
  EXPECT_TRUE(hull.surface.empty());
  const Penetration support = cross_check_penetration(plane, truth, hull);
  ASSERT_EQ(support.optimal.size(), 2u);
  EXPECT_TRUE(lists_direction(support.optimal, {0, 0, 1}));
  EXPECT_TRUE(lists_direction(support.optimal, {0, 0, -1}));
  const Case line = make(3, {{0, 0, 0}, {1, 0, 0}}, {{0.5, 0, 0}});  // D a segment on the x axis
  const Answer on_line = hull_oracle(line);
  EXPECT_TRUE(cross_check_penetration(line, on_line, penetration_oracle(line, on_line)).optimal.empty());
  const Case segment = make(2, {{0, 0, 0}, {1, 0, 0}}, {{0.5, 0, 0}});  // 2D: D a segment spans a line
  const Answer on_segment = hull_oracle(segment);
  EXPECT_EQ(cross_check_penetration(segment, on_segment, penetration_oracle(segment, on_segment)).optimal.size(), 2u);
  // A hull answer that lists a cone on a flat D is not what the hull method claims: refused by its check.
  Penetration listed = hull;
  listed.optimal = support.optimal;
  EXPECT_NE(check_penetration_certificate(plane, listed), std::nullopt);
}

// ---- The third 2D method, CGAL::minkowski_sum_2 on Simple_cartesian<Gmpq> (docs/oracle.md).

TEST(MinkowskiSum, HandComputed) {
  const std::vector<std::array<double, 3>> square = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  const auto shifted = [&](double dx, double dy) {
    auto s = square;
    for (auto& p : s) p[0] += dx, p[1] += dy;
    return s;
  };
  auto r = minkowski_sum_oracle(make(2, square, shifted(3, 4)));  // corner (1, 1) to corner (3, 4): 2² + 3²
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->verdict, Verdict::Separated);
  EXPECT_EQ(r->squared_distance, 13);
  EXPECT_EQ(minkowski_sum_oracle(make(2, square, shifted(1, 0.5)))->verdict, Verdict::Touching);
  EXPECT_EQ(minkowski_sum_oracle(make(2, square, shifted(0.5, 0.5)))->verdict, Verdict::Overlapping);
  // Not applicable: a 3D case, a segment.
  EXPECT_FALSE(minkowski_sum_oracle(make(3, square, shifted(3, 4))).has_value());
  EXPECT_FALSE(minkowski_sum_oracle(make(2, {{0, 0, 0}, {1, 0, 0}}, shifted(3, 4))).has_value());
}

// The input on which minkowski_sum_2 with Epeck fails an assertion (CgalDefects.MinkowskiSum2WithEpeckFailsAnAssertion):
// method 3 on Simple_cartesian<Gmpq> answers it, and agrees with methods 1 and 2.
TEST(MinkowskiSum, EpeckAssertionInputIsRight) {
  const Case c = make(2,
                      {{-0x1.734e940c6f9c6p+717, 0x0.012688b70e62bp-1022, 0},
                       {0, 0x0.03739a252b281p-1022, 0},
                       {0x1.167aef0953b54p+719, 0, 0}},
                      {{-0x1.167aef0953b54p+719, 0x0.024d116e1cc56p-1022, 0},
                       {-0x0.024d116e1cc56p-1022, -0x1.167aef0953b54p+719, 0},
                       {0, 1, 0}});
  const auto sum = minkowski_sum_oracle(c);
  ASSERT_TRUE(sum.has_value());
  const Answer h = hull_oracle(c), q = qp_oracle(c);
  EXPECT_EQ(sum->verdict, h.verdict);
  EXPECT_EQ(sum->squared_distance, h.squared_distance);
  EXPECT_EQ(q.verdict, h.verdict);
  EXPECT_EQ(q.squared_distance, h.squared_distance);
  std::printf("Epeck's failing input: %s, d^2 = %s\n", to_string(h.verdict), h.squared_distance.get_str().c_str());
}

// Coordinates mixing 2^±700-scale and subnormal values (the range on which minkowski_sum_2 with Epeck failed an
// assertion; docs/oracle.md): triangles whose vertices mix the two scales. The three methods must agree exactly.
TEST(MinkowskiSum, AgreesOnMixedHugeAndSubnormalCoordinates) {
  const std::uint64_t seed = seed_or(601);
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> small(-3, 3), pick(0, 2);
  const auto coordinate = [&] {
    const int k = small(rng);
    const int scale = pick(rng);
    return scale == 0 ? std::ldexp(k, 700) : scale == 1 ? std::ldexp(k, -1070) : static_cast<double>(k);
  };
  int compared = 0;
  for (int t = 0; t < 500; ++t) {
    Case c = make(2, {}, {});
    for (auto* s : {&c.a, &c.b})
      for (int k = 0; k < 3; ++k) s->points.push_back({coordinate(), coordinate(), 0});
    const auto sum = minkowski_sum_oracle(c);
    if (!sum) continue;
    const Answer h = hull_oracle(c), q = qp_oracle(c);
    ASSERT_EQ(sum->verdict, h.verdict) << "seed " << seed << " " << casefile::write(c);
    ASSERT_EQ(sum->squared_distance, h.squared_distance) << "seed " << seed << " " << casefile::write(c);
    ASSERT_EQ(q.verdict, h.verdict) << "seed " << seed << " " << casefile::write(c);
    ASSERT_EQ(q.squared_distance, h.squared_distance) << "seed " << seed << " " << casefile::write(c);
    ++compared;
  }
  std::printf("seed %llu: %d mixed-scale triangle pairs compared\n", static_cast<unsigned long long>(seed), compared);
  EXPECT_GT(compared, 100);
}

// ---- The time bound (docs/oracle.md): a call that spins past the limit in CPU time is reported with its case and
// aborts the process; a call that finished, or that waits without using CPU time, is never reported.

// Spins (uses CPU time) for at most `seconds` of wall time.
void spin_for(double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  volatile unsigned long long sink = 0;
  while (std::chrono::steady_clock::now() < end) sink = sink + 1;
}

TEST(TimeLimitDeathTest, AHangIsReportedWithItsCase) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const Case c = make(3, {{1, 0, 0}}, {{0, 0, 0}});
  const std::filesystem::path dir = ::testing::TempDir() + "gjkref-time-limit";
  std::filesystem::remove_all(dir);
  EXPECT_DEATH(
      {
        setenv("GJKREF_FAILURE_DIR", dir.c_str(), 1);
        set_time_limit(0.05);
        const TimeLimit bound(c, "held");
        spin_for(60);
      },
      "held exceeded its time limit of 0.05 s of CPU time on case 'test' \\(3D, 1 \\+ 1 points; saved to .*"
      "oracle-timeout-held-[0-9a-f]{16}.json");
  // Saved under a name of its own: the method and a hash of the case's text.
  std::vector<std::filesystem::path> saved_files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) saved_files.push_back(entry.path());
  ASSERT_EQ(saved_files.size(), 1u);
  EXPECT_EQ(saved_files[0].filename().string().rfind("oracle-timeout-held-", 0), 0u);
  const auto saved = casefile::read_file(saved_files[0].string());
  ASSERT_FALSE(saved.error) << saved.error->message();
  EXPECT_EQ(casefile::write(saved.cases[0]), casefile::write(c));
}

// Two hangs on two cases are saved under two names (once, every timeout overwrote one file). The "fast" style: the
// child is forked at each death test, so the directory the first one filled is not emptied by the second's child (the
// "threadsafe" style runs the test again from its start); the watchdog is fork-safe (AForkedChildHasItsOwnWatchdog).
TEST(TimeLimitDeathTest, TwoHangsAreSavedUnderTwoNames) {
  GTEST_FLAG_SET(death_test_style, "fast");
  const std::filesystem::path dir = ::testing::TempDir() + "gjkref-two-hangs";
  std::filesystem::remove_all(dir);
  setenv("GJKREF_FAILURE_DIR", dir.c_str(), 1);
  for (const double x : {1.0, 2.0}) {
    const Case c = make(3, {{x, 0, 0}}, {{0, 0, 0}});
    EXPECT_DEATH(
        {
          set_time_limit(0.05);
          const TimeLimit bound(c, "held");
          spin_for(60);
        },
        "held exceeded its time limit");
  }
  unsetenv("GJKREF_FAILURE_DIR");
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 2u);
}

// Without GJKREF_FAILURE_DIR, nothing is written anywhere (the working directory included); the message says so.
TEST(TimeLimitDeathTest, NothingIsSavedUnlessAskedWhere) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const Case c = make(3, {{1, 0, 0}}, {{0, 0, 0}});
  const std::filesystem::path dir = ::testing::TempDir() + "gjkref-time-limit-cwd";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  EXPECT_DEATH(
      {
        unsetenv("GJKREF_FAILURE_DIR");
        std::filesystem::current_path(dir);
        set_time_limit(0.05);
        const TimeLimit bound(c, "held");
        spin_for(60);
      },
      "not saved: set GJKREF_FAILURE_DIR to keep it");
  EXPECT_TRUE(std::filesystem::is_empty(dir));
}

// With an action set, the action runs and the process ends with kTimeLimitExitStatus, the status a supervising
// process (gjkref check, gjkref eval) reads as "this case passed the oracle's time limit".
void say_which_case(const Case& c, const char* method, double limit) {
  std::fprintf(stderr, "action: %s on '%s' after %g s\n", method, c.name.c_str(), limit);
}

TEST(TimeLimitDeathTest, AnActionRecordsTheCaseAndTheProcessEndsWithItsStatus) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const Case c = make(3, {{1, 0, 0}}, {{0, 0, 0}});
  EXPECT_EXIT(
      {
        on_time_limit(say_which_case);
        set_time_limit(0.05);
        const TimeLimit bound(c, "held");
        spin_for(60);
      },
      ::testing::ExitedWithCode(kTimeLimitExitStatus), "action: held on 'test' after 0.05 s");
}

// Threads do not survive fork(): a child of a process whose watchdog already runs must start its own, or its calls
// would never be bounded (gjkref check's shards and eval's per-case processes are such children).
// Runs `child` in a forked process with say_which_case as the time limit's action, and expects that process to end
// with kTimeLimitExitStatus: `child` spins under a limit it must be held to (it exits 0 if not).
void expect_bounded_in_a_child(const std::function<void()>& child) {
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    on_time_limit(say_which_case);
    child();
    std::_Exit(0);  // not bounded: the test fails below
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), kTimeLimitExitStatus);
}

TEST(TimeLimit, AForkedChildHasItsOwnWatchdog) {
  const Case c = make(3, {{1, 0, 0}}, {{0, 0, 0}});
  {
    const TimeLimit started(c, "parent");  // the parent's watchdog thread is running from here on
  }
  expect_bounded_in_a_child([&] {
    set_time_limit(0.05);
    const TimeLimit bound(c, "child");
    spin_for(10);
  });
}

// An idle watchdog sleeps for one limit, and a call armed then is not woken for (time_limit.cpp: waking it on every
// call cost the property campaigns a system call per oracle call). A call armed under a lower limit than the one the
// watchdog fell asleep with must wake it, or it would run on unbounded until that sleep ends.
TEST(TimeLimit, ALowerLimitWakesTheSleepingWatchdog) {
  const Case c = make(3, {{1, 0, 0}}, {{0, 0, 0}});
  expect_bounded_in_a_child([&] {
    set_time_limit(kDefaultOracleTimeLimitSeconds);
    {
      const TimeLimit idle(c, "idle");  // the watchdog, started here, then sleeps for about 60 s
      std::this_thread::sleep_for(std::chrono::milliseconds(300));  // long enough for it to have started and slept
    }
    set_time_limit(0.05);
    const TimeLimit bound(c, "lowered");
    spin_for(10);
  });
}

TEST(TimeLimit, FinishedCallsAreNeverReported) {
  const Case c = make(3, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{0, 0, 0}});
  set_time_limit(0.05);
  for (int k = 0; k < 100; ++k) {
    EXPECT_EQ(hull_oracle(c).verdict, Verdict::Separated);
    EXPECT_EQ(qp_oracle(c).verdict, Verdict::Separated);
  }
  spin_for(0.3);  // past every limit: an armed call would abort
  set_time_limit(kDefaultOracleTimeLimitSeconds);
  EXPECT_EQ(time_limit(), kDefaultOracleTimeLimitSeconds);
}

// The limit counts the calling thread's CPU time, not the wall clock: a call whose process is paused, starved or
// frozen is not a hang. A property campaign, paused or frozen, was once aborted with a case that takes 0.15 s
// (oracle-timeout-hull.json, 'near/apart'). Here the call waits 20 times its limit without using CPU time, while
// another thread spins: only the armed thread's time counts.
TEST(TimeLimit, WaitingIsNotAHang) {
  const Case c = make(3, {{1, 0, 0}}, {{0, 0, 0}});
  set_time_limit(0.05);
  {
    const TimeLimit bound(c, "waiting");
    std::thread other([] { spin_for(1.0); });
    std::this_thread::sleep_for(std::chrono::seconds(1));
    other.join();
  }
  set_time_limit(kDefaultOracleTimeLimitSeconds);
  SUCCEED() << "not aborted";
}

TEST(QpOracle, AgreesWithTheHullOracle3d) { oracles_agree(3, seed_or(201), 600, 3); }
TEST(QpOracle, AgreesWithTheHullOracle2d) { oracles_agree(2, seed_or(202), 1000, 3); }

TEST(HullOracle, AgreesWithTheExactReference3d) { agrees_with_exact_reference<Vec3<Exact>>(3, seed_or(101), 600); }
TEST(HullOracle, AgreesWithTheExactReference2d) { agrees_with_exact_reference<Vec2<Exact>>(2, seed_or(102), 1500); }

}  // namespace
}  // namespace gjkref::oracle
