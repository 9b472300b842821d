// Every row of docs/edge-cases.md, pinned: one test per row, named as in the table, run in float, double,
// long double and exact rationals. Coordinates are small integers or dyadic, so each case's answer is known
// exactly; the floating modes must give the exact verdict and the distance within kEdgeCaseDistanceEpsilons.
#include "test_support.hpp"

namespace gjkref::test {
namespace {

// Floating modes, separated edge cases: |distance − exact distance| ≤ this many epsilon times the input's scale
// M = max ‖a − b‖∞ over vertex pairs. The edge cases are small and well-shaped, so the error is the rounding of a
// handful of operations; 16 leaves margin. The general bound is in docs/contract.md.
constexpr int kEdgeCaseDistanceEpsilons = 16;

template <class T>
class EdgeCases : public ::testing::Test {};
TYPED_TEST_SUITE(EdgeCases, ScalarTypes, ScalarNames);

// Runs check(p, q, distance(p, q), intersect(p, q)) for (p, q) = (A, B) and (B, A).
template <Vector V, class Check>
void in_both_orders(const ConvexPoints<V>& a, const ConvexPoints<V>& b, Check check) {
  for (int swapped = 0; swapped < 2; ++swapped) {
    const ConvexPoints<V>& p = swapped ? b : a;
    const ConvexPoints<V>& q = swapped ? a : b;
    SCOPED_TRACE(swapped ? "(B, A)" : "(A, B)");
    check(p, q, distance(p, q), intersect(p, q));
  }
}

// Both queries, both argument orders.
template <Vector V>
void expect_intersecting(const ConvexPoints<V>& a, const ConvexPoints<V>& b) {
  in_both_orders(a, b, [](const ConvexPoints<V>& p, const ConvexPoints<V>& q, const Result<V>& d, const Result<V>& i) {
    EXPECT_EQ(d.status, Status::Intersecting) << to_string(d.stop_rule);
    EXPECT_EQ(i.status, Status::Intersecting) << to_string(i.stop_rule);
    EXPECT_TRUE(is_zero(d.closest));
    EXPECT_FALSE(d.separation.has_value());
    if constexpr (is_exact_v<scalar_t<V>>) {
      EXPECT_TRUE(certify_exact(p, q, d));
      EXPECT_TRUE(certify_exact(p, q, i));
    }
  });
}

template <Vector V>
void expect_separated(const ConvexPoints<V>& a, const ConvexPoints<V>& b, double exact_squared_distance) {
  using T = scalar_t<V>;
  in_both_orders(a, b, [&](const ConvexPoints<V>& p, const ConvexPoints<V>& q, const Result<V>& d, const Result<V>& i) {
    EXPECT_EQ(d.status, Status::Separated) << to_string(d.stop_rule);
    EXPECT_EQ(i.status, Status::Separated) << to_string(i.stop_rule);
    EXPECT_TRUE(d.separation.has_value());
    if constexpr (is_exact_v<T>) {
      EXPECT_EQ(d.squared_distance(), T(exact_squared_distance));
      EXPECT_TRUE(certify_exact(p, q, d));
    } else {
      const T bound = T(kEdgeCaseDistanceEpsilons) * ScalarTraits<T>::epsilon() * input_scale(p, q);
      EXPECT_LE(std::fabs(d.distance() - std::sqrt(T(exact_squared_distance))), bound);
    }
  });
}

// ---- Origin on a feature of A⊖B ------------------------------------------------------------------------------

// Vertex–vertex touching: A⊖B = 2·(unit simplex), the origin is its vertex.
TYPED_TEST(EdgeCases, OriginOnVertexOfMinkowskiDifference2d) {
  using T = TypeParam;
  expect_intersecting(shape2<T>({{0, 0}, {1, 0}, {0, 1}}), shape2<T>({{0, 0}, {-1, 0}, {0, -1}}));
}
TYPED_TEST(EdgeCases, OriginOnVertexOfMinkowskiDifference3d) {
  using T = TypeParam;
  expect_intersecting(shape3<T>({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}),
                      shape3<T>({{0, 0, 0}, {-1, 0, 0}, {0, -1, 0}, {0, 0, -1}}));
}
// A point on a segment: A⊖B is the segment itself, the origin inside it.
TYPED_TEST(EdgeCases, OriginOnSegment2d) {
  using T = TypeParam;
  expect_intersecting(shape2<T>({{-1, 0}, {1, 0}}), shape2<T>({{0, 0}}));
}
TYPED_TEST(EdgeCases, OriginOnSegment3d) {
  using T = TypeParam;
  expect_intersecting(shape3<T>({{-1, 0, 0}, {1, 0, 0}}), shape3<T>({{0.25, 0, 0}}));
}
// Squares sharing part of an edge: the origin lies on an edge of the full-dimensional A⊖B.
TYPED_TEST(EdgeCases, OriginOnEdgeOfMinkowskiDifference2d) {
  using T = TypeParam;
  expect_intersecting(shape2<T>({{0, 0}, {1, 0}, {1, 1}, {0, 1}}),
                      shape2<T>({{1, 0.25}, {2, 0.25}, {2, 0.75}, {1, 0.75}}));
}
// Cubes sharing an edge (parallel edge–edge contact): the origin on an edge of A⊖B.
TYPED_TEST(EdgeCases, OriginOnEdgeOfMinkowskiDifference3d) {
  using T = TypeParam;
  expect_intersecting(
      unit_cube<T>(),
      shape3<T>({{1, 1, 0}, {2, 1, 0}, {1, 2, 0}, {2, 2, 0}, {1, 1, 1}, {2, 1, 1}, {1, 2, 1}, {2, 2, 1}}));
}
// A point on a face of a tetrahedron (vertex–face contact): the origin on a face of A⊖B.
TYPED_TEST(EdgeCases, OriginOnFaceOfMinkowskiDifference3d) {
  using T = TypeParam;
  expect_intersecting(shape3<T>({{0, 0, 0}, {4, 0, 0}, {0, 4, 0}, {0, 0, 4}}), shape3<T>({{1, 1, 2}}));
}
// Coplanar overlapping triangles: A⊖B is flat and the origin lies in its relative interior.
TYPED_TEST(EdgeCases, OriginInsideFlatMinkowskiDifference3d) {
  using T = TypeParam;
  expect_intersecting(shape3<T>({{0, 0, 0}, {2, 0, 0}, {0, 2, 0}}),
                      shape3<T>({{0.5, 0.5, 0}, {3, 0.5, 0}, {0.5, 3, 0}}));
}
// Overlapping collinear segments: A⊖B is a segment containing the origin in its interior.
TYPED_TEST(EdgeCases, OriginInsideCollinearMinkowskiDifference2d) {
  using T = TypeParam;
  expect_intersecting(shape2<T>({{0, 0}, {2, 0}}), shape2<T>({{1, 0}, {3, 0}}));
}
TYPED_TEST(EdgeCases, OriginInsideCollinearMinkowskiDifference3d) {
  using T = TypeParam;
  expect_intersecting(shape3<T>({{0, 0, 0}, {2, 2, 2}}), shape3<T>({{1, 1, 1}, {3, 3, 3}}));
}

// ---- Exactly touching shapes ----------------------------------------------------------------------------------

TYPED_TEST(EdgeCases, TouchingVertexVertex3d) {
  using T = TypeParam;
  expect_intersecting(shape3<T>({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}}),
                      shape3<T>({{0, 0, 0}, {-1, 0, 0}, {-1, -1, 0}, {-1, -1, -1}}));
}
TYPED_TEST(EdgeCases, TouchingVertexEdge2d) {
  using T = TypeParam;
  expect_intersecting(shape2<T>({{0, 0}, {2, 0}, {1, 2}}), shape2<T>({{1, 0}, {0, -2}, {2, -2}}));
}
// B lies in y ≤ 0, z ≥ 1 and meets the cube only at its vertex (0.5, 0, 1), on the cube's edge y = 0, z = 1.
TYPED_TEST(EdgeCases, TouchingVertexEdge3d) {
  using T = TypeParam;
  expect_intersecting(unit_cube<T>(), shape3<T>({{0.5, 0, 1}, {0.5, -1, 2}, {1.5, -1, 2}, {-0.5, -1, 2}}));
}
TYPED_TEST(EdgeCases, TouchingVertexFace3d) {
  using T = TypeParam;
  expect_intersecting(unit_cube<T>(), shape3<T>({{0.5, 0.5, 1}, {0, 0, 2}, {1, 0, 2}, {0, 1, 2}}));
}
// Crossing edges: A's top edge runs along x, B's bottom edge along y; they meet at the origin only.
TYPED_TEST(EdgeCases, TouchingEdgeEdgeCrossing3d) {
  using T = TypeParam;
  expect_intersecting(shape3<T>({{-1, 0, 0}, {1, 0, 0}, {0, 1, -1}, {0, -1, -1}}),
                      shape3<T>({{0, -1, 0}, {0, 1, 0}, {1, 0, 1}, {-1, 0, 1}}));
}
TYPED_TEST(EdgeCases, TouchingEdgeEdgeParallel3d) {
  using T = TypeParam;
  expect_intersecting(unit_cube<T>(), shape3<T>({{1, 1, 0.25}, {2, 1, 0.25}, {1, 2, 0.25}, {1, 1, 2}}));
}
TYPED_TEST(EdgeCases, TouchingEdgeFace3d) {
  using T = TypeParam;
  expect_intersecting(unit_cube<T>(), shape3<T>({{0.25, 0.5, 1}, {0.75, 0.5, 1}, {0.5, 0.5, 2}, {0.5, 0.75, 2}}));
}
TYPED_TEST(EdgeCases, TouchingFaceFacePartialOverlap3d) {
  using T = TypeParam;
  expect_intersecting(unit_cube<T>(), shape3<T>({{0.5, 0.5, 1},
                                                 {1.5, 0.5, 1},
                                                 {0.5, 1.5, 1},
                                                 {1.5, 1.5, 1},
                                                 {0.5, 0.5, 2},
                                                 {1.5, 0.5, 2},
                                                 {0.5, 1.5, 2},
                                                 {1.5, 1.5, 2}}));
}
TYPED_TEST(EdgeCases, TouchingFaceFaceCoincident3d) {
  using T = TypeParam;
  expect_intersecting(shape3<T>({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, -1}}),
                      shape3<T>({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}));
}

