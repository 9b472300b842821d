// gjkref — the command-line tool. Subcommands: demo (more arrive with the oracle and comparison work).
#include <CLI/CLI.hpp>
#include <iostream>
#include <sstream>
#include <string>

#include "demo.hpp"
#ifdef GJKREF_HAVE_ORACLE
#include "eval.hpp"
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
                   "comma-separated implementations or groups (reference, libccd, fcl, bullet, box2d); default: all");
  eval->add_option("--plugin", eval_options.plugins, "a plugin library (gjkref/plugin.h) to run as well; repeatable")
      ->allow_extra_args(false);
  eval->add_flag("--json", eval_options.json, "one JSON object per case per line");
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
#endif
  return 0;
}
