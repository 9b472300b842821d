// GJK-level properties of the reference, decided by exact arithmetic or by mathematics:
//  - exact mode: every answer on random lattice pairs passes the exact KKT certificate and equals the independent
//    brute-force distance; rules 5 and 6 (floating-only stops) never fire;
//  - floating modes agree with exact on the verdict and are within the contract on the distance;
//  - scaling by 2^k scales every output bit-exactly; (A, B) ↔ (B, A); boolean agrees with distance;
//    warm starts give the cold answer; affine transforms; a 2D case embedded in 3D.
#include <cfloat>

#include "test_support.hpp"

namespace gjkref::test {
namespace {

template <Vector V>
void exact_answers_are_certified(std::uint64_t seed, int pairs, int max_points, bool brute_force) {
  std::mt19937_64 rng(seed);
  int intersecting = 0, separated = 0;
  for (int t = 0; t < pairs; ++t) {
    const auto a = random_lattice_shape<V>(rng, 1, max_points, 3);
    const auto b = random_lattice_shape<V>(rng, 1, max_points, 3);
    const FailureCaseSaver<V> saver(a, b, "exact-" + std::to_string(V::dimension) + "d-seed" + std::to_string(seed) +
                                              "-pair" + std::to_string(t));
    const Result<V> r = distance(a, b);
    ASSERT_TRUE(certify_exact(a, b, r)) << "seed " << seed << " pair " << t;
    // Floating-only stop rules never fire in exact arithmetic.
    ASSERT_NE(r.stop_rule, StopRule::TouchingBand);
    ASSERT_NE(r.stop_rule, StopRule::RepeatedSupport);
    ASSERT_NE(r.stop_rule, StopRule::NoProgress);
    if (brute_force) {
      ASSERT_EQ(r.squared_distance(), brute_force_squared_distance(differences(a, b)));
    }
    const Result<V> i = intersect(a, b);
    ASSERT_TRUE(certify_exact(a, b, i) || i.stop_rule == StopRule::SeparatingPlane);
    ASSERT_EQ(i.status, r.status) << "boolean and distance disagree, seed " << seed << " pair " << t;
    const Result<V> swapped = distance(b, a);
    ASSERT_EQ(swapped.status, r.status);
    ASSERT_EQ(swapped.squared_distance(), r.squared_distance());
    (r.status == Status::Intersecting ? intersecting : separated)++;
  }
  // Representativeness: both verdicts must be frequent, or the lattice no longer tests what it claims to.
  // (3D pairs of at most 3 points intersect least often: about 7 % of pairs.)
  EXPECT_GT(intersecting, pairs / 25) << "seed " << seed;
  EXPECT_GT(separated, pairs / 25) << "seed " << seed;
  std::printf("seed %llu: %d intersecting, %d separated\n", static_cast<unsigned long long>(seed), intersecting,
              separated);
}

TEST(GjkExact, RandomLatticePairs3dMatchBruteForce) {
  exact_answers_are_certified<Vec3<Exact>>(test_seed(31), 1500, 3, true);
}
TEST(GjkExact, RandomLatticePairs2dMatchBruteForce) {
  exact_answers_are_certified<Vec2<Exact>>(test_seed(32), 1500, 3, true);
}
TEST(GjkExact, RandomLatticePolytopes3dAreCertified) {
  exact_answers_are_certified<Vec3<Exact>>(test_seed(33), 1500, 12, false);
}
TEST(GjkExact, RandomLatticePolytopes2dAreCertified) {
  exact_answers_are_certified<Vec2<Exact>>(test_seed(34), 1500, 12, false);
}

template <class T>
class GjkFloating : public ::testing::Test {};
TYPED_TEST_SUITE(GjkFloating, FloatingTypes, ScalarNames);

template <class T, Vector VD>
void floating_matches_exact(std::uint64_t seed, int pairs) {
  using V = decltype(convert<T>(VD{}));
  using VE = decltype(convert<Exact>(VD{}));
  std::mt19937_64 rng(seed);
  for (int t = 0; t < pairs; ++t) {
    const auto a = random_lattice_shape<VD>(rng, 1, 10, 3);
    const auto b = random_lattice_shape<VD>(rng, 1, 10, 3);
    const FailureCaseSaver<VD> saver(a, b, "lattice-" + std::to_string(VD::dimension) + "d-seed" + std::to_string(seed) +
                                               "-pair" + std::to_string(t));
    const Result<VE> exact = distance(converted<Exact>(a), converted<Exact>(b));
    const Result<V> r = distance(converted<T>(a), converted<T>(b));
    const Result<V> i = intersect(converted<T>(a), converted<T>(b));
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " pair " << t);
    // Lattice distances are 0 or at least 1/sqrt(...) of the scale: far outside the touching band, so the verdict
    // must be the exact one.
    ASSERT_EQ(r.status, exact.status) << to_string(r.stop_rule);
    ASSERT_EQ(i.status, exact.status) << to_string(i.stop_rule);
    // The certificate, re-checked exactly from the inputs: always proven for separated answers (the lattice gap is
    // huge), and for intersecting ones unless the touching band (not an exact containment) decided.
    const CertificateReport proof = check_certificate(converted<T>(a), converted<T>(b), r);
    if (r.stop_rule != StopRule::TouchingBand) {
      ASSERT_EQ(proof.check, CertificateCheck::Verified) << proof.reason;
    }
    const T truth = std::sqrt(to_scalar<T>(exact.squared_distance()));
    const T bound = T(kContractDistanceEpsilons) * ScalarTraits<T>::epsilon() * T(input_scale(a, b));
    ASSERT_LE(std::fabs(r.distance() - truth), bound);
  }
}

// The contract on random real coordinates (not a lattice: nothing is exact by luck), for shapes of size 2^s at
// offset 0, 10^3, 10^6 or 10^9 times their size from the origin. B is a random cloud shifted along x relative to A's
// rightmost point: by −size (clear overlap, a third of the pairs), or by ±2^g·size with g from −60 to 2 (near
// touching on either side). The exact answer comes from the exact reference on the same T-valued shapes, whose
// answers the KKT tests certify.
template <class T, int Dim>
void contract_on_random_reals(std::uint64_t seed, int pairs) {
  using V = std::conditional_t<Dim == 2, Vec2<T>, Vec3<T>>;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::uniform_int_distribution<int> size_exp(-30, 30), gap_exp(-60, 2), count(1, 12);
  const std::array<double, 4> offsets = {0, 1e3, 1e6, 1e9};
  int separated = 0, intersecting = 0, near_band = 0;
  for (int t = 0; t < pairs; ++t) {
    const double size = std::ldexp(1.0, size_exp(rng));
    const double offset = offsets[t % offsets.size()] * size;
    const double shift = t % 3 == 0 ? -size : std::ldexp(size, gap_exp(rng)) * (t % 3 == 1 ? 1 : -1);
    std::vector<V> pa, pb;
    for (int i = count(rng); i > 0; --i) {
      V p;
      for (int j = 0; j < Dim; ++j) p[j] = T(offset + size * unit(rng));
      pa.push_back(p);
    }
    // B's first vertex is A's rightmost vertex moved by `shift` along x; the rest of B lies to its right. For a
    // positive shift the distance is then about the shift (exactly, before rounding to T).
    const V* rightmost = &pa[0];
    for (const V& p : pa)
      if (rightmost->x < p.x) rightmost = &p;
    V first = *rightmost;
    first[0] = T(static_cast<double>(first[0]) + shift);
    pb.push_back(first);
    for (int i = count(rng) - 1; i > 0; --i) {
      V p;
      p[0] = T(static_cast<double>(first[0]) + size * (unit(rng) + 1));
      for (int j = 1; j < Dim; ++j) p[j] = T(offset + size * unit(rng));
      pb.push_back(p);
    }
    const ConvexPoints<V> a(pa), b(pb);
    const FailureCaseSaver<V> saver(a, b, "reals-" + std::to_string(Dim) + "d-seed" + std::to_string(seed) + "-pair" +
                                              std::to_string(t));
    const auto exact = distance(converted<Exact>(a), converted<Exact>(b));
    ASSERT_TRUE(exact.status == Status::Separated || exact.status == Status::Intersecting);
    const Result<V> r = distance(a, b);
    const T eps = ScalarTraits<T>::epsilon();
    const T m = input_scale(a, b);
    const T band = T(kContractVerdictEpsilons) * eps * m;
    const T truth = std::sqrt(to_scalar<T>(exact.squared_distance()));
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " pair " << t << " exact distance " << truth << " band "
                                      << band << " reported " << to_string(r.status) << " by " << to_string(r.stop_rule)
                                      << "\n"
                                      << describe(a, b));
    ASSERT_TRUE(r.status == Status::Separated || r.status == Status::Intersecting);
    if (truth > band) {
      ASSERT_EQ(r.status, Status::Separated);
    }
    const T certificate_band = T(kContractCertificateSqrtEpsilons) * std::sqrt(eps) * m;
    if (r.status == Status::Separated && truth > certificate_band) {
      const CertificateReport proof = check_certificate(a, b, r);
      ASSERT_EQ(proof.check, CertificateCheck::Verified) << proof.reason;
    }
    const T bound = T(kContractDistanceEpsilons) * eps * m + Tolerances<T>::relative_gap() * truth;
    ASSERT_LE(std::fabs(r.distance() - truth), bound);
    // The boolean query: the verdict outside the band; a separating plane (rule 3) checks exactly at any distance.
    const Result<V> i = intersect(a, b);
    if (truth > band) {
      ASSERT_EQ(i.status, Status::Separated);
    }
    if (i.stop_rule == StopRule::SeparatingPlane) {
      const CertificateReport proof = check_certificate(a, b, i);
      ASSERT_EQ(proof.check, CertificateCheck::Verified) << "intersect(): " << proof.reason;
    }
    (r.status == Status::Separated ? separated : intersecting)++;
    if (truth > T(0) && truth <= band) ++near_band;
  }
  std::printf("seed %llu: %d separated, %d intersecting, %d separated within the band\n",
              static_cast<unsigned long long>(seed), separated, intersecting, near_band);
  // Representativeness (about a third of the pairs are built separated; in float, offsets of 10^9 sizes collapse
  // some of them into coincident shapes).
  EXPECT_GT(separated, pairs / 20);
  EXPECT_GT(intersecting, pairs / 20);
}

TYPED_TEST(GjkFloating, FloatingModesMeetTheContractOnRandomReals) {
  contract_on_random_reals<TypeParam, 3>(test_seed(43), 400);
  contract_on_random_reals<TypeParam, 2>(test_seed(44), 400);
}

TYPED_TEST(GjkFloating, FloatingModesMeetTheContractOnLatticePairs) {
  floating_matches_exact<TypeParam, Vec3<double>>(test_seed(41), 1500);
  floating_matches_exact<TypeParam, Vec2<double>>(test_seed(42), 1500);
}

// Scaling both shapes by 2^k scales every output by exactly 2^k: status, stop rule, iterations, simplex indices and
// weights identical; closest, witnesses and distance scaled bit for bit. k spans the range in which the scaled
// lattice coordinates and outputs stay normal numbers of the type.
template <class T, Vector V>
void scale_covariance(std::uint64_t seed, int pairs, int max_k) {
  std::mt19937_64 rng(seed);
  for (int t = 0; t < pairs; ++t) {
    const auto a = converted<T>(random_lattice_shape<V>(rng, 1, 8, 7));
    const auto b = converted<T>(random_lattice_shape<V>(rng, 1, 8, 7));
    // Non-integer coordinates too: shift B by an irrational-looking dyadic amount.
    std::vector<decltype(convert<T>(V{}))> shifted;
    for (auto p : b.points()) {
      p[0] += T(0.3125);
      shifted.push_back(p);
    }
    const ConvexPoints<decltype(convert<T>(V{}))> bs(shifted);
    const auto base = distance(a, bs);
    for (int k = -max_k; k <= max_k; k += 7) {
      auto scale = [k](const auto& s) {
        std::vector<std::decay_t<decltype(s.points()[0])>> pts;
        for (const auto& p : s.points()) pts.push_back(scale_by_power_of_two(p, k));
        return ConvexPoints<std::decay_t<decltype(s.points()[0])>>(pts);
      };
      const auto r = distance(scale(a), scale(bs));
      SCOPED_TRACE(::testing::Message() << "seed " << seed << " pair " << t << " k " << k);
      ASSERT_EQ(r.status, base.status);
      ASSERT_EQ(r.stop_rule, base.stop_rule);
      ASSERT_EQ(r.iterations, base.iterations);
      ASSERT_EQ(r.simplex.size, base.simplex.size);
      for (int i = 0; i < r.simplex.size; ++i) {
        ASSERT_EQ(r.simplex.weights[i], base.simplex.weights[i]);
        ASSERT_TRUE(r.simplex.points[i].same_vertices(base.simplex.points[i]));
      }
      ASSERT_EQ(r.closest, scale_by_power_of_two(base.closest, k));
      ASSERT_EQ(r.witness_a, scale_by_power_of_two(base.witness_a, k));
      ASSERT_EQ(r.witness_b, scale_by_power_of_two(base.witness_b, k));
      ASSERT_EQ(r.distance(), std::ldexp(base.distance(), k));
    }
  }
}

TYPED_TEST(GjkFloating, ScalingByPowersOfTwoIsBitExact) {
  // float: outputs must stay normal floats (2^±100 keeps lattice values and their products in range);
  // double and long double: 2^±900.
  const int max_k = std::is_same_v<TypeParam, float> ? 100 : 900;
  scale_covariance<TypeParam, Vec3<double>>(test_seed(51), 300, max_k);
  scale_covariance<TypeParam, Vec2<double>>(test_seed(52), 300, max_k);
}

// Regression (found by FloatingModesMeetTheContractOnLatticePairs, seed 41 pair 519): A and B share the vertex
// (−1, 1, −1), so they touch. On the way, GJK's v ≈ (−0.652, 0.326, 0.109) meets the support w = (−1, −3, 3) with
// v·w = 0 exactly, but the rounded product came out positive and the boolean query took v·x = v·w for a separating
// plane. Cause: the sign of a dot product was trusted inside the touching band. What does not matter: the shape
// sizes (any 2^k scale fails alike) and the order of the vertices. Every type must say Intersecting.
template <class T>
class Regression : public ::testing::Test {};
TYPED_TEST_SUITE(Regression, ScalarTypes, ScalarNames);

