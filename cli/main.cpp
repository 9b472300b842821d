// gjkref — the command-line tool: demo, eval, check, render (docs/comparing.md).
#include <CLI/CLI.hpp>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <new>
#include <limits>
#include <optional>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#include "demo.hpp"
#include "source_id.hpp"
#ifdef GJKREF_HAVE_ORACLE
#include "check.hpp"
#include "eval.hpp"
#include "gjkref/plugin.h"
#include "render.hpp"
#endif

int main(int argc, char** argv) {
  // A reader that stops reading (gjkref demo | head -1) makes a write fail with EPIPE, which `written` below takes as
  // the reader's wish; without this the signal killed gjkref (exit 141) where no worker had been started to ignore it.
  std::signal(SIGPIPE, SIG_IGN);
  CLI::App app{"gjkref: the correctness baseline for GJK"};
  std::string version = std::string("gjkref ") + GJKREF_VERSION;
#ifdef GJKREF_HAVE_ORACLE
  version += " (plugin ABI " + std::to_string(GJKREF_PLUGIN_ABI_VERSION) + ", accepting from " +
             std::to_string(GJKREF_PLUGIN_ABI_OLDEST) + ")";
#endif
  version += std::string(", source ") + gjkref::cli::source_id();  // cli/source_id.cmake
  app.set_version_flag("--version", version);
  app.require_subcommand(1);
  CLI::App* demo = app.add_subcommand("demo", "The reference on edge cases in every scalar mode, certificates checked");
#ifdef GJKREF_HAVE_ORACLE
  // A time limit is a number of seconds from 0.001 to 10^6 (NaN, infinities and 0 refused: CLI11's own range checks
  // let NaN through).
  const CLI::Validator time_limit(
      [](const std::string& text) {
        char* end = nullptr;
        const double x = std::strtod(text.c_str(), &end);
        return end != text.c_str() && *end == '\0' && std::isfinite(x) && x >= 1e-3 && x <= 1e6
                   ? std::string()
                   : "a time limit is a number of seconds from 0.001 to 1000000";
      },
      "SECONDS");
  // Digits only, of a number from 0 to `largest`: a negative number would otherwise wrap around, and one past the
  // largest (CLI11 clamps it to the type's maximum) would run silently with another value than the one asked for.
  const auto whole_number = [](std::uint64_t largest, std::string refusal, std::string name) {
    return CLI::Validator(
        [largest, refusal](const std::string& text) {
          std::uint64_t value = 0;
          const char* end = text.data() + text.size();
          const auto [stop, error] = std::from_chars(text.data(), end, value);
          const bool digits_only = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
          return digits_only && error == std::errc() && stop == end && value <= largest ? std::string() : refusal;
        },
        name);
  };
  const CLI::Validator decimal_digits = whole_number(std::numeric_limits<std::uint64_t>::max(),
                                                     "a seed is a whole number from 0 to 18446744073709551615", "UINT64");
  // At most 12 digits of MiB, as before: far above any machine's address space, far below overflow of MiB << 20.
  const CLI::Validator whole_mib =
      whole_number(999'999'999'999, "a memory limit is a whole number of MiB (0: none)", "MIB");
  gjkref::cli::EvalOptions eval_options;
  std::string impl_list;
  CLI::App* eval =
      app.add_subcommand("eval", "Evaluate gjkref-case/1 files: the exact oracle beside each implementation");
  eval->add_option("files", eval_options.files, "case files")->required();
  eval->add_option("--impl", impl_list,
                   "comma-separated implementations or groups (reference, libccd, fcl, bullet, box2d, chipmunk, boost); default: all");
  eval->add_option("--plugin", eval_options.plugins, "a plugin library (gjkref/plugin.h) to run as well; repeatable")
      ->allow_extra_args(false);
  eval->add_flag("--json", eval_options.json, "one JSON object per case per line");
  eval->add_option("--time-limit", eval_options.time_limit_seconds, "seconds one query may take before it is a hang")
      ->capture_default_str()
      ->check(time_limit);
  eval->add_option("--oracle-time-limit", eval_options.oracle_time_limit_seconds,
                   "CPU seconds one oracle call may take; past it the case's result is oracle-timeout")
      ->capture_default_str()
      ->check(time_limit);
  eval->add_option("--memory-limit", eval_options.memory_limit_mib,
                   "MiB of address space each worker (plugin) may use; 0: no limit")
      ->capture_default_str()
      ->check(whole_mib);
  gjkref::cli::CheckOptions check_options;
  std::string check_impls, check_families;
  std::uint64_t check_seed = 0;
  CLI::App* check = app.add_subcommand(
      "check", "A differential campaign: every implementation against the exact oracle on generated degenerate cases");
  check->add_option("--impl", check_impls, "comma-separated implementations or groups; default: all");
  check->add_option("--plugin", check_options.plugins, "a plugin library to run as well; repeatable")
      ->allow_extra_args(false);
  check->add_option("--family", check_families, "comma-separated families; default: all");
  check->add_option("--dim", check_options.dims, "2 or 3; repeatable or comma-separated; default: both")
      ->allow_extra_args(false)
      ->delimiter(',')
      ->check(CLI::IsMember({2, 3}));
  check->add_option("--cases", check_options.cases, "cases per family and dimension")
      ->capture_default_str()
      ->check(whole_number(std::numeric_limits<int>::max(), "--cases is a whole number from 1 to 2147483647", "CASES"));
  CLI::Option* seed_option =
      check->add_option("--seed", check_seed, "the seed (default: random, printed)")->check(decimal_digits);
  check->add_option("--jobs", check_options.jobs, "worker shards (processes)")
      ->capture_default_str()
      ->check(whole_number(gjkref::cli::kMaxJobs,
                           "a whole number from 1 to " + std::to_string(gjkref::cli::kMaxJobs), "JOBS"));
  check->add_option("--out", check_options.out, "output directory (reports, counterexamples; resumable)")
      ->capture_default_str();
  check->add_option("--time-limit", check_options.time_limit_seconds, "seconds one query may take before it is a hang")
      ->capture_default_str()
      ->check(time_limit);
  check->add_option("--oracle-time-limit", check_options.oracle_time_limit_seconds,
                    "CPU seconds one oracle call may take; past it the case is logged as an oracle timeout")
      ->capture_default_str()
      ->check(time_limit);
  check->add_option("--memory-limit", check_options.memory_limit_mib,
                    "MiB of address space each worker (plugin) may use; 0: no limit")
      ->capture_default_str()
      ->check(whole_mib);
  std::string check_shard;
  check->add_option("--shard", check_shard,
                    "K/N: run slice K (from 0) of N of the campaign alone; gjkref merge combines the slices")
      ->check(CLI::Validator(
          [](const std::string& text) -> std::string {
            const auto slash = text.find('/');
            const auto digits = [](const std::string& t) {
              return !t.empty() && t.size() <= 6 && t.find_first_not_of("0123456789") == std::string::npos;
            };
            if (slash == std::string::npos || !digits(text.substr(0, slash)) || !digits(text.substr(slash + 1)) ||
                std::stoi(text.substr(0, slash)) >= std::stoi(text.substr(slash + 1)))
              return "a slice is K/N with whole numbers 0 <= K < N (at most 6 digits each)";
            return "";
          },
          "K/N"));
  bool no_progress = false;
  check->add_flag("--no-progress", no_progress, "no progress line");
  // --fail-on-refusal[=NAMES], for check and merge alike: alone (or =""), every implementation's refusals; =NAMES,
  // those named (read in run_check and merge_slices).
  const auto add_refusal_gate = [](CLI::App* sub, std::string& names) {
    return sub
        ->add_option("--fail-on-refusal", names,
                     "exit status 5 when an implementation refused any input (else refusals are counted, not "
                     "judged); =NAMES: only those implementations or groups (comma-separated)")
        ->expected(0, 1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  };
  std::string refusal_gated;
  CLI::Option* fail_on_refusal = add_refusal_gate(check, refusal_gated);
  gjkref::cli::MergeOptions merge_options;
  CLI::App* merge = app.add_subcommand(
      "merge", "Combine the directories of a campaign's slices (check --shard K/N) into the campaign's report");
  merge->add_option("dirs", merge_options.dirs, "the slices' directories")->required();
  merge->add_option("--out", merge_options.out, "the directory to write (new or empty)")->required();
  std::string merge_refusal_gated;
  CLI::Option* merge_fail_on_refusal = add_refusal_gate(merge, merge_refusal_gated);
  std::vector<std::string> list_plugins;
  CLI::App* list = app.add_subcommand("list", "The implementations (with what each answers) and the families");
  list->add_option("--plugin", list_plugins, "a plugin library to list as well; repeatable")->allow_extra_args(false);
  gjkref::cli::RenderOptions render_options;
  std::string render_impls;
  CLI::App* render = app.add_subcommand(
      "render", "An SVG picture of a case: A, B, A-B, the origin, the reference's path, each implementation's answer");
  render->add_option("file", render_options.file, "a case file")->required();
  render->add_option("--out", render_options.out, "the SVG file to write")->required();
  render->add_option("--index", render_options.index, "which case of a collection (from 0)")->capture_default_str();
  render->add_option("--impl", render_impls, "comma-separated implementations or groups; default: all");
  render->add_option("--plugin", render_options.plugins, "a plugin library to run as well; repeatable")
      ->allow_extra_args(false);
  render->add_option("--oracle-time-limit", render_options.oracle_time_limit_seconds,
                     "CPU seconds one oracle call may take; past it nothing is drawn (exit status 2)")
      ->capture_default_str()
      ->check(time_limit);
#endif
#ifdef GJKREF_HAVE_ORACLE
  // A comma-separated list, each name once, in the order first given. An option given but naming nothing (--family "")
  // is refused rather than read as "all": a CI job whose variable came out empty would check what it did not ask for.
  const auto names_in = [](const std::string& list, std::vector<std::string>& out) {
    std::stringstream in(list);
    for (std::string item; std::getline(in, item, ',');)
      if (!item.empty() && std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
    return !out.empty();
  };
  // A --fail-on-refusal given (alone: an empty list, every implementation) as the list of names it gates.
  const auto refusal_gate = [&names_in](const CLI::Option* given, const std::string& names,
                                        std::optional<std::vector<std::string>>& gate) {
    if (given->count() == 0) return;
    gate.emplace();
    names_in(names, *gate);
  };
  const auto names_nothing = [](const char* command, const char* option) {
    std::cerr << "gjkref " << command << ": " << option << " names nothing (leave it out for all)\n";
    return 2;
  };
#endif
  const auto run_subcommand = [&]() -> int {
    if (demo->parsed()) return gjkref::cli::run_demo(std::cout) == 0 ? 0 : 1;
#ifdef GJKREF_HAVE_ORACLE
    if (eval->parsed()) {
      if (eval->count("--impl") > 0 && !names_in(impl_list, eval_options.implementations))
        return names_nothing("eval", "--impl");
      return gjkref::cli::run_eval(eval_options, std::cout, std::cerr);
    }
    if (check->parsed()) {
      if (check->count("--impl") > 0 && !names_in(check_impls, check_options.implementations))
        return names_nothing("check", "--impl");
      if (check->count("--family") > 0 && !names_in(check_families, check_options.families))
        return names_nothing("check", "--family");
      refusal_gate(fail_on_refusal, refusal_gated, check_options.fail_on_refusal);
      std::vector<int> dims;
      for (const int d : check_options.dims)
        if (std::find(dims.begin(), dims.end(), d) == dims.end()) dims.push_back(d);
      check_options.dims = dims;
      if (*seed_option) check_options.seed = check_seed;
      check_options.progress = !no_progress;
      if (!check_shard.empty()) {
        // Every slice must draw the same cases: a slice with a seed of its own would be part of another campaign.
        if (!*seed_option) {
          std::cerr << "gjkref check: --shard needs --seed (every slice of a campaign draws its cases from the same "
                       "seed; docs/scaling.md)\n";
          return 2;
        }
        const auto slash = check_shard.find('/');
        check_options.slice =
            std::pair{std::stoi(check_shard.substr(0, slash)), std::stoi(check_shard.substr(slash + 1))};
      }
      return gjkref::cli::run_check(check_options, std::cout, std::cerr);
    }
    if (merge->parsed()) {
      refusal_gate(merge_fail_on_refusal, merge_refusal_gated, merge_options.fail_on_refusal);
      return gjkref::cli::run_merge(merge_options, std::cout, std::cerr);
    }
    if (list->parsed()) return gjkref::cli::run_list(list_plugins, std::cout, std::cerr);
    if (render->parsed()) {
      if (render->count("--impl") > 0 && !names_in(render_impls, render_options.implementations))
        return names_nothing("render", "--impl");
      return gjkref::cli::run_render(render_options, std::cout, std::cerr);
    }
#endif
    return 0;
  };
  // Exit status 2 for every usage error (docs/comparing.md, "Exit status"), whatever CLI11's own code for it. A first
  // word that is no subcommand is named (CLI11 would say only that a subcommand is required).
  if (argc > 1 && argv[1][0] != '-') {
    const std::vector<CLI::App*> subcommands = app.get_subcommands({});
    const auto is_named = [&](const CLI::App* sub) { return sub->check_name(argv[1]); };
    if (std::none_of(subcommands.begin(), subcommands.end(), is_named)) {
      std::cerr << "gjkref: unknown subcommand '" << argv[1] << "'; known:";
      for (const CLI::App* sub : subcommands) std::cerr << " " << sub->get_name();
      std::cerr << " (gjkref --help)\n";
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  // The subcommand's status, unless its output could not be written: a table or JSON lost on a full disk is an error
  // (2, as an output directory that cannot be written to), not a clean run. On a pipe or a socket the only failure is
  // a reader that stopped reading (gjkref list | head, grep -q), which wanted no more: not an error. (gjkref ignores
  // SIGPIPE once it runs workers, and the failed write may be long past, its errno gone.)
  const auto written = [](int status) {
    std::cout.flush();
    errno = 0;
    const bool flushed = std::fflush(stdout) == 0;
    const int error = errno;
    if (flushed && !std::ferror(stdout) && std::cout) return status;
    struct stat out {};
    if (::fstat(STDOUT_FILENO, &out) == 0 && (S_ISFIFO(out.st_mode) || S_ISSOCK(out.st_mode))) return status;
    std::cerr << "gjkref: cannot write to standard output" << (error != 0 ? ": " : "")
              << (error != 0 ? std::strerror(error) : "") << "\n";
    return status >= 2 ? status : 2;
  };
  try {
    return written(run_subcommand());
  } catch (const std::bad_alloc&) {
    std::cerr << "gjkref: out of memory";
#ifdef GJKREF_HAVE_ORACLE
    if (check->parsed() || merge->parsed())
      std::cerr << " (a campaign holds about 60 bytes per case of the whole campaign, in every slice: docs/scaling.md)";
#endif
    std::cerr << "\n";
    return 3;
  } catch (const std::exception& e) {
    // A failure of gjkref's own that no subcommand expected (a file it cannot read or write, ...): named, with the
    // exit status of a run that ended without a result, never an abort.
    std::cerr << "gjkref: stopped: " << e.what() << "\n";
    return 3;
  }
}
