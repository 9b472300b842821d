// gjkref demo: the reference on a handful of edge cases, in every scalar mode, with each answer's certificate
// re-checked exactly. The README's main job until `gjkref eval` and `gjkref check` take over.
#pragma once

#include <ostream>

namespace gjkref::cli {

// Prints the table; returns the number of answers whose certificate was refuted outside the touching band
// (0 on a correct reference).
int run_demo(std::ostream& out);

}  // namespace gjkref::cli
