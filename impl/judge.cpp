// impl/judge.cpp — gjkref/judge.hpp.
#include "gjkref/judge.hpp"

#include <cmath>
#include <limits>

#include "gjkref/case_shapes.hpp"
#include "gjkref/contract.hpp"

namespace gjkref::impl {

const char* to_string(Finding f) {
  switch (f) {
    case Finding::None: return "agrees";
    case Finding::SeparatedWhileTouching: return "separated-while-touching";
    case Finding::SeparatedWhileOverlapping: return "separated-while-overlapping";
    case Finding::IntersectingWhileSeparated: return "intersecting-while-separated";
    case Finding::DistanceOutsideContract: return "distance-outside-contract";
    case Finding::NonFiniteNumber: return "non-finite-number";
    case Finding::Failed: return "failed";
    case Finding::Threw: return "threw";
    case Finding::Crashed: return "crashed";
    case Finding::Hung: return "hung";
    case Finding::WrongInvalidInput: return "wrong-invalid-input";
  }
  return "unknown";
}

namespace {

struct Scales {
  double m = 0, r = 0;
};

Scales scales_of(const casefile::Case& c) {
  return casefile::in_dimension<double>(c, [&]<class V>() {
    const ConvexPoints<V> a = casefile::to_shape<V>(c.a), b = casefile::to_shape<V>(c.b);
    return Scales{input_scale(a, b), largest_coordinate(a, b)};
  });
}

Finding wrong_verdict(oracle::Verdict truth) {
  switch (truth) {
    case oracle::Verdict::Touching: return Finding::SeparatedWhileTouching;
    case oracle::Verdict::Overlapping: return Finding::SeparatedWhileOverlapping;
    default: return Finding::IntersectingWhileSeparated;
  }
}

}  // namespace

Judged judge(const oracle::Answer& truth, const Result& result, const Info& info, const casefile::Case& c) {
  Judged j;
  const auto fail = [&j](Finding f) {
    j.finding = f;
    j.within_contract = false;
    return j;
  };
  const bool invalid = truth.verdict == oracle::Verdict::InvalidInput;
  switch (result.status) {
    case Status::Unsupported: j.judged = false; return j;
    case Status::Failed: return fail(Finding::Failed);
    case Status::Threw: return fail(Finding::Threw);
    case Status::Crashed: return fail(Finding::Crashed);
    case Status::Hung: return fail(Finding::Hung);
    case Status::InvalidInput: return invalid ? j : fail(Finding::WrongInvalidInput);
    case Status::Answered: break;
  }
  if (invalid) return fail(Finding::WrongInvalidInput);
  if (result.has_non_finite_number()) return fail(Finding::NonFiniteNumber);
  const bool truly_separated = truth.verdict == oracle::Verdict::Separated;
  const Scales s = scales_of(c);
  j.scale = s.m;
  if (result.separated && truly_separated && result.distance)
    j.distance_error = std::fabs(*result.distance - truth.distance);
  if (result.separated != truly_separated) j.finding = result.separated ? wrong_verdict(truth.verdict)
                                                                        : Finding::IntersectingWhileSeparated;
  const double epsilon = info.epsilon().value_or(std::numeric_limits<double>::epsilon());
  if (epsilon == 0) {  // exact: the verdict and, when measured, the squared distance, exactly
    if (j.finding != Finding::None) return fail(j.finding);
    if (result.separated && result.exact_squared_distance && *result.exact_squared_distance != truth.squared_distance)
      return fail(Finding::DistanceOutsideContract);
    return j;
  }
  // An implementation that says separated without measuring is judged on its verdict alone: its distance is taken as
  // the true one. One that says intersecting reports distance 0.
  const double reported = result.separated ? result.distance.value_or(truth.distance) : 0.0;
  switch (judge_floating({result.separated, reported}, truly_separated, truth.distance, epsilon, s.m, s.r, c.dim,
                         info.rounds_input())) {
    case Judgement::Agrees:
    case Judgement::WithinBand: return j;
    case Judgement::Violates: break;
  }
  return fail(j.finding == Finding::None ? Finding::DistanceOutsideContract : j.finding);
}

std::string summary(const Judged& j) {
  if (j.finding == Finding::None) return "yes";
  return std::string(j.disagrees() ? "NO: " : "band: ") + to_string(j.finding);
}

}  // namespace gjkref::impl
