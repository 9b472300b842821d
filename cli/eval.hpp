// gjkref eval: each case of each file through the exact oracle and each implementation, side by side.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "gjkref/implementations.hpp"
#include "gjkref/oracle.hpp"

namespace gjkref::cli {

struct EvalOptions {
  std::vector<std::string> files;
  std::vector<std::string> implementations;  // names or groups ("reference", "fcl"); empty: all
  std::vector<std::string> plugins;          // plugin libraries to load beside the built-in implementations
  bool json = false;
  double time_limit_seconds = impl::kDefaultQueryTimeLimitSeconds;  // per query in a worker, as check's --time-limit
  std::uint64_t memory_limit_mib = impl::kDefaultWorkerMemoryLimitMiB;  // a worker's address space, as check's
  // CPU seconds one oracle call may take ; past it the case's result
  // is oracle-timeout and eval goes on with the next case.
  double oracle_time_limit_seconds = oracle::kDefaultOracleTimeLimitSeconds;
};

// Each case is evaluated in a process of its own, forked, and its result written to `out` as soon as it is done.
// Returns the exit status: 0 when every case was read and every chosen implementation's answer agrees with the oracle
// under docs/contract.md; 1 when some answer disagrees; 2 when a file, a plugin or an implementation name was bad
// (the reason is printed to `err`); 3 when the oracle failed or a case's process ended without a result.
int run_eval(const EvalOptions& options, std::ostream& out, std::ostream& err);

// A case's warm start as text: "pairs (0, 1) (2, 0)" or "direction (x, y, z)" (6 significant digits). The case must
// have one.
std::string warm_start_text(const casefile::Case& c);

}  // namespace gjkref::cli
