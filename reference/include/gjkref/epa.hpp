// gjkref/epa.hpp — the penetration depth: the expanding polytope algorithm (van den Bergen, 2001), in 2D and 3D,
// after GJK says the shapes intersect. Exact scalars: the answer is the exact penetration depth.
//
// For intersecting A and B the origin lies in D = A⊖B, and the penetration depth is
//   PD = min over unit u of h_D(u)   (h_D the support function of D),
// the length of the shortest translation t of B after which the shapes only touch; t is the point of the boundary of D
// nearest the origin, and B moves along it. EPA keeps a convex polytope P ⊆ D whose vertices are points of D and
// which contains the origin. Let F be P's facet nearest the origin, with outward normal n and plane n·x = o (o ≥ 0):
//   - for every unit u, h_D(u) ≥ h_P(u) ≥ the distance of P's facet the ray from the origin along u leaves through, so
//     PD ≥ o/|n|: the nearest facet's distance is a lower bound;
//   - h_D(n)/|n| ≥ PD always, and if the support point w of D along n lies on F's plane (n·w = o) then h_D(n) = o and
//     PD = o/|n|: F's plane supports D, and the projection of the origin onto it (in F) is t.
//   - Otherwise n·w > o: w is a point of D outside P; P grows to conv(P ∪ {w}) and the search goes on.
// Each growth adds a vertex of D that P did not have, so for point clouds (D has at most n_A·n_B vertices) EPA ends
// after at most n_A·n_B growths; `max_expansions` caps it for any shape.
//
// Where P comes from (start_polytope): GJK ends, for intersecting shapes, with a simplex whose points contain the
// origin. If it is full-dimensional it is P. If it is lower-dimensional (the origin on a vertex, an edge or a face of
// A⊖B's simplex: GJK's "origin on simplex" stop), its points span a subspace through the origin; for a direction n
// orthogonal to it, if h_D(n) = 0 or h_D(−n) = 0 a plane through the origin supports D and the shapes touch (PD = 0,
// with that normal); otherwise the support points along n and −n lie strictly on both sides, and adding both raises
// the span's dimension. Then P is the convex hull of the points gathered, built by the same growth step.
//
// Exact scalars: every sign above is taken exactly, and the answer is the exact one. Floating scalars run the same code
// with six marked departures: the stop (`supported_by`), since rounding can leave n·w a little above o forever; a
// power-of-two frame for the points (`EpaFrame`), since a facet's quantities are polynomials of degree up to 2D − 2 in
// the coordinates and leave the floating range long before the points do, and each normal in its own power-of-two
// scale (`ordered_normal`), for a facet far smaller than the frame's unit; 3D sliver facets' normals in two-word
// arithmetic (`facet_normal_two_word`), since a rounded normal tilts by ε over the facet's angle; the blow-up's step
// (`blow_up_step`), which decides "off the hull" and "touching" each beyond rounding; and visibility (`sees`), decided
// exactly on the points as stored, so that the polytope stays convex. Their answers carry no proven bound
// (docs/contract.md gives what is measured). Every answer carries its certificate (`PenetrationCertificate`): the
// expanded polytope and its facet, which check_penetration (gjkref/certified_penetration.hpp) checks exactly, whoever
// found it; certified_penetration runs this EPA in double and proves its answer so, or finishes in rationals.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "gjkref/gjk.hpp"

namespace gjkref {

enum class PenetrationStatus {
  Penetrating,     // the shapes overlap: `translation` is the shortest translation of B after which they touch
  Touching,        // the shapes touch: the depth is 0, `normal` the normal of a plane through the origin supporting A⊖B
  Separated,       // GJK found them apart: `gjk` has the distance and the witness points
  IterationLimit,  // GJK or EPA reached its cap first
  InvalidInput,    // see gjk.input_error: GJK's, or DifferenceOverflow when a support point EPA met overflowed
  // Floating modes only: rounding left no answer to give — the polytope without volume (its points do not span the
  // space, or no facet is left), the nearest facet's normal underflowed, a support point beyond the nearest facet's
  // plane (beyond rounding) was already a vertex, the answer's translation or witnesses were not finite, or the
  // blow-up undecided from both sides. Unreachable in exact arithmetic.
  RoundingFailure,
};

inline const char* to_string(PenetrationStatus s) {
  switch (s) {
    case PenetrationStatus::Penetrating: return "penetrating";
    case PenetrationStatus::Touching: return "touching";
    case PenetrationStatus::Separated: return "separated";
    case PenetrationStatus::IterationLimit: return "iteration-limit";
    case PenetrationStatus::InvalidInput: return "invalid-input";
    case PenetrationStatus::RoundingFailure: return "rounding-failure";
  }
  return "?";
}

// The most growths of the polytope (support queries after GJK): far above what point clouds of the property suite's
// sizes need (at most n_A·n_B, 4,096 at 64 + 64 points). A count, not a tolerance.
inline constexpr int kDefaultMaxExpansions = 100000;

template <Vector V>
struct PenetrationOptions {
  Options<V> gjk;  // GJK's options (warm start, iteration cap)
  int max_expansions = kDefaultMaxExpansions;
};

// What proves a depth (checked apart from the solver: check_penetration, gjkref/certified_penetration.hpp). The
// polytope EPA expanded, as vertex pairs (index in A, index in B) whose differences are its points, and its facets,
// each oriented outward: in 3D (p₁ − p₀) × (p₂ − p₀) points out of the polytope; in 2D the polygon runs
// counter-clockwise, p₀ → p₁ with the inside on the left. `answer`: the facet whose plane supports A⊖B and holds the
// projection of the origin (for the check, a hint: it finds the nearest facet itself).
template <int Dimension>
struct PenetrationCertificate {
  std::vector<std::pair<std::size_t, std::size_t>> points;
  std::vector<std::array<int, Dimension>> facets;
  int answer = -1;
};

template <Vector V>
struct Penetration {
  using scalar_type = scalar_t<V>;
  static constexpr int dimension = V::dimension;

  PenetrationStatus status = PenetrationStatus::InvalidInput;
  // Penetrating: the point of the boundary of A⊖B nearest the origin, t = PD·n̂; translating B by t leaves the shapes
  // touching. Zero when touching.
  V translation{};
  // PD² = |t|²: exact with an exact scalar; in floating modes it may over- or underflow for extreme inputs, where
  // depth() does not.
  scalar_type squared_depth{};
  // An outward normal of A⊖B at t (any length, never zero): the facet's normal (floating modes: in EPA's frame,
  // detail::EpaFrame); when touching, the normal of a plane through the origin with A⊖B on its side n·x ≤ 0. B moves
  // along it to separate the shapes.
  V normal{};
  // Points of A and of B with witness_a − witness_b = t: Σ λᵢ aᵢ and Σ λᵢ bᵢ over the facet's points (touching: a
  // common point, GJK's).
  V witness_a{}, witness_b{};
  // The facet of the expanded polytope holding t: its points of A⊖B (with their vertices of A and B) and the weights
  // of t. Touching (however found): GJK's simplex, at most `dimension` of its points, with GJK's weights.
  std::array<SupportPoint<V>, V::dimension> facet{};
  std::array<scalar_type, V::dimension> weights{};
  int facet_size = 0;
  int expansions = 0;  // support queries after GJK
  Result<V> gjk;       // GJK's answer
  // Penetrating: the polytope and the answer's facet (empty otherwise).
  PenetrationCertificate<V::dimension> certificate;

