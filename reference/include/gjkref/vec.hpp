// gjkref/vec.hpp — 2D and 3D vectors over any scalar, and the few operations GJK uses.
//
// Arithmetic results are always materialised as T (never `auto`), so expression-template scalars such as
// mpq_class work through the same code as float and double.
#pragma once

#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <limits>
#include <ostream>

#include "gjkref/scalar.hpp"

namespace gjkref {

template <class T>
struct Vec2 {
  using scalar_type = T;
  static constexpr int dimension = 2;
  T x{}, y{};

  T& operator[](int i) { return i == 0 ? x : y; }
  const T& operator[](int i) const { return i == 0 ? x : y; }
  friend bool operator==(const Vec2&, const Vec2&) = default;
};

template <class T>
struct Vec3 {
  using scalar_type = T;
  static constexpr int dimension = 3;
  T x{}, y{}, z{};

  T& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
  const T& operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
  friend bool operator==(const Vec3&, const Vec3&) = default;
};

// A vector type gjkref can run on: Vec2<T> or Vec3<T> (or a type with the same members).
template <class V>
concept Vector = Scalar<typename V::scalar_type> &&(V::dimension == 2 || V::dimension == 3) &&
                 requires(V v, const V& cv, int i) {
  { v[i] } -> std::same_as<typename V::scalar_type&>;
  { cv[i] } -> std::same_as<const typename V::scalar_type&>;
};

template <Vector V>
using scalar_t = typename V::scalar_type;

// Component-wise map: the one loop every operation below is written with.
template <Vector V, class F>
V map_components(const V& a, F&& f) {
  V r;
  for (int i = 0; i < V::dimension; ++i) r[i] = f(a[i], i);
  return r;
}

// The arithmetic below is written as plain loops over the components (not through map_components): these are the
// innermost operations of every query, and a loop the compiler sees whole is one it unrolls. Declared inline: GCC at
// -O2 otherwise leaves them as calls (measured: 9 % of a double query at n = 8, bench/peers_bench).
template <Vector V>
inline V operator+(const V& a, const V& b) {
  V r;
  for (int i = 0; i < V::dimension; ++i) r[i] = a[i] + b[i];
  return r;
}

template <Vector V>
inline V operator-(const V& a, const V& b) {
  V r;
  for (int i = 0; i < V::dimension; ++i) r[i] = a[i] - b[i];
  return r;
}

template <Vector V>
inline V operator-(const V& a) {
  V r;
  for (int i = 0; i < V::dimension; ++i) r[i] = -a[i];
  return r;
}

template <Vector V>
inline V operator*(const scalar_t<V>& s, const V& a) {
  V r;
  for (int i = 0; i < V::dimension; ++i) r[i] = s * a[i];
  return r;
}

// For mpq_class, exact.hpp declares dot, cross and weighted_sum overloads that give the same rationals faster (each sum
// one fraction, reduced once); calls from templates find them at instantiation, and every use of mpq_class includes
// exact.hpp (it defines the scalar's traits).
template <Vector V>
inline scalar_t<V> dot(const V& a, const V& b) {
  scalar_t<V> r = a[0] * b[0];
  for (int i = 1; i < V::dimension; ++i) r += a[i] * b[i];
  return r;
}

template <class T>
inline Vec3<T> cross(const Vec3<T>& a, const Vec3<T>& b) {
  return {T(a.y * b.z - a.z * b.y), T(a.z * b.x - a.x * b.z), T(a.x * b.y - a.y * b.x)};
}

// The 2D cross product a.x b.y − a.y b.x: twice the signed area of the triangle (0, a, b).
template <class T>
inline T cross(const Vec2<T>& a, const Vec2<T>& b) {
  return a.x * b.y - a.y * b.x;
}

// Σ λᵢ xᵢ over the first `count` (≥ 1) terms: a point of a simplex from its barycentric weights. exact.hpp overloads it
// for mpq_class as it does dot and cross (one fraction per coordinate instead of a reduced fraction per operation).
template <Vector V, std::size_t N>
inline V weighted_sum(const std::array<scalar_t<V>, N>& weight, const std::array<const V*, N>& x, int count) {
  V r = weight[0] * *x[0];
  for (int i = 1; i < count; ++i) r = r + weight[i] * *x[i];
  return r;
}

// det(a, b, c) = a · (b × c): six times the signed volume of the tetrahedron (0, a, b, c).
template <class T>
inline T triple(const Vec3<T>& a, const Vec3<T>& b, const Vec3<T>& c) {
  return dot(a, cross(b, c));
}

template <Vector V>
inline scalar_t<V> max_abs_component(const V& a) {
  using Tr = ScalarTraits<scalar_t<V>>;
  scalar_t<V> m = Tr::abs(a[0]);
  for (int i = 1; i < V::dimension; ++i) {
    scalar_t<V> c = Tr::abs(a[i]);
    if (m < c) m = c;
  }
  return m;
}

template <Vector V>
bool is_finite(const V& a) {
  for (int i = 0; i < V::dimension; ++i)
    if (!ScalarTraits<scalar_t<V>>::is_finite(a[i])) return false;
  return true;
}

template <Vector V>
bool is_zero(const V& a) {
  for (int i = 0; i < V::dimension; ++i)
    if (a[i] != scalar_t<V>(0)) return false;
  return true;
}

// Multiply every component by 2^e: exact for floating types unless the result leaves the normal range. Floating types
// with 2^e a normal number multiply by it, formed once: each product is the correctly rounded x·2^e, as the scalar's
// own scale_by_power_of_two gives.
// (A plain loop, declared inline, as the arithmetic above.)
template <Vector V>
inline V scale_by_power_of_two(const V& a, int e) {
  using T = scalar_t<V>;
  using Tr = ScalarTraits<T>;
  V r;
  if constexpr (!Tr::is_exact) {
    if (e >= std::numeric_limits<T>::min_exponent - 1 && e < std::numeric_limits<T>::max_exponent) {
      const T factor = Tr::scale_by_power_of_two(T(1), e);
      for (int i = 0; i < V::dimension; ++i) r[i] = a[i] * factor;
      return r;
    }
  }
  for (int i = 0; i < V::dimension; ++i) r[i] = Tr::scale_by_power_of_two(a[i], e);
  return r;
}

// v in its own frame: scaled by the power of two that brings its largest component into [1, 2) — the same direction,
// exactly unless a component leaves the normal range. Exact scalars, the zero vector and a vector with a component
// that is not finite: unchanged.
template <Vector V>
inline V in_own_scale(const V& v) {
  using Tr = ScalarTraits<scalar_t<V>>;
  if constexpr (Tr::is_exact) {
    return v;
  } else {
    using std::isfinite;
    const scalar_t<V> largest = max_abs_component(v);
    if (!(largest > 0) || !isfinite(largest)) return v;
    return scale_by_power_of_two(v, -Tr::frame_exponent(largest));
  }
}

// Scalar conversion: To(x) unless specialised (below; exact.hpp converts long double to mpq_class exactly).
template <class To, class From>
struct ScalarCast {
  static To apply(const From& x) { return To(x); }
};

// Narrowing between floating types (double to float, long double to double or float), stated: the nearest value of
// To, and ±∞ beyond its range — IEEE 754's round to nearest, ties to even. C++ leaves the conversion of a finite value
// outside To's range undefined, and an optimising compiler may assume it does not happen (at -O3, GCC made a double
// near 2^1023 a finite float; issue 18). From max + ulp(max)/2 on, the nearest value is ∞: at the tie itself the even
// neighbour is 2^max_exponent, which is ∞. Between max and that point, max. NaN stays NaN.
// Pinned by Conversion.NarrowingBeyondTheRangeIsInfinite (reference/tests/tolerance_test.cpp).
template <std::floating_point To, std::floating_point From>
requires(std::numeric_limits<To>::max_exponent < std::numeric_limits<From>::max_exponent) struct ScalarCast<To, From> {
  static To apply(const From& x) {
    using L = std::numeric_limits<To>;
    const From max = static_cast<From>(L::max());  // exact: From is the wider type
    const From overflow = max + std::ldexp(From(1), L::max_exponent - L::digits - 1);
    if (x >= overflow) return L::infinity();
    if (x <= -overflow) return -L::infinity();
    if (x > max) return L::max();
    if (x < -max) return -L::max();
    return static_cast<To>(x);
  }
};

// Convert between scalar types (double input to float, long double or exact).
template <class To, class From>
Vec2<To> convert(const Vec2<From>& a) {
  return {ScalarCast<To, From>::apply(a.x), ScalarCast<To, From>::apply(a.y)};
}
template <class To, class From>
Vec3<To> convert(const Vec3<From>& a) {
  return {ScalarCast<To, From>::apply(a.x), ScalarCast<To, From>::apply(a.y), ScalarCast<To, From>::apply(a.z)};
}

template <Vector V>
std::ostream& operator<<(std::ostream& os, const V& a) {
  os << '(';
  for (int i = 0; i < V::dimension; ++i) os << (i ? ", " : "") << a[i];
  return os << ')';
}

}  // namespace gjkref
