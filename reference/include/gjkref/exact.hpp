// gjkref/exact.hpp — GMP's mpq_class as an exact scalar for the reference.
//
// Include this header to run gjkref::distance / gjkref::intersect on Vec2<mpq_class> / Vec3<mpq_class>.
// Every double converts to mpq_class exactly (mpq_class(double) takes the double's exact binary value), so
// an exact run answers the question for the very rationals that the double input denotes.
//
// Pitfall: mpq_class(n, d) does NOT canonicalise (it stores 2/2 as 2/2), and GMP's comparisons and arithmetic
// assume canonical values: build fractions with gjkref::rational(n, d), or call .canonicalize() yourself.
#pragma once

#include <gmpxx.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "gjkref/scalar.hpp"
#include "gjkref/support.hpp"
#include "gjkref/vec.hpp"

namespace gjkref {

// log₂|x| to within 1, for x ≠ 0: the bit lengths of numerator and denominator, subtracted. Scaling x by 2 to the
// minus this brings it near 1 exactly, so that get_d() neither overflows nor underflows.
inline long binary_magnitude(const mpq_class& x) {
  return static_cast<long>(mpz_sizeinbase(x.get_num_mpz_t(), 2)) -
         static_cast<long>(mpz_sizeinbase(x.get_den_mpz_t(), 2));
}

template <>
struct ScalarTraits<mpq_class> {
  static constexpr bool is_exact = true;
  static mpq_class epsilon() { return mpq_class(0); }
  static bool is_finite(const mpq_class&) { return true; }
  static mpq_class abs(const mpq_class& x) { return ::abs(x); }
  static int frame_exponent(const mpq_class&) { return 0; }
  static mpq_class scale_by_power_of_two(const mpq_class& x, int e) {
    mpq_class r;
    if (e >= 0) {
      mpq_mul_2exp(r.get_mpq_t(), x.get_mpq_t(), static_cast<mp_bitcnt_t>(e));
    } else {
      mpq_div_2exp(r.get_mpq_t(), x.get_mpq_t(), static_cast<mp_bitcnt_t>(-e));
    }
    return r;
  }
  static double to_double(const mpq_class& x) { return x.get_d(); }
  // √x for display, x ≥ 0, without leaving double's range early: √x = √(x·4^−k)·2^k with x·4^−k near 1.
  // (Not correctly rounded: get_d truncates. The oracle gives the correctly rounded distance.)
  static double sqrt_as_double(const mpq_class& x) {
    if (x == 0) return 0.0;
    const int k = static_cast<int>(binary_magnitude(x) / 2);
    return std::ldexp(std::sqrt(scale_by_power_of_two(x, -2 * k).get_d()), k);
  }
};

using Exact = mpq_class;

// A finite long double as the exact rational it denotes: |x| = f·2^e with 0.5 ≤ f < 1, and f's bits read 32 at a time
// (f·2^32 splits exactly into an integer below 2^32 and a fraction with 32 fewer bits), so every binary format is read
// whole: x87's 64-bit significand, IEEE binary128's 113, or double's 53 where long double is double.
// (mpq_class has no long double constructor; float and double convert exactly through mpq_class(double).)
inline mpq_class exact_rational(long double x) {
  // ±∞ and NaN denote no rational; every caller takes them out first (invalid input), so one here is a bug.
  if (!std::isfinite(x)) throw std::logic_error("gjkref: exact_rational of a non-finite long double — a bug in gjkref");
  int e = 0;
  long double fraction = std::fabs(std::frexp(x, &e));
  mpz_class m;
  int bits = 0;
  while (fraction != 0) {
    fraction = std::ldexp(fraction, 32);
    const long double chunk = std::floor(fraction);
    fraction -= chunk;
    m <<= 32;
    m += static_cast<unsigned long>(chunk);
    bits += 32;
  }
  const mpq_class q = ScalarTraits<mpq_class>::scale_by_power_of_two(mpq_class(m), e - bits);
  return x < 0 ? mpq_class(-q) : q;
}

template <>
struct ScalarCast<mpq_class, long double> {
  static mpq_class apply(long double x) { return exact_rational(x); }
};

// The exact vector type of a floating one: Vec2<Exact> or Vec3<Exact>.
template <class V>
using exact_vector_t = decltype(convert<Exact>(V{}));

// x rounded to the floating type T, within one unit in the last place of T, anywhere in T's range (±∞ beyond it). x is
// scaled by a power of two to near 1 (exactly) and rounded there, through get_d, which truncates (for long double, as
// the sum of two doubles, the second holding the first's remainder); then it is scaled back in double (float: and
// converted to float by ScalarCast, to nearest) or long double, exactly unless the result is subnormal. Rounded where it
// lies, x would pass through double's range: below 2^−1022 get_d keeps only double's subnormal bits, what it gives
// below 2^−1074 or above its largest value GMP leaves to the system, and long double's range is far wider. For the
// post-pass's exact finish (finish.hpp), whose answers are held to the floating contract, not to correct rounding.
// Regression: ExactArithmetic.RoundingToAFloatingTypeKeepsItsPrecision.
template <std::floating_point T>
T round_to(const mpq_class& x) {
  using L = std::numeric_limits<T>;
  if (x == 0) return T(0);
  const long magnitude = binary_magnitude(x);  // log₂|x| to within 1
  if (magnitude > L::max_exponent + 1) return x > 0 ? L::infinity() : -L::infinity();
  if (magnitude < L::min_exponent - L::digits - 2) return x > 0 ? T(0) : -T(0);
  const int k = static_cast<int>(magnitude);
  const mpq_class near_one = ScalarTraits<mpq_class>::scale_by_power_of_two(x, -k);
  const double high = near_one.get_d();
  if constexpr (std::is_same_v<T, long double>) {
    const double low = mpq_class(near_one - mpq_class(high)).get_d();
    return std::ldexp(static_cast<long double>(high) + static_cast<long double>(low), k);
  } else {
    return ScalarCast<T, double>::apply(std::ldexp(high, k));
  }
}

// Sums of products of rationals, for the dot and cross products below. Rational arithmetic reduces every product and
// sum to lowest terms, a gcd each. Here a sum of products is formed as one fraction and reduced once, to the canonical
// rational (each rational has one, so the value is the one the rational operations give):
//   - when every denominator is a power of two (the region tests evaluate polynomials in the simplex's points,
//     differences of doubles), the products' numerators are shifted onto the largest denominator 2^E, added as
//     integers, and reduced by one shift;
//   - otherwise (v and the weights: ratios of region-test numerators) each operand list is brought to its common
//     denominator, x_i = X_i/L and y_i = Y_i/M with integers X_i, Y_i, and the sum is Σ ±X_i·Y_i / (L·M), reduced by
//     one gcd.
namespace detail {

// A positive power of two (a canonical denominator always is positive; a non-canonical negative one, which the
// contract leaves undefined, takes the general path).
inline bool is_power_of_two(const mpz_class& x) {
  return mpz_sgn(x.get_mpz_t()) > 0 && mpz_scan1(x.get_mpz_t(), 0) + 1 == mpz_sizeinbase(x.get_mpz_t(), 2);
}

// x_i = X_i/L for i < count: L > 0 the least common multiple of the denominators, X_i = x_i·L integers.
template <std::size_t N>
void over_common_denominator(const std::array<const mpq_class*, N>& x, std::size_t count, std::array<mpz_class, N>& X,
                             mpz_class& L) {
  L = x[0]->get_den();
  for (std::size_t i = 1; i < count; ++i)
    if (L != x[i]->get_den()) mpz_lcm(L.get_mpz_t(), L.get_mpz_t(), x[i]->get_den_mpz_t());
  for (std::size_t i = 0; i < count; ++i) {
    if (L == x[i]->get_den()) {
      X[i] = x[i]->get_num();
    } else {
      mpz_divexact(X[i].get_mpz_t(), L.get_mpz_t(), x[i]->get_den_mpz_t());
      X[i] *= x[i]->get_num();
    }
  }
}

// Σ sign_i·x_i·y_i over N terms.
template <std::size_t N>
mpq_class sum_of_products(const std::array<const mpq_class*, N>& x, const std::array<const mpq_class*, N>& y,
                          const std::array<int, N>& sign) {
  bool dyadic = true;
  for (std::size_t i = 0; i < N && dyadic; ++i)
    dyadic = is_power_of_two(x[i]->get_den()) && is_power_of_two(y[i]->get_den());
  mpq_class r;
  if (!dyadic) {
    std::array<mpz_class, N> X, Y;
    mpz_class L, M;
    over_common_denominator(x, N, X, L);
    const bool same = (x == y);  // a square: v·v
    if (!same) over_common_denominator(y, N, Y, M);
    const std::array<mpz_class, N>& YY = same ? X : Y;
    mpz_class& numerator = r.get_num();
    for (std::size_t i = 0; i < N; ++i) {
      if (sign[i] > 0)
        mpz_addmul(numerator.get_mpz_t(), X[i].get_mpz_t(), YY[i].get_mpz_t());
      else
        mpz_submul(numerator.get_mpz_t(), X[i].get_mpz_t(), YY[i].get_mpz_t());
    }
    mpz_mul(r.get_den_mpz_t(), L.get_mpz_t(), (same ? L : M).get_mpz_t());
    r.canonicalize();
    return r;
  }
  std::array<mp_bitcnt_t, N> exponent{};
  mp_bitcnt_t largest = 0;
  for (std::size_t i = 0; i < N; ++i) {
    exponent[i] = mpz_scan1(x[i]->get_den_mpz_t(), 0) + mpz_scan1(y[i]->get_den_mpz_t(), 0);
    largest = std::max(largest, exponent[i]);
  }
  mpz_class numerator, term;
  for (std::size_t i = 0; i < N; ++i) {
    mpz_mul(term.get_mpz_t(), x[i]->get_num_mpz_t(), y[i]->get_num_mpz_t());
    mpz_mul_2exp(term.get_mpz_t(), term.get_mpz_t(), largest - exponent[i]);
    if (sign[i] > 0)
      numerator += term;
    else
      numerator -= term;
  }
  if (numerator == 0) return r;
  const mp_bitcnt_t shift = std::min<mp_bitcnt_t>(mpz_scan1(numerator.get_mpz_t(), 0), largest);
  mpz_fdiv_q_2exp(r.get_num_mpz_t(), numerator.get_mpz_t(), shift);  // exact: the low bits are zero
  mpz_set_ui(r.get_den_mpz_t(), 0);
  mpz_setbit(r.get_den_mpz_t(), largest - shift);
  return r;
}

}  // namespace detail

// a·b and a × b for rationals (vec.hpp's, evaluated through detail::sum_of_products).
inline mpq_class dot(const Vec3<mpq_class>& a, const Vec3<mpq_class>& b) {
  return detail::sum_of_products<3>({&a.x, &a.y, &a.z}, {&b.x, &b.y, &b.z}, {1, 1, 1});
}
inline mpq_class dot(const Vec2<mpq_class>& a, const Vec2<mpq_class>& b) {
  return detail::sum_of_products<2>({&a.x, &a.y}, {&b.x, &b.y}, {1, 1});
}
inline Vec3<mpq_class> cross(const Vec3<mpq_class>& a, const Vec3<mpq_class>& b) {
  return {detail::sum_of_products<2>({&a.y, &a.z}, {&b.z, &b.y}, {1, -1}),
          detail::sum_of_products<2>({&a.z, &a.x}, {&b.x, &b.z}, {1, -1}),
          detail::sum_of_products<2>({&a.x, &a.y}, {&b.y, &b.x}, {1, -1})};
}
inline mpq_class cross(const Vec2<mpq_class>& a, const Vec2<mpq_class>& b) {
  return detail::sum_of_products<2>({&a.x, &a.y}, {&b.y, &b.x}, {1, -1});
}

// Σ λᵢ xᵢ for rationals (vec.hpp's weighted_sum): a simplex's point from its barycentric weights, one fraction per
// coordinate as in sum_of_products. The weights are brought once to their common denominator, λᵢ = Wᵢ/L, and each
// coordinate's values to theirs, xᵢ = Xᵢ/M (a power of two for differences of doubles): the coordinate is
// Σ Wᵢ·Xᵢ / (L·M), reduced by one gcd.
namespace detail {

template <class V>
V weighted_sum_of_rationals(const std::array<mpq_class, 4>& weight, const std::array<const V*, 4>& x, int count) {
  const auto n = static_cast<std::size_t>(count);
  std::array<mpz_class, 4> W, X;
  mpz_class L, M;
  over_common_denominator<4>({&weight[0], &weight[1], &weight[2], &weight[3]}, n, W, L);
  V r;
  for (int c = 0; c < V::dimension; ++c) {
    std::array<const mpq_class*, 4> coordinate{};
    for (std::size_t i = 0; i < n; ++i) coordinate[i] = &(*x[i])[c];
    over_common_denominator(coordinate, n, X, M);
    mpz_class& numerator = r[c].get_num();
    numerator = 0;
    for (std::size_t i = 0; i < n; ++i) mpz_addmul(numerator.get_mpz_t(), W[i].get_mpz_t(), X[i].get_mpz_t());
    mpz_mul(r[c].get_den_mpz_t(), L.get_mpz_t(), M.get_mpz_t());
    r[c].canonicalize();
  }
  return r;
}

}  // namespace detail

inline Vec3<mpq_class> weighted_sum(const std::array<mpq_class, 4>& weight,
                                    const std::array<const Vec3<mpq_class>*, 4>& x, int count) {
  return detail::weighted_sum_of_rationals(weight, x, count);
}
inline Vec2<mpq_class> weighted_sum(const std::array<mpq_class, 4>& weight,
                                    const std::array<const Vec2<mpq_class>*, 4>& x, int count) {
  return detail::weighted_sum_of_rationals(weight, x, count);
}

// Exact supports on integers (support.hpp, ExactSupportSearch). Rational arithmetic reduces every product and sum to
// lowest terms, a gcd each; the support needs only the order of the values d·p, and that order survives multiplying
// them all by one positive number. So the points are brought once to a common denominator L > 0 (the least common
// multiple of their coordinates' denominators), P = L·p, and each direction to its own, M > 0 and D = M·d: then
// d·p = (D·P)/(M·L) for every point, the integers D·P are in the same order as the rationals d·p, and the first
// point with the largest D·P is the textbook's maximiser, tie-break included. Integer products and sums need no gcd.
// A common denominator grows with every coprime factor the points bring (doubles bring only powers of two, so theirs is
// the longest one; a lattice brings a few small factors). With many coprime denominators it grows with the number of
// points, and so does every integer: the search would cost O(n²). kExactSupportSpareBits = 256 is a cost limit, not a
// tolerance: a shape whose common denominator is longer than its longest denominator by more than 256 bits keeps the
// textbook's loop. Either way the search is exact; the limit only chooses between two exact searches
// (ExactSupport.IntegerSearchEqualsTheTextbookLoop covers both).
inline constexpr std::size_t kExactSupportSpareBits = 256;

template <Vector V>
requires std::same_as<scalar_t<V>, mpq_class>
class ExactSupportSearch<V> {
 public:
  static constexpr int N = V::dimension;
  ExactSupportSearch() = default;
  explicit ExactSupportSearch(const std::vector<V>& points) {
    mpz_class common(1);
    std::size_t longest = 0;
    for (const V& p : points)
      for (int c = 0; c < N; ++c) {
        mpz_lcm(common.get_mpz_t(), common.get_mpz_t(), p[c].get_den_mpz_t());
        longest = std::max(longest, mpz_sizeinbase(p[c].get_den_mpz_t(), 2));
      }
    if (mpz_sizeinbase(common.get_mpz_t(), 2) > longest + kExactSupportSpareBits) return;
    integers_.resize(points.size());
    for (std::size_t i = 0; i < points.size(); ++i)
      for (int c = 0; c < N; ++c) {
        mpz_divexact(integers_[i][c].get_mpz_t(), common.get_mpz_t(), points[i][c].get_den_mpz_t());
        integers_[i][c] *= points[i][c].get_num();
      }
  }
  // Whether the points are held as integers (false: the textbook's loop).
  bool on_integers() const { return !integers_.empty(); }

