// The simplex cases (regions.hpp) through every vertex ordering, in float, double, long double and exact.
//
// Each hand case names the feature that must be closest to the origin and the exact closest point. Every ordering
// of the simplex's vertices must give that point (exactly in exact mode; within kRegionRoundingEpsilons in floating
// modes) and a feature of the expected size. Coordinates are small integers, so every region test is an exact sign
// in every scalar type; only the final division may round.
#include <numeric>
#include <string>

#include "test_support.hpp"

namespace gjkref::test {
namespace {

struct SimplexCase {
  const char* name;
  int dim;
  std::vector<std::array<double, 3>> points;
  std::array<double, 3> closest;
  int feature_size;  // vertices of the closest feature (4 = enclosing tetrahedron, 3 in 2D = enclosing triangle)
};

const std::vector<SimplexCase>& hand_cases() {
  static const std::vector<SimplexCase> cases = {
      // Segments (3D and 2D).
      {"SegmentVertexRegion", 3, {{1, 1, 0}, {3, 1, 0}}, {1, 1, 0}, 1},
      {"SegmentInterior", 3, {{-1, 1, 0}, {3, 1, 0}}, {0, 1, 0}, 2},
      {"OriginOnSegment", 3, {{-1, 0, 0}, {2, 0, 0}}, {0, 0, 0}, 2},
      {"DegenerateSegment", 3, {{1, 2, 3}, {1, 2, 3}}, {1, 2, 3}, 1},
      {"SegmentInterior2d", 2, {{-1, 1, 0}, {3, 1, 0}}, {0, 1, 0}, 2},
      {"OriginOnSegment2d", 2, {{-1, 0, 0}, {2, 0, 0}}, {0, 0, 0}, 2},
      // Triangles in 3D.
      {"TriangleVertexRegion", 3, {{1, 1, 1}, {2, 1, 1}, {1, 2, 1}}, {1, 1, 1}, 1},
      {"TriangleEdgeRegion", 3, {{-1, 1, 1}, {1, 1, 1}, {0, 3, 1}}, {0, 1, 1}, 2},
      {"TriangleFaceRegion", 3, {{-1, -1, 1}, {2, -1, 1}, {-1, 2, 1}}, {0, 0, 1}, 3},
      {"OriginOnTriangleFace", 3, {{-1, -1, 0}, {2, -1, 0}, {-1, 2, 0}}, {0, 0, 0}, 3},
      {"OriginOnTriangleEdge", 3, {{-1, 0, 0}, {1, 0, 0}, {0, 2, 1}}, {0, 0, 0}, 2},
      {"OriginOnTriangleVertex", 3, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {0, 0, 0}, 1},
      {"CollinearTriangleProjectionInside", 3, {{-1, 1, 0}, {3, 1, 0}, {1, 1, 0}}, {0, 1, 0}, 2},
      {"CollinearTriangleProjectionOutside", 3, {{1, 1, 0}, {2, 1, 0}, {3, 1, 0}}, {1, 1, 0}, 1},
      {"TriangleWithDuplicatePoint", 3, {{-1, 1, 1}, {-1, 1, 1}, {3, 1, 1}}, {0, 1, 1}, 2},
      {"TriangleAllPointsEqual", 3, {{1, 2, 3}, {1, 2, 3}, {1, 2, 3}}, {1, 2, 3}, 1},
      // Triangles in 2D.
      {"Triangle2dVertexRegion", 2, {{1, 1, 0}, {2, 1, 0}, {1, 2, 0}}, {1, 1, 0}, 1},
      {"Triangle2dEdgeRegion", 2, {{-1, 1, 0}, {1, 1, 0}, {0, 3, 0}}, {0, 1, 0}, 2},
      {"Triangle2dEnclosesOrigin", 2, {{-1, -1, 0}, {2, -1, 0}, {-1, 2, 0}}, {0, 0, 0}, 3},
      {"OriginOnTriangle2dEdge", 2, {{-1, 0, 0}, {1, 0, 0}, {0, 2, 0}}, {0, 0, 0}, 2},
      {"OriginOnTriangle2dVertex", 2, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {0, 0, 0}, 1},
      {"CollinearTriangle2d", 2, {{-1, 1, 0}, {3, 1, 0}, {1, 1, 0}}, {0, 1, 0}, 2},
      // Tetrahedra.
      {"TetrahedronEnclosesOrigin", 3, {{-1, -1, -1}, {3, -1, -1}, {-1, 3, -1}, {-1, -1, 3}}, {0, 0, 0}, 4},
      {"TetrahedronFaceRegion", 3, {{-1, -1, 1}, {2, -1, 1}, {-1, 2, 1}, {0, 0, 3}}, {0, 0, 1}, 3},
      {"TetrahedronEdgeRegion", 3, {{-1, 1, 1}, {1, 1, 1}, {0, 3, 1}, {0, 2, 3}}, {0, 1, 1}, 2},
      {"TetrahedronVertexRegion", 3, {{1, 1, 1}, {2, 1, 1}, {1, 2, 1}, {1, 1, 2}}, {1, 1, 1}, 1},
      {"OriginOnTetrahedronFace", 3, {{-1, -1, 0}, {2, -1, 0}, {-1, 2, 0}, {0, 0, 2}}, {0, 0, 0}, 4},
      {"OriginOnTetrahedronEdge", 3, {{-1, 0, 0}, {1, 0, 0}, {0, 1, 1}, {0, 1, -1}}, {0, 0, 0}, 4},
      {"OriginOnTetrahedronVertex", 3, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {0, 0, 0}, 4},
      {"CoplanarTetrahedronOriginInside", 3, {{-1, -1, 0}, {2, -1, 0}, {-1, 2, 0}, {1, 1, 0}}, {0, 0, 0}, 3},
      {"CoplanarTetrahedronOriginAbove", 3, {{-1, -1, 1}, {2, -1, 1}, {-1, 2, 1}, {0, 1, 1}}, {0, 0, 1}, 3},
      {"CoplanarTetrahedronProjectionOutside", 3, {{1, 1, 1}, {2, 1, 1}, {1, 2, 1}, {2, 2, 1}}, {1, 1, 1}, 1},
      {"TetrahedronWithDuplicatePoint", 3, {{-1, -1, 1}, {2, -1, 1}, {-1, 2, 1}, {2, -1, 1}}, {0, 0, 1}, 3},
      {"CollinearTetrahedron", 3, {{-1, 1, 0}, {1, 1, 0}, {3, 1, 0}, {2, 1, 0}}, {0, 1, 0}, 2},
  };
  return cases;
}

template <class T>
class RegionsTest : public ::testing::Test {};
TYPED_TEST_SUITE(RegionsTest, ScalarTypes, ScalarNames);

// A hand case's sizes that depend on the ordering: a vertex-on-origin or edge-on-origin case can be reported by any
// feature containing the origin; only the point matters there. Elsewhere the feature is unique.
bool feature_size_is_unique(const SimplexCase& c) {
  return !(c.closest[0] == 0 && c.closest[1] == 0 && c.closest[2] == 0) ||
         std::string(c.name).find("Encloses") != std::string::npos;
}

template <class V>
void check_case(const SimplexCase& c) {
  using T = scalar_t<V>;
  const int k = static_cast<int>(c.points.size());
  std::array<int, 4> order{0, 1, 2, 3};
  int orderings = 0;
  do {
    Points<V> p{};
    T largest(0);
    for (int i = 0; i < k; ++i) {
      for (int j = 0; j < V::dimension; ++j) p[i][j] = T(c.points[order[i]][j]);
      largest = std::max(largest, max_abs_component(p[i]));
    }
    const ClosestFeature<T> f = closest_on_simplex(p, k);
    const V v = point_of(p, f);
    V expected{};
    for (int j = 0; j < V::dimension; ++j) expected[j] = T(c.closest[j]);
    SCOPED_TRACE(::testing::Message() << c.name << " ordering " << order[0] << order[1] << order[2] << order[3]);
    if constexpr (is_exact_v<T>) {
      EXPECT_EQ(v, expected);
      T sum(0);
      for (int i = 0; i < f.count; ++i) {
        EXPECT_GE(f.weight[i], T(0));
        sum += f.weight[i];
      }
      EXPECT_EQ(sum, T(1));
    } else {
      const T bound = T(kRegionRoundingEpsilons) * ScalarTraits<T>::epsilon() * largest;
      for (int j = 0; j < V::dimension; ++j) EXPECT_LE(std::fabs(v[j] - expected[j]), bound);
    }
    if (feature_size_is_unique(c)) {
      EXPECT_EQ(f.count, c.feature_size);
    }
    // Small integers: every region test is an exact sign in every type, so the fallback must never fire.
    EXPECT_FALSE(f.rounding_fallback);
    ++orderings;
  } while (std::next_permutation(order.begin(), order.begin() + k));
  int factorial = 1;
  for (int i = 2; i <= k; ++i) factorial *= i;
  EXPECT_EQ(orderings, factorial);
}

TYPED_TEST(RegionsTest, EveryHandCaseInEveryOrdering) {
  for (const SimplexCase& c : hand_cases()) {
    if (c.dim == 2)
      check_case<Vec2<TypeParam>>(c);
    else
      check_case<Vec3<TypeParam>>(c);
  }
}

// Random simplices on a small lattice (many degenerate: duplicates, collinear, coplanar), exact: the region tests'
// closest point must have exactly the squared norm that the independent brute force finds, with valid weights.
template <class V>
void random_simplices_agree_with_brute_force(std::uint64_t seed, int trials) {
  using T = scalar_t<V>;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> coord(-2, 2);
  int enclosing = 0, degenerate_hits = 0;
  for (int t = 0; t < trials; ++t) {
    const int k = 1 + t % (V::dimension + 1);
    Points<V> p{};
    std::vector<V> pts;
    for (int i = 0; i < k; ++i) {
      for (int j = 0; j < V::dimension; ++j) p[i][j] = T(coord(rng));
      pts.push_back(p[i]);
    }
    const ClosestFeature<T> f = closest_on_simplex(p, k);
    const V v = point_of(p, f);
    ASSERT_EQ(dot(v, v), brute_force_squared_distance(pts)) << "seed " << seed << " trial " << t;
    ASSERT_FALSE(f.rounding_fallback) << "seed " << seed << " trial " << t;
    T sum(0);
    for (int i = 0; i < f.count; ++i) {
      ASSERT_GE(f.weight[i], T(0));
      sum += f.weight[i];
    }
    ASSERT_EQ(sum, T(1));
    if (f.encloses_origin) ++enclosing;
    std::vector<T> lambda;
    if (k > 1 && !projection_weights(pts, lambda)) ++degenerate_hits;  // affinely dependent: degenerate
  }
  // Representativeness: the lattice must keep producing enclosing and degenerate simplices, or this test stops
  // testing what it claims to.
  EXPECT_GT(enclosing, trials / 100) << "seed " << seed;
  EXPECT_GT(degenerate_hits, trials / 100) << "seed " << seed;
}

TEST(RegionsExact, RandomLatticeSimplices3dAgreeWithBruteForce) {
  const std::uint64_t seed = test_seed(20261122);
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  random_simplices_agree_with_brute_force<Vec3<Exact>>(seed, 4000);
}

TEST(RegionsExact, RandomLatticeSimplices2dAgreeWithBruteForce) {
  const std::uint64_t seed = test_seed(20261123);
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  random_simplices_agree_with_brute_force<Vec2<Exact>>(seed, 4000);
}

// Documented edge case (docs/edge-cases.md, "near-flat tetrahedron"; found by Simplices.RegionTestsAgreeWithBruteForce3d):
// four points within 10⁻¹⁵ of a plane (the last is −7·(1,1,1) moved by an ulp, nearly on the line through the first
// and the origin). In double their signed volumes are rounding noise, so the tetrahedron case examines the wrong
// faces, and one vertex ordering lands 3.7 from the closest point, far outside kRegionRoundingEpsilons. Exact
// arithmetic is right. GJK does not build such a tetrahedron from a cold start (w must beat the triangle by more
// than the duality-gap rule allows), and warm starts drop repeated points; distance() on the same points is within
// docs/contract.md. This test pins all three; if the region tests become robust here, update the docs.
TEST(RegionsFloating, NearFlatTetrahedronIsOutsideTheRoundingBound) {
  const std::vector<std::array<double, 3>> points = {
      {-3, -3, -3}, {1, -2, 0}, {-3, 0, -2}, {-0x1.c000000000001p+2, -0x1.c000000000001p+2, -0x1.c000000000001p+2}};
  std::vector<Vec3<Exact>> exact;
  Points<Vec3<double>> p{};
  for (std::size_t i = 0; i < points.size(); ++i) {
    exact.push_back({Exact(points[i][0]), Exact(points[i][1]), Exact(points[i][2])});
    p[i] = {points[i][0], points[i][1], points[i][2]};
  }
  const Exact truth_squared = brute_force_squared_distance(exact);
  const double truth = std::sqrt(truth_squared.get_d());
  Points<Vec3<Exact>> pe{};
  for (int i = 0; i < 4; ++i) pe[i] = exact[i];
  const Vec3<Exact> ve = point_of(pe, closest_on_simplex(pe, 4));
  EXPECT_EQ(dot(ve, ve), truth_squared);
  // The worst of the 24 vertex orderings (the property's counterexample is one of them).
  std::array<int, 4> order{0, 1, 2, 3};
  double worst = 0;
  do {
    Points<Vec3<double>> q{};
    for (int i = 0; i < 4; ++i) q[i] = p[order[i]];
    const Vec3<double> v = point_of(q, closest_on_simplex(q, 4));
    worst = std::max(worst, std::fabs(std::sqrt(dot(v, v)) - truth));
  } while (std::next_permutation(order.begin(), order.end()));
  const double bound = kRegionRoundingEpsilons * ScalarTraits<double>::epsilon() * 8;  // R = 7 + an ulp < 8
  EXPECT_GT(worst, bound) << "the documented weakness is gone: update the docs";
  std::printf("worst ordering: %.3g from the closest point (bound %.3g)\n", worst, bound);
  const ConvexPoints<Vec3<double>> a({p[0], p[1], p[2], p[3]}), origin({Vec3<double>{0, 0, 0}});
  const auto r = distance(a, origin);
  ASSERT_EQ(r.status, Status::Separated);
  EXPECT_LE(std::fabs(r.distance() - truth),
            kContractDistanceEpsilons * ScalarTraits<double>::epsilon() * input_scale(a, origin));
}

// The tetrahedron (−3, −3, −3), (1, −2, 0), (−3, 0, −2), −7.0039·(1, 1, 1) is flat, with the origin in its plane and on
// the line through its first and last points: every volume with the origin as a vertex is exactly 0, and double's
// determinants from the central point come out exactly 0 too (small-integer coordinates). Measured as a face normal
// times the origin's height from a point of the face's longest edge's line (volume_with_origin, finding 13's fix), the
// volumes are pure rounding of that point — up to 1.8·10⁻¹⁵, inside that measure's bound — and a first version of the
// fix that used them unbounded sent every ordering to a face 2.2 from the origin, where the truth is 1.53. This pins
// that the height is taken only when it clears kVolumeRoundingEpsilons. What does not matter: the vertex ordering
// (all 24 are checked). Found by Simplices.RegionTestsAgreeWithBruteForce3d run on every tetrahedron (seed 1, float).
TEST(RegionsFloating, FlatLatticeTetrahedronKeepsItsExactVolumes) {
  const double last = -0x1.c01p+2;
  const std::array<std::array<double, 3>, 4> points = {{{-3, -3, -3}, {1, -2, 0}, {-3, 0, -2}, {last, last, last}}};
  std::vector<Vec3<Exact>> exact;
  Points<Vec3<double>> p{};
  for (std::size_t i = 0; i < points.size(); ++i) {
    exact.push_back({Exact(points[i][0]), Exact(points[i][1]), Exact(points[i][2])});
    p[i] = {points[i][0], points[i][1], points[i][2]};
  }
  EXPECT_EQ(signed_volume(exact[0], exact[1], exact[2], exact[3]).value, Exact(0));  // flat
  const double truth = std::sqrt(brute_force_squared_distance(exact).get_d());
  const double bound = kRegionRoundingEpsilons * ScalarTraits<double>::epsilon() * 8;  // R = 7.0039 < 8
  std::array<int, 4> order{0, 1, 2, 3};
  do {
    Points<Vec3<double>> q{};
    for (int i = 0; i < 4; ++i) q[i] = p[order[i]];
    const Vec3<double> v = point_of(q, closest_on_simplex(q, 4));
    EXPECT_LE(std::fabs(std::sqrt(dot(v, v)) - truth), bound)
        << "ordering " << order[0] << order[1] << order[2] << order[3];
  } while (std::next_permutation(order.begin(), order.end()));
}

// plane_point_near_origin (floating.hpp) on its three outcomes, every ordering, every scalar type. Small integers and
// halves, so each expected point is exact in every type and the function must return it bit for bit:
// - the foot of the longest edge's line is nearer than every vertex (the sliver case of findings 11 and 13);
// - the vertex opposite the longest edge is nearer than that line (the needle case);
// - the three points coincide, the longest edge has length 0 and the function returns the point (the branch the
//   property suite does not reach; docs/edge-cases.md lists it). Without its guard exact mode divides by zero (checked:
//   SIGFPE); floating modes get NaN, which loses the comparison to the vertex, so they pass either way.
// What does not matter: the ordering, and which end of the longest edge the line's point is measured from.
TYPED_TEST(RegionsTest, PlanePointNearOriginTakesTheNearerOfVertexAndLine) {
  using T = TypeParam;
  struct Case {
    const char* name;
    std::array<std::array<double, 3>, 3> points;
    std::array<double, 3> expected;
  };
  const std::array<Case, 3> cases = {{
      {"FootOfLongestEdge", {{{-2, 1, 0}, {6, 1, 0}, {0, 3, 1}}}, {0, 1, 0}},
      {"OppositeVertex", {{{-10, 5, 0}, {10, 5, 0}, {0.5, 1, 0}}}, {0.5, 1, 0}},
      {"CoincidentPoints", {{{1, -2, 3}, {1, -2, 3}, {1, -2, 3}}}, {1, -2, 3}},
  }};
  for (const Case& c : cases) {
    std::array<int, 3> order{0, 1, 2};
    do {
      std::array<Vec3<T>, 3> p{};
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) p[i][j] = T(c.points[order[i]][j]);
      const Vec3<T> x = plane_point_near_origin(p[0], p[1], p[2]);
      for (int j = 0; j < 3; ++j)
        EXPECT_EQ(x[j], T(c.expected[j])) << c.name << " ordering " << order[0] << order[1] << order[2] << " axis " << j;
    } while (std::next_permutation(order.begin(), order.end()));
  }
}

}  // namespace
}  // namespace gjkref::test
