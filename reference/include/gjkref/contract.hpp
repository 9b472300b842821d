// gjkref/contract.hpp — the scales docs/contract.md states its bounds in, for anyone checking a result against it
// (the tests, `gjkref eval`). The constants themselves are in tolerances.hpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "gjkref/exact.hpp"
#include "gjkref/gjk.hpp"
#include "gjkref/support.hpp"
#include "gjkref/tolerances.hpp"

namespace gjkref {

// M, the input scale: the largest coordinate magnitude of A⊖B, max over vertex pairs (a, b) of ‖a − b‖∞, computed in
// the shapes' own scalar type.
template <Vector V>
scalar_t<V> input_scale(const ConvexPoints<V>& a, const ConvexPoints<V>& b) {
  scalar_t<V> m(0);
  for (const V& p : a.points())
    for (const V& q : b.points()) m = std::max(m, max_abs_component(V(p - q)));
  return m;
}

// R, the largest coordinate magnitude of A and B: the scale of the error made by rounding the input to a narrower
// type (docs/contract.md, "Input rounding").
template <Vector V>
scalar_t<V> largest_coordinate(const ConvexPoints<V>& a, const ConvexPoints<V>& b) {
  scalar_t<V> r(0);
  for (const auto* shape : {&a, &b})
    for (const V& p : shape->points()) r = std::max(r, max_abs_component(p));
  return r;
}

// Rounding double input to float moves each coordinate by a relative u (docs/contract.md, "Input rounding") only while
// every coordinate is 0 or a normal float far from the ends of float's range; gjkref's checks judge float answers on
// input whose coordinates are 0 or of magnitude in [2^−100, 2^100] (float's normal range is 2^−126 to 2^128; 100
// leaves room for the products and differences inside a query). Used by OracleFamilies.* (oracle/tests) and
// FamilyProperties.* (proptests), which judge float only on such input.
inline constexpr int kFloatJudgedExponent = 100;

// The range clause's exponents beside float's (docs/contract.md, "Judging other implementations"): double's squares of
// coordinates up to 2^500 stay below 2^1000, short of overflow (2^1024), and down to 2^−500 above 2^−1000, short of
// subnormals (2^−1022); long double's 2^±8000 leave the same room in its exponent range (2^±16382). Used by the judge
// (impl/judge.cpp; pinned by Judge.InputOutsideTheContractsRangeIsNotJudged).
inline constexpr int kDoubleJudgedExponent = 500;
inline constexpr int kLongDoubleJudgedExponent = 8000;

// Is every coordinate 0 or of magnitude in [2^−exponent, 2^exponent]?
template <class Points>
bool within_judged_range(const Points& points, int exponent) {
  for (const auto& p : points)
    for (double x : p)
      if (x != 0 && (std::fabs(x) < std::ldexp(1.0, -exponent) || std::fabs(x) > std::ldexp(1.0, exponent)))
        return false;
  return true;
}

template <class Points>
bool float_rounding_is_relative(const Points& points) {
  return within_judged_range(points, kFloatJudgedExponent);
}

// Can a difference a − b of the points (the input's coordinates, as doubles) leave T's range? Where it can, GJK and EPA
// in T may answer InvalidInput DifferenceOverflow (docs/edge-cases.md, "Termination and bad input"), and the property
// suite and the fuzz targets accept it. Per coordinate, the largest |a| plus the largest |b|, in long double (which
// holds the sum of two doubles).
template <class T, class Points>
bool difference_may_overflow(const Points& a, const Points& b, int dim) {
  for (int j = 0; j < dim; ++j) {
    long double largest_a = 0, largest_b = 0;
    for (const auto& p : a) largest_a = std::max(largest_a, std::fabs(static_cast<long double>(p[j])));
    for (const auto& p : b) largest_b = std::max(largest_b, std::fabs(static_cast<long double>(p[j])));
    if (largest_a + largest_b > static_cast<long double>(std::numeric_limits<T>::max())) return true;
  }
  return false;
}

// A floating-point answer judged against the exact truth under docs/contract.md.
enum class Judgement {
  Agrees,      // the verdict is right and the distance within the bound
  WithinBand,  // the verdict differs, but the exact distance is inside the verdict band (allowed)
  Violates     // outside the contract
};

struct FloatingAnswer {
  bool says_separated = false;
  double distance = 0;
};

// epsilon: the answering scalar's machine epsilon; m, r: input_scale and largest_coordinate of the (double) input;
// input_rounded: the double input was rounded to a narrower scalar, which moves each vertex by up to ε/2·√dim·R, so
// both shapes together by ε·√dim·R (docs/contract.md, "Input rounding").
// Does mode T round a double input to a narrower scalar before it runs? Float does; double, long double and the exact
// scalars take each double coordinate as it is. (impl::Info::rounds_input says the same of an implementation.)
template <class T>
inline constexpr bool rounds_double_input = std::is_same_v<T, float>;

inline double input_rounding_bound(double epsilon, double r, int dim, bool input_rounded) {
  return input_rounded ? epsilon * std::sqrt(static_cast<double>(dim)) * r : 0;
}

// The verdict band B (docs/contract.md, item 1), widened by the input rounding: inside it either verdict may be given.
inline double verdict_band(double epsilon, double m, double r, int dim, bool input_rounded) {
  return kContractVerdictEpsilons * epsilon * m + input_rounding_bound(epsilon, r, dim, input_rounded);
}

// How far a reported distance may be from the true one (docs/contract.md, item 3, widened by the input rounding).
// Both distances arrive as doubles: the answer rounded from its scalar (long double, exact) and the truth correctly
// rounded, each within half an ulp of double, so together within one ulp of double: ε_double of the distance, or, where
// the distance is subnormal in double, the least subnormal. Pinned by Contract.TheJudgeCountsDoublesOwnRounding.
inline double distance_allowance(double true_distance, double epsilon, double m, double r, int dim,
                                 bool input_rounded) {
  const double as_doubles =
      std::numeric_limits<double>::epsilon() * true_distance + std::numeric_limits<double>::denorm_min();
  return kContractDistanceEpsilons * epsilon * m + kRelativeGapEpsilons * epsilon * true_distance +
         input_rounding_bound(epsilon, r, dim, input_rounded) + as_doubles;
}

// Pinned by Contract.JudgeRefusesAnswersOutsideTheContract{2d,3d} (proptests): the judge accepts the truth and
// refuses a distance just outside the allowance, and a wrong verdict outside the band. A distance is within the
// allowance only when that comparison holds: a NaN anywhere (the answer, or an allowance from NaN scales) is outside
// it; the truth itself always agrees, +∞ included (Contract.TheJudgeRefusesNaN).
inline Judgement judge_floating(const FloatingAnswer& answer, bool truly_separated, double true_distance, double epsilon,
                                double m, double r, int dim, bool input_rounded) {
  const double allowed = distance_allowance(true_distance, epsilon, m, r, dim, input_rounded);
  if (answer.distance != true_distance && !(std::fabs(answer.distance - true_distance) <= allowed))
    return Judgement::Violates;
  if (answer.says_separated == truly_separated) return Judgement::Agrees;
  return true_distance <= verdict_band(epsilon, m, r, dim, input_rounded) ? Judgement::WithinBand : Judgement::Violates;
}

// Is a floating answer within the contract, judged by the exact mode on the same input (the points taken as the
// rationals they are)? distance() (boolean_query false): item 1's verdict by the distance, item 3's distance and item
// 7's witness gap; intersect(): item 1's verdict. (Item 1 on an overlap, by the penetration depth, needs the oracle:
// impl/judge.cpp.) Used by PostPass.* (reference/tests/gjk_test.cpp) and the measurement programs beside the benchmarks
// (bench/post_pass_tally.cpp, bench/vouch_experiment.cpp).
template <Vector V>
bool within_contract_by_exact(const ConvexPoints<V>& a, const ConvexPoints<V>& b, const Result<V>& r,
                              bool boolean_query) {
  using T = scalar_t<V>;
  using E = exact_vector_t<V>;
  std::vector<E> ea, eb;
  for (const V& p : a.points()) ea.push_back(convert<Exact>(p));
  for (const V& p : b.points()) eb.push_back(convert<Exact>(p));
  const auto exact = distance(ConvexPoints<E>(ea), ConvexPoints<E>(eb));
  const double d = correctly_rounded_sqrt(exact.squared_distance());  // get_d of d² would leave double's range
  const bool truly_separated = exact.status == Status::Separated;
  const double m = double(input_scale(a, b)), big_r = double(largest_coordinate(a, b));
  const double eps = std::numeric_limits<T>::epsilon();
  const bool separated = r.status == Status::Separated;
  if (boolean_query) return separated == truly_separated || d <= verdict_band(eps, m, big_r, V::dimension, false);
  const Judgement j = judge_floating({separated, separated ? double(r.distance()) : 0.0}, truly_separated, d, eps, m,
                                     big_r, V::dimension, false);
  long double gap = 0;
  for (int k = 0; k < V::dimension; ++k) gap += std::pow((long double)r.witness_a[k] - (long double)r.witness_b[k], 2);
  const double allowed = distance_allowance(d, eps, m, big_r, V::dimension, false) +
                         2 * kContractWitnessEpsilons * eps * big_r;
  return j != Judgement::Violates && std::fabs(double(std::sqrt(gap)) - d) <= allowed;
}

}  // namespace gjkref
