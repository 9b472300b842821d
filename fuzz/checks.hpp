// fuzz/checks.hpp — one case through every mode of the reference, judged against the exact oracle: the floating modes
// under docs/contract.md (by the fuzz targets' own rules, and as `gjkref check` judges them: depths and normals too),
// the exact and certified modes held to its exact answer; and the exact penetration-depth oracle's two methods on it.
// Used by the reference fuzz targets (docs/fuzzing.md): a violation is printed with the case and every answer, saved
// as a gjkref-case/1 file, and ends the process, so libFuzzer records the input.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "gjkref/case_shapes.hpp"
#include "gjkref/certified.hpp"
#include "gjkref/certified_penetration.hpp"
#include "gjkref/casefile.hpp"
#include "gjkref/exact.hpp"
#include "gjkref/gjkref.hpp"
#include "gjkref/implementations.hpp"
#include "gjkref/judge.hpp"
#include "gjkref/oracle.hpp"

namespace gjkref::fuzz {

using casefile::Case;

struct Report {
  std::vector<std::string> violations;
  std::string answers;  // every mode's answer and the oracle's, one per line
};

// The case as scalar T holds it: each coordinate converted (rounded, or ±∞ beyond T's range).
template <class T>
Case as_held_by(Case c) {
  for (auto* s : {&c.a, &c.b})
    for (auto& p : s->points)
      for (double& x : p) x = static_cast<double>(ScalarCast<T, double>::apply(x));  // defined beyond T's range
  return c;
}

// The input error a mode must name for a case that is invalid as that mode holds it; None when it is valid.
inline InputError input_error_of(const Case& held) {
  if (held.a.points.empty()) return InputError::EmptyA;
  if (held.b.points.empty()) return InputError::EmptyB;
  for (const auto* s : {&held.a, &held.b})
    for (const auto& p : s->points)
      for (double x : p)
        if (!std::isfinite(x)) return s == &held.a ? InputError::NonFiniteA : InputError::NonFiniteB;
  return InputError::None;
}

// Can some coordinate of some a − b leave T's range? (Then InvalidInput DifferenceOverflow is a right answer.)
template <class T>
bool difference_may_overflow(const Case& c) {
  return gjkref::difference_may_overflow<T>(c.a.points, c.b.points, c.dim);
}

template <class T>
const char* scalar_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, long double>) return "long double";
  else return "exact";
}

// intersect()'s verdict judged as `gjkref check` judges a boolean query (impl::judge, docs/contract.md): the band is
// on the signed distance, d apart and −PD overlapping, so "separated" on an overlap deeper than the band is outside the
// contract — which the distance alone (0 for every pair that meets) cannot tell.
template <class T>
std::optional<std::string> boolean_verdict_outside_contract(const impl::Truth& truth, Status boolean_result) {
  impl::Info info;
  info.name = std::string("intersect-") + scalar_name<T>();
  info.scalar = scalar_name<T>();
  info.in_2d = info.in_3d = true;
  info.capabilities = impl::kDecides;
  impl::Result r;
  r.status = impl::Status::Answered;
  r.separated = boolean_result == Status::Separated;
  try {
    const impl::Judged j = impl::judge(truth, r, info);
    if (!j.disagrees()) return std::nullopt;
    return std::string(impl::to_string(j.finding));
  } catch (const std::logic_error& e) {  // the depth oracle failed (a violation of its own, reported by the caller)
    return std::string("not judged: the penetration oracle failed: ") + e.what();
  }
}

// What a floating mode answered on a case: distance() and intersect(), each with its case's warm start if it has one.
struct FloatingAnswers {
  Status status = Status::InvalidInput;  // distance()
  StopRule rule{};
  InputError error = InputError::None;
  double distance = 0;
  Status boolean_status = Status::InvalidInput;  // intersect()
  InputError boolean_error = InputError::None;
};

