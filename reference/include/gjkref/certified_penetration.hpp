// gjkref/certified_penetration.hpp — the penetration depth for double input, exact: EPA's certificate checked exactly,
// whoever found it, and the exact EPA where it does not hold.
//
// A certificate (PenetrationCertificate, epa.hpp) names points p_i = a_i − b_i of D = A⊖B by vertex pairs and facets
// over them, oriented outward; a facet g has outward normal n_g and offset o_g = n_g·p (p on g). Let f be a facet
// nearest the origin — the check finds it, a running minimum that starts from the certificate's `answer` (a hint: the
// solver's facet, usually right). The certificate proves PD = o_f/|n_f| when
//   (1) the facets form a closed surface: every oriented ridge is cancelled by its reverse (3D: each directed edge
//       (u, v) occurs as often as (v, u); 2D: each point starts as many edges as it ends);
//   (2) the origin is strictly inside every facet's plane: o_g > 0 for every facet g (3D: o = det(p₀, p₁, p₂), 2D:
//       o = p₀ × p₁);
//   (3) f is nearest: o_f²·|n_g|² ≤ o_g²·|n_f|² for every facet g (true by construction: exact comparisons);
//   (4) f's plane supports D: a_f maximises n_f·a over A and b_f minimises it over B (a_f, b_f: f's first pair);
// and the translation t = (o_f/|n_f|²)·n_f (B moves by it to touch A) is then a point of D. Witness points need t as a
// combination of f's points, which
//   (5) the origin's projection t lies in f: 3D n_f·(p_i × p_j) ≥ 0 for each edge (p_i, p_j) of f, 2D p₁·e ≥ 0 and
//       p₀·e ≤ 0 with e = p₁ − p₀ (these are t's barycentric weights, times positive factors)
// gives. (5) holds whenever the polytope is convex — the closed ball of radius PD lies in it and touches f's plane at
// t — so always for the exact EPA; a double EPA's polytope can be slightly non-convex where rounding decided a
// visibility, and then its nearest facet can hold the depth but not t.
// Why (1)–(4) prove PD: by (1) the facets are a 2-cycle (a 1-cycle in 2D), and for any x with |x| < r = min_g o_g/|n_g|
// every facet has x strictly on its inner side, so each contributes a positive solid angle (angle) seen from x: the
// cycle winds around x a positive number of times. A point the cycle winds around lies in the convex hull of its
// points (a plane separating x from the hull would let x move to infinity without crossing the cycle), which is inside
// D. So the open ball of radius r lies in D and PD ≥ r; by (3) r = o_f/|n_f|. By (4) the support function
// h_D(n_f) = n_f·a_f − n_f·b_f = o_f, so PD ≤ o_f/|n_f| (PD = min over unit u of h_D(u)). t, at distance PD on the
// closed ball, is a point of D; by (5) a point of f, with witness points Σλ_k a_k and Σλ_k b_k.
// (4) asks for the members of f: when f's pairs form one connected graph (a vertex of A — a vertex of B per pair),
// n_f·a is the same for all of f's vertices of A, because n_f·(a_k − b_k) = o_f for each pair; otherwise each is
// checked like any other point.
//
// Every sign is decided exactly: by filter::Framed, else filter::Enclosure (a power-of-two frame, as in
// certify_by_filters), else in integers (the points scaled by a power of two) — so a filter's give-up costs time,
// never correctness. Nothing depends on the solver: a certificate from the double EPA, the exact EPA or anywhere else
// is checked the same way.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "gjkref/certified.hpp"
#include "gjkref/epa.hpp"

namespace gjkref {

// Which condition of the certificate failed (the list at the top of the file), or None.
enum class PenetrationFault {
  None,
  Malformed,      // an index out of range, no facets, no answer facet, or a shape that is not valid input
  NotClosed,      // (1)
  OriginOutside,  // (2)
  NotSupporting,  // (4)
};

inline const char* to_string(PenetrationFault f) {
  switch (f) {
    case PenetrationFault::None: return "none";
    case PenetrationFault::Malformed: return "malformed";
    case PenetrationFault::NotClosed: return "not-closed";
    case PenetrationFault::OriginOutside: return "origin-outside";
    case PenetrationFault::NotSupporting: return "not-supporting";
  }
  return "?";
}

struct PenetrationCheck {
  PenetrationFault fault = PenetrationFault::Malformed;  // None: (1)–(4) hold, the depth is proven
  int answer = -1;  // the nearest facet f (index into the certificate's facets), once (1) and (2) hold
  // NotSupporting: a point of A⊖B beyond f's plane, as a vertex pair (when the pass found one; it may also give up on
  // coordinates too large for it).
  std::optional<std::pair<std::size_t, std::size_t>> beyond;
  bool translation_in_facet = false;                    // (5) holds too: exact_penetration gives the witnesses
  double depth = 0;           // proven: PD correctly rounded to double
  // Proven: the unit normal n_f/|n_f|, each coordinate correctly rounded to double (2D: the first two). B moves along it
  // by the depth to touch A.
  std::array<double, 3> normal{};
  bool used_rationals = false;  // some sign or a rounding needed exact arithmetic (integers or rationals)
};

namespace detail {

inline int sign_of(const Exact& x) { return sgn(x); }

// The arithmetic of a vector of points (polynomials return it evaluated: a GMP expression must not outlive its
// operands).
template <class Points>
using element_t = std::remove_cvref_t<decltype(std::declval<Points>()[0][0])>;

// x = M·2^(e − 53) with an integer M, |M| < 2^53, for a double x ≠ 0 (frexp's e; subnormals too): e − 53 is at most
// the exponent of x's lowest bit, and x·2^shift is an integer for shift ≥ 53 − e.
inline int lowest_bit(double x) {
  int e = 0;
  (void)std::frexp(x, &e);
  return e - 53;
}
// x·2^shift as an integer, for shift ≥ −lowest_bit(x) (any shift when x = 0).
inline mpz_class scaled_integer(double x, int shift) {
  if (x == 0) return mpz_class(0);
  int e = 0;
  const double f = std::frexp(x, &e);
  mpz_class m(std::ldexp(f, 53));  // an integer below 2^53 in magnitude: exact
  m <<= static_cast<mp_bitcnt_t>(e - 53 + shift);
  return m;
}

// The certificate's points in four arithmetics, for signs decided by the cheapest that can: Framed and Enclosure in a
// power-of-two frame (none when a coordinate is too small for it), integers (the exact signs) and rationals (the
// roundings' last resort), built on first use. Every polynomial asked about is homogeneous, so neither the frame nor
// the integers' power of two changes a sign.
template <Vector V>
class CertificateArithmetic {
 public:
  static constexpr int D = V::dimension;
  template <class T>
  using Point = std::array<T, D>;

