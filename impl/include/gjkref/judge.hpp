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

// What an answer got wrong, if anything: the category of its error. Whether the contract allows it is separate
// (Judged::within_contract): a floating implementation may give either verdict when the true distance is inside the
// verdict band, so a touching pair called separated can be within its contract and still be a touching miss.
enum class Finding {
  None,                        // the verdict is right and the distance, if any, within the contract
  SeparatedWhileTouching,      // says separated; the shapes touch (the origin is on the boundary of A⊖B)
  SeparatedWhileOverlapping,   // says separated; the shapes overlap
  IntersectingWhileSeparated,  // says intersecting; the shapes are apart
  DistanceOutsideContract,     // the verdict is right; the distance is off by more than the contract allows
  NonFiniteNumber,             // a NaN or an infinity in the distance, the witnesses or the depth
  Failed,                      // the implementation reported a failure
  Threw,
  Crashed,
  Hung,
  WrongInvalidInput            // an answer on invalid input, or "invalid input" on valid input
};
const char* to_string(Finding f);

struct Judged {
  Finding finding = Finding::None;
  bool within_contract = true;           // docs/contract.md, with the implementation's scalar, allows the answer
  bool judged = true;                    // false when the implementation does not answer in this dimension
  std::optional<double> distance_error;  // |reported − true| when both say separated and a distance was reported
  double scale = 0;                      // M of docs/contract.md, for errors relative to the input's size

  bool disagrees() const { return !within_contract; }
  // A wrong verdict the contract allows: inside the verdict band.
  bool within_band() const { return within_contract && finding != Finding::None; }
};

Judged judge(const oracle::Answer& truth, const Result& result, const Info& info, const casefile::Case& c);

// One line for a table or a picture: "yes", "band: FINDING" (a wrong verdict the contract allows) or "NO: FINDING".
std::string summary(const Judged& j);

}  // namespace gjkref::impl
