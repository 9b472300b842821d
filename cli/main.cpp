// gjkref — the command-line tool. Subcommands: demo (more arrive with the oracle and comparison work).
#include <CLI/CLI.hpp>
#include <iostream>
#include <sstream>
#include <string>

#include "demo.hpp"
#ifdef GJKREF_HAVE_ORACLE
#include "check.hpp"
#include "eval.hpp"
#include "render.hpp"
#endif

int main(int argc, char** argv) {
  CLI::App app{"gjkref: the correctness baseline for GJK"};
  app.require_subcommand(1);
  CLI::App* demo = app.add_subcommand("demo", "The reference on edge cases in every scalar mode, certificates checked");
#ifdef GJKREF_HAVE_ORACLE
  gjkref::cli::EvalOptions eval_options;
  std::string impl_list;
  CLI::App* eval =
      app.add_subcommand("eval", "Evaluate gjkref-case/1 files: the exact oracle beside each implementation");
  eval->add_option("files", eval_options.files, "case files")->required();
  eval->add_option("--impl", impl_list,
                   "comma-separated implementations or groups (reference, libccd, fcl, bullet, box2d, chipmunk); default: all");
  eval->add_option("--plugin", eval_options.plugins, "a plugin library (gjkref/plugin.h) to run as well; repeatable")
      ->allow_extra_args(false);
  eval->add_flag("--json", eval_options.json, "one JSON object per case per line");
  gjkref::cli::CheckOptions check_options;
  std::string check_impls, check_families;
  std::uint64_t check_seed = 0;
  CLI::App* check = app.add_subcommand(
      "check", "A differential campaign: every implementation against the exact oracle on generated degenerate cases");
  check->add_option("--impl", check_impls, "comma-separated implementations or groups; default: all");
  check->add_option("--plugin", check_options.plugins, "a plugin library to run as well; repeatable")
      ->allow_extra_args(false);
  check->add_option("--family", check_families, "comma-separated families; default: all");
  check->add_option("--dim", check_options.dims, "2 or 3; repeatable; default: both")->allow_extra_args(false);
  check->add_option("--cases", check_options.cases, "cases per family and dimension")->capture_default_str();
  CLI::Option* seed_option = check->add_option("--seed", check_seed, "the seed (default: random, printed)");
  check->add_option("--jobs", check_options.jobs, "worker shards (processes)")->capture_default_str();
  check->add_option("--out", check_options.out, "output directory (reports, counterexamples; resumable)")
      ->capture_default_str();
  check->add_option("--time-limit", check_options.time_limit_seconds, "seconds one query may take before it is a hang")
      ->capture_default_str();
  bool no_progress = false;
  check->add_flag("--no-progress", no_progress, "no progress line");
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
#endif
  CLI11_PARSE(app, argc, argv);
  if (demo->parsed()) return gjkref::cli::run_demo(std::cout) == 0 ? 0 : 1;
#ifdef GJKREF_HAVE_ORACLE
  if (eval->parsed()) {
    std::stringstream names(impl_list);
    for (std::string name; std::getline(names, name, ',');)
      if (!name.empty()) eval_options.implementations.push_back(name);
    return gjkref::cli::run_eval(eval_options, std::cout, std::cerr);
  }
  if (check->parsed()) {
    const auto split = [](const std::string& list) {
      std::vector<std::string> out;
      std::stringstream in(list);
      for (std::string item; std::getline(in, item, ',');)
        if (!item.empty()) out.push_back(item);
      return out;
    };
    check_options.implementations = split(check_impls);
    check_options.families = split(check_families);
    if (*seed_option) check_options.seed = check_seed;
    check_options.progress = !no_progress;
    return gjkref::cli::run_check(check_options, std::cout, std::cerr);
  }
  if (render->parsed()) {
    std::stringstream names(render_impls);
    for (std::string name; std::getline(names, name, ',');)
      if (!name.empty()) render_options.implementations.push_back(name);
    return gjkref::cli::run_render(render_options, std::cout, std::cerr);
  }
#endif
  return 0;
}