  CertificateArithmetic(const ConvexPoints<V>& a, const ConvexPoints<V>& b,
                        const std::vector<std::pair<std::size_t, std::size_t>>& pairs)
      : a_(a), b_(b), pairs_(pairs) {
    double largest = 0;
    for (const auto& [i, j] : pairs_)
      largest = std::max({largest, max_abs_component(a.vertex(i)), max_abs_component(b.vertex(j))});
    framed_ = largest > 0;
    frame_ = DifferenceFrame(framed_ ? largest : 1.0);
    exponent_ = framed_ ? frame_.exponent : 0;
    cheap_.reserve(pairs_.size());
    for (const auto& [i, j] : pairs_) {
      const V x = a.vertex(i), y = b.vertex(j);
      Point<filter::Framed> p{};
      for (int c = 0; c < D; ++c) {
        if (!frame_.admits(x[c]) || !frame_.admits(y[c])) framed_ = false;
        p[c] = filter::framed_difference(frame_.framed(x[c]), frame_.framed(y[c]));
      }
      cheap_.push_back(p);
    }
  }

  // The exact sign of poly(points), poly a generic callable on a vector of points in any of the arithmetics, which
  // reads only the points of `facets`: the cheap filter, double words, then integers.
  template <class Poly, class... Facets>
  int sign(const Poly& poly, const Facets&... facets) {
    if (framed_) {
      if (const int s = sign_of(poly(cheap_))) return s;
      if (const int s = sign_of(poly(enclosed(facets...)))) return s;
    }
    return sign_of(poly(integers(facets...)));
  }

  const std::vector<Point<filter::Framed>>& cheap() const { return cheap_; }
  // The points in double words in the frame, those of `facets` computed (each once, on first use).
  template <class... Facets>
  const std::vector<Point<filter::Enclosure>>& enclosed(const Facets&... facets) {
    if (enclosed_.empty()) enclosed_.resize(pairs_.size()), enclosed_ready_.resize(pairs_.size());
    const auto compute = [this](int k) {
      if (enclosed_ready_[k]) return;
      const V x = a_.vertex(pairs_[k].first), y = b_.vertex(pairs_[k].second);
      for (int c = 0; c < D; ++c) enclosed_[k][c] = filter::difference(frame_.framed(x[c]), frame_.framed(y[c]));
      enclosed_ready_[k] = true;
    };
    (..., [&] {
      for (const int k : facets) compute(k);
    }());
    return enclosed_;
  }
  // The points in rationals, those of `facets` converted (each once; the others are left zero until asked for).
  template <class... Facets>
  const std::vector<Point<Exact>>& exact(const Facets&... facets) {
    used_rationals_ = true;
    if (exact_.empty()) exact_.resize(pairs_.size()), converted_.resize(pairs_.size());
    const auto convert_point = [this](int k) {
      if (converted_[k]) return;
      const auto x = convert<Exact>(a_.vertex(pairs_[k].first)), y = convert<Exact>(b_.vertex(pairs_[k].second));
      for (int c = 0; c < D; ++c) exact_[k][c] = x[c] - y[c];
      converted_[k] = true;
    };
    (..., [&] {
      for (const int k : facets) convert_point(k);
    }());
    return exact_;
  }
  // The points as integers, those of `facets` computed (each once): every coordinate of the pairs' vertices times
  // 2^shift is an integer (shift: minus the lowest bit's exponent among them), so each difference is. A common positive
  // factor changes no sign of a homogeneous polynomial, and integer products need no gcd (rationals normalise every
  // result), which makes the signs left to exact arithmetic several times cheaper.
  template <class... Facets>
  const std::vector<Point<mpz_class>>& integers(const Facets&... facets) {
    used_rationals_ = true;
    if (integers_.empty()) {
      integers_.resize(pairs_.size());
      integer_ready_.resize(pairs_.size());
      int lowest = 0;
      for (const auto& [i, j] : pairs_)
        for (int c = 0; c < D; ++c)
          for (const double x : {a_.vertex(i)[c], b_.vertex(j)[c]})
            if (x != 0) lowest = std::min(lowest, lowest_bit(x));
      shift_ = -lowest;
    }
    const auto compute = [&](int k) {
      if (integer_ready_[k]) return;
      const V x = a_.vertex(pairs_[k].first), y = b_.vertex(pairs_[k].second);
      for (int c = 0; c < D; ++c) integers_[k][c] = scaled_integer(x[c], shift_) - scaled_integer(y[c], shift_);
      integer_ready_[k] = true;
    };
    (..., [&] {
      for (const int k : facets) compute(k);
    }());
    return integers_;
  }
  bool framed() const { return framed_; }
  int exponent() const { return exponent_; }
  // x − y for two vertices of a shape, in double words in the frame (exact); false when a coordinate does not scale
  // exactly into it (below its floor).
  bool enclosed_difference(const V& x, const V& y, Point<filter::Enclosure>& out) const {
    for (int c = 0; c < D; ++c) {
      if (!frame_.admits(x[c]) || !frame_.admits(y[c])) return false;
      out[c] = filter::difference(frame_.framed(x[c]), frame_.framed(y[c]));
    }
    return true;
  }
  bool used_rationals() const { return used_rationals_; }

