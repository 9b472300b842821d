// gjkref/tolerances.hpp — every tolerance of the reference, in one place. (Not tolerances, and kept beside their
// derivations: the sound rounding bounds that only choose between a cheap and an exact evaluation of one sign — EPA's
// visibility, epa.hpp; the certified filters, filter.hpp — and EPA's frame headroom, a range bound, epa.hpp. Making
// one larger sends more signs to the exact stage and changes no answer.)
//
// Rules:
//  - Every tolerance is relative: a dimensionless multiple of the scalar's machine epsilon, compared against
//    quantities of the same degree computed in the same power-of-two frame (floating.hpp). No tolerance is absolute
//    (the bounds above add a few least subnormals for gradual underflow, and decide nothing), so scaling the input by
//    2^k changes no decision and scales every output by 2^k exactly.
//  - For exact scalars every tolerance is zero: each decision is an exact sign.
//  - Each constant names the test that pins it. docs/contract.md derives the error bounds that follow from them.
#pragma once

#include "gjkref/scalar.hpp"

namespace gjkref {

// Relative duality gap, in units of the scalar's epsilon (the spacing of floating numbers just above 1).
// GJK stops with "separated" when  |v|² − v·w ≤ gap · |v|²,  where v is the current closest point of the simplex and
// w the support point in direction −v. Then v·w/|v| ≤ dist ≤ |v| and v·w ≥ (1 − gap)·|v|²: the two bounds agree
// to a relative gap, and |v|, the distance reported, is within gap·|v| of the true one. 2^7 epsilon (≈ 2.8e-14 in double, 1.5e-5 in float) is far above the
// rounding error of the two dot products (a few epsilon when the distance is comparable to the shape size, where
// the gap test is the one that fires) and far below any error a user would notice. When the distance is tiny
// relative to the shape size the rounding error of v·w exceeds the gap and the loop stops by the duplicate-support
// or no-progress test instead (docs/algorithm.md).
// Pinned by: GapToleranceStopsAtTheKnownDistance (reference/tests/tolerance_test.cpp).
inline constexpr int kRelativeGapEpsilons = 128;

// Touching band, in units of epsilon. In floating modes, a closest point v with
//     |v| ≤ touching · max_i |w_i|     (w_i: the points of the current simplex, same frame)
// is indistinguishable from the origin: the rounding error of v = Σ λ_i w_i is a few epsilon times max |w_i|
// for a well-shaped simplex. The query then answers "intersecting" (touching within rounding). 2^6 epsilon
// (≈ 1.4e-14 relative in double) covers the closest-point rounding on well-shaped simplices measured in the
// edge-case tests, where the exact answer is distance 0; it is small enough that any separation larger than
// it is reported as separated (docs/contract.md, band).
// Pinned by: TouchingBandAcceptsRoundingOnAFace and TouchingBandRejectsARealGap (reference/tests/tolerance_test.cpp).
// Second use, EPA's blow-up (epa.hpp, blow_up_step): a direction d along which A⊖B stays within this band of the
// origin, d·w ≤ 64·ε·|d|·R, is a touching normal; pinned by EpaFailureModes.TheBlowUpStepDecidesEachOutcomeBeyondRounding.
inline constexpr int kTouchingEpsilons = 64;

// Default iteration cap (passes of the main loop, one support query each). Not a tolerance: a guarantee that every
// query ends.
// In exact arithmetic GJK on polytopes stops by itself (|v| decreases strictly, and there are finitely many
// simplices), typically in well under 30 iterations for 64-vertex shapes; 128 leaves a wide margin, and a query
// that reaches it reports IterationLimit with its best upper bound instead of looping.
// A count, not a measured tolerance: EdgeCases.IterationCapReportsIterationLimit (reference/tests/edge_cases_test.cpp)
// pins what reaching a cap does, and the property suite that no query of any family reaches this one.
inline constexpr int kDefaultMaxIterations = 128;

// Steps GJK may take, per query, to a next simplex that is not measurably closer while the duality gap says it should
// be (a wedge so flat that the improvement is below the rounding; docs/algorithm.md, rule 6). A count, not a
// tolerance: it bounds the extra work; each such step is followed by a search along the new simplex's normal, which
// either makes real progress or stops the loop. 4: the stalls found needed one; a few more cost nothing. Pinned by
// SearchDirection.StepsPastAFlatWedgeAtATriangle (reference/tests/gjk_test.cpp).
inline constexpr int kStalledStepsWithGap = 4;

// How far the closest point of one simplex (closest_on_simplex, regions.hpp) may be from the exact one in a floating
// mode, in units of the scalar's ε times the simplex's largest coordinate R. The rounding of λ = numerator / sum and
// of Σ λᵢpᵢ is a few ε·R; where rounding sends a region test the wrong way, the chosen feature's point is within the
// same order of the right one (the region boundaries are where neighbouring features' points meet). 16 bounds 4 terms
// with margin. It holds for segments, for triangles unless the origin lies over a sliver (nearly collinear points:
// the face-region point Σλᵢpᵢ then errs by about ε·R²/width; finding 11, docs/edge-cases.md), and for tetrahedra whose
// signed volumes are not within rounding of zero; a near-flat tetrahedron can be far outside it. Pinned by
// RegionsTest.EveryHandCaseInEveryOrdering (reference/tests/regions_test.cpp) and
// Simplices.RegionTestsAgreeWithBruteForce{2d,3d} (proptests: near-flat segments and triangles included).
inline constexpr int kRegionRoundingEpsilons = 16;

// Rounding bound of a tetrahedron's volume with the origin as a vertex, in units of ε times the volume's magnitude
// scale: |e₁||e₂||e₃| for det(e₁, e₂, e₃) from the central point, |a||b||x| + 2|n|·R for the face normal times the
// origin's height (floating.hpp, volume_with_origin). A determinant of three vectors rounds to within a few ε of that
// product (3 products and 2 sums per cross product, then a dot product: 6ε in the first-order sum); 16 is twice that
// with margin, so a value above it has the right sign. Its only use is to choose the measure whose sign is certain:
// a value inside the bound falls back to the other. Pinned by
// SearchDirection.LongDoubleMeasuresATetrahedronFromItsSliverFace (the sliver face's height clears its bound 42 times
// over) and RegionsFloating.FlatLatticeTetrahedronKeepsItsExactVolumes (a height of pure rounding, inside its bound,
// leaves the exact determinant).
// Second use, the warm-start layer (gjk.hpp, extends_the_hull): a named point is kept only if its cross product
// (|e₁||e₂| scale, fewer operations, so the same 16 bounds it) or volume with the points before it clears this bound;
// a wider bound only drops more points from a warm start, which never changes the answer. Pinned by
// WarmStart.CoplanarPointsDoNotMakeAFalseEnclosure.
// Third use, EPA (epa.hpp, off_affine_hull): a point adds a dimension to the blow-up's start, or to the polytope's first
// simplex, only if the cross product or determinant that says so clears 16·ε times the lengths it is made of (a plane's
// normal rounded once, so its own error is ε·|n|; the products and differences add a few ε more). Pinned by
// EpaFailureModes.TheBlowUpIsDecidedBeyondRounding (a point off a segment's line, or a simplex off flat, by rounding
// alone) and EpaFailureModes.TheBlowUpStepDecidesEachOutcomeBeyondRounding.
inline constexpr int kVolumeRoundingEpsilons = 16;

// ---- The post-pass (finish.hpp) ----------------------------------------------------------------------------------
// What a careful-pass answer must show before it is returned (finish.hpp, within_contract). Units: ε times m, the
// largest coordinate magnitude over the final simplex's points and the check's support point — points of A⊖B, so
// m ≤ M and a slack in ε·m is no larger than the same slack in ε·M.

// Separated answers: with c the reported closest point and ŵ the support of A⊖B along −c, the check asks
//     |c| − ĉ·ŵ ≤ gap·|c| + kCheckSeparatedEpsilons·ε·m      (ĉ = c/|c|; gap = kRelativeGapEpsilons·ε)
// in a power-of-two frame. |c| bounds d from above (c = Σλᵢŵᵢ with λᵢ ≥ 0, up to ≈ 9·ε·M of rounding) and ĉ·ŵ from
// below (up to the support's choice, 28·ε·M, and the dot products', ≈ 3·ε·M: docs/contract.md, "Where the bounds
// come from"). So a passing answer is within D = 128·ε·M + gap·d of d with 64 + 9 + 28 + 3 < 128; and an overlapping
// pair (min ĉ·x ≤ −PD over A⊖B) passes only with PD ≤ 64·ε·M + 31·ε·M = 95·ε·M < B, the verdict band. Why 64: the largest power of
// two that leaves those roundings inside 128; measured on this check's precursor (bench/vouch_experiment.cpp: the
// loop's own (|v|² − v·w)/|v| against K·ε·M, in long double, on 4,800 needle pairs and clouds, 2026-11-26;
// docs/edge-cases.md), K = 128 vouched for two answers outside the contract and K = 64 for none. Pinned by
// PostPass.ACheckedAnswerIsWithinTheContract and PostPass.AnAnswerMovedByTheSlackFailsTheCheck
// (reference/tests/gjk_test.cpp).
inline constexpr int kCheckSeparatedEpsilons = 64;

// Intersecting answers: the weights are ≥ 0 and p = Σλᵢŵᵢ, the simplex's point the witnesses are combinations for,
// has |p| ≤ kCheckIntersectingEpsilons·ε·m. Then d ≤ |p| + 9·ε·M < B = 128·ε·M (the verdict is inside the band), and
// |witness_a − witness_b| ≤ |p| plus the witnesses' own rounding (W each) is within D + 2W. 112 = 128 − 16: the rounding
// of p (≤ 10·u·√3·M ≈ 9·ε·M) and of |p|'s evaluation, with margin; a touching-band stop (|v| ≤ 64·√3·ε·M ≈ 111·ε·M in
// 3D) passes it unless rounding moved p beyond. Pinned by PostPass.ACheckedAnswerIsWithinTheContract and
// PostPass.AnAnswerMovedByTheSlackFailsTheCheck.
inline constexpr int kCheckIntersectingEpsilons = 112;

// ---- The contract (docs/contract.md) ----------------------------------------------------------------------------
// Not used by the algorithm: these bound what a floating-mode answer may differ from the exact one, for checkers
// (tests, the oracle comparison). Units: the scalar's epsilon times the input scale M = max over vertex pairs (a, b)
// of ‖a − b‖∞, the largest coordinate of A⊖B, computed on the shapes as given in that scalar type.

// Verdict band. If the exact distance exceeds kContractVerdictEpsilons·ε·M the answer is Separated. Why 128: the
// touching band is kTouchingEpsilons·ε·|w|₂ ≤ 64·√3·ε·M ≈ 111·ε·M in 3D, plus a few ε·M of rounding in v.
// Pinned by FloatingModesMeetTheContractOnRandomReals (reference/tests/gjk_test.cpp).
inline constexpr int kContractVerdictEpsilons = 128;

// Certificate band, in units of √ε·M (not ε·M). A Separated answer of distance() carries the direction −v; it checks
// exactly (gjkref/certify.hpp) when the exact distance exceeds kContractCertificateSqrtEpsilons·√ε·M. Why √ε: v has
// an absolute rounding error of a few ε·max|w_i|, which tilts the plane by that much across the shapes' extent M;
// the plane clears the shapes while that tilt stays below d², i.e. d ≳ √(ε)·M. 8 is measured (well-shaped simplices
// need about 2–4; docs/contract.md). A Separated answer by the boolean query's rule 3 checks exactly at any
// distance: its own test guarantees it. Pinned by FloatingModesMeetTheContractOnRandomReals.
inline constexpr int kContractCertificateSqrtEpsilons = 8;

// Distance bound: |reported distance − exact distance| ≤ kContractDistanceEpsilons·ε·M + gap·distance, where gap is
// Tolerances::relative_gap(). Derived in docs/contract.md for the duality-gap stop (about 32·ε·M in 3D); 128 leaves
// room for the stops by rules 5 and 6 and by the enclosing test, for which only measurement gives a bound. Pinned by
// FloatingModesMeetTheContractOnLatticePairs and FloatingModesMeetTheContractOnRandomReals
// (reference/tests/gjk_test.cpp).
inline constexpr int kContractDistanceEpsilons = 128;

// Rounding bound of a determinant evaluated as written, in units of ε times its permanent: for det(x, y, z) =
// x·(y×z), |fl(det) − det| ≤ γ₅·P with P = Σᵢ |xᵢ|·(|y_j z_k| + |y_k z_j|) (i, j, k cyclic), γₙ = n·u/(1 − n·u) and
// u = ε/2 (Higham, Accuracy and Stability, §3.1: two products and a difference per component of y×z, then three
// products and two sums), so γ₅ < 2.51·ε; for the 2D cross product x₀y₁ − x₁y₀, γ₂·(|x₀y₁| + |x₁y₀|) with γ₂ < 1.01·ε.
// 3 covers γ₅ and the rounding of P's own evaluation (a relative γ₅ more). Gradual underflow adds at most half a
// subnormal unit per operation, a few in all: the test adds the smallest normal number, which exceeds them all.
// A determinant beyond the bound has the exact determinant's sign. Its use: the textbook pass (floating.hpp) accepts
// an enclosing simplex only when every barycentric determinant clears it. Pinned by
// TextbookPassSigns.DeterminantSignsBeyondTheBoundAreExact (reference/tests/gjk_test.cpp: against GMP on near-singular
// determinants, in float, double and long double).
inline constexpr int kDeterminantRoundingEpsilons = 3;

// Witness bound, in units of ε·R with R = largest_coordinate (the witnesses are combinations of the shapes' own
// points, so their rounding scales with the coordinates, not with M): each witness of a floating-mode answer lies
// within kContractWitnessEpsilons·ε·R (Euclidean) of its shape's hull. Why 8: witness_a = fl(Σ λ̂ᵢ aᵢ) with
// Σ λ̂ᵢ = 1 within 4u; the rounded sum differs from Σ λ̂ᵢ aᵢ by at most 4u·R per coordinate and Σ λ̂ᵢ aᵢ from the
// hull point Σ (λ̂ᵢ/Σλ̂) aᵢ by 4u·R, so 8u·R per coordinate, 8·√3·u·R ≈ 7·ε·R in 3D. Derived; pinned by the property
// suite (proptests/properties_test.cpp, FamilyProperties.*).
inline constexpr int kContractWitnessEpsilons = 8;

// EPA's relative gap, in units of epsilon (epa.hpp, the floating stop). The book stops when the support point w of
// A⊖B along the nearest facet's normal n lies on its plane, n·w ≤ o. In floating modes n·w and o are each rounded by
// a few ε·|n|·R (R the facet's coordinates), so a supported plane can show n·w − o of that size with either sign; EPA
// stops when n·w − o ≤ gap·|n·w|, or, for a w that is already a vertex of the polytope, when n·w − o ≤ gap·|n|·R
// (a coplanar vertex where the facet passes near the origin and |n·w| is about 0). 2^7 ε, as GJK's duality gap: far
// above the rounding, far below any depth error a user would notice (the depth is then known to a relative 2^7 ε of
// its plane's offset, or the plane supports A⊖B to within 2^7 ε·R, inside the contract's ε·M-scaled allowance).
// The certified mode does not depend on it (its answers are proven or recomputed in rationals). Pinned by
// FloatingEpa.DepthOfRandomCloudsIsWithinTheGap (reference/tests/penetration_certificate_test.cpp: the double and float
// depths within a relative 2^8·ε of the exact one on random clouds, and within twice the gap).
inline constexpr int kEpaRelativeGapEpsilons = 128;

// EPA's stop at a facet through the origin, in units of ε times |n|·R (epa.hpp, supported_by; R the largest coordinate
// of the facet's points and the support point w). Where the nearest facet's plane passes through the origin up to
// rounding (o ≈ 0), the relative gap above asks n·w − o ≤ 2^7·ε·|n·w| ≈ 0, which rounding alone defeats: a support
// point a rounding error beyond the plane made EPA grow into sliver facets whose normals are noise, and end as
// rounding-failure on pairs that touch or overlap by far less than ε·M. So a plane with o ≤ 2^5·ε·|n|·R, exceeded by
// A⊖B by at most as much, counts as supporting: the depth o/|n| and PD then both lie within 2^6·ε·R ≤ 2^6·ε·M of 0,
// half the contract's kContractDistanceEpsilons·ε·M. Why 32: for a point on the plane n·w − o shows the normal's
// error and the two dot products' roundings, about 7ε·|n|·R for a normal rounded once and at most about 19ε·|n|·R for
// one formed in one word (epa.hpp, kOneWordNormalConditioning), so 32 stands clear of the noise, and twice it leaves
// half the contract's budget to the rest. Pinned by EpaFailureModes.AFacetThroughTheOriginStopsWithinRounding.
inline constexpr int kEpaTouchingEpsilons = 32;

template <Scalar T>
struct Tolerances {
  // |v|² − v·w ≤ relative_gap() · |v|²  ⇒  separated, converged.
  static T relative_gap() {
    if constexpr (ScalarTraits<T>::is_exact)
      return T(0);
    else
      return T(kRelativeGapEpsilons) * ScalarTraits<T>::epsilon();
  }
  // n·w − o ≤ epa_gap() · |n·w|  ⇒  EPA's nearest facet supports A⊖B (floating modes; exact: n·w ≤ o).
  static T epa_gap() {
    if constexpr (ScalarTraits<T>::is_exact)
      return T(0);
    else
      return T(kEpaRelativeGapEpsilons) * ScalarTraits<T>::epsilon();
  }
  // o ≤ epa_touching()·|n|·R and n·w − o ≤ epa_touching()·|n|·R  ⇒  EPA's nearest facet, a plane through the origin up
  // to rounding, supports A⊖B (floating modes; exact: n·w ≤ o).
  static T epa_touching() {
    if constexpr (ScalarTraits<T>::is_exact)
      return T(0);
    else
      return T(kEpaTouchingEpsilons) * ScalarTraits<T>::epsilon();
  }
  // |D − fl(D)| ≤ volume_rounding() · (the volume's magnitude scale)  (floating.hpp).
  static T volume_rounding() {
    if constexpr (ScalarTraits<T>::is_exact)
      return T(0);
    else
      return T(kVolumeRoundingEpsilons) * ScalarTraits<T>::epsilon();
  }
  // |fl(det) − det| ≤ determinant_rounding() · (the determinant's permanent), plus the smallest normal number.
  static T determinant_rounding() {
    if constexpr (ScalarTraits<T>::is_exact)
      return T(0);
    else
      return T(kDeterminantRoundingEpsilons) * ScalarTraits<T>::epsilon();
  }
  // |v|² ≤ touching_ratio_squared() · max|w_i|²  ⇒  intersecting (touching within rounding).
  static T touching_ratio_squared() {
    if constexpr (ScalarTraits<T>::is_exact) {
      return T(0);
    } else {
      const T r = T(kTouchingEpsilons) * ScalarTraits<T>::epsilon();
      return r * r;
    }
  }
};

}  // namespace gjkref
