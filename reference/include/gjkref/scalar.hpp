// gjkref/scalar.hpp — what the algorithm needs to know about its scalar type.
//
// The reference runs unchanged on float, double, long double and exact rationals. Everything that differs
// between a floating type and an exact one is gathered here, in ScalarTraits<T>:
//   - is_exact:   exact types take no tolerance anywhere and make every decision by an exact sign;
//   - is_finite:  input validation (an exact rational is always finite);
//   - abs:        used to find the magnitude of a simplex;
//   - frame_exponent / scale_by_power_of_two: the power-of-two working frame (see floating.hpp) that keeps every
//     intermediate quantity in range and makes outputs scale bit-exactly under scaling by 2^k. Exact types
//     need no frame: their exponent is always 0 and scaling is the identity.
//   - to_double:  for display and for the distance of an exact result.
// Other exact types (Boost.Multiprecision's mpq_rational, CGAL's Gmpq, ...) work once they specialise it.
#pragma once

#include <bit>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace gjkref {

template <class T>
struct ScalarTraits;  // specialised below for floating types and in exact.hpp for mpq_class

template <std::floating_point T>
struct ScalarTraits<T> {
  static constexpr bool is_exact = false;
  static T epsilon() { return std::numeric_limits<T>::epsilon(); }
  static bool is_finite(T x) { return std::isfinite(x); }
  static T abs(T x) { return std::fabs(x); }
  // The exponent e with 2^e <= m < 2^(e+1) for m > 0; 0 for m == 0.
  static int frame_exponent(T max_abs) {
    if (max_abs == T(0)) return 0;
    if constexpr (std::numeric_limits<T>::is_iec559 && (sizeof(T) == 4 || sizeof(T) == 8)) {
      // A normal number's exponent read from its bits (std::ilogb is an out-of-line library call, and this runs for
      // every frame); subnormals (exponent field 0) go to ilogb.
      using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
      constexpr int significand_bits = std::numeric_limits<T>::digits - 1;
      constexpr int bias = std::numeric_limits<T>::max_exponent - 1;
      constexpr Bits exponent_mask = (Bits(1) << (sizeof(T) * 8 - 1 - significand_bits)) - 1;
      const Bits field = (std::bit_cast<Bits>(max_abs) >> significand_bits) & exponent_mask;
      if (field != 0) return static_cast<int>(field) - bias;
    }
    return std::ilogb(max_abs);
  }
  // x·2^e, correctly rounded (exact unless the result is subnormal). A product with the power of two 2^e rounds the
  // same as std::ldexp (both are the correctly rounded x·2^e); the power is built from its bits when it is a normal
  // number, and ldexp (a library call) takes the rest.
  static T scale_by_power_of_two(T x, int e) {
    if constexpr (std::numeric_limits<T>::is_iec559 && (sizeof(T) == 4 || sizeof(T) == 8)) {
      using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
      constexpr int significand_bits = std::numeric_limits<T>::digits - 1;
      constexpr int bias = std::numeric_limits<T>::max_exponent - 1;
      if (e > -bias && e <= bias) return x * std::bit_cast<T>(static_cast<Bits>(Bits(e + bias) << significand_bits));
    }
    return std::ldexp(x, e);
  }
  static double to_double(T x) { return static_cast<double>(x); }
};

template <class T>
concept Scalar = requires(const T& x, int e) {
  { ScalarTraits<T>::is_exact } -> std::convertible_to<bool>;
  { ScalarTraits<T>::epsilon() } -> std::convertible_to<T>;
  { ScalarTraits<T>::is_finite(x) } -> std::same_as<bool>;
  { ScalarTraits<T>::abs(x) } -> std::convertible_to<T>;
  { ScalarTraits<T>::frame_exponent(x) } -> std::same_as<int>;
  { ScalarTraits<T>::scale_by_power_of_two(x, e) } -> std::convertible_to<T>;
  { ScalarTraits<T>::to_double(x) } -> std::same_as<double>;
};

template <class T>
inline constexpr bool is_exact_v = ScalarTraits<T>::is_exact;

}  // namespace gjkref