 private:
  const ConvexPoints<V>& a_;
  const ConvexPoints<V>& b_;
  const std::vector<std::pair<std::size_t, std::size_t>>& pairs_;
  bool framed_ = false, used_rationals_ = false;
  DifferenceFrame frame_{1.0};
  int exponent_ = 0;
  std::vector<Point<filter::Framed>> cheap_;
  std::vector<Point<filter::Enclosure>> enclosed_;
  std::vector<bool> enclosed_ready_;
  std::vector<Point<Exact>> exact_;
  std::vector<bool> converted_;
  std::vector<Point<mpz_class>> integers_;
  std::vector<bool> integer_ready_;
  int shift_ = 0;
};

// A facet's quantities as polynomials in its points: the normal its order gives (epa.hpp, ordered_normal), its offset
// o = n·p₀ (3D det(p₀, p₁, p₂); 2D p₀ × p₁) and |n|².
template <class T, std::size_t D>
std::array<T, D> facet_normal(const std::array<std::array<T, D>, D>& p) {
  if constexpr (D == 3) {
    return cross(p[1] - p[0], p[2] - p[0]);
  } else {
    const std::array<T, 2> e = p[1] - p[0];
    return {e[1], -e[0]};
  }
}
template <class T, std::size_t D>
T facet_offset(const std::array<std::array<T, D>, D>& p) {
  if constexpr (D == 3)
    return dot(p[0], cross(p[1], p[2]));
  else
    return cross(p[0], p[1]);
}

template <class T, std::size_t D>
std::array<std::array<T, D>, D> facet_points(const std::vector<std::array<T, D>>& points, const std::array<int, D>& f) {
  std::array<std::array<T, D>, D> p;
  for (std::size_t k = 0; k < D; ++k) p[k] = points[f[k]];
  return p;
}

// Do facets f and g lie on one plane by an identity? When their points are the four vertex pairs {a, a'} × {b, b'},
// they are corners of the parallelogram (a − b, a' − b, a' − b', a − b') of an edge of A and an edge of B:
// (a − b) − (a' − b) = (a − b') − (a' − b') exactly, so the four points are coplanar whatever the coordinates. (An
// edge–edge face of A⊖B, split in two by EPA: an exact tie, which no filter can decide, on every generic pair of
// clouds.)
template <int D>
bool one_parallelogram(const std::vector<std::pair<std::size_t, std::size_t>>& pairs, const std::array<int, D>& f,
                       const std::array<int, D>& g) {
  if constexpr (D != 3) {
    return false;
  } else {
    std::array<std::pair<std::size_t, std::size_t>, 6> all{};
    int n = 0;
    for (const auto& facet : {f, g})
      for (const int k : facet)
        if (std::find(all.begin(), all.begin() + n, pairs[k]) == all.begin() + n) all[n++] = pairs[k];
    if (n != 4) return false;
    std::array<std::size_t, 4> as{}, bs{};
    int na = 0, nb = 0;
    for (int k = 0; k < 4; ++k) {
      if (std::find(as.begin(), as.begin() + na, all[k].first) == as.begin() + na) as[na++] = all[k].first;
      if (std::find(bs.begin(), bs.begin() + nb, all[k].second) == bs.begin() + nb) bs[nb++] = all[k].second;
    }
    return na == 2 && nb == 2;  // four distinct pairs over two a's and two b's: all of {a, a'} × {b, b'}
  }
}

// Up to how many points closed() counts ridges in a table of points × points (zeroed per check: 64 KB at most),
// rather than sorting them. A choice of method, not a tolerance: both decide the same condition.
inline constexpr std::size_t kClosedTableMaxPoints = 128;

// (1): every oriented ridge cancelled by its reverse (3D: each directed edge (u, v) occurs as often as (v, u); 2D: each
// point starts as many edges as it ends). `points`: the certificate's point count (every index below it).
template <int D>
bool closed(const std::vector<std::array<int, D>>& facets, std::size_t points) {
  if constexpr (D == 2) {
    std::vector<int> balance(points, 0);
    for (const auto& f : facets) ++balance[f[0]], --balance[f[1]];
    return std::all_of(balance.begin(), balance.end(), [](int x) { return x == 0; });
  } else if (points <= kClosedTableMaxPoints) {
    // table[u·P + v] = #(u → v) − #(v → u), for the directed edges of the facets.
    std::vector<int> table(points * points, 0);
    for (const auto& f : facets)
      for (int k = 0; k < 3; ++k) {
        const std::size_t u = f[k], v = f[(k + 1) % 3];
        ++table[u * points + v];
        --table[v * points + u];
      }
    for (const auto& f : facets)
      for (int k = 0; k < 3; ++k)
        if (table[static_cast<std::size_t>(f[k]) * points + f[(k + 1) % 3]] != 0) return false;
    return true;
  } else {
    // Each directed edge as one integer, its ends (the smaller first) and, in the lowest bit, whether it runs from the
    // larger; sorted, every edge must have as many of one kind as of the other. An edge (u, u), of a facet with a
    // repeated index, is its own reverse and cancels itself, as in the table (such a facet has no area: (2) refuses it).
    std::vector<std::uint64_t> ridges;
    const auto key = [](std::uint64_t u, std::uint64_t v, bool reversed) { return (u << 33) | (v << 1) | reversed; };
    for (const auto& f : facets)
      for (int k = 0; k < 3; ++k) {
        const auto u = static_cast<std::uint64_t>(f[k]), v = static_cast<std::uint64_t>(f[(k + 1) % 3]);
        if (u != v) ridges.push_back(u < v ? key(u, v, false) : key(v, u, true));
      }
    std::sort(ridges.begin(), ridges.end());
    for (std::size_t i = 0; i < ridges.size();) {
      int total = 0;
      std::size_t j = i;
      for (; j < ridges.size() && (ridges[j] >> 1) == (ridges[i] >> 1); ++j) total += (ridges[j] & 1) ? -1 : 1;
      if (total != 0) return false;
      i = j;
    }
    return true;
  }
}

// The unit vector n/|n|, each coordinate correctly rounded to double: sign(n_c)·√(n_c²/|n|²), rounded as the depth
// is (filter::round_quotient). False when the filter leaves a sign or a rounding undecided — a coordinate that is
// exactly zero is one (a filter never proves zero) — and the caller rounds in rationals.
template <std::size_t D>
bool round_unit(const std::array<filter::Enclosure, D>& n, std::array<double, 3>& out) {
  const filter::Enclosure nn = dot(n, n);
  for (std::size_t c = 0; c < D; ++c) {
    const int s = filter::sign(n[c]);
    double magnitude = 0;
    if (s == 0 || !filter::round_quotient(n[c] * n[c], nn, true, magnitude)) return false;
    out[c] = s * magnitude;
  }
  return true;
}
template <std::size_t D>
std::array<double, 3> round_unit(const std::array<Exact, D>& n) {
  const Exact nn = dot(n, n);
  std::array<double, 3> out{};
  for (std::size_t c = 0; c < D; ++c) out[c] = sgn(n[c]) * correctly_rounded_sqrt(Exact(n[c] * n[c] / nn));
  return out;
}

}  // namespace detail

// Does `certificate` prove the penetration depth of A and B (the conditions at the top of the file)? Exact, with
// filters in front; O(facets + n_A + n_B) signs.
template <Vector V>
requires std::same_as<scalar_t<V>, double> PenetrationCheck check_penetration(
    const ConvexPoints<V>& a, const ConvexPoints<V>& b, const PenetrationCertificate<V::dimension>& certificate) {
  constexpr int D = V::dimension;
  using detail::facet_normal, detail::facet_offset, detail::facet_points, detail::operator-;
  PenetrationCheck out;
  const auto& pairs = certificate.points;
  const auto& facets = certificate.facets;
  if (a.check() != ShapeCheck::Ok || b.check() != ShapeCheck::Ok) return out;  // empty, or a coordinate not finite
  if (facets.empty() || certificate.answer < 0 || certificate.answer >= static_cast<int>(facets.size())) return out;
  for (const auto& [i, j] : pairs)
    if (i >= a.size() || j >= b.size()) return out;
  for (const auto& f : facets)
    for (const int k : f)
      if (k < 0 || k >= static_cast<int>(pairs.size())) return out;
  // (1)
  if (!detail::closed<D>(facets, pairs.size())) return out.fault = PenetrationFault::NotClosed, out;
  detail::CertificateArithmetic<V> arithmetic(a, b, pairs);
  const auto fail = [&](PenetrationFault fault) {
    out.fault = fault;
    out.used_rationals = arithmetic.used_rationals();
    return out;
  };
  // Each facet's normal, offset (n·p₀, the same polynomial as det(p₀, p₁, p₂)) and |n|² in the cheap filter, once; a
  // sign it leaves undecided goes to arithmetic.sign (double words, then integers).
  const std::size_t facet_count = facets.size();
  std::vector<filter::Framed> offset(facet_count), normal_squared(facet_count);
  for (std::size_t k = 0; k < facet_count; ++k) {
    const auto p = facet_points(arithmetic.cheap(), facets[k]);
    const auto n = facet_normal(p);
    offset[k] = detail::dot(n, p[0]);
    normal_squared[k] = detail::dot(n, n);
  }
  // (2)
  for (std::size_t k = 0; k < facet_count; ++k) {
    const auto& g = facets[k];
    if (arithmetic.framed() && filter::sign(offset[k]) > 0) continue;
    const auto offset_of = [&](const auto& p) -> detail::element_t<decltype(p)> {
      return facet_offset(facet_points(p, g));
    };
    if (arithmetic.sign(offset_of, g) <= 0)
      return fail(PenetrationFault::OriginOutside);
  }
  // (3): the running minimum from the hint. g replaces f when strictly nearer, o_g²·|n_f|² < o_f²·|n_g|²; a facet
  // passed over was no nearer than the f of its time, which is no nearer than the final one.
  int nearest = certificate.answer;
  for (int k = 0; k < static_cast<int>(facets.size()); ++k) {
    if (k == nearest) continue;
    const auto& f = facets[nearest];
    const auto& g = facets[k];
    if (arithmetic.framed()) {
      const int cheap = filter::sign(offset[nearest] * offset[nearest] * normal_squared[k] -
                                     offset[k] * offset[k] * normal_squared[nearest]);
      if (cheap != 0) {
        if (cheap > 0) nearest = k;
        continue;
      }
    }
    if (detail::one_parallelogram<D>(pairs, f, g)) continue;  // the same plane, by an identity: a tie, no sign needed
    const int g_nearer = arithmetic.sign([&](const auto& p) -> detail::element_t<decltype(p)> {
      const auto pf = facet_points(p, f), pg = facet_points(p, g);
      const auto nf = facet_normal(pf), ng = facet_normal(pg);
      const auto of = facet_offset(pf), og = facet_offset(pg);
      return of * of * detail::dot(ng, ng) - og * og * detail::dot(nf, nf);
    }, f, g);
    if (g_nearer > 0) nearest = k;
  }
  out.answer = nearest;
  const auto& answer = facets[nearest];
  // (5)
  out.translation_in_facet = true;
  for (int k = 0; k < D && out.translation_in_facet; ++k) {
    const int s = arithmetic.sign([&](const auto& p) -> detail::element_t<decltype(p)> {
      const auto pf = facet_points(p, answer);
      if constexpr (D == 3) {
        return detail::dot(facet_normal(pf), detail::cross(pf[k], pf[(k + 1) % 3]));
      } else {
        const auto e = pf[1] - pf[0];
        return k == 0 ? detail::dot(pf[1], e) : -detail::dot(pf[0], e);
      }
    }, answer);
    out.translation_in_facet = s >= 0;
  }
  // (4): one pass over each shape along n_f (A: nothing strictly beyond a_f; B: nothing strictly behind b_f), the
  // filter's undecided points settled exactly.
  std::array<std::pair<std::size_t, std::size_t>, 4> members{};
  for (int k = 0; k < D; ++k) members[k] = pairs[answer[k]];
  std::array<std::size_t, 4> on_a{}, on_b{};
  int count_a = 0, count_b = 0;
  if (!detail::connected_members(members, D, on_a, count_a, on_b, count_b)) count_a = count_b = 0;
  std::optional<std::array<filter::Enclosure, D>> enclosed_normal;
  std::optional<std::array<mpz_class, D>> integer_normal;  // n_f times a positive power of two
  // The sign of n_f·(x_i − x_anchor) for a point the one-double pass left undecided (a point within rounding of the
  // plane: a box's fourth corner, rotated in double): in double words in the frame, else exactly, in integers.
  const auto settle = [&](const ConvexPoints<V>& shape_ref, std::size_t anchor, int side) {
    return [&, shape = &shape_ref, anchor, side](std::size_t i) {
      int s = 0;
      if (arithmetic.framed()) {
        if (!enclosed_normal) enclosed_normal = facet_normal(facet_points(arithmetic.enclosed(answer), answer));
        std::array<filter::Enclosure, D> e;
        if (arithmetic.enclosed_difference(shape->vertex(i), shape->vertex(anchor), e))
          s = filter::sign(detail::dot(*enclosed_normal, e));
      }
      if (s == 0) {  // in integers: x_i − x_anchor scaled by its own power of two (a sign needs no common one)
        if (!integer_normal) integer_normal = facet_normal(facet_points(arithmetic.integers(answer), answer));
        const V p = shape->vertex(i), q = shape->vertex(anchor);
        int lowest = 0;
        for (int c = 0; c < D; ++c)
          for (const double x : {p[c], q[c]})
            if (x != 0) lowest = std::min(lowest, detail::lowest_bit(x));
        mpz_class value = 0;
        for (int c = 0; c < D; ++c) {
          const mpz_class difference = detail::scaled_integer(p[c], -lowest) - detail::scaled_integer(q[c], -lowest);
          value += (*integer_normal)[c] * difference;
        }
        s = sgn(value);
      }
      if (side * s <= 0) return true;
      // Beyond: a_i − b_f (A's side) or a_f − b_j (B's) is a point of A⊖B past the plane.
      out.beyond = side > 0 ? std::pair{i, pairs[answer[0]].second} : std::pair{pairs[answer[0]].first, i};
      return false;
    };
  };
  V d{};
  double err = 0;
  const auto n_cheap = facet_normal(facet_points(arithmetic.cheap(), answer));
  for (int c = 0; c < D; ++c) {
    d[c] = filter::value_of(n_cheap[c]);
    err = std::max(err, filter::error_of(n_cheap[c]));
  }
  bool filtered = arithmetic.framed() && detail::pass_direction(d, err);
  const std::size_t anchor_a = members[0].first, anchor_b = members[0].second;
  if (filtered) {
    const bool holds = detail::strictly_beyond(a, V(-d), err, anchor_a, on_a, count_a, settle(a, anchor_a, 1)) &&
                       detail::strictly_beyond(b, d, err, anchor_b, on_b, count_b, settle(b, anchor_b, -1));
    if (!holds && out.beyond) return fail(PenetrationFault::NotSupporting);
    filtered = holds;  // a pass that gave up (coordinates too large for it) proves nothing either way
  }
  if (!filtered) {
    const auto check_a = settle(a, anchor_a, 1);
    const auto check_b = settle(b, anchor_b, -1);
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!check_a(i)) return fail(PenetrationFault::NotSupporting);
    for (std::size_t i = 0; i < b.size(); ++i)
      if (!check_b(i)) return fail(PenetrationFault::NotSupporting);
  }
  // Proven. PD = √(o_f²/|n_f|²) and the unit normal n_f/|n_f|, correctly rounded: by the double-word filter in the
  // frame (the unit normal does not depend on it), else in rationals.
  out.fault = PenetrationFault::None;
  bool depth_rounded = false, normal_rounded = false;
  if (arithmetic.framed()) {
    const auto pf = facet_points(arithmetic.enclosed(answer), answer);
    const auto n = facet_normal(pf);
    const filter::Enclosure o = facet_offset(pf);
    double framed_depth = 0;
    if (filter::round_quotient(o * o, detail::dot(n, n), true, framed_depth)) {
      out.depth = ScalarTraits<double>::scale_by_power_of_two(framed_depth, arithmetic.exponent());
      depth_rounded = std::isfinite(out.depth) && std::fabs(out.depth) >= std::numeric_limits<double>::min();
    }
    normal_rounded = detail::round_unit(n, out.normal);
  }
  if (!depth_rounded || !normal_rounded) {
    const auto pf = facet_points(arithmetic.exact(answer), answer);
    const auto n = facet_normal(pf);
    const Exact o = facet_offset(pf);
    if (!depth_rounded) out.depth = correctly_rounded_sqrt(Exact(o * o / detail::dot(n, n)));
    if (!normal_rounded) out.normal = detail::round_unit(n);
  }
  out.used_rationals = arithmetic.used_rationals();
  return out;
}

