// bench/exact_judge.hpp — for the measurement programs beside the benchmarks (vouch_experiment, post_pass_tally): is a
// floating answer within docs/contract.md, judged by the exact mode's answer on the same input? distance(): the
// verdict (item 1, by the distance), the distance (item 3) and the witness gap (item 7); intersect(): the verdict.
#pragma once

#include <cmath>
#include <vector>

#include "gjkref/contract.hpp"
#include "gjkref/exact.hpp"
#include "gjkref/gjkref.hpp"

namespace gjkref::bench {

template <Vector V>
bool within_contract_by_exact(const ConvexPoints<V>& a, const ConvexPoints<V>& b, const Result<V>& r, bool boolean) {
  using T = scalar_t<V>;
  using E = exact_vector_t<V>;
  std::vector<E> ea, eb;
  for (const V& p : a.points()) ea.push_back(convert<Exact>(p));
  for (const V& p : b.points()) eb.push_back(convert<Exact>(p));
  const auto exact = distance(ConvexPoints<E>(ea), ConvexPoints<E>(eb));
  const double d = std::sqrt(exact.squared_distance().get_d());
  const bool truly_separated = exact.status == Status::Separated;
  const double m = double(input_scale(a, b)), big_r = double(largest_coordinate(a, b));
  const double eps = std::numeric_limits<T>::epsilon();
  const bool separated = r.status == Status::Separated;
  if (boolean) return separated == truly_separated || d <= verdict_band(eps, m, big_r, V::dimension, false);
  const Judgement j = judge_floating({separated, separated ? double(r.distance()) : 0.0}, truly_separated, d, eps, m,
                                     big_r, V::dimension, false);
  long double gap = 0;
  for (int k = 0; k < V::dimension; ++k) gap += std::pow((long double)r.witness_a[k] - (long double)r.witness_b[k], 2);
  const double allowed = distance_allowance(d, eps, m, big_r, V::dimension, false) +
                         2 * kContractWitnessEpsilons * eps * big_r;
  return j != Judgement::Violates && std::fabs(double(std::sqrt(gap)) - d) <= allowed;
}

}  // namespace gjkref::bench
