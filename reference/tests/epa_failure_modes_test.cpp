// The expanding polytope algorithm on the failure modes engines' EPAs share (docs/edge-cases.md, "The penetration
// depth"), each in float, double, long double and exact rationals, in 2D and 3D, and from every order of the points of
// the simplex EPA starts from.
//
// What decides each answer is computed here, apart from the code under test (no GJK, no EPA):
//  - D = A⊖B as the set of differences a − b, exact; its supporting planes by brute force (every pair of points in
//    2D, every triple in 3D, kept when every point of D lies on one side); the origin is inside D when every
//    supporting plane has it on its inner side, and then PD² = min o²/|n|² over them (0: touching);
//  - the distance, where D is flat or the origin outside it, by brute_force_squared_distance (certify.hpp: exact
//    Gram systems over subsets, no region tests).
// Exact answers must equal it. Floating answers are held to docs/contract.md ("Penetration"): the depth within the
// distance allowance D(PD) of the exact one, the normal's directional depth h_D(n)/|n| within D(PD) of PD, and a
// verdict other than the truth's only within the verdict band; every comparison is made in rationals. In double, the
// certified mode (certified_penetration) must give the exact class and the correctly rounded depth.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "gjkref/certified_penetration.hpp"
#include "gjkref/certify.hpp"
#include "gjkref/contract.hpp"
#include "gjkref/epa.hpp"
#include "gjkref/exact.hpp"
#include "test_support.hpp"

namespace gjkref {
namespace {

using test::ScalarNames;
using test::ScalarTypes;

// ---- The truth, by brute force ---------------------------------------------------------------------------------------

template <class VE>
bool exact_less(const VE& x, const VE& y) {
  for (int k = 0; k < VE::dimension; ++k)
    if (x[k] != y[k]) return x[k] < y[k];
  return false;
}

// D = A⊖B: every a − b, exactly, each point once.
template <class V>
std::vector<exact_vector_t<V>> difference_set(const ConvexPoints<V>& a, const ConvexPoints<V>& b) {
  using VE = exact_vector_t<V>;
  std::vector<VE> d;
  for (const V& p : a.points())
    for (const V& q : b.points()) d.push_back(VE(convert<Exact>(p) - convert<Exact>(q)));
  std::sort(d.begin(), d.end(), exact_less<VE>);
  d.erase(std::unique(d.begin(), d.end()), d.end());
  return d;
}

// h_D(n) = max over x in D of n·x.
template <class VE>
Exact support_value(const std::vector<VE>& d, const VE& n) {
  Exact h = dot(n, d[0]);
  for (const VE& x : d) h = std::max(h, Exact(dot(n, x)));
  return h;
}

enum class Kind { Separated, Touching, Penetrating };

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Separated: return "separated";
    case Kind::Touching: return "touching";
    case Kind::Penetrating: return "penetrating";
  }
  return "?";
}

struct Truth {
  Kind kind = Kind::Separated;
  Exact squared;  // separated: the squared distance; otherwise PD²
};

// The largest D whose distance brute_force_squared_distance is asked for (it visits 2^n subsets).
constexpr std::size_t kBruteForceDistancePoints = 24;

// A normal of the hyperplane through `dimension` points of D (zero if they do not span one).
template <class VE>
VE plane_normal(const std::vector<VE>& d, std::size_t i, std::size_t j, std::size_t k) {
  if constexpr (VE::dimension == 2) {
    const VE e = d[j] - d[i];
    return VE{Exact(-e[1]), e[0]};
  } else {
    return cross(VE(d[j] - d[i]), VE(d[k] - d[i]));
  }
}

template <class VE>
Truth truth_of(const std::vector<VE>& d) {
  bool outside = false, full_dimensional = false, any_plane = false;
  Exact best;
  const auto consider = [&](const VE& n, const Exact& offset) {  // n·x ≤ offset on D
    if (offset < 0) outside = true;
    const Exact squared = offset * offset / dot(n, n);
    if (offset >= 0 && (!any_plane || squared < best)) best = squared;
    any_plane = true;
  };
  const std::size_t n = d.size();
  const std::size_t last = VE::dimension == 2 ? 1 : n;  // 2D: pairs only
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      for (std::size_t k = (VE::dimension == 2 ? 0 : j + 1); k < (VE::dimension == 2 ? last : n); ++k) {
        const VE normal = plane_normal(d, i, j, k);
        if (is_zero(normal)) continue;
        const Exact o = dot(normal, d[i]);
        Exact high = o, low = o;
        for (const VE& x : d) {
          const Exact v = dot(normal, x);
          high = std::max(high, v);
          low = std::min(low, v);
        }
        if (high != low) full_dimensional = true;
        if (high == o) consider(normal, o);
        if (low == o) consider(VE(-normal), Exact(-o));
      }
  Truth t;
  if (outside || !full_dimensional) {
    if (d.size() > kBruteForceDistancePoints) {
      ADD_FAILURE() << "a test case too large to measure its distance (" << d.size() << " points in A⊖B)";
      return t;
    }
    const Exact squared = brute_force_squared_distance(d);
    if (squared > 0) return {Kind::Separated, squared};
    EXPECT_FALSE(outside) << "the supporting planes and the distance disagree";
  }
  EXPECT_TRUE(any_plane) << "A⊖B spans no hyperplane: not a case for these tests";
  return {best == 0 ? Kind::Touching : Kind::Penetrating, best};
}

// ---- Exact comparisons -----------------------------------------------------------------------------------------------

// |√x − √p| ≤ a (x, p, a ≥ 0): x + p − a² ≤ 2√(xp), squared where both sides are non-negative.
bool root_within(const Exact& x, const Exact& p, const Exact& a) {
  const Exact l = x + p - a * a;
  return l <= 0 || l * l <= 4 * x * p;
}

// h/√N − √p ≤ a (N > 0, p, a ≥ 0): h ≤ (√p + a)·√N; true when h ≤ 0, else h² − (p + a²)N ≤ 2aN√p, squared.
bool excess_within(const Exact& h, const Exact& n, const Exact& p, const Exact& a) {
  if (h <= 0) return true;
  const Exact l = h * h - (p + a * a) * n;
  return l <= 0 || l * l <= 4 * a * a * n * n * p;
}

template <class T>
Exact exact_of(const T& x) {
  if constexpr (std::is_same_v<T, Exact>)
    return x;
  else
    return ScalarCast<Exact, T>::apply(x);
}

// ---- The judge: exact answers equal the truth, floating ones within docs/contract.md --------------------------------

template <Vector V>
::testing::AssertionResult judged(const Penetration<V>& p, const Truth& truth, const ConvexPoints<V>& a,
                                  const ConvexPoints<V>& b) {
  using T = scalar_t<V>;
  using VE = exact_vector_t<V>;
  // Every number is judged as the exact rational it is, which a non-finite one is not (and no answer should hold one).
  if (!is_finite(p.normal) || !is_finite(p.translation) || !is_finite(p.witness_a) || !is_finite(p.witness_b))
    return ::testing::AssertionFailure() << "a number that is not finite: normal (" << p.normal[0] << ", "
                                         << p.normal[1] << ", ...), answered " << to_string(p.status);
  const std::vector<VE> d = difference_set(a, b);
  const VE n = convert<Exact>(p.normal);
  std::ostringstream why;
  why << kind_name(truth.kind) << " (exact " << truth.squared.get_d() << "), answered " << to_string(p.status)
      << " with PD " << p.depth();
  const auto fail = [&why](const char* what) { return ::testing::AssertionFailure() << what << ": " << why.str(); };

  if constexpr (is_exact_v<T>) {
    switch (truth.kind) {
      case Kind::Separated:
        if (p.status != PenetrationStatus::Separated) return fail("not separated");
        if (p.gjk.squared_distance() != truth.squared) return fail("GJK's distance is not the exact one");
        return ::testing::AssertionSuccess();
      case Kind::Touching:
        if (p.status != PenetrationStatus::Touching) return fail("not touching");
        if (p.squared_depth != 0 || is_zero(n)) return fail("touching without depth 0 and a normal");
        if (support_value(d, n) != 0) return fail("the normal's plane through the origin does not support A⊖B");
        return ::testing::AssertionSuccess();
      case Kind::Penetrating: {
        if (p.status != PenetrationStatus::Penetrating) return fail("not penetrating");
        if (p.squared_depth != truth.squared) return fail("PD² is not the exact one");
        const Exact h = support_value(d, n);
        if (!(h > 0) || h * h != truth.squared * dot(n, n)) return fail("the normal is not an optimal one");
        if (dot(p.translation, p.translation) != p.squared_depth || !(dot(p.translation, n) > 0))
          return fail("the translation is not PD along the normal");
        if (p.witness_a - p.witness_b != p.translation) return fail("the witnesses do not differ by the translation");
        return ::testing::AssertionSuccess();
      }
    }
    return fail("?");
  } else {
    const double eps = static_cast<double>(std::numeric_limits<T>::epsilon());
    const double m = static_cast<double>(input_scale(a, b));
    const double r = static_cast<double>(largest_coordinate(a, b));
    const double true_root = correctly_rounded_sqrt(truth.squared);
    const Exact allowed(distance_allowance(truth.kind == Kind::Separated ? 0.0 : true_root, eps, m, r, V::dimension,
                                           false));
    const Exact band(verdict_band(eps, m, r, V::dimension, false));
    // |t|², exactly: squared_depth may underflow (float's PD² below 2^−149) where the translation does not.
    const Exact depth2 = dot(convert<Exact>(p.translation), convert<Exact>(p.translation));
    const auto normal_within = [&](const Exact& pd2) {
      return !is_zero(n) && excess_within(support_value(d, n), dot(n, n), pd2, allowed);
    };
    switch (truth.kind) {
      case Kind::Separated:
        switch (p.status) {
          case PenetrationStatus::Separated: {
            const Exact distance_allowed(distance_allowance(true_root, eps, m, r, V::dimension, false));
            if (!root_within(exact_of(p.gjk.squared_distance()), truth.squared, distance_allowed))
              return fail("GJK's distance is outside the contract");
            return ::testing::AssertionSuccess();
          }
          case PenetrationStatus::Touching:
            if (truth.squared > band * band) return fail("touching, beyond the verdict band");
            return ::testing::AssertionSuccess();
          case PenetrationStatus::Penetrating:
            if (truth.squared > band * band) return fail("penetrating, beyond the verdict band");
            if (depth2 > (allowed + band) * (allowed + band)) return fail("a depth where only about 0 fits");
            return ::testing::AssertionSuccess();
          default: return fail("no answer");
        }
      case Kind::Touching:
        switch (p.status) {
          case PenetrationStatus::Separated:
            if (!root_within(exact_of(p.gjk.squared_distance()), 0, allowed))
              return fail("GJK's distance is outside the contract");
            return ::testing::AssertionSuccess();
          case PenetrationStatus::Touching:
            if (!normal_within(0)) return fail("the touching normal is outside the contract");
            return ::testing::AssertionSuccess();
          case PenetrationStatus::Penetrating:
            if (!root_within(depth2, 0, allowed)) return fail("the depth is outside the contract");
            if (!normal_within(0)) return fail("the normal is outside the contract");
            return ::testing::AssertionSuccess();
          default: return fail("no answer");
        }
      case Kind::Penetrating:
        switch (p.status) {
          case PenetrationStatus::Penetrating:
            if (!root_within(depth2, truth.squared, allowed)) return fail("the depth is outside the contract");
            if (!normal_within(truth.squared)) return fail("the normal is outside the contract");
            return ::testing::AssertionSuccess();
          case PenetrationStatus::Touching:  // depth 0 within the band, and a normal held to the depth's allowance
            if (truth.squared > band * band) return fail("not penetrating, beyond the verdict band");
            if (!normal_within(truth.squared)) return fail("the touching normal is outside the contract");
            return ::testing::AssertionSuccess();
          case PenetrationStatus::Separated:
            if (truth.squared > band * band) return fail("not penetrating, beyond the verdict band");
            return ::testing::AssertionSuccess();
          default: return fail("no answer");
        }
    }
    return fail("?");
  }
}