namespace detail {

// If the vertex pair w is the far vertex of a facet g sharing an edge with facet f (3D), flip that edge: f = (p, q, r)
// and g = (q, p, w) become (r, p, w) and (w, q, r), the same quadrilateral cut along its other diagonal, with the
// same orientation, so the surface stays closed. False (no change) when w is not such a vertex, or in 2D.
template <int D>
bool flip_toward(PenetrationCertificate<D>& c, int f, const std::pair<std::size_t, std::size_t>& w) {
  if constexpr (D != 3) {
    return false;
  } else {
    const auto found = std::find(c.points.begin(), c.points.end(), w);
    if (found == c.points.end()) return false;
    const int s = static_cast<int>(found - c.points.begin());
    const std::array<int, 3> face = c.facets[f];
    for (int k = 0; k < 3; ++k) {
      const int p = face[k], q = face[(k + 1) % 3], r = face[(k + 2) % 3];
      for (auto& g : c.facets)
        for (int m = 0; m < 3; ++m)
          if (g[m] == q && g[(m + 1) % 3] == p && g[(m + 2) % 3] == s) {
            c.facets[f] = {r, p, s};
            g = {s, q, r};
            return true;
          }
    }
    return false;
  }
}

// The certificate's polytope grown by the point w (a vertex pair), every sign exact: the facets w is strictly beyond
// (3D: det(p₁ − p₀, p₂ − p₀, w − p₀) > 0; 2D: (p₁ − p₀) × (w − p₀) < 0) go, and each directed ridge of a facet that
// goes, whose reverse is not in one that goes, is joined to w in its own orientation — the boundary of what went,
// coned to w, so the surface stays closed. False (no change) when no facet has w beyond it.
template <Vector V>
bool grow_exactly(const ConvexPoints<V>& a, const ConvexPoints<V>& b, PenetrationCertificate<V::dimension>& c,
                  const std::pair<std::size_t, std::size_t>& w) {
  constexpr int D = V::dimension;
  using detail::operator-;
  if (w.first >= a.size() || w.second >= b.size()) return false;
  auto points = c.points;
  points.push_back(w);
  const int s = static_cast<int>(points.size()) - 1;
  CertificateArithmetic<V> arithmetic(a, b, points);
  const std::array<int, 1> new_point{s};
  std::vector<bool> goes(c.facets.size());
  bool any = false;
  for (std::size_t k = 0; k < c.facets.size(); ++k) {
    const auto& g = c.facets[k];
    goes[k] = arithmetic.sign([&](const auto& p) -> element_t<decltype(p)> {
      const auto q = facet_points(p, g);
      if constexpr (D == 3)
        return dot(cross(q[1] - q[0], q[2] - q[0]), p[s] - q[0]);
      else
        return -cross(q[1] - q[0], p[s] - q[0]);
    }, g, new_point) > 0;
    any = any || goes[k];
  }
  if (!any) return false;
  std::vector<std::array<int, D>> facets;
  std::vector<std::pair<int, int>> ridges;  // directed: 3D the edges (u, v) of the facets that go; 2D (u, v) itself
  for (std::size_t k = 0; k < c.facets.size(); ++k) {
    if (!goes[k]) {
      facets.push_back(c.facets[k]);
      continue;
    }
    if constexpr (D == 3)
      for (int m = 0; m < 3; ++m) ridges.push_back({c.facets[k][m], c.facets[k][(m + 1) % 3]});
    else
      ridges.push_back({c.facets[k][0], c.facets[k][1]});
  }
  const auto has = [&](std::pair<int, int> e) { return std::find(ridges.begin(), ridges.end(), e) != ridges.end(); };
  if constexpr (D == 3) {
    for (const auto& [u, v] : ridges)
      if (!has({v, u})) facets.push_back({u, v, s});
  } else {
    // The chain that goes, u₀ → … → u_k, becomes u₀ → w → u_k.
    for (const auto& ridge : ridges) {
      const int u = ridge.first, v = ridge.second;
      const auto ends_at_u = [u](const auto& e) { return e.second == u; };
      const auto starts_at_v = [v](const auto& e) { return e.first == v; };
      if (std::none_of(ridges.begin(), ridges.end(), ends_at_u)) facets.push_back({u, s});
      if (std::none_of(ridges.begin(), ridges.end(), starts_at_v)) facets.push_back({s, v});
    }
  }
  c.points = std::move(points);
  c.facets = std::move(facets);
  c.answer = static_cast<int>(c.facets.size()) - 1;  // a new facet: the check finds the nearest from there
  return true;
}

}  // namespace detail

