// The certified mode (gjkref/certified.hpp) on hand cases whose exact answers follow from the geometry: unit squares
// and cubes placed apart, touching on a vertex, an edge or a face, and overlapping; a gap far inside the double core's
// touching band; a difference that overflows double; a double core stopped before it answers. The property suite
// holds the mode equal to the oracle on every family (FamilyProperties.*, proptests).
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "gjkref/certified.hpp"
#include "test_support.hpp"

namespace gjkref {
namespace {

using V2 = Vec2<double>;
using V3 = Vec3<double>;

ConvexPoints<V2> square(double x, double y, double side = 1) {
  return ConvexPoints<V2>({{x, y}, {x + side, y}, {x, y + side}, {x + side, y + side}});
}

ConvexPoints<V3> cube(double x, double y, double z) {
  std::vector<V3> p;
  for (int i = 0; i < 8; ++i) p.push_back({x + (i & 1), y + ((i >> 1) & 1), z + ((i >> 2) & 1)});
  return ConvexPoints<V3>(std::move(p));
}

// max over A⊖B of u·x, exactly, by every vertex pair.
template <Vector V>
Exact highest_along(const ConvexPoints<V>& a, const ConvexPoints<V>& b, const exact_vector_t<V>& u) {
  std::optional<Exact> best;
  for (const V& p : a.points())
    for (const V& q : b.points()) {
      const Exact value = dot(u, exact_vector_t<V>(convert<Exact>(p) - convert<Exact>(q)));
      if (!best || *best < value) best = value;
    }
  return *best;
}

struct Expected {
  ContactClass contact_class;
  Exact squared_distance;
};

// The three output levels give one answer: the class and the distance at every level, the rounded witnesses from
// CertifiedOutput::Witnesses on (each coordinate the correct rounding of the exact witness), and the rational side with
// WithExact only. (The path may differ: a witness coordinate the filters cannot round — one that is exactly 0, say —
// sends the answer to rationals at the levels that ask for witnesses.)
template <Vector V>
CertifiedResult<V> answer_at_every_level(const ConvexPoints<V>& a, const ConvexPoints<V>& b,
                                         const Options<V>& options = {}) {
  const CertifiedResult<V> bare = certified_distance(a, b, options, CertifiedOutput::Distance);
  const CertifiedResult<V> rounded = certified_distance(a, b, options, CertifiedOutput::Witnesses);
  const CertifiedResult<V> full = certified_distance(a, b, options, CertifiedOutput::WithExact);
  for (const CertifiedResult<V>* r : {&bare, &rounded}) {
    EXPECT_EQ(r->contact_class, full.contact_class);
    EXPECT_EQ(r->status, full.status);
    EXPECT_EQ(r->distance, full.distance);
    EXPECT_FALSE(r->exact);
  }
  EXPECT_FALSE(bare.witness_a || bare.witness_b);
  if (full.status == Status::InvalidInput) return full;
  EXPECT_TRUE(full.exact);
  EXPECT_TRUE(rounded.witness_a && rounded.witness_b && full.witness_a && full.witness_b);
  if (!(full.exact && rounded.witness_a && rounded.witness_b && full.witness_a && full.witness_b)) return full;
  for (int i = 0; i < V::dimension; ++i) {
    EXPECT_EQ((*rounded.witness_a)[i], round_to_double(full.exact->witness_a[i]));
    EXPECT_EQ((*rounded.witness_b)[i], round_to_double(full.exact->witness_b[i]));
    EXPECT_EQ((*full.witness_a)[i], (*rounded.witness_a)[i]);
    EXPECT_EQ((*full.witness_b)[i], (*rounded.witness_b)[i]);
  }
  return full;
}

template <Vector V>
void expect_answer(const ConvexPoints<V>& a, const ConvexPoints<V>& b, const Expected& e, const char* what) {
  for (bool swapped : {false, true}) {
    SCOPED_TRACE(std::string(what) + (swapped ? " (B, A)" : " (A, B)"));
    const CertifiedResult<V> r = swapped ? answer_at_every_level(b, a) : answer_at_every_level(a, b);
    ASSERT_TRUE(r.exact);
    EXPECT_EQ(r.contact_class, e.contact_class);
    EXPECT_EQ(r.exact->squared_distance, e.squared_distance);
    EXPECT_EQ(r.distance, correctly_rounded_sqrt(e.squared_distance));
    EXPECT_EQ(r.status, e.contact_class == ContactClass::Separated ? Status::Separated : Status::Intersecting);
    const auto gap = r.exact->witness_a - r.exact->witness_b;
    EXPECT_EQ(dot(gap, gap), e.squared_distance);
    EXPECT_EQ(r.touching_normal.has_value(), e.contact_class == ContactClass::Touching);
    if (r.touching_normal) {
      EXPECT_FALSE(is_zero(*r.touching_normal));
      EXPECT_EQ(swapped ? highest_along(b, a, *r.touching_normal) : highest_along(a, b, *r.touching_normal), 0);
    }
  }
}

TEST(Certified, UnitSquaresInEveryClass) {
  expect_answer(square(0, 0), square(3, 0.25), {ContactClass::Separated, 4}, "2 apart");
  expect_answer(square(0, 0), square(2, 2), {ContactClass::Separated, 2}, "corner to corner");
  expect_answer(square(0, 0), square(1, 0.5), {ContactClass::Touching, 0}, "edge on edge");
  expect_answer(square(0, 0), square(1, 1), {ContactClass::Touching, 0}, "vertex on vertex");
  expect_answer(square(0, 0), square(1, -1), {ContactClass::Touching, 0}, "vertex on vertex, below");
  expect_answer(square(0, 0), square(0.5, 0.25), {ContactClass::Overlapping, 0}, "overlapping");
  expect_answer(square(0, 0), square(0, 0), {ContactClass::Overlapping, 0}, "the same square");
  expect_answer(square(0, 0), ConvexPoints<V2>({{1, 0.5}}), {ContactClass::Touching, 0}, "a point on an edge");
  expect_answer(square(0, 0), ConvexPoints<V2>({{0.5, 0.5}}), {ContactClass::Overlapping, 0}, "a point inside");
  // A⊖B flat (two segments on one line, overlapping): the origin is on its boundary, whatever the overlap.
  expect_answer(ConvexPoints<V2>({{0, 0}, {2, 0}}), ConvexPoints<V2>({{1, 0}, {3, 0}}), {ContactClass::Touching, 0},
                "collinear segments");
}

TEST(Certified, UnitCubesInEveryClass) {
  expect_answer(cube(0, 0, 0), cube(3, 0.25, 0.5), {ContactClass::Separated, 4}, "2 apart");
  expect_answer(cube(0, 0, 0), cube(2, 2, 2), {ContactClass::Separated, 3}, "corner to corner");
  expect_answer(cube(0, 0, 0), cube(1, 0.25, 0.5), {ContactClass::Touching, 0}, "face on face");
  expect_answer(cube(0, 0, 0), cube(1, 1, 0.5), {ContactClass::Touching, 0}, "edge on edge");
  expect_answer(cube(0, 0, 0), cube(1, 1, 1), {ContactClass::Touching, 0}, "vertex on vertex");
  expect_answer(cube(0, 0, 0), cube(0.5, 0.25, 0.75), {ContactClass::Overlapping, 0}, "overlapping");
  expect_answer(cube(0, 0, 0), ConvexPoints<V3>({{1, 1, 0.5}}), {ContactClass::Touching, 0}, "a point on an edge");
  // Two triangles crossing in one plane: A⊖B is flat, so touching although the triangles overlap.
  expect_answer(ConvexPoints<V3>({{0, 0, 0}, {2, 0, 0}, {0, 2, 0}}), ConvexPoints<V3>({{1, 1, 0}, {-1, 1, 0}, {1, -1, 0}}),
                {ContactClass::Touching, 0}, "coplanar triangles");
}

// A gap of 2^−52 between unit squares is far inside the double core's touching band (64·ε of the shapes' size): the
// double core answers intersecting. Its simplex's exact closest point proves the separation all the same.
TEST(Certified, AGapInsideTheTouchingBandIsSeparated) {
  const double gap = std::ldexp(1.0, -52);
  const ConvexPoints<V2> a = square(0, 0), b = square(1 + gap, 0.5);
  EXPECT_EQ(distance(a, b).status, Status::Intersecting);
  const CertifiedResult<V2> r = answer_at_every_level(a, b);
  EXPECT_EQ(r.contact_class, ContactClass::Separated);
  EXPECT_EQ(r.exact->squared_distance, Exact(gap) * Exact(gap));
  EXPECT_EQ(r.distance, gap);
}

// The double core capped at 0 iterations answers IterationLimit; the exact core finishes, within its cap, with the
// same answer as the certified double core.
TEST(Certified, ExactFinishAnswersWithinTheCap) {
  Options<V3> capped;
  capped.max_iterations = 0;
  for (const auto& [a, b] : std::vector<std::pair<ConvexPoints<V3>, ConvexPoints<V3>>>{
           {cube(0, 0, 0), cube(3, 0.25, 0.5)}, {cube(0, 0, 0), cube(1, 1, 0.5)}, {cube(0, 0, 0), cube(0.5, 0.5, 0.5)}}) {
    const CertifiedResult<V3> cold = answer_at_every_level(a, b), finished = answer_at_every_level(a, b, capped);
    EXPECT_NE(cold.path, CertifiedPath::ExactFinish);
    EXPECT_EQ(finished.path, CertifiedPath::ExactFinish);
    EXPECT_GT(finished.exact_iterations, 0);
    EXPECT_LT(finished.exact_iterations, kExactFinishMaxIterations);
    EXPECT_EQ(finished.contact_class, cold.contact_class);
    EXPECT_EQ(finished.exact->squared_distance, cold.exact->squared_distance);
    EXPECT_EQ(finished.distance, cold.distance);
  }
}

// A difference a − b beyond double's range stops the double core (DifferenceOverflow); the exact core answers. A lies on
// y = 0 from x = 0 to 1.5·2^1023, B on y = 1 from x = −1.5·2^1023 to 0: distance 1.
TEST(Certified, OverflowingDifferencesAreAnsweredExactly) {
  const double far = std::ldexp(1.5, 1023);
  const ConvexPoints<V2> a({{far, 0}, {0, 0}}), b({{-far, 1}, {0, 1}});
  EXPECT_EQ(distance(a, b).input_error, InputError::DifferenceOverflow);
  const CertifiedResult<V2> r = answer_at_every_level(a, b);
  EXPECT_EQ(r.path, CertifiedPath::ExactFinish);
  EXPECT_EQ(r.contact_class, ContactClass::Separated);
  EXPECT_EQ(r.exact->squared_distance, 1);
  EXPECT_EQ(r.distance, 1.0);
}

// The certificate is load-bearing: step 2 refutes a simplex that is not the answer, whoever proposes it. Squares 2 apart
// along x: the nearest pairs are A's right edge (vertices 1, 3) against B's left edge (vertices 0, 2).
TEST(Certified, TheCertificateRefutesAWrongSimplex) {
  const ConvexPoints<V2> a = square(0, 0), b = square(3, 0.25);
  EXPECT_TRUE(detail::certify_pairs(a, b, {{1, 0}, {3, 0}}));                   // A's right edge to B's corner
  EXPECT_FALSE(detail::certify_pairs(a, b, {{0, 0}}));                          // A's far corner
  EXPECT_FALSE(detail::certify_pairs(a, b, {{1, 1}, {3, 3}}));                  // B's far edge
  EXPECT_FALSE(detail::certify_pairs(a, b, {{0, 0}, {1, 0}, {9, 0}}));          // an index out of range
  // Overlapping squares: a triangle of differences holding the origin proves intersection; one that misses it does not.
  const ConvexPoints<V2> c = square(0.5, 0.25);
  const auto inside = detail::certify_pairs(a, c, {{0, 3}, {1, 0}, {3, 0}});
  ASSERT_TRUE(inside);
  EXPECT_EQ(inside->contact_class, ContactClass::Overlapping);
  EXPECT_FALSE(detail::certify_pairs(a, c, {{1, 0}, {3, 0}, {3, 2}}));
}

// Step 2a (the filters) on a Result built by hand: a simplex that is not the answer is never proven, whichever of its
// conditions fails — a vertex that is not the nearest (the pass over A finds a vertex beyond it), an edge whose
// projection of the origin lies outside it (a weight is negative); the true feature is proven. A is the triangle
// (0, 0), (2, 0), (0, 2), B the point (3, 3): the nearest feature is A's edge from (2, 0) to (0, 2).
template <Vector V>
Result<V> claimed(const ConvexPoints<V>& a, const ConvexPoints<V>& b,
                  const std::vector<std::pair<std::size_t, std::size_t>>& pairs, Status status, StopRule rule) {
  Result<V> r;
  r.status = status;
  r.stop_rule = rule;
  for (const auto& [ia, ib] : pairs) {
    const V pa = a.vertex(ia), pb = b.vertex(ib);
    r.simplex.points[r.simplex.size] = {pa - pb, pa, pb, ia, ib};
    r.simplex.weights[r.simplex.size++] = 1.0 / static_cast<double>(pairs.size());
  }
  return r;
}

TEST(CertifiedFilters, AWrongSimplexIsNotProven) {
  const ConvexPoints<V2> a({{0, 0}, {2, 0}, {0, 2}}), b({{3, 3}});
  const auto proven = [&](std::vector<std::pair<std::size_t, std::size_t>> pairs) {
    return detail::certify_by_filters(a, b, claimed(a, b, pairs, Status::Separated, StopRule::DualityGap), true);
  };
  const auto edge = proven({{1, 0}, {2, 0}});
  ASSERT_TRUE(edge);
  EXPECT_EQ(edge->distance, correctly_rounded_sqrt(Exact(8)));  // the line x + y = 2 is √8 from (3, 3)
  EXPECT_EQ(*edge->witness_a, (V2{1, 1}));
  EXPECT_TRUE(proven({{2, 0}, {1, 0}}));   // either order
  EXPECT_FALSE(proven({{0, 0}}));          // the far corner
  EXPECT_FALSE(proven({{1, 0}}));          // a corner of the nearest edge: (0, 2) lies beyond it
  EXPECT_FALSE(proven({{0, 0}, {1, 0}}));  // the projection falls outside the edge
  // An enclosing claim for separated shapes: the barycentric signs disagree.
  const ConvexPoints<V2> c({{0, 0}, {1, 0}, {0, 1}});
  EXPECT_FALSE(detail::certify_by_filters(
      a, c, claimed(a, c, {{0, 0}, {1, 1}, {2, 2}}, Status::Intersecting, StopRule::Enclosed), true));
  // A claim of a shape the filters do not handle (touching band, iteration cap) is left to step 2b.
  EXPECT_FALSE(detail::certify_by_filters(a, b, claimed(a, b, {{1, 0}, {2, 0}}, Status::Intersecting,
                                                        StopRule::TouchingBand), true));
}

// Ties are left to rationals: squares 2 apart with parallel edges have two vertices of each square on the supporting
// lines, which no filter can order; step 2b proves the answer. Turned a little, the same squares are generic and the
// filters prove them.
TEST(CertifiedFilters, TiesAreLeftToRationals) {
  const CertifiedResult<V2> parallel = answer_at_every_level(square(0, 0), square(3, 0.25));
  EXPECT_EQ(parallel.path, CertifiedPath::DoubleCertified);
  EXPECT_EQ(parallel.exact->squared_distance, 4);
  const ConvexPoints<V2> turned({{3, 0.25}, {3.875, -0.25}, {3.5, 1.125}, {4.375, 0.625}});
  const CertifiedResult<V2> generic = answer_at_every_level(square(0, 0), turned);
  EXPECT_EQ(generic.path, CertifiedPath::Filtered);
  EXPECT_EQ(generic.exact->squared_distance, 4);  // (3, 0.25) is nearest, 2 from A's right edge
}

// Random point clouds (on spheres, n = 4 to 64, distant, near and overlapping, 2D and 3D): every certified answer equals
// the exact core's (class, squared distance, correctly rounded distance), and the filters alone prove almost all of them
// (on random reals no filter should give up; this bound fails if one is left too loose).
template <Vector V>
void random_clouds_are_proven(std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int> size(4, 64);
  int filtered = 0, total = 0;
  for (double centres : {3.0, 2.1, 0.5}) {
    for (int t = 0; t < 60; ++t) {
      const auto cloud = [&](double x) {
        std::vector<V> p(static_cast<std::size_t>(size(g)));
        for (V& q : p) {
          double norm = 0;
          for (int i = 0; i < V::dimension; ++i) q[i] = normal(g), norm += q[i] * q[i];
          for (int i = 0; i < V::dimension; ++i) q[i] /= std::sqrt(norm);
          q[0] += x;
        }
        return ConvexPoints<V>(std::move(p));
      };
      const ConvexPoints<V> a = cloud(0), b = cloud(centres);
      const CertifiedResult<V> r = answer_at_every_level(a, b);
      Options<exact_vector_t<V>> cold;
      cold.max_iterations = kExactFinishMaxIterations;
      const auto truth = distance(ExactView<V>(a), ExactView<V>(b), cold);
      ASSERT_TRUE(r.exact);
      EXPECT_EQ(r.exact->squared_distance, truth.squared_distance()) << "seed " << seed << ", case " << total;
      EXPECT_EQ(r.distance, correctly_rounded_sqrt(truth.squared_distance()));
      EXPECT_EQ(r.status, truth.status);
      if (r.path == CertifiedPath::Filtered) ++filtered;
      ++total;
    }
  }
  EXPECT_GE(filtered, total * 99 / 100) << filtered << " of " << total << " by the filters";
}

TEST(CertifiedFilters, RandomCloudsAreProvenByFilters) {
  const std::uint64_t seed = test::test_seed(20261124);
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  random_clouds_are_proven<V2>(seed);
  random_clouds_are_proven<V3>(seed + 1);
}

TEST(Certified, InvalidInputIsNamed) {
  EXPECT_EQ(certified_distance(ConvexPoints<V2>(), square(0, 0)).input_error, InputError::EmptyA);
  EXPECT_EQ(certified_distance(square(0, 0), ConvexPoints<V2>({{NAN, 0}})).input_error, InputError::NonFiniteB);
  EXPECT_EQ(certified_distance(square(0, 0), ConvexPoints<V2>({{0, INFINITY}})).status, Status::InvalidInput);
}

// Rounding to double: exact midpoints go to the even neighbour, the top of the range overflows as IEEE 754 does, and
// the subnormals round like the rest.
TEST(Certified, RoundingToDoubleIsCorrect) {
  const Exact one(1), ulp(std::ldexp(1.0, -52));
  EXPECT_EQ(round_to_double(one + ulp / 2), 1.0);                                     // tie: 1 is even
  EXPECT_EQ(round_to_double(one + ulp + ulp / 2), 1 + 2 * std::ldexp(1.0, -52));      // tie: 1 + 2ulp is even
  EXPECT_EQ(round_to_double(one + ulp / 2 + ulp / 1024), 1 + std::ldexp(1.0, -52));  // past the tie
  EXPECT_EQ(round_to_double(Exact(1, 3)), 1.0 / 3);
  EXPECT_EQ(round_to_double(Exact(-2, 3)), -2.0 / 3);
  const Exact max(DBL_MAX), top_ulp(std::ldexp(1.0, 971));
  EXPECT_EQ(round_to_double(max + top_ulp / 4), DBL_MAX);
  EXPECT_EQ(round_to_double(max + top_ulp / 2), INFINITY);  // the overflow threshold rounds up
  const Exact tiny(std::ldexp(1.0, -1074));
  EXPECT_EQ(round_to_double(tiny / 2), 0.0);              // tie between 0 and the least subnormal: 0 is even
  EXPECT_EQ(round_to_double(tiny * 3 / 2), 2 * std::ldexp(1.0, -1074));
  EXPECT_EQ(correctly_rounded_sqrt(Exact(4)), 2.0);
  EXPECT_EQ(correctly_rounded_sqrt(Exact(2)), std::sqrt(2.0));
  // √((1 + ulp/2)²) = 1 + ulp/2 exactly, a tie: 1.
  EXPECT_EQ(correctly_rounded_sqrt((one + ulp / 2) * (one + ulp / 2)), 1.0);
}

}  // namespace
}  // namespace gjkref