template <class T>
FloatingAnswers floating_answers(const Case& c) {
  return casefile::in_dimension<T>(c, [&]<class V>() {
    const auto a = casefile::to_shape<V>(c.a), b = casefile::to_shape<V>(c.b);
    const Options<V> options = casefile::to_options<V>(c);  // the case's warm start, if any: the cold answer still
    const auto r = distance(a, b, options), i = intersect(a, b, options);
    return FloatingAnswers{r.status, r.stop_rule, r.input_error, static_cast<double>(r.distance()), i.status,
                           i.input_error};
  });
}

// What is wrong with mode T's answers on the case, by docs/contract.md. `judged_truth`: the oracle's answer on finite
// input (nullptr otherwise), with the penetration depth on demand.
template <class T>
std::vector<std::string> floating_violations(const Case& c, const impl::Truth* judged_truth, const FloatingAnswers& x) {
  std::vector<std::string> violations;
  const oracle::Answer* truth = judged_truth ? &judged_truth->answer() : nullptr;
  const InputError expected = input_error_of(as_held_by<T>(c));
  if (expected != InputError::None) {
    if (x.status != Status::InvalidInput || x.error != expected)
      violations.push_back(std::string("distance(): expected invalid input (") + to_string(expected) + ")");
    if (x.boolean_status != Status::InvalidInput || x.boolean_error != expected)
      violations.push_back(std::string("intersect(): expected invalid input (") + to_string(expected) + ")");
    return violations;
  }
  // Valid input: each query ends with an answer, or, where a difference of two points may leave T's range, with
  // InvalidInput DifferenceOverflow (docs/contract.md) — at any scale, so before the range checks below.
  const auto answered = [&](Status s, InputError e, const char* query) {
    if (s == Status::InvalidInput) {
      if (e != InputError::DifferenceOverflow || !difference_may_overflow<T>(c))
        violations.push_back(std::string(query) + ": invalid input (" + to_string(e) + ") on valid input");
      return false;
    }
    if (s != Status::Separated && s != Status::Intersecting) {
      violations.push_back(std::string(query) + ": no answer within the iteration cap (" + to_string(s) + ")");
      return false;
    }
    return true;
  };
  const bool boolean_answered = answered(x.boolean_status, x.boolean_error, "intersect()");
  if (!answered(x.status, x.error, "distance()") || truth == nullptr) return violations;
  // The bounds are claimed and tested where the input's rounding is relative (coordinates 0 or within 2^±100:
  // docs/contract.md); outside, the mode must still terminate with a status, which is checked above.
  if (!float_rounding_is_relative(c.a.points) || !float_rounding_is_relative(c.b.points)) return violations;
  if (difference_may_overflow<T>(c)) return violations;
  const auto va = casefile::to_shape<Vec3<double>>(c.a), vb = casefile::to_shape<Vec3<double>>(c.b);
  const double eps = static_cast<double>(ScalarTraits<T>::epsilon());
  const double m = input_scale(va, vb), r = largest_coordinate(va, vb);
  const bool rounded = rounds_double_input<T>;
  const bool truly_separated = truth->verdict == oracle::Verdict::Separated;
  if (judge_floating({x.status == Status::Separated, x.distance}, truly_separated, truth->distance, eps, m, r, c.dim,
                     rounded) == Judgement::Violates)
    violations.push_back("distance() outside docs/contract.md");
  if (!boolean_answered) return violations;
  if (const auto finding = boolean_verdict_outside_contract<T>(*judged_truth, x.boolean_status))
    violations.push_back("intersect()'s verdict is wrong outside the verdict band (" + *finding + ")");
  return violations;
}

template <class T>
void check_floating(const Case& c, const impl::Truth* judged_truth, Report& report) {
  const FloatingAnswers x = floating_answers<T>(c);
  std::ostringstream line;
  line << scalar_name<T>() << ": " << to_string(x.status) << " ("
       << (x.status == Status::InvalidInput ? to_string(x.error) : to_string(x.rule)) << "), distance " << x.distance
       << "; intersect: " << to_string(x.boolean_status)
       << (x.boolean_status == Status::InvalidInput ? std::string(" (") + to_string(x.boolean_error) + ")" : "")
       << "\n";
  report.answers += line.str();
  for (const std::string& v : floating_violations<T>(c, judged_truth, x))
    report.violations.push_back(scalar_name<T>() + (": " + v));
}