TYPED_TEST(Regression, BooleanSeparatingPlaneMustClearTheTouchingBand) {
  using T = TypeParam;
  const auto a = shape3<T>({{-2, 3, -2}, {-2, -2, 2}, {-1, 1, -1}});
  const auto b = shape3<T>({{1, 2, 3}, {3, 1, 2}, {-1, 1, -1}, {-2, -2, -3}});
  EXPECT_EQ(intersect(a, b).status, Status::Intersecting) << to_string(intersect(a, b).stop_rule);
  EXPECT_EQ(distance(a, b).status, Status::Intersecting);
  EXPECT_EQ(intersect(b, a).status, Status::Intersecting);
}

// Regression (found by a seed campaign of FloatingModesMeetTheContractOnRandomReals, seed 1040 pair 12, float): shapes
// of size about 4·10⁴ at exact distance 1.40 (outside the verdict band 0.64). GJK converged to the right simplex
// (|v| = 1.40182), then stalled (rule 5), and the old rule called it touching because the rounded v·w was not
// positive. Cause: v's absolute rounding error (about ε·4·10⁴) tilts its direction by about 2·10⁻³, and across the
// shapes that tilt exceeds |v|²: the sign of v·w is noise below about √ε·M. Rules 4–6 now answer by the distance.
// What does not matter: the scalar type (double shows the same at proportionally smaller distances).
TEST(Regression, StalledLoopDecidesByDistanceNotBySign) {
  using V = Vec3<float>;
  const ConvexPoints<V> a{{-0xd.f2378p+10f, -0xf.dcd7bp+5f, 0xb.ecc6bp+10f},
                          {-0xe.de474p+7f, -0xd.50841p+10f, -0xc.75d3fp+7f},
                          {0x8.f719cp+10f, -0xa.a6ccep+10f, 0xe.308d1p+8f},
                          {0xe.f8d3cp+10f, -0x8.f20eep+9f, -0xa.409b8p+10f}};
  const ConvexPoints<V> b{{-0x8.3962p+7f, -0x8.f20eep+9f, -0xa.409b8p+10f},
                          {0xa.bf4f2p+9f, 0xa.de6b9p+10f, -0xa.7f3a7p+9f},
                          {0xc.bf306p+10f, -0xf.349b2p+8f, -0xd.08f61p+9f},
                          {0xd.7c31ep+11f, 0xf.e053ep+7f, -0xa.ddb6fp+10f},
                          {0xb.ae9d1p+8f, 0xa.dc1a2p+10f, -0xe.73c32p+10f}};
  const auto exact = distance(converted<Exact>(a), converted<Exact>(b));
  ASSERT_EQ(exact.status, Status::Separated);
  const float truth = std::sqrt(to_scalar<float>(exact.squared_distance()));
  const auto r = distance(a, b);
  EXPECT_EQ(r.status, Status::Separated) << to_string(r.stop_rule);
  const float bound = float(kContractDistanceEpsilons) * ScalarTraits<float>::epsilon() * input_scale(a, b);
  EXPECT_LE(std::fabs(r.distance() - truth), bound);
}

// Regression (found by the property suite, FamilyProperties.Scales2d, RC_PARAMS seed=3: a rotated vertex–vertex
// contact, long double): A and B share a vertex, so the origin is a vertex of A⊖B. GJK reached the segment between
// the differences (2,1) and (1,2), which passes 1.4·10⁻¹⁵ from the origin, and searched along −v: v's rounding error
// (about ε·|w| = 10⁻¹⁸) tilts it by 10⁻³, far more than the 10⁻³⁰ by which the shared vertex beats the segment's ends
// in that direction, so the support repeated, and rule 5 answered Separated at 1.4·10⁻¹⁵, four times the distance
// bound. Cause: the search direction was the rounded v. Now it is the segment's normal (search_direction). What does
// not matter: the scalar type (every type must find the vertex; double happened to land in its touching band).
// Both ways a floating query can run: by default (the textbook pass, which hands the query to the careful pass where it
// cannot vouch for its answer) and by the careful pass alone (Options::careful_pass_only), whose mechanisms the
// SearchDirection regressions pin. Every regression below holds both: the whole query's answer, and the mechanism.
template <class V>
std::array<Options<V>, 2> both_passes() {
  Options<V> careful;
  careful.careful_pass_only = true;
  return {Options<V>{}, careful};
}

// A touching pair must be Intersecting from either side, both ways; the failure names the stop rule and the distance.
template <class S>
void expect_intersecting_both_ways(const S& a, const S& b) {
  for (const auto& o : both_passes<typename S::vector_type>())
    for (const auto& r : {distance(a, b, o), distance(b, a, o)})
      EXPECT_EQ(r.status, Status::Intersecting) << to_string(r.stop_rule) << " at " << double(r.distance());
}

template <class T>
class SearchDirection : public ::testing::Test {};
TYPED_TEST_SUITE(SearchDirection, ScalarTypes, ScalarNames);

TYPED_TEST(SearchDirection, IsTheEdgeNormalNotTheRoundedV) {
  using T = TypeParam;
  const auto a = shape2<T>({{-0x1.9c01708475c88p+4, -0x1.af9ba5ea9a6bcp+3},
                            {-0x1.a9e44a16f89e6p+4, -0x1.4815ef0a5fb43p+4},
                            {-0x1.49e8a7c07d396p+4, -0x1.4646b6e95081bp+4}});
  const auto b = shape2<T>({{-0x1.97c898375252ap+4, -0x1.b7c3a3146d21bp+4},
                            {-0x1.d9e21b423650fp+4, -0x1.48fd8b1ae74d8p+4},
                            {-0x1.49e8a7c07d396p+4, -0x1.4646b6e95081bp+4}});
  for (const auto& o : both_passes<Vec2<T>>()) {
    const auto r = distance(a, b, o);
    EXPECT_EQ(r.status, Status::Intersecting) << to_string(r.stop_rule) << " at " << double(r.distance());
    EXPECT_EQ(intersect(a, b, o).status, Status::Intersecting);
    EXPECT_EQ(distance(b, a, o).status, Status::Intersecting);
  }
}

// Regression (found by the property suite, FamilyProperties.Scales3d, RC_PARAMS seed=2, long double): a rotated
// touching pair that the rotation's rounding made overlap; the origin is inside A⊖B, 1.7·10⁻¹⁶ behind the face
// (4,2)–(6,1)–(5,3). Searching along the rounded v (direction off by about 10⁻³) found a support no further than the
// face, and rule 5 (and, with only the search direction changed, rule 4) answered Separated at 1.7·10⁻¹⁶, above the
// distance bound. Cause: v's direction, used for the search and for the stop tests, was noise at that distance. Now v
// is the projection onto the face's normal (closest_in_frame). What does not matter: the scalar type.
TYPED_TEST(SearchDirection, IsTheFaceNormalNotTheRoundedV) {
  using T = TypeParam;
  const auto a = shape3<T>({{-0x1.97092338ff064p-1, 0x1.0ab82fc35febcp+2, -14},
                            {0x1.7c45332eab9f4p+0, 0x1.62996034852efp+3, -15},
                            {-0x1.598f3da54b8cp-3, 0x1.86928cc3e530cp+3, -19},
                            {-0x1.1376eabb3f86dp+2, 0x1.e0817c2a55355p+3, -14}});
  const auto b = shape3<T>({{0x1.c4bf4b702038cp+2, 0x1.f7e44f689a647p+3, -14},
                            {0x1.fbbbedc1d59c1p+1, 0x1.2ca39d5d752c3p+3, -14},
                            {-0x1.53324804d4852p+1, 0x1.bc884f9af5338p+3, -20},
                            {-0x1.d2a90297fe82p+0, 0x1.aa8bb95345329p+3, -13}});
  expect_intersecting_both_ways(a, b);
}

// Regression (found by the property suite, FamilyProperties.Scales3d, RC_PARAMS seed=3, long double;
// cases/findings/stall-3d-segment-wedge.json): two triangles sharing a vertex, so the origin is a vertex of A⊖B. GJK
// reached a segment 10⁻¹⁵ from the origin; the best support lies 7 away along z and beats the segment by a relative
// 10⁻³¹ — the wedge between them is that flat — so the next simplex was not measurably closer and rule 6 answered
// Separated at 10⁻¹⁵, nine times the distance bound. Cause: a real duality gap hidden below the rounding of the
// region tests. The first fix grew the segment to the triangle (segment, w); since finding 6 a stall with a real gap
// takes the region tests' step to the next simplex anyway (kStalledStepsWithGap) and searches along its normal, which
// finds the shared vertex here too, so the growth was removed. What does not matter: the scalar type.
TYPED_TEST(SearchDirection, StepsPastAFlatWedgeAtASegment) {
  using T = TypeParam;
  const auto a = shape3<T>({{-0x1.bac37a0cc8808p+3, -0x1.a16632cec7688p+4, -27},
                            {-0x1.9a902abceca3p+3, -0x1.b14c61c17a334p+4, -20},
                            {-0x1.2de2034e09ea2p+4, -0x1.51e7481149724p+4, -20}});
  const auto b = shape3<T>({{-0x1.bac37a0cc8808p+3, -0x1.a16632cec7688p+4, -13},
                            {-0x1.39f63ccd590a6p+3, -0x1.e0feee999293dp+4, -20},
                            {-0x1.2de2034e09ea2p+4, -0x1.51e7481149724p+4, -20}});
  expect_intersecting_both_ways(a, b);
}

// Regression (found by the 100,000-case campaign, FamilyProperties.Scales3d, seed 777, long double;
// cases/findings/stall-3d-triangle-wedge.json): A and B share a vertex (A's last point is B's), so they touch. GJK
// reached a triangle 4·10⁻¹⁶ from the origin; the best support beats it by 10⁻³⁶ against |v|² = 10⁻³³, the region
// tests took it into the next triangle, but that triangle was not measurably closer, and rule 6 answered Separated at
// 3.4·10⁻¹⁶, 1.9 times the distance bound. Cause: the flat wedge of the segment case, one dimension up. Now a stall
// with a real duality gap takes the step anyway (kStalledStepsWithGap) and searches along the new triangle's normal.
// What does not matter: the scalar type; the duplicated points of the campaign's case (dropped here).
TYPED_TEST(SearchDirection, StepsPastAFlatWedgeAtATriangle) {
  using T = TypeParam;
  const auto a = shape3<T>({{-0x1.33f448ad9201bp+3, 0x1.9f3ea6f083af8p+3, -26},
                            {-0x1.b7e21207fafa2p+2, 0x1.9d94004bc2b7bp+2, -27},
                            {-0x1.1237d3212ef9cp+0, 0x1.ff68fb89f16dfp+2, -21}});
  const auto b = shape3<T>({{-0x1.83a2471f61af6p+2, -0x1.1f8d084736b8p-1, -26},
                            {-0x1.07db92b4d1f0dp+2, -0x1.aaa6a4c0f7cap-5, -16},
                            {0x1.a7378f98714c3p+1, 0x1.c4daee9e2b7e4p+2, -26},
                            {-0x1.38c61053e94cp+3, 0x1.6ca982acab5c8p+2, -30},
                            {-0x1.1237d3212ef9cp+0, 0x1.ff68fb89f16dfp+2, -21}});
  expect_intersecting_both_ways(a, b);
}

// Regression (found by the property suite while writing the growth above, FamilyProperties.Scales3d, seed 8): a
// needle (coordinates ×2^20) where a stalled segment's triangle (segment, w) has the origin's projection well outside
// it. A version that grew the segment to that triangle, clamping the negative weights, stopped by rule 4 with v on the
// wrong point: distance 5,346,709 for the true 5,242,880. Cause: leaving the simplex the region tests chose, where
// they were right. Any future escape from a stall must keep this distance. What does not matter: the scalar type.
TYPED_TEST(SearchDirection, NeedleDistanceIsNotMisplaced) {
  using T = TypeParam;
  const auto a = shape3<T>({{-8388608, -8388608, -8}, {-5242880, -8388608, -8}});
  const auto b = shape3<T>({{-5242880, -25165824, -24}, {-4194304, -13631488, -23}, {-5242880, -13631488, -24}});
  const auto exact = distance(converted<Exact>(a), converted<Exact>(b));
  for (const auto& o : both_passes<Vec3<T>>()) {
    const auto r = distance(a, b, o);
    EXPECT_EQ(r.status, Status::Separated);
    if constexpr (ScalarTraits<T>::is_exact) {
      EXPECT_EQ(r.squared_distance(), exact.squared_distance());
    } else {
      const double truth = std::sqrt(to_scalar<double>(exact.squared_distance()));
      const double eps = static_cast<double>(ScalarTraits<T>::epsilon());
      const double bound = kContractDistanceEpsilons * eps * static_cast<double>(input_scale(a, b)) +
                           kRelativeGapEpsilons * eps * truth;
      EXPECT_LE(std::fabs(static_cast<double>(r.distance()) - truth), bound) << to_string(r.stop_rule);
    }
  }
}

// Regression (found by the property suite's arbitrary warm starts, Metamorphic.ExactTransformationsKeepTheAnswer3d,
// seed 20261122, double): a warm simplex of four pairs naming only two distinct points of A⊖B, {p, p, q, p}. Of its
// four signed volumes three were exactly 0 and one, p·(q×p), rounded to a tiny non-zero value, so their sum was not
// exactly zero, the flat test missed the degenerate tetrahedron, no volume had the opposite sign, and the origin was
// declared enclosed: Intersecting, where the shapes are 25.5 apart. Cause: repeated points kept in the warm simplex.
// Now they are dropped. What does not matter: the scalar type (exact arithmetic gets the volumes exactly 0 and was
// right); the positions of the repeats.
template <class T>
class WarmStart : public ::testing::Test {};
TYPED_TEST_SUITE(WarmStart, ScalarTypes, ScalarNames);