  // PD as a double (exact scalars: for display, the exact answer is squared_depth). Floating scalars: |t| in t's own
  // power-of-two frame, as Result::distance(), so that it neither over- nor underflows where t does not.
  double depth() const {
    using Tr = ScalarTraits<scalar_type>;
    if constexpr (is_exact_v<scalar_type>) {
      return Tr::sqrt_as_double(squared_depth);
    } else {
      using std::sqrt;
      const int e = Tr::frame_exponent(max_abs_component(translation));
      const V scaled = scale_by_power_of_two(translation, -e);
      return static_cast<double>(Tr::scale_by_power_of_two(sqrt(dot(scaled, scaled)), e));
    }
  }
};

namespace detail {

// A facet of the polytope: `dimension` vertices (indices into the polytope's points), its outward normal n and its
// plane's offset o = n·p for its points p. Offsets are ≥ 0 once the polytope contains the origin.
template <Vector V>
struct Facet {
  std::array<int, V::dimension> vertex{};
  V normal{};
  scalar_t<V> offset{};
  scalar_t<V> normal_squared{};  // |n|²
  scalar_t<V> squared_distance{};  // (o/|n|)², the squared distance of its plane from the origin, as (o/|n|²)·o
  // Floating scalars: the rounding of n·w − o per unit of max(reach, w's largest coordinate), and `reach`, the largest
  // coordinate of its points (visibility_rounding_bound). Unused in exact arithmetic.
  scalar_t<V> rounding{}, reach{};
};

// The normal that the order of the facet's points gives: 3D (p₁−p₀)×(p₂−p₀); 2D the edge p₀ → p₁ turned clockwise by a
// right angle (outward for a counter-clockwise polygon).
//   The third departure (floating scalars, 3D): a sliver's cross product in two-word arithmetic, rounded once
//   (facet_normal_two_word). Rounded operation by operation, each component carries an error of a few ε·|e₁|·|e₂|, and
//   |n| = |e₁|·|e₂|·sin θ, so the normal of a sliver facet (θ small: needles, thin boxes) tilts by about ε/sin θ, and
//   its offset, measured at a vertex up to |e₁| from the origin's projection, by ε·|e₁|/sin θ: far beyond the
//   contract's ε·M. Rounded once, the normal tilts by about ε whatever the facet's shape. A facet that is not a sliver
//   keeps the one-word normal (facet_normal_one_word, with the bound that tells the two apart), which tilts by at most
//   about 7·ε there. Visibility takes either normal's rounding into its bound (sees). (2D needs nothing: the edge
//   turned is exact but for the rounding of p₁ − p₀.)
//   The normal's own scale (floating scalars, the sixth departure, for range, with the frame's): a normal names a
//   direction, and the facet's distance o/|n| does not depend on its length, so each edge is scaled by the power of
//   two that brings its largest component into [1, 2) before the normal is formed (exactly, but for words that sink
//   below the normal range as the edge is scaled down — a low word, or a component 2^1000 times smaller than the
//   largest: half a least subnormal each, inside visibility_underflow). In the frame's scale a normal is of degree
//   D − 1 in the coordinates and |n|² of degree 2D − 2, and a facet far smaller than the frame's unit (GJK's simplex
//   beside a point of A⊖B far larger: EpaFrame) had |n|² underflow to 0 and no direction; in its own scale each
//   component of n is below 8, and |n|² underflows only on a facet whose angle is below about 2^−(max_exponent/2)
//   (EpaFailureModes.AFacetFarSmallerThanTheFrameKeepsItsNormal). Exact scalars: the book's normal, unscaled.
// p − q held exactly in two words (two_sum), per coordinate (3D).
template <Vector V>
std::array<TwoWord<scalar_t<V>>, 3> edge_two_word(const V& q, const V& p) {
  using T = scalar_t<V>;
  std::array<TwoWord<T>, 3> e;
  for (int i = 0; i < 3; ++i) e[i] = two_sum(p[i], T(-q[i]));
  return e;
}

// e₁ × e₂ in two-word arithmetic (3D).
template <class T>
std::array<TwoWord<T>, 3> cross_two_word(const std::array<TwoWord<T>, 3>& e1, const std::array<TwoWord<T>, 3>& e2) {
  std::array<TwoWord<T>, 3> c;
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    c[i] = e1[j] * e2[k] + -(e1[k] * e2[j]);
  }
  return c;
}

// (p₁ − p₀) × (p₂ − p₀) in two-word arithmetic, from the differences held exactly, not rounded (3D).
template <Vector V>
std::array<TwoWord<scalar_t<V>>, 3> cross_two_word(const V& p0, const V& p1, const V& p2) {
  return cross_two_word(edge_two_word(p0, p1), edge_two_word(p0, p2));
}

// A two-word edge in its own frame, as in_own_scale (vec.hpp) takes a vector: both words scaled by the power of two
// that brings the largest high word into [1, 2); the zero edge, and one that is not finite, unchanged.
template <class T>
std::array<TwoWord<T>, 3> in_own_scale(std::array<TwoWord<T>, 3> e) {
  using std::abs;
  using std::isfinite;
  const T largest = std::max({abs(e[0].hi), abs(e[1].hi), abs(e[2].hi)});
  if (!(largest > 0) || !isfinite(largest)) return e;
  using Tr = ScalarTraits<T>;
  const int k = Tr::frame_exponent(largest);
  for (TwoWord<T>& w : e) w = {Tr::scale_by_power_of_two(w.hi, -k), Tr::scale_by_power_of_two(w.lo, -k)};
  return e;
}

// The normal of the plane through three points, rounded once from two words, in its own scale (3D, floating).
template <Vector V>
V facet_normal_two_word(const V& p0, const V& p1, const V& p2) {
  using T = scalar_t<V>;
  const auto c = cross_two_word(in_own_scale(edge_two_word(p0, p1)), in_own_scale(edge_two_word(p0, p2)));
  return V{T(c[0].hi + c[0].lo), T(c[1].hi + c[1].lo), T(c[2].hi + c[2].lo)};
}

// The normal of a facet that is not a sliver, in one-word arithmetic (3D, floating): the edges d₁ = p₁ − p₀ and
// d₂ = p₂ − p₀ rounded, each scaled into its own scale by the power of two its rounded largest component gives (as
// facet_normal_two_word and facet_weights take it; exactly, but for subnormals), and n = d₁ × d₂ rounded operation by
// operation. Against N, the exact normal in that scale, each component errs by at most γ₄·P_i, P_i = |d₁ⱼd₂ₖ| +
// |d₁ₖd₂ⱼ| (u = ε/2: a rounding for each difference, each product and their difference), so ‖n − N‖₁ ≤ 4.01u·ΣP_i, the
// sum taken in floating point with room for its own rounding: `magnitude` returns ΣP_i. On a facet of angle θ the ratio
// ΣP/‖n‖₁ is about 1/sin θ: up to kOneWordNormalConditioning the normal is within 4.01u·2 = 4.01ε of N relative to
// ‖n‖₁ (a tilt of about 7ε at most), and facet_through takes it; above, the facet is a sliver, and its normal is formed
// in two words (facet_normal_two_word).
//   kOneWordNormalConditioning = 2: a choice of method, not a tolerance — both normals' rounding enters visibility's
//   bound (facet_through), whose decisions are exact either way. A larger value lets normals tilt more: the noise a
//   plane's n·w − o shows for a point on it, at most 4.01·K·ε·‖n‖₁·R from the normal plus 3ε·‖n‖₁·R from the two dot
//   products, about 19ε·|n|·R at K = 2, must stay clear of the stop's kEpaTouchingEpsilons = 32 (tolerances.hpp), and
//   at K = 4 it reaches 33; EpaFailureModes.ASliverFacetsNormalIsRoundedOnce fails when every normal is formed in one
//   word. A smaller value sends more facets to two words (slower: 4 counted 4 % fewer instructions than 2 at n = 8 in
//   peers_bench). Pinned by EpaFailureModes.FacetNormalsAreWithinTheirBounds (each form within its bound, both forms
//   taken) and EpaFailureModes.VisibilityIsTheExactOrientation (fat and sliver facets, each stage's rounding within its
//   bound).
inline constexpr int kOneWordNormalConditioning = 2;

// Is the one-word normal n, with ΣP = `magnitude`, well enough conditioned to be the facet's (not a sliver)?
template <Vector V>
bool one_word_normal_suffices(const V& n, const scalar_t<V>& magnitude) {
  using std::abs;
  const scalar_t<V> n1 = abs(n[0]) + abs(n[1]) + abs(n[2]);
  // False for a NaN, and for a normal that rounded to 0 from products that are not; true when every product is 0 (an
  // edge is 0, or both lie along one axis), where the exact normal is 0 too.
  return magnitude <= scalar_t<V>(kOneWordNormalConditioning) * n1;
}

template <Vector V>
V facet_normal_one_word(const V& p0, const V& p1, const V& p2, scalar_t<V>& magnitude) {
  using T = scalar_t<V>;
  using std::abs;
  const V d1 = in_own_scale(V(p1 - p0)), d2 = in_own_scale(V(p2 - p0));
  V n;
  magnitude = T(0);
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const T x = d1[j] * d2[k], y = d1[k] * d2[j];
    n[i] = x - y;
    magnitude += abs(x) + abs(y);
  }
  return n;
}

// A facet's normal in floating 3D: the one-word normal where it suffices, else the two-word one; `one_word` says
// which, and `magnitude` is the one-word normal's ΣP (facet_through bounds visibility's rounding with them).
template <Vector V>
V floating_facet_normal(const std::array<V, 3>& p, scalar_t<V>& magnitude, bool& one_word) {
  const V n = facet_normal_one_word(p[0], p[1], p[2], magnitude);
  one_word = one_word_normal_suffices(n, magnitude);
  return one_word ? n : facet_normal_two_word(p[0], p[1], p[2]);
}

template <Vector V>
V ordered_normal(const std::array<V, V::dimension>& p) {
  if constexpr (V::dimension == 3) {
    if constexpr (!is_exact_v<scalar_t<V>>) {
      scalar_t<V> magnitude;
      bool one_word;
      return floating_facet_normal(p, magnitude, one_word);
    } else {
      return cross(V(p[1] - p[0]), V(p[2] - p[0]));
    }
  } else {
    V e = p[1] - p[0];
    if constexpr (!is_exact_v<scalar_t<V>>) e = in_own_scale(e);
    return V{e[1], scalar_t<V>(-e[0])};
  }
}