// The exact answer that a proven certificate gives (check_penetration's conditions hold, (5) included): PD², the
// translation, the normal, the facet with the weights of the translation, and the witness points.
template <Vector V>
requires std::same_as<scalar_t<V>, double> Penetration<exact_vector_t<V>> exact_penetration(
    const ConvexPoints<V>& a, const ConvexPoints<V>& b, const PenetrationCertificate<V::dimension>& certificate) {
  constexpr int D = V::dimension;
  using VE = exact_vector_t<V>;
  using detail::operator-;
  Penetration<VE> p;
  p.status = PenetrationStatus::Penetrating;
  p.certificate = certificate;
  p.facet_size = D;
  std::array<std::array<Exact, D>, D> pf;
  for (int k = 0; k < D; ++k) {
    const auto [i, j] = certificate.points[certificate.facets[certificate.answer][k]];
    const VE x = convert<Exact>(a.vertex(i)), y = convert<Exact>(b.vertex(j));
    p.facet[k] = SupportPoint<VE>{VE(x - y), x, y, i, j};
    for (int c = 0; c < D; ++c) pf[k][c] = p.facet[k].w[c];
  }
  const auto n = detail::facet_normal(pf);
  const Exact o = detail::facet_offset(pf), nn = detail::dot(n, n);
  for (int c = 0; c < D; ++c) p.normal[c] = n[c], p.translation[c] = o * n[c] / nn;
  p.squared_depth = o * o / nn;
  // The weights of t over the facet's points (the positive factors of check_penetration's condition (5), normalised).
  if constexpr (D == 3) {
    for (int k = 0; k < 3; ++k) p.weights[k] = detail::dot(n, detail::cross(pf[(k + 1) % 3], pf[(k + 2) % 3])) / nn;
  } else {
    const auto e = pf[1] - pf[0];
    const Exact ee = detail::dot(e, e);
    p.weights[0] = detail::dot(pf[1], e) / ee;
    p.weights[1] = -detail::dot(pf[0], e) / ee;
  }
  p.witness_a = p.weights[0] * p.facet[0].a;
  p.witness_b = p.weights[0] * p.facet[0].b;
  for (int k = 1; k < D; ++k) {
    p.witness_a = p.witness_a + p.weights[k] * p.facet[k].a;
    p.witness_b = p.witness_b + p.weights[k] * p.facet[k].b;
  }
  return p;
}

