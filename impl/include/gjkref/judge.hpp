// gjkref/judge.hpp — one implementation's answer against the exact oracles (docs/comparing.md, docs/contract.md).
//
// Every implementation is held to the yardstick gjkref holds its own reference to: docs/contract.md's allowances,
// computed with the implementation's own scalar (its machine epsilon) and, for float, the rounding of the input. An
// exact implementation must be exact (gjkref refuses a plugin declaring a scalar it does not know). The verdict band is
// on the signed distance δ (d when apart, −PD when overlapping): a wrong verdict is excused only when |δ| is inside it.
// Every number an answer reports is judged, whatever its verdict.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gjkref/casefile.hpp"
#include "gjkref/implementations.hpp"
#include "gjkref/oracle.hpp"

namespace gjkref::impl {

// What an answer got wrong, if anything: the category of its error, the first found in this order. Whether the
// contract allows it is separate (Judged::within_contract): a floating implementation may give either verdict when
// |δ| is inside the verdict band, so a touching pair called separated can be within its contract and still be a miss.
enum class Finding {
  None,                        // the verdict is right and every reported number within the contract
  SeparatedWhileTouching,      // says separated; the shapes touch (the origin is on the boundary of A⊖B)
  SeparatedWhileOverlapping,   // says separated; the shapes overlap
  IntersectingWhileSeparated,  // says intersecting; the shapes are apart
  MissingDistance,             // says separated, declares it measures, reports no distance
  MissingWitnesses,            // says separated, declares witnesses, reports none
  DistanceOutsideContract,     // the reported distance is off by more than the contract allows
  WitnessOutsideContract,      // a witness point is too far from its hull, or |a − b| too far from the distance
  MissingDepth,                // says intersecting, declares it measures depth, reports none (overlapping pairs)
  MissingNormal,               // reports a positive depth, declares normals, reports none
  MissingContacts,             // reports a positive depth, declares contact points, reports none
  DepthOutsideContract,        // the reported penetration depth is off by more than the contract allows
  NormalOutsideContract,       // the directional depth along the reported normal exceeds PD by more than allowed
  ContactOutsideContract,      // a contact point is off its hull, or a − b is not the closest point of a facet of A⊖B
                               // within the depth's allowance (where several are: of one the reported normal points to)
  NonFiniteNumber,             // a NaN or an infinity in the distance, the witnesses, the depth, the normal, ...
  Failed,                      // the implementation reported a failure
  Threw,
  Crashed,
  Hung,
  WrongInvalidInput,           // an answer on invalid input, or "invalid input" on valid input
  WrongClass                   // the verdict is right but the reported class (touching/overlapping) is not
};
const char* to_string(Finding f);

// The exact truth about one case: the oracle's answer, and the penetration depth (hull method, certificate checked)
// computed on first need — only overlapping and touching pairs have one, and only some answers need it.
// Is the case within the hull method's reach (oracle::kHullReachPairs, kHullReachPoints; docs/oracle.md, "Reach")?
// There the hull method answers, with the closest feature and the depth's facets; beyond it the certified fast path
// answers the distance and the certified reference the depth. eval, render and the judge decide by it alike.
bool within_hull_reach(const casefile::Case& c);

class Truth {
 public:
  Truth(const casefile::Case& c, oracle::Answer answer) : case_(&c), answer_(std::move(answer)) {}
  const oracle::Answer& answer() const { return answer_; }
  const casefile::Case& the_case() const { return *case_; }
  // Within the hull method's reach (oracle::kHullReachPairs, kHullReachPoints) the hull method's depth; beyond it the
  // certified reference's, its certificate checked exactly (method Certified: one optimal facet, no surface). Throws
  // what penetration_oracle throws (a CertificateError: a bug in gjkref), or a DisagreementError when the certified
  // depth's class is not the distance oracle's.
  const oracle::Penetration& penetration() const;
  bool penetration_computed() const { return penetration_.has_value(); }
  // The closest point to the origin of each facet plane of A⊖B (the penetration's surface), one per plane, with its
  // squared distance from the origin, nearest first: where contact points may lie (docs/contract.md). Empty when
  // the surface is (a flat A⊖B). Computed on first need.
  struct Foot {
    mpq_class squared_depth;
    oracle::ExactPoint point;
  };
  const std::vector<Foot>& boundary_feet() const;

 private:
  const casefile::Case* case_;
  oracle::Answer answer_;
  mutable std::optional<oracle::Penetration> penetration_;
  mutable std::optional<std::vector<Foot>> feet_;
};

struct Judged {
  Finding finding = Finding::None;
  bool within_contract = true;  // docs/contract.md, with the implementation's scalar, allows the answer
  bool judged = true;           // false: the implementation does not answer in this dimension, or the input is
                                // outside the range its contract covers (not_judged says which)
  std::string not_judged;
  std::optional<double> distance_error;  // |reported − d| when it says separated and reports a distance
  std::optional<double> witness_error;   // the larger distance of a witness from its hull
  std::optional<double> depth_error;     // |reported depth − PD|
  std::optional<double> normal_error;    // h_D(n)/|n| − PD along the reported normal n
  std::optional<double> contact_error;   // distance of a − b from the nearest PD·n̂, or a nearer facet's (contract);
                                         // judged in part: the larger of | |a − b| − PD | and the points' distances
                                         // from their hulls
  std::string contacts_judged_in_part;   // why the contact points were held to necessary bounds only, when they were
                                         // (beyond the hull method's reach: Truth::penetration)
  double scale = 0;                      // M of docs/contract.md, for errors relative to the input's size
  double band = 0;                       // the verdict band B that applied (0 for exact implementations)

  bool disagrees() const { return judged && !within_contract; }
  // A wrong verdict the contract allows: inside the verdict band.
  bool within_band() const { return judged && within_contract && finding != Finding::None; }
};

Judged judge(const Truth& truth, const Result& result, const Info& info);
// The same, computing the penetration depth if needed for this one answer.
Judged judge(const oracle::Answer& truth, const Result& result, const Info& info, const casefile::Case& c);

// One line for a table or a picture: "yes", "band: FINDING" (a wrong verdict the contract allows), "NO: FINDING" or
// "not judged".
std::string summary(const Judged& j);

// The exponent range a floating scalar's contract covers (docs/contract.md, "Range"): every coordinate 0 or normal in
// the scalar and of magnitude at most 2^E, and the input's scale M at least 2^−E. float 100 (kFloatJudgedExponent),
// double 500 (the squares of the coordinates stay normal), long double 8000; exact: every finite input.
int judged_exponent(const Info& info);

}  // namespace gjkref::impl