// At most `Capacity` values held in place, without allocation: the affine hulls and spans of the start and of the
// first simplex (at most dimension + 1 points).
template <class X, std::size_t Capacity>
class Few {
 public:
  Few() = default;
  Few(std::initializer_list<X> items) {
    for (const X& x : items) push_back(x);
  }
  void push_back(const X& x) {
    assert(size_ < Capacity);
    items_[size_++] = x;
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const X& operator[](std::size_t i) const { return items_[i]; }
  const X* begin() const { return items_.data(); }
  const X* end() const { return items_.data() + size_; }

 private:
  std::array<X, Capacity> items_{};
  std::size_t size_ = 0;
};

// Does p leave the affine hull of `hull` (affinely independent points, at most `dimension` of them)? The book: a cross
// product or a determinant of the hull's directions and p − hull₀ is not zero. Floating scalars (the fourth departure,
// with blow_up_step): only beyond that determinant's rounding, kVolumeRoundingEpsilons·ε times the lengths it is made
// of, the normal of a plane through three points rounded once (facet_normal_two_word, as a sliver facet's). A point off a
// nearly flat hull by rounding alone would make a simplex whose orientation, and every facet's after it, is noise.
template <Vector V, class Hull>
bool off_affine_hull(const Hull& hull, const V& p) {
  using T = scalar_t<V>;
  if (hull.size() == 1) return !is_zero(V(p - hull[0]));
  if constexpr (is_exact_v<T>) {
    const V e = p - hull[0];
    if constexpr (V::dimension == 2) {
      return cross(V(hull[1] - hull[0]), e) != 0;
    } else {
      if (hull.size() == 2) return !is_zero(cross(V(hull[1] - hull[0]), e));
      return triple(V(hull[1] - hull[0]), V(hull[2] - hull[0]), e) != 0;
    }
  } else {
    // Each side is of degree 2 in u and in e (and in n): each vector in its own scale (ordered_normal), so that a hull
    // far smaller than the frame's unit does not underflow to "on the hull".
    const T m2 = Tolerances<T>::volume_rounding() * Tolerances<T>::volume_rounding();
    const V u = in_own_scale(V(hull[1] - hull[0]));
    const V e = in_own_scale(V(p - hull[0]));
    if constexpr (V::dimension == 2) {
      const T c = cross(u, e);
      return c * c > m2 * dot(u, u) * dot(e, e);
    } else {
      if (hull.size() == 2) {
        const V c = cross(u, e);
        return dot(c, c) > m2 * dot(u, u) * dot(e, e);
      }
      const V n = facet_normal_two_word(hull[0], hull[1], hull[2]);
      const T t = dot(n, e);
      return t * t > m2 * dot(n, n) * dot(e, e);
    }
  }
}

// Does facet f, through points p, see w: does w lie strictly beyond its plane? The book: n·w > o.
//   The fifth departure (floating scalars): the visibility is decided exactly on the polytope's points as stored, by a
//   filtered orientation: (1) n·w − o as computed, when it exceeds a proven bound on its rounding
//   (visibility_rounding_bound); else (2) the orientation N·(w − p₀) (N = ordered_normal(p), exactly) in two-word
//   arithmetic, when it exceeds its own bound (orientation_two_word: nearly coplanar points, such as the corners of a
//   rounded face of A⊖B, are decided here); else (3) in rationals (exactly coplanar points: lattice input). So the
//   polytope stays the convex hull of its points: rounding cannot leave a vertex beyond a facet, where EPA, unable to
//   grow by a vertex it has, would have no answer.
//   (1)'s bound (u = ε/2, round to nearest; R = the largest coordinate of w and p, E₁, E₂ those of p₁ − p₀, p₂ − p₀ in
//   their own scale, below 2, n and N the normals they give):
//   n is N rounded once per component (3D sliver facets: formed in two-word arithmetic, whose products and sums add at
//   most 30u²·(|e₁ᵢe₂ⱼ| + |e₁ⱼe₂ᵢ|) ≤ 60u²E₁E₂; 2D: p₁ − p₀ rounded once), so |(n − N)·(w − p)| ≤ 2u·‖n‖₁·R·(1 + u) +
//   360u²E₁E₂R; the two dot products add γ₃·‖n‖₁·R each (γ₃ ≤ 3.01u); the comparison of the two rounded values is
//   exact. In all at most 4ε·‖n‖₁·R + 90ε²·E₁E₂R; kVisibilityRoundingEpsilons and kVisibilityTwoWordEpsilons are 4 and
//   about 3 times that, which also covers the bound's own rounding. Other 3D facets' normals are formed in one word
//   (facet_normal_one_word), within 4.01u·ΣP of N in ‖·‖₁, so |(n − N)·(w − p)| ≤ 8.02u·ΣP·R = 4.01ε·ΣP·R in place of
//   the two-word terms: kVisibilityOneWordNormalEpsilons is 4 times that. Gradual underflow adds at most half a
//   subnormal unit per operation (the edges scaled into their own scale included), multiplied by at most 2R later:
//   kVisibilityUnderflowUnits·denorm_min·max(1, R).
//   (2)'s bound: the differences are exact in two words (two_sum); a two-word product adds at most 9u²·|xy|, a sum
//   4u²·(|x| + |y|) (floating.hpp's operations: the error-free product and sum, with the low words' three roundings),
//   so the 3D determinant Σ e₃ᵢ·(e₁ⱼe₂ₖ − e₁ₖe₂ⱼ) is within 30u²·P of the exact one, P = Σ|e₃ᵢ|·(|e₁ⱼe₂ₖ| + |e₁ₖe₂ⱼ|)
//   (2D: 22u²·(|e_y d_x| + |e_x d_y|)); kOrientationTwoWordEpsilons·ε² = 16ε² = 64u² covers it with the rounding of P,
//   plus the same underflow term.
//   Sound bounds, not tolerances: larger ones only send more signs on to the next stage. Pinned by
//   EpaFailureModes.VisibilityIsTheExactOrientation (each stage's rounding within its bound, every answer the exact
//   sign).
inline constexpr int kVisibilityRoundingEpsilons = 16;
inline constexpr int kVisibilityTwoWordEpsilons = 256;
inline constexpr int kVisibilityOneWordNormalEpsilons = 16;
inline constexpr int kVisibilityUnderflowUnits = 64;
inline constexpr int kOrientationTwoWordEpsilons = 16;

// What gradual underflow adds to either bound, for points whose largest coordinate is `reach`.
template <class T>
T visibility_underflow(const T& reach) {
  return T(kVisibilityUnderflowUnits) * std::numeric_limits<T>::denorm_min() * std::max(T(1), reach);
}

// The bound (1) on |(n·w − o) − N·(w − p₀)| for facet f and a point w whose largest coordinate is w_reach.
template <Vector V>
scalar_t<V> visibility_rounding_bound(const Facet<V>& f, const scalar_t<V>& w_reach) {
  const scalar_t<V> r = std::max(f.reach, w_reach);
  return f.rounding * r + visibility_underflow(r);
}

// N·(w − p₀) in two-word arithmetic, and the bound (2) on its error (floating scalars).
template <Vector V>
std::pair<TwoWord<scalar_t<V>>, scalar_t<V>> orientation_two_word(const std::array<V, V::dimension>& p, const V& w) {
  using T = scalar_t<V>;
  using W = TwoWord<T>;
  using std::abs;
  const T eps = ScalarTraits<T>::epsilon();
  std::array<W, V::dimension> d;  // w − p₀, exactly
  for (int i = 0; i < V::dimension; ++i) d[i] = two_sum(w[i], T(-p[0][i]));
  const V e1 = p[1] - p[0];  // rounded: for the bound alone
  W det{};
  T permanent(0);  // P, the sum of the terms' magnitudes
  if constexpr (V::dimension == 3) {
    const auto c = cross_two_word(p[0], p[1], p[2]);
    const V e2 = p[2] - p[0];
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3, k = (i + 2) % 3;
      det = det + d[i] * c[i];
      permanent += abs(d[i].hi) * (abs(e1[j] * e2[k]) + abs(e1[k] * e2[j]));
    }
  } else {  // N = (e_y, −e_x): N·d = e_y·d_x − e_x·d_y
    const W ex = two_sum(p[1][0], T(-p[0][0])), ey = two_sum(p[1][1], T(-p[0][1]));
    det = ey * d[0] + -(ex * d[1]);
    permanent = abs(e1[1] * d[0].hi) + abs(e1[0] * d[1].hi);
  }
  T reach = max_abs_component(w);
  for (const V& q : p) reach = std::max(reach, max_abs_component(q));
  return {det, T(kOrientationTwoWordEpsilons) * eps * eps * permanent + visibility_underflow(reach)};
}

// (`points_of()` gives f's points, which only stages (2) and (3) read.)
template <Vector V, class PointsOf>
bool sees(const Facet<V>& f, const PointsOf& points_of, const V& w, const scalar_t<V>& w_reach) {
  using T = scalar_t<V>;
  const T nw = dot(f.normal, w);
  if constexpr (is_exact_v<T>) {
    return nw > f.offset;
  } else {
    using std::abs;
    using std::isfinite;
    // An overflow anywhere leaves a value infinite or NaN, which decides nothing: the next stage answers.
    const T s = nw - f.offset;
    if (isfinite(s) && abs(s) > visibility_rounding_bound(f, w_reach)) return s > 0;  // (1)
    const std::array<V, V::dimension> p = points_of();
    if (!is_finite(w) || std::any_of(p.begin(), p.end(), [](const V& q) { return !is_finite(q); })) return s > 0;
    const auto [det, bound] = orientation_two_word(p, w);
    if (isfinite(det.hi) && abs(det.hi) > bound) return det.hi > 0;  // (2)
    using VE = exact_vector_t<V>;  // (3)
    std::array<VE, V::dimension> pe;
    for (int k = 0; k < V::dimension; ++k) pe[k] = convert<Exact>(p[k]);
    return dot(ordered_normal(pe), VE(convert<Exact>(w) - pe[0])) > 0;
  }
}

// The facet through points p, in the order given (which must give the outward normal), with vertex indices `vertex`.
template <Vector V>
Facet<V> facet_through(const std::array<V, V::dimension>& p, const std::array<int, V::dimension>& vertex) {
  using T = scalar_t<V>;
  Facet<V> f;
  if constexpr (V::dimension == 3 && !is_exact_v<T>) {
    // The normal's own part of visibility's bound (per unit of R), for the form it was made in.
    const T eps = ScalarTraits<T>::epsilon();
    T magnitude;
    bool one_word;
    f.normal = floating_facet_normal(p, magnitude, one_word);
    f.rounding = one_word ? T(kVisibilityOneWordNormalEpsilons) * eps * magnitude
                          : T(kVisibilityTwoWordEpsilons) * eps * eps * T(4);  // E₁·E₂ < 4: edges in their own scale
  } else {
    f.normal = ordered_normal(p);
  }
  f.vertex = vertex;
  f.offset = dot(f.normal, p[0]);
  f.normal_squared = dot(f.normal, f.normal);
  f.squared_distance = (f.offset / f.normal_squared) * f.offset;
  if constexpr (!is_exact_v<T>) {
    using std::abs;
    // A facet whose normal rounded to zero (its points collinear up to rounding) has no area and names no direction:
    // never the nearest (its 0/0 would be a NaN, which no comparison orders).
    if (!(f.normal_squared > 0)) f.squared_distance = std::numeric_limits<T>::infinity();
    const T eps = ScalarTraits<T>::epsilon();
    T n1(0);
    for (int k = 0; k < V::dimension; ++k) n1 += abs(f.normal[k]);
    f.rounding += T(kVisibilityRoundingEpsilons) * eps * n1;
    for (const V& q : p) f.reach = std::max(f.reach, max_abs_component(q));
  }
  return f;
}

