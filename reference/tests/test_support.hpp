// Shared helpers of the reference's unit tests.
//
// Two independent exact checks decide whether an answer is right, neither using the code under test:
//  - certify_exact(): the KKT optimality conditions, which are necessary and sufficient. v is the point of
//    conv(A⊖B) closest to the origin iff v = Σ λ_i (a_i − b_i) with λ ≥ 0, Σλ = 1 over real vertex pairs, and
//    v·(a − b) ≥ v·v for every vertex pair (a, b). Intersecting iff such a v is 0.
//  - brute_force_squared_distance(): the minimum over all affinely independent subsets X of the differences of the
//    squared distance from the origin to the projection onto aff(X) when that projection lies in conv(X), found by
//    solving the Gram system exactly. No region tests, no GJK.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "gjkref/exact.hpp"
#include "gjkref/gjkref.hpp"

namespace gjkref::test {

using ScalarTypes = ::testing::Types<float, double, long double, Exact>;
using FloatingTypes = ::testing::Types<float, double, long double>;

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

// A rational as a floating T to within about 2^-106 relative (beyond long double's 64 bits): hi + lo, each part taken
// from a 128-bit mpf. (mpq_get_d alone truncates to double, too coarse for long double truths.)
template <class T>
T to_scalar(const Exact& q) {
  const mpf_class f(q, 128);
  const double hi = f.get_d();
  const mpf_class rest = f - mpf_class(hi, 128);
  return T(hi) + T(rest.get_d());
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

// Solve the (k+1)x(k+1) system [G 1; 1ᵀ 0] [λ; μ] = [0; 1] exactly (G_ij = x_i·x_j): λ are the affine weights of the
// origin's projection onto aff(x_0..x_{k-1}). Returns false when the points are affinely dependent (singular).
template <Vector V>
bool projection_weights(const std::vector<V>& x, std::vector<scalar_t<V>>& lambda) {
  using T = scalar_t<V>;
  const std::size_t k = x.size(), n = k + 1;
  std::vector<std::vector<T>> m(n, std::vector<T>(n + 1, T(0)));
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = 0; j < k; ++j) m[i][j] = dot(x[i], x[j]);
    m[i][k] = T(1);
    m[k][i] = T(1);
  }
  m[k][n] = T(1);
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t p = c;
    while (p < n && m[p][c] == T(0)) ++p;
    if (p == n) return false;
    std::swap(m[p], m[c]);
    for (std::size_t r = 0; r < n; ++r) {
      if (r == c || m[r][c] == T(0)) continue;
      const T f = m[r][c] / m[c][c];
      for (std::size_t j = c; j <= n; ++j) m[r][j] -= f * m[c][j];
    }
  }
  lambda.assign(k, T(0));
  for (std::size_t i = 0; i < k; ++i) lambda[i] = m[i][n] / m[i][i];
  return true;
}

// Independent exact squared distance from the origin to conv(points), by enumerating subsets (see top of file).
template <Vector V>
scalar_t<V> brute_force_squared_distance(const std::vector<V>& points) {
  using T = scalar_t<V>;
  const int n = static_cast<int>(points.size());
  bool found = false;
  T best(0);
  for (int mask = 1; mask < (1 << n); ++mask) {
    if (__builtin_popcount(static_cast<unsigned>(mask)) > V::dimension + 1) continue;
    std::vector<V> x;
    for (int i = 0; i < n; ++i)
      if (mask & (1 << i)) x.push_back(points[i]);
    std::vector<T> lambda;
    if (!projection_weights(x, lambda)) continue;
    if (std::any_of(lambda.begin(), lambda.end(), [](const T& l) { return l < T(0); })) continue;
    V v{};
    for (std::size_t i = 0; i < x.size(); ++i) v = v + lambda[i] * x[i];
    const T vv = dot(v, v);
    if (!found || vv < best) {
      best = vv;
      found = true;
    }
  }
  return best;
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

// Seeds: fixed by default (reproducible), overridable with GJKREF_SEED; printed by every random test.
inline std::uint64_t test_seed(std::uint64_t fallback) {
  if (const char* s = std::getenv("GJKREF_SEED")) return std::strtoull(s, nullptr, 0);
  return fallback;
}

}  // namespace gjkref::test
