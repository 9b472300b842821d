// gjkref/judge.hpp — one implementation's answer against the exact oracle (docs/comparing.md, docs/contract.md).
//
// Every implementation is held to the yardstick gjkref holds its own reference to: docs/contract.md's allowances,
// computed with the implementation's own scalar (its machine epsilon) and, for float, the rounding of the input. An
// exact implementation must be exact. A scalar gjkref does not know is judged as double.
#pragma once

#include <optional>
#include <string>

#include "gjkref/casefile.hpp"
#include "gjkref/implementations.hpp"
#include "gjkref/oracle.hpp"

namespace gjkref::impl {

// What is wrong with an answer, the worst thing first; None when it agrees with the oracle under the contract.
enum class Finding {
  None,
  IntersectingWithinBand,      // says intersecting, truly separated, but by less than the verdict band: allowed
  SeparatedWhileTouching,      // says separated; the shapes touch (the origin is on the boundary of A⊖B)
  SeparatedWhileOverlapping,   // says separated; the shapes overlap
  IntersectingWhileSeparated,  // says intersecting; the shapes are apart by more than the verdict band
  DistanceOutsideContract,     // the verdict is right; the distance is off by more than the contract allows
  NonFiniteNumber,             // a NaN or an infinity in the distance, the witnesses or the depth
  Failed,                      // the implementation reported a failure
  Threw,
  Crashed,
  Hung,
  WrongInvalidInput            // an answer on invalid input, or "invalid input" on valid input
};
const char* to_string(Finding f);
// The findings that count as disagreements (everything but None and IntersectingWithinBand).
inline bool disagrees(Finding f) { return f != Finding::None && f != Finding::IntersectingWithinBand; }

struct Judged {
  Finding finding = Finding::None;
  bool judged = true;                    // false when the implementation does not answer in this dimension
  std::optional<double> distance_error;  // |reported − true| when both say separated and a distance was reported
  double scale = 0;                      // M of docs/contract.md, for errors relative to the input's size
};

Judged judge(const oracle::Answer& truth, const Result& result, const Info& info, const casefile::Case& c);

}  // namespace gjkref::impl