// The certified mode on the same double input: the class exactly, the depth correctly rounded.
template <Vector V>
::testing::AssertionResult certified_matches(const ConvexPoints<V>& a, const ConvexPoints<V>& b, const Truth& truth) {
  if constexpr (!std::is_same_v<scalar_t<V>, double>) {
    return ::testing::AssertionSuccess();
  } else {
    const CertifiedPenetration<V> c = certified_penetration(a, b);
    const PenetrationStatus expected = truth.kind == Kind::Separated  ? PenetrationStatus::Separated
                                       : truth.kind == Kind::Touching ? PenetrationStatus::Touching
                                                                      : PenetrationStatus::Penetrating;
    if (c.status != expected)
      return ::testing::AssertionFailure() << "certified: " << to_string(c.status) << ", the truth "
                                           << kind_name(truth.kind);
    if (truth.kind == Kind::Penetrating && c.depth != correctly_rounded_sqrt(truth.squared))
      return ::testing::AssertionFailure() << "certified depth " << c.depth << " is not the correct rounding of "
                                           << truth.squared.get_d();
    if (truth.kind == Kind::Touching && c.depth != 0) return ::testing::AssertionFailure() << "certified: depth ≠ 0";
    return ::testing::AssertionSuccess();
  }
}

// ---- Starts: a GJK answer, in every order of its simplex's points ----------------------------------------------------

// `gjk` with its simplex's points (and their weights) in the given order.
template <Vector V>
Result<V> permuted(const Result<V>& gjk, const std::vector<int>& order) {
  Result<V> start = gjk;
  for (std::size_t k = 0; k < order.size(); ++k) {
    start.simplex.points[k] = gjk.simplex.points[order[k]];
    start.simplex.weights[k] = gjk.simplex.weights[order[k]];
  }
  return start;
}

// Calls f(order) for every order of `size` simplex points, each under a trace naming it; expects size! calls.
template <class F>
void for_every_order(int size, F&& f) {
  std::vector<int> order(static_cast<std::size_t>(size));
  std::iota(order.begin(), order.end(), 0);
  int orders = 0;
  do {
    std::ostringstream trace;
    trace << "start order";
    for (const int k : order) trace << ' ' << k;
    SCOPED_TRACE(trace.str());
    f(order);
    ++orders;
  } while (std::next_permutation(order.begin(), order.end()));
  int expected = 1;
  for (int k = 2; k <= size; ++k) expected *= k;
  EXPECT_EQ(orders, expected);
}

// EPA from `gjk` with its simplex's points (and their weights) in every order.
template <Vector V, class F>
void in_every_order(const ConvexPoints<V>& a, const ConvexPoints<V>& b, const Result<V>& gjk, F&& check) {
  for_every_order(gjk.simplex.size, [&](const std::vector<int>& order) {
    check(detail::expand(a, b, permuted(gjk, order), kDefaultMaxExpansions));
  });
}

// A hand-made GJK answer "intersecting": the simplex of `chosen` points of A (B is the origin, so A⊖B = A), with the
// origin at the given weights (dyadic, so that every scalar holds them exactly). `encloses`: GJK's rule 1 by
// enclosure (a full simplex; the origin may lie on its boundary, the closed test), else the origin on the simplex.
template <Vector V>
Result<V> hand_made_answer(const std::vector<V>& a, const std::vector<int>& chosen, const std::vector<double>& weights,
                           bool encloses) {
  using T = scalar_t<V>;
  std::vector<SupportPoint<V>> points;
  for (const int i : chosen) points.push_back({a[i], a[i], V{}, static_cast<std::size_t>(i), 0});
  Result<V> r = detail::intersecting_answer(points, static_cast<int>(chosen.size()), encloses);
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    r.simplex.weights[k] = T(weights[k]);
    r.witness_a = r.witness_a + T(weights[k]) * a[chosen[k]];
  }
  // The weights locate the origin exactly (a bad hand-made start would make the test meaningless).
  exact_vector_t<V> origin{};
  for (std::size_t k = 0; k < chosen.size(); ++k) origin = origin + Exact(weights[k]) * convert<Exact>(a[chosen[k]]);
  EXPECT_TRUE(is_zero(origin)) << "the hand-made weights do not locate the origin";
  return r;
}

template <class T>
std::vector<Vec2<T>> points2(std::initializer_list<std::array<double, 2>> pts) {
  return test::shape2<T>(pts).points();  // the points as a vector, for the hand-made starts
}
template <class T>
std::vector<Vec3<T>> points3(std::initializer_list<std::array<double, 3>> pts) {
  return test::shape3<T>(pts).points();
}

template <class T>
class EpaFailureModes : public ::testing::Test {};
TYPED_TEST_SUITE(EpaFailureModes, ScalarTypes, ScalarNames);

struct HandMadeStart {
  std::vector<int> chosen;
  std::vector<double> weights;
  bool encloses;
};

template <Vector V>
void every_start_in_every_order(const std::vector<V>& points, const std::vector<HandMadeStart>& starts) {
  const ConvexPoints<V> a(points), origin(std::vector<V>{V{}});
  const Truth truth = truth_of(difference_set(a, origin));
  ASSERT_EQ(truth.kind, Kind::Penetrating);
  for (const HandMadeStart& s : starts) {
    std::ostringstream trace;
    trace << "start of " << s.chosen.size() << " points" << (s.encloses ? ", enclosing" : ", origin on it");
    SCOPED_TRACE(trace.str());
    in_every_order(a, origin, hand_made_answer(points, s.chosen, s.weights, s.encloses),
                   [&](const Penetration<V>& p) { EXPECT_TRUE(judged(p, truth, a, origin)); });
  }
  const Penetration<V> own = penetration(a, origin);  // GJK's own start
  EXPECT_TRUE(judged(own, truth, a, origin));
  EXPECT_TRUE(certified_matches(a, origin, truth));
}

// Failure mode: GJK ends with a point, a segment or a triangle rather than a full simplex (box-like shapes: the origin
// lands on the simplex early), or with a full simplex the origin lies on the boundary of — on a face, an edge or a
// vertex. Mechanism: detail::start_polytope blows a lower-dimensional simplex up along directions orthogonal to its
// span; a facet through the origin (distance 0) is grown past unless its plane supports A⊖B. A = points around the
// origin (B the origin, so A⊖B = A); every start, in every order of its points, gives the exact depth.
TYPED_TEST(EpaFailureModes, EveryGjkEndingInEveryOrder3d) {
  using T = TypeParam;
  const auto a = points3<T>({{0, 0, 0},                                  // 0: the origin, a point of A
                             {0, 0, 1},   {0, 0, -3},                     // 1, 2: a segment through it (3/4, 1/4)
                             {2, 0, 0},   {-2, 2, 0},  {-2, -2, 0},      // 3-5: a triangle around it (1/2, 1/4, 1/4)
                             {1, 3, 1},   {1, -2, -1},                    // 6, 7
                             {1, 1, 1},   {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}});  // 8-11: a tetrahedron around it
  every_start_in_every_order(
      a, {{{0}, {1}, false},                                           // the origin is the simplex
          {{1, 2}, {0.75, 0.25}, false},                               // on a segment
          {{3, 4, 5}, {0.5, 0.25, 0.25}, false},                       // inside a triangle
          {{1, 2, 3}, {0.75, 0.25, 0}, false},                         // on a triangle's edge
          {{0, 3, 4}, {1, 0, 0}, false},                               // at a triangle's vertex
          {{3, 4, 5, 6}, {0.5, 0.25, 0.25, 0}, false},                 // on a tetrahedron's face
          {{3, 4, 5, 6}, {0.5, 0.25, 0.25, 0}, true},                  //   the same, by GJK's enclosure test
          {{1, 2, 3, 4}, {0.75, 0.25, 0, 0}, true},                    // on a tetrahedron's edge
          {{0, 3, 4, 6}, {1, 0, 0, 0}, true},                          // at a tetrahedron's vertex
          {{8, 9, 10, 11}, {0.25, 0.25, 0.25, 0.25}, true}});          // inside a tetrahedron
}

// The same in 2D (the expanding polygon): a point, a segment, a triangle around the origin, with it on an edge or at
// a vertex.
TYPED_TEST(EpaFailureModes, EveryGjkEndingInEveryOrder2d) {
  using T = TypeParam;
  const auto a = points2<T>({{0, 0},                   // 0
                             {0, 1}, {0, -3},          // 1, 2: a segment through the origin (3/4, 1/4)
                             {2, 0}, {-2, 2}, {-2, -2},  // 3-5: a triangle around it (1/2, 1/4, 1/4)
                             {3, 1}, {1, -2}});
  every_start_in_every_order(a, {{{0}, {1}, false},
                                 {{1, 2}, {0.75, 0.25}, false},
                                 {{3, 4, 5}, {0.5, 0.25, 0.25}, true},
                                 {{1, 2, 3}, {0.75, 0.25, 0}, false},
                                 {{1, 2, 3}, {0.75, 0.25, 0}, true},
                                 {{0, 3, 4}, {1, 0, 0}, false},
                                 {{0, 3, 4}, {1, 0, 0}, true}});
}

// ---- Cases run through GJK and then EPA from GJK's simplex in every order --------------------------------------------

// The case, judged: penetration() as a user calls it, EPA from GJK's own simplex in every order of its points, and in
// double the certified mode.
template <Vector V>
void judge_case(const ConvexPoints<V>& a, const ConvexPoints<V>& b, std::optional<Kind> expected = std::nullopt) {
  const Truth truth = truth_of(difference_set(a, b));
  if (expected) {
    ASSERT_EQ(truth.kind, *expected) << "the case is not what it was built to be";
  }
  const Penetration<V> p = penetration(a, b);
  EXPECT_TRUE(judged(p, truth, a, b));
  if (p.gjk.status == Status::Intersecting)
    in_every_order(a, b, p.gjk, [&](const Penetration<V>& q) { EXPECT_TRUE(judged(q, truth, a, b)); });
  EXPECT_TRUE(certified_matches(a, b, truth));
}