TYPED_TEST(WarmStart, RepeatedPointsDoNotMakeAFalseEnclosure) {
  using T = TypeParam;
  const auto a = shape3<T>({{-0x1.fcc5de56595bp+2, -0x1.019a7a7edeec5p+3, -8}});
  const auto b = shape3<T>({{-0x1.7d9466c0c3044p+4, -0x1.8267b7be4e628p+4, -24},
                            {-0x1.7dc7df75fe283p+4, -0x1.6267e123ada8ep+4, -22}});
  const auto cold = distance(a, b);
  ASSERT_EQ(cold.status, Status::Separated);
  for (const std::vector<std::pair<std::size_t, std::size_t>>& pairs :
       {std::vector<std::pair<std::size_t, std::size_t>>{{0, 0}, {0, 0}, {0, 1}, {0, 0}},
        {{0, 1}, {0, 0}, {0, 1}, {0, 0}}, {{0, 0}, {0, 1}, {0, 1}}, {{0, 1}, {0, 1}}}) {
    Options<Vec3<T>> options;
    options.warm_start_simplex = pairs;
    const auto warm = distance(a, b, options);
    EXPECT_EQ(warm.status, Status::Separated) << to_string(warm.stop_rule) << " from " << pairs.size() << " pairs";
    EXPECT_EQ(warm.squared_distance(), cold.squared_distance());
  }
}

// Regression (issue 17's report, pinned by WarmStart.FlatDifferencesGiveTheColdAnswer3d, seed 20261122, shrunk): A and B
// of two points each in the plane z = −x − y/2 through the origin, so A⊖B is four coplanar points and the origin lies
// in their plane, about 33 from their hull. A warm start naming all four made a flat tetrahedron whose
// rounded volumes shared one sign: double answered Intersecting (Enclosed) at iteration 0. Cause: an
// affinely dependent warm simplex, which no cold run builds. Now the warm-start layer keeps a point only if its
// volume with the points before it clears its rounding bound (extends_the_hull). The test runs all 24 orders of the
// pairs. What does not matter: float and long double (right here by the luck of their rounding; exact arithmetic sees
// the volumes exactly 0).
TYPED_TEST(WarmStart, CoplanarPointsDoNotMakeAFalseEnclosure) {
  using T = TypeParam;
  const auto a = shape3<T>({{-0x1.fffffcp+2, -0x1.fffffcp+2, 0x1.7ffffdp+3}, {-0x1.fffffcp+2, -0x1.fffff8p+2, 0x1.7ffffcp+3}});
  const auto b = shape3<T>({{-0x1.7ffffdp+4, -0x1.7ffffdp+4, 0x1.1ffffdcp+5}, {-0x1.7ffffcp+4, -0x1.7fa57ap+4, 0x1.1fe95c8p+5}});
  const auto cold = distance(a, b);
  ASSERT_EQ(cold.status, Status::Separated);
  const T bound = T(2 * kContractDistanceEpsilons) * ScalarTraits<T>::epsilon() * input_scale(a, b);
  std::vector<std::pair<std::size_t, std::size_t>> pairs = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
  do {
    Options<Vec3<T>> options;
    options.warm_start_simplex = pairs;
    const auto warm = distance(a, b, options);
    EXPECT_EQ(warm.status, Status::Separated) << to_string(warm.stop_rule);
    if constexpr (ScalarTraits<T>::is_exact)
      EXPECT_EQ(warm.squared_distance(), cold.squared_distance());
    else
      EXPECT_LE(std::fabs(warm.distance() - cold.distance()), bound);
  } while (std::next_permutation(pairs.begin(), pairs.end()));
}

// Regression (found by the reference_3d fuzz target, 2026-11-22; cases/findings/needle-triangle-normal.json): A is a
// needle — two points near the origin and one 1.6·10¹¹ away. GJK reached the triangle of that far vertex and two
// small ones; its normal was the cross product of the two long edges, nearly parallel, so it kept little more than
// their rounding, and n·p was taken from the far vertex; the search along it found no better support, and rule 5
// answered 0.2961 where the distance is 0.2716: 690·ε·M, five times the contract's bound. Cause: the normal taken from
// the wrong pair of edges. Now triangle_normal uses the two shortest edges and closest_in_frame takes n·p from the
// vertex nearest the origin. What does not matter: the near-touching offset of B. Long double failed one step later
// (NeedleTetrahedronVolumesUseShortEdges); float is inside its verdict band here.
// The needle's distance error in scalar T against the exact distance, and the contract's distance bound for it.
template <class T>
std::pair<double, double> needle_error_and_bound(Status* status, const Options<Vec3<T>>& options) {
  const auto a = shape3<T>({{-8, 0, 7}, {2, 0, -1}, {0x1.29642424242ffp+37, 0x1.24242424a4242p+37, 0x1.2424206001302p+37}});
  const auto b = shape3<T>({{0, 0, -0x1p-40}, {4, 4, 0x1.ffffffffff8p+1}});
  const auto exact = distance(converted<Exact>(a), converted<Exact>(b));
  EXPECT_TRUE(certify_exact(converted<Exact>(a), converted<Exact>(b), exact));
  const auto r = distance(a, b, options);
  *status = r.status;
  const double truth = std::sqrt(to_scalar<double>(exact.squared_distance()));
  const double eps = static_cast<double>(ScalarTraits<T>::epsilon());
  const double bound = kContractDistanceEpsilons * eps * static_cast<double>(input_scale(a, b)) +
                       kRelativeGapEpsilons * eps * truth;
  return {std::fabs(static_cast<double>(r.distance()) - truth), bound};
}

TEST(SearchDirection, NeedleTriangleNormalUsesItsShortEdges) {
  for (const auto& o : both_passes<Vec3<double>>()) {
    Status status;
    const auto [error, bound] = needle_error_and_bound<double>(&status, o);
    EXPECT_EQ(status, Status::Separated);
    EXPECT_LE(error, bound);
  }
}

// Regression (the same fuzz finding, long double): with the normal fixed, long double found the better support, but
// the tetrahedron case computed its signed volumes from the far vertex — three long, nearly parallel edges — missed
// that the origin lies beyond a face through w, and rule 6 answered Separated at 0.2961. Cause: volumes from the
// wrong vertex. Now each volume is computed from its most central point (signed_volume). What does not matter: the
// scalar type (double happened to pass once the normal was fixed).
TEST(SearchDirection, NeedleTetrahedronVolumesUseShortEdges) {
  for (const auto& o : both_passes<Vec3<long double>>()) {
    Status status;
    const auto [error, bound] = needle_error_and_bound<long double>(&status, o);
    EXPECT_EQ(status, Status::Separated);
    EXPECT_LE(error, bound);
  }
}

// Regression (finding 9, docs/edge-cases.md "a flat A⊖B beside a shared vertex"; found by the 1,000,000-case
// campaign, FamilyProperties.Scales3d, seed 1122): A and B are a triangle and its copy turned about two axes in
// double, sharing one vertex, so the origin is a vertex of A⊖B, and A⊖B is nearly flat: all nine differences lie
// within 2.5·10⁻¹⁵ of one plane through the origin. GJK reaches the segment [a₂ − b₁, a₁ − b₂], 2.62·10⁻¹⁶ from the
// origin (exactly so). Every triangle through it has its closest point on it to within a relative 10⁻³², so long
// double's region tests kept the segment, rule 6 saw no progress, and the answer was Separated at 209·ε·M, outside the
// contract. Exact arithmetic walks through the triangles (segment, a₀ − b₀) and (segment, a₂ − b₀), each along its
// normal, to the origin vertex a₂ − b₂. Cause: the stall rule only stepped when the region tests kept w. Now a stall at
// a 3D segment with a real duality gap walks those triangles' normals (step_past_a_flat_segment). What does not
// matter: the scalar (double stops inside its touching band here, before the stall).
TEST(SearchDirection, LongDoubleStepsPastAFlatSegment) {
  const auto a = shape3<long double>({{0x1.a435ca8363eb5p+3, 0x1.90e36644e27fap+4, -0x1.b7acb654c37cfp+3},
                                      {0x1.85a5e66c696ffp+3, 0x1.f6e6bf8ef95aep+4, -0x1.555f65f75265p+3},
                                      {0x1.1e829f7b242a2p+4, 0x1.be9efb1ccfdd2p+4, -0x1.5f7d40ca319c8p+2}});
  const auto b = shape3<long double>({{0x1.a435ca8363eb5p+3, 0x1.2513c1042bdb7p+5, -0x1.77b8fcd246e02p+2},
                                      {0x1.29f63a2779fddp+3, 0x1.098550e4070cep+5, -0x1.a82fc8c06f306p+3},
                                      {0x1.1e829f7b242a2p+4, 0x1.be9efb1ccfdd2p+4, -0x1.5f7d40ca319c8p+2}});
  const auto exact = distance(converted<Exact>(a), converted<Exact>(b));
  ASSERT_TRUE(certify_exact(converted<Exact>(a), converted<Exact>(b), exact));
  EXPECT_EQ(exact.status, Status::Intersecting);
  EXPECT_EQ(distance(converted<double>(a), converted<double>(b)).status, Status::Intersecting);
  for (const auto& o : both_passes<Vec3<long double>>()) {
    EXPECT_EQ(distance(a, b, o).status, Status::Intersecting);
    EXPECT_EQ(intersect(a, b, o).status, Status::Intersecting);
  }
}

// Regression (finding 11, docs/edge-cases.md "a sliver triangle over the origin"; found by the generator
// flat_under_a_chord of proptests/generators.hpp, cases/findings/sliver-triangle-long-double.json):
// a flat pair that overlaps. Long double reached a sliver triangle of A⊖B, three nearly collinear points about 6 long
// and 10⁻⁷ wide, with the origin 1.35·10⁻¹⁷ from it (exactly so). Its |v|, computed as n·p/|n| from the vertex nearest
// the origin, came out 7.19·10⁻¹⁴: on a sliver, rounding turns n by about ε·R/width, and that vertex is about R from
// the origin. Above the touching band, the loop went on; the tetrahedron with the next support encloses the origin
// exactly, but its volume against the sliver is rounding, so its region tests kept the sliver and rule 6 answered
// Separated at 7.19·10⁻¹⁴, outside the contract. Cause: the lever arm of the normal's rounding. Now closest_in_frame
// also measures from the point of the longest edge's line nearest the origin (within the width of it): |v| comes out
// 1.35·10⁻¹⁷, inside the band, and long double answers Intersecting. What does not matter: the query (the boolean query
// took the same path).
TEST(SearchDirection, LongDoubleMeasuresASliverFromItsLongestEdge) {
  const auto a = shape3<long double>({{-10, -8, -6},
                                      {-6, -0x1.ff15a0f01d42ep+2, -0x1.9301de41d4131p+2},
                                      {-7, -0x1.0c50fa0523278p+3, 0x1.fda0e1cc316d8p+0},
                                      {-8, -0x1.093cbc13afad8p+3, -0x1.c756de4754p-8},
                                      {-9, -0x1.049e5cfa2878cp+3, -0x1.8071d58339ad6p+1}});
  const auto b = shape3<long double>({{-10, -0x1.fffffec05edccp+2, -0x1.7ffffff09ac73p+2},
                                      {-6, -0x1.ff159fb07c1f9p+2, -0x1.9301de326eda4p+2},
                                      {-8, -0x1.093cbad40e8a4p+3, -0x1.c756631d8d4p-8}});
  const auto exact = distance(converted<Exact>(a), converted<Exact>(b));
  ASSERT_TRUE(certify_exact(converted<Exact>(a), converted<Exact>(b), exact));
  EXPECT_EQ(exact.status, Status::Intersecting);
  for (const auto& o : both_passes<Vec3<long double>>()) {
    EXPECT_EQ(distance(a, b, o).status, Status::Intersecting);
    EXPECT_EQ(intersect(a, b, o).status, Status::Intersecting);
  }
  const auto ad = converted<double>(a), bd = converted<double>(b);
  const auto d = distance(ad, bd);  // double: its band holds this pair
  const FloatingAnswer reported{d.status == Status::Separated, d.distance()};
  EXPECT_NE(judge_floating(reported, false, 0, static_cast<double>(ScalarTraits<double>::epsilon()),
                           input_scale(ad, bd), largest_coordinate(ad, bd), 3, false),
            Judgement::Violates);
}