  std::size_t argmax(const std::vector<V>& points, const V& d) const {
    if (!on_integers()) return first_maximiser(points, d);
    std::array<const mpq_class*, N> components{};
    for (int c = 0; c < N; ++c) components[c] = &d[c];
    std::array<mpz_class, N> direction;  // M·d, M > 0
    mpz_class common;
    detail::over_common_denominator(components, N, direction, common);
    std::size_t best = 0;
    mpz_class best_value, value;
    for (std::size_t i = 0; i < integers_.size(); ++i) {
      mpz_mul(value.get_mpz_t(), direction[0].get_mpz_t(), integers_[i][0].get_mpz_t());
      for (int c = 1; c < N; ++c) mpz_addmul(value.get_mpz_t(), direction[c].get_mpz_t(), integers_[i][c].get_mpz_t());
      if (i == 0 || best_value < value) {
        mpz_swap(best_value.get_mpz_t(), value.get_mpz_t());
        best = i;
      }
    }
    return best;
  }

 private:
  std::vector<std::array<mpz_class, N>> integers_;  // L·p for each point p; empty: the textbook's loop
};

// Rounding a rational to double exactly (round to nearest, ties to even, overflowing to ±∞ as IEEE 754 does).
// `approximation` is any double within a few units in the last place of the result; each step moves it to the
// neighbouring double while x lies past the midpoint between them, each comparison exact. `square`: the value rounded
// is √x (x ≥ 0), compared with the midpoints' squares.
namespace detail {

// Is y's significand odd? (The last bit of a subnormal has exponent −1074.)
inline bool odd_significand(double y) {
  if (y == 0 || std::isinf(y)) return false;
  int e = 0;
  (void)std::frexp(y, &e);  // y = f·2^e, 0.5 ≤ |f| < 1
  const int last_bit = std::max(e - 53, -1074);
  return std::fmod(std::ldexp(y, -last_bit), 2.0) != 0;
}

inline double round_by_midpoints(const mpq_class& x, double approximation, bool square) {
  using Tr = ScalarTraits<mpq_class>;
  // The midpoint of t and its neighbour n; past ±DBL_MAX the neighbour is ±2^1024, the overflow threshold's other end.
  const auto midpoint = [](double t, double n) {
    const mpq_class far = std::isinf(n) ? mpq_class(Tr::scale_by_power_of_two(mpq_class(n > 0 ? 1 : -1), 1024))
                                        : mpq_class(n);
    return mpq_class((mpq_class(t) + far) / 2);
  };
  // Is the value past the midpoint of t and n, on n's side? At the midpoint itself: if n is the even one (∞ counts
  // as even: a tie at the top overflows).
  const auto past = [&](double t, double n) {
    const mpq_class m = midpoint(t, n);
    int c = 0;
    if (square)
      c = m < 0 ? 1 : cmp(x, mpq_class(m * m));
    else
      c = cmp(x, m);
    if (c == 0) return odd_significand(t) && (std::isinf(n) || !odd_significand(n));
    return n > t ? c > 0 : c < 0;
  };
  double t = std::isinf(approximation) ? std::copysign(DBL_MAX, approximation) : approximation;
  for (;;) {
    if (std::isinf(t)) return t;
    const double up = std::nextafter(t, INFINITY), down = std::nextafter(t, -INFINITY);
    if (past(t, up))
      t = up;
    else if (past(t, down))
      t = down;
    else
      return t;
  }
}

}  // namespace detail

// x correctly rounded to double (round to nearest, ties to even).
inline double round_to_double(const mpq_class& x) {
  if (x == 0) return 0.0;
  const int k = static_cast<int>(std::clamp(binary_magnitude(x), -2000L, 2000L));
  const double approximation = std::ldexp(ScalarTraits<mpq_class>::scale_by_power_of_two(x, -k).get_d(), k);
  return detail::round_by_midpoints(x, approximation, false);
}

// √x correctly rounded to double (round to nearest, ties to even), for x ≥ 0.
inline double correctly_rounded_sqrt(const mpq_class& x) {
  if (x == 0) return 0.0;
  return detail::round_by_midpoints(x, ScalarTraits<mpq_class>::sqrt_as_double(x), true);
}

// The canonical rational n/d (d != 0).
inline mpq_class rational(long n, long d) {
  mpq_class q(n, d);
  q.canonicalize();
  return q;
}

}  // namespace gjkref