// ==== certified_penetration ==========================================================================================

// How many times certified_penetration repairs a certificate whose nearest facet's plane the check finds not
// supporting A⊖B (an edge flip, or the polytope grown by the point beyond, each decided exactly) before EPA runs in
// rationals. A count, not a tolerance: a repair costs a few exact signs and one more check, far less than EPA in
// rationals, and nothing unproven is ever kept. 4: 300 rotated cube pairs needed at most one. Pinned by
// PenetrationCertificate.RepairsProveRotatedBoxes (reference/tests/penetration_certificate_test.cpp).
inline constexpr int kCertifiedEpaRepairs = 4;

template <Vector V>
struct CertifiedPenetration {
  // Penetrating, Touching, Separated, InvalidInput, or IterationLimit (no double depth was proven, whatever stopped
  // the double EPA, and the exact finish reached max_expansions: no depth, normal or certificate).
  PenetrationStatus status = PenetrationStatus::InvalidInput;
  InputError input_error = InputError::None;
  // Filtered: the double EPA's certificate, proven by filters alone; DoubleCertified: proven with some signs (or the
  // rounding) in rationals; ExactFinish: the certificate did not hold, EPA ran in rationals. (Touching and separated
  // answers: certified_distance's path.)
  CertifiedPath path = CertifiedPath::None;
  double depth = 0;  // PD correctly rounded (0 when touching or separated)
  // The unit normal, each coordinate correctly rounded: penetrating, the answer facet's n_f/|n_f| (B moves along it by
  // PD to touch A); touching, u/|u| for certified_distance's supporting normal u (u·x ≤ 0 on A⊖B). Zero otherwise.
  V normal{};
  // Penetrating: what proves it (check_penetration holds on it; condition (5) too unless the double EPA's polytope was
  // not convex).
  PenetrationCertificate<V::dimension> certificate;
  // The exact answer (PD², the translation, the normal, the facet, the witnesses): with `with_exact`, and always after
  // an exact finish. Its status is IterationLimit when the EPA in rationals reached max_expansions.
  std::optional<Penetration<exact_vector_t<V>>> exact;
  // With `with_exact`, penetrating or touching: the contact features along `normal`'s exact direction (epa.hpp,
  // contact_features), every vertex decided exactly.
  std::optional<ContactFeatures> features;
  // With `with_exact`: the contact patch along `normal`'s exact direction (epa.hpp, contact_patch), exact: where the
  // shapes meet once B has moved by PD along it.
  std::vector<exact_vector_t<V>> patch;
  int double_expansions = 0;  // the double EPA's growths
  int repairs = 0;            // proven after this many repairs (kCertifiedEpaRepairs)
  // ExactFinish: why the double EPA's answer was not proven (Malformed when it gave none: rounding-failure, a cap).
  PenetrationFault double_fault = PenetrationFault::None;
};