// Failure mode: A⊖B flat (coplanar shapes in 3D, collinear ones in 2D). Mechanism: a flat set has no interior; while
// the start is blown up, h_D(±n) = 0 for its normal n, a plane through the origin supports it: touching, depth 0, with
// the flat set's normal. Overlapping squares in one plane, overlapping segments on one line.
TYPED_TEST(EpaFailureModes, AFlatDifferenceTouchesWithItsNormal) {
  using T = TypeParam;
  {
    SCOPED_TRACE("3D: two squares overlapping in the plane z = 0");
    judge_case(ConvexPoints<Vec3<T>>(points3<T>({{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {2, 2, 0}})),
               ConvexPoints<Vec3<T>>(points3<T>({{1, 1, 0}, {3, 1, 0}, {1, 3, 0}, {3, 3, 0}})), Kind::Touching);
    SCOPED_TRACE("3D: a triangle and a segment crossing it in the plane x + y + 2z = 0");
    judge_case(ConvexPoints<Vec3<T>>(points3<T>({{2, 0, -1}, {0, 2, -1}, {-2, -2, 2}})),
               ConvexPoints<Vec3<T>>(points3<T>({{1, -1, 0}, {-1, 1, 0}})), Kind::Touching);
  }
  {
    SCOPED_TRACE("2D: two segments overlapping on the x axis");
    judge_case(ConvexPoints<Vec2<T>>(points2<T>({{0, 0}, {2, 0}})), ConvexPoints<Vec2<T>>(points2<T>({{1, 0}, {3, 0}})),
               Kind::Touching);
  }
}

// Failure mode: A⊖B nearly flat (boxes 2^−20 thick). Mechanism: none special: a thin polytope is a polytope like any
// other; no absolute tolerance can mistake its thickness for zero. The depth is the thickness's half-width 2^−20.
TYPED_TEST(EpaFailureModes, ANearlyFlatDifferenceHasItsDepth) {
  using T = TypeParam;
  const double t = 0x1p-20;
  {
    SCOPED_TRACE("3D: two boxes 2^-20 thick, overlapping in their plane");
    judge_case(ConvexPoints<Vec3<T>>(points3<T>({{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {2, 2, 0},  //
                                                 {0, 0, t}, {2, 0, t}, {0, 2, t}, {2, 2, t}})),
               ConvexPoints<Vec3<T>>(points3<T>({{1, 1, 0}, {3, 1, 0}, {1, 3, 0}, {3, 3, 0},  //
                                                 {1, 1, t}, {3, 1, t}, {1, 3, t}, {3, 3, t}})),
               Kind::Penetrating);
  }
  {
    SCOPED_TRACE("2D: two rectangles 2^-20 thick");
    judge_case(ConvexPoints<Vec2<T>>(points2<T>({{0, 0}, {2, 0}, {0, t}, {2, t}})),
               ConvexPoints<Vec2<T>>(points2<T>({{1, 0}, {3, 0}, {1, t}, {3, t}})), Kind::Penetrating);
  }
}

// The answer's facet by the stated tie-break (docs/edge-cases.md): among the certificate's facets at the least
// distance, the first, in the certificate's order, whose own projection of the origin lies in it and whose plane
// supports A⊖B. Computed from the certificate and the input alone, exactly.
template <Vector V>
int tie_break_facet(const ConvexPoints<V>& a, const ConvexPoints<V>& b,
                    const PenetrationCertificate<V::dimension>& c) {
  using VE = exact_vector_t<V>;
  constexpr int D = V::dimension;
  const std::vector<VE> d = difference_set(a, b);
  std::vector<VE> pts;
  for (const auto& [i, j] : c.points) pts.push_back(VE(convert<Exact>(a.points()[i]) - convert<Exact>(b.points()[j])));
  struct Plane {
    VE n;
    Exact o, squared;
  };
  std::vector<Plane> planes;
  for (const auto& f : c.facets) {
    VE n;
    if constexpr (D == 2) {
      const VE e = pts[f[1]] - pts[f[0]];
      n = VE{e[1], Exact(-e[0])};  // counter-clockwise polygon: the edge turned clockwise points out
    } else {
      n = cross(VE(pts[f[1]] - pts[f[0]]), VE(pts[f[2]] - pts[f[0]]));
    }
    const Exact o = dot(n, pts[f[0]]);
    planes.push_back({n, o, o * o / dot(n, n)});
  }
  Exact nearest = planes[0].squared;
  for (const Plane& p : planes) nearest = std::min(nearest, p.squared);
  for (std::size_t k = 0; k < planes.size(); ++k) {
    const Plane& p = planes[k];
    if (p.squared != nearest || p.o < 0) continue;
    const VE t = (p.o / dot(p.n, p.n)) * p.n;
    const auto& f = c.facets[k];
    bool inside = true;
    if constexpr (D == 2) {
      const VE e = pts[f[1]] - pts[f[0]];
      const Exact s = dot(VE(t - pts[f[0]]), e);
      inside = s >= 0 && s <= dot(e, e);
    } else {
      for (int i = 0; i < 3; ++i) {  // t on the inner side of each edge, seen along n
        const VE& p0 = pts[f[i]];
        const VE& p1 = pts[f[(i + 1) % 3]];
        if (dot(cross(VE(p1 - p0), VE(t - p0)), p.n) < 0) inside = false;
      }
    }
    if (inside && support_value(d, p.n) == p.o) return static_cast<int>(k);
  }
  return -1;
}

// Failure mode: several facets tie (congruent boxes: six optimal normals; a square: four). Mechanism: distances are
// compared exactly and any optimal facet is a right answer; the reference names one by a stated rule, which the exact
// mode must follow: the first facet of its polytope, in order, at the least distance that holds its own projection of
// the origin and whose plane supports A⊖B. Floating modes: any optimal normal within the contract.
TYPED_TEST(EpaFailureModes, TiedFacetsGiveAnOptimalNormalByTheStatedRule) {
  using T = TypeParam;
  const auto tie_break = [](const auto& a, const auto& b) {
    judge_case(a, b, Kind::Penetrating);
    if constexpr (is_exact_v<T>) {
      const auto check = [&](const auto& p) {
        ASSERT_EQ(p.status, PenetrationStatus::Penetrating);
        EXPECT_EQ(p.certificate.answer, tie_break_facet(a, b, p.certificate));
      };
      const auto p = penetration(a, b);
      check(p);
      in_every_order(a, b, p.gjk, check);
    }
  };
  {
    SCOPED_TRACE("3D: the cube [-1, 1]^3 against the origin (six optimal facets)");
    tie_break(ConvexPoints<Vec3<T>>(points3<T>({{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                                {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {1, 1, 1}})),
              ConvexPoints<Vec3<T>>(points3<T>({{0, 0, 0}})));
  }
  {
    SCOPED_TRACE("3D: congruent cubes overlapping by 1 along each axis (three optimal facets)");
    tie_break(ConvexPoints<Vec3<T>>(points3<T>({{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {2, 2, 0},
                                                {0, 0, 2}, {2, 0, 2}, {0, 2, 2}, {2, 2, 2}})),
              ConvexPoints<Vec3<T>>(points3<T>({{1, 1, 1}, {3, 1, 1}, {1, 3, 1}, {3, 3, 1},
                                                {1, 1, 3}, {3, 1, 3}, {1, 3, 3}, {3, 3, 3}})));
  }
  {
    SCOPED_TRACE("2D: the square [-1, 1]^2 against the origin (four optimal edges)");
    tie_break(ConvexPoints<Vec2<T>>(points2<T>({{-1, -1}, {1, -1}, {-1, 1}, {1, 1}})),
              ConvexPoints<Vec2<T>>(points2<T>({{0, 0}})));
  }
}

// Failure mode: the new support point lies on the nearest facet's plane without being a vertex of the polytope.
// Mechanism: the stop is n·w ≤ o (floating modes: the same, before their gap is asked): w on the plane ends EPA; it
// never grows the polytope by a point that adds no depth. A = the box [−1, 15] × [−4, 12] × [−4, 12], its vertex
// (−1, 12, 12) first, so that it is the support point along −x; the start, the tetrahedron of three other corners of
// the face x = −1 and the far corner (15, 12, 12), holds the origin inside (weights 9/16, 3/16, 3/16, 1/16), and its
// facet on x = −1 is its nearest (the others are 3/√2 and 3√3 away). So EPA must stop at once: no growth, PD = 1.
// 2D: the rectangle [−1, 15] × [−4, 12] with the point (−1, 4) of its edge x = −1 first; the start triangle
// (−1, −4), (−1, 12), (15, −4) (weights 11/16, 1/4, 1/16).
TYPED_TEST(EpaFailureModes, ASupportPointOnTheNearestFacetStopsTheExpansion) {
  using T = TypeParam;
  const auto at_once = [](const auto& points, const HandMadeStart& s) {
    using V = typename std::decay_t<decltype(points)>::value_type;
    const ConvexPoints<V> a(points), origin(std::vector<V>{V{}});
    const Truth truth = truth_of(difference_set(a, origin));
    ASSERT_EQ(truth.kind, Kind::Penetrating);
    ASSERT_EQ(truth.squared, 1);
    in_every_order(a, origin, hand_made_answer(points, s.chosen, s.weights, s.encloses), [&](const Penetration<V>& p) {
      EXPECT_TRUE(judged(p, truth, a, origin));
      EXPECT_EQ(p.expansions, 0) << "EPA grew by a point on its nearest facet's plane";
      EXPECT_EQ(p.certificate.points.size(), s.chosen.size());
    });
  };
  {
    SCOPED_TRACE("3D");
    at_once(points3<T>({{-1, 12, 12}, {-1, -4, -4}, {-1, 12, -4}, {-1, -4, 12}, {15, 12, 12},  //
                        {15, -4, -4}, {15, 12, -4}, {15, -4, 12}}),
            {{1, 2, 3, 4}, {0.5625, 0.1875, 0.1875, 0.0625}, true});
  }
  {
    SCOPED_TRACE("2D");
    at_once(points2<T>({{-1, 4}, {-1, -4}, {-1, 12}, {15, -4}, {15, 12}}), {{1, 2, 3}, {0.6875, 0.25, 0.0625}, true});
  }
}

// Failure mode: kissing contact, where GJK and EPA must agree. Mechanism: touching is the origin on the boundary of
// A⊖B — found by GJK's lower-dimensional simplex blown up, or as a nearest facet at distance 0 whose plane supports
// A⊖B. Exactly touching: cubes face to face, edge to edge and corner to corner, a cube against its own corner, edge
// midpoint and face centre, squares edge to edge and corner to corner. Then the same cubes and squares a little apart
// and a little overlapping: by 2^−20 in float, inside its verdict band, so that it may answer either way, and its
// depth, when it gives one, must be about 0; by 2^−30 in double and long double, outside theirs: they must give the
// class.
TYPED_TEST(EpaFailureModes, KissingContactIsTouchingForGjkAndEpaAlike) {
  using T = TypeParam;
  const auto cube = [](double x, double y, double z, double side) {
    std::vector<Vec3<T>> v;
    for (int k = 0; k < 8; ++k)
      v.push_back(convert<T>(Vec3<double>{x + side * (k & 1), y + side * ((k >> 1) & 1), z + side * ((k >> 2) & 1)}));
    return ConvexPoints<Vec3<T>>(v);
  };
  const auto square = [](double x, double y, double side) {
    std::vector<Vec2<T>> v;
    for (int k = 0; k < 4; ++k) v.push_back(convert<T>(Vec2<double>{x + side * (k & 1), y + side * ((k >> 1) & 1)}));
    return ConvexPoints<Vec2<T>>(v);
  };
  const ConvexPoints<Vec3<T>> unit = cube(0, 0, 0, 1);
  for (const auto& [x, y, z] : std::vector<std::array<double, 3>>{{1, 0, 0}, {1, 1, 0}, {1, 1, 1}}) {
    SCOPED_TRACE(::testing::Message() << "cubes touching, B at (" << x << ", " << y << ", " << z << ")");
    judge_case(unit, cube(x, y, z, 1), Kind::Touching);
  }
  for (const auto& b : std::vector<std::array<double, 3>>{{0, 0, 0}, {0.5, 0, 0}, {0.5, 0.5, 0}}) {
    SCOPED_TRACE(::testing::Message() << "a cube against its point (" << b[0] << ", " << b[1] << ", " << b[2] << ")");
    judge_case(unit, ConvexPoints<Vec3<T>>(points3<T>({b})), Kind::Touching);
  }
  const ConvexPoints<Vec2<T>> unit_square = square(0, 0, 1);
  for (const auto& [x, y] : std::vector<std::array<double, 2>>{{1, 0}, {1, 1}, {1, 0.5}}) {
    SCOPED_TRACE(::testing::Message() << "squares touching, B at (" << x << ", " << y << ")");
    judge_case(unit_square, square(x, y, 1), Kind::Touching);
  }
  // 2^−20 in float (1 ± 2^−30 would round to 1), inside its verdict band; 2^−30 otherwise, outside the band.
  const double small = std::is_same_v<T, float> ? 0x1p-20 : 0x1p-30;
  for (const double gap : {small, -small}) {
    const Kind kind = gap > 0 ? Kind::Separated : Kind::Penetrating;
    SCOPED_TRACE(::testing::Message() << "gap " << gap);
    // B: the face x = 1 + gap of the cube beside, and its corner (1 + gap)·(1, 1, 1) (A⊖B small enough for the
    // brute-force distance).
    const ConvexPoints<Vec3<T>> face(points3<T>({{1 + gap, 0, 0}, {1 + gap, 1, 0}, {1 + gap, 0, 1}, {1 + gap, 1, 1}}));
    const ConvexPoints<Vec3<T>> corner(points3<T>({{1 + gap, 1 + gap, 1 + gap}}));
    judge_case(unit, face, kind);
    judge_case(unit, corner, kind);
    judge_case(unit_square, square(1 + gap, 0, 1), kind);
    judge_case(unit_square, square(1 + gap, 1 + gap, 1), kind);
    if constexpr (!std::is_same_v<T, float>) {  // 2^−30 is outside double's and long double's verdict band
      const PenetrationStatus expected = gap > 0 ? PenetrationStatus::Separated : PenetrationStatus::Penetrating;
      EXPECT_EQ(penetration(unit, face).status, expected);
      EXPECT_EQ(penetration(unit, corner).status, expected);
      EXPECT_EQ(penetration(unit_square, square(1 + gap, 1 + gap, 1)).status, expected);
    }
  }
}

// Failure mode: absolute tolerances. Mechanism: none — every comparison of the EPA is homogeneous (its one floating
// departure, the stop, is relative), and GJK works in a power-of-two frame, so scaling the input by 2^k scales every
// answer by 2^k exactly, in every scalar type: the status, the expansions, PD² (by 4^k), the translation and
// witnesses (by 2^k) and the normal (exact: by 4^k in 3D, a cross product, by 2^k in 2D, an edge turned; floating: not
// at all, as it is held in EPA's power-of-two frame), bit for bit; and each scaled answer is judged like any other.
// The same holds for EPA started from GJK's simplex in every order of its points: each order's answer at 2^k against
// the same order's at 2^0, which is judged.
// Without the frame, a facet's quantities (|n|² of degree 4 in 3D, the comparison of two facets' distances of degree
// 10) leave float's range from coordinates of about 2^12 and double's from about 2^100, and the depth came out
// 16 to 36 times too large at 2^±20 in float and 2^±200 in double (docs/edge-cases.md, finding 23). The cases: a tie,
// a support point on the nearest facet, boxes overlapping along a slanted contact, touching cubes, and a cube against
// its own corner (the origin a vertex of A⊖B).
TYPED_TEST(EpaFailureModes, ScalingByAPowerOfTwoScalesEveryAnswerExactly) {
  using T = TypeParam;
  // Up to the ends of the range docs/contract.md judges each type in (coordinates of magnitude 2^±100 for float,
  // 2^±500 for double, 2^±8000 for long double; the cases' coordinates reach 2^4).
  std::vector<int> exponents;
  if constexpr (std::is_same_v<T, float>)
    exponents = {-kFloatJudgedExponent + 4, -20, -7, 9, 20, kFloatJudgedExponent - 4};
  else if constexpr (std::is_same_v<T, double>)
    exponents = {-kDoubleJudgedExponent + 4, -200, -31, 33, 200, kDoubleJudgedExponent - 4};
  else
    exponents = {-kLongDoubleJudgedExponent + 4, -2000, -63, 65, 2000, kLongDoubleJudgedExponent - 4};
  const auto scaled = [](const auto& points, int k) {
    auto v = points;
    for (auto& p : v)
      for (int i = 0; i < std::decay_t<decltype(p)>::dimension; ++i)
        p[i] = ScalarTraits<T>::scale_by_power_of_two(p[i], k);
    return v;
  };
  int case_number = 0;
  const auto same_up_to_scale = [&](const auto& a, const auto& b) {
    using V = typename std::decay_t<decltype(a)>::value_type;
    SCOPED_TRACE(::testing::Message() << "case " << ++case_number);
    constexpr int normal_power = V::dimension == 3 ? 2 : 1;
    const auto times = [](const V& x, int e) { return scale_by_power_of_two(x, e); };
    // q, from the input scaled by 2^k, against `base` from the input as it is.
    const auto scaled_answer = [&](const Penetration<V>& q, const Penetration<V>& base, int k) {
      EXPECT_EQ(q.status, base.status);
      EXPECT_EQ(q.expansions, base.expansions);
      EXPECT_EQ(q.squared_depth, ScalarTraits<T>::scale_by_power_of_two(base.squared_depth, 2 * k));
      EXPECT_EQ(q.translation, times(base.translation, k));
      EXPECT_EQ(q.witness_a, times(base.witness_a, k));
      EXPECT_EQ(q.witness_b, times(base.witness_b, k));
      if (base.status == PenetrationStatus::Penetrating) {
        // Exact: the facet's normal, of degree D − 1 in the coordinates; floating: in EPA's frame, the same at every
        // scale (detail::EpaFrame).
        EXPECT_EQ(q.normal, is_exact_v<T> ? times(base.normal, normal_power * k) : base.normal);
      } else {  // touching: a supporting direction, found from scaled points
        for (int i = 0; i < V::dimension; ++i) EXPECT_EQ(q.normal[i] == 0, base.normal[i] == 0);
      }
    };
    const ConvexPoints<V> ua(a), ub(b);
    const Penetration<V> base = penetration(ua, ub);
    ASSERT_NE(base.status, PenetrationStatus::RoundingFailure);
    ASSERT_EQ(base.gjk.status, Status::Intersecting);
    // EPA from GJK's simplex in every order: judged as it is, and each order's answer scaled exactly with it below.
    const Truth truth = truth_of(difference_set(ua, ub));
    in_every_order(ua, ub, base.gjk, [&](const Penetration<V>& q) { EXPECT_TRUE(judged(q, truth, ua, ub)); });
    for (const int k : exponents) {
      SCOPED_TRACE(::testing::Message() << "scaled by 2^" << k);
      const ConvexPoints<V> sa(scaled(a, k)), sb(scaled(b, k));
      const Penetration<V> p = penetration(sa, sb);
      if (std::abs(k) <= kDoubleJudgedExponent - 4) {  // the judge's allowances are doubles (docs/contract.md, "Range")
        EXPECT_TRUE(judged(p, truth_of(difference_set(sa, sb)), sa, sb));
      }
      EXPECT_EQ(p.gjk.iterations, base.gjk.iterations);
      scaled_answer(p, base, k);
      ASSERT_EQ(p.gjk.simplex.size, base.gjk.simplex.size);
      for (int i = 0; i < base.gjk.simplex.size; ++i) {  // the same vertex pairs in the same order: orders match below
        ASSERT_EQ(p.gjk.simplex.points[i].index_a, base.gjk.simplex.points[i].index_a);
        ASSERT_EQ(p.gjk.simplex.points[i].index_b, base.gjk.simplex.points[i].index_b);
      }
      for_every_order(base.gjk.simplex.size, [&](const std::vector<int>& order) {
        scaled_answer(detail::expand(sa, sb, permuted(p.gjk, order), kDefaultMaxExpansions),
                      detail::expand(ua, ub, permuted(base.gjk, order), kDefaultMaxExpansions), k);
      });
    }
  };
  same_up_to_scale(points3<T>({{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                               {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {1, 1, 1}}),
                   points3<T>({{0, 0, 0}}));
  same_up_to_scale(points3<T>({{-1, 12, 12}, {-1, -4, -4}, {-1, 12, -4}, {-1, -4, 12}, {15, 12, 12},  //
                               {15, -4, -4}, {15, 12, -4}, {15, -4, 12}}),
                   points3<T>({{0, 0, 0}}));
  same_up_to_scale(points3<T>({{0, 0, 0}, {3, 1, 0}, {1, 4, 1}, {2, 2, 3}, {-1, 2, 1}}),
                   points3<T>({{2, 1, 1}, {4, 3, 2}, {3, 0.5, 2.5}, {2.5, 2, 0.25}}));
  same_up_to_scale(points3<T>({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}}),
                   points3<T>({{1, 0, 0}, {2, 0, 0}, {1, 1, 0}, {2, 1, 0}, {1, 0, 1}, {2, 0, 1}, {1, 1, 1}, {2, 1, 1}}));
  // The origin a vertex of A⊖B (the cube against its own corner): GJK's simplex is the origin alone, and EPA's frame
  // is fixed by the blow-up's first other point (finding 25: left at 2^0, float's products overflowed at 2^96).
  same_up_to_scale(points3<T>({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}}),
                   points3<T>({{0, 0, 0}}));
  same_up_to_scale(points2<T>({{-1, -1}, {1, -1}, {-1, 1}, {1, 1}}), points2<T>({{0, 0}}));
  same_up_to_scale(points2<T>({{0, 0}, {3, 1}, {1, 4}, {-1, 2}}), points2<T>({{2, 1}, {4, 3}, {3, 0.5}}));
}

// Finding 25's cases (docs/edge-cases.md; also cases/findings/epa-*.json, which `gjkref eval` replays with the modes
// that report a depth), through the floating EPA of every type:
//  - a triangle B through the plane x + y = 0 with A's point on it (z off by 2^−53): GJK stops in its touching band
//    on a segment, and the blow-up's support point along a direction orthogonal to it lies back on the segment's line.
//    Mechanism: the blow-up asks d·(w − first) > 0 (off the affine hull), not d·w > 0; a touching normal was zero.
//  - A's point a vertex of B at coordinates near 2^48: GJK's simplex is the origin alone. Mechanism: EPA's frame is
//    fixed by the blow-up's first other point; at 2^0, float's products overflowed (a touching normal 3.3·10¹³ off).
TYPED_TEST(EpaFailureModes, Finding25TouchingNormals) {
  using T = TypeParam;
  judge_case(ConvexPoints<Vec3<T>>(points3<T>({{7, -7, 0}})),
             ConvexPoints<Vec3<T>>(points3<T>({{5, -5, 8}, {10, -10, 0}, {1, -1, -0x1p-53}})));
  judge_case(ConvexPoints<Vec3<T>>(points3<T>({{-140737488355328, -299067162755072, -211106232532992}})),
             ConvexPoints<Vec3<T>>(points3<T>({{-70368744177664, -351843720888320, -281474976710656},
                                               {-158329674399744, -351843720888320, -211106232532992},
                                               {-140737488355328, 0, -316659348799488},
                                               {-140737488355328, -299067162755072, -211106232532992}})),
             Kind::Touching);
}

// Failure mode: GJK's simplex far smaller than A⊖B (a tiny vertex of A⊖B at the origin beside a rest of unit size).
// Mechanism: EPA's frame (detail::EpaFrame) is fixed from the start's points; a point met later beyond the frame's
// headroom makes EPA start over in the frame around that point. Without it the blow-up's points, up to 2^1072 times
// the frame's unit, left the range: double's touching normal was (−∞, 0) on the first pair below and a finite normal
// outside the contract on the second (finding 29, docs/edge-cases.md; found by the differential_2d fuzz smoke). The
// tiny coordinate t = 7·2^e: subnormal, near the least normal number, and just beyond the headroom; each case in every
// type on its own t (the exact type on double's), GJK's start in every order. Then EPA restarted from the main loop
// rather than the blow-up: hand-made starts, a tiny triangle or tetrahedron (or a segment) around the origin inside a
// unit one, in every order, whose facets are then far smaller than the frame (for that, the normals' own scale:
// AFacetFarSmallerThanTheFrameKeepsItsNormal). What does not matter: which shape holds the tiny point, t's factor 7.
TYPED_TEST(EpaFailureModes, ATinyStartBesideAUnitDifferenceStartsOverInALargerFrame) {
  using T = TypeParam;
  using V2 = Vec2<T>;
  using V3 = Vec3<T>;
  using Floating = std::conditional_t<is_exact_v<T>, double, T>;  // the type whose range t is taken from
  constexpr int beyond_headroom = -2 - detail::EpaFrame<Vec2<Floating>>::headroom - 8;
  const int least_normal = std::numeric_limits<Floating>::min_exponent + 2;  // 7·2^e normal, 2^(e + 2) < 4·min
  const int subnormal = std::numeric_limits<Floating>::min_exponent - std::numeric_limits<Floating>::digits;
  const auto tiny = [](int e) {
    if constexpr (is_exact_v<T>)
      return T(std::ldexp(7.0, e));
    else
      return T(std::ldexp(static_cast<long double>(7), e));
  };
  for (const int e : {subnormal, least_normal, beyond_headroom}) {
    SCOPED_TRACE(::testing::Message() << "t = 7·2^" << e);
    const T t = tiny(e);
    ASSERT_GT(t, T(0));
    {
      SCOPED_TRACE("2D: a segment against a tiny one, the origin a vertex of A⊖B");
      judge_case(ConvexPoints<V2>({V2{0, 3}, V2{0, 0}}), ConvexPoints<V2>({V2{t, 0}, V2{0, 0}}), Kind::Touching);
    }
    {
      SCOPED_TRACE("2D: a triangle with a tiny point beside the origin, its vertex");
      judge_case(ConvexPoints<V2>({V2{6, -3}, V2{0, -3}, V2{t, 0}, V2{0, 0}}), ConvexPoints<V2>({V2{0, 0}, V2{0, 0}}),
                 Kind::Touching);
    }
    {
      SCOPED_TRACE("3D: a square against a tiny segment across its plane");
      judge_case(ConvexPoints<V3>({V3{0, 0, 0}, V3{0, 3, 0}, V3{0, 0, 3}, V3{0, 3, 3}}),
                 ConvexPoints<V3>({V3{t, 0, 0}, V3{0, 0, 0}}), Kind::Touching);
    }
    {
      SCOPED_TRACE("2D: a tiny triangle around the origin inside a unit one, hand-made starts");
      every_start_in_every_order(std::vector<V2>{V2{-2, -1}, V2{2, -1}, V2{0, 2}, V2{T(-t), T(-t)}, V2{t, T(-t)},
                                                 V2{0, t}, V2{T(-t), 0}, V2{t, 0}},
                                 {{{3, 4, 5}, {0.25, 0.25, 0.5}, true}, {{6, 7}, {0.5, 0.5}, false}});
    }
    {
      SCOPED_TRACE("3D: a tiny tetrahedron around the origin inside a unit one, hand-made starts");
      every_start_in_every_order(std::vector<V3>{V3{3, 3, 3}, V3{3, -3, -3}, V3{-3, 3, -3}, V3{-3, -3, 3}, V3{t, t, t},
                                                 V3{t, T(-t), T(-t)}, V3{T(-t), t, T(-t)}, V3{T(-t), T(-t), t},
                                                 V3{T(-t), 0, 0}, V3{t, 0, 0}},
                                 {{{4, 5, 6, 7}, {0.25, 0.25, 0.25, 0.25}, true}, {{8, 9}, {0.5, 0.5}, false}});
    }
  }
}

// Failure mode: facets far smaller than EPA's frame, whose normal of degree D − 1 and |n|² of degree 2D − 2 underflow
// in the frame's scale: the start after a restart (a unit-size GJK simplex beside a point of A⊖B at 2^300 in double,
// 3D: the start is 2^−300 of the new frame's unit), and a corner of A⊖B far smaller than A⊖B at the origin (the
// facets near it, 2^−540 of the unit in double, 2D). Mechanism: each normal is formed from its edges in their own
// power-of-two scale (epa.hpp, ordered_normal), and off_affine_hull and facet_weights take their differences in their
// own scale. Before, EPA answered rounding-failure, no depth, on both (found by a review of finding 29's fix; the
// second was there before it, docs/edge-cases.md). Float at its own scales, the other types at double's (the
// judge's allowances are doubles: long double's own would be beyond them), GJK's start in every order. What does
// not matter: the far point's exact position, the corner's shape.
TYPED_TEST(EpaFailureModes, AFacetFarSmallerThanTheFrameKeepsItsNormal) {
  using T = TypeParam;
  using V2 = Vec2<T>;
  using V3 = Vec3<T>;
  using Floating = std::conditional_t<std::is_same_v<T, float>, float, double>;
  constexpr int range = std::numeric_limits<Floating>::max_exponent;  // float 128, double 1024, long double 16384
  const auto two_to = [](int e) {
    if constexpr (is_exact_v<T>)
      return T(std::ldexp(1.0, e));
    else
      return T(std::ldexp(static_cast<long double>(1), e));
  };
  {
    // A far point beyond the headroom: 2^(range·0.29) (2^300 in double, 2^37 in float), the start of size 1.
    const T s = two_to(-std::numeric_limits<Floating>::digits - 7), far = two_to(range * 29 / 100);
    SCOPED_TRACE(::testing::Message() << "3D: a unit start beside a point at 2^" << range * 29 / 100);
    judge_case(ConvexPoints<V3>({V3{T(-s), -1, 0}, V3{-2, 0, -4}, V3{-1, 2, -1}, V3{T(-s), 0, far}, V3{T(4 * s), 0, 0},
                                 V3{T(-s), 1, 0}}),
               ConvexPoints<V3>({V3{0, 0, 0}}), Kind::Penetrating);
  }
  {
    // A corner of size t = 2^−(range/2 + 28) at the origin (2^−540 in double, 2^−92 in float): t² underflows.
    const T t = two_to(-(range / 2 + 28));
    SCOPED_TRACE(::testing::Message() << "2D: a corner of size 2^" << -(range / 2 + 28) << " at the origin");
    judge_case(ConvexPoints<V2>({V2{0, T(-1.75)}, V2{t, 0}, V2{T(-t), 1}, V2{0, 0}, V2{T(-2 * t), T(-3 * t)}}),
               ConvexPoints<V2>({V2{0, 0}}), Kind::Penetrating);
  }
}

// Needles (`gjkref check`'s family: long thin shapes, close and nearly parallel), shrunk from counterexamples of the
// floating modes (docs/edge-cases.md, finding 26; cases/findings/epa-needle-*.json). A⊖B's facets are slivers, and so
// is the simplex GJK stops on. Each case is judged in every type, each type on its own rounding of the input.
template <class T>
struct NeedlePair {
  std::vector<Vec3<T>> a, b;
};

// Each pair judged with either needle as A.
template <class T>
void judge_needle_pairs(const std::vector<NeedlePair<T>>& pairs) {
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    SCOPED_TRACE("needle pair " + std::to_string(i));
    judge_case(ConvexPoints<Vec3<T>>(pairs[i].a), ConvexPoints<Vec3<T>>(pairs[i].b));
    judge_case(ConvexPoints<Vec3<T>>(pairs[i].b), ConvexPoints<Vec3<T>>(pairs[i].a));
  }
}

// Mechanism: a sliver facet's normal, (p₁ − p₀) × (p₂ − p₀) rounded operation by operation, tilts by about ε over the
// sliver's angle, and its offset, taken at a vertex far from the origin's projection, by that tilt times the needle's
// length: depths off by 2^7 to 2^14·ε·M in double and long double, and visibilities decided wrongly (rounding-failure).
// A sliver's normal is computed in two-word arithmetic and rounded once (epa.hpp, facet_normal_two_word; a facet whose
// one-word normal is within its bound keeps that one, kOneWordNormalConditioning). What does not matter: which needle
// is A; the frame.
TYPED_TEST(EpaFailureModes, ASliverFacetsNormalIsRoundedOnce) {
  using T = TypeParam;
  const std::vector<NeedlePair<T>> cases = {
      {points3<T>({{0x1.f2eacp-2, 0x1.1afap-5, 0x1.74294p-1}, {-0x1.f482p-1, -0x1.ec1p-2, -0x1.ebfap-3}}),
       points3<T>({{0x1.f2eap-2, 0x1.1b09ad64p-5, 0x1.742ap-1},
                   {-0x1.f480acp-1, -0x1.ec12p-2, -0x1.ebfd59248p-3},
                   {0, -0x1p-3, 0x1p-1}})},
      {points3<T>({{-0x1.2a0b8p-1, 0x1.2c98p-3, 0x1.a54ap-4},
                   {0x1.96p-1, -0x1.355cp-1, 0x1p-6},
                   {-0x1.0ca6p-5, -0x1.39d57c28p-3, 0x1.145cp-4}}),
       points3<T>({{-0x1.2a0cp-1, 0x1.2c96fep-3, 0x1.a55p-4}, {-0x1.0c8cp-5, -0x1.39cf6b2dp-3, 0x1.1452p-4}})},
      {points3<T>({{0x1.8p-2, 0, 0}, {-0x1.0c5012p-2, -0x1.038fe6p-2, 0x1.892f4a3ep-1}}),
       points3<T>({{0x1.594e8p-2, 0x1.81bbfffd9d7p-6, 0x1.feb980027f68p-2},
                   {-0x1.538cep-1, -0x1.c178p-2, 0x1.e5734p-1},
                   {-0x1.0c50121dc2afp-2, -0x1.038fe5c6p-2, 0x1.892f4a3e0819p-1}})},
      {points3<T>({{-0x1.e7f2p-1, 0x1.acbbp-2, 0x1.669ep-2},
                   {-0x1.a6f8bep-1, 0x1.1776p-2, 0x1.4a5988p-2},
                   {-0x1.a8b29b47fffep-1, 0x1.1cp-2, 0x1.4b1ap-2}}),
       points3<T>({{-0x1.14p-6, -0x1.50346805p-1, 0x1.2c2ep-3}, {-0x1.e7f1c843cp-1, 0x1.acba84p-2, 0x1.669d3ep-2},
                   {0, 0, 0x1p-2}})},
      {points3<T>({{-0x1.ad8e4p-1, 0, 0}, {0x1.91fc8p-2, 0x1.c0a4p-4, 0x1.70108p-3},
                   {0x1.1c6e92p-2, 0x1.a94c4c7ep-4, 0x1.bdfd495ep-3}}),
       points3<T>({{0x1.91fc8p-2, 0x1.c0a3ff4ap-4, 0x1.7010809aca9p-3}, {0x1.1c6e92p-2, 0x1.a94c4ccp-4, 0x1.bdfd48p-3}})},
      {points3<T>({{0x1.71ap-5, 0x1.7a68p-5, 0x1.a547ep-1}, {-0x1.51fcd1ap-3, -0x1.217f9p-2, 0x1.553272p-5}}),
       points3<T>({{0x1.719fff72p-5, 0x1.7a67ffdab1ep-5, 0x1.a547e000dde4p-1}, {-0x1.a165p-3, -0x1.6p-2, -0x1.ap-4},
                   {-0x1.51fcd17ap-3, -0x1.217f9p-2, 0x1.5532p-5}})},
  };
  judge_needle_pairs(cases);
}

// Mechanism: GJK stops on a sliver segment or triangle the origin is on or only near (its touching band), and the
// start is blown up (epa.hpp, blow_up_step, off_affine_hull). A triangle's normal rounded operation by operation
// tilted enough to put a support point on the triangle "beyond" it; a support point on a segment's line passed as off
// it by rounding noise, and the next direction, a cross product of two parallel vectors, was noise too (a touching
// normal 0.046 off in float, coordinates below 1); and the first simplex of the polytope, chosen by exact-zero tests,
// was flat up to rounding, so that its orientation and every facet's after it were noise (a depth twice the true one).
// Now the hull's normal is rounded once, "off the hull" and "touching" are each decided beyond rounding's scale, by
// the same test for the blow-up and the first simplex, and what neither decides is rounding-failure, never a wrong
// normal. What does not matter: which needle is A.
TYPED_TEST(EpaFailureModes, TheBlowUpIsDecidedBeyondRounding) {
  using T = TypeParam;
  const std::vector<NeedlePair<T>> cases = {
      {points3<T>({{0x1p-1, 0x1.8p-5, 0}, {-0x1.9470b4p-5, 0x1.57ecf178p-1, -0x1.f28084p-4},
                   {-0x1.6fc7e6p-3, 0x1.a70d68p-1, -0x1.7c664p-5}}),
       points3<T>({{-0x1.7e18p-3, 0x1.ab4cap-1, -0x1.5b4ep-5}, {-0x1.9470b4p-5, 0x1.57ecf15ap-1, -0x1.f2808374p-4}})},
      {points3<T>({{-0x1.9d3p-3, 0x1.0a5ep-2, -0x1.e1f8p-3}}),
       points3<T>({{0x1.46p-10, 0x1.157cp-1, -0x1.4c9p-2}, {-0x1.f184p-1, -0x1.9e12p-1, 0x1.a91ap-4},
                   {-0x1.9d22p-3, 0x1.0a58p-2, -0x1.e1ecp-3}, {-0x1.10bcp-2, 0x1.5ep-3, -0x1.a8p-3}})},
      {points3<T>({{0x1.f368p-4, -0x1.13e6p-3, -0x1.b24p-1}}),
       points3<T>({{0x1.24bp-6, 0x1.a666p-4, -0x1.818p-1}, {0x1.bb14p-3, -0x1.66d8p-2, 0},
                   {0x1.f35cp-4, -0x1.14p-3, -0x1.b24p-1}, {0x1.a298p-3, -0x1.4adep-2, -0x1.d8e4p-1}})},
      {points3<T>({{-0x1.3149cp-1, 0x1.dcp-3, 0x1.d932p-1}, {-0x1.f8p-3, -0x1.6d6cp-4, 0x1.8224p-1}}),
       points3<T>({{-0x1.314ap-1, 0x1.dbeap-3, 0x1.d936p-1}, {0x1p-1, 0, 0}, {-0x1.f7f504p-3, -0x1.6d7a9p-4, 0x1.822p-1}})},
      {points3<T>({{-0x1.b2f58p-1, 0x1.fe994p-1, 0x1.65ccp-1}, {0x1.d7f6p-1, 0x1.6cddap-1, 0x1.9d54p-2},
                   {0x1.602eb2p-2, 0, 0x1p-1}}),
       points3<T>({{0x1.d8p-1, 1, 0}, {-0x1.3ap-1, 0x1.eb0c6ep-1, 0x1.51a528p-1}, {0x1.602ep-2, 0x1.9cp-1, 0x1.fffp-2}})},
      {points3<T>({{-0x1.a8ccp-2, 0x1.b6d4p-1, -0x1.59868p-1}, {-0x1.00be8ep-1, 0x1.e15cp-3, -0x1.7e366cp-2}}),
       points3<T>({{0, -1, 0}, {-0x1.a8ccf4p-2, 0x1.b6d4p-1, -0x1.59867ep-1}, {-0x1.00be84p-1, 0x1.e15ep-3, -0x1.7e36p-2}})},
      {points3<T>({{0x1.72p-5, 0x1.7a68p-5, 0x1.a548p-1}, {-0x1.52p-3, -0x1.217f9p-2, 0x1.553272p-5}}),
       points3<T>({{0x1.71ap-5, 0x1.7a68p-5, 0x1.a548p-1}, {-0x1.a2p-3, -0x1.8p-2, 0},
                   {-0x1.51fcd2p-3, -0x1.217f9p-2, 0x1.5532p-5}})},
      {points3<T>({{0, 0, -1}, {-0x1.00be8ep-1, 0x1.e15cp-3, -0x1.7e366cp-2}}),
       points3<T>({{-0x1.51c74ep-1, -0x1.cep-1, 0x1.6cp-3}, {-0x1.a8ccp-2, 0x1.b6d4p-1, -0x1.59867e5682p-1},
                   {-0x1.00be84p-1, 0x1.e15ep-3, -0x1.7e366e7dap-2}})},
      // nearly the same flat tetrahedron twice: the first simplex, chosen without a margin, was flat up to rounding
      {points3<T>({{-0x1.b2a84p-2, -0x1.4ce0ep-1, 0x1.81dcp-5}, {0x1.000c4p-2, 0x1.eca4p-4, 0x1.3752p-3},
                   {-0x1.5ec718p-2, -0x1.1d1e34p-1, 0x1.e7eab8p-5}, {-0x1.b63912p-5, -0x1.cfb966p-3, 0x1.ad64p-4}}),
       points3<T>({{-0x1.b2a84p-2, -0x1.4ce0ep-1, 0x1.81dcp-5}, {0x1.000c4p-2, 0x1.eca4p-4, 0x1.3752p-3},
                   {-0x1.5ec718p-2, -0x1.1d1e34p-1, 0x1.e7eab8p-5}, {-0x1.b63912p-5, -0x1.cfb968p-3, 0x1.ad63f4p-4}})},
  };
  judge_needle_pairs(cases);
}

// Mechanism: the nearest facet's plane passes through the origin up to rounding, and the support point along its
// normal lies beyond it by rounding alone. The relative gap, against |n·w| ≈ 0, cannot be met; EPA grew by that point,
// built sliver facets whose planes meant nothing, and ended as rounding-failure in 18 of 24 orders of GJK's
// tetrahedron (double). The plane now counts as supporting (tolerances.hpp, kEpaTouchingEpsilons). The pair: A and B
// share a vertex (the origin is a vertex of A⊖B) and overlap by 2.3·10⁻¹⁶ at coordinates up to 23, from `gjkref check`
// (family scales; cases/findings/epa-facet-through-the-origin-double.json). What does not matter: which shape is A.
TYPED_TEST(EpaFailureModes, AFacetThroughTheOriginStopsWithinRounding) {
  using T = TypeParam;
  const auto a = ConvexPoints<Vec3<T>>(points3<T>({{0, 0x1.3e0b66e85d91p+4, -0x1.eb51dd495c8acp+3},
                                                   {0x1.e15592b158e22p+3, 0x1.58a6694debfe5p+4, -0x1.c7a5c73207639p+3},
                                                   {0x1.d8e473baaa70ep+3, 0x1.26cbbc1037ee2p+4, -0x1.23c8f0b8cb501p+3}}));
  const auto b = ConvexPoints<Vec3<T>>(points3<T>({{11, 28, -10},
                                                   {0x1.e58e222cb01acp+3, 0x1.7193bfecc6066p+4, -0x1.0cca193752b6ap+4},
                                                   {0x1.d8e473baaa70ep+3, 0x1.26cbbc1037ee2p+4, -0x1.23c8f0b8cb501p+3}}));
  judge_case(a, b);
  judge_case(b, a);
}

// blow_up_step's three outcomes on hand-made steps (floating types; exact scalars take the book's sign instead). A
// segment from `first` to first + 5u, the direction d = u × e_z orthogonal to it, and w: on the segment's line (off
// it by the rounding of first + 3u alone) is never OffTheHull; off it by 2^−10·|d| it is; the line through the origin
// is Touching, and the same line moved 2^−12·|d| off the origin along d (far beyond GJK's touching band) is Undecided.
TYPED_TEST(EpaFailureModes, TheBlowUpStepDecidesEachOutcomeBeyondRounding) {
  using T = TypeParam;
  using V = Vec3<T>;
  if constexpr (is_exact_v<T>) {
    GTEST_SKIP() << "exact scalars take the book's sign: d·(w − first) > 0";
  } else {
    const V u = convert<T>(Vec3<double>{0.3, -0.7, 0.1});
    const V d = cross(u, V{T(0), T(0), T(1)});
    for (const double shift : {0.0, 0x1p-12}) {
      const V first = convert<T>(Vec3<double>{-0.6, 1.4, -0.2}) + T(shift) * d;  // the origin − 2u, moved along d
      const std::vector<V> hull = {first, V(first + T(5) * u)};
      const V on_line = first + T(3) * u;
      const V off_line = on_line + T(0x1p-10) * d;
      const T radius = std::sqrt(std::max(dot(hull[0], hull[0]), dot(hull[1], hull[1])));
      SCOPED_TRACE(shift == 0 ? "the line through the origin" : "the line 2^-12 off the origin");
      EXPECT_EQ(detail::blow_up_step(d, off_line, hull, radius), detail::BlowUp::OffTheHull);
      EXPECT_EQ(detail::blow_up_step(d, on_line, hull, radius),
                shift == 0 ? detail::BlowUp::Touching : detail::BlowUp::Undecided);
      EXPECT_EQ(detail::blow_up_step(V(-d), on_line, hull, radius), detail::BlowUp::Touching);
    }
  }
}

// The visibility test of the polytope's growth (epa.hpp, detail::sees): a facet's plane through p₀, p₁, p₂ (3D) or
// p₀, p₁ (2D), as the polytope forms it, and a point w near that plane — on it up to rounding, or off it by 2^−m of
// the scale for m up to twice the scalar's digits — at scales from float's subnormals to 2^40, facets from fat to
// slivers; and, one trial in four, small integers scaled by a power of two with w exactly on the plane (lattice
// input). Each stage's rounding must lie within its bound — (1) n·w − o against visibility_rounding_bound, (2) the
// two-word orientation against its own — and every answer must be the exact orientation's (points taken as the
// rationals they are). Each stage must decide some trials, and the book's test, n·w > o as rounded, must be wrong on
// some, or these inputs would not test the bounds.
// 2^−(k₁ + ⋯), the factor between the book's normal of a facet through points p and the floating modes' normal, whose
// edges p_k − p₀ are each brought into their own scale first: k the exponent of the rounded edge's largest component
// (epa.hpp, ordered_normal; a zero edge counts 0).
template <class V, std::size_t N>
Exact own_scale_factor(const std::array<V, N>& p) {
  using T = scalar_t<V>;
  int exponents = 0;
  for (std::size_t k = 1; k < N; ++k)
    if (const T largest = max_abs_component(V(p[k] - p[0])); largest > 0)
      exponents += ScalarTraits<T>::frame_exponent(largest);
  Exact factor(1);
  if (exponents > 0)
    mpq_div_2exp(factor.get_mpq_t(), factor.get_mpq_t(), static_cast<mp_bitcnt_t>(exponents));
  else
    mpq_mul_2exp(factor.get_mpq_t(), factor.get_mpq_t(), static_cast<mp_bitcnt_t>(-exponents));
  return factor;
}

template <int Dim, class T>
void visibility_is_exact(std::uint64_t seed, int trials) {
  using V = std::conditional_t<Dim == 3, Vec3<T>, Vec2<T>>;
  using VE = exact_vector_t<V>;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::uniform_int_distribution<int> small(-8, 8);
  const int digits = std::numeric_limits<T>::digits;
  const auto random_vector = [&](double scale, bool lattice) {
    V v{};
    for (int k = 0; k < Dim; ++k) v[k] = T((lattice ? small(rng) : unit(rng)) * scale);
    return v;
  };
  int book_wrong = 0;
  std::array<int, 3> decided{};  // by stage (1), (2), (3)
  std::array<double, 2> worst{};  // the largest rounding seen in stages (1) and (2), over their bounds
  for (int trial = 0; trial < trials; ++trial) {
    const bool lattice = trial % 4 == 3;
    const double scale = std::ldexp(1.0, std::uniform_int_distribution<int>(lattice ? -20 : -140, 40)(rng));
    std::array<V, Dim> p;
    p[0] = random_vector(scale, lattice);
    const V e1 = random_vector(scale, lattice);
    p[1] = p[0] + e1;
    V w;
    if (lattice) {  // exactly on the plane
      if constexpr (Dim == 3) p[2] = p[0] + random_vector(scale, true);
      w = p[0] + T(small(rng)) * e1;
      if constexpr (Dim == 3) w = w + T(small(rng)) * V(p[2] - p[0]);
    } else {
      if constexpr (Dim == 3) {  // a fat triangle, or a sliver 2^−j thin
        const T thin = T(std::ldexp(1.0, -std::uniform_int_distribution<int>(0, digits)(rng)));
        p[2] = p[0] + T(unit(rng)) * e1 + thin * random_vector(scale, false);
      }
      // w: a point of the plane (up to rounding), moved off it by 2^−m of the scale along a random direction.
      w = p[0] + T(unit(rng) * 4) * e1;
      if constexpr (Dim == 3) w = w + T(unit(rng) * 4) * V(p[2] - p[0]);
      const int m = std::uniform_int_distribution<int>(0, 2 * digits)(rng);
      if (m < 2 * digits) w = w + T(std::ldexp(1.0, -m)) * random_vector(scale, false);
    }
    std::array<int, Dim> vertex{};
    std::iota(vertex.begin(), vertex.end(), 0);
    const detail::Facet<V> f = detail::facet_through(p, vertex);
    const T w_reach = max_abs_component(w);
    std::array<VE, Dim> pe;
    for (int k = 0; k < Dim; ++k) pe[k] = convert<Exact>(p[k]);
    // The exact orientation, in the scale of the facet's normal.
    const Exact normal_scale = own_scale_factor(p);
    const Exact unscaled = dot(detail::ordered_normal(pe), VE(convert<Exact>(w) - pe[0]));
    const bool exact = unscaled > 0;
    const Exact orientation = unscaled * normal_scale;  // stage (1)'s quantity, exactly
    const auto fail = [&](const std::string& what) {
      ADD_FAILURE() << "seed " << seed << ", trial " << trial << ": " << what;
    };
    const T rounded = dot(f.normal, w) - f.offset;
    if ((dot(f.normal, w) > f.offset) != exact) ++book_wrong;
    const T bound1 = detail::visibility_rounding_bound(f, w_reach);
    if (std::isfinite(rounded) && std::isfinite(bound1)) {  // (an overflow decides nothing: the next stage answers)
      const Exact error = abs(exact_of(rounded) - orientation);
      if (error > exact_of(bound1)) return fail("stage (1)'s rounding " + std::to_string(error.get_d()) + " beyond its bound");
      if (bound1 > 0) worst[0] = std::max(worst[0], Exact(error / exact_of(bound1)).get_d());
    }
    const auto [det, bound2] = detail::orientation_two_word(p, w);
    if (std::isfinite(det.hi) && std::isfinite(det.lo) && std::isfinite(bound2)) {  // (2): the unscaled orientation
      const Exact error = abs(exact_of(det.hi) + exact_of(det.lo) - unscaled);
      if (error > exact_of(bound2)) return fail("stage (2)'s rounding " + std::to_string(error.get_d()) + " beyond its bound");
      if (bound2 > 0) worst[1] = std::max(worst[1], Exact(error / exact_of(bound2)).get_d());
    }
    ++decided[std::isfinite(rounded) && std::abs(rounded) > bound1 ? 0 : std::isfinite(det.hi) && std::abs(det.hi) > bound2 ? 1 : 2];
    if (detail::sees(f, [&] { return p; }, w, w_reach) != exact) return fail("sees is not the exact orientation");
  }
  std::printf("visibility, %dD, seed %llu: %d trials; decided by stage (1) %d, (2) %d, (3) %d; the book's rounded test "
              "wrong on %d; rounding at most %.3g and %.3g of the bounds (1) and (2)\n",
              Dim, static_cast<unsigned long long>(seed), trials, decided[0], decided[1], decided[2], book_wrong,
              worst[0], worst[1]);
  for (int stage = 0; stage < 3; ++stage) EXPECT_GT(decided[stage], 0) << "stage (" << stage + 1 << ") never decided";
  EXPECT_GT(book_wrong, 0) << "no input where rounding decides the book's test: the bounds are not tested";
}

TYPED_TEST(EpaFailureModes, VisibilityIsTheExactOrientation) {
  using T = TypeParam;
  if constexpr (is_exact_v<T>) {
    GTEST_SKIP() << "exact scalars take the book's sign: n·w > o";
  } else {
    const std::uint64_t seed = test::test_seed(20261127);
    visibility_is_exact<3, T>(seed, 50000);
    visibility_is_exact<2, T>(seed, 50000);
  }
}

// The facet normal as the polytope forms it (epa.hpp, facet_through), against the exact (p₁ − p₀) × (p₂ − p₀) in the
// edges' own scale, on random facets from fat to slivers 2^−j thin at scales 2^−100 to 2^40: a facet whose one-word
// normal is conditioned within kOneWordNormalConditioning keeps it, within its proven 4.01u·ΣP (ℓ1) of the exact one;
// every other is formed in two words and rounded once, within u·‖n‖₁ plus the two-word terms (a one-word normal there
// would be off by about ε over the sliver's angle). Both forms must occur.
template <class T>
void facet_normals_are_within_their_bounds(std::uint64_t seed, int trials) {
  using V = Vec3<T>;
  using VE = exact_vector_t<V>;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1, 1);
  const int digits = std::numeric_limits<T>::digits;
  const Exact u = exact_of(ScalarTraits<T>::epsilon()) / 2;
  std::array<int, 2> taken{};  // one word, two words
  double worst = 0;            // the one-word normal's error over its bound
  for (int trial = 0; trial < trials; ++trial) {
    const double scale = std::ldexp(1.0, std::uniform_int_distribution<int>(-100, 40)(rng));
    const auto random_vector = [&] { return V{T(unit(rng) * scale), T(unit(rng) * scale), T(unit(rng) * scale)}; };
    std::array<V, 3> p;
    p[0] = random_vector();
    const V e1 = random_vector();
    p[1] = p[0] + e1;
    const T thin = T(std::ldexp(1.0, -std::uniform_int_distribution<int>(0, digits)(rng)));
    p[2] = p[0] + T(unit(rng)) * e1 + thin * random_vector();
    const detail::Facet<V> f = detail::facet_through(p, std::array<int, 3>{0, 1, 2});
    // The exact normal in the edges' own scale.
    std::array<VE, 3> pe;
    for (int k = 0; k < 3; ++k) pe[k] = convert<Exact>(p[k]);
    const VE exact = own_scale_factor(p) * detail::ordered_normal(pe);
    Exact error(0), n1(0);
    for (int c = 0; c < 3; ++c) {
      error += abs(exact_of(f.normal[c]) - exact[c]);
      n1 += abs(exact_of(f.normal[c]));
    }
    T magnitude(0);
    const V one_word = detail::facet_normal_one_word(p[0], p[1], p[2], magnitude);
    const Exact underflow = exact_of(T(64) * std::numeric_limits<T>::denorm_min());
    if (detail::one_word_normal_suffices(one_word, magnitude)) {
      ++taken[0];
      EXPECT_EQ(f.normal, one_word) << "trial " << trial << ": a well-conditioned facet's normal is its one-word one";
      const Exact bound = Exact(401) / 100 * u * exact_of(magnitude) + underflow;
      if (error > bound) {
        ADD_FAILURE() << "seed " << seed << ", trial " << trial << ": the one-word normal is " << error.get_d()
                      << " from the exact one, beyond its bound " << bound.get_d();
        return;
      }
      if (bound > 0) worst = std::max(worst, Exact(error / bound).get_d());
    } else {
      ++taken[1];
      const Exact bound = u * n1 * Exact(101) / 100 + Exact(720) * u * u + underflow;
      if (error > bound) {
        ADD_FAILURE() << "seed " << seed << ", trial " << trial << ": the two-word normal is " << error.get_d()
                      << " from the exact one, beyond its bound " << bound.get_d();
        return;
      }
    }
  }
  std::printf("facet normals, seed %llu: %d trials; one word %d (error at most %.3g of its bound), two words %d\n",
              static_cast<unsigned long long>(seed), trials, taken[0], worst, taken[1]);
  EXPECT_GT(taken[0], 0) << "no facet took the one-word normal";
  EXPECT_GT(taken[1], 0) << "no facet took the two-word normal";
}

TYPED_TEST(EpaFailureModes, FacetNormalsAreWithinTheirBounds) {
  using T = TypeParam;
  if constexpr (is_exact_v<T>) {
    GTEST_SKIP() << "exact scalars take the book's normal, (p₁ − p₀) × (p₂ − p₀)";
  } else {
    facet_normals_are_within_their_bounds<T>(test::test_seed(20261128), 50000);
  }
}

// Mechanism: the growth's visibility test, n·w > o as rounded, decided a facet nearly coplanar with w the wrong way
// and left the polytope not convex: a vertex beyond its nearest facet, where EPA, which cannot grow by a vertex it
// has, ended as rounding-failure (double: a pair overlapping by 3.2·10⁻¹⁵ at coordinates up to 8, from one of the two
// orders of GJK's segment; float: a needle pair about 40·ε thick). The test is now the exact orientation where
// rounding could decide it (detail::sees). What does not matter: which shape is A; the start's order.
TYPED_TEST(EpaFailureModes, AVisibilityIsDecidedOnThePointsAsStored) {
  using T = TypeParam;
  const std::vector<NeedlePair<T>> cases = {
      {points3<T>({{-8, 0, -2}, {-1, -6, -8}, {0, -4, -1}}),
       points3<T>({{7, 1, 0}, {0, 0, 0}, {0x1.fffffffffffep+0, -6, -4}, {-0x1p-47, -4, -1}})},
      {points3<T>({{-0x1.1468p-6, -0x1.50362p-1, 0x1.2c2c8p-3},
                   {-0x1.e7f24p-1, 0x1.acbbp-2, 0x1.669e8p-2},
                   {-0x1.a6f8be73ffep-1, 0x1.177589a7p-2, 0x1.4a5987b3p-2},
                   {-0x1.a8b29b47fffep-1, 0x1.1b8caa16p-2, 0x1.4b1a054e0002p-2}}),
       points3<T>({{-0x1.1446945cp-6, -0x1.50346805p-1, 0x1.2c2de60f8p-3},
                   {-0x1.e7f1c843cp-1, 0x1.acba842a4p-2, 0x1.669d3d328p-2},
                   {-0x1.a6f9c312dfep-1, 0x1.1771a96e4p-2, 0x1.4a5cb56dcp-2},
                   {-0x1.a8b2cdf5fffep-1, 0x1.1b8e860e4p-2, 0x1.4b1cb0088002p-2}})},
  };
  judge_needle_pairs(cases);
}

// Mechanism: GJK stops in its touching band on a segment of two thin boxes (2^−18 thick, overlapping by about that);
// the blow-up adds two points per direction and keeps one of them in the hull it tests the next points against, each
// "off the hull" beyond rounding; the polytope then chose its first simplex again, the first affinely independent
// points in their order, by tests against other triangles, and in float found none beyond rounding (rounding-failure,
// a missing depth). The start's hull now comes first, so the first simplex is the one the start chose. What does not
// matter: which box is A; the start's order.
TYPED_TEST(EpaFailureModes, TheStartsHullIsTheFirstSimplex) {
  using T = TypeParam;
  const std::vector<NeedlePair<T>> cases = {
      {points3<T>({{-1, -1, -0x1p-19}, {1, -1, -0x1p-19}, {0, 0, -0x1p-19}, {-1, -1, 0x1p-19}, {1, -1, 0x1p-19}}),
       points3<T>({{-1, -1, 0}, {1, -1, 0}, {1, 0, 0}})},
      {points3<T>({{-1, -1, -0x1p-19}, {1, -1, -0x1p-19}, {0, 0, -0x1p-19}, {-1, -1, 0x1p-19}, {1, -1, 0x1p-19}}),
       points3<T>({{-1.5, -1, 0}, {1, -1, 0}, {0, 0, 0}, {0, -1, 0x1p-18}})},
  };
  judge_needle_pairs(cases);
}

// Mechanism: GJK stops in its touching band on a segment (or a triangle) of two needles that the origin is only near,
// and the blow-up's support point along the hull's normal d lies on the hull's span up to rounding while reaching
// along d beyond GJK's band: detail::blow_up_step decides neither "off the hull" nor "touching" (Undecided), and the
// blow-up gave up there (rounding-failure, a missing depth in float), though from the other side, −d, the support
// point adds the dimension. It now looks from both sides, and gives up only when both are undecided. Which side is
// looked at first follows the order of GJK's simplex, so the cases are run in every order. What does not matter:
// which needle is A; the shrunk or the generated pair (cases/findings/epa-float-blow-up-undecided-needles-*.json,
// from `gjkref check --seed 59`, family needles).
TYPED_TEST(EpaFailureModes, TheBlowUpLooksFromBothSides) {
  using T = TypeParam;
  {
    SCOPED_TRACE("2D: GJK's segment");
    const std::vector<std::pair<std::vector<Vec2<T>>, std::vector<Vec2<T>>>> cases = {
        {points2<T>({{0x1.701f4p-1, -0x1.c31e2p-1}, {0x1.4f6ep-2, -0x1.a1f526p-1}}),
         points2<T>({{0x1.70204ep-1, -0x1.c31c96p-1}, {-0x1.d386cap-1, -0x1.38d8p-1}, {0, -1}})},
        {points2<T>({{0x1.701f4p-1, -0x1.c31e2p-1}, {-0x1.d385cp-1, -0x1.38d94p-1},
                     {0x1.58ca70e4001p-2, -0x1.a2bb622ecp-1}, {0x1.4f6e7dcdfcp-2, -0x1.a1f52573ap-1}}),
         points2<T>({{0x1.70204e398p-1, -0x1.c31c95f94p-1}, {-0x1.d386c98fp-1, -0x1.38d7adc92p-1},
                     {0x1.58c7ce49c01p-2, -0x1.a2bc15c3p-1}, {0x1.4f7271bbbcp-2, -0x1.a1f6bbe86p-1}})},
    };
    for (const auto& [a, b] : cases) {
      judge_case(ConvexPoints<Vec2<T>>(a), ConvexPoints<Vec2<T>>(b));
      judge_case(ConvexPoints<Vec2<T>>(b), ConvexPoints<Vec2<T>>(a));
    }
  }
  SCOPED_TRACE("3D: GJK's segment, and GJK's triangle");
  const std::vector<NeedlePair<T>> cases = {
      {points3<T>({{-0x1.180ecp-2, 0x1.347bcp-2, -0x1.a41ecp-1}, {0x1.0a3cp-5, 0x1.fde8p-8, -0x1.3ae8c8p-1}}),
       points3<T>({{-0x1.180e52p-2, 0x1.347c86p-2, -0x1.a41e6ap-1}, {0x1.3794p-5, 0x1.446p-9, -0x1.39017ap-1},
                   {0, 0, -0x1.4p-1}, {0, 0, -1}})},
      {points3<T>({{-0x1.180ecp-2, 0x1.347bcp-2, -0x1.a41ecp-1}, {0x1.379p-5, 0x1.444p-9, -0x1.3901cp-1},
                   {0x1.0a3c44b801p-5, 0x1.fde7818p-8, -0x1.3ae8c7dbffffcp-1},
                   {-0x1.289f5568ffp-3, 0x1.6c41a007p-3, -0x1.77e207edp-1}}),
       points3<T>({{-0x1.180e52dbap-2, 0x1.347c855ecp-2, -0x1.a41e69ed9p-1},
                   {0x1.379487d68p-5, 0x1.445f5568p-9, -0x1.39017af4ep-1},
                   {0x1.0a39018581p-5, 0x1.fdc70e7cp-8, -0x1.3ae8a2e5d7ffcp-1},
                   {-0x1.289e4c1f9fp-3, 0x1.6c424415ep-3, -0x1.77e2469fb8p-1}})},
      {points3<T>({{0x1.6e94b8p-1, -0x1.833ep-4, -0x1.48p-9}, {-0x1.240ap-4, 0x1.4f4cp-4, 0x1.0506d6p-1}}),
       points3<T>({{0x1.f2b11ep-1, -0x1.3804p-3, -0x1.5cfep-3}, {-0x1.f28052p-2, 0x1.665cp-3, 0x1.8f74cp-1},
                   {0x1.6e9ap-1, -0x1.8346p-4, 0}, {-0x1.24p-4, 0x1.4f1p-4, 0x1p-1}})},
      {points3<T>({{0x1.f2b8cp-1, -0x1.380ep-3, -0x1.5d14p-3}, {-0x1.f27e4p-2, 0x1.66518p-3, 0x1.8f774p-1},
                   {0x1.6e94b77740008p-1, -0x1.833ea97ap-4, -0x1.47a21988p-9},
                   {-0x1.24097cdp-4, 0x1.4f4becd00004p-4, 0x1.0506d50c008p-1}}),
       points3<T>({{0x1.f2b11ef2p-1, -0x1.380432acp-3, -0x1.5cfdd2b2p-3},
                   {-0x1.f2805118p-2, 0x1.665c294cp-3, 0x1.8f74bf008p-1},
                   {0x1.6e9a14bfc0008p-1, -0x1.8345b376p-4, -0x1.441d9a08p-9},
                   {-0x1.2439f1c8p-4, 0x1.4f0fc68c0004p-4, 0x1.0500567f808p-1}})},
  };
  judge_needle_pairs(cases);
}

// What the exact visibility and orientation give (detail::sees, Polytope::grow): the floating EPA's polytope is the
// convex hull of its points as stored, exactly — every point on or behind every facet's plane, each facet's order
// giving its outward normal. Checked in rationals on the certificate of every penetrating answer, from every order of
// GJK's simplex, on random needle pairs (two thin, nearly parallel point sets near the origin, 2^−4 to 2^−40 thick):
// each point of the polytope is a − b rounded to the scalar (EPA's power-of-two frame changes no sign).
template <class T>
std::vector<Vec3<T>> random_needle(std::mt19937_64& rng, const Vec3<double>& from, const Vec3<double>& to,
                                   double thickness) {
  std::uniform_real_distribution<double> unit(-1, 1), along(0, 1);
  std::vector<Vec3<T>> points;
  const int count = std::uniform_int_distribution<int>(2, 4)(rng);
  for (int i = 0; i < count; ++i) {
    const double s = i < 2 ? double(i) : along(rng);
    Vec3<T> p{};
    for (int k = 0; k < 3; ++k) p[k] = T(from[k] + s * (to[k] - from[k]) + thickness * unit(rng));
    points.push_back(p);
  }
  return points;
}

TYPED_TEST(EpaFailureModes, TheFloatingPolytopeIsConvexOnItsPoints) {
  using T = TypeParam;
  using V = Vec3<T>;
  using VE = exact_vector_t<V>;
  if constexpr (is_exact_v<T>) {
    GTEST_SKIP() << "exact scalars: the polytope is convex by the book's exact signs";
  } else {
    const std::uint64_t seed = test::test_seed(20261128);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(-1, 1);
    int polytopes = 0;
    for (int trial = 0; trial < 300; ++trial) {
      const double thickness = std::ldexp(1.0, -std::uniform_int_distribution<int>(4, 40)(rng));
      const Vec3<double> from{unit(rng), unit(rng), unit(rng)}, to{unit(rng), unit(rng), unit(rng)};
      const Vec3<double> shift{thickness * unit(rng), thickness * unit(rng), thickness * unit(rng)};
      const ConvexPoints<V> a(random_needle<T>(rng, from, to, thickness));
      const ConvexPoints<V> b(random_needle<T>(rng, from + shift, to + shift, thickness));
      const Penetration<V> first = penetration(a, b);
      if (first.gjk.status != Status::Intersecting) continue;
      in_every_order(a, b, first.gjk, [&](const Penetration<V>& p) {
        if (p.status != PenetrationStatus::Penetrating) return;
        ++polytopes;
        std::vector<VE> points;
        for (const auto& [i, j] : p.certificate.points) points.push_back(convert<Exact>(V(a.points()[i] - b.points()[j])));
        for (const auto& f : p.certificate.facets) {
          const std::array<VE, 3> q = {points[f[0]], points[f[1]], points[f[2]]};
          const VE n = detail::ordered_normal(q);
          for (const VE& x : points)
            ASSERT_FALSE(dot(n, VE(x - q[0])) > 0) << "seed " << seed << ", trial " << trial
                                                   << ": a point of the polytope beyond a facet's plane";
        }
      });
    }
    std::printf("convexity, seed %llu: %d polytopes checked\n", static_cast<unsigned long long>(seed), polytopes);
    EXPECT_GT(polytopes, 100) << "too few needle pairs overlapped to test anything";
  }
}

// ---- A status, never a sentinel ---------------------------------------------------------------------------------------

// Separated input, GJK's iteration cap, EPA's expansion cap and invalid input each come back as their status, with
// nothing else claimed: no depth, no normal, no certificate. The caps are counts, not tolerances: a cap of 1 iteration
// stops GJK on shapes it needs more for, a cap of 0 expansions stops EPA on a start that must grow.
TYPED_TEST(EpaFailureModes, EveryOtherOutcomeIsAStatus) {
  using T = TypeParam;
  using V = Vec3<T>;
  const ConvexPoints<V> cube(points3<T>({{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                         {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {1, 1, 1}}));
  const ConvexPoints<V> far(points3<T>({{3, 0.5, 0.25}, {4, 1, 1}}));
  const ConvexPoints<V> slanted(points3<T>({{0.5, 0.25, 0.125}, {2, 1.5, 1}, {0.75, 2, -1}, {1.5, -1, 2}}));
  const auto nothing_claimed = [](const Penetration<V>& p) {
    EXPECT_EQ(p.squared_depth, T(0));
    EXPECT_TRUE(is_zero(p.normal));
    EXPECT_TRUE(is_zero(p.translation));
    EXPECT_EQ(p.facet_size, 0);
    EXPECT_TRUE(p.certificate.points.empty());
    EXPECT_EQ(p.certificate.answer, -1);
  };
  {
    const Penetration<V> p = penetration(cube, far);
    EXPECT_EQ(p.status, PenetrationStatus::Separated);
    EXPECT_EQ(p.gjk.status, Status::Separated);
    EXPECT_EQ(exact_of(p.gjk.squared_distance()), 4);  // from (1, 0.5, 0.25) to (3, 0.5, 0.25)
    nothing_claimed(p);
  }
  {
    PenetrationOptions<V> capped;
    capped.gjk.max_iterations = 1;
    const Penetration<V> p = penetration(cube, slanted, capped);
    ASSERT_EQ(p.gjk.status, Status::IterationLimit);
    EXPECT_EQ(p.status, PenetrationStatus::IterationLimit);
    nothing_claimed(p);
  }
  {
    PenetrationOptions<V> capped;
    capped.max_expansions = 0;
    const Penetration<V> uncapped = penetration(cube, slanted);
    ASSERT_EQ(uncapped.status, PenetrationStatus::Penetrating);
    ASSERT_GT(uncapped.expansions, 0);
    const Penetration<V> p = penetration(cube, slanted, capped);
    EXPECT_EQ(p.gjk.status, Status::Intersecting);
    EXPECT_EQ(p.status, PenetrationStatus::IterationLimit);
    nothing_claimed(p);
  }
  {
    const Penetration<V> p = penetration(cube, ConvexPoints<V>(std::vector<V>{}));
    EXPECT_EQ(p.status, PenetrationStatus::InvalidInput);
    EXPECT_EQ(p.gjk.input_error, InputError::EmptyB);
    nothing_claimed(p);
  }
  if constexpr (!is_exact_v<T>) {
    for (const T bad : {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity()}) {
      const Penetration<V> p = penetration(ConvexPoints<V>(std::vector<V>{{0, 0, 0}, {bad, 1, 1}}), cube);
      EXPECT_EQ(p.status, PenetrationStatus::InvalidInput);
      EXPECT_EQ(p.gjk.input_error, InputError::NonFiniteA);
      nothing_claimed(p);
    }
  }
  if constexpr (std::is_same_v<T, double>) {  // the certified mode's statuses
    EXPECT_EQ(certified_penetration(cube, far).status, PenetrationStatus::Separated);
    const CertifiedPenetration<V> empty = certified_penetration(cube, ConvexPoints<V>(std::vector<V>{}));
    EXPECT_EQ(empty.status, PenetrationStatus::InvalidInput);
    EXPECT_EQ(empty.input_error, InputError::EmptyB);
    const CertifiedPenetration<V> nan =
        certified_penetration(ConvexPoints<V>(std::vector<V>{{0, 0, 0}, {std::nan(""), 1, 1}}), cube);
    EXPECT_EQ(nan.status, PenetrationStatus::InvalidInput);
    EXPECT_EQ(nan.input_error, InputError::NonFiniteA);
  }
}

// Finite coordinates whose difference a − b leaves the scalar's range, met by EPA and not by GJK: A = B through the
// origin, so GJK's cold start a₀ − b₀ is the origin and it answers intersecting at once; EPA's first support along x
// is 2^1023 − (−2^1023). Double stops with InvalidInput DifferenceOverflow and nothing claimed, as GJK does when its
// own support overflows; long double and the rationals hold the difference and give PD (the least width of A: 1/√2 in
// 3D, across the triangle 0, e_y, e_z; 1 in 2D, A's height over its long base); float cannot hold the input. The
// certified mode answers exactly. Cause: the overflowed point made an infinite normal, returned as "touching" with
// normal (2^−287, −∞) (cases/findings/epa-difference-overflow-nan-normal-2d.json). Does not matter: the points' order.
TYPED_TEST(EpaFailureModes, AnOverflowingDifferenceIsAStatusNotAnInfinity) {
  using T = TypeParam;
  const double big = std::ldexp(1.0, 1023);
  const auto check = [](const auto& a) {
    using V = typename std::decay_t<decltype(a)>::vector_type;
    const Penetration<V> p = penetration(a, a);
    if constexpr (std::is_same_v<T, float>) {
      EXPECT_EQ(p.status, PenetrationStatus::InvalidInput);
      EXPECT_EQ(p.gjk.input_error, InputError::NonFiniteA) << "2^1023 is beyond float's range";
    } else if constexpr (std::is_same_v<T, double>) {
      ASSERT_EQ(p.gjk.status, Status::Intersecting) << "GJK must not meet the overflow for this test to mean anything";
      EXPECT_EQ(p.status, PenetrationStatus::InvalidInput);
      EXPECT_EQ(p.gjk.input_error, InputError::DifferenceOverflow);
      EXPECT_EQ(p.squared_depth, T(0));
      EXPECT_TRUE(is_zero(p.normal));
      EXPECT_TRUE(is_zero(p.translation));
      EXPECT_EQ(p.facet_size, 0);
      EXPECT_EQ(p.certificate.answer, -1);
      const CertifiedPenetration<V> c = certified_penetration(a, a, true);
      EXPECT_EQ(c.status, PenetrationStatus::Penetrating);
      ASSERT_TRUE(c.exact.has_value());
      EXPECT_EQ(c.exact->squared_depth, V::dimension == 3 ? Exact(1, 2) : Exact(1));
    } else {
      // Long double exactly too: in EPA's frame every coordinate is 0, ±1 or a power of two, and every quantity formed
      // from them is held without rounding.
      EXPECT_EQ(p.status, PenetrationStatus::Penetrating);
      EXPECT_EQ(exact_of(p.squared_depth), V::dimension == 3 ? Exact(1, 2) : Exact(1));
    }
  };
  check(test::shape3<T>({{0, 0, 0}, {big, 0, 0}, {-big, 0, 0}, {0, 1, 0}, {0, 0, 1}}));
  check(test::shape2<T>({{0, 0}, {big, 0}, {-big, 0}, {0, 1}}));
}

}  // namespace
}  // namespace gjkref