// Regression (finding 12, docs/edge-cases.md "witnesses of a flat enclosing tetrahedron"; found by the generator
// flat_under_a_chord, cases/findings/flat-enclosing-tetrahedron-*.json): flat pairs that overlap, or touch with the
// origin on an edge of A⊖B. Double answered Intersecting by an enclosing tetrahedron, as the oracle does, but that
// tetrahedron is nearly flat: its weights, volumes over their sum, carried the volumes' rounding divided by a small
// sum, and the witnesses Σλᵢaᵢ and Σλᵢbᵢ were 2.37·10⁻⁷ apart (first pair) where the contract allows about 3·10⁻¹³.
// Cause: weights taken straight from the volumes. Now refine_enclosing_weights corrects them along the volumes'
// gradients until their point stops nearing the origin; where a corrected weight goes negative (second pair: the
// origin, as rounded, lies outside the tetrahedron by a hair, next to an edge), the closest face opposite it gives
// the closest point. What does not matter: the query (both stop at the same simplex).
TEST(SearchDirection, DoubleWitnessesOfAFlatEnclosingTetrahedron) {
  const std::array<std::pair<P3<double>, P3<double>>, 3> pairs = {
      std::pair{shape3<double>({
      {-20, -20, -18},
      {-18, -0x1.3d0b6e3f5a2fap+4, -0x1.1f2957845ce59p+4},
      {-19, -0x1.89b88df4c24bep+3, -0x1.fa1fd26b552a9p+3}}),
                shape3<double>({
      {-20, -0x1.4000000001178p+4, -0x1.1ffffffffc26ep+4},
      {-18, -0x1.3d0b6e3f5b472p+4, -0x1.1f295784590c8p+4},
      {-19, -0x1.89b88df4c47aep+3, -0x1.fa1fd26b4d785p+3},
      {-19, -0x1.89b88df4c01cep+3, -0x1.fa1fd26b5cdccp+3}})},
      std::pair{shape3<double>({
      {-20, -20, -15},
      {-18, -0x1.431aba4b0fb2p+4, -0x1.e18d797e0ebap+3},
      {-19, -0x1.bc2d19c99bf2bp+4, -0x1.0f0d859bf843dp+4},
      {-19, -0x1.bc2d19c99bf2bp+4, -0x1.0f0d859bf843dp+4},
      {-19, -0x1.bc2d19c99bf2bp+4, -0x1.0f0d859bf843dp+4},
      {-19, -0x1.6e90e87513908p+4, -0x1.f74a2de8805d7p+3}}),
                shape3<double>({
      {-20, -0x1.3fffff0794113p+4, -0x1.e00007c2d1bbap+3},
      {-16, -0x1.4635739db3754p+4, -0x1.e31afabeef2fbp+3},
      {-17, -0x1.9d21d1e2930fdp+4, -0x1.074a2a07177fap+4},
      {-18, -0x1.9d21d1e2930fdp+4, -0x1.074a2a07177fap+4}})},
      // Finding 15: a tetrahedron of volume 5·10⁻¹³, whose refinement needs four steps (kWeightRefinementSteps).
      std::pair{shape3<double>({
      {-20, -20, -15},
      {-15, -0x1.404bf9ef40c52p+4, -0x1.e03d44fc658e7p+3},
      {-19, -0x1.b6b685d533f5dp+4, -0x1.1fdde52f57568p+4},
      {-19, -0x1.a7dfb51a8d7ep+4, -0x1.19e228896c5a9p+4}}),
                shape3<double>({
      {-20, -0x1.4000000000048p+4, -0x1.dfffffffffe9cp+3},
      {-16, -0x1.403cc7f29a3bcp+4, -0x1.e03103fd1df55p+3},
      {-18, -0x1.b6b685d533fa5p+4, -0x1.1fdde52f574b6p+4}})}};
  const double eps = ScalarTraits<double>::epsilon();
  for (const auto& [a, b] : pairs) {
    const auto exact = distance(converted<Exact>(a), converted<Exact>(b));
    ASSERT_TRUE(certify_exact(converted<Exact>(a), converted<Exact>(b), exact));
    ASSERT_EQ(exact.status, Status::Intersecting);
    for (const auto& o : both_passes<Vec3<double>>()) {
      const auto r = distance(a, b, o);
      ASSERT_EQ(r.status, Status::Intersecting);
      const Vec3<double> gap = r.witness_a - r.witness_b;
      const double allowed = kContractDistanceEpsilons * eps * input_scale(a, b) +
                             2 * kContractWitnessEpsilons * eps * largest_coordinate(a, b);
      EXPECT_LE(std::sqrt(dot(gap, gap)), allowed);
      for (int i = 0; i < r.simplex.size; ++i) EXPECT_GE(r.simplex.weights[i], 0.0);  // the witnesses are in the hulls
      EXPECT_EQ(intersect(a, b, o).status, Status::Intersecting);
    }
  }
}

// Regression (finding 14, docs/edge-cases.md "witnesses of a sliver triangle"; found by the generator
// flat_under_a_chord, cases/findings/sliver-triangle-witnesses-double.json): a flat pair that overlaps. Double stops
// at a sliver triangle of A⊖B — (0, 7.38, 3.08), (0, −1.85, −0.77), (0, 0.92, 0.39), nearly collinear, along a line
// through the origin — whose measured v is exactly 0 (origin-on-simplex). Right, but its face-region weights are
// numerators over their small sum, and carry rounding of about ε·R²/width: the witnesses were 2.17·10⁻⁸ apart where
// the contract allows 3·10⁻¹³. Cause: weights straight from the numerators. Now refine_face_weights corrects them
// along their gradients towards the origin's projection: 3.6·10⁻¹⁵ apart. What does not matter: the stop rule (the
// weights are the same whichever rule stops at this triangle).
TEST(SearchDirection, DoubleWitnessesOfASliverTriangle) {
  const auto a = shape3<double>({{-20, -20, -15},
                                 {-18, -0x1.42f3da7f887d4p+4, -0x1.e277bda5ead51p+3},
                                 {-19, -0x1.a756df7133f54p+4, -0x1.1b2f76d3dcbf4p+4},
                                 {-19, -0x1.3fffffff9d4a6p+4, -0x1.e0000001d8689p+3}});
  const auto b = shape3<double>({{-20, -0x1.40000002b2f77p+4, -0x1.dffffff315241p+3},
                                 {-18, -0x1.42f3da823b74ap+4, -0x1.e277bd98fff92p+3},
                                 {-19, -0x1.b61a23f1915edp+4, -0x1.215ad0ec3265ep+4},
                                 {-19, -0x1.b61a23efa3d2ap+4, -0x1.215ad0f0cf6b5p+4},
                                 {-19, -0x1.b61a23ee7bb1cp+4, -0x1.215ad0f394082p+4},
                                 {-19, -0x1.89d05675df111p+4, -0x1.0ed8c2964696p+4}});
  const auto exact = distance(converted<Exact>(a), converted<Exact>(b));
  ASSERT_TRUE(certify_exact(converted<Exact>(a), converted<Exact>(b), exact));
  ASSERT_EQ(exact.status, Status::Intersecting);
  for (const auto& o : both_passes<Vec3<double>>()) {
    const auto r = distance(a, b, o);
    ASSERT_EQ(r.status, Status::Intersecting);
    const double eps = ScalarTraits<double>::epsilon();
    const Vec3<double> gap = r.witness_a - r.witness_b;
    EXPECT_LE(std::sqrt(dot(gap, gap)), kContractDistanceEpsilons * eps * input_scale(a, b) +
                                            2 * kContractWitnessEpsilons * eps * largest_coordinate(a, b));
    for (int i = 0; i < r.simplex.size; ++i) EXPECT_GE(r.simplex.weights[i], 0.0);
  }
}

// Regression (finding 13, docs/edge-cases.md "a tetrahedron over a sliver face"; found by the generator
// flat_under_a_chord, cases/findings/flat-pair-long-double-sliver-face.json): a flat pair that overlaps; A⊖B lies
// within 1.8·10⁻¹⁵ of a plane. Long double reached the triangle (a₁ − b₀, a₀ − b₁, a₀ − b₂), 2.25·10⁻¹⁶ from the origin
// (exactly so), and its support a₁ − b₁ makes a tetrahedron that encloses the origin exactly, with the weight 2.5·10⁻¹⁶
// on a₀ − b₂. The face opposite it is a sliver: a₁ − b₁ lies almost on the line through the first two points, which
// passes 1.57·10⁻¹⁵ from the origin. That face's volume det(q, r, s), computed from vectors about 5 long, came out
// 1.5·10⁻²³ (its rounding bound: 5.2·10⁻¹⁷) against a true −9.5·10⁻³⁰, so the region tests put the origin beyond the
// sliver, took its edge (1.57·10⁻¹⁵ away, farther than the triangle), and rule 6 answered Separated at 2.25·10⁻¹⁶:
// twice the contract's distance allowance. Cause: the volume's lever arm, as in finding 11. Now a volume with the
// origin as a vertex whose determinant is within its rounding bound is measured as the face's normal times the origin's
// height, from the point of the face's longest edge's line nearest the origin (volume_with_origin). What does not
// matter: the query (the boolean query took the same path); double stops inside its touching band.
TEST(SearchDirection, LongDoubleMeasuresATetrahedronFromItsSliverFace) {
  const auto a = shape3<long double>({{-20, -20, -4},
                                      {-17, -0x1.3cbfc29db3b7p+4, -0x1.f48d0f09ea008p+1},
                                      {-19, -0x1.95b2c127a3f5cp+3, -0x1.8db1fb3430b48p-1}});
  const auto b = shape3<long double>({{-20, -20, -0x1.0000000000001p+2},
                                      {-15, -0x1.3a94ef06d6311p+4, -0x1.eceb19108600fp+1},
                                      {-19, -0x1.95b2c127a3f5cp+3, -0x1.8db1fb3430b5p-1}});
  const auto exact = distance(converted<Exact>(a), converted<Exact>(b));
  ASSERT_TRUE(certify_exact(converted<Exact>(a), converted<Exact>(b), exact));
  EXPECT_EQ(exact.status, Status::Intersecting);
  for (const auto& o : both_passes<Vec3<long double>>()) {
    EXPECT_EQ(distance(a, b, o).status, Status::Intersecting);
    EXPECT_EQ(intersect(a, b, o).status, Status::Intersecting);
  }
  const auto ad = converted<double>(a), bd = converted<double>(b);
  const auto d = distance(ad, bd);
  const FloatingAnswer reported{d.status == Status::Separated, d.distance()};
  EXPECT_NE(judge_floating(reported, false, 0, static_cast<double>(ScalarTraits<double>::epsilon()),
                           input_scale(ad, bd), largest_coordinate(ad, bd), 3, false),
            Judgement::Violates);
}

// Regression (finding 10, docs/edge-cases.md "a small simplex beside a far support"; found by the reference_3d fuzz
// target, cases/findings/float-far-support-cycle.json): B is the point (1, 1, 1), a vertex of A, so the shapes touch;
// A also has a vertex 1.25·2⁶⁵ away along −y. In float, GJK reached a triangle near the origin whose support in −v is
// that far vertex, and rule 6 compared the triangle with the next simplex (a segment) in the frame of all four points.
// There the triangle's points are 2⁻⁶⁶ of the largest, its degree-4 region quantities underflow, and its |v| came out
// larger than the segment's; the segment's support brought the triangle back, and the loop cycled to its cap
// (IterationLimit, outside the contract). Cause: progress measured in a frame shared with a far point. Now is_closer
// compares each simplex in its own frame, as the next iteration measures it, and float stops by rule 6 as double and
// long double do (Separated at about 0.96, inside the verdict band: M = 1.25·2⁶⁵). What does not matter: the repeated
// points, and the query (the boolean query cycled too).
template <class T>
void far_support_terminates_within_contract() {
  const auto a = shape3<T>({{8, 1, 2}, {1, 0, 0}, {1, 0, 0}, {1, 3, 0}, {1, -0x1.4p+65, 1}, {1, 1, 1}, {1, 1, 1}});
  const auto b = shape3<T>({{1, 1, 1}, {1, 1, 1}});
  const auto exact = distance(converted<Exact>(a), converted<Exact>(b));
  ASSERT_TRUE(certify_exact(converted<Exact>(a), converted<Exact>(b), exact));
  ASSERT_EQ(exact.status, Status::Intersecting);
  // The input is exact in every scalar (small integers and 5·2⁶³), so there is no input rounding.
  const double eps = static_cast<double>(ScalarTraits<T>::epsilon());
  const auto ad = converted<double>(a), bd = converted<double>(b);
  const double m = input_scale(ad, bd), r = largest_coordinate(ad, bd);
  for (const auto& o : both_passes<Vec3<T>>()) {
    const auto d = distance(a, b, o);
    ASSERT_NE(d.status, Status::IterationLimit);
    const FloatingAnswer reported{d.status == Status::Separated, static_cast<double>(d.distance())};
    EXPECT_NE(judge_floating(reported, false, 0, eps, m, r, 3, false), Judgement::Violates);
    EXPECT_NE(intersect(a, b, o).status, Status::IterationLimit);
  }
}

TEST(SearchDirection, FloatMeasuresProgressInTheSimplexOwnFrame) { far_support_terminates_within_contract<float>(); }
TEST(SearchDirection, DoubleAndLongDoubleStopBesideAFarSupport) {
  far_support_terminates_within_contract<double>();
  far_support_terminates_within_contract<long double>();
}

// A shape that counts its support calls; with vertex access (IndexedShape) or without.
template <class S, bool kIndexed>
struct CountedShape {
  using vector_type = typename S::vector_type;
  const S* shape;
  int* calls;
  Support<vector_type> support(const vector_type& d) const {
    ++*calls;
    return shape->support(d);
  }
  ShapeCheck check() const { return shape->check(); }
  vector_type vertex(std::size_t i) const requires kIndexed { return shape->vertex(i); }
  std::size_t size() const requires kIndexed { return shape->size(); }
};

// The cold start (initial_simplex): the book's arbitrary point of A⊖B is a₀ − b₀ on shapes that hand out vertices — no
// support call, so each shape is asked once per iteration — and the support along +x on shapes that do not (one call
// more). The first simplex is the pair (0, 0). Exact and double (the textbook pass's answers; a hand-over restarts),
// 2D and 3D; the answers of the two starts are the same (exact: bit for bit, certified).
template <Vector V>
void cold_starts(std::mt19937_64& rng) {
  using S = ConvexPoints<V>;
  int checked = 0;
  for (int t = 0; t < 200; ++t) {
    const S a = random_lattice_shape<V>(rng, 1, 12, 4), b = random_lattice_shape<V>(rng, 1, 12, 4);
    int calls_a = 0, calls_b = 0;
    const CountedShape<S, true> ia{&a, &calls_a}, ib{&b, &calls_b};
    const auto indexed = distance(ia, ib);
    if (indexed.pass != Pass::Textbook) continue;
    EXPECT_EQ(calls_a, indexed.iterations) << "pair " << t;
    EXPECT_EQ(calls_b, indexed.iterations) << "pair " << t;
    calls_a = calls_b = 0;
    const CountedShape<S, false> sa{&a, &calls_a}, sb{&b, &calls_b};
    const auto support_only = distance(sa, sb);
    if (support_only.pass != Pass::Textbook) continue;
    EXPECT_EQ(calls_a, support_only.iterations + 1) << "pair " << t;
    EXPECT_EQ(calls_b, support_only.iterations + 1) << "pair " << t;
    Simplex<V> first;
    ASSERT_TRUE(detail::initial_simplex(a, b, Options<V>{}, first));
    ASSERT_EQ(first.size, 1);
    EXPECT_EQ(first.points[0].index_a, 0u);
    EXPECT_EQ(first.points[0].index_b, 0u);
    EXPECT_TRUE(first.points[0].w == a.vertex(0) - b.vertex(0));
    EXPECT_EQ(indexed.status, support_only.status) << "pair " << t;
    if constexpr (is_exact_v<scalar_t<V>>) {
      EXPECT_EQ(indexed.squared_distance(), support_only.squared_distance()) << "pair " << t;
      EXPECT_TRUE(certify_exact(a, b, indexed)) << "pair " << t;
    }
    ++checked;
  }
  EXPECT_GT(checked, 150);
}