// ---- Degenerate simplices and shapes --------------------------------------------------------------------------

// Every vertex three times: the answer is the same as without duplicates (the support picks the first copy).
TYPED_TEST(EdgeCases, DuplicateSupportPoints) {
  using T = TypeParam;
  expect_separated(shape3<T>({{0, 0, 0}, {0, 0, 0}, {2, 0, 0}, {2, 0, 0}, {0, 0, 0}, {2, 0, 0}}),
                   shape3<T>({{1, 1, 3}, {1, -1, 3}, {1, 1, 3}, {1, -1, 3}, {1, -1, 3}}), 9);
  expect_intersecting(shape3<T>({{0, 0, 0}, {0, 0, 0}, {4, 0, 0}, {0, 4, 0}, {4, 0, 0}, {0, 0, 4}, {0, 0, 4}}),
                      shape3<T>({{1, 1, 2}, {1, 1, 2}, {1, 1, 2}}));
}
// A collinear point set: GJK's triangles are collinear; the distance to the line's hull segment is 1.
TYPED_TEST(EdgeCases, CollinearTriangleSimplex) {
  using T = TypeParam;
  expect_separated(shape3<T>({{0, 0, 0}, {1, 0, 0}, {3, 0, 0}, {2, 0, 0}}), shape3<T>({{1, 1, 0}}), 1);
  expect_separated(shape2<T>({{0, 0}, {1, 0}, {3, 0}, {2, 0}}), shape2<T>({{-1, 1}}), 2);
}
// A coplanar point set: GJK's tetrahedra are flat; above the plane distance 1, in the plane intersecting.
TYPED_TEST(EdgeCases, CoplanarTetrahedronSimplex) {
  using T = TypeParam;
  const auto plate = shape3<T>({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 0}, {0.25, 0.75, 0}});
  expect_separated(plate, shape3<T>({{0.5, 0.5, 1}}), 1);
  expect_intersecting(plate, shape3<T>({{0.75, 0.25, 0}}));
}
// Single points: separated by their squared distance, intersecting when equal.
TYPED_TEST(EdgeCases, SinglePointShapes) {
  using T = TypeParam;
  expect_separated(shape3<T>({{1, 2, 3}}), shape3<T>({{2, 4, 5}}), 9);
  expect_intersecting(shape3<T>({{1, 2, 3}}), shape3<T>({{1, 2, 3}}));
  expect_separated(shape2<T>({{1, 2}}), shape2<T>({{4, 6}}), 25);
}
TYPED_TEST(EdgeCases, IdenticalShapes) {
  using T = TypeParam;
  const auto cube = unit_cube<T>();
  expect_intersecting(cube, cube);
  const auto segment = shape2<T>({{0, 0}, {3, 1}});
  expect_intersecting(segment, segment);
}
// Skew segments (separated) and the tiny-gap cubes of shared/cases: distance exactly 2^-41.
TYPED_TEST(EdgeCases, SeparatedSkewSegments) {
  using T = TypeParam;
  expect_separated(shape3<T>({{0, 0, 0}, {2, 0, 0}}), shape3<T>({{1, 1, 3}, {1, -1, 3}}), 9);
}
TYPED_TEST(EdgeCases, SeparatedByTinyGap) {
  using T = TypeParam;
  const double s = std::ldexp(1.0, -40);
  expect_separated(shape3<T>({{0, 0, 0}, {s, 0, 0}, {0, s, 0}, {0, 0, s}}), shape3<T>({{1.5 * s, 0, 0}, {2 * s, 0, 0}}),
                   std::ldexp(1.0, -82));
}

