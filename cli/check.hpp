// gjkref check: a differential campaign — implementations against the exact oracle on the property suite's families
// (docs/comparing.md).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "gjkref/implementations.hpp"
#include "gjkref/oracle.hpp"

namespace gjkref::cli {

// The most shards (--jobs) one run starts. Each is a process with a worker process of its own for every out-of-process
// implementation, so a mistyped --jobs 200000 would fill the process table and the machine's memory long before it
// ran a case; 1,024 is above any one machine's cores and far below those limits. Pinned by cli.check-bad-arguments.
inline constexpr int kMaxJobs = 1024;

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
  std::uint64_t memory_limit_mib = impl::kDefaultWorkerMemoryLimitMiB;  // a worker's address space; 0: none
  // CPU seconds one oracle call may take; past it the case is logged as an oracle timeout and the campaign goes on
  // (docs/comparing.md).
  double oracle_time_limit_seconds = oracle::kDefaultOracleTimeLimitSeconds;
  bool progress = true;  // a progress line on stderr
  // --fail-on-refusal[=NAMES]: exit status 5 when an implementation refused any input (GJKREF_REFUSED): any of the
  // campaign's (an empty list), or any of those NAMES chooses (names or groups, as in --impl). A refusal is not judged:
  // an implementation that refused its hard pairs (every touching one, say) passed with exit status 0. nullopt: off.
  std::optional<std::vector<std::string>> fail_on_refusal;
  // --shard K/N: run slice K (0 ≤ K < N) of the campaign alone, for scale-out over machines (docs/scaling.md). The
  // slices are disjoint and together the whole campaign; `gjkref merge` combines their directories.
  std::optional<std::pair<int, int>> slice;
};

// gjkref merge: the slices of one campaign (directories written by check --shard K/N) combined into `out`, with the
// report a single run of the campaign would have written.
struct MergeOptions {
  std::vector<std::string> dirs;
  std::string out;
  // --fail-on-refusal[=NAMES], as CheckOptions::fail_on_refusal, for a campaign run in slices.
  std::optional<std::vector<std::string>> fail_on_refusal;
};

// The family names `--family` accepts.
std::vector<std::string> family_names();

// Runs (or resumes) the campaign in options.out, prints the summary table to `out`, and writes report.md, report.json,
// results.csv and the counterexamples there. Returns the exit status of docs/comparing.md: 0 when every judged answer
// is within its contract, 1 when one is not, 2 on bad options or an output directory it cannot use, 3 when gjkref
// itself failed (an oracle, a shard), 128 + the signal when SIGINT or SIGTERM interrupted it.
int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err);

// Merges the slices into options.out (logs, counterexamples, oracle failures), builds the reports there and prints the
// summary table. Exit status as run_check's: 0, 1 when an answer is outside its contract, 2 when the directories are
// not slices of one campaign (or overlap, or `out` cannot be used), 3 when an oracle failed in a slice or the merge is
// partial (a slice missing or unfinished: cases of the campaign are not in it).
int run_merge(const MergeOptions& options, std::ostream& out, std::ostream& err);

// gjkref list: every implementation (built-in, and those of `plugins`) with its scalar, dimensions, what it answers
// and its version; every family with one line on what it generates. 0, or 2 when a plugin does not load.
int run_list(const std::vector<std::string>& plugins, std::ostream& out, std::ostream& err);

}  // namespace gjkref::cli