// The reference's floating modes as `gjkref check` runs them (impl/, in process): float, double and long double.
inline const std::vector<std::unique_ptr<impl::Implementation>>& floating_reference() {
  static const auto modes = [] {
    auto all = impl::reference_implementations();
    std::erase_if(all, [](const auto& i) {
      const std::string& s = i->info().scalar;
      return s != "float" && s != "double" && s != "long double";
    });
    return all;
  }();
  return modes;
}

// Each floating mode judged as `gjkref check` judges it (impl::judge, docs/contract.md): its verdict and every number
// it reports — the distance and witnesses, and its EPA's depth and normal, which check_floating does not see.
inline void check_floating_as_judged(const impl::Truth& truth, Report& report) {
  for (const auto& mode : floating_reference()) {
    const impl::Result r = mode->run(truth.the_case());
    const impl::Judged j = impl::judge(truth, r, mode->info());
    report.answers += mode->info().name + " (as judged): " + impl::summary(j) +
                      (r.detail.empty() ? "" : " (" + r.detail + ")") + "\n";
    if (j.disagrees())
      report.violations.push_back(mode->info().name + ": " + impl::to_string(j.finding) +
                                  ", outside docs/contract.md as gjkref check judges it");
  }
}

inline Report check_reference(const Case& c) {
  Report report;
  const bool finite = input_error_of(c) == InputError::None;
  std::optional<oracle::Answer> truth;
  std::optional<impl::Truth> judged_truth;  // the depth computed once, for the checks below and the judge's
  if (finite) {
    truth = oracle::fast_oracle(c);
    judged_truth.emplace(c, *truth);
    std::ostringstream line;
    line << "oracle: " << oracle::to_string(truth->verdict) << ", d^2 = " << truth->squared_distance.get_str()
         << ", d = " << truth->distance << "\n";
    report.answers += line.str();
    const auto exact = casefile::in_dimension<Exact>(c, [&]<class V>() {
      const auto r = distance(casefile::to_shape<V>(c.a), casefile::to_shape<V>(c.b), casefile::to_options<V>(c));
      return std::pair{r.status, r.squared_distance()};
    });
    report.answers += std::string("exact: ") + to_string(exact.first) + ", d^2 = " + exact.second.get_str() + "\n";
    const Status expected = truth->verdict == oracle::Verdict::Separated ? Status::Separated : Status::Intersecting;
    if (exact.first != expected || exact.second != truth->squared_distance)
      report.violations.push_back("exact: not the oracle's answer");
    // The certified mode: the oracle's class, squared distance, correctly rounded distance and closest vector.
    const bool certified_right = casefile::in_dimension<double>(c, [&]<class V>() {
      const auto a = casefile::to_shape<V>(c.a), b = casefile::to_shape<V>(c.b);
      const auto r = certified_distance(a, b, casefile::to_options<V>(c), CertifiedOutput::WithExact);
      // Without its exact part (the invalid-input answer) or its witnesses, the answer is not the oracle's: a
      // violation to print, not a null pointer to follow.
      if (!r.exact || !r.witness_a || !r.witness_b) {
        report.answers += std::string("certified: ") + to_string(r.contact_class) + " (" + to_string(r.path) +
                          "), without its exact answer or witnesses\n";
        return false;
      }
      report.answers += std::string("certified: ") + to_string(r.contact_class) + " (" + to_string(r.path) +
                        "), d^2 = " + r.exact->squared_distance.get_str() + "\n";
      bool same = std::string(to_string(r.contact_class)) == oracle::to_string(truth->verdict) &&
                  r.exact->squared_distance == truth->squared_distance && r.distance == truth->distance;
      for (int i = 0; i < V::dimension; ++i) {
        same = same && r.exact->witness_a[i] - r.exact->witness_b[i] == truth->witness_a[i] - truth->witness_b[i];
        same = same && (*r.witness_a)[i] == round_to_double(r.exact->witness_a[i]) &&
               (*r.witness_b)[i] == round_to_double(r.exact->witness_b[i]);
      }
      return same;
    });
    if (!certified_right) report.violations.push_back("certified: not the oracle's answer");
    // The penetration-depth oracle on every pair that reaches depth: its certificate checks (penetration_oracle
    // throws CertificateError otherwise) and its two methods agree exactly (DisagreementError).
    if (truth->verdict == oracle::Verdict::Overlapping || truth->verdict == oracle::Verdict::Touching) {
      try {
        const oracle::Penetration& p = judged_truth->penetration();
        oracle::cross_check_penetration(c, *truth, p);
        report.answers += "penetration depth: PD^2 = " + p.squared_depth.get_str() + ", " +
                          std::to_string(p.optimal.size()) + " optimal facets\n";
        // The reference's EPA, exact, through the certified mode (gjkref/epa.hpp): the oracle's class, PD² and
        // correctly rounded PD.
        const bool depth_right = casefile::in_dimension<double>(c, [&]<class V>() {
          const auto r = certified_penetration(casefile::to_shape<V>(c.a), casefile::to_shape<V>(c.b), true);
          report.answers += std::string("EPA: ") + to_string(r.status) + ", PD^2 = " + (r.exact ? r.exact->squared_depth.get_str() : std::string("-")) +
                            "\n";
          const bool touching = truth->verdict == oracle::Verdict::Touching;
          return r.status == (touching ? PenetrationStatus::Touching : PenetrationStatus::Penetrating) &&
                 r.exact && r.exact->squared_depth == p.squared_depth && r.depth == p.depth;
        });
        if (!depth_right) report.violations.push_back("EPA: not the oracle's penetration depth");
      } catch (const std::logic_error& e) {
        report.violations.push_back(std::string("penetration oracle: ") + e.what());
      }
    } else if (truth->verdict == oracle::Verdict::Separated) {
      // Separated shapes have no depth: the certified EPA passes GJK's verdict through.
      const bool passed_through = casefile::in_dimension<double>(c, [&]<class V>() {
        const auto r = certified_penetration(casefile::to_shape<V>(c.a), casefile::to_shape<V>(c.b));
        report.answers += std::string("EPA: ") + to_string(r.status) + "\n";
        return r.status == PenetrationStatus::Separated;
      });
      if (!passed_through) report.violations.push_back("EPA: not separated where the oracle separates the shapes");
    }
    if (report.violations.empty()) check_floating_as_judged(*judged_truth, report);
  } else if (oracle::fast_oracle(c).verdict != oracle::Verdict::InvalidInput) {
    report.violations.push_back("oracle: invalid input not reported");
  }
  const impl::Truth* t = judged_truth ? &*judged_truth : nullptr;
  check_floating<float>(c, t, report);
  check_floating<double>(c, t, report);
  check_floating<long double>(c, t, report);
  return report;
}

// On a violation: the case and every answer to stderr, the case to $GJKREF_FAILURE_DIR/fuzz-violation-PID.json (when
// set), then abort() so that libFuzzer keeps the input.
inline void abort_on_violation(const Case& c, const Report& report) {
  if (report.violations.empty()) return;
  std::fprintf(stderr, "gjkref fuzz: contract violation\n");
  for (const std::string& v : report.violations) std::fprintf(stderr, "  %s\n", v.c_str());
  std::fprintf(stderr, "%s%s\n", report.answers.c_str(), casefile::write(c).c_str());
  if (const char* dir = std::getenv("GJKREF_FAILURE_DIR")) {
    // One file per violation: under libFuzzer's -fork, many processes find violations in one campaign.
    std::ofstream out(std::string(dir) + "/fuzz-violation-" + std::to_string(::getpid()) + ".json");
    out << casefile::write(c);
  }
  std::abort();
}

}  // namespace gjkref::fuzz