// ---- Termination and bad input --------------------------------------------------------------------------------

// A support mapping that records whether it was ever asked for the zero direction (it must never be).
template <Vector V>
struct ZeroDirectionSpy {
  using vector_type = V;
  ConvexPoints<V> inner;
  mutable int zero_directions = 0;
  Support<V> support(const V& d) const {
    if (is_zero(d)) ++zero_directions;
    return inner.support(d);
  }
  ShapeCheck check() const { return inner.check(); }
};

// When v reaches 0 (origin on a vertex, an edge, a face, or enclosed), rule 1 stops the loop before −v would be
// used as a search direction.
TYPED_TEST(EdgeCases, ZeroSearchDirectionNeverReachesSupport) {
  using T = TypeParam;
  using V = Vec3<T>;
  const std::vector<std::pair<P3<T>, P3<T>>> touching = {
      {shape3<T>({{0, 0, 0}, {4, 0, 0}, {0, 4, 0}, {0, 0, 4}}), shape3<T>({{1, 1, 2}})},
      {shape3<T>({{-1, 0, 0}, {1, 0, 0}}), shape3<T>({{0, 0, 0}})},
      {shape3<T>({{0, 0, 0}}), shape3<T>({{0, 0, 0}})},
      {shape3<T>({{-1, -1, -1}, {3, -1, -1}, {-1, 3, -1}, {-1, -1, 3}}), shape3<T>({{0, 0, 0}})}};
  for (const auto& [a, b] : touching) {
    const ZeroDirectionSpy<V> spy_a{a}, spy_b{b};
    EXPECT_EQ(distance(spy_a, spy_b).status, Status::Intersecting);
    EXPECT_EQ(intersect(spy_a, spy_b).status, Status::Intersecting);
    EXPECT_EQ(spy_a.zero_directions + spy_b.zero_directions, 0);
  }
}