TEST(GjkCases, TheColdStartIsTheFirstVerticesWithoutASupportCall) {
  std::mt19937_64 rng(test_seed(62));
  cold_starts<Vec3<Exact>>(rng);
  cold_starts<Vec2<Exact>>(rng);
  cold_starts<Vec3<double>>(rng);
  cold_starts<Vec2<double>>(rng);
}

// Warm starts: from the cold run's final simplex (as index pairs), from its direction, and from the answer for a
// slightly moved B (temporal coherence). Exact: the same status and squared distance, certified.
TEST(GjkExact, WarmStartsGiveTheColdAnswer) {
  using V = Vec3<Exact>;
  std::mt19937_64 rng(test_seed(61));
  for (int t = 0; t < 500; ++t) {
    const auto a = random_lattice_shape<V>(rng, 1, 10, 3);
    const auto b = random_lattice_shape<V>(rng, 1, 10, 3);
    const auto cold = distance(a, b);
    Options<V> from_simplex, from_direction, from_previous;
    for (int i = 0; i < cold.simplex.size; ++i)
      from_simplex.warm_start_simplex.push_back({cold.simplex.points[i].index_a, cold.simplex.points[i].index_b});
    from_direction.initial_direction = -cold.closest;
    std::vector<V> moved;
    for (const V& p : b.points()) moved.push_back(p + V{rational(1, 2), Exact(0), rational(-1, 4)});
    const auto previous = distance(a, ConvexPoints<V>(moved));
    for (int i = 0; i < previous.simplex.size; ++i)
      from_previous.warm_start_simplex.push_back(
          {previous.simplex.points[i].index_a, previous.simplex.points[i].index_b});
    for (const auto* o : {&from_simplex, &from_direction, &from_previous}) {
      const auto warm = distance(a, b, *o);
      ASSERT_TRUE(certify_exact(a, b, warm)) << "pair " << t;
      ASSERT_EQ(warm.status, cold.status);
      ASSERT_EQ(warm.squared_distance(), cold.squared_distance());
    }
    // Warm-started from its own final simplex, a converged query needs no more than one further support query.
    ASSERT_LE(distance(a, b, from_simplex).iterations, 1);
  }
}

TYPED_TEST(GjkFloating, WarmStartsGiveTheColdAnswer) {
  using T = TypeParam;
  using V = Vec3<T>;
  std::mt19937_64 rng(test_seed(62));
  for (int t = 0; t < 500; ++t) {
    const auto a = converted<T>(random_lattice_shape<Vec3<double>>(rng, 1, 10, 3));
    const auto b = converted<T>(random_lattice_shape<Vec3<double>>(rng, 1, 10, 3));
    const auto cold = distance(a, b);
    Options<V> o;
    for (int i = 0; i < cold.simplex.size; ++i)
      o.warm_start_simplex.push_back({cold.simplex.points[i].index_a, cold.simplex.points[i].index_b});
    const auto warm = distance(a, b, o);
    ASSERT_EQ(warm.status, cold.status);
    const T bound = T(2 * kContractDistanceEpsilons) * ScalarTraits<T>::epsilon() * input_scale(a, b);
    ASSERT_LE(std::fabs(warm.distance() - cold.distance()), bound);
  }
}

// Warm starts from degenerate simplices — duplicate pairs, collinear, coplanar — the only way degenerate simplices
// reach the loop in exact arithmetic (from a cold start, each new w lies off the affine hull of the current feature,
// since v·w < |v|² while v is orthogonal to that hull). Every answer must still be certified.
TEST(GjkExact, WarmStartsFromDegenerateSimplices) {
  using V = Vec3<Exact>;
  std::mt19937_64 rng(test_seed(63));
  std::uniform_int_distribution<std::size_t> pick(0, 5);
  int flat = 0;
  for (int t = 0; t < 600; ++t) {
    // Shapes with 6 vertices on a plane or line make degenerate warm simplices frequent.
    std::vector<V> pa, pb;
    std::uniform_int_distribution<int> coord(-3, 3);
    for (int i = 0; i < 6; ++i) {
      pa.push_back({Exact(coord(rng)), Exact(coord(rng)), t % 2 ? Exact(0) : Exact(coord(rng))});
      pb.push_back({Exact(coord(rng)), t % 3 ? Exact(1) : Exact(coord(rng)), Exact(coord(rng) % 2)});
    }
    const ConvexPoints<V> a(pa), b(pb);
    Options<V> o;
    for (int i = 0; i < 4; ++i) o.warm_start_simplex.push_back({pick(rng), pick(rng)});
    std::vector<V> w;
    for (const auto& [i, j] : o.warm_start_simplex) w.push_back(pa[i] - pb[j]);
    std::vector<Exact> lambda;
    if (!projection_weights(w, lambda)) ++flat;
    const auto warm = distance(a, b, o);
    ASSERT_TRUE(certify_exact(a, b, warm)) << "pair " << t;
    ASSERT_EQ(warm.squared_distance(), distance(a, b).squared_distance()) << "pair " << t;
  }
  EXPECT_GT(flat, 100) << "degenerate warm simplices must be frequent";
}

// A long double is the rational it denotes, read from every bit of its significand (LDBL_MANT_DIG of them, whatever the
// format).
TEST(Certificates, LongDoubleConvertsExactly) {
  // The last value is a subnormal long double.
  for (long double x : {0.0L, 1.0L, -0.1L, 1.0L / 3.0L, std::ldexp(1.0L, -16000), std::ldexp(0.75L, 16000),
                        -std::ldexp(1.0L, -16440)}) {
    // Back to long double must be the identity.
    EXPECT_EQ(to_scalar<long double>(exact_rational(x)), x) << static_cast<double>(x);
  }
  EXPECT_EQ(exact_rational(-0.1L) + exact_rational(0.1L), Exact(0));
  EXPECT_EQ(exact_rational(0.75L), rational(3, 4));
  EXPECT_EQ(exact_rational(std::ldexp(1.0L, 70)), Exact(mpz_class(1) << 70));
  // 1/3 rounded to the nearest multiple of 2^−(p+1), p = LDBL_MANT_DIG (1/3 lies in [1/4, 1/2)): 2^(p+1) is 1 or 2
  // modulo 3, so the nearest numerator is (2^(p+1) − 1)/3 or (2^(p+1) + 1)/3.
  const mpz_class n = mpz_class(1) << (LDBL_MANT_DIG + 1);
  const mpz_class numerator = mpz_class(n % 3) == 1 ? mpz_class((n - 1) / 3) : mpz_class((n + 1) / 3);
  EXPECT_EQ(exact_rational(1.0L / 3.0L), Exact(numerator) / Exact(n));
  // Not a rational: refused (reading its significand would never end).
  EXPECT_THROW(exact_rational(std::numeric_limits<long double>::infinity()), std::logic_error);
  EXPECT_THROW(exact_rational(std::numeric_limits<long double>::quiet_NaN()), std::logic_error);
}

// check_certificate must refute what is false: a reversed separating direction, a simplex point that is not the
// vertex pair it names, and an intersecting simplex moved off the origin.
TEST(Certificates, CorruptedCertificatesAreRefuted) {
  using V = Vec3<double>;
  const ConvexPoints<V> a{V{0, 0, 0}, V{2, 0, 0}}, b{V{1, 1, 3}, V{1, -1, 3}};
  auto r = distance(a, b);
  ASSERT_EQ(check_certificate(a, b, r).check, CertificateCheck::Verified);
  r.separation->direction = -r.separation->direction;
  EXPECT_EQ(check_certificate(a, b, r).check, CertificateCheck::Refuted);

  const ConvexPoints<V> c{V{-1, 0, 0}, V{1, 0, 0}}, p{V{0.25, 0, 0}};
  auto i = distance(c, p);
  ASSERT_EQ(check_certificate(c, p, i).check, CertificateCheck::Verified);
  auto wrong_index = i;
  wrong_index.simplex.points[0].index_a = 1 - wrong_index.simplex.points[0].index_a;
  EXPECT_EQ(check_certificate(c, p, wrong_index).check, CertificateCheck::Refuted);
  const ConvexPoints<V> moved{V{0.25, 1, 0}};
  EXPECT_EQ(check_certificate(c, moved, i).check, CertificateCheck::Refuted);
  auto limit = i;
  limit.status = Status::IterationLimit;
  EXPECT_EQ(check_certificate(c, p, limit).check, CertificateCheck::NotApplicable);
}

// A certificate proves nothing about shapes that are not valid input, and a forged one must be refused with a reason,
// not crash the check: a coordinate that is not finite (NaN has no exact rational: GMP raised SIGFPE), an empty shape
// (the support pass read an empty optional), a separating direction that is not finite, a simplex of five points in
// 3D (read past its array). What does not matter: which shape or coordinate holds the bad number.
TEST(Certificates, CertificatesOnInvalidInputAreRefusedWithoutCrashing) {
  using V = Vec3<double>;
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const ConvexPoints<V> a{V{0, 0, 0}, V{2, 0, 0}}, b{V{1, 1, 3}, V{1, -1, 3}};
  const auto separated = distance(a, b);
  ASSERT_EQ(check_certificate(a, b, separated).check, CertificateCheck::Verified);
  const ConvexPoints<V> with_nan{V{0, 0, 0}, V{nan, 0, 0}}, with_inf{V{1, 1, 3}, V{1, -1, inf}}, empty{};
  for (const auto* bad_a : {&with_nan, &empty}) {
    const CertificateReport r = check_certificate(*bad_a, b, separated);
    EXPECT_EQ(r.check, CertificateCheck::Refuted);
    EXPECT_NE(r.reason.find("not valid input"), std::string::npos) << r.reason;
  }
  EXPECT_EQ(check_certificate(a, with_inf, separated).check, CertificateCheck::Refuted);
  auto nan_direction = separated;
  nan_direction.separation->direction = V{nan, 0, -1};
  EXPECT_EQ(check_certificate(a, b, nan_direction).check, CertificateCheck::Refuted);

  const ConvexPoints<V> c{V{-1, 0, 0}, V{1, 0, 0}}, p{V{0.25, 0, 0}};
  const auto intersecting = distance(c, p);
  ASSERT_EQ(check_certificate(c, p, intersecting).check, CertificateCheck::Verified);
  EXPECT_EQ(check_certificate(c, empty, intersecting).check, CertificateCheck::Refuted);
  EXPECT_EQ(check_certificate(with_nan, p, intersecting).check, CertificateCheck::Refuted);
  for (const int size : {5, -1}) {
    auto forged = intersecting;
    forged.simplex.size = size;
    EXPECT_EQ(check_certificate(c, p, forged).check, CertificateCheck::Refuted) << "size " << size;
  }
}

TEST(GjkExact, WarmStartErrors) {
  using V = Vec3<Exact>;
  const ConvexPoints<V> a{V{Exact(0), Exact(0), Exact(0)}}, b{V{Exact(1), Exact(0), Exact(0)}};
  Options<V> out_of_range;
  out_of_range.warm_start_simplex = {{0, 1}};
  EXPECT_EQ(distance(a, b, out_of_range).input_error, InputError::BadWarmStart);
  Options<V> too_many;
  too_many.warm_start_simplex = {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}};
  EXPECT_EQ(distance(a, b, too_many).input_error, InputError::BadWarmStart);
  Options<V> zero_direction;
  zero_direction.initial_direction = V{};
  EXPECT_EQ(distance(a, b, zero_direction).squared_distance(), Exact(1));
}

// Transformed shapes: the support s_T(A)(d) = T(s_A(Mᵀd)) must give the answer of the explicitly transformed
// point cloud, exactly — including for a singular (flattening) M.
TEST(GjkExact, TransformedShapesMatchTransformedPointClouds) {
  using V = Vec3<Exact>;
  std::mt19937_64 rng(test_seed(71));
  std::uniform_int_distribution<int> entry(-2, 2);
  for (int t = 0; t < 400; ++t) {
    const auto a = random_lattice_shape<V>(rng, 1, 8, 3);
    const auto b = random_lattice_shape<V>(rng, 1, 8, 3);
    LinearMap<V> m;
    for (auto& row : m.rows)
      for (int j = 0; j < 3; ++j) row[j] = rational(entry(rng), 2);
    const V c{Exact(entry(rng)), rational(entry(rng), 4), rational(1, 3)};
    const Transformed<ConvexPoints<V>> ta(a, m, c);
    std::vector<V> explicit_points;
    for (const V& p : a.points()) explicit_points.push_back(ta.transform(p));
    const ConvexPoints<V> ea(explicit_points);
    const auto via_support = distance(ta, b);
    const auto via_points = distance(ea, b);
    ASSERT_TRUE(certify_exact(ea, b, via_points));
    ASSERT_EQ(via_support.status, via_points.status) << "pair " << t;
    ASSERT_EQ(via_support.squared_distance(), via_points.squared_distance()) << "pair " << t;
    // Indices pass through the transform: the simplex names vertices of A.
    for (int i = 0; i < via_support.simplex.size; ++i)
      ASSERT_EQ(ta.vertex(via_support.simplex.points[i].index_a), via_support.simplex.points[i].a);
  }
}

// A zero linear map collapses A to the point c: then Mᵀd = 0 for every d, the case the transform answers with a fixed
// inner direction instead of passing the zero vector on. The answer must be the distance from c to B.
TEST(GjkExact, TransformedShapeWithZeroMapIsItsOffset) {
  using V = Vec3<Exact>;
  const ConvexPoints<V> a{V{Exact(5), Exact(5), Exact(5)}, V{Exact(-7), Exact(1), Exact(2)}};
  const ConvexPoints<V> b{V{Exact(0), Exact(0), Exact(0)}, V{Exact(2), Exact(0), Exact(0)}};
  const V c{Exact(1), Exact(3), Exact(4)};
  const Transformed<ConvexPoints<V>> collapsed(a, LinearMap<V>{}, c);
  const auto r = distance(collapsed, b);
  EXPECT_EQ(r.status, Status::Separated);
  EXPECT_EQ(r.squared_distance(), Exact(25));
  EXPECT_EQ(r.witness_a, c);
}

