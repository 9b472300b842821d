// cli/fault.hpp — faults put where gjkref's own failures would be, for the tests of what eval and check report then.
//
// No valid input is known to make the oracle fail its certificate, or an in-process reference mode throw: either would
// be a bug in gjkref or CGAL. What the harness does then (the case kept in the output, the campaign going on past it,
// exit status 3) is tested by injecting the failure: GJKREF_INJECT_FAULT holds a comma-separated list of sites, and at
// a listed site the call throws std::logic_error, as a failed certificate does. The sites:
//   distance-oracle   the distance oracle's call (eval, check)
//   depth-oracle      the penetration-depth oracle's call (eval)
//   run:NAME          implementation NAME's query (check; NAME a built-in in-process one, such as reference-double)
//   fork              eval's fork of a case's process, which then fails as fork() does when the process limit is
//                     reached (is_fault_injected: no throw)
// Unset (always, outside those tests), nothing happens. CTests cli.eval-oracle-failure, cli.check-faults and
// cli.eval-without-fork.
#pragma once

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gjkref::cli {

inline bool is_fault_injected(std::string_view site) {
  const char* list = std::getenv("GJKREF_INJECT_FAULT");
  if (list == nullptr) return false;
  std::string_view rest(list);
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    if (rest.substr(0, comma) == site) return true;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return false;
}

inline void injected_fault(std::string_view site) {
  if (is_fault_injected(site))
    throw std::logic_error("a fault injected at " + std::string(site) + " (GJKREF_INJECT_FAULT)");
}

}  // namespace gjkref::cli