// The floating-point pass in front of certified_penetration's contact features: a vertex x is left out of its
// shape's supporting plane when s = fl(ũ·x) < s_max − 2E, E = kFeaturePassError·max ‖x‖₁ + kSubnormalSlack, where ũ is
// the certified unit normal (each coordinate the correct rounding of û's: |ũ − û| ≤ 2^−53) and s_max the largest s.
// Sound, not a tolerance: |s − û·x| ≤ 2^−53·|x| + γ₃·|ũ|·|x| (+ underflow) ≤ 2^−50·‖x‖₁ + kSubnormalSlack ≤ E, so
// û·x ≤ s + E < s_max − E ≤ max û·x: x is strictly below the plane. 2^−48 leaves room for E's own rounding and for
// that of s_max − 2E (≤ 2^−52·max ‖x‖₁). Every vertex the pass keeps is decided in rationals, so a larger value only
// costs time. Pinned by the features' property in ExactEpaEqualsTheOracle.* (proptests/epa_test.cpp).
inline constexpr double kFeaturePassError = 0x1p-48;

namespace detail {

// The vertices of `shape` maximising n·x (n exact, `unit` its unit vector rounded as above), by the pass above and
// exact comparisons of the vertices it keeps.
template <Vector V>
ContactFeature certified_feature(const ConvexPoints<V>& shape, const exact_vector_t<V>& n, const V& unit) {
  using VE = exact_vector_t<V>;
  const std::size_t count = shape.size();
  std::vector<double> s(count);
  double top = -std::numeric_limits<double>::infinity(), size = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const V x = shape.vertex(i);
    double norm1 = 0;
    for (int k = 0; k < V::dimension; ++k) norm1 += std::fabs(x[k]);
    size = std::max(size, norm1);
    s[i] = dot(unit, x);
    if (s[i] > top) top = s[i];
  }
  const double threshold = top - 2 * (kFeaturePassError * size + filter::kSubnormalSlack);
  const bool decides = std::isfinite(threshold);
  return supporting_feature(
      count, [&](std::size_t i) { return VE(convert<Exact>(shape.vertex(i))); }, n,
      [&](std::size_t i) { return !decides || !std::isfinite(s[i]) || s[i] >= threshold; });
}

// The contact features and patch along the exact normal n (`unit`: its unit vector rounded) with B translated by t.
template <Vector V>
void certified_contact(const ConvexPoints<V>& a, const ConvexPoints<V>& b, const exact_vector_t<V>& n,
                       const exact_vector_t<V>& t, CertifiedPenetration<V>& r) {
  r.features = ContactFeatures{certified_feature(a, n, r.normal),
                               certified_feature(b, exact_vector_t<V>(-n), V(-r.normal))};
  r.patch = contact_patch(ExactView<V>(a), ExactView<V>(b), *r.features, n, t);
}

// The contact features and patch of a proven certificate: along its answer facet's exact normal n, with B translated
// by t = (o/|n|²)·n.
template <Vector V>
void certified_contact(const ConvexPoints<V>& a, const ConvexPoints<V>& b,
                       const PenetrationCertificate<V::dimension>& certificate, CertifiedPenetration<V>& r) {
  constexpr int D = V::dimension;
  std::array<std::array<Exact, D>, D> pf;
  for (int k = 0; k < D; ++k) {
    const auto [i, j] = certificate.points[certificate.facets[certificate.answer][k]];
    const auto x = convert<Exact>(a.vertex(i)), y = convert<Exact>(b.vertex(j));
    for (int c = 0; c < D; ++c) pf[k][c] = x[c] - y[c];
  }
  const auto n = facet_normal(pf);
  const Exact scale = facet_offset(pf) / dot(n, n);
  exact_vector_t<V> normal, t;
  for (int c = 0; c < D; ++c) normal[c] = n[c], t[c] = scale * n[c];
  certified_contact(a, b, normal, t, r);
}

// The point a_i − b_j of A⊖B with its vertices, as EPA takes it; and those of a list of vertex pairs.
template <IndexedShape A, IndexedShape B, Vector W = typename A::vector_type>
SupportPoint<W> support_point(const A& a, const B& b, std::size_t i, std::size_t j) {
  const W x = a.vertex(i), y = b.vertex(j);
  return SupportPoint<W>{W(x - y), x, y, i, j};
}
template <IndexedShape A, IndexedShape B, Vector W = typename A::vector_type>
std::vector<SupportPoint<W>> support_points(const A& a, const B& b,
                                            const std::vector<std::pair<std::size_t, std::size_t>>& pairs) {
  std::vector<SupportPoint<W>> out;
  for (const auto& [i, j] : pairs) out.push_back(support_point(a, b, i, j));
  return out;
}

}  // namespace detail