// A 2D case embedded in 3D (z = 0) gives the 2D answer, exactly.
TEST(GjkExact, TwoDimensionalCaseEmbeddedInThreeDimensions) {
  std::mt19937_64 rng(test_seed(81));
  for (int t = 0; t < 800; ++t) {
    const auto a = random_lattice_shape<Vec2<Exact>>(rng, 1, 8, 3);
    const auto b = random_lattice_shape<Vec2<Exact>>(rng, 1, 8, 3);
    auto lift = [](const ConvexPoints<Vec2<Exact>>& s) {
      std::vector<Vec3<Exact>> pts;
      for (const auto& p : s.points()) pts.push_back({p.x, p.y, Exact(0)});
      return ConvexPoints<Vec3<Exact>>(pts);
    };
    const auto r2 = distance(a, b);
    const auto r3 = distance(lift(a), lift(b));
    ASSERT_EQ(r2.status, r3.status) << "pair " << t;
    ASSERT_EQ(r2.squared_distance(), r3.squared_distance()) << "pair " << t;
  }
}

// ---- The textbook pass (floating.hpp, TextbookPass) -------------------------------------------------------------------

template <class T>
class TextbookPassSigns : public ::testing::Test {};
TYPED_TEST_SUITE(TextbookPassSigns, FloatingTypes, ScalarNames);

// kDeterminantRoundingEpsilons: every sign the filter decides is the exact sign of the determinant of the very values
// given (taken exactly), on determinants near zero — z close to a combination of x and y, by a relative 2^−p for p up
// to 1.5 times T's precision, and exactly on it — at scales 2^±k, down to where products underflow. And the filter is
// not empty: it decides the clearly non-singular ones (p ≤ 4: all of them).
TYPED_TEST(TextbookPassSigns, DeterminantSignsBeyondTheBoundAreExact) {
  using T = TypeParam;
  std::mt19937_64 rng(test_seed(71));
  std::uniform_real_distribution<double> unit(-1, 1);
  const int digits = std::numeric_limits<T>::digits;
  const int smallest = std::numeric_limits<T>::min_exponent;
  int decided = 0, clear = 0, clear_decided = 0;
  const auto exact_of = [](T x) { return ScalarCast<Exact, T>::apply(x); };
  for (int t = 0; t < 20000; ++t) {
    const int p = static_cast<int>(rng() % (digits * 3 / 2 + 1));
    const int k = (t % 4 == 0) ? smallest / 3 - static_cast<int>(rng() % 8) : static_cast<int>(rng() % 41) - 20;
    const auto random_vector = [&] {
      return Vec3<T>{static_cast<T>(std::ldexp(unit(rng), k)), static_cast<T>(std::ldexp(unit(rng), k)),
                     static_cast<T>(std::ldexp(unit(rng), k))};
    };
    const Vec3<T> x = random_vector(), y = random_vector(), e = random_vector();
    const T alpha = static_cast<T>(unit(rng)), beta = static_cast<T>(unit(rng));
    const T tiny = (t % 7 == 0) ? T(0) : static_cast<T>(std::ldexp(1.0, -p));
    const Vec3<T> z = alpha * x + beta * y + tiny * e;
    const int sign = detail::certain_sign_of_triple(x, y, z);
    const Exact det = triple(convert<Exact>(x), convert<Exact>(y), convert<Exact>(z));
    if (sign != 0) {
      ++decided;
      ASSERT_EQ(sign, sgn(det)) << "t = " << t << ", p = " << p << ", k = " << k;
    }
    const Vec2<T> x2{x.x, x.y}, z2{z.x, z.y};
    const int sign2 = detail::certain_sign_of_cross(x2, z2);
    if (sign2 != 0) {
      ASSERT_EQ(sign2, sgn(Exact(exact_of(x.x) * exact_of(z.y) - exact_of(x.y) * exact_of(z.x))));
    }
    if (p <= 4 && tiny != T(0) && t % 4 != 0) {
      ++clear;
      clear_decided += sign != 0;
    }
  }
  EXPECT_GT(decided, 0);
  EXPECT_EQ(clear_decided, clear) << "non-singular determinants left undecided";
}

// The textbook pass answers ordinary queries itself, and what it answers is within the contract; the careful pass is
// for what rounding makes hard. 600 random clouds (12 points each on unit spheres, centres 3, 2.1 and 0.5 apart):
// every answer agrees with the exact one within the contract, and the textbook pass answers at least 95 % of them
// (measured: all in double).
TYPED_TEST(TextbookPassSigns, AnswersOrdinaryQueriesItself) {
  using T = TypeParam;
  std::mt19937_64 rng(test_seed(72));
  std::normal_distribution<double> g;
  const auto sphere = [&](Vec3<double> centre) {
    std::vector<Vec3<double>> pts;
    for (int i = 0; i < 12; ++i) {
      Vec3<double> x{g(rng), g(rng), g(rng)};
      pts.push_back(centre + (1 / std::sqrt(dot(x, x))) * x);
    }
    return ConvexPoints<Vec3<double>>(std::move(pts));
  };
  int textbook = 0, total = 0;
  for (int t = 0; t < 600; ++t) {
    const double apart = std::array{3.0, 2.1, 0.5}[t % 3];
    const auto ad = sphere({0, 0, 0}), bd = sphere({apart, 0, 0});
    const auto a = converted<T>(ad), b = converted<T>(bd);
    const auto r = distance(a, b);
    ++total;
    textbook += r.pass == Pass::Textbook;
    const auto exact = distance(converted<Exact>(a), converted<Exact>(b));
    const double truth = std::sqrt(to_scalar<double>(exact.squared_distance()));
    const auto ac = converted<double>(a), bc = converted<double>(b);
    const FloatingAnswer reported{r.status == Status::Separated, static_cast<double>(r.distance())};
    ASSERT_NE(judge_floating(reported, exact.status == Status::Separated, truth,
                             static_cast<double>(ScalarTraits<T>::epsilon()), input_scale(ac, bc),
                             largest_coordinate(ac, bc), 3, false),
              Judgement::Violates)
        << "pair " << t << ": " << to_string(r.stop_rule);
  }
  EXPECT_GE(textbook * 100, total * 95) << textbook << " of " << total;
}

// The textbook pass hands over what it cannot vouch for. Finding 12's flat enclosing tetrahedron (double): the
// determinants prove the enclosure, but the textbook's weights, volumes over a small sum, put their point outside the
// touching band, so the witnesses would be too far apart (1.1·10⁻¹² where the contract allows 3·10⁻¹³, as measured
// before the band was part of the acceptance); the careful pass answers, with refined weights. And a touching pair
// sharing a vertex (StepsPastAFlatWedgeAtASegment's), where the textbook pass stalls in long double: the careful pass
// answers. What does not matter: float and double (they stop inside their touching band first, which the contract
// allows).
TEST(TextbookPass, HandsOverWhatItCannotVouchFor) {
  const auto a = shape3<double>({{-0x1.4p-36, -0x1.4p-36, -0x1.4p-36},
                                 {-0x1.2p-36, -0x1.43332f0f7678fp-36, -0x1.400525abb91d3p-36},
                                 {-0x1.3p-36, -0x1.9fff83d651438p-36, -0x1.409a661fb6987p-36}});
  const auto b = shape3<double>({{-0x1.4p-36, -0x1.400000019bc5bp-36, -0x1.3fffff00014b3p-36},
                                 {-0x1.2p-36, -0x1.43332f11123eap-36, -0x1.400524abba686p-36},
                                 {-0x1.3p-36, -0x1.bfff5a728dc2cp-36, -0x1.40cdddd4f3079p-36}});
  const auto r = distance(a, b);
  EXPECT_EQ(r.status, Status::Intersecting);
  EXPECT_EQ(r.pass, Pass::Careful) << to_string(r.stop_rule);
  const double eps = ScalarTraits<double>::epsilon();
  const Vec3<double> gap = r.witness_a - r.witness_b;
  EXPECT_LE(std::sqrt(dot(gap, gap)), kContractDistanceEpsilons * eps * input_scale(a, b) +
                                          2 * kContractWitnessEpsilons * eps * largest_coordinate(a, b));
  const auto ta = shape3<long double>({{-0x1.bac37a0cc8808p+3, -0x1.a16632cec7688p+4, -27},
                                       {-0x1.9a902abceca3p+3, -0x1.b14c61c17a334p+4, -20},
                                       {-0x1.2de2034e09ea2p+4, -0x1.51e7481149724p+4, -20}});
  const auto tb = shape3<long double>({{-0x1.bac37a0cc8808p+3, -0x1.a16632cec7688p+4, -13},
                                       {-0x1.39f63ccd590a6p+3, -0x1.e0feee999293dp+4, -20},
                                       {-0x1.2de2034e09ea2p+4, -0x1.51e7481149724p+4, -20}});
  const auto t = distance(ta, tb);
  EXPECT_EQ(t.status, Status::Intersecting);
  EXPECT_EQ(t.pass, Pass::Careful) << to_string(t.stop_rule);
}

// ---- The post-pass (finish.hpp) ------------------------------------------------------------------------------------

// Needle and sliver pairs, as scripts/needle-pairs and proptests' `needles` family make them: A is a segment's ends
// and one or two points within 2^−k of it, B is A jittered by up to 2^−j. The careful pass stops on them outside the
// contract often enough (docs/edge-cases.md, "Needle and sliver differences") for the check's both outcomes to occur.
template <Vector V>
std::pair<std::vector<V>, std::vector<V>> needle_pair(std::mt19937_64& rng) {
  using T = scalar_t<V>;
  constexpr int dim = V::dimension;
  std::uniform_real_distribution<double> unit(-1, 1), fraction(0, 1);
  std::uniform_int_distribution<int> near_count(1, 2), offset_exp(10, 52), jitter_exp(5, 30), sign(0, 1);
  std::array<std::array<double, 3>, 2> ends{};
  for (auto& e : ends)
    for (int k = 0; k < dim; ++k) e[k] = unit(rng);
  std::vector<std::array<double, 3>> a = {ends[0], ends[1]};
  for (int i = near_count(rng); i > 0; --i) {
    const double t = fraction(rng);
    std::array<double, 3> p{};
    for (int k = 0; k < dim; ++k)
      p[k] = ends[0][k] * t + ends[1][k] * (1 - t) + (sign(rng) ? 1 : -1) * std::ldexp(1.0, -offset_exp(rng));
    a.push_back(p);
  }
  const double jitter = std::ldexp(1.0, -jitter_exp(rng));
  std::vector<V> pa, pb;
  for (const auto& p : a) {
    V x, y;
    for (int k = 0; k < dim; ++k) x[k] = T(p[k]), y[k] = T(p[k] + jitter * unit(rng));
    pa.push_back(x);
    pb.push_back(y);
  }
  return {pa, pb};
}

// The careful pass's own answer, before the post-pass (what gjk.hpp's run() hands to post_pass).
template <Vector V>
Result<V> careful_answer(const ConvexPoints<V>& a, const ConvexPoints<V>& b, detail::Query query,
                         const Options<V>& options = {}) {
  Result<V> r;
  detail::initial_simplex(a, b, options, r.simplex);
  detail::run_loop<FloatingLoop<V>>(a, b, options, query, r);
  return r;
}

// Options that start a query with the support along +x, as a shape without vertex access starts (initial_simplex):
// the path a case below was found on.
template <Vector V>
Options<V> started_along_x() {
  Options<V> o;
  V x{};
  x[0] = scalar_t<V>(1);
  o.initial_direction = x;
  return o;
}

template <class T>
class PostPass : public ::testing::Test {};
TYPED_TEST_SUITE(PostPass, FloatingTypes, ScalarNames);

// The check is sound: every careful-pass answer it passes is within the contract, on the needle pairs where the careful
// pass fails (tolerances.hpp, kCheckSeparatedEpsilons and kCheckIntersectingEpsilons: the slack's derivation). And the
// query's answer — the checked one, or the exact finish — is within the contract on every pair. Both outcomes of the
// check must occur, or the test proves nothing.
template <Vector V>
void checked_answers_are_within_the_contract(std::uint64_t seed, int pairs) {
  std::mt19937_64 rng(seed);
  int passed = 0, failed = 0, failed_outside = 0;
  for (int t = 0; t < pairs; ++t) {
    const auto [pa, pb] = needle_pair<V>(rng);
    const ConvexPoints<V> a(pa), b(pb);
    const FailureCaseSaver<V> saver(a, b, "post-pass-" + std::to_string(V::dimension) + "d-seed" + std::to_string(seed) +
                                              "-pair" + std::to_string(t));
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " pair " << t << "\n" << describe(a, b));
    const Result<V> careful = careful_answer(a, b, detail::Query::Distance);
    ASSERT_TRUE(careful.status == Status::Separated || careful.status == Status::Intersecting);
    if (detail::within_contract(a, b, careful)) {
      ++passed;
      ASSERT_TRUE(within_contract_by_exact(a, b, careful, false)) << "the check passed an answer outside the contract, by "
                                                      << to_string(careful.stop_rule);
    } else {
      ++failed;
      failed_outside += !within_contract_by_exact(a, b, careful, false);
    }
    const Result<V> r = distance(a, b);
    ASSERT_TRUE(within_contract_by_exact(a, b, r, false)) << "pass " << to_string(r.pass) << ", rule " << to_string(r.stop_rule);
    ASSERT_NE(r.pass, Pass::Unchecked);
  }
  std::printf("seed %llu, %dD: the check passed %d careful answers and failed %d (%d of them outside the contract)\n",
              static_cast<unsigned long long>(seed), V::dimension, passed, failed, failed_outside);
  EXPECT_GT(passed, 0);
  EXPECT_GT(failed, 0);
}