// The cap: with no iteration allowed after the first support point, a separated pair that needs more reports
// IterationLimit, and |closest| is an upper bound on the true distance (here: 1).
TYPED_TEST(EdgeCases, IterationCapReportsIterationLimit) {
  using T = TypeParam;
  const auto a = shape3<T>({{-4, 0, 0}, {4, 0, 0}, {0, 4, 0}});
  const auto b = shape3<T>({{0, 1, 1}});
  for (int cap : {0, 1}) {
    Options<Vec3<T>> o;
    o.max_iterations = cap;
    const auto r = distance(a, b, o);
    EXPECT_EQ(r.status, Status::IterationLimit) << cap;
    EXPECT_EQ(r.stop_rule, StopRule::IterationCap);
    EXPECT_LE(r.iterations, cap);
    EXPECT_GE(r.squared_distance(), T(1));
  }
  const auto full = distance(a, b);
  EXPECT_EQ(full.status, Status::Separated);
  EXPECT_GT(full.iterations, 1);
}

// NaN and Inf exist only in floating types (an exact rational cannot hold them), so this row runs in those.
template <class T>
class FloatingEdgeCases : public ::testing::Test {};
TYPED_TEST_SUITE(FloatingEdgeCases, FloatingTypes, ScalarNames);

TYPED_TEST(FloatingEdgeCases, NaNAndInfInputAreInvalid) {
  using T = TypeParam;
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const auto ok = shape3<T>({{0, 0, 0}, {1, 0, 0}});
  const auto with_nan = shape3<T>({{0, 0, 0}, {nan, 0, 0}});
  const auto with_inf = shape3<T>({{0, -inf, 0}, {1, 0, 0}});
  for (const auto& r : {distance(with_nan, ok), intersect(with_nan, ok), distance(with_inf, ok)}) {
    EXPECT_EQ(r.status, Status::InvalidInput);
    EXPECT_EQ(r.input_error, InputError::NonFiniteA);
    EXPECT_EQ(r.stop_rule, StopRule::None);
  }
  EXPECT_EQ(distance(ok, with_nan).input_error, InputError::NonFiniteB);
  EXPECT_EQ(distance(ok, with_inf).input_error, InputError::NonFiniteB);
  // A NaN in a transform is caught too.
  LinearMap<Vec3<T>> m = LinearMap<Vec3<T>>::identity();
  m.rows[1][2] = T(nan);
  EXPECT_EQ(distance(Transformed<P3<T>>(ok, m, Vec3<T>{}), ok).input_error, InputError::NonFiniteA);
}

