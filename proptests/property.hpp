// GJKREF_PROPERTY: a RapidCheck property as a GoogleTest test, like RC_GTEST_PROP, that also leaves a replayable
// failure behind (docs/properties.md):
// - the shrunk counterexample as a gjkref-case/1 file, $GJKREF_FAILURE_DIR/<Suite>.<Name>.json (default directory
//   gjkref-failures/): the property body runs under `saving_case_on_failure`, which rewrites the file on every failing
//   run; RapidCheck runs the minimal case last, so the file ends up holding it;
// - the RC_PARAMS string that reproduces the failure, in <Suite>.<Name>.rc-params and in the failure message.
// Cases print as gjkref-case/1 with hex-floats (showValue below), not with RapidCheck's 6 digits.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <unordered_map>

#include "gjkref/casefile.hpp"
#include "gjkref/gjk.hpp"

namespace rc::detail {
// Defined in librapidcheck (its reproduce-string encoder); not declared in the installed headers.
std::string reproduceMapToString(const std::unordered_map<std::string, Reproduce>& reproduceMap);
}  // namespace rc::detail

namespace gjkref::casefile {
// RapidCheck finds this by argument-dependent lookup.
inline void showValue(const Case& c, std::ostream& os) { os << write(c); }
}  // namespace gjkref::casefile

namespace gjkref {
// A failed RC_ASSERT(x.status == y.status) shows both sides; without these they print as "<???>".
inline void showValue(Status s, std::ostream& os) { os << to_string(s); }
inline void showValue(StopRule r, std::ostream& os) { os << to_string(r); }
}  // namespace gjkref

namespace gjkref::proptests {

inline std::filesystem::path failure_dir() {
  const char* dir = std::getenv("GJKREF_FAILURE_DIR");
  return dir ? dir : "gjkref-failures";
}

inline std::string current_test_id() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(info->test_suite_name()) + "." + info->name();
}

// Runs `body`; if it fails (an RC_ASSERT, or any exception), writes `c` to the current test's case file first.
template <class Body>
void saving_case_on_failure(const casefile::Case& c, Body&& body) {
  try {
    body();
  } catch (...) {
    std::error_code ignored;
    std::filesystem::create_directories(failure_dir(), ignored);
    std::ofstream(failure_dir() / (current_test_id() + ".json")) << casefile::write(c);
    throw;
  }
}

template <class Testable>
void check_property(Testable&& testable) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  const auto result = rc::detail::checkTestable(std::forward<Testable>(testable), metadata);
  if (result.template is<rc::detail::SuccessResult>()) {
    const auto success = result.template get<rc::detail::SuccessResult>();
    std::cout << "RC_PARAMS seed: " << rc::detail::configuration().testParams.seed << "\n";
    if (!success.distribution.empty()) {
      rc::detail::printResultMessage(result, std::cout);
      std::cout << std::endl;
    }
    return;
  }
  std::ostringstream message;
  rc::detail::printResultMessage(result, message);
  if (result.template is<rc::detail::FailureResult>()) {
    const auto failure = result.template get<rc::detail::FailureResult>();
    const std::string params = "reproduce=" + rc::detail::reproduceMapToString({{metadata.id, failure.reproduce}});
    std::error_code ignored;
    std::filesystem::create_directories(failure_dir(), ignored);
    const std::filesystem::path case_file = failure_dir() / (current_test_id() + ".json");
    const std::filesystem::path params_file = failure_dir() / (current_test_id() + ".rc-params");
    std::ofstream(params_file) << params << "\n";
    message << "\nshrunk counterexample: " << std::filesystem::absolute(case_file).string()
            << " (replay: gjkref eval FILE)\nreproduce: RC_PARAMS=\"" << params << "\" " << "<this test binary> "
            << "--gtest_filter=" << current_test_id() << "\n";
  }
  FAIL() << message.str();
}

}  // namespace gjkref::proptests

// Defines a property as a GoogleTest test Suite.Name; ArgList as in RC_GTEST_PROP.
#define GJKREF_PROPERTY(Suite, Name, ArgList)                                            \
  void gjkref_property_##Suite##_##Name ArgList;                                         \
  TEST(Suite, Name) { ::gjkref::proptests::check_property(&gjkref_property_##Suite##_##Name); } \
  void gjkref_property_##Suite##_##Name ArgList
