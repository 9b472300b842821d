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

#include <cmath>
#include <concepts>
#include <limits>

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
  static int frame_exponent(T max_abs) { return max_abs == T(0) ? 0 : std::ilogb(max_abs); }
  static T scale_by_power_of_two(T x, int e) { return std::ldexp(x, e); }
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