// A convex polytope of points of A⊖B, grown one point at a time.
template <Vector V>
class Polytope {
 public:
  using T = scalar_t<V>;
  static constexpr int D = V::dimension;

  // The simplex of D + 1 affinely independent points of `points` (the first such, in order), each facet oriented away
  // from the point it leaves out; then every other point added. Requires `points` to span the space.
  explicit Polytope(const std::vector<SupportPoint<V>>& points) {
    // Room for the growth typical of small clouds, so that most queries allocate once per vector.
    points_.reserve(points.size() + kReservedGrowth);
    facets_.reserve(2 * (points.size() + kReservedGrowth));
    ridges_.reserve(kReservedGrowth);
    Few<int, D + 1> base = {0};
    Few<V, D + 1> hull = {points[0].w};  // the points of `base`
    for (int i = 1; i < static_cast<int>(points.size()) && static_cast<int>(base.size()) < D + 1; ++i)
      if (off_affine_hull(hull, points[i].w)) base.push_back(i), hull.push_back(points[i].w);
    for (const int i : base) points_.push_back(points[i]);
    if (static_cast<int>(base.size()) < D + 1) return;  // flat: spans() is false (floating modes only)
    for (int skip = 0; skip <= D; ++skip) {  // the simplex's facets: each leaves one point out
      std::array<int, D> vertex{};
      for (int k = 0, j = 0; k <= D; ++k)
        if (k != skip) vertex[j++] = k;
      Facet<V> f = facet_through(facet_points(vertex), vertex);
      const V& left_out = points_[skip].w;
      if (sees(f, [&] { return facet_points(vertex); }, left_out, max_abs_component(left_out))) {
        // It points inward: the other order, whose normal and offset are these negated (exactly: the bounds of
        // `sees` hold for them as they do for these).
        std::swap(f.vertex[D - 2], f.vertex[D - 1]);
        f.normal = -f.normal;
        f.offset = -f.offset;
      }
      facets_.push_back(f);
    }
    for (int i = 0; i < static_cast<int>(points.size()); ++i)
      if (std::find(base.begin(), base.end(), i) == base.end()) grow(points[i]);
  }

  const std::vector<SupportPoint<V>>& points() const { return points_; }
  const std::vector<Facet<V>>& facets() const { return facets_; }
  std::array<V, D> facet_points(const std::array<int, D>& vertex) const {
    std::array<V, D> p;
    for (int k = 0; k < D; ++k) p[k] = points_[vertex[k]].w;
    return p;
  }
  // Has the polytope volume? Always in exact arithmetic (its first simplex is full-dimensional, and growth keeps
  // it); in floating modes rounding can leave it flat or with no facet.
  bool spans() const { return !facets_.empty(); }
  bool has_vertex(const SupportPoint<V>& w) const {
    return std::any_of(points_.begin(), points_.end(), [&w](const SupportPoint<V>& p) { return p.same_vertices(w); });
  }

  // Is facet f's distance to the origin, o/|n|, less than g's? (Both offsets ≥ 0: their squares compared.)
  static bool nearer(const Facet<V>& f, const Facet<V>& g) { return f.squared_distance < g.squared_distance; }
  static bool as_near(const Facet<V>& f, const Facet<V>& g) { return !nearer(f, g) && !nearer(g, f); }

  // P becomes conv(P ∪ {w}) for w outside P: the facets that see w (n·w > o, `sees`) go, and each ridge between a facet
  // that sees w and one that does not (a ridge of exactly one seeing facet) gets a facet joining it to w: the seeing
  // facet with w in the place of the point the ridge leaves out, which keeps its orientation outward (that point was
  // on the inner side of the new facet's plane, since w is beyond the seeing facet's). Returns false, changing nothing,
  // when no facet sees w (w in P).
  bool grow(const SupportPoint<V>& w) {
    ridges_.clear();  // each ridge of a seeing facet, with how many seeing facets have it
    const int index = static_cast<int>(points_.size());
    const T w_reach = max_abs_component(w.w);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < facets_.size(); ++i) {
      const Facet<V>& f = facets_[i];
      if (!sees(f, [&] { return facet_points(f.vertex); }, w.w, w_reach)) {
        if (kept != i) facets_[kept] = std::move(facets_[i]);
        ++kept;
        continue;
      }
      for (int skip = 0; skip < D; ++skip) {
        Ridge r{};
        for (int k = 0, j = 0; k < D; ++k)
          if (k != skip) r.sorted[j++] = f.vertex[k];
        if constexpr (D == 3) {  // the ridge's two indices in order (2D: one)
          if (r.sorted[1] < r.sorted[0]) std::swap(r.sorted[0], r.sorted[1]);
        }
        const auto same = [&r](const Ridge& q) {  // element by element (std::array's == is a memcmp call)
          for (int k = 0; k < D - 1; ++k)
            if (q.sorted[k] != r.sorted[k]) return false;
          return true;
        };
        const auto found = std::find_if(ridges_.begin(), ridges_.end(), same);
        if (found != ridges_.end()) {
          ++found->count;
          continue;
        }
        r.facet = f.vertex;
        r.facet[skip] = index;
        ridges_.push_back(r);
      }
    }
    if (kept == facets_.size()) return false;
    facets_.resize(kept);
    std::sort(ridges_.begin(), ridges_.end(), [](const Ridge& x, const Ridge& y) { return x.sorted < y.sorted; });
    points_.push_back(w);
    for (const Ridge& r : ridges_)
      if (r.count == 1) add_facet(r.facet);  // (a ridge of two seeing facets lies inside the part that goes)
    return true;
  }

 private:
  // A ridge (D − 1 vertex indices, sorted) of a facet that sees the point being added, how many such facets have it,
  // and the new facet it would get, oriented outward.
  struct Ridge {
    std::array<int, D - 1> sorted{};
    std::array<int, D> facet{};
    int count = 1;
  };

  // The facet through `vertex`, in that order, which must give the outward normal (the certificate's convention,
  // PenetrationCertificate).
  void add_facet(const std::array<int, D>& vertex) { facets_.push_back(facet_through(facet_points(vertex), vertex)); }

  static constexpr std::size_t kReservedGrowth = 32;  // a capacity, not a limit: vectors grow past it as needed
  std::vector<SupportPoint<V>> points_;
  std::vector<Facet<V>> facets_;
  std::vector<Ridge> ridges_;  // grow's scratch
};

// The weights of x, a point of facet f's plane, over f's points (x = Σ λᵢ pᵢ, Σ λᵢ = 1). 3D: the signed areas of the
// triangles x makes with each edge, over the facet's, both measured along n (the facet's being ±|n|² for the book's
// normal); 2D: the position along the edge.
// Floating scalars: the differences are scaled by one power of two 2^−e first (ratios of quantities of one degree, the
// same in any scale; a facet far smaller than the frame's unit would underflow them: ordered_normal). The normal is in
// its own scale, n = 2^−(k₁+k₂)·(p₁ − p₀) × (p₂ − p₀) up to rounding, so the facet's area along n is
// ±|n|²·2^(k₁+k₂−2e): taken so, as the book's |n|², it is not 0 for a facet with a direction (n·(d₃ × d₄), formed, can
// be, on a sliver).
template <Vector V>
std::array<scalar_t<V>, V::dimension> facet_weights(const Polytope<V>& polytope, const Facet<V>& f, const V& x) {
  using T = scalar_t<V>;
  using Tr = ScalarTraits<T>;
  std::array<V, V::dimension> p;
  for (int k = 0; k < V::dimension; ++k) p[k] = polytope.points()[f.vertex[k]].w;
  // The differences the weights are ratios of: each point from x, and the facet's edges from p₀.
  std::array<V, 2 * V::dimension - 1> d;
  for (int k = 0; k < V::dimension; ++k) d[k] = p[k] - x;
  for (int k = 1; k < V::dimension; ++k) d[V::dimension + k - 1] = p[k] - p[0];
  // Floating, 3D: k₁ + k₂ − 2e, the power of two between |n|² and the facet's area along n in d's scale.
  [[maybe_unused]] int area_exponent = 0;
  if constexpr (!is_exact_v<T>) {
    T largest(0);
    for (const V& v : d) largest = std::max(largest, max_abs_component(v));
    if (largest > 0 && Tr::is_finite(largest)) {
      const int e = Tr::frame_exponent(largest);
      for (int k = V::dimension; k < 2 * V::dimension - 1; ++k)  // the edges' exponents, as ordered_normal takes them
        area_exponent += Tr::frame_exponent(max_abs_component(d[k])) - e;
      for (V& v : d) v = scale_by_power_of_two(v, -e);
    }
  }
  std::array<T, V::dimension> lambda{};
  if constexpr (V::dimension == 3) {
    const T sign = dot(f.normal, cross(d[3], d[4])) > 0 ? T(1) : T(-1);  // n pointing either way
    const T whole = sign * Tr::scale_by_power_of_two(dot(f.normal, f.normal), area_exponent);
    lambda[0] = dot(f.normal, cross(d[1], d[2])) / whole;
    lambda[1] = dot(f.normal, cross(d[2], d[0])) / whole;
    lambda[2] = T(1) - lambda[0] - lambda[1];
  } else {
    lambda[1] = -dot(d[0], d[2]) / dot(d[2], d[2]);  // (x − p₀)·e/|e|², e = p₁ − p₀
    lambda[0] = T(1) - lambda[1];
  }
  return lambda;
}