TYPED_TEST(EdgeCases, EmptyShapeIsInvalid) {
  using T = TypeParam;
  const P3<T> empty;
  const auto ok = shape3<T>({{0, 0, 0}});
  EXPECT_EQ(distance(empty, ok).input_error, InputError::EmptyA);
  EXPECT_EQ(intersect(ok, empty).input_error, InputError::EmptyB);
  EXPECT_EQ(distance(empty, empty).status, Status::InvalidInput);
}

// Finite coordinates whose difference overflows: invalid in floating modes (the difference is not representable),
// while the exact mode answers the true question.
TYPED_TEST(EdgeCases, DifferenceOverflow) {
  using T = TypeParam;
  const double big = 1.5e308;
  if constexpr (std::is_same_v<T, float>) {
    EXPECT_EQ(distance(shape3<T>({{big, 0, 0}}), shape3<T>({{0, 0, 0}})).input_error, InputError::NonFiniteA)
        << "1.5e308 does not fit in a float";
  } else if constexpr (is_exact_v<T>) {
    const auto r = distance(shape3<T>({{big, 0, 0}}), shape3<T>({{-big, 0, 0}}));
    EXPECT_EQ(r.status, Status::Separated);
    EXPECT_EQ(r.squared_distance(), (T(big) + T(big)) * (T(big) + T(big)));
  } else if constexpr (std::is_same_v<T, double>) {
    EXPECT_EQ(distance(shape3<T>({{big, 0, 0}}), shape3<T>({{-big, 0, 0}})).input_error,
              InputError::DifferenceOverflow);
  } else {
    // long double's range holds 3e308: no overflow, the ordinary answer.
    EXPECT_EQ(distance(shape3<T>({{big, 0, 0}}), shape3<T>({{-big, 0, 0}})).status, Status::Separated);
  }
}

}  // namespace
}  // namespace gjkref::test