// The penetration depth of A and B for double input, exact:
//   1. EPA in double after its own GJK; its certificate checked by check_penetration (and repaired). A proven depth
//      is the answer: its certificate shows the origin strictly inside A⊖B, so the shapes overlap.
//   2. otherwise certified_distance gives the class exactly (separated, touching, overlapping);
//   3. overlapping, and the double GJK gave EPA no start: EPA in double from the proven enclosing simplex, checked;
//   4. if nothing is proven, EPA in rationals (ExactView), whose certificate is checked the same way — a failure there
//      would be a bug in gjkref, and throws.
// Every EPA here (steps 1, 3 and 4, and the rational side's) stops after `max_expansions` growths, as
// PenetrationOptions::max_expansions: at most three of them run, so a query makes at most 3·max_expansions growths
// (and kCertifiedEpaRepairs repairs per proof). An exact finish that needs more is the status IterationLimit, not an
// error: in exact arithmetic each growth adds a vertex of A⊖B, so a polygon of N vertices around the origin can need
// N − 3. (After a proven depth the rational side's EPA can reach it too: the status stays Penetrating, and `exact`
// holds its IterationLimit.)
template <Vector V>
requires std::same_as<scalar_t<V>, double> CertifiedPenetration<V> certified_penetration(
    const ConvexPoints<V>& a, const ConvexPoints<V>& b, bool with_exact = false,
    int max_expansions = kDefaultMaxExpansions) {
  constexpr int D = V::dimension;
  CertifiedPenetration<V> r;
  PenetrationOptions<V> capped;
  capped.max_expansions = max_expansions;
  // The class, exactly (certified_distance), computed when first needed: a proven depth says by itself that the
  // shapes overlap.
  std::optional<CertifiedResult<V>> classified;
  const auto class_of = [&]() -> const CertifiedResult<V>& {
    if (!classified) classified = certified_distance(a, b, Options<V>{}, CertifiedOutput::Distance);
    return *classified;
  };
  const auto exactly = [&] {
    PenetrationOptions<exact_vector_t<V>> exact_cap;
    exact_cap.max_expansions = max_expansions;
    return penetration(ExactView<V>(a), ExactView<V>(b), exact_cap);
  };
  // EPA in rationals, warm-started from the proven enclosing simplex and the points of the double EPA's polytope (a
  // polytope holding the origin; only the growth past it runs in rationals), or from scratch.
  const auto finish_exactly = [&](const PenetrationCertificate<D>& found) {
    const CertifiedResult<V>& c = class_of();
    if (static_cast<int>(c.simplex.size()) != D + 1) return exactly();
    using VE = exact_vector_t<V>;
    const ExactView<V> ea(a), eb(b);
    std::vector<SupportPoint<VE>> points = detail::support_points(ea, eb, c.simplex);
    for (const auto& [i, j] : found.points) points.push_back(detail::support_point(ea, eb, i, j));
    return detail::expand(ea, eb, detail::intersecting_answer(points, D + 1, true), max_expansions, &points);
  };
  // The double EPA's answer checked, and repaired up to kCertifiedEpaRepairs times; true when proven (r holds it).
  const auto prove = [&](Penetration<V>& fast) {
    r.double_fault = PenetrationFault::Malformed;
    r.double_expansions = fast.expansions;
    for (int repair = 0; fast.status == PenetrationStatus::Penetrating; ++repair) {
      const PenetrationCheck check = check_penetration(a, b, fast.certificate);
      r.double_fault = check.fault;
      if (check.fault == PenetrationFault::None) {
        r.status = PenetrationStatus::Penetrating;
        r.input_error = InputError::None;
        r.path = check.used_rationals ? CertifiedPath::DoubleCertified : CertifiedPath::Filtered;
        r.depth = check.depth;
        for (int k = 0; k < D; ++k) r.normal[k] = check.normal[k];
        r.certificate = std::move(fast.certificate);
        r.certificate.answer = check.answer;
        r.repairs = repair;
        if (with_exact) {
          r.exact = check.translation_in_facet ? exact_penetration(a, b, r.certificate) : finish_exactly(r.certificate);
          // Two exact answers, the proven one and the rational side's: a disagreement is a bug, never a rounding. (The
          // rational side's EPA can reach its cap: then the depth stands, proven, with no rational side.)
          if (r.exact->status != PenetrationStatus::IterationLimit &&
              (r.exact->status != PenetrationStatus::Penetrating ||
               correctly_rounded_sqrt(r.exact->squared_depth) != r.depth))
            throw std::logic_error(std::string("gjkref: the exact EPA (") + to_string(r.exact->status) +
                                   ") disagrees with the proven depth — a bug in gjkref");
          detail::certified_contact(a, b, r.certificate, r);
        }
        return true;
      }
      // The repair, for a point w the check found beyond the nearest facet f's plane. (Boxes: the four corners of a
      // face are rarely exactly coplanar in double, so A⊖B's face is two triangles with a crease far below the double
      // EPA's gap, and the double EPA may keep either, or miss the corner.) If w is a vertex of the polytope across an
      // edge of f, that edge is flipped; otherwise the polytope grows by w with every visibility decided exactly
      // (detail::grow_exactly). Either way the surface stays closed, and the check decides again.
      if (!check.beyond || repair == kCertifiedEpaRepairs) break;
      if (!detail::flip_toward(fast.certificate, check.answer, *check.beyond) &&
          !detail::grow_exactly(a, b, fast.certificate, *check.beyond))
        break;
    }
    return false;
  };

  // 1. The double EPA after its own GJK, proven: the common case.
  Penetration<V> fast = penetration(a, b, capped);
  if (fast.status == PenetrationStatus::Penetrating && prove(fast)) return r;
  // 2. Not proven: the class, exactly.
  const CertifiedResult<V>& c = class_of();
  r.input_error = c.input_error;
  r.path = c.path;
  switch (c.contact_class) {
    case ContactClass::Separated:
      r.status = c.status == Status::InvalidInput ? PenetrationStatus::InvalidInput : PenetrationStatus::Separated;
      if (with_exact && c.status == Status::Separated) r.exact = exactly();
      return r;
    case ContactClass::Touching: {
      r.status = PenetrationStatus::Touching;
      std::array<Exact, D> u;
      for (int k = 0; k < D; ++k) u[k] = (*c.touching_normal)[k];
      const auto unit = detail::round_unit(u);
      for (int k = 0; k < D; ++k) r.normal[k] = unit[k];
      if (with_exact) detail::certified_contact(a, b, *c.touching_normal, exact_vector_t<V>{}, r);
      if (with_exact) r.exact = exactly();
      return r;
    }
    case ContactClass::Overlapping: break;
  }
  // 3. Overlapping: if the double GJK gave EPA no start (it stopped in its touching band, say), the double EPA from
  // the proven enclosing simplex, proven the same way.
  if (fast.status != PenetrationStatus::Penetrating && static_cast<int>(c.simplex.size()) == D + 1) {
    fast = detail::expand(a, b, detail::intersecting_answer(detail::support_points(a, b, c.simplex), D + 1, true),
                          max_expansions);
    if (prove(fast)) return r;
  }
  // 4. EPA in rationals. (When no double answer was checked, the double EPA gave no depth: Malformed.)
  if (r.double_fault == PenetrationFault::None) r.double_fault = PenetrationFault::Malformed;
  r.exact = finish_exactly(fast.certificate);
  r.path = CertifiedPath::ExactFinish;
  if (r.exact->status == PenetrationStatus::IterationLimit) {  // the exact finish's cap: no depth
    r.status = PenetrationStatus::IterationLimit;
    return r;
  }
  if (r.exact->status != PenetrationStatus::Penetrating)
    throw std::logic_error(std::string("gjkref: the exact EPA answered ") + to_string(r.exact->status) +
                           " where the shapes overlap — a bug in gjkref");
  const PenetrationCheck check = check_penetration(a, b, r.exact->certificate);
  if (check.fault != PenetrationFault::None || !check.translation_in_facet)
    throw std::logic_error(std::string("gjkref: the exact EPA's certificate fails (") + to_string(check.fault) +
                           ") — a bug in gjkref");
  r.status = PenetrationStatus::Penetrating;
  r.depth = check.depth;
  for (int k = 0; k < D; ++k) r.normal[k] = check.normal[k];
  r.certificate = r.exact->certificate;
  r.certificate.answer = check.answer;
  if (with_exact) detail::certified_contact(a, b, r.certificate, r);
  return r;
}

}  // namespace gjkref
