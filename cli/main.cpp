// gjkref — the command-line tool. Subcommands: demo (more arrive with the oracle and comparison work).
#include <CLI/CLI.hpp>
#include <iostream>

#include "demo.hpp"

int main(int argc, char** argv) {
  CLI::App app{"gjkref: the correctness baseline for GJK"};
  app.require_subcommand(1);
  CLI::App* demo = app.add_subcommand("demo", "The reference on edge cases in every scalar mode, certificates checked");
  CLI11_PARSE(app, argc, argv);
  if (demo->parsed()) return gjkref::cli::run_demo(std::cout) == 0 ? 0 : 1;
  return 0;
}
