// gjkref check: a differential campaign — implementations against the exact oracle on the property suite's families
// (docs/comparing.md).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gjkref/implementations.hpp"

namespace gjkref::cli {

struct CheckOptions {
  std::vector<std::string> implementations;  // names or groups; empty: every built-in one (and every plugin's)
  std::vector<std::string> plugins;
  std::vector<std::string> families;  // empty: all
  std::vector<int> dims;              // empty: 2 and 3
  int cases = 2000;                   // per family and dimension
  std::optional<std::uint64_t> seed;  // none: a random one, printed
  int jobs = 2;
  std::string out = "gjkref-check";
  double time_limit_seconds = impl::kDefaultQueryTimeLimitSeconds;
  bool progress = true;  // a progress line on stderr
};

// The family names `--family` accepts.
std::vector<std::string> family_names();

// Runs (or resumes) the campaign in options.out, prints the summary table to `out`, and writes report.md, report.json,
// results.csv and the counterexamples there. Returns 0 when the campaign ran (whatever it found), 2 on bad options or
// an output directory holding another campaign.
int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err);

}  // namespace gjkref::cli
