// gjkref/filter.hpp — floating-point filters for the certified mode: double-word values that carry a proven bound on
// their distance to the exact quantity they stand for.
//
// An Enclosure {hi, lo, err} says: the exact real x satisfies |x − (hi + lo)| ≤ err. Inputs enter exactly (a double,
// or the difference of two doubles, which two_diff holds exactly in two words); each operation computes its result in
// double-word arithmetic and a bound on its error from the operands' bounds. A sign is decided only when |hi + lo|
// exceeds err; otherwise the filter says "undecided" and the caller goes to exact rationals. Nothing here rounds a
// decision: a decided sign is the exact quantity's sign.
//
// Why the bounds hold (u = 2^−53, round to nearest):
//   - two_sum, fast_two_sum and two_product (an FMA, or Dekker's product) are error-free (Knuth; Dekker 1971) while
//     nothing overflows or underflows: a + b = s + t and a·b = p + e exactly. Veltkamp's split needs |a| < 2^996.
//   - The double-word sum (Joldes, Muller & Popescu 2017, "AccurateDWPlusDW") has relative error ≤ 3u²/(1 − 4u), the
//     double-word product ("DWTimesDW1", two_product and three rounded operations) ≤ 7u²; both are below
//     kDoubleWordRelativeError = 2^−100 = 64u², taken with the result's high word (|result| ≤ |hi|·(1 + 2u)).
//   - With exact operands X = x + δx and Y = y + δy, X + Y − (x + y) = δx + δy and XY − xy = xδy + yδx + δxδy: the
//     operands' bounds propagate by these, |x| ≤ |x.hi|·(1 + 2^−52).
//   - The bounds themselves are computed in double, at most eight operations each: kBoundRounding = 1 + 2^−48 covers
//     their rounding (8u < 2^−49), and kUnderflowSlack = 2^−1000 per operation covers every absolute error that
//     gradual underflow adds (at most a few 2^−1074 per error-free step). Overflow makes a word infinite or NaN, and
//     every comparison with a non-finite word is undecided.
// The certified mode evaluates its quantities in a power-of-two frame where the inputs are at most 2 in magnitude,
// so the slack matters only for results near 2^−1000, which then fall back to rationals.
// Pinned by Filter.* (reference/tests/filter_test.cpp: every decided sign and rounding against GMP/MPFR).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace gjkref::filter {

// The relative error of one double-word operation, as proven above with room to spare.
inline constexpr double kDoubleWordRelativeError = 0x1p-100;
// Covers the rounding of an error bound's own computation (at most eight double operations).
inline constexpr double kBoundRounding = 1 + 0x1p-48;
// An absolute error per operation that covers gradual underflow.
inline constexpr double kUnderflowSlack = 0x1p-1000;

// The one-double filtered pass over a shape (certified.hpp, strictly_beyond) bounds its roundings with these, for
// double and round to nearest (u = 2^−53; Higham, Accuracy and Stability, §3.1):
//   kDotProductRounding = 2^−51 ≥ γ₃ = 3u/(1 − 3u): a three-term dot product's relative rounding (two-term: γ₂);
//   kSumRounding = 2^−50 ≥ γ₄ and ≥ 2·u·(1 + u): the rounding of the comparisons' own sums and of the bounds
//     computed beside them;
//   kHalfUlp = 2^−52 = 2u: the rounding of one value relative to its magnitude, with room;
//   kSubnormalSlack = 2^−1070 = 16 subnormal units: an absolute term covering what gradual underflow adds to a few
//     operations (half a unit each).
// Sound bounds, not tolerances: a larger value only leaves more points to the exact path. Pinned by
// CertifiedFilters.AWrongSimplexIsNotProven (a wrong simplex is never proven) and Filter.* (the enclosures).
inline constexpr double kDotProductRounding = 0x1p-51;
inline constexpr double kSumRounding = 0x1p-50;
inline constexpr double kHalfUlp = 0x1p-52;
inline constexpr double kSubnormalSlack = 0x1p-1070;

