// gjkref/certify.hpp — re-check any answer's certificate exactly, from the original coordinates.
//
// A result of any scalar type carries a certificate (gjk.hpp): for Separated, a direction d whose support value
// over A⊖B is negative; for Intersecting, a simplex of vertex pairs (a_i, b_i) whose differences contain the origin.
// check_certificate() converts every coordinate to an exact rational (each float/double is the rational it denotes)
// and decides, with no tolerance:
//   Verified     — the certificate proves the verdict;
//   Refuted      — it does not (for floating results this happens inside the touching band: the verdict may still
//                  be within docs/contract.md, but it is not proven);
//   NotApplicable — IterationLimit and InvalidInput carry no certificate.
// The points of the simplex must be the vertices their indices name, or the certificate is Refuted; so is any
// certificate on shapes that are not valid input (empty, or a coordinate not finite: no rational is meant), or with a
// direction that is not finite or a simplex of more than dimension + 1 points.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "gjkref/exact.hpp"
#include "gjkref/gjk.hpp"

namespace gjkref {

enum class CertificateCheck { Verified, Refuted, NotApplicable };

struct CertificateReport {
  CertificateCheck check = CertificateCheck::NotApplicable;
  std::string reason;  // why it was refuted, for a person
};

inline const char* to_string(CertificateCheck c) {
  switch (c) {
    case CertificateCheck::Verified: return "verified";
    case CertificateCheck::Refuted: return "refuted";
    case CertificateCheck::NotApplicable: return "n/a";
  }
  return "?";
}

// Solve [G 1; 1ᵀ 0] [λ; μ] = [0; 1] exactly, G_ij = x_i·x_j: λ are the affine weights of the origin's projection onto
// aff(x_0..x_{k−1}). Returns false when the points are affinely dependent (the system is singular).
template <Vector V>
requires is_exact_v<scalar_t<V>>
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

// The exact squared distance from the origin to conv(points), by brute force: the minimum, over all affinely
// independent subsets X of at most dimension+1 points whose projection of the origin onto aff(X) lies in conv(X),
// of that projection's squared norm. Independent of the region tests; exponential, for small sets only.
template <Vector V>
requires is_exact_v<scalar_t<V>> scalar_t<V> brute_force_squared_distance(const std::vector<V>& points) {
  using T = scalar_t<V>;
  const int n = static_cast<int>(points.size());
  bool found = false;
  T best(0);
  for (unsigned mask = 1; mask < (1u << n); ++mask) {
    if (__builtin_popcount(mask) > V::dimension + 1) continue;
    std::vector<V> x;
    for (int i = 0; i < n; ++i)
      if (mask & (1u << i)) x.push_back(points[i]);
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

template <Vector V>
CertificateReport check_certificate(const ConvexPoints<V>& a, const ConvexPoints<V>& b, const Result<V>& r) {
  using VE = exact_vector_t<V>;
  const auto refuted = [](std::string why) { return CertificateReport{CertificateCheck::Refuted, std::move(why)}; };
  if (r.status == Status::IterationLimit || r.status == Status::InvalidInput) return {};
  if (a.check() != ShapeCheck::Ok || b.check() != ShapeCheck::Ok)
    return refuted("a shape is not valid input (empty, or a coordinate not finite)");

  if (r.status == Status::Separated) {
    if (!r.separation) return refuted("separated without a separating direction");
    if (!is_finite(r.separation->direction)) return refuted("the separating direction is not finite");
    // The support value of A⊖B along d is max d·a − min d·b: one exact pass over each shape (not over every pair).
    const VE d = convert<Exact>(r.separation->direction);
    const auto extreme = [&d](const ConvexPoints<V>& shape, bool highest) {
      std::optional<Exact> best;
      for (const V& p : shape.points()) {
        const Exact value = dot(d, VE(convert<Exact>(p)));
        if (!best || (highest ? *best < value : value < *best)) best = value;
      }
      return *best;
    };
    const Exact h = extreme(a, true) - extreme(b, false);
    if (!(h < Exact(0))) return refuted("the direction's exact support value over A-B is not negative");
    return {CertificateCheck::Verified, ""};
  }

  if (r.simplex.size < 0 || r.simplex.size > V::dimension + 1)
    return refuted("a simplex of more than dimension + 1 points");
  std::vector<VE> w;
  for (int i = 0; i < r.simplex.size; ++i) {
    const SupportPoint<V>& s = r.simplex.points[i];
    if (s.index_a >= a.size() || s.index_b >= b.size()) return refuted("simplex index out of range");
    if (!(a.vertex(s.index_a) == s.a) || !(b.vertex(s.index_b) == s.b))
      return refuted("simplex point is not the vertex pair its indices name");
    w.push_back(convert<Exact>(s.a) - convert<Exact>(s.b));
  }
  if (w.empty()) return refuted("intersecting without a simplex");
  if (brute_force_squared_distance(w) != Exact(0)) return refuted("the simplex does not contain the origin exactly");
  return {CertificateCheck::Verified, ""};
}

}  // namespace gjkref