// GJK's answer "intersecting" with the simplex of the first `size` of `points`, as EPA starts from it: `encloses` when
// they enclose the origin (a full simplex), else the origin lies on it. (certified_penetration starts from a simplex
// proven to enclose the origin; the tests, from hand-made ones.)
template <Vector V>
Result<V> intersecting_answer(const std::vector<SupportPoint<V>>& points, int size, bool encloses) {
  Result<V> gjk;
  gjk.status = Status::Intersecting;
  gjk.stop_rule = encloses ? StopRule::Enclosed : StopRule::OriginOnSimplex;
  gjk.simplex.size = size;
  gjk.simplex.encloses_origin = encloses;
  for (int k = 0; k < size; ++k) gjk.simplex.points[k] = points[k];
  return gjk;
}

// The power-of-two frame the floating modes hold A⊖B's points in: the second marked departure from the book, for range
// (exact scalars have none: every member below is the identity for them). A facet's quantities are polynomials in the
// points' coordinates c — its offset of degree 1 and its squared distance of degree 2 once its normal is in its own
// scale (ordered_normal; the book's normal is of degree D − 1 and |n|² of 2D − 2) — so in the points' own scale they
// leave the floating range before the points do (the squared distance in float from |c| ≈ 2^64, and below 2^−64).
// Every point of A⊖B is therefore scaled by 2^−exponent as it arrives, exactly (but for subnormals),
// with the exponent fixed for the query so that the largest coordinate of the start's points lies in [1, 2); the
// translation and the squared depth are scaled back at the end, the normal (of any length) is left in the frame, and
// the witnesses come from A's and B's own points, unscaled. Scaling the input by 2^k then scales every answer by 2^k
// bit for bit, as in GJK's frame (EpaFailureModes.ScalingByAPowerOfTwoScalesEveryAnswerExactly). A start whose points
// are all the origin (the origin a vertex of A⊖B) fixes the frame from the first other point the blow-up meets.
// The start's points can be far smaller than A⊖B (a tiny vertex of A⊖B at the origin beside a unit-size rest): a later
// point may then lie beyond the frame's headroom (`holds`), where its facets' quantities would leave the range, and EPA
// starts over from the start in the frame `around` that point (expand). Each restart raises the exponent by at least
// the headroom, so there are at most (the exponent range)/headroom of them (17 in float, 16 in double and long
// double); the answer is that of a frame every point met fits
// (EpaFailureModes.ATinyStartBesideAUnitDifferenceStartsOverInALargerFrame). The start's points may then be far
// smaller than the frame's unit: their facets keep their normals in their own scale (ordered_normal).
template <Vector V>
struct EpaFrame {
  int exponent = 0;
  bool fixed = false;  // false while every point seen is the origin (then the first other point fixes it)

  // How far above [1, 2) a point's largest coordinate may lie in the frame: 2^headroom, an eighth of the exponent
  // range (float 2^16, double 2^128, long double 2^2048). With each normal in its own scale (ordered_normal), the
  // quantities formed in the frame have degree at most 2 in the coordinates (a facet's offset 1, its squared distance
  // o²/|n|² and a point's |x|² 2; the one exception, visibility's two-word orientation, of degree D, decides nothing
  // when it overflows: sees), so points below 2^headroom keep them below 2^(max_exponent/4), far from the top of the
  // range. At the bottom the squared distance still underflows, for a facet within about 2^−(max_exponent/2) of the
  // frame's unit from the origin: such facets are as near as one another (docs/edge-cases.md, finding 29). Not a
  // tolerance: a range bound, and any value with that property gives the same answers on inputs that never reach it
  // (EpaFailureModes.ATinyStartBesideAUnitDifferenceStartsOverInALargerFrame).
  static constexpr int headroom = [] {
    if constexpr (is_exact_v<scalar_t<V>>)
      return 0;
    else
      return std::numeric_limits<scalar_t<V>>::max_exponent / 8;
  }();

  template <class Points>
  static EpaFrame of(const Points& points, int count) {
    EpaFrame f;
    for (int i = 0; i < count; ++i) f.fix(points[i].w);
    return f;
  }
  // The frame that w's largest coordinate fixes: where EPA starts over when w lies beyond the headroom.
  static EpaFrame around(const V& w) {
    EpaFrame f;
    f.fix(w);
    return f;
  }
  // Does w, a point of A⊖B as the support gave it, fit the frame: its largest coordinate below 2^(exponent +
  // headroom)? (Exact scalars, an unfixed frame, and points that are not finite: yes — no frame holds the last, and a
  // restart would not end.)
  bool holds(const V& w) const {
    if constexpr (is_exact_v<scalar_t<V>>) {
      return true;
    } else {
      using std::isfinite;
      const scalar_t<V> largest = max_abs_component(w);
      if (!fixed || !(largest > 0) || !isfinite(largest)) return true;
      return ScalarTraits<scalar_t<V>>::frame_exponent(largest) < exponent + headroom;
    }
  }
  // Fixes the exponent from the largest coordinate of the points given so far, the first time one is not zero.
  void fix(const V& w) {
    if constexpr (!is_exact_v<scalar_t<V>>) {
      using std::isfinite;
      const scalar_t<V> largest = max_abs_component(w);
      if (largest > 0 && isfinite(largest)) {
        const int e = ScalarTraits<scalar_t<V>>::frame_exponent(largest);
        if (!fixed || e > exponent) exponent = e;
        fixed = true;
      }
    }
  }
  SupportPoint<V> in(SupportPoint<V> p) const {
    if constexpr (!is_exact_v<scalar_t<V>>) p.w = scale_by_power_of_two(p.w, -exponent);
    return p;
  }
  // A point met while the start is blown up: it fixes the frame if every point before it was the origin (which
  // scales to itself in any frame).
  SupportPoint<V> in_fixing(const SupportPoint<V>& p) {
    if (!fixed) fix(p.w);
    return in(p);
  }
  V out(const V& x) const {
    if constexpr (is_exact_v<scalar_t<V>>)
      return x;
    else
      return scale_by_power_of_two(x, exponent);
  }
  scalar_t<V> out_squared(const scalar_t<V>& x) const {
    if constexpr (is_exact_v<scalar_t<V>>)
      return x;
    else
      return ScalarTraits<scalar_t<V>>::scale_by_power_of_two(x, 2 * exponent);
  }
};

// The start of EPA for intersecting shapes (see the top of the file): the points of a full-dimensional polytope
// containing the origin, or the normal of a plane through the origin that supports A⊖B (the shapes touch).
template <Vector V>
struct Start {
  std::vector<SupportPoint<V>> points;
  std::optional<V> touching_normal;
  std::optional<V> outgrown;  // a point of A⊖B beyond the frame's headroom (EpaFrame::holds): start over around it
  bool overflowed = false;    // a support point a − b beyond the scalar's range (floating modes): no answer
  int expansions = 0;
};

// A direction orthogonal to the span of `spanning` (linearly independent vectors, fewer than the dimension).
template <Vector V, class Spanning>
V orthogonal_direction(const Spanning& spanning) {
  using T = scalar_t<V>;
  const auto axis = [](int k) {
    V e{};
    e[k] = T(1);
    return e;
  };
  if (spanning.empty()) return axis(0);
  if constexpr (V::dimension == 2) {
    return V{scalar_t<V>(-spanning[0][1]), spanning[0][0]};
  } else {
    if (spanning.size() == 2) return cross(spanning[0], spanning[1]);
    for (int k = 0; k < 3; ++k)  // one spanning vector u: u × e_k for an axis not along u
      if (const V n = cross(spanning[0], axis(k)); !is_zero(n)) return n;
    return axis(0);  // unreachable: u ≠ 0 is along at most one axis
  }
}

// One step of the blow-up in floating modes: the departure (the fourth) that the book's single sign, h_D(d) > 0 or
// not, needs once GJK's touching band has stopped on a simplex the origin is only near, and once d is orthogonal to
// the hull only up to rounding. Two questions, each answered beyond rounding:
//   - OffTheHull, off_affine_hull(hull, w): w adds a dimension, beyond the rounding of the determinant that says so
//     (tolerances.hpp, kVolumeRoundingEpsilons' third use), by the same test that Polytope's first simplex is chosen
//     with. Without a margin, a w on a segment's line would pass by rounding noise, and the next direction, a cross
//     product of two parallel vectors, would be noise too.
//   - Touching, d·w ≤ τ·|d|·R, with τ = kTouchingEpsilons·ε and R the largest length of the points gathered and of w
//     (in the frame): the plane d·x = 0 through the origin supports D to within GJK's own touching band, so the
//     normal d's directional depth h_D(d)/|d| exceeds PD ≥ 0 by at most τ·R ≤ 64·√3·ε·M ≈ 111·ε·M and rounding, inside
//     the contract's kContractDistanceEpsilons·ε·M (the verdict band's own budget).
//   - Undecided, neither: w lies on the hull up to rounding, yet reaches along d beyond GJK's band (the hull, which
//     GJK's band lets stand off the origin, nearly does so itself). No normal and no new dimension can be vouched for
//     from this side; w is kept as a point of A⊖B, and the caller looks from the other side, −d, whose point can add
//     the dimension or show the touching plane. Only when both sides are undecided does the caller answer
//     rounding-failure.
// In exact arithmetic (ε = 0, d·first = 0) the first two are the book's test and its negation, and the third is empty.
enum class BlowUp { OffTheHull, Touching, Undecided };