// When step 2a (certified.hpp, certify_by_filters) gives up on a separating direction before its passes over the
// shapes, leaving the answer to the rational steps. Give-ups, not tolerances: neither can make an answer wrong.
//   kDirectionErrorLimit = 2^−20: the direction d (scaled so max |d_i| is in [1, 2)) is known to within this per
//     component. A pass proves a point only where d·(p − p_anchor) exceeds about that error times the shape's size;
//     with an error this large nearly every pass over a real shape fails, and the O(n) pass is wasted.
//   kDirectionComponentFloor = 2^−1000: a component of the scaled direction below this, but not zero, would make the
//     pass's products underflow.
// Pinned by CertifiedFilters.RandomCloudsAreProvenByFilters (at least 99 % of random clouds are proven here: a limit
// far too tight fails it).
inline constexpr double kDirectionErrorLimit = 0x1p-20;
inline constexpr double kDirectionComponentFloor = 0x1p-1000;

struct Enclosure {
  double hi = 0, lo = 0;  // the value, hi + lo, with |lo| ≤ ulp(hi)/2
  double err = 0;         // |exact − (hi + lo)| ≤ err
};

namespace detail {

inline void two_sum(double a, double b, double& s, double& t) {
  s = a + b;
  const double bb = s - a;
  t = (a - (s - bb)) + (b - bb);
}

// Requires |a| ≥ |b| (or a = 0).
inline void fast_two_sum(double a, double b, double& s, double& t) {
  s = a + b;
  t = b - (s - a);
}

inline void split(double a, double& hi, double& lo) {
  const double c = 134217729.0 * a;  // 2^27 + 1
  hi = c - (c - a);
  lo = a - hi;
}

// a·b = p + e exactly. With FMA hardware, e = fma(a, b, −p); without it, Dekker's product on Veltkamp's halves. (Where
// FMA instructions exist a compiler may contract c·a − a into one fused operation, which would spoil the split; so the
// split is compiled only where they do not.)
inline void two_product(double a, double b, double& p, double& e) {
  p = a * b;
#if defined(__FMA__) || defined(__FP_FAST_FMA)
  e = std::fma(a, b, -p);
#else
  double ah, al, bh, bl;
  split(a, ah, al);
  split(b, bh, bl);
  e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
#endif
}

inline double magnitude(const Enclosure& x) { return std::fabs(x.hi) * (1 + 0x1p-52); }

}  // namespace detail

inline Enclosure exact(double x) { return {x, 0, 0}; }

// a − b exactly, in two words.
inline Enclosure difference(double a, double b) {
  Enclosure r;
  detail::two_sum(a, -b, r.hi, r.lo);
  return r;
}

inline Enclosure operator-(const Enclosure& x) { return {-x.hi, -x.lo, x.err}; }

inline Enclosure operator+(const Enclosure& x, const Enclosure& y) {
  double sh, sl, th, tl, vh, vl;
  detail::two_sum(x.hi, y.hi, sh, sl);
  detail::two_sum(x.lo, y.lo, th, tl);
  detail::fast_two_sum(sh, sl + th, vh, vl);
  Enclosure r;
  detail::fast_two_sum(vh, tl + vl, r.hi, r.lo);
  r.err = (x.err + y.err + kDoubleWordRelativeError * std::fabs(r.hi)) * kBoundRounding + kUnderflowSlack;
  return r;
}

inline Enclosure operator-(const Enclosure& x, const Enclosure& y) { return x + (-y); }

inline Enclosure operator*(const Enclosure& x, const Enclosure& y) {
  double ch, cl;
  detail::two_product(x.hi, y.hi, ch, cl);
  const double cross = x.hi * y.lo + x.lo * y.hi;
  Enclosure r;
  detail::fast_two_sum(ch, cl + cross, r.hi, r.lo);
  r.err = (detail::magnitude(x) * y.err + detail::magnitude(y) * x.err + x.err * y.err +
           kDoubleWordRelativeError * std::fabs(r.hi)) *
              kBoundRounding +
          kUnderflowSlack;
  return r;
}

// x·y for a double y: the same bounds with δy = 0 (the product of the high words exact, the low word's rounded).
inline Enclosure operator*(const Enclosure& x, double y) {
  double ch, cl;
  detail::two_product(x.hi, y, ch, cl);
  Enclosure r;
  detail::fast_two_sum(ch, cl + x.lo * y, r.hi, r.lo);
  r.err = (std::fabs(y) * x.err + kDoubleWordRelativeError * std::fabs(r.hi)) * kBoundRounding + kUnderflowSlack;
  return r;
}