TYPED_TEST(PostPass, ACheckedAnswerIsWithinTheContract) {
  using T = TypeParam;
  checked_answers_are_within_the_contract<Vec2<T>>(test_seed(2026), 300);
  checked_answers_are_within_the_contract<Vec3<T>>(test_seed(2027), 300);
}

// The textbook pass answers only where docs/contract.md derives its bound, so its answers must pass the check too: a
// check that refused them would be stricter than the derivation it rests on (and send ordinary queries to the exact
// finish). On random clouds, separated and overlapping, and on the needle pairs.
template <Vector V>
void textbook_answers_pass_the_check(std::uint64_t seed, int pairs) {
  using T = scalar_t<V>;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> gauss(0, 1);
  std::uniform_int_distribution<int> count(1, 16);
  int textbook = 0;
  for (int t = 0; t < pairs; ++t) {
    std::vector<V> pa, pb;
    if (t % 2 == 0) {
      std::tie(pa, pb) = needle_pair<V>(rng);
    } else {
      const double centre = std::array<double, 4>{4, 2.5, 1, 0}[t / 2 % 4];
      for (auto* cloud : {&pa, &pb})
        for (int i = count(rng); i > 0; --i) {
          V p;
          for (int k = 0; k < V::dimension; ++k) p[k] = T(gauss(rng) + (cloud == &pb && k == 0 ? centre : 0));
          cloud->push_back(p);
        }
    }
    const ConvexPoints<V> a(pa), b(pb);
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " pair " << t << "\n" << describe(a, b));
    for (const auto query : {detail::Query::Distance, detail::Query::Boolean}) {
      const Result<V> r = query == detail::Query::Distance ? distance(a, b) : intersect(a, b);
      if (r.pass != Pass::Textbook || r.stop_rule == StopRule::SeparatingPlane ||
          r.status == Status::IterationLimit)
        continue;
      ++textbook;
      ASSERT_TRUE(detail::within_contract(a, b, r)) << to_string(r.status) << " by " << to_string(r.stop_rule);
    }
  }
  EXPECT_GT(textbook, pairs / 2);
}

TYPED_TEST(PostPass, TextbookAnswersPassTheCheck) {
  using T = TypeParam;
  textbook_answers_pass_the_check<Vec2<T>>(test_seed(2028), 400);
  textbook_answers_pass_the_check<Vec3<T>>(test_seed(2029), 400);
}

// The check's two thresholds are where the derivation puts them, not far inside: a separated answer whose closest point
// is moved outward by twice its slack (gap·|c| + kCheckSeparatedEpsilons·ε·m) fails it, and by a quarter of that
// passes; an intersecting one fails once its simplex's point is moved beyond kCheckIntersectingEpsilons·ε·m, or once a
// weight is negative.
TYPED_TEST(PostPass, AnAnswerMovedByTheSlackFailsTheCheck) {
  using T = TypeParam;
  const T eps = ScalarTraits<T>::epsilon();
  // Separated: unit squares 1 apart along x; the answer's closest point (−1, 0) and m = 2.
  const auto a = shape3<T>({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}});
  const auto b = shape3<T>({{2, 0, 0}, {3, 0, 0}, {2, 1, 0}, {3, 1, 0}});
  const Result<Vec3<T>> r = distance(a, b);
  ASSERT_EQ(r.status, Status::Separated);
  ASSERT_TRUE(detail::within_contract(a, b, r));
  // m = 1: every point of A⊖B on the final simplex, and the support along −c, has coordinates of magnitude ≤ 1.
  const T m(1), length(1);
  ASSERT_EQ(r.closest, (Vec3<T>{-1, 0, 0}));
  const T slack = Tolerances<T>::relative_gap() * length + T(kCheckSeparatedEpsilons) * eps * m;
  const auto moved = [&](T factor) {
    Result<Vec3<T>> x = r;
    x.closest = x.closest + (factor * slack / length) * x.closest;
    return x;
  };
  EXPECT_FALSE(detail::within_contract(a, b, moved(T(2))));
  EXPECT_TRUE(detail::within_contract(a, b, moved(T(0.25))));
  // Intersecting: a triangle of A⊖B around the origin, its weights' point moved off it.
  const auto c = shape2<T>({{-1, -1}, {1, -1}, {0, 1}});
  const auto d = shape2<T>({{0, 0}});
  Result<Vec2<T>> s = distance(c, d);
  ASSERT_EQ(s.status, Status::Intersecting);
  ASSERT_TRUE(detail::within_contract(c, d, s));
  ASSERT_EQ(s.simplex.size, 3);
  // Shifting weight δ from one vertex to another moves the point by δ times the edge between them (length 2 here).
  const auto shifted = [&](T delta) {
    Result<Vec2<T>> x = s;
    x.simplex.weights[0] -= delta;
    x.simplex.weights[1] += delta;
    return x;
  };
  EXPECT_FALSE(detail::within_contract(c, d, shifted(T(kCheckIntersectingEpsilons) * eps)));    // moved by 2× the bound
  EXPECT_TRUE(detail::within_contract(c, d, shifted(T(kCheckIntersectingEpsilons) * eps / 8)));  // by a quarter of it
  Result<Vec2<T>> negative = s;
  negative.simplex.weights[0] = -negative.simplex.weights[0];
  EXPECT_FALSE(detail::within_contract(c, d, negative));
}

// The check's support along −c is asked along c scaled into its own frame (finish.hpp). Cause: at a scale s where s²
// underflows (s = 2^(3·min_exponent/4): float 2^−93, found by the mutation run of scripts/mutations on a 2^−96 touching
// pair), every product c·(p − p₀) of the support rounds to 0 along c itself, the first point of each shape wins, and a
// made-up answer c = a₀ − b₀ passes as if ŵ = c were the support. Here A is a square around the origin and B one point
// at the origin: the pair overlaps, so no separated answer may pass. At s = 2^(3·max_exponent/4), where s² overflows,
// the same answer must fail too (there the first +∞ product wins, which is the right support: that half and the true
// answer's check hold the range, they are not the regression). What does not matter: the shapes, the point chosen as c
// (any point of A⊖B off the origin).
TYPED_TEST(PostPass, TheCheckAsksTheSupportAlongAUnitScaledDirection) {
  using T = TypeParam;
  using L = std::numeric_limits<T>;
  for (const int exponent : {3 * L::min_exponent / 4, 3 * L::max_exponent / 4}) {
    SCOPED_TRACE(::testing::Message() << "scale 2^" << exponent);
    const T s = std::ldexp(T(1), exponent);
    const ConvexPoints<Vec2<T>> a({{s, 0}, {-s, 0}, {0, s}, {0, -s}});
    const ConvexPoints<Vec2<T>> b({{0, 0}});
    Result<Vec2<T>> r;
    r.status = Status::Separated;
    r.stop_rule = StopRule::NoProgress;
    r.closest = {s, 0};  // a₀ − b₀
    r.simplex.size = 1;
    r.simplex.points[0] = SupportPoint<Vec2<T>>{{s, 0}, {s, 0}, {0, 0}, 0, 0};
    r.simplex.weights[0] = T(1);
    EXPECT_FALSE(detail::within_contract(a, b, r));
    // The true answer at that scale passes: a separated pair, B moved to (3s, 0), closest point (−2s, 0) from (s, 0).
    const ConvexPoints<Vec2<T>> far({{3 * s, 0}});
    const Result<Vec2<T>> right = distance(a, far);
    ASSERT_EQ(right.status, Status::Separated);
    EXPECT_TRUE(detail::within_contract(a, far, right));
  }
}

// The exact finish rounds its answer within an ulp of the scalar wherever the scalar's range reaches: a separated pair
// (a tetrahedron and a point, the distance 1/√3 apart at scale 1) scaled by 2^k, finished exactly from a made-up
// one-point simplex, gives the exact distance to within a few ulps of T at every k. (The simplex it starts from, and the
// shapes, do not matter: the exact loop's answer is the exact one.) Regression (finding 21, docs/edge-cases.md): the
// rounding went through double, so long double's answer kept only double's subnormal bits below 2^−1022 (2^27 of its
// own ulps at 4.1·10⁻³¹³, cases/findings/exact-finish-rounding-below-doubles-range.json), was 0 below 2^−1074 and not
// finite beyond 2^1024: it fails at 2^−16373, 2^−1040 and 2^16376 without the fix. The subnormal answer at the end
// holds with the old rounding too; it pins that the rounding keeps subnormals.
TYPED_TEST(PostPass, TheExactFinishRoundsWithinTheScalarsRange) {
  using T = TypeParam;
  using L = std::numeric_limits<T>;
  for (const int k : {L::min_exponent + 8, -1040, 0, L::max_exponent - 8}) {
    if (k < L::min_exponent || k > L::max_exponent) continue;  // -1040 is below float's range
    SCOPED_TRACE(::testing::Message() << "scale 2^" << k);
    const T s = std::ldexp(T(1), k);
    const ConvexPoints<Vec3<T>> a({{s, 0, 0}, {0, s, 0}, {0, 0, s}, {s, s, s}}), b({{0, 0, 0}});
    Result<Vec3<T>> r;
    r.status = Status::Separated;
    r.stop_rule = StopRule::NoProgress;
    r.closest = {s, 0, 0};
    r.simplex.size = 1;
    r.simplex.points[0] = SupportPoint<Vec3<T>>{{s, 0, 0}, {s, 0, 0}, {0, 0, 0}, 0, 0};
    r.simplex.weights[0] = T(1);
    detail::finish_exactly(a, b, detail::Query::Distance, r);
    ASSERT_EQ(r.status, Status::Separated);
    ASSERT_EQ(r.pass, Pass::ExactFinish);
    // The closest point is (s/3, s/3, s/3): each coordinate within two ulps of T; the distance s/√3 within a few.
    for (int i = 0; i < 3; ++i) EXPECT_LE(std::fabs(r.closest[i] - s / 3), std::ldexp(L::epsilon(), k - 1)) << i;
    const T expected = s / std::sqrt(T(3));
    EXPECT_LE(std::fabs(r.distance() - expected), 4 * L::epsilon() * expected) << "distance " << double(r.distance());
  }
  // An answer subnormal in T from normal input: B = (t, t, t) just below the plane x + y + z = s, t the largest T
  // below s/3, so the closest point is (δ/3)(1, 1, 1) with δ = s − 3t a few ulps of t; δ/3 is subnormal and not a
  // multiple of the least one. Each coordinate within one least subnormal of δ/3.
  const T s = std::ldexp(T(1), L::min_exponent + 1);
  const T t = std::nextafter(s / 3, T(0));
  const ConvexPoints<Vec3<T>> a({{s, 0, 0}, {0, s, 0}, {0, 0, s}}), b({{t, t, t}});
  Result<Vec3<T>> r;
  r.status = Status::Separated;
  r.stop_rule = StopRule::NoProgress;
  r.closest = {s - t, -t, -t};
  r.simplex.size = 1;
  r.simplex.points[0] = SupportPoint<Vec3<T>>{{s - t, -t, -t}, {s, 0, 0}, {t, t, t}, 0, 0};
  r.simplex.weights[0] = T(1);
  detail::finish_exactly(a, b, detail::Query::Distance, r);
  const auto exact = [](T y) { return ScalarCast<Exact, T>::apply(y); };  // the rational y denotes
  const mpq_class third = (exact(s) - 3 * exact(t)) / 3;
  ASSERT_LT(third, exact(L::min())) << "the closest point is not subnormal";
  for (int i = 0; i < 3; ++i)
    EXPECT_LE(abs(exact(r.closest[i]) - third), exact(L::denorm_min())) << i << ": " << double(r.closest[i]);
}

// The exact finish: on finding 16's needle (docs/edge-cases.md), double's careful pass started along +x answers
// Separated by repeated-support, 1.13·10⁻¹¹, on a pair that overlaps by 1.46·10⁻¹⁰; the check refuses it and the exact
// loop answers: the exact verdict, its simplex, its witnesses rounded. The cause is the needle triangle's rounded normal
// (which coordinates, and the number of points, do not matter: any needle of this kind does it). The queries start
// along +x, the start the case was found with (from a₀ − b₀, the default start for point sets, the query answers
// Intersecting too).
TEST(PostPass, TheExactFinishAnswersWhereTheCheckFails) {
  const auto a = shape3<double>({{-0x1.794974de62832p-1, -0x1.efce5ec9b5340p-6, -0x1.d1ae16f893654p-2},
                                 {-0x1.b8388834d53f4p-2, -0x1.c781080e7b570p-2, 0x1.2da7626f4e780p-6},
                                 {-0x1.520da4e498454p-1, -0x1.11e83772deb30p-3, -0x1.58bbb01e9528ep-2}});
  const auto b = shape3<double>({{-0x1.794974ddb4472p-1, -0x1.efce5ed36d9b2p-6, -0x1.d1ae16f29e02ap-2},
                                 {-0x1.b8388839c5c2fp-2, -0x1.c781081790848p-2, 0x1.2da762b705a12p-6}});
  const auto along_x = started_along_x<Vec3<double>>();
  const auto careful = careful_answer(a, b, detail::Query::Distance, along_x);
  EXPECT_EQ(careful.status, Status::Separated) << "the careful pass no longer stops here: pick a new case";
  EXPECT_FALSE(detail::within_contract(a, b, careful));
  const auto r = distance(a, b, along_x);
  const auto exact = distance(converted<Exact>(a), converted<Exact>(b), started_along_x<Vec3<Exact>>());
  EXPECT_EQ(r.pass, Pass::ExactFinish);
  EXPECT_EQ(r.status, exact.status);
  EXPECT_EQ(r.status, Status::Intersecting);
  EXPECT_EQ(r.stop_rule, exact.stop_rule);
  ASSERT_EQ(r.simplex.size, exact.simplex.size);
  for (int i = 0; i < r.simplex.size; ++i) {
    EXPECT_EQ(r.simplex.points[i].index_a, exact.simplex.points[i].index_a);
    EXPECT_EQ(r.simplex.points[i].index_b, exact.simplex.points[i].index_b);
  }
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(r.witness_a[k], exact.witness_a[k].get_d());
    EXPECT_EQ(r.witness_b[k], exact.witness_b[k].get_d());
  }
  EXPECT_TRUE(within_contract_by_exact(a, b, r, false));
  const auto i = intersect(a, b, along_x);
  EXPECT_EQ(i.status, Status::Intersecting) << "pass " << to_string(i.pass);
  EXPECT_EQ(distance(a, b).status, Status::Intersecting) << "from a₀ − b₀";
}