template <Vector V, class Hull>
BlowUp blow_up_step(const V& d, const V& w, const Hull& hull, scalar_t<V> radius) {
  using T = scalar_t<V>;
  using std::sqrt;
  if (off_affine_hull(hull, w)) return BlowUp::OffTheHull;
  const T tau = T(kTouchingEpsilons) * ScalarTraits<T>::epsilon();
  if (!(dot(d, w) > tau * sqrt(dot(d, d)) * std::max(radius, T(sqrt(dot(w, w)))))) return BlowUp::Touching;
  return BlowUp::Undecided;
}

template <SupportMapping A, SupportMapping B, Vector V = typename A::vector_type>
Start<V> start_polytope(const A& a, const B& b, const Simplex<V>& s, EpaFrame<V>& frame) {
  Start<V> start;
  start.points.reserve(s.size + 2 * V::dimension);  // GJK's points, and at most two per dimension the blow-up adds
  for (int i = 0; i < s.size; ++i) start.points.push_back(frame.in(s.points[i]));
  // The points' affine hull, from the first point on (the origin is in their convex hull, so its directions span
  // the points; in floating modes GJK's touching band can stop on a simplex the origin is only near, and then the
  // affine hull is the one to blow up). An enclosing simplex spans the space, but in floating modes perhaps only up
  // to rounding (off_affine_hull): then it is blown up like a flat one.
  Few<V, V::dimension + 1> hull;
  Few<int, V::dimension + 1> in_hull;  // the hull's points' indices in start.points
  for (int i = 0; i < static_cast<int>(start.points.size()); ++i)
    if (static_cast<int>(hull.size()) <= V::dimension && (hull.empty() || off_affine_hull(hull, start.points[i].w)))
      hull.push_back(start.points[i].w), in_hull.push_back(i);
  const V first = hull[0];
  while (static_cast<int>(hull.size()) <= V::dimension) {
    Few<V, V::dimension> spanning;  // the hull's directions
    for (std::size_t k = 1; k < hull.size(); ++k) spanning.push_back(hull[k] - first);
    // The normal of a plane in 3D is rounded once, as a sliver facet's (the third departure: the hull may be one).
    V n;
    if constexpr (V::dimension == 3 && !is_exact_v<scalar_t<V>>)
      n = hull.size() == 3 ? facet_normal_two_word(hull[0], hull[1], hull[2]) : orthogonal_direction<V>(spanning);
    else
      n = orthogonal_direction<V>(spanning);
    if constexpr (!is_exact_v<scalar_t<V>>) n = in_own_scale(n);  // a direction, in its own scale (ordered_normal)
    if constexpr (!is_exact_v<scalar_t<V>>) {
      if (is_zero(n)) return start;  // no direction off the span survived rounding: the polytope will not span
    }
    std::optional<int> off;  // the index in start.points of a point off the hull, from either side
    for (const V& d : {n, V(-n)}) {
      const SupportPoint<V> support = minkowski_support(a, b, d);
      ++start.expansions;
      if (!is_finite(support.w)) {
        start.overflowed = true;
        return start;
      }
      if (!frame.holds(support.w)) {
        start.outgrown = support.w;
        return start;
      }
      const SupportPoint<V> w = frame.in_fixing(support);
      if constexpr (is_exact_v<scalar_t<V>>) {
        // Does D reach off the span along d? `first` lies in the span through the origin, so d·first = 0 and
        // d·(w − first) = h_D(d).
        if (!(dot(d, V(w.w - first)) > 0)) {  // h_D(d) = 0: the plane d·x = 0 supports D, through the origin
          start.touching_normal = d;
          return start;
        }
      } else {
        using std::sqrt;
        scalar_t<V> radius(0);
        for (const auto& q : start.points) radius = std::max(radius, scalar_t<V>(sqrt(dot(q.w, q.w))));
        const BlowUp step = blow_up_step(d, w.w, hull, radius);
        if (step == BlowUp::Touching) {
          start.touching_normal = d;
          return start;
        }
        if (step == BlowUp::Undecided) {  // a point of A⊖B all the same, but no new dimension: the other side may give one
          start.points.push_back(w);
          continue;
        }
      }
      start.points.push_back(w);
      off = static_cast<int>(start.points.size()) - 1;
    }
    if constexpr (!is_exact_v<scalar_t<V>>) {
      if (!off) return start;  // both sides undecided: no new dimension to vouch for, and the polytope will not span
    }
    hull.push_back(start.points[*off].w);  // off the hull (exact: d·(w − first) > 0)
    in_hull.push_back(*off);
  }
  // The hull's points first, in its order: the polytope's first simplex is then this one, chosen by the same tests.
  bool in_order = true;
  for (std::size_t k = 0; k < in_hull.size(); ++k) in_order = in_order && in_hull[k] == static_cast<int>(k);
  if (in_order) return start;
  std::vector<SupportPoint<V>> ordered;
  for (const int i : in_hull) ordered.push_back(start.points[i]);
  for (int i = 0; i < static_cast<int>(start.points.size()); ++i)
    if (std::find(in_hull.begin(), in_hull.end(), i) == in_hull.end()) ordered.push_back(start.points[i]);
  start.points = std::move(ordered);
  return start;
}

}  // namespace detail