// The cheapest filter, for the certificate's polynomials in a power-of-two frame: a double computed as usual, with
// beside it the same expression on the leaves' absolute values with every − read as + (its `magnitude`).
// Evaluated with +, −, × from exact leaves, each operation rounding to nearest, the computed value is the sum of the
// expression's formal monomials, each times a product of at most K factors (1 + δ), |δ| ≤ u = 2^−53, where K counts
// the roundings a monomial passes through: 1 for a leaf's difference, max(K_x, K_y) + 1 for x ± y, and
// K_x + K_y + 1 for x·y — a product's monomials carry both operands' factors (Higham, Accuracy and Stability of
// Numerical Algorithms, §3.1). So |computed − exact| ≤ γ_K·A, with γ_K = Ku/(1 − Ku) and A the magnitude computed
// exactly; the magnitude computed in double (sums and products of non-negative numbers, the same K) is at least
// A·(1 − u)^K. Hence |computed − exact| ≤ γ_K·(1 − u)^−K·magnitude < 64u·(1 − u)·magnitude for K ≤
// kFramedRoundings = 63. The margin is 2^−47·magnitude (2^−47 = 64u, so the product is exact) plus kUnderflowSlack,
// rounded once: at least that. Gradual underflow adds at most half a subnormal unit (2^−1075) per product, carried to the result
// times its cofactor. With leaves below 2 in magnitude (the frame), polynomials of degree ≤ 16 in them whose formal
// expansion has at most 2^40 monomials, and at most 2^16 operations, every cofactor is below 2^56 and all underflow
// together below 2^−1003, inside kUnderflowSlack = 2^−1000, the bound's absolute term; overflow is impossible.
// K of the expressions evaluated in it, with the leaves' differences p = x − y (certified_penetration.hpp) or
// w = a − b (certified.hpp) at K = 1: a facet's normal (p₁ − p₀) × (p₂ − p₀) 6; its offset n·p₀ 10, or as
// p₀·(p₁ × p₂) 8; |n|² 15; the nearer-facet comparison o_f²|n_g|² − o_g²|n_f|² 38 (34 from the offsets as
// determinants; degree 10, fewer than 2^28 monomials; 2D 19); (5)'s n·(p_i × p_j) 13; the growth's orientation 11;
// step 2a's weights, orientation and direction toward v* at most 13, Q 15 and Q·|v*|² 17 (a
// triangle in 3D: Q = |n|² from the normal's 6, Q·|v*|² the volume's 8 squared). Nothing is counted at run time: the
// value and its magnitude are one pair of doubles, one packed operation per operation (a running bound takes five to
// eight). Pinned by Filter.FramedValuesHoldTheExactValue and Filter.FramedBoundCountsEveryProductsRoundings.
inline constexpr int kFramedRoundings = 63;
struct Framed {
  double value = 0, magnitude = 0;
};

// a − b for two exact doubles in the frame (|a|, |b| < 2): the leaves' first operation.
inline Framed framed_difference(double a, double b) { return {a - b, std::fabs(a) + std::fabs(b)}; }
inline Framed operator-(const Framed& x) { return {-x.value, x.magnitude}; }
inline Framed operator+(const Framed& x, const Framed& y) { return {x.value + y.value, x.magnitude + y.magnitude}; }
inline Framed operator-(const Framed& x, const Framed& y) { return {x.value - y.value, x.magnitude + y.magnitude}; }
inline Framed operator*(const Framed& x, const Framed& y) { return {x.value * y.value, x.magnitude * y.magnitude}; }
inline double error_of(const Framed& x) {
  static_assert(kFramedRoundings + 1 == 64, "the margin 2^-47 = 64u covers K <= 63");
  return 0x1p-47 * x.magnitude + kUnderflowSlack;
}
inline int sign(const Framed& x) {
  const double margin = error_of(x);
  if (!(std::isfinite(x.value) && std::isfinite(margin))) return 0;
  if (x.value > margin) return 1;
  if (-x.value > margin) return -1;
  return 0;
}
inline double value_of(const Framed& x) { return x.value; }

