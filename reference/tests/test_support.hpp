// Shared helpers of the reference's unit tests.
//
// Two independent exact checks decide whether an answer is right, neither using the code under test:
//  - certify_exact(): the KKT optimality conditions, which are necessary and sufficient. v is the point of
//    conv(A⊖B) closest to the origin iff v = Σ λ_i (a_i − b_i) with λ ≥ 0, Σλ = 1 over real vertex pairs, and
//    v·(a − b) ≥ v·v for every vertex pair (a, b). Intersecting iff such a v is 0.
//  - brute_force_squared_distance() (gjkref/certify.hpp): enumerates subsets and solves their Gram systems exactly.
//    No region tests, no GJK.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "gjkref/casefile.hpp"
#include "gjkref/certify.hpp"
#include "gjkref/contract.hpp"
#include "gjkref/exact.hpp"
#include "gjkref/gjkref.hpp"

namespace gjkref::test {

using ScalarTypes = ::testing::Types<float, double, long double, Exact>;
using FloatingTypes = ::testing::Types<float, double, long double>;

// Readable names for typed tests: EdgeCases/exact.X rather than EdgeCases/3.X.
struct ScalarNames {
  template <class T>
  static std::string GetName(int) {
    if constexpr (std::is_same_v<T, float>)
      return "float";
    else if constexpr (std::is_same_v<T, double>)
      return "double";
    else if constexpr (std::is_same_v<T, long double>)
      return "long_double";
    else
      return "exact";
  }
};

template <class T>
using P2 = ConvexPoints<Vec2<T>>;
template <class T>
using P3 = ConvexPoints<Vec3<T>>;

// Shapes from double literals, converted to T (exactly for long double and Exact, rounded for float).
template <class T>
P2<T> shape2(std::initializer_list<std::array<double, 2>> pts) {
  std::vector<Vec2<T>> v;
  for (const auto& p : pts) v.push_back(convert<T>(Vec2<double>{p[0], p[1]}));
  return P2<T>(std::move(v));
}
template <class T>
P3<T> shape3(std::initializer_list<std::array<double, 3>> pts) {
  std::vector<Vec3<T>> v;
  for (const auto& p : pts) v.push_back(convert<T>(Vec3<double>{p[0], p[1], p[2]}));
  return P3<T>(std::move(v));
}
template <class T, class V>
ConvexPoints<decltype(convert<T>(V{}))> converted(const ConvexPoints<V>& s) {
  std::vector<decltype(convert<T>(V{}))> v;
  for (const V& p : s.points()) v.push_back(convert<T>(p));
  return ConvexPoints<decltype(convert<T>(V{}))>(std::move(v));
}

// A rational as a floating T to within about 2^-106 relative (beyond long double's 64 bits), over the whole long
// double range: hi + lo, each a double mantissa with its own binary exponent, taken from a 128-bit mpf.
// (mpq_get_d alone truncates to double precision and range, too coarse for long double truths.)
template <class T>
T to_scalar(const Exact& q) {
  const mpf_class f(q, 128);
  auto split = [](const mpf_class& x, mpf_class& part) {
    long e = 0;
    const double d = mpf_get_d_2exp(&e, x.get_mpf_t());
    part = mpf_class(d, 128);
    if (e >= 0)
      mpf_mul_2exp(part.get_mpf_t(), part.get_mpf_t(), static_cast<mp_bitcnt_t>(e));
    else
      mpf_div_2exp(part.get_mpf_t(), part.get_mpf_t(), static_cast<mp_bitcnt_t>(-e));
    return std::ldexp(T(d), static_cast<int>(e));
  };
  mpf_class hi_part(0, 128), lo_part(0, 128);
  const T hi = split(f, hi_part);
  const mpf_class rest = f - hi_part;
  return hi + split(rest, lo_part);
}

template <Vector V>
std::vector<V> differences(const ConvexPoints<V>& a, const ConvexPoints<V>& b) {
  std::vector<V> d;
  for (const V& p : a.points())
    for (const V& q : b.points()) d.push_back(p - q);
  return d;
}

// Exact check of an exact answer by the KKT conditions (see top of file).
template <Vector V>
::testing::AssertionResult certify_exact(const ConvexPoints<V>& a, const ConvexPoints<V>& b, const Result<V>& r) {
  using T = scalar_t<V>;
  static_assert(is_exact_v<T>);
  if (r.status != Status::Separated && r.status != Status::Intersecting)
    return ::testing::AssertionFailure() << "status " << to_string(r.status);
  const Simplex<V>& s = r.simplex;
  T sum(0);
  V v{};
  for (int i = 0; i < s.size; ++i) {
    const SupportPoint<V>& p = s.points[i];
    if (p.index_a >= a.size() || p.index_b >= b.size()) return ::testing::AssertionFailure() << "bad index";
    if (!(a.vertex(p.index_a) == p.a) || !(b.vertex(p.index_b) == p.b) || !(p.w == p.a - p.b))
      return ::testing::AssertionFailure() << "simplex point " << i << " is not the vertex pair it names";
    if (s.weights[i] < T(0)) return ::testing::AssertionFailure() << "negative weight";
    sum += s.weights[i];
    v = v + s.weights[i] * p.w;
  }
  if (sum != T(1)) return ::testing::AssertionFailure() << "weights sum to " << sum;
  if (!(r.witness_a - r.witness_b == v)) return ::testing::AssertionFailure() << "witnesses do not differ by v";
  if (r.status == Status::Intersecting) {
    if (!is_zero(v)) return ::testing::AssertionFailure() << "intersecting, but the simplex point is " << v;
    if (!is_zero(r.closest)) return ::testing::AssertionFailure() << "intersecting with closest " << r.closest;
    return ::testing::AssertionSuccess();
  }
  if (!(r.closest == v)) return ::testing::AssertionFailure() << "closest " << r.closest << " != simplex point " << v;
  const T vv = dot(v, v);
  if (vv == T(0)) return ::testing::AssertionFailure() << "separated at distance 0";
  for (const V& d : differences(a, b))
    if (dot(v, d) < vv) return ::testing::AssertionFailure() << "not optimal: v·d < |v|² for d = " << d;
  if (!r.separation) return ::testing::AssertionFailure() << "separated without a certificate";
  // The certificate: direction·x ≤ direction·support.w < 0 for every x in A⊖B.
  const SeparationCertificate<V>& c = *r.separation;
  const T h = dot(c.direction, c.support.w);
  if (!(h < T(0))) return ::testing::AssertionFailure() << "certificate support value not negative";
  for (const V& d : differences(a, b))
    if (h < dot(c.direction, d)) return ::testing::AssertionFailure() << "certificate support is not the maximum";
  return ::testing::AssertionSuccess();
}

// A random point set on a small integer lattice: degenerate configurations (duplicates, collinear, coplanar,
// touching) are frequent by construction.
template <Vector V>
ConvexPoints<V> random_lattice_shape(std::mt19937_64& rng, int min_points, int max_points, int half_width) {
  std::uniform_int_distribution<int> count(min_points, max_points), coord(-half_width, half_width);
  std::vector<V> pts(count(rng));
  for (V& p : pts)
    for (int i = 0; i < V::dimension; ++i) p[i] = scalar_t<V>(coord(rng));
  return ConvexPoints<V>(std::move(pts));
}

// The unit cube [0, 1]³.
template <class T>
P3<T> unit_cube() {
  return shape3<T>({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}});
}