namespace detail {

// The stop: does facet f's plane support A⊖B, given w, the support point of A⊖B along its normal n?
//   The book (exact scalars): yes when n·w ≤ o — w, the farthest point of A⊖B along n, lies on the plane.
//   The departure (floating scalars), the one place rounding forces one in the test: n·w and o are each rounded by a
//   few ε·|n|·R (R the largest coordinate of the facet's points and w), so a supporting plane can show n·w a little
//   above o (a coplanar vertex of A⊖B: the faces of boxes), and EPA would grow by points on the plane, again and
//   again. So the plane also counts as supporting
//   - when n·w − o ≤ epa_gap()·|n·w| (tolerances.hpp): the depth is then known to a relative epa_gap();
//   - when the plane passes within epa_touching()·R of the origin, o ≤ epa_touching()·|n|·R, and A⊖B reaches past it
//     by as little, n·w − o ≤ epa_touching()·|n|·R: a gap relative to |n·w| ≈ 0 cannot be met there, and growing by
//     points a rounding error beyond a plane through the origin builds slivers whose planes mean nothing. The depth
//     o/|n| and PD then both lie within 2·epa_touching()·R = 2^6·ε·R of 0 (PD ≤ h(n)/|n| = (o + excess)/|n|);
//   - when w is already a vertex of the polytope (a vertex of f, or a coplanar one of a neighbour: in exact arithmetic
//     it lies on or behind f's plane, the polytope being convex) and n·w − o ≤ epa_gap()·|n|·R, within the rounding's
//     scale (the plane then supports A⊖B to within epa_gap()·R ≤ 2^7·ε·M, the contract's allowance). A vertex farther
//     beyond would mean the polytope is not convex, which the exact visibility (`sees`) rules out on its points: not
//     supporting, and the caller, which cannot grow by a vertex it has, gives no answer.
template <Vector V>
bool supported_by(const Facet<V>& f, const SupportPoint<V>& w, const Polytope<V>& polytope) {
  using T = scalar_t<V>;
  const T nw = dot(f.normal, w.w);
  if constexpr (is_exact_v<T>) {
    return !(nw > f.offset);
  } else {
    using std::abs;
    using std::sqrt;
    const T excess = nw - f.offset;
    if (!(excess > Tolerances<T>::epa_gap() * abs(nw))) return true;
    T largest = max_abs_component(w.w);
    for (const int i : f.vertex) largest = std::max(largest, max_abs_component(polytope.points()[i].w));
    const T size = sqrt(f.normal_squared) * largest;  // |n|·R: the scale of the rounding in n·x
    const T near = Tolerances<T>::epa_touching() * size;
    if (!(f.offset > near) && !(excess > near)) return true;
    if (!polytope.has_vertex(w)) return false;
    return !(excess > Tolerances<T>::epa_gap() * size);
  }
}

// EPA in one frame, from GJK's simplex in p.gjk (intersecting) or from `known`: fills p and returns nothing, or returns
// a point of A⊖B that does not fit the frame (EpaFrame::holds), leaving p's answer unset; expand() then starts over in
// the frame around that point. p.expansions counts on across such restarts.
template <SupportMapping A, SupportMapping B, Vector V = typename A::vector_type>
std::optional<V> expand_in_frame(const A& a, const B& b, Penetration<V>& p, EpaFrame<V> frame, int max_expansions,
                                 const std::vector<SupportPoint<V>>* known) {
  using T = scalar_t<V>;
  // Touching: depth 0, the normal of a plane through the origin that supports A⊖B, GJK's common point and simplex.
  const auto touching = [&p](const V& normal) {
    p.status = PenetrationStatus::Touching;
    p.normal = normal;
    p.witness_a = p.gjk.witness_a;
    p.witness_b = p.gjk.witness_b;
    p.facet_size = std::min(p.gjk.simplex.size, V::dimension);
    for (int i = 0; i < p.facet_size; ++i) {
      p.facet[i] = p.gjk.simplex.points[i];
      p.weights[i] = p.gjk.simplex.weights[i];
    }
    return std::optional<V>();
  };
  Start<V> start;
  if (known) {
    start.points.reserve(known->size());
    for (const auto& q : *known) start.points.push_back(frame.in(q));
  } else {
    start = start_polytope(a, b, p.gjk.simplex, frame);
  }
  // A support point a − b beyond the scalar's range (finite inputs near its top; floating modes only): as GJK does
  // (InputError::DifferenceOverflow), EPA stops with the status, where the overflowed point would leave infinities and
  // NaNs in every facet built on it. Its frame holds no such point (EpaFrame::holds), so no restart could help.
  const auto overflow = [&p]() {
    p.status = PenetrationStatus::InvalidInput;
    p.gjk.input_error = InputError::DifferenceOverflow;
    return std::optional<V>();
  };
  p.expansions += start.expansions;
  if (start.overflowed) return overflow();
  if (start.outgrown) return start.outgrown;
  if (start.touching_normal) return touching(*start.touching_normal);
  Polytope<V> polytope(start.points);
  const auto rounding_failure = [&p]() {
    p.status = PenetrationStatus::RoundingFailure;
    return std::optional<V>();
  };
  for (;;) {
    if (!polytope.spans()) return rounding_failure();
    const auto& facets = polytope.facets();
    const Facet<V>* nearest = &facets[0];
    for (const auto& f : facets)
      if (Polytope<V>::nearer(f, *nearest)) nearest = &f;
    if constexpr (!is_exact_v<T>) {  // a normal that underflowed in the frame names no direction to search along
      if (!(nearest->normal_squared > 0)) return rounding_failure();
    }
    const SupportPoint<V> support = minkowski_support(a, b, nearest->normal);
    if (!is_finite(support.w)) return overflow();
    if (!frame.holds(support.w)) return support.w;
    const SupportPoint<V> w = frame.in(support);
    if (!supported_by(*nearest, w, polytope)) {  // D reaches past the nearest facet's plane: grow
      if constexpr (!is_exact_v<T>) {
        // w beyond the nearest facet's plane, beyond rounding, yet already a vertex of the polytope (supported_by):
        // the polytope would not be convex, which `sees` rules out; kept so that no query can loop on a vertex it has.
        // Growing by w changes nothing, and the facet's plane does not support A⊖B: there is no answer to give.
        if (polytope.has_vertex(w)) return rounding_failure();
      }
      if (p.expansions >= max_expansions) {
        p.status = PenetrationStatus::IterationLimit;
        return std::optional<V>();
      }
      ++p.expansions;
      if (polytope.grow(w)) continue;
      // No facet sees w: unreachable in exact arithmetic (the nearest facet does); in floating modes the plane is
      // taken as supporting, as in supported_by.
    }
    if (!(nearest->offset > 0)) return touching(nearest->normal);  // the plane through the origin supports D
    // The nearest facet's plane supports D: PD is its distance. The answer's facet: among facets as near, the first
    // whose own projection of the origin lies in it (one does: the ray to the nearest boundary point leaves P through
    // a facet at that distance), its plane checked to support D (so the answer stands on its own). Floating modes,
    // where rounding can refuse every facet a weight or the check: the nearest facet.
    std::optional<V> outgrown;  // a support point met in the checks that does not fit the frame
    bool overflowed = false;    // or that overflowed
    const auto holds_the_answer = [&](const Facet<V>& f) {
      if (&f == nearest && !is_exact_v<T>) return true;
      if (!Polytope<V>::as_near(f, *nearest)) return false;
      const V t = (f.offset / dot(f.normal, f.normal)) * f.normal;
      const auto lambda = facet_weights(polytope, f, t);
      if (std::any_of(lambda.begin(), lambda.end(), [](const T& l) { return !(l >= 0); })) return false;  // NaN too
      const SupportPoint<V> support = minkowski_support(a, b, f.normal);
      if (!is_finite(support.w)) {
        overflowed = true;
        return false;
      }
      if (!frame.holds(support.w)) {
        outgrown = support.w;
        return false;
      }
      return supported_by(f, frame.in(support), polytope);
    };
    for (const auto& f : facets) {
      if (!holds_the_answer(f)) {
        if (overflowed) return overflow();
        if (outgrown) return outgrown;
        continue;
      }
      const V t = (f.offset / dot(f.normal, f.normal)) * f.normal;  // the origin's projection onto f's plane
      const auto lambda = facet_weights(polytope, f, t);
      p.status = PenetrationStatus::Penetrating;
      p.translation = frame.out(t);
      p.squared_depth = frame.out_squared(dot(t, t));
      p.normal = f.normal;
      p.facet_size = V::dimension;
      for (int k = 0; k < V::dimension; ++k) {
        p.facet[k] = polytope.points()[f.vertex[k]];
        p.facet[k].w = p.facet[k].a - p.facet[k].b;  // the point as the support gave it, not scaled twice
        p.weights[k] = lambda[k];
      }
      p.witness_a = lambda[0] * p.facet[0].a;
      p.witness_b = lambda[0] * p.facet[0].b;
      for (int k = 1; k < V::dimension; ++k) {
        p.witness_a = p.witness_a + lambda[k] * p.facet[k].a;
        p.witness_b = p.witness_b + lambda[k] * p.facet[k].b;
      }
      if constexpr (!is_exact_v<T>) {  // a facet whose normal underflowed: no number to give (never a NaN)
        if (!is_finite(p.translation) || !is_finite(p.witness_a) || !is_finite(p.witness_b)) {
          p.translation = p.normal = p.witness_a = p.witness_b = V{};
          p.squared_depth = T(0);
          p.facet = {};
          p.weights = {};
          p.facet_size = 0;
          return rounding_failure();
        }
      }
      p.certificate.points.reserve(polytope.points().size());
      p.certificate.facets.reserve(facets.size());
      for (const auto& q : polytope.points()) p.certificate.points.push_back({q.index_a, q.index_b});
      for (const auto& g : facets) {
        if (&g == &f) p.certificate.answer = static_cast<int>(p.certificate.facets.size());
        p.certificate.facets.push_back(g.vertex);
      }
      return std::optional<V>();
    }
    p.status = PenetrationStatus::IterationLimit;  // unreachable by the argument above: no unproven answer
    return std::optional<V>();
  }
}

// EPA from GJK's answer `gjk` (its simplex, when intersecting); penetration() below runs GJK first. Tests call it with
// hand-made simplices, in every order of their points. `known`: points of A⊖B to start from instead (the polytope of
// an earlier EPA: certified_penetration's exact finish), whose hull must hold the origin in its interior, as gjk's
// simplex does. The frame is fixed from the start's points and, when a point met later does not fit it, from that
// point, EPA starting over (EpaFrame): exact scalars run expand_in_frame once.
template <SupportMapping A, SupportMapping B, Vector V = typename A::vector_type>
Penetration<V> expand(const A& a, const B& b, Result<V> gjk, int max_expansions,
                      const std::vector<SupportPoint<V>>* known = nullptr) {
  Penetration<V> p;
  p.gjk = std::move(gjk);
  switch (p.gjk.status) {
    case Status::Separated: p.status = PenetrationStatus::Separated; return p;
    case Status::IterationLimit: p.status = PenetrationStatus::IterationLimit; return p;
    case Status::InvalidInput: p.status = PenetrationStatus::InvalidInput; return p;
    case Status::Intersecting: break;
  }
  EpaFrame<V> frame = known ? EpaFrame<V>::of(*known, static_cast<int>(known->size()))
                            : EpaFrame<V>::of(p.gjk.simplex.points, p.gjk.simplex.size);
  while (const std::optional<V> outgrown = expand_in_frame(a, b, p, frame, max_expansions, known))
    frame = EpaFrame<V>::around(*outgrown);
  return p;
}

}  // namespace detail

// The penetration depth of A and B: GJK first, then EPA when they intersect. Exact scalars (gjkref/exact.hpp) give the
// exact answer; floating ones an answer within docs/contract.md, with its certificate.
template <SupportMapping A, SupportMapping B>
requires std::same_as<typename A::vector_type, typename B::vector_type> Penetration<typename A::vector_type>
penetration(const A& a, const B& b, const PenetrationOptions<typename A::vector_type>& options = {}) {
  return detail::expand(a, b, distance(a, b, options.gjk), options.max_expansions);
}

// ==== Contact features ================================================================================================
//
// Along an outward normal n of A⊖B at the answer (B moves along n to separate), the face of A⊖B with that normal is
// F_A(n) ⊖ F_B(−n): F_A(n) the face of A on its supporting plane with outward normal n (the vertices maximising n·a),
// F_B(−n) the face of B on the parallel plane facing it (the vertices minimising n·b). After B moves by the
// translation, the two planes coincide and the shapes meet in F_A(n) ∩ (F_B(−n) + t), the contact patch. Their
// dimensions name the contact: vertex–face, edge–edge, face–face, ... (2D: vertex–edge, edge–edge). A penetrating
// answer's normal is a facet normal of A⊖B, so dim F_A + dim F_B ≥ dimension − 1.
//
// The reference reports the features along the normal it answers with. When several normals are optimal (several
// facets of A⊖B at the same distance, as for concentric cubes), that is the normal of the facet the solver ended on
// (certified: the nearest facet check_penetration settles on, starting from the solver's); each optimal normal has
// its own features. (docs/edge-cases.md, "Penetration depth".)
struct ContactFeature {
  std::vector<std::size_t> vertices;  // the shape's vertices on its supporting plane, ascending
  int dimension = 0;                  // of their affine hull: 0 a vertex, 1 an edge, 2 a face
};

struct ContactFeatures {
  ContactFeature a, b;
};

inline const char* feature_name(int dimension) {
  switch (dimension) {
    case 0: return "vertex";
    case 1: return "edge";
    case 2: return "face";
  }
  return "?";
}

namespace detail {

// The vertices x_i of a shape (i in 0..count, `vertex(i)` exact) with the largest n·x_i, skipping those `candidate`
// rules out, and the dimension of their affine hull. Exact: every comparison is.
template <Vector VE, class Vertex, class Candidate>
ContactFeature supporting_feature(std::size_t count, const Vertex& vertex, const VE& n, const Candidate& candidate) {
  ContactFeature out;
  std::optional<scalar_t<VE>> best;
  std::vector<VE> on;
  for (std::size_t i = 0; i < count; ++i) {
    if (!candidate(i)) continue;
    const VE x = vertex(i);
    const scalar_t<VE> h = dot(n, x);
    if (best && h < *best) continue;
    if (!best || *best < h) {
      best = h;
      out.vertices.clear();
      on.clear();
    }
    out.vertices.push_back(i);
    on.push_back(x);
  }
  // The affine dimension: one less than the number of points that leave the affine hull of those kept before them (at
  // most dimension of them, the points lying on one plane).
  std::vector<VE> hull;
  for (const VE& x : on)
    if (static_cast<int>(hull.size()) < VE::dimension && (hull.empty() || off_affine_hull(hull, x))) hull.push_back(x);
  out.dimension = hull.empty() ? 0 : static_cast<int>(hull.size()) - 1;
  return out;
}

}  // namespace detail