// The double nearest the value, and its error (for a direction handed to a filtered pass).
inline double value_of(const Enclosure& x) { return x.hi; }
inline double error_of(const Enclosure& x) { return (x.err + std::fabs(x.lo)) * kBoundRounding; }

// The exact quantity's sign, when the enclosure decides it: +1, −1, or 0 for undecided (not for "zero": a filter
// never proves a quantity zero).
inline int sign(const Enclosure& x) {
  const double margin = (std::fabs(x.lo) + x.err) * kBoundRounding;
  if (!(std::isfinite(x.hi) && std::isfinite(margin))) return 0;
  if (x.hi > margin) return 1;
  if (-x.hi > margin) return -1;
  return 0;
}

// Neighbours of a finite double (next_up(DBL_MAX) is +∞).
inline double next_up(double x) {
  if (x == 0) return std::numeric_limits<double>::denorm_min();
  const auto bits = std::bit_cast<std::uint64_t>(x);
  return std::bit_cast<double>(x > 0 ? bits + 1 : bits - 1);
}
inline double next_down(double x) { return -next_up(-x); }

// The double nearest to the exact quotient P/Q (Q > 0 decided), or false when the filter cannot decide it.
// A candidate r (the rounded quotient of the high words) is the correctly rounded P/Q exactly when P/Q lies strictly
// between the midpoints r − h⁻ and r + h⁺ to its neighbours (h± half the gaps, powers of two). With the residual
// ρ = P − rQ (exact in two words up to the enclosures' errors) that is −h⁻Q < ρ < h⁺Q. `square`: the value rounded is
// √(P/Q), r > 0, and the condition (r − h⁻)²Q < P < (r + h⁺)²Q reads −(2rh⁻ − h⁻²)Q < ρ < (2rh⁺ + h⁺²)Q with
// ρ = P − r²Q (r² exact in two words). The window's ends need no precision: they are taken with Q's lower bound and
// shrunk by 2^−40, so only ρ is computed in two words. A candidate on the wrong side moves one neighbour (at most
// three times). A result that is zero, infinite or below 2^−960 is left undecided (the caller's exact path handles
// it), as is a value within the filter's error of a midpoint.
inline bool round_quotient(const Enclosure& p, const Enclosure& q, bool square, double& out) {
  if (sign(q) <= 0) return false;
  const double q_low = (q.hi - (std::fabs(q.lo) + q.err) * kBoundRounding) * (1 - 0x1p-50);
  double r = p.hi / q.hi;
  if (square) {
    if (!(r > 0)) return false;
    r = std::sqrt(r);
  }
  for (int step = 0; step < 4; ++step) {
    if (!std::isfinite(r) || !(std::fabs(r) >= 0x1p-960)) return false;
    const double up = next_up(r), down = next_down(r);
    if (!std::isfinite(up) || !std::isfinite(down)) return false;
    const double h_up = (up - r) / 2, h_down = (r - down) / 2;
    Enclosure rq;
    double above, below;  // the window (−below, above) for ρ, before Q
    if (square) {
      Enclosure r2;
      detail::two_product(r, r, r2.hi, r2.lo);
      rq = r2 * q;
      above = 2 * r * h_up + h_up * h_up;
      below = 2 * r * h_down - h_down * h_down;
    } else {
      rq = q * r;
      above = h_up;
      below = h_down;
    }
    const Enclosure rho = p - rq;
    const double spread = (std::fabs(rho.lo) + rho.err) * kBoundRounding;
    const double rho_high = rho.hi + spread, rho_low = rho.hi - spread;
    const double top = above * q_low * (1 - 0x1p-40), bottom = -below * q_low * (1 - 0x1p-40);
    if (!(std::isfinite(rho_high) && std::isfinite(rho_low) && std::isfinite(top) && std::isfinite(bottom)))
      return false;
    if (rho_low > bottom && rho_high < top) {
      out = r;
      return true;
    }
    if (rho_low >= top)
      r = up;
    else if (rho_high <= bottom)
      r = down;
    else
      return false;
  }
  return false;
}

}  // namespace gjkref::filter
