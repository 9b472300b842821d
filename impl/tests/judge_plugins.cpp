// Plugins that are wrong on purpose, and one that is right, for the judge's tests (impl/tests/judge-plugins.sh,
// docs/comparing.md): a judge nobody can fool must report each wrong one and pass the right one.
//   wrapped-reference:        the double reference unchanged (distance, witnesses): clean.
//   wrapped-reference-abi1:   the same, declared with ABI version 1: still loads, still clean.
//   always-separated:         "separated" for every pair (decides only).
//   separated-zero-distance:  the reference, but "separated" with distance 0 for every intersecting pair.
//   float-always-separated:   "separated" for every pair, declared float (the widest band gjkref knows).
//   shifted-witnesses:        the reference with both witnesses moved by the same vector (so a − b is unchanged).
//   depth-off-ten-percent:    intersecting pairs answered with 1.1 times a brute-force penetration depth.
//   separated-with-depth:     the reference, with a depth of 1 and a zero normal added to every "separated" (numbers an
//                             answer reports are judged whatever its verdict).
//   silent-witnesses:         the reference, declaring witnesses but reporting none (declared numbers are required).
//   untouched-answer:         returns without writing anything (ABI 3): every answer recorded as failed, none judged
//                             right, however many pairs are separated.
//   untouched-answer-abi2:    the same built for ABI version 2, whose zeroed answer reads as "separated": judged as
//                             that, so wrong on the overlapping pairs only (why version 3 changed the answer's start).
//   refuses-everything:       refuses every pair (GJKREF_REFUSED): no answer is ever judged, so a gate on it must fail
//                             (exit status 4), not pass having tested nothing.
//   refuses-intersecting:     the reference, refusing every pair it finds intersecting: its separated answers are
//                             right and judged, its hard pairs hidden; a gate with --fail-on-refusal must fail (5).
//   slow-reference:           the wrapped reference after 1 ms: campaigns that take a known least time, so that the
//                             tests that kill or interrupt one mid-run (cli/tests/check-resume.sh, check-interrupt.sh)
//                             never see it finish first, however fast or loaded the machine. Clean, like the wrapped
//                             reference, so it adds no counterexample to shrink.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <thread>
#include <vector>

#include "../adapters/adapter.hpp"
#include "gjkref/gjkref.hpp"
#include "gjkref/plugin.h"

