// Exact vector algebra on rational points, private to the oracle library (no CGAL): shared by the hull method, the
// certificate check and the certified fast path. The QP method does not use it.
#pragma once

#include <gmpxx.h>

#include <array>
#include <vector>

#include "gjkref/oracle.hpp"

namespace gjkref::oracle::exact_geometry {

using Q = mpq_class;
using P = ExactPoint;

inline P sub(const P& a, const P& b) { return {Q(a[0] - b[0]), Q(a[1] - b[1]), Q(a[2] - b[2])}; }
inline P add(const P& a, const P& b) { return {Q(a[0] + b[0]), Q(a[1] + b[1]), Q(a[2] + b[2])}; }
inline P scale(const Q& s, const P& a) { return {Q(s * a[0]), Q(s * a[1]), Q(s * a[2])}; }
inline P negate(const P& a) { return {Q(-a[0]), Q(-a[1]), Q(-a[2])}; }
inline Q dot(const P& a, const P& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline P cross(const P& a, const P& b) {
  return {Q(a[1] * b[2] - a[2] * b[1]), Q(a[2] * b[0] - a[0] * b[2]), Q(a[0] * b[1] - a[1] * b[0])};
}
inline bool is_zero(const P& a) { return a[0] == 0 && a[1] == 0 && a[2] == 0; }
inline P zero() { return {Q(0), Q(0), Q(0)}; }
inline P exact(const std::array<double, 3>& p) { return {Q(p[0]), Q(p[1]), Q(p[2])}; }

// The rank of a set of vectors, by exact Gaussian elimination (0 to 3).
inline int rank(std::vector<P> rows) {
  int r = 0;
  for (int col = 0; col < 3 && r < static_cast<int>(rows.size()); ++col) {
    std::size_t pivot = r;
    while (pivot < rows.size() && rows[pivot][col] == 0) ++pivot;
    if (pivot == rows.size()) continue;
    std::swap(rows[pivot], rows[r]);
    for (std::size_t k = r + 1; k < rows.size(); ++k) {
      if (rows[k][col] == 0) continue;
      const Q f = rows[k][col] / rows[r][col];
      for (int i = col; i < 3; ++i) rows[k][i] -= f * rows[r][i];
    }
    ++r;
  }
  return r;
}

}  // namespace gjkref::oracle::exact_geometry
