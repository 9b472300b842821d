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
#include "gjkref/certified.hpp"
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

// Whether the points carrying weights span the space: their differences a − a₀, b − b₀ have full rank.
bool weighted_points_span(const casefile::Case& c, const Certificate& certificate) {
  std::vector<Difference> spanning;
  for (const Weight& w : certificate.weights_a)
    spanning.push_back({&c.a.points[w.index], &c.a.points[certificate.weights_a[0].index]});
  for (const Weight& w : certificate.weights_b)
    spanning.push_back({&c.b.points[w.index], &c.b.points[certificate.weights_b[0].index]});
  return rank_of_differences(spanning, c.dim) == c.dim;
}

// The check of check_certificate(). With `span` false, an overlapping answer is checked up to (not including) the
// rank of its weighted points, which the certified fast path asks about separately.
std::optional<std::string> check(const casefile::Case& c, const Answer& r, Contact* contact, bool span = true) {
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
      if (span && !weighted_points_span(c, r.certificate))
        return "overlapping, but the weighted points do not span the space";
      return std::nullopt;
    }
    if (!r.certificate.normal) return "touching, without a supporting plane";
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

// ---- The features of A⊖B.

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

// ---- The certified fast path: the certified reference's answer (gjkref/certified.hpp), checked here.

// The dimension of the affine hull of the simplex's points that carry a positive weight: the feature of A⊖B whose
// relative interior holds the answer's closest point.
// A simplex the filters proved is affinely independent with every weight positive (step 2a): its dimension is k − 1.
template <class V>
int inner_dimension(const ConvexPoints<V>& a, const ConvexPoints<V>& b, const CertifiedResult<V>& r) {
  if (r.path == CertifiedPath::Filtered) return static_cast<int>(r.simplex.size()) - 1;
  const auto f = gjkref::detail::exact_feature(a, b, r.simplex);
  if (!f) return -1;
  std::vector<P> rows;
  std::optional<P> first;
  for (int i = 0; i < f->feature.count; ++i) {
    if (!(f->feature.weight[i] > 0)) continue;
    const auto& w = f->points[f->feature.vertex[i]].w;
    P point = zero();
    for (int k = 0; k < V::dimension; ++k) point[k] = w[k];
    if (!first)
      first = point;
    else
      rows.push_back(sub(point, *first));
  }
  return rows.empty() ? 0 : rank(std::move(rows));
}

template <class V>
std::optional<Answer> certified_answer(const casefile::Case& c) {
  const auto shape = [](const Points& points) {
    std::vector<V> out;
    for (const auto& p : points) {
      V v;
      for (int k = 0; k < V::dimension; ++k) v[k] = p[k];
      out.push_back(v);
    }
    return ConvexPoints<V>(std::move(out));
  };
  const ConvexPoints<V> a = shape(c.a.points), b = shape(c.b.points);
  const CertifiedResult<V> r = certified_distance(a, b, {}, CertifiedOutput::WithExact);
  // Two exact methods, one answer: whatever the reference says that is not a proven answer for this valid case (the
  // caller has taken out invalid input) is a bug in one of them.
  const auto disagreement = [&](const std::string& what) {
    return DisagreementError("the certified reference's answer " + what + " on case '" + c.name + "'\n" +
                             casefile::write(c));
  };
  if (r.status == Status::InvalidInput) throw disagreement("is invalid-input for a valid case");
  if (!r.exact) throw disagreement("has no rational side, though asked for it");

  Answer out;
  out.method = Method::Certified;
  for (const ExactWeight& w : r.exact->weights_a) out.certificate.weights_a.push_back({w.index, w.weight});
  for (const ExactWeight& w : r.exact->weights_b) out.certificate.weights_b.push_back({w.index, w.weight});
  out.witness_a = weighted_sum(out.certificate.weights_a, c.a.points);
  out.witness_b = weighted_sum(out.certificate.weights_b, c.b.points);
  out.squared_distance = r.exact->squared_distance;
  switch (r.contact_class) {
    case ContactClass::Separated: out.verdict = Verdict::Separated; break;
    case ContactClass::Touching: {
      out.verdict = Verdict::Touching;
      if (!r.touching_normal) throw disagreement("is touching without its supporting plane");
      P normal = zero();
      for (int k = 0; k < V::dimension; ++k) normal[k] = (*r.touching_normal)[k];
      out.certificate.normal = normal;
      break;
    }
    case ContactClass::Overlapping: out.verdict = Verdict::Overlapping; break;
  }
  // The certificate, checked by this file's own exact test (a plane test over every input point, filtered by
  // intervals): a failure is a disagreement. One thing the answer may lack without being wrong: an overlapping answer
  // proven by the reference's contact classification (no supporting plane through the origin) carries the weights of
  // its simplex, which may hold the origin on a face and not span the space. Those weights prove that the origin is in
  // A⊖B, not that it is interior; the hull method then decides the whole case. This is the one fallback.
  Contact contact;
  if (auto problem = check(c, out, out.verdict == Verdict::Overlapping ? nullptr : &contact, false))
    throw disagreement("fails its certificate (" + *problem + ")");
  if (out.verdict == Verdict::Overlapping && !weighted_points_span(c, out.certificate)) return std::nullopt;
  out.distance = correctly_rounded_sqrt(out.squared_distance);
  if (out.distance != r.distance)
    throw DisagreementError("the certified reference's rounded distance is not the exact distance's rounding on case '" +
                            c.name + "'\n" + casefile::write(c));
  out.affine_dimension = affine_dimension_of_difference(c);
  if (out.verdict == Verdict::Overlapping) {
    out.feature = Feature::Interior;
    return out;
  }
  // The feature: the closest point is in the relative interior of the simplex's positively weighted points, which lie
  // in the exposed face F = conv(A_F) − conv(B_F) where the plane touches A⊖B (A_F, B_F: the input points on it).
  // When both have the same dimension, that relative interior is open in aff(F), hence inside relint(F), and F is the
  // minimal face. Otherwise the minimal face is a face of F (a face of a face is a face), which the hull method finds
  // from A_F and B_F alone: F is lower-dimensional, so it answers Vertex, Edge or Face, never Interior. Only when F
  // itself has more pairs than the hull can take (kHullReachPairs) is the feature left uncomputed; the answer stands,
  // proven.
  const int inner = inner_dimension(a, b, r);
  if (inner >= 0 && difference_dimension(c, contact.a, contact.b) == inner) {
    out.feature = feature_of_dimension(inner);
    return out;
  }
  if (static_cast<double>(contact.a.size()) * static_cast<double>(contact.b.size()) > kHullReachPairs) {
    out.feature = Feature::None;
    return out;
  }
  casefile::Case face;
  face.name = c.name + " (the exposed face)";
  face.dim = c.dim;
  for (std::size_t k : contact.a) face.a.points.push_back(c.a.points[k]);
  for (std::size_t k : contact.b) face.b.points.push_back(c.b.points[k]);
  out.feature = hull_oracle(face).feature;
  return out;
}

std::optional<Answer> certified_from_reference(const casefile::Case& c) {
  return c.dim == 2 ? certified_answer<Vec2<double>>(c) : certified_answer<Vec3<double>>(c);
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
  if (auto certified = certified_from_reference(c)) return *certified;
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