namespace {

using V3 = gjkref::Vec3<double>;
using P3 = std::array<double, 3>;

using gjkref::adapters::points_of;  // the query's points, as every built-in adapter reads them

// The double reference's answer (a 2D query is answered in 3D with z = 0: the same distance).
gjkref::Result<V3> reference(const gjkref_query& q) {
  std::vector<V3> a, b;
  for (const P3& p : points_of(q, 0)) a.push_back({p[0], p[1], p[2]});
  for (const P3& p : points_of(q, 1)) b.push_back({p[0], p[1], p[2]});
  return gjkref::distance(gjkref::ConvexPoints<V3>(a), gjkref::ConvexPoints<V3>(b));
}

void answer_like_the_reference(const gjkref_query& q, gjkref_answer* answer, double shift) {
  const auto r = reference(q);
  if (r.status != gjkref::Status::Separated && r.status != gjkref::Status::Intersecting) {
    answer->outcome = GJKREF_FAILED;
    return;
  }
  answer->outcome = r.status == gjkref::Status::Separated ? GJKREF_SEPARATED : GJKREF_INTERSECTING;
  if (answer->outcome == GJKREF_SEPARATED) {
    answer->has_distance = 1;
    answer->distance = r.distance();
  }
  answer->has_witnesses = 1;
  for (int k = 0; k < 3; ++k) {
    answer->witness_a[k] = r.witness_a[k] + shift;
    answer->witness_b[k] = r.witness_b[k] + shift;
  }
}

void wrapped(const gjkref_query* q, gjkref_answer* answer) { answer_like_the_reference(*q, answer, 0); }

void slow_wrapped(const gjkref_query* q, gjkref_answer* answer) {
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  wrapped(q, answer);
}

void always_separated(const gjkref_query*, gjkref_answer* answer) { answer->outcome = GJKREF_SEPARATED; }

void untouched(const gjkref_query*, gjkref_answer*) {}

void refuse(const gjkref_query*, gjkref_answer* answer) {
  answer->outcome = GJKREF_REFUSED;
  std::snprintf(answer->detail, sizeof answer->detail, "%s", "refuses every input (a test plugin)");
}



void refuse_intersecting(const gjkref_query* q, gjkref_answer* answer) {
  answer_like_the_reference(*q, answer, 0);
  if (answer->outcome == GJKREF_SEPARATED) return;
  *answer = gjkref_answer{};
  answer->outcome = GJKREF_REFUSED;
  std::snprintf(answer->detail, sizeof answer->detail, "%s", "refuses what it finds intersecting (a test plugin)");
}

void separated_with_depth(const gjkref_query* q, gjkref_answer* answer) {
  answer_like_the_reference(*q, answer, 0);
  if (answer->outcome != GJKREF_SEPARATED) return;
  answer->has_penetration = 1;
  answer->penetration_depth = 1;
  answer->has_normal = 1;  // normal stays (0, 0, 0)
}

void silent_witnesses(const gjkref_query* q, gjkref_answer* answer) {
  answer_like_the_reference(*q, answer, 0);
  answer->has_witnesses = 0;
}

void separated_zero_distance(const gjkref_query* q, gjkref_answer* answer) {
  const auto r = reference(*q);
  answer->outcome = GJKREF_SEPARATED;
  answer->has_distance = 1;
  answer->distance = r.status == gjkref::Status::Separated ? r.distance() : 0.0;
}

void shifted_witnesses(const gjkref_query* q, gjkref_answer* answer) {
  // 2^−10 of the shapes' largest coordinate (at least 2^−10): far beyond any contract's witness bound.
  double largest = 1;
  for (int side = 0; side < 2; ++side)
    for (const P3& p : points_of(*q, side))
      for (double x : p) largest = std::max(largest, std::fabs(x));
  answer_like_the_reference(*q, answer, std::ldexp(largest, -10));
}

// The least distance from the origin to a supporting plane of D = {a − b} spanned by its points (pairs in 2D, triples
// in 3D), with a relative tolerance: brute force, for small shapes only (more than 64 differences: failed).
void depth_off(const gjkref_query* q, gjkref_answer* answer) {
  const auto r = reference(*q);
  if (r.status == gjkref::Status::Separated) {
    answer->outcome = GJKREF_SEPARATED;
    return;
  }
  std::vector<P3> d;
  for (const P3& a : points_of(*q, 0))
    for (const P3& b : points_of(*q, 1)) d.push_back({a[0] - b[0], a[1] - b[1], a[2] - b[2]});
  answer->outcome = GJKREF_INTERSECTING;
  if (d.size() > 64) return;
  double scale = 0;
  for (const P3& p : d)
    for (double x : p) scale = std::max(scale, std::fabs(x));
  double best = std::numeric_limits<double>::infinity();
  const auto consider = [&](const P3& n, const P3& on) {
    const double length = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (length <= 1e-12 * scale * scale) return;
    double offset = n[0] * on[0] + n[1] * on[1] + n[2] * on[2];
    double sign = 1;
    const double tolerance = 1e-9 * length * scale;
    bool ahead = false, behind = false;
    for (const P3& x : d) {
      const double s = n[0] * x[0] + n[1] * x[1] + n[2] * x[2] - offset;
      ahead |= s > tolerance, behind |= s < -tolerance;
    }
    if (ahead && behind) return;
    if (ahead) sign = -1;
    best = std::min(best, std::max(0.0, sign * offset) / length);
  };
  const std::size_t n = d.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      const P3 e{d[j][0] - d[i][0], d[j][1] - d[i][1], d[j][2] - d[i][2]};
      if (q->dim == 2) {
        consider({e[1], -e[0], 0}, d[i]);
        continue;
      }
      for (std::size_t k = j + 1; k < n; ++k) {
        const P3 f{d[k][0] - d[i][0], d[k][1] - d[i][1], d[k][2] - d[i][2]};
        consider({e[1] * f[2] - e[2] * f[1], e[2] * f[0] - e[0] * f[2], e[0] * f[1] - e[1] * f[0]}, d[i]);
      }
    }
  if (!std::isfinite(best)) return;
  answer->has_penetration = 1;
  answer->penetration_depth = 1.1 * best;
}