// The contact features of A and B along an outward normal n of A⊖B (n ≠ 0; Penetration::normal, penetrating or
// touching), exact. O(n_A + n_B) exact dot products; certified_penetration gives them for double input with a
// floating-point pass in front.
template <IndexedShape A, IndexedShape B, Vector V = typename A::vector_type>
requires std::same_as<V, typename B::vector_type> && is_exact_v<scalar_t<V>>
ContactFeatures contact_features(const A& a, const B& b, const V& n) {
  const auto all = [](std::size_t) { return true; };
  return {detail::supporting_feature(a.size(), [&](std::size_t i) { return a.vertex(i); }, n, all),
          detail::supporting_feature(b.size(), [&](std::size_t i) { return b.vertex(i); }, V(-n), all)};
}

// ---- The contact patch ----------------------------------------------------------------------------------------------
//
// After B moves by the translation t the shapes meet in conv F_A(n) ∩ conv(F_B(−n) + t), a convex set in the contact
// plane: a polygon (face–face), a segment (face–edge, edge–edge in 2D) or a point (a vertex, crossed edges). It is
// computed in the plane: 3D points are projected by dropping the coordinate where |n| is largest (which keeps convexity
// and order), each feature becomes its convex hull, one hull is clipped by the other's edges, and the result is
// lifted back onto A's plane n·x = h_A(n). Every step is exact.

namespace detail {

template <class T>
using Planar = std::array<T, 2>;

// (q − p) × (r − p): > 0 when r is left of the line p → q.
template <class T>
T turn(const Planar<T>& p, const Planar<T>& q, const Planar<T>& r) {
  return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]);
}

// The convex hull of `points`, counter-clockwise, without collinear points (Andrew's monotone chain): one point, the
// two ends of a segment, or a polygon.
template <class T>
std::vector<Planar<T>> planar_hull(std::vector<Planar<T>> points) {
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  if (points.size() < 3) return points;
  std::vector<Planar<T>> hull(2 * points.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {  // lower chain
    while (k >= 2 && !(turn(hull[k - 2], hull[k - 1], points[i]) > 0)) --k;
    hull[k++] = points[i];
  }
  for (std::size_t i = points.size() - 1, lower = k + 1; i-- > 0;) {  // upper chain
    while (k >= lower && !(turn(hull[k - 2], hull[k - 1], points[i]) > 0)) --k;
    hull[k++] = points[i];
  }
  hull.resize(k - 1);  // the last point is the first
  if (hull.size() == 2 && hull[0] == hull[1]) hull.resize(1);
  return hull;
}

// The part of the convex set `subject` (a hull as above) on the closed left side of the line p → q: Sutherland and
// Hodgman's step, which also clips a point or a segment (a two-point "polygon" run there and back).
template <class T>
std::vector<Planar<T>> clip_left(const std::vector<Planar<T>>& subject, const Planar<T>& p, const Planar<T>& q) {
  std::vector<Planar<T>> out;
  const std::size_t count = subject.size();
  for (std::size_t i = 0; i < count; ++i) {
    const Planar<T>& x = subject[i];
    const Planar<T>& y = subject[(i + 1) % count];
    const T sx = turn(p, q, x), sy = turn(p, q, y);
    if (sx >= 0) out.push_back(x);
    if ((sx > 0 && sy < 0) || (sx < 0 && sy > 0)) {  // the edge x → y crosses the line
      const T f = sx / (sx - sy);
      out.push_back({x[0] + f * (y[0] - x[0]), x[1] + f * (y[1] - x[1])});
    }
  }
  return planar_hull(std::move(out));
}

// conv(P) ∩ conv(Q) for hulls P and Q in the plane.
template <class T>
std::vector<Planar<T>> planar_intersection(std::vector<Planar<T>> p, std::vector<Planar<T>> q) {
  if (p.size() >= 3 && q.size() < 3) std::swap(p, q);
  if (q.size() >= 3) {  // clip p by each edge of the polygon q
    for (std::size_t i = 0; i < q.size() && !p.empty(); ++i) p = clip_left(p, q[i], q[(i + 1) % q.size()]);
    return p;
  }
  // Points and segments: clip each by the other's line and its ends' perpendicular half-planes, as a degenerate
  // polygon. A point against a point or a segment: kept when on it.
  const auto on = [](const std::vector<Planar<T>>& s, const Planar<T>& x) {  // x in the point or segment s
    if (s.size() == 1) return s[0] == x;
    if (turn(s[0], s[1], x) != 0) return false;
    const T along = (x[0] - s[0][0]) * (s[1][0] - s[0][0]) + (x[1] - s[0][1]) * (s[1][1] - s[0][1]);
    const T length = (s[1][0] - s[0][0]) * (s[1][0] - s[0][0]) + (s[1][1] - s[0][1]) * (s[1][1] - s[0][1]);
    return along >= 0 && along <= length;
  };
  if (p.size() == 1 || q.size() == 1) {
    const auto& point = p.size() == 1 ? p : q;
    const auto& other = p.size() == 1 ? q : p;
    return on(other, point[0]) ? point : std::vector<Planar<T>>{};
  }
  const T sp0 = turn(q[0], q[1], p[0]), sp1 = turn(q[0], q[1], p[1]);
  if (sp0 == 0 && sp1 == 0) {  // collinear: the overlap of the two intervals
    std::vector<Planar<T>> out;
    for (const auto& x : p)
      if (on(q, x)) out.push_back(x);
    for (const auto& x : q)
      if (on(p, x)) out.push_back(x);
    return planar_hull(std::move(out));
  }
  if ((sp0 > 0 && sp1 > 0) || (sp0 < 0 && sp1 < 0)) return {};
  const T f = sp0 / (sp0 - sp1);  // where p crosses q's line
  const Planar<T> x{p[0][0] + f * (p[1][0] - p[0][0]), p[0][1] + f * (p[1][1] - p[0][1])};
  return on(q, x) ? std::vector<Planar<T>>{x} : std::vector<Planar<T>>{};
}

}  // namespace detail

// The contact patch along an outward normal n of A⊖B, for B translated by t (Penetration::translation; 0 when
// touching) and the features `f` = contact_features(a, b, n): its vertices in order around it (one point, the two ends
// of a segment, or a convex polygon), on A's supporting plane. Exact scalars; empty only if t is not the translation.
template <IndexedShape A, IndexedShape B, Vector V = typename A::vector_type>
requires std::same_as<V, typename B::vector_type> && is_exact_v<scalar_t<V>>
std::vector<V> contact_patch(const A& a, const B& b, const ContactFeatures& f, const V& n, const V& t) {
  using T = scalar_t<V>;
  using detail::Planar;
  // The two coordinates kept, and (3D) the one dropped: where |n| is largest, so n's component there is not zero.
  int drop = 0;
  if constexpr (V::dimension == 3) {
    const auto magnitude = [&](int k) { return n[k] < 0 ? T(-n[k]) : n[k]; };
    drop = magnitude(0) < magnitude(1) ? 1 : 0;
    if (magnitude(drop) < magnitude(2)) drop = 2;
  }
  const int u = V::dimension == 3 ? (drop + 1) % 3 : 0, v = V::dimension == 3 ? (drop + 2) % 3 : 1;
  const auto project = [&](const V& x) { return Planar<T>{x[u], x[v]}; };
  std::vector<Planar<T>> on_a, on_b;
  for (const std::size_t i : f.a.vertices) on_a.push_back(project(a.vertex(i)));
  for (const std::size_t j : f.b.vertices) on_b.push_back(project(V(b.vertex(j) + t)));
  if constexpr (V::dimension == 2) {
    // The features lie on one line (not vertical, when n is not horizontal): their parameters along it decide.
    // Projecting onto the coordinate where the line's direction (−n_y, n_x) is largest keeps the order.
    const auto magnitude = [&](int k) { return n[k] < 0 ? T(-n[k]) : n[k]; };
    const int along = magnitude(1) < magnitude(0) ? 1 : 0;  // the direction's larger coordinate
    for (auto* side : {&on_a, &on_b})
      for (auto& x : *side) x = Planar<T>{x[along], T(0)};
  }
  const std::vector<Planar<T>> patch =
      detail::planar_intersection(detail::planar_hull(std::move(on_a)), detail::planar_hull(std::move(on_b)));
  // Lifted back onto A's plane n·x = h (h from any vertex of F_A).
  const V anchor = a.vertex(f.a.vertices.front());
  const T h = dot(n, anchor);
  std::vector<V> out;
  for (const auto& x : patch) {
    V lifted{};
    if constexpr (V::dimension == 3) {
      lifted[u] = x[0];
      lifted[v] = x[1];
      lifted[drop] = (h - n[u] * x[0] - n[v] * x[1]) / n[drop];
    } else {
      const auto magnitude = [&](int k) { return n[k] < 0 ? T(-n[k]) : n[k]; };
      const int along = magnitude(1) < magnitude(0) ? 1 : 0, other = 1 - along;
      lifted[along] = x[0];
      lifted[other] = (h - n[along] * x[0]) / n[other];
    }
    out.push_back(lifted);
  }
  return out;
}

}  // namespace gjkref
