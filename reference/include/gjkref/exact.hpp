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

#include <cmath>
#include <cstdint>

#include "gjkref/scalar.hpp"
#include "gjkref/vec.hpp"

namespace gjkref {

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
    const long bits = static_cast<long>(mpz_sizeinbase(x.get_num_mpz_t(), 2)) -
                      static_cast<long>(mpz_sizeinbase(x.get_den_mpz_t(), 2));
    const int k = static_cast<int>(bits / 2);
    return std::ldexp(std::sqrt(scale_by_power_of_two(x, -2 * k).get_d()), k);
  }
};

using Exact = mpq_class;

// A finite long double as the exact rational it denotes: x = m · 2^(e−64) with the 64-bit integer mantissa m.
// (mpq_class has no long double constructor; float and double convert exactly through mpq_class(double).)
inline mpq_class exact_rational(long double x) {
  int e = 0;
  const long double fraction = std::frexp(x, &e);                  // x = fraction · 2^e, 0.5 ≤ |fraction| < 1
  const long double scaled = std::ldexp(std::fabs(fraction), 64);  // an integer < 2^64: long double holds 64 bits
  const auto mantissa = static_cast<std::uint64_t>(scaled);
  mpz_class m(static_cast<unsigned long>(mantissa >> 32));
  m <<= 32;
  m += static_cast<unsigned long>(mantissa & 0xffffffffu);
  mpq_class q(m);
  q = ScalarTraits<mpq_class>::scale_by_power_of_two(q, e - 64);
  return fraction < 0 ? mpq_class(-q) : q;
}

template <>
struct ScalarCast<mpq_class, long double> {
  static mpq_class apply(long double x) { return exact_rational(x); }
};

// The canonical rational n/d (d != 0).
inline mpq_class rational(long n, long d) {
  mpq_class q(n, d);
  q.canonicalize();
  return q;
}

}  // namespace gjkref