// A shape that gives only its support (no vertex access): where the check fails there is nothing to finish exactly
// with, and the answer says so (Pass::Unchecked) instead of claiming the contract.
template <class S>
struct SupportOnly {
  using vector_type = typename S::vector_type;
  const S* shape;
  Support<vector_type> support(const vector_type& d) const { return shape->support(d); }
  ShapeCheck check() const { return shape->check(); }
};

TEST(PostPass, ShapesWithoutVerticesAreMarkedUnchecked) {
  std::mt19937_64 rng(test_seed(2030));
  int unchecked = 0;
  for (int t = 0; t < 200; ++t) {
    const auto [pa, pb] = needle_pair<Vec2<double>>(rng);
    const ConvexPoints<Vec2<double>> a(pa), b(pb);
    // A shape without vertex access starts along +x: the careful pass compared with it starts there too.
    const auto careful = careful_answer(a, b, detail::Query::Distance, started_along_x<Vec2<double>>());
    const auto r = distance(SupportOnly<ConvexPoints<Vec2<double>>>{&a}, SupportOnly<ConvexPoints<Vec2<double>>>{&b});
    if (r.pass == Pass::Textbook) continue;  // the careful pass did not run
    EXPECT_EQ(r.pass == Pass::Unchecked, !detail::within_contract(a, b, careful)) << "pair " << t;
    unchecked += r.pass == Pass::Unchecked;
  }
  EXPECT_GT(unchecked, 0);
}

// ExactSupportSearch (exact.hpp): for mpq_class the support compares the integers D·P on common denominators, not the
// rationals d·p. It must return what the textbook loop returns — the first point of largest d·p — on any rationals:
// denominators that are not powers of two, zero and negative coordinates, duplicate points, ties between distinct
// points (built on a line or plane normal to d), directions with zero components, and coordinates 2^±900 apart.
// The rational d·p written out with GMP's operations (not through dot, which exact.hpp also replaces).
template <Vector V>
mpq_class written_dot(const V& d, const V& p) {
  mpq_class r = d[0] * p[0];
  for (int c = 1; c < V::dimension; ++c) r += d[c] * p[c];
  return r;
}

template <Vector V>
std::size_t textbook_argmax(const std::vector<V>& points, const V& d) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < points.size(); ++i)
    if (written_dot(d, points[best]) < written_dot(d, points[i])) best = i;
  return best;
}

template <Vector V>
void integer_search_equals_the_textbook_loop(std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<int> small(-6, 6), denominator(1, 12), count(1, 9), kind(0, 3);
  const auto random_rational = [&] {
    switch (kind(g)) {
      case 0: return mpq_class(0);
      case 1: return rational(small(g), 1);
      case 2: return ScalarTraits<mpq_class>::scale_by_power_of_two(rational(small(g), denominator(g)),
                                                                     (kind(g) - 1) * 900);
      default: return rational(small(g) * 97 + small(g), denominator(g) * denominator(g));
    }
  };
  const auto vector = [&] {
    V v;
    for (int c = 0; c < V::dimension; ++c) v[c] = random_rational();
    return v;
  };
  int ties = 0;
  for (int t = 0; t < 20000; ++t) {
    V d = vector();
    if (is_zero(d)) d[0] = 1;
    std::vector<V> points(count(g));
    for (V& p : points) p = vector();
    // A tie: a copy of a point, or a point moved normal to d (d·p unchanged).
    if (points.size() > 1 && kind(g) < 2) {
      V normal{};
      normal[0] = -d[1];
      normal[1] = d[0];
      const std::size_t from = g() % points.size(), to = g() % points.size();
      points[to] = points[from] + random_rational() * normal;
    }
    const ConvexPoints<V> shape(points);
    const std::size_t expected = textbook_argmax(points, d);
    ASSERT_EQ(shape.support(d).index, expected) << "seed " << seed << ", case " << t;
    ASSERT_TRUE(ExactSupportSearch<V>(points).on_integers());
    for (std::size_t i = expected + 1; i < points.size(); ++i)
      ties += written_dot(d, points[i]) == written_dot(d, points[expected]);
  }
  EXPECT_GT(ties, 1000) << "too few ties between distinct indices to test the tie-break";
  // Points whose denominators are many distinct primes (each twice): their common denominator outgrows any one of them
  // by more than kExactSupportSpareBits, and the search keeps the textbook's loop — with the same answers.
  std::vector<long> primes;
  for (long k = 3; primes.size() < 120; k += 2)
    if (std::all_of(primes.begin(), primes.end(), [k](long p) { return k % p != 0; })) primes.push_back(k);
  std::vector<V> points;
  for (std::size_t i = 0; i < primes.size(); ++i) {
    V p;
    for (int c = 0; c < V::dimension; ++c) p[c] = rational(small(g), primes[(i + c) % primes.size()]);
    points.push_back(p);
  }
  for (std::size_t i = 0; i < primes.size(); ++i) points.push_back(points[i]);  // every value tied, for the tie-break
  const ExactSupportSearch<V> search(points);
  ASSERT_FALSE(search.on_integers());
  for (int t = 0; t < 2000; ++t) {
    V d = vector();
    if (is_zero(d)) d[0] = 1;
    ASSERT_EQ(search.argmax(points, d), textbook_argmax(points, d)) << "seed " << seed << ", case " << t;
  }
}

// exact.hpp's dot, cross and weighted_sum for mpq_class form each sum as one fraction and reduce it once: over one
// power-of-two denominator when every operand's is one, over the operands' common denominators otherwise. Each must
// equal the rational operations written out, in canonical form (numerator and denominator coprime, denominator
// positive), on dyadic, non-dyadic and mixed operands, squares (v·v: both operands the same object), zeros,
// cancellations to zero and to integers, and exponents 2^±900 apart.
void one_fraction_sums_equal_the_rational_operations(std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<int> small(-8, 8), power(0, 6), kind(0, 5);
  const auto random_rational = [&] {
    switch (kind(g)) {
      case 0: return mpq_class(0);
      case 1: return rational(small(g), 1 << power(g));
      case 2: return ScalarTraits<mpq_class>::scale_by_power_of_two(rational(small(g), 1 << power(g)), small(g) * 110);
      case 3: return rational(small(g), 3 * (1 << power(g)));
      case 4: return rational(small(g) * 1001 + small(g), (2 * small(g) + 17) * (1 << power(g)));
      default: return rational(small(g) * 1001 + small(g), 1 << power(g));
    }
  };
  const auto vector = [&] { return Vec3<mpq_class>{random_rational(), random_rational(), random_rational()}; };
  const auto canonical = [](const mpq_class& x) {
    mpq_class c = x;
    c.canonicalize();
    return c.get_num() == x.get_num() && c.get_den() == x.get_den();
  };
  int zeros = 0, integers = 0, general = 0;
  for (int t = 0; t < 20000; ++t) {
    const Vec3<mpq_class> a = vector();
    Vec3<mpq_class> b = vector();
    if (kind(g) == 0) b = Vec3<mpq_class>{mpq_class(-a.y), a.x, mpq_class(0)};  // a·b = 0 exactly
    const mpq_class d = dot(a, b);
    const mpq_class written = a.x * b.x + a.y * b.y + a.z * b.z;
    ASSERT_TRUE(canonical(d)) << "seed " << seed << ", case " << t;
    ASSERT_EQ(d, written) << "seed " << seed << ", case " << t;
    const mpq_class square = dot(a, a);
    ASSERT_TRUE(canonical(square)) << "seed " << seed << ", case " << t;
    ASSERT_EQ(square, mpq_class(a.x * a.x + a.y * a.y + a.z * a.z)) << "seed " << seed << ", case " << t;
    const Vec3<mpq_class> c = cross(a, b);
    const Vec3<mpq_class> c_written{mpq_class(a.y * b.z - a.z * b.y), mpq_class(a.z * b.x - a.x * b.z),
                                    mpq_class(a.x * b.y - a.y * b.x)};
    for (int i = 0; i < 3; ++i) {
      ASSERT_TRUE(canonical(c[i])) << "seed " << seed << ", case " << t;
      ASSERT_EQ(c[i], c_written[i]) << "seed " << seed << ", case " << t;
    }
    const Vec2<mpq_class> a2{a.x, a.y}, b2{b.x, b.y};
    ASSERT_EQ(dot(a2, b2), mpq_class(a.x * b.x + a.y * b.y));
    ASSERT_EQ(cross(a2, b2), mpq_class(a.x * b.y - a.y * b.x));
    zeros += d == 0;
    integers += d != 0 && d.get_den() == 1;

    // Σ λᵢ xᵢ over 1 to 4 terms: weights of any denominator (a simplex's barycentric weights), summing to 1 or not.
    const int count = 1 + t % 4;
    std::array<Vec3<mpq_class>, 4> x{a, b, vector(), vector()};
    std::array<mpq_class, 4> weight{};
    for (int i = 0; i < count; ++i) weight[i] = rational(small(g) * 37 + small(g), 1 + std::abs(small(g)) * 97);
    std::array<const Vec3<mpq_class>*, 4> xp{&x[0], &x[1], &x[2], &x[3]};
    const Vec3<mpq_class> sum = weighted_sum(weight, xp, count);
    std::array<const Vec2<mpq_class>*, 4> x2p{};
    std::array<Vec2<mpq_class>, 4> x2{};
    for (int i = 0; i < 4; ++i) {
      x2[i] = {x[i].x, x[i].y};
      x2p[i] = &x2[i];
    }
    const Vec2<mpq_class> sum2 = weighted_sum(weight, x2p, count);
    for (int c3 = 0; c3 < 3; ++c3) {
      mpq_class expected = weight[0] * x[0][c3];
      for (int i = 1; i < count; ++i) expected += weight[i] * x[i][c3];
      ASSERT_TRUE(canonical(sum[c3])) << "seed " << seed << ", case " << t;
      ASSERT_EQ(sum[c3], expected) << "seed " << seed << ", case " << t;
      if (c3 < 2) {
        ASSERT_EQ(sum2[c3], expected) << "seed " << seed << ", case " << t;
      }
      general += !detail::is_power_of_two(sum[c3].get_den());
    }
  }
  EXPECT_GT(zeros, 1000) << "too few exact cancellations";
  EXPECT_GT(integers, 500) << "too few integer results";
  EXPECT_GT(general, 10000) << "too few sums with other denominators";
}

TEST(ExactArithmetic, OneFractionSumsEqualTheRationalOperations) {
  const std::uint64_t seed = test_seed(20261125);
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  one_fraction_sums_equal_the_rational_operations(seed);
}

// round_to<T> (exact.hpp, the exact finish's rounding) is within one unit in the last place of T over T's whole range:
// x = m·2^e for 64-bit m and e across T's exponents, subnormals included, and for long double beyond double's range.
// The unit is the larger gap from the result to its neighbours, computed exactly.
// Regression (finding 21, docs/edge-cases.md): long double rounded through double, so an exact-finish answer below
// 2^−1022 kept only double's subnormal bits (2^27 of long double's ulps at 4.1·10⁻³¹³, FamilyProperties.
// ExtremeScales3d), below 2^−1074 became 0, and beyond double's largest value was not finite.
template <class T>
void rounding_keeps_its_precision(std::uint64_t seed, int lowest_exponent, int highest_exponent, int step) {
  std::mt19937_64 rng(seed);
  const auto exact = [](T y) { return ScalarCast<Exact, T>::apply(y); };  // the rational y denotes
  int checked = 0;
  for (int e = lowest_exponent; e <= highest_exponent; e += step)
    for (int t = 0; t < 8; ++t) {
      const std::uint64_t m = rng() | 1;
      mpz_class integer;
      mpz_import(integer.get_mpz_t(), 1, 1, sizeof m, 0, 0, &m);
      const mpq_class x = ScalarTraits<mpq_class>::scale_by_power_of_two(mpq_class(t % 2 ? -integer : integer), e - 63);
      const T r = round_to<T>(x);
      if (!std::isfinite(r)) {
        ASSERT_GT(abs(x), exact(std::numeric_limits<T>::max())) << "e " << e;  // only past T's largest value
        continue;
      }
      mpq_class unit = 0;  // the larger gap to a finite neighbour
      if (const T up = std::nextafter(r, std::numeric_limits<T>::infinity()); std::isfinite(up))
        unit = std::max(unit, mpq_class(exact(up) - exact(r)));
      if (const T down = std::nextafter(r, -std::numeric_limits<T>::infinity()); std::isfinite(down))
        unit = std::max(unit, mpq_class(exact(r) - exact(down)));
      ASSERT_TRUE(abs(exact(r) - x) <= unit)
          << ScalarNames::GetName<T>(0) << ": 2^" << e - 63 << "·" << m << " rounded to " << static_cast<double>(r);
      ++checked;
    }
  EXPECT_GT(checked, 100);
}

TEST(ExactArithmetic, RoundingToAFloatingTypeKeepsItsPrecision) {
  const std::uint64_t seed = test_seed(20261126);
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  rounding_keeps_its_precision<float>(seed, -160, 140, 1);
  rounding_keeps_its_precision<double>(seed, -1100, 1040, 3);
  rounding_keeps_its_precision<long double>(seed, -16460, -16370, 1);  // its subnormals and below
  rounding_keeps_its_precision<long double>(seed, -1100, -1000, 1);    // double's subnormals and below
  rounding_keeps_its_precision<long double>(seed, -16300, 16300, 97);
  rounding_keeps_its_precision<long double>(seed, 16370, 16390, 1);    // its largest values and beyond
}

TEST(ExactSupport, IntegerSearchEqualsTheTextbookLoop) {
  const std::uint64_t seed = test_seed(20261125);
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  integer_search_equals_the_textbook_loop<Vec2<mpq_class>>(seed);
  integer_search_equals_the_textbook_loop<Vec3<mpq_class>>(seed + 1);
}

}  // namespace
}  // namespace gjkref::test
