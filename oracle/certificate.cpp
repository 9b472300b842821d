// Certificates (docs/oracle.md): the exact check of any oracle answer, and the certified fast path built on it.
//
// The check's plane tests ("u·p ≥ level for every input point p") are filtered: u·p − level is first evaluated in
// interval arithmetic (CGAL::Interval_nt, directed rounding, so the interval always contains the exact value), and
// only a point whose interval contains 0 — in practice the points on the plane — is evaluated exactly.
#include <CGAL/Interval_nt.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "exact_geometry.hpp"
#include "gjkref/gjkref.hpp"
#include "gjkref/oracle.hpp"

namespace gjkref::oracle {
namespace {

using namespace exact_geometry;
using Interval = CGAL::Interval_nt<>;
using Points = std::vector<std::array<double, 3>>;

// An interval containing the rational q: its two roundings to double, downward and upward.
Interval enclose(const Q& q) {
  mpfr_t x;
  mpfr_init2(x, 53);
  mpfr_set_q(x, q.get_mpq_t(), MPFR_RNDD);
  const double lo = mpfr_get_d(x, MPFR_RNDD);
  mpfr_set_q(x, q.get_mpq_t(), MPFR_RNDU);
  const double hi = mpfr_get_d(x, MPFR_RNDU);
  mpfr_clear(x);
  return Interval(lo, hi);
}

// The outcome of "sign · (u·p − level) ≥ 0 for every p": whether it holds, the first point where it fails, and the
// points where u·p = level exactly (the face of the shape exposed by the plane).
struct PlaneTest {
  bool holds = true;
  std::size_t first_failure = 0;
  std::vector<std::size_t> on_plane;
};

PlaneTest plane_test(const Points& points, const P& u, const Q& level, int sign) {
  PlaneTest t;
  const Interval ui[3] = {enclose(u[0]), enclose(u[1]), enclose(u[2])};
  const Interval li = enclose(level);
  for (std::size_t k = 0; k < points.size(); ++k) {
    const auto& p = points[k];
    Interval value = ui[0] * p[0] + ui[1] * p[1] + ui[2] * p[2] - li;
    if (sign < 0) value = -value;
    if (value.inf() > 0) continue;
    int s = 0;
    if (value.sup() < 0) {
      s = -1;
    } else {
      const Q exact_value = dot(u, exact(p)) - level;
      s = sign * sgn(exact_value);
    }
    if (s == 0) t.on_plane.push_back(k);
    if (s < 0 && t.holds) t.holds = false, t.first_failure = k;
  }
  return t;
}

// The rank of vectors p − q (pairs of input points), filtered: a lower bound from interval arithmetic (a vector, a
// cross product, a determinant whose interval excludes 0 is certainly not zero), exact only when the bound is not
// already the most the vectors can have.
using Difference = std::pair<const std::array<double, 3>*, const std::array<double, 3>*>;

int rank_of_differences(const std::vector<Difference>& rows, int dim) {
  using IV = std::array<Interval, 3>;
  const auto row = [](const Difference& d) {
    IV r;
    for (int c = 0; c < 3; ++c) r[c] = Interval((*d.first)[c]) - Interval((*d.second)[c]);
    return r;
  };
  const auto certainly_nonzero = [](const Interval& x) { return x.inf() > 0 || x.sup() < 0; };
  const auto cross_i = [](const IV& a, const IV& b) {
    return IV{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  };
  const std::size_t most = std::min<std::size_t>(rows.size(), dim);
  std::size_t lower = 0;
  IV first{}, normal{};
  for (const Difference& d : rows) {
    if (lower == most) break;
    const IV r = row(d);
    if (lower == 0 && (certainly_nonzero(r[0]) || certainly_nonzero(r[1]) || certainly_nonzero(r[2]))) {
      first = r, lower = 1;
    } else if (lower == 1) {
      const IV n = cross_i(first, r);
      if (certainly_nonzero(n[0]) || certainly_nonzero(n[1]) || certainly_nonzero(n[2])) normal = n, lower = 2;
    } else if (lower == 2 && certainly_nonzero(normal[0] * r[0] + normal[1] * r[1] + normal[2] * r[2])) {
      lower = 3;
    }
  }
  if (lower == most) return static_cast<int>(lower);
  std::vector<P> exact_rows;
  for (const Difference& d : rows) exact_rows.push_back(sub(exact(*d.first), exact(*d.second)));
  return rank(std::move(exact_rows));
}

// Σ w·p exactly, with one rational division per coordinate: with L the common denominator of the weights (w = N/L)
// and 2^e the finest power of two of the coordinates (p = M·2^e, M an integer), Σ w·p = (Σ N·M·2^(e_p − e)) · 2^e / L.
P weighted_sum(const std::vector<Weight>& weights, const Points& points) {
  mpz_class common = 1;
  for (const Weight& w : weights) mpz_lcm(common.get_mpz_t(), common.get_mpz_t(), w.weight.get_den_mpz_t());
  long finest = std::numeric_limits<long>::max();
  const auto split = [](double x, long& exponent) {  // x = mantissa · 2^exponent with an integer mantissa
    int e = 0;
    const double f = std::frexp(x, &e);
    exponent = e - std::numeric_limits<double>::digits;
    return std::ldexp(f, std::numeric_limits<double>::digits);
  };
  for (const Weight& w : weights)
    for (double x : points[w.index])
      if (x != 0) {
        long e = 0;
        split(x, e);
        finest = std::min(finest, e);
      }
  P out = zero();
  if (finest == std::numeric_limits<long>::max()) return out;  // every coordinate is zero
  for (int c = 0; c < 3; ++c) {
    mpz_class sum = 0;
    for (const Weight& w : weights) {
      const double x = points[w.index][c];
      if (x == 0) continue;
      long e = 0;
      mpz_class term(split(x, e));
      term *= w.weight.get_num() * (common / w.weight.get_den());
      mpz_mul_2exp(term.get_mpz_t(), term.get_mpz_t(), static_cast<mp_bitcnt_t>(e - finest));
      sum += term;
    }
    Q value(sum, common);
    if (finest >= 0) mpq_mul_2exp(value.get_mpq_t(), value.get_mpq_t(), static_cast<mp_bitcnt_t>(finest));
    else mpq_div_2exp(value.get_mpq_t(), value.get_mpq_t(), static_cast<mp_bitcnt_t>(-finest));
    value.canonicalize();
    out[c] = value;
  }
  return out;
}

// Σ w·p over weighted input points; an error message when a weight is not positive or an index is out of range.
std::optional<std::string> combine(const std::vector<Weight>& weights, const Points& points, const char* shape,
                                   P& point) {
  if (weights.empty()) return std::string("no weight on ") + shape;
  Q total = 0;
  for (const Weight& w : weights) {
    if (w.index >= points.size()) return std::string("a weight on ") + shape + " names a point out of range";
    if (w.weight <= 0) return std::string("a weight on ") + shape + " is not positive";
    total += w.weight;
  }
  if (total != 1) return std::string("the weights on ") + shape + " sum to " + total.get_str() + ", not 1";
  point = weighted_sum(weights, points);
  return std::nullopt;
}

// The points of A and B where the certificate's plane touches them, when it holds.
struct Contact {
  std::vector<std::size_t> a, b;
};

std::optional<std::string> check(const casefile::Case& c, const Answer& r, Contact* contact) {
  if (r.verdict == Verdict::InvalidInput) {
    if (c.has_empty_shape() || c.has_non_finite_coordinate()) return std::nullopt;
    return "invalid-input for a valid case";
  }
  if (c.has_empty_shape() || c.has_non_finite_coordinate()) return "a verdict for an invalid case";
  P wa, wb;
  if (auto e = combine(r.certificate.weights_a, c.a.points, "A", wa)) return e;
  if (auto e = combine(r.certificate.weights_b, c.b.points, "B", wb)) return e;
  if (wa != r.witness_a) return "witness_a is not the weighted sum of A's points";
  if (wb != r.witness_b) return "witness_b is not the weighted sum of B's points";
  const P v = sub(wa, wb);
  if (r.squared_distance != dot(v, v)) return "squared_distance is not |witness_a − witness_b|²";
  if (c.dim == 2 && (v[2] != 0 || (r.certificate.normal && (*r.certificate.normal)[2] != 0)))
    return "a 2D answer with a z component";

  // The plane: normal u, with A on the side u·a ≥ u·witness_a and B on the side u·b ≤ u·witness_b.
  P u;
  if (r.verdict == Verdict::Separated) {
    if (is_zero(v)) return "separated, but the witnesses coincide";
    u = v;
  } else {
    if (!is_zero(v)) return "intersecting, but the witnesses differ";
    if (r.verdict == Verdict::Overlapping) {
      std::vector<Difference> spanning;
      for (const Weight& w : r.certificate.weights_a)
        spanning.push_back({&c.a.points[w.index], &c.a.points[r.certificate.weights_a[0].index]});
      for (const Weight& w : r.certificate.weights_b)
        spanning.push_back({&c.b.points[w.index], &c.b.points[r.certificate.weights_b[0].index]});
      if (rank_of_differences(spanning, c.dim) != c.dim)
        return "overlapping, but the weighted points do not span the space";
      return std::nullopt;
    }
    if (!r.certificate.normal) {
      if (r.method == Method::Qp) return std::nullopt;  // the QP method proves only that the origin is in A⊖B
      return "touching, without a supporting plane";
    }
    if (is_zero(*r.certificate.normal)) return "touching, with a zero normal";
    u = negate(*r.certificate.normal);  // A⊖B lies on the side normal·x ≤ 0
  }
  const PlaneTest ta = plane_test(c.a.points, u, dot(u, wa), +1);
  if (!ta.holds) return "a.points[" + std::to_string(ta.first_failure) + "] is on the wrong side of the plane";
  const PlaneTest tb = plane_test(c.b.points, u, dot(u, wb), -1);
  if (!tb.holds) return "b.points[" + std::to_string(tb.first_failure) + "] is on the wrong side of the plane";
  if (contact) *contact = {ta.on_plane, tb.on_plane};
  return std::nullopt;
}

// ---- The certified fast path.

// A point of A⊖B named by the input points it is the difference of.
struct Pair {
  std::size_t i = 0, j = 0;
  bool operator==(const Pair&) const = default;
};

// The pairs of the final simplex of a double-precision GJK distance query: a hint, nothing more.
template <class V>
std::optional<std::vector<Pair>> gjk_hint(const casefile::Case& c) {
  const auto shape = [](const Points& points) {
    std::vector<V> out;
    for (const auto& p : points) {
      V v;
      for (int k = 0; k < V::dimension; ++k) v[k] = p[k];
      out.push_back(v);
    }
    return ConvexPoints<V>(std::move(out));
  };
  const auto r = distance(shape(c.a.points), shape(c.b.points));
  if (r.status != Status::Separated && r.status != Status::Intersecting) return std::nullopt;
  std::vector<Pair> pairs;
  for (int k = 0; k < r.simplex.size; ++k) {
    const Pair p{r.simplex.points[k].index_a, r.simplex.points[k].index_b};
    if (std::find(pairs.begin(), pairs.end(), p) == pairs.end()) pairs.push_back(p);
  }
  return pairs;
}

// The determinant of a k × k integer matrix, k ≤ 3 (1 when k = 0).
mpz_class determinant(const std::vector<std::vector<mpz_class>>& m) {
  switch (m.size()) {
    case 0: return 1;
    case 1: return m[0][0];
    case 2: return m[0][0] * m[1][1] - m[0][1] * m[1][0];
    default:
      return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
             m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  }
}

// The weights of the point of aff{w₀ … w_k} closest to the origin: with e_i = w_i − w₀ and x = w₀ + Σ t_i e_i,
// |x|² is least where e_i·x = 0 for every i, that is G t = −r with G_il = e_i·e_l and r_i = e_i·w₀; the weights are
// (1 − Σt, t_1, …, t_k). nullopt when the points are affinely dependent (G singular).
// The weights do not change when every w is scaled by the same factor, so the points (differences of doubles: their
// denominators are powers of two) are first scaled to integers, and G t = −r is solved by Cramer's rule in integers:
// t_i = det(G with column i replaced by −r) / det(G). Only the final weights are rationals.
std::optional<std::vector<Q>> affine_closest_weights(const std::vector<P>& w) {
  const std::size_t k = w.size() - 1;
  mpz_class denominator = 1;
  for (const P& p : w)
    for (const Q& x : p)
      if (x.get_den() > denominator) denominator = x.get_den();  // powers of two: the largest is a multiple of all
  std::vector<std::array<mpz_class, 3>> z(w.size());
  for (std::size_t i = 0; i < w.size(); ++i)
    for (int c = 0; c < 3; ++c) z[i][c] = w[i][c].get_num() * (denominator / w[i][c].get_den());
  std::vector<std::array<mpz_class, 3>> e(k);
  for (std::size_t i = 0; i < k; ++i)
    for (int c = 0; c < 3; ++c) e[i][c] = z[i + 1][c] - z[0][c];
  const auto zdot = [](const std::array<mpz_class, 3>& a, const std::array<mpz_class, 3>& b) {
    return mpz_class(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
  };
  std::vector<std::vector<mpz_class>> g(k, std::vector<mpz_class>(k));
  std::vector<mpz_class> minus_r(k);
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t l = 0; l < k; ++l) g[i][l] = zdot(e[i], e[l]);
    minus_r[i] = -zdot(e[i], z[0]);
  }
  const mpz_class det = determinant(g);
  if (det == 0) return std::nullopt;
  std::vector<Q> weights(k + 1);
  mpz_class rest = det;
  for (std::size_t i = 0; i < k; ++i) {
    auto gi = g;
    for (std::size_t row = 0; row < k; ++row) gi[row][i] = minus_r[row];
    const mpz_class numerator = determinant(gi);
    rest -= numerator;
    weights[i + 1] = Q(numerator, det);
    weights[i + 1].canonicalize();
  }
  weights[0] = Q(rest, det);
  weights[0].canonicalize();
  return weights;
}

// Per-shape weights from weights on pairs: a point's weight is the sum over the pairs that use it.
std::vector<Weight> per_point(const std::vector<Pair>& pairs, const std::vector<Q>& weights, bool of_a) {
  std::vector<Weight> out;
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const std::size_t index = of_a ? pairs[k].i : pairs[k].j;
    auto it = std::find_if(out.begin(), out.end(), [&](const Weight& w) { return w.index == index; });
    if (it == out.end()) out.push_back({index, weights[k]});
    else it->weight += weights[k];
  }
  return out;
}

// The dimension of conv(A') − conv(B') for the listed points of A and B.
int difference_dimension(const casefile::Case& c, const std::vector<std::size_t>& a, const std::vector<std::size_t>& b) {
  std::vector<Difference> rows;
  for (std::size_t k = 1; k < a.size(); ++k) rows.push_back({&c.a.points[a[k]], &c.a.points[a[0]]});
  for (std::size_t k = 1; k < b.size(); ++k) rows.push_back({&c.b.points[b[k]], &c.b.points[b[0]]});
  return rank_of_differences(rows, c.dim);
}

// The affine dimension of A⊖B: the rank of the differences aᵢ − a₀ and bⱼ − b₀.
int affine_dimension_of_difference(const casefile::Case& c) {
  std::vector<std::size_t> a(c.a.points.size()), b(c.b.points.size());
  for (std::size_t k = 0; k < a.size(); ++k) a[k] = k;
  for (std::size_t k = 0; k < b.size(); ++k) b[k] = k;
  return difference_dimension(c, a, b);
}

Feature feature_of_dimension(int k) { return k == 0 ? Feature::Vertex : (k == 1 ? Feature::Edge : Feature::Face); }

// Normals of planes through the origin that may support A⊖B at a boundary point in the relative interior of the
// simplex `inner` (positive weights), given the hint's whole simplex `hint`: the facets of the hint containing
// `inner`, and when `inner` is a point or a segment, planes through it normal to a coordinate axis or containing one.
std::vector<P> candidate_normals(const std::vector<P>& hint, const std::vector<std::size_t>& inner, int dim) {
  std::vector<P> out;
  const auto push_both = [&](const P& n) {
    if (is_zero(n)) return;
    out.push_back(n);
    out.push_back(negate(n));
  };
  const auto contains_inner = [&](const std::vector<std::size_t>& facet) {
    return std::all_of(inner.begin(), inner.end(),
                       [&](std::size_t k) { return std::find(facet.begin(), facet.end(), k) != facet.end(); });
  };
  const std::size_t n = hint.size();
  const P axes[3] = {{Q(1), Q(0), Q(0)}, {Q(0), Q(1), Q(0)}, {Q(0), Q(0), Q(1)}};
  if (dim == 3) {
    for (std::size_t x = 0; x < n; ++x)
      for (std::size_t y = x + 1; y < n; ++y)
        for (std::size_t z = y + 1; z < n; ++z)
          if (contains_inner({x, y, z})) push_both(cross(sub(hint[y], hint[x]), sub(hint[z], hint[x])));
    if (inner.size() == 2)
      for (const P& axis : axes) push_both(cross(sub(hint[inner[1]], hint[inner[0]]), axis));
  } else {
    for (std::size_t x = 0; x < n; ++x)
      for (std::size_t y = x + 1; y < n; ++y)
        if (contains_inner({x, y})) {
          const P e = sub(hint[y], hint[x]);
          push_both({Q(-e[1]), e[0], Q(0)});
        }
  }
  if (inner.size() == 1)
    for (int k = 0; k < dim; ++k) push_both(axes[k]);
  return out;
}

std::optional<Answer> certified_from_hint(const casefile::Case& c) {
  const auto hint = c.dim == 2 ? gjk_hint<Vec2<double>>(c) : gjk_hint<Vec3<double>>(c);
  if (!hint || hint->empty()) return std::nullopt;
  std::vector<P> hint_points;
  for (const Pair& p : *hint) hint_points.push_back(sub(exact(c.a.points[p.i]), exact(c.b.points[p.j])));

  // The exact closest point of the hint's affine hull; vertices with non-positive weights are dropped until every
  // weight is positive (at most one round per vertex).
  std::vector<std::size_t> inner(hint->size());
  for (std::size_t k = 0; k < inner.size(); ++k) inner[k] = k;
  std::vector<Q> weights;
  for (;;) {
    std::vector<P> w;
    for (std::size_t k : inner) w.push_back(hint_points[k]);
    const auto solved = affine_closest_weights(w);
    if (!solved) return std::nullopt;
    std::vector<std::size_t> kept;
    std::vector<Q> kept_weights;
    for (std::size_t k = 0; k < inner.size(); ++k)
      if ((*solved)[k] > 0) kept.push_back(inner[k]), kept_weights.push_back((*solved)[k]);
    if (kept.size() == inner.size()) {
      weights = *solved;
      break;
    }
    inner = kept;
  }

  Answer out;
  out.method = Method::Certified;
  std::vector<Pair> pairs;
  std::vector<P> inner_points;
  for (std::size_t k : inner) pairs.push_back((*hint)[k]), inner_points.push_back(hint_points[k]);
  out.certificate.weights_a = per_point(pairs, weights, true);
  out.certificate.weights_b = per_point(pairs, weights, false);
  out.witness_a = weighted_sum(out.certificate.weights_a, c.a.points);
  out.witness_b = weighted_sum(out.certificate.weights_b, c.b.points);
  const P v = sub(out.witness_a, out.witness_b);
  out.squared_distance = dot(v, v);
  // affine_closest_weights solved a non-singular system: the inner points are affinely independent.
  const int inner_dimension = static_cast<int>(inner_points.size()) - 1;

  Contact contact;
  if (!is_zero(v)) {
    out.verdict = Verdict::Separated;
    if (check(c, out, &contact)) return std::nullopt;
  } else if (inner_dimension == c.dim) {
    out.verdict = Verdict::Overlapping;
    out.feature = Feature::Interior;
    if (check(c, out, nullptr)) return std::nullopt;
  } else {
    out.verdict = Verdict::Touching;
    bool supported = false;
    for (const P& n : candidate_normals(hint_points, inner, c.dim)) {
      out.certificate.normal = n;
      if (!check(c, out, &contact)) {
        supported = true;
        break;
      }
    }
    if (!supported) return std::nullopt;
  }
  // The feature: the closest point is in the relative interior of the simplex `inner`, which lies in the exposed face
  // F where the plane touches A⊖B. When both have the same dimension, relint(inner) is open in aff(F), hence inside
  // relint(F), and F is the minimal face. Otherwise the hull method decides.
  if (out.verdict != Verdict::Overlapping) {
    if (difference_dimension(c, contact.a, contact.b) != inner_dimension) return std::nullopt;
    out.feature = feature_of_dimension(inner_dimension);
  }
  out.affine_dimension = affine_dimension_of_difference(c);
  out.distance = correctly_rounded_sqrt(out.squared_distance);
  return out;
}

std::string describe(const Answer& r) {
  std::ostringstream s;
  s << to_string(r.verdict) << " (" << to_string(r.method) << "), squared distance " << r.squared_distance.get_str()
    << ", v = (" << Q(r.witness_a[0] - r.witness_b[0]).get_str() << ", " << Q(r.witness_a[1] - r.witness_b[1]).get_str()
    << ", " << Q(r.witness_a[2] - r.witness_b[2]).get_str() << ")";
  return s.str();
}

}  // namespace

std::optional<std::string> check_certificate(const casefile::Case& c, const Answer& answer) {
  return check(c, answer, nullptr);
}

Answer fast_oracle(const casefile::Case& c) {
  if (c.has_empty_shape() || c.has_non_finite_coordinate()) return Answer{};
  if (auto certified = certified_from_hint(c)) return *certified;
  return hull_oracle(c);
}

Answer cross_check(const casefile::Case& c, const Answer& answer) {
  Answer q = qp_oracle(c);
  const bool same = q.verdict == answer.verdict && q.squared_distance == answer.squared_distance &&
                    sub(q.witness_a, q.witness_b) == sub(answer.witness_a, answer.witness_b);
  if (!same)
    throw DisagreementError("oracle methods disagree on case '" + c.name + "': " + describe(answer) + " vs " +
                            describe(q) + "\n" + casefile::write(c));
  return q;
}

const char* to_string(Method m) {
  switch (m) {
    case Method::Hull: return "hull";
    case Method::Qp: return "qp";
    case Method::Certified: return "certified";
    case Method::Support: return "support";
  }
  return "?";
}

}  // namespace gjkref::oracle
