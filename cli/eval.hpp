// gjkref eval: each case of each file through the exact oracle and each implementation, side by side.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gjkref::cli {

struct EvalOptions {
  std::vector<std::string> files;
  std::vector<std::string> implementations;  // empty: all
  bool json = false;
};

// The names `--impl` accepts.
std::vector<std::string> implementation_names();

// Returns the exit status: 0 when every case was read and every answer agrees with the oracle under
// docs/contract.md; 1 when some answer disagrees; 2 when a file could not be read (its error is printed to `err`).
int run_eval(const EvalOptions& options, std::ostream& out, std::ostream& err);

}  // namespace gjkref::cli