constexpr unsigned kMeasures = GJKREF_CAN_DECIDE | GJKREF_CAN_MEASURE | GJKREF_CAN_WITNESS;
constexpr unsigned kBoth = GJKREF_2D | GJKREF_3D;
const gjkref_implementation kWrapped{GJKREF_PLUGIN_ABI_VERSION, "wrapped-reference", "test", "double", kBoth,
                                     kMeasures, wrapped};
const gjkref_implementation kWrappedAbi1{1, "wrapped-reference-abi1", "test", "double", kBoth, kMeasures, wrapped};
const gjkref_implementation kAlwaysSeparated{GJKREF_PLUGIN_ABI_VERSION, "always-separated", "test", "double", kBoth,
                                             GJKREF_CAN_DECIDE, always_separated};
const gjkref_implementation kZeroDistance{GJKREF_PLUGIN_ABI_VERSION, "separated-zero-distance", "test", "double", kBoth,
                                          GJKREF_CAN_DECIDE | GJKREF_CAN_MEASURE, separated_zero_distance};
const gjkref_implementation kFloatSeparated{GJKREF_PLUGIN_ABI_VERSION, "float-always-separated", "test", "float", kBoth,
                                            GJKREF_CAN_DECIDE, always_separated};
const gjkref_implementation kShifted{GJKREF_PLUGIN_ABI_VERSION, "shifted-witnesses", "test", "double", kBoth, kMeasures,
                                     shifted_witnesses};
const gjkref_implementation kDepthOff{GJKREF_PLUGIN_ABI_VERSION, "depth-off-ten-percent", "test", "double", kBoth,
                                      GJKREF_CAN_DECIDE | GJKREF_CAN_PENETRATE, depth_off};
const gjkref_implementation kSlow{GJKREF_PLUGIN_ABI_VERSION, "slow-reference", "test", "double", kBoth, kMeasures,
                                  slow_wrapped};
const gjkref_implementation kSeparatedWithDepth{GJKREF_PLUGIN_ABI_VERSION, "separated-with-depth", "test", "double", kBoth,
                                                kMeasures | GJKREF_CAN_PENETRATE | GJKREF_CAN_NORMAL, separated_with_depth};
const gjkref_implementation kSilentWitnesses{GJKREF_PLUGIN_ABI_VERSION, "silent-witnesses", "test", "double", kBoth,
                                             kMeasures, silent_witnesses};
const gjkref_implementation kUntouched{GJKREF_PLUGIN_ABI_VERSION, "untouched-answer", "test", "double", kBoth,
                                       GJKREF_CAN_DECIDE, untouched};
const gjkref_implementation kUntouchedAbi2{2, "untouched-answer-abi2", "test", "double", kBoth, GJKREF_CAN_DECIDE,
                                           untouched};
const gjkref_implementation kRefuses{GJKREF_PLUGIN_ABI_VERSION, "refuses-everything", "test", "double", kBoth,
                                     GJKREF_CAN_DECIDE, refuse};
const gjkref_implementation kRefusesIntersecting{GJKREF_PLUGIN_ABI_VERSION, "refuses-intersecting", "test", "double",
                                                 kBoth, kMeasures, refuse_intersecting};
const gjkref_implementation* const kAll[] = {&kWrapped,        &kWrappedAbi1, &kAlwaysSeparated,    &kZeroDistance,
                                             &kFloatSeparated, &kShifted,     &kDepthOff,           &kSlow,
                                             &kSeparatedWithDepth, &kSilentWitnesses, &kUntouched, &kUntouchedAbi2,
                                             &kRefuses,        &kRefusesIntersecting};

}  // namespace

extern "C" const gjkref_implementation* const* gjkref_plugin_implementations(size_t* count) {
  *count = sizeof kAll / sizeof kAll[0];
  return kAll;
}