// A pair of shapes in C99 hex-float notation, bit-exact, for failure messages: enough to replay a failing case.
template <Vector V>
std::string describe(const ConvexPoints<V>& a, const ConvexPoints<V>& b) {
  std::ostringstream os;
  os << std::hexfloat;
  for (const auto* shape : {&a, &b}) {
    os << (shape == &a ? "A = {" : " B = {");
    for (const V& p : shape->points()) {
      os << "(";
      for (int i = 0; i < V::dimension; ++i) os << (i ? ", " : "") << static_cast<long double>(p[i]);
      os << ")";
    }
    os << "}";
  }
  return os.str();
}

// Saves the case of a failing iteration of a random test as a gjkref-case/1 file, so that it can be replayed
// (`gjkref eval FILE`). Construct one per iteration, around the checks: if a failure happened while it lived, its
// destructor writes the case to $GJKREF_FAILURE_DIR (default gjkref-failures/ in the working directory) and prints
// the path.
template <Vector V>
class FailureCaseSaver {
 public:
  FailureCaseSaver(const ConvexPoints<V>& a, const ConvexPoints<V>& b, std::string name)
      : a_(a), b_(b), name_(std::move(name)), failed_before_(::testing::Test::HasFailure()) {}
  ~FailureCaseSaver() {
    if (failed_before_ || !::testing::Test::HasFailure()) return;
    casefile::Case c;
    c.name = name_;
    c.dim = V::dimension;
    c.note = "saved by a failing gjkref test";
    for (const auto& [shape, out] : {std::pair{&a_, &c.a}, std::pair{&b_, &c.b}})
      for (const V& p : shape->points()) {
        std::array<double, 3> q{0, 0, 0};
        for (int i = 0; i < V::dimension; ++i) q[i] = ScalarTraits<scalar_t<V>>::to_double(p[i]);
        out->points.push_back(q);
      }
    const char* dir = std::getenv("GJKREF_FAILURE_DIR");
    const std::filesystem::path folder = dir ? dir : "gjkref-failures";
    std::filesystem::create_directories(folder);
    const std::filesystem::path file = folder / (name_ + ".json");
    std::ofstream(file) << casefile::write(c);
    std::printf("failing case saved: %s\n", std::filesystem::absolute(file).c_str());
  }

 private:
  const ConvexPoints<V>& a_;
  const ConvexPoints<V>& b_;
  std::string name_;
  bool failed_before_;
};

// Seeds: fixed by default (reproducible), overridable with GJKREF_SEED; printed by every random test.
inline std::uint64_t test_seed(std::uint64_t fallback) {
  if (const char* s = std::getenv("GJKREF_SEED")) return std::strtoull(s, nullptr, 0);
  return fallback;
}

}  // namespace gjkref::test
