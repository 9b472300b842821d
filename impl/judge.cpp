// impl/judge.cpp — gjkref/judge.hpp.
#include "gjkref/judge.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "gjkref/case_shapes.hpp"
#include "gjkref/certified_penetration.hpp"
#include "gjkref/contract.hpp"

namespace gjkref::impl {

const char* to_string(Finding f) {
  switch (f) {
    case Finding::None: return "agrees";
    case Finding::SeparatedWhileTouching: return "separated-while-touching";
    case Finding::SeparatedWhileOverlapping: return "separated-while-overlapping";
    case Finding::IntersectingWhileSeparated: return "intersecting-while-separated";
    case Finding::MissingDistance: return "missing-distance";
    case Finding::MissingWitnesses: return "missing-witnesses";
    case Finding::DistanceOutsideContract: return "distance-outside-contract";
    case Finding::WitnessOutsideContract: return "witness-outside-contract";
    case Finding::MissingDepth: return "missing-depth";
    case Finding::MissingNormal: return "missing-normal";
    case Finding::MissingContacts: return "missing-contacts";
    case Finding::DepthOutsideContract: return "depth-outside-contract";
    case Finding::NormalOutsideContract: return "normal-outside-contract";
    case Finding::ContactOutsideContract: return "contact-outside-contract";
    case Finding::NonFiniteNumber: return "non-finite-number";
    case Finding::Failed: return "failed";
    case Finding::Threw: return "threw";
    case Finding::Crashed: return "crashed";
    case Finding::Hung: return "hung";
    case Finding::WrongInvalidInput: return "wrong-invalid-input";
    case Finding::WrongClass: return "wrong-class";
  }
  return "unknown";
}

namespace {

// The depth beyond the hull method's reach: the certified reference's (certified_penetration, without its exact
// extras), under the oracle's time limit like any oracle call. A penetrating answer is a certificate, checked here
// again (check_penetration: a closed surface of points of A⊖B around the origin, every facet's plane at least as far
// as the nearest one's, which supports A⊖B) — a proof whoever found it, in O(facets + n_A + n_B) — whose nearest facet
// gives PD² = o²/|n|² and the normal n exactly, from the case's coordinates; a touching answer is certified_distance's
// exact class, PD 0, with no facet listed (the normal cone is not known). Its class must be the distance oracle's. One
// method, as the certified fast path is for the distance there, with one optimal facet and no surface (the contact
// points are judged in part: contacts_within_necessary_bounds).
oracle::Penetration certified_depth(const casefile::Case& c, const oracle::Answer& answer) {
  const oracle::TimeLimit bound(c, "certified-depth");
  return casefile::in_dimension<double>(c, [&]<class V>() {
    const auto a = casefile::to_shape<V>(c.a), b = casefile::to_shape<V>(c.b);
    const auto r = certified_penetration(a, b);
    const bool overlapping = answer.verdict == oracle::Verdict::Overlapping;
    const PenetrationStatus expected = overlapping ? PenetrationStatus::Penetrating : PenetrationStatus::Touching;
    if (r.status != expected)
      throw oracle::DisagreementError(std::string("the certified depth is ") + to_string(r.status) +
                                      " where the distance oracle says " + oracle::to_string(answer.verdict));
    oracle::Penetration p;
    p.verdict = answer.verdict;
    p.method = oracle::Method::Certified;
    if (!overlapping) return p;  // PD² = 0, depth 0
    const PenetrationCheck proof = check_penetration(a, b, r.certificate);
    if (proof.fault != PenetrationFault::None)
      throw oracle::CertificateError(std::string("the certified depth's certificate does not hold: ") +
                                     to_string(proof.fault));
    const auto& facet = r.certificate.facets[static_cast<std::size_t>(proof.answer)];
    std::array<oracle::PointPair, 3> pairs;
    for (int k = 0; k < 3; ++k) {
      const auto& [i, j] = r.certificate.points[static_cast<std::size_t>(facet[std::min(k, V::dimension - 1)])];
      pairs[k] = {i, j};
    }
    // The nearest facet's plane supports A⊖B (the check above), so it is the supporting plane of its normal, whose
    // witness features are every point of A and of B on it, as the hull method lists them.
    const oracle::DepthFacet plane = oracle::facet_plane(c, pairs);
    oracle::DepthFacet d = oracle::supporting_facet(c, plane.normal);
    if (d.offset != plane.offset)
      throw oracle::CertificateError("the certified depth's nearest facet does not support A⊖B");
    const oracle::ExactPoint& n = d.normal;
    p.squared_depth = d.offset * d.offset / (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    p.depth = proof.depth;
    p.optimal.push_back(std::move(d));
    return p;
  });
}

}  // namespace

bool within_hull_reach(const casefile::Case& c) {
  const double pairs = static_cast<double>(c.a.points.size()) * static_cast<double>(c.b.points.size());
  const double points = static_cast<double>(c.a.points.size() + c.b.points.size());
  return pairs <= oracle::kHullReachPairs && points <= oracle::kHullReachPoints;
}

const oracle::Penetration& Truth::penetration() const {
  if (!penetration_)
    penetration_ = within_hull_reach(*case_) ? oracle::penetration_oracle(*case_, answer_)
                                              : certified_depth(*case_, answer_);
  return *penetration_;
}

// Each surface facet's plane (oracle::facet_plane): its closest point to the origin, n·o/|n|², at squared distance
// o²/|n|².
// Exact; the facets of one plane give one point.
const std::vector<Truth::Foot>& Truth::boundary_feet() const {
  if (feet_) return *feet_;
  const oracle::Penetration& p = penetration();
  std::vector<Foot> feet;
  for (const auto& facet : p.surface) {
    const oracle::DepthFacet plane = oracle::facet_plane(*case_, facet);
    const oracle::ExactPoint& n = plane.normal;
    const mpq_class& offset = plane.offset;
    const mpq_class length = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    if (sgn(length) == 0) continue;  // the certificate's check refuses degenerate facets; none reaches here
    const mpq_class scale = offset / length;
    feet.push_back({offset * scale, {n[0] * scale, n[1] * scale, n[2] * scale}});
  }
  std::sort(feet.begin(), feet.end(), [](const Foot& u, const Foot& v) {
    if (const int order = cmp(u.squared_depth, v.squared_depth)) return order < 0;
    return u.point < v.point;
  });
  feet.erase(std::unique(feet.begin(), feet.end(),
                         [](const Foot& u, const Foot& v) { return u.point == v.point; }),
             feet.end());
  feet_ = std::move(feet);
  return *feet_;
}

// The range clause's exponents (gjkref/contract.hpp: kFloatJudgedExponent, kDoubleJudgedExponent,
// kLongDoubleJudgedExponent). Pinned by Judge.InputOutsideTheContractsRangeIsNotJudged.
int judged_exponent(const Info& info) {
  if (info.scalar == "float") return kFloatJudgedExponent;
  if (info.scalar == "long double") return kLongDoubleJudgedExponent;
  return kDoubleJudgedExponent;
}

namespace {

constexpr double kDoubleEpsilon = std::numeric_limits<double>::epsilon();
// The absolute part of a rounding to double: rounding any real in double's range to nearest is off by at most
// ε/2·|x| or, below the normal range, half the least subnormal; this is the least subnormal, a whole one (half of it is
// not a double). The relative terms of the allowances below (ε·x, ε·r) vanish for subnormal x and r, so an exact
// answer rounded to double there needs this term. Pinned by Judge.ExactAnswersAtTheEndsOfTheRangeAreWithinTheContract.
constexpr double kRoundingFloor = std::numeric_limits<double>::denorm_min();

struct Scales {
  double m = 0, r = 0;
};

Scales scales_of(const casefile::Case& c) {
  return casefile::in_dimension<double>(c, [&]<class V>() {
    const ConvexPoints<V> a = casefile::to_shape<V>(c.a), b = casefile::to_shape<V>(c.b);
    return Scales{input_scale(a, b), largest_coordinate(a, b)};
  });
}

Finding wrong_verdict(oracle::Verdict truth) {
  switch (truth) {
    case oracle::Verdict::Touching: return Finding::SeparatedWhileTouching;
    case oracle::Verdict::Overlapping: return Finding::SeparatedWhileOverlapping;
    default: return Finding::IntersectingWhileSeparated;
  }
}

// Is every coordinate 0 or normal in the implementation's scalar (at least `smallest`, its least normal number) and at
// most 2^e in magnitude, and the input's scale M (the largest coordinate of a difference a − b) 0 or at least 2^−e?
bool in_range(const casefile::Case& c, int e, double smallest, double m) {
  const double hi = std::ldexp(1.0, e);
  for (const auto* s : {&c.a, &c.b})
    for (const auto& p : s->points)
      for (int k = 0; k < c.dim; ++k)
        if (std::fabs(p[k]) > hi || (p[k] != 0 && std::fabs(p[k]) < smallest)) return false;
  return m == 0 || m >= std::ldexp(1.0, -e);
}

// The least normal number of the implementation's scalar, as a double (long double's is below every double).
double smallest_normal(const Info& info) {
  if (info.scalar == "float") return std::numeric_limits<float>::min();
  if (info.scalar == "long double") return 0;
  return std::numeric_limits<double>::min();
}

// x ≤ bound, exactly, for a rational x² ≥ 0 and a double bound (+∞ holds everything, NaN nothing: GMP cannot take
// either as a rational, and raises SIGFPE if asked to).
bool root_within(const mpq_class& squared, double bound) {
  if (!(bound >= 0)) return false;
  return std::isinf(bound) || squared <= mpq_class(bound) * bound;
}

// The allowances of docs/contract.md for one implementation on one case.
struct Allowances {
  bool exact = false;
  double epsilon = 0, m = 0, r = 0;
  int dim = 3;
  bool rounded = false;

  double band() const { return exact ? 0 : verdict_band(epsilon, m, r, dim, rounded); }
  // How far a reported distance or depth may be from the true value x (docs/contract.md, item 3, and for a depth
  // "Judging other implementations"). Exact implementations report doubles: one rounding of theirs and one of the
  // truth.
  double of_value(double x) const {
    return exact ? kDoubleEpsilon * x + kRoundingFloor : distance_allowance(x, epsilon, m, r, dim, rounded);
  }
  // How far the directional depth along a reported normal may exceed PD (docs/contract.md, "Penetration"): the
  // depth's allowance, and for implementations more precise than double (exact ones, long double) also the rounding
  // of their normal to double, in which every answer is reported. Why that term: a normal n rounded coordinate by
  // coordinate to ñ (|ñ_k − n_k| ≤ ε/2·|n_k|) turns by |ñ/|ñ| − n/|n|| ≤ ε, and the support function h_{A⊖B} is
  // R-Lipschitz, R = max |x| over A⊖B ≤ √dim·M (M = max ‖a − b‖∞ over vertex pairs, the size of A⊖B however far
  // from the origin the shapes are; m, computed in double from rounded differences, may be below it by a relative
  // ε/2, and this sum's own roundings are a few ε: the factor 1 + 8ε) and ≤ max|a| + max|b| ≤ 2·√dim·r, whichever
  // is smaller. (With r alone, shapes translated far from the origin had an allowance of ε times their distance from
  // it.) Double and float implementations' allowance already holds ε·M. Pinned by
  // Judge.AnExactNormalRoundedToDoubleIsWithinTheContract, Judge.ALongDoubleNormalRoundedToDoubleIsWithinTheContract
  // and Judge.ANormalsRoundingAllowanceIsTheDifferencesSizeNotItsPosition.
  double of_normal(double depth) const {
    const bool rounded_to_double = exact || epsilon < kDoubleEpsilon;
    if (!rounded_to_double) return of_value(depth);
    // Multiplied in this order so that each term stays finite where M does not (a − b beyond double's range: m = +∞,
    // and 2r may pass the largest double too); the smaller is the allowance. (Computed as √dim·ε·min(M, 2r) it was
    // +∞ there, and any normal passed. Pinned by Judge.AnswersBeyondDoublesRangeNeitherCrashNorPass.)
    const double root_dim = std::sqrt(static_cast<double>(dim)), grown = 1 + 8 * kDoubleEpsilon;
    const double by_size = root_dim * kDoubleEpsilon * grown * m;
    const double by_position = 2 * root_dim * kDoubleEpsilon * grown * r;
    return of_value(depth) + std::min(by_size, by_position);
  }
  // How far a witness or contact point x may be from its hull (docs/contract.md, item 7, and for a contact point
  // "Judging other implementations"), including its rounding to double. An exact implementation's point is off by
  // that rounding alone, at most half an ulp of each coordinate: √dim·ε·‖x‖∞ and the absolute floor, the point's own
  // size (with R, the largest coordinate of either shape, one far vertex allowed any witness near the origin: a pair √5
  // apart for d = 1 passed). Pinned by Judge.AnExactWitnessIsAllowedItsOwnRoundingAlone.
  double witness(const std::array<double, 3>& x) const {
    const double root_dim = std::sqrt(static_cast<double>(dim));
    if (exact) {
      double largest = 0;
      for (int k = 0; k < dim; ++k) largest = std::max(largest, std::fabs(x[k]));
      return root_dim * kDoubleEpsilon * largest + dim * kRoundingFloor;
    }
    const double as_double = root_dim * kDoubleEpsilon * r + dim * kRoundingFloor;
    return kContractWitnessEpsilons * epsilon * r + input_rounding_bound(epsilon, r, dim, rounded) + as_double;
  }
};

double root(const mpq_class& q) { return std::sqrt(q.get_d()); }

// Is |r − δ| ≤ tolerance, exactly, for a reported double r and the true δ = √D (D exact, δ itself irrational as a rule
// and possibly beyond double's range)? r − t ≤ δ ≤ r + t, squared where both sides are non-negative: every quantity a
// rational, no rounding anywhere (a comparison of rounded |r − d| with the tolerance let an answer a few tenths of an
// ulp beyond it pass). An infinite tolerance holds everything, a NaN nothing. Pinned by
// Judge.DistancesAndDepthsAreComparedExactlyNotAfterRounding.
bool value_near(double r, const mpq_class& squared_delta, double tolerance) {
  if (!(tolerance >= 0)) return false;
  if (std::isinf(tolerance)) return true;
  const mpq_class t(tolerance), high = mpq_class(r) + t, low = mpq_class(r) - t;
  return sgn(high) >= 0 && squared_delta <= high * high && (sgn(low) <= 0 || squared_delta >= low * low);
}

// √p ≤ √q + t, exactly, for rationals p, q ≥ 0 and a tolerance t ≥ 0: it holds when u = p − q − t² ≤ 0 or
// u² ≤ 4t²q (squaring p ≤ q + t² + 2t√q).
bool root_below(const mpq_class& p, const mpq_class& q, const mpq_class& t) {
  const mpq_class u = p - q - t * t;
  return sgn(u) <= 0 || u * u <= 4 * t * t * q;
}

// Is |√x − √D| ≤ tolerance, exactly, for rationals x, D ≥ 0 (a reported |a − b|² and the true δ²)? √x ≤ √D + t and
// √D ≤ √x + t (root_below). Pinned by Judge.DistancesAndDepthsAreComparedExactlyNotAfterRounding.
bool roots_near(const mpq_class& x, const mpq_class& squared_delta, double tolerance) {
  if (!(tolerance >= 0)) return false;
  if (std::isinf(tolerance)) return true;
  const mpq_class t(tolerance);
  return root_below(x, squared_delta, t) && root_below(squared_delta, x, t);
}

// The exact point of a double one.
oracle::ExactPoint exact_point(const std::array<double, 3>& x) {
  return {mpq_class(x[0]), mpq_class(x[1]), mpq_class(x[2])};
}

mpq_class dot(const oracle::ExactPoint& u, const oracle::ExactPoint& v, int dim) {
  mpq_class sum = 0;
  for (int k = 0; k < dim; ++k) sum += u[k] * v[k];
  return sum;
}

// h_D(n) = max over a of n·a − min over b of n·b, the support function of D = A⊖B, exactly.
mpq_class support_of_difference(const casefile::Case& c, const oracle::ExactPoint& n) {
  const auto extreme = [&](const std::vector<std::array<double, 3>>& points, int sign) {
    mpq_class best = dot(n, exact_point(points.front()), c.dim);
    for (const auto& x : points) {
      const mpq_class h = dot(n, exact_point(x), c.dim);
      if (sign * cmp(h, best) > 0) best = h;
    }
    return best;
  };
  return extreme(c.a.points, 1) - extreme(c.b.points, -1);
}

// Is the directional depth of A⊖B along n within `tolerance` of PD, exactly: h(n)/|n| − √P ≤ T, with
// h(n) = max_a n·a − min_b n·b and P = PD²? With N = |n|², H ≤ (T + √P)·√N holds at once when H ≤ 0, and otherwise
// squared: u = H² − (T² + P)·N ≤ 2T·√P·N, that is u ≤ 0 or u² ≤ 4T²·P·N². (The oracle's excess, rounded to double, is
// the one reported; compared with the allowance after its rounding, a normal a fraction of an ulp beyond it passed.)
// Pinned by Judge.NormalsAndContactsAreComparedExactlyNotAfterRounding.
bool directional_depth_within(const casefile::Case& c, const std::array<double, 3>& normal,
                              const mpq_class& squared_depth, double tolerance) {
  if (!(tolerance >= 0)) return false;
  if (std::isinf(tolerance)) return true;
  const oracle::ExactPoint n = exact_point(normal);
  const mpq_class h = support_of_difference(c, n), length = dot(n, n, c.dim);
  if (sgn(h) <= 0) return true;
  const mpq_class t(tolerance), u = h * h - (t * t + squared_depth) * length;
  return sgn(u) <= 0 || u * u <= 4 * t * t * squared_depth * length * length;
}

// The closest point of a facet's plane to the origin, n·o/|n|², exactly (n ≠ 0).
oracle::ExactPoint foot_of(const oracle::DepthFacet& f, int dim) {
  const mpq_class scale = f.offset / dot(f.normal, f.normal, dim);
  return {f.normal[0] * scale, f.normal[1] * scale, f.normal[2] * scale};
}

// Where a − b may be, exactly: the closest point to the origin of each facet of A⊖B whose depth is within `tolerance`
// of PD — the facets an answer may give within the depth's and the normal's allowances, so that its contact points are
// judged as its depth and normal are (on congruent boxes posed in double, a facet a rounding deeper than the optimal
// one is a common answer). For a facet with normal n and offset o = n·x on its plane, the foot of the perpendicular
// n·o/|n|², of length √G = o/|n|; it counts when √G − √P ≤ T (P = PD²), that is u = G − P − T² ≤ 0 or u² ≤ 4T²P.
// The optimal facets first (G = P); the origin itself when touching with none listed (a flat A⊖B). Pinned by
// Judge.ContactsOnAFacetWithinTheDepthsAllowanceAreJudgedAsTheDepthIs.
std::vector<oracle::ExactPoint> contact_candidates(const Truth& t, double tolerance, int dim) {
  const oracle::Penetration& p = t.penetration();
  std::vector<oracle::ExactPoint> points;
  for (const oracle::DepthFacet& f : p.optimal) points.push_back(foot_of(f, dim));
  if (points.empty()) points.push_back({0, 0, 0});
  if (!(tolerance >= 0) || std::isinf(tolerance)) return points;  // NaN holds nothing; +∞ holds every point already
  const mpq_class tt = mpq_class(tolerance) * tolerance;
  for (const Truth::Foot& foot : t.boundary_feet()) {
    const mpq_class u = foot.squared_depth - p.squared_depth - tt;
    if (sgn(u) > 0 && u * u > 4 * tt * p.squared_depth) break;  // nearest first: every later foot is deeper still
    if (std::find(points.begin(), points.end(), foot.point) == points.end()) points.push_back(foot.point);
  }
  return points;
}

// An upper bound on |x| over D = A⊖B, exactly, wherever the shapes are: |a − b| ≤ |a − a₀| + |a₀ − b₀| + |b₀ − b|,
// each length at most its 1-norm.
mpq_class difference_radius_bound(const casefile::Case& c) {
  const auto norm1 = [&](const std::array<double, 3>& x, const std::array<double, 3>& y) {
    mpq_class sum = 0;
    for (int k = 0; k < c.dim; ++k) sum += abs(mpq_class(x[k]) - mpq_class(y[k]));
    return sum;
  };
  const auto spread = [&](const std::vector<std::array<double, 3>>& points) {
    mpq_class largest = 0;
    for (const auto& x : points) largest = std::max(largest, norm1(x, points.front()));
    return largest;
  };
  return spread(c.a.points) + norm1(c.a.points.front(), c.b.points.front()) + spread(c.b.points);
}

// Contact points beyond the hull method's reach, where the facets of A⊖B are not known: only PD and, for overlapping
// shapes, one optimal facet (the certified reference's, its certificate checked). The contract's rule (judged under
// the reach, below) puts t = a − b within C (the contacts' allowance) of the foot t_f of a facet f whose depth |t_f| is
// within T (the depth's) of PD, and that foot on f's supporting plane: h_D(t_f) = |t_f|². Whatever f is, then
//   (1) |t| ≤ PD + T + C, and (2) PD ≤ |t| + C;
//   (3) h_D(t) ≤ (PD + T)² + C·R, R ≥ |x| over D: t·x = t_f·x + (t − t_f)·x ≤ |t_f|² + C·|x|;
//   (4) with a normal n, as the rule aligns the contacts with it over every qualifying facet, of which the
//       certificate's optimal one (foot t₀) is one: n·t ≥ n·t₀ − (N + 2C)·|n| (N the normal's allowance).
// Every comparison exact, the roots squared as in roots_near. Necessary conditions only: a pair that meets them may
// still fit no facet (the answer says the contacts were judged in part).
bool contacts_within_necessary_bounds(const casefile::Case& c, const oracle::ExactPoint& t,
                                      const oracle::Penetration& p, double depth_tolerance, double contact_allowance,
                                      const std::optional<std::array<double, 3>>& normal, double normal_allowance) {
  if (!(depth_tolerance >= 0) || !(contact_allowance >= 0)) return false;
  if (std::isinf(depth_tolerance) || std::isinf(contact_allowance)) return true;
  const mpq_class tt = dot(t, t, c.dim), depth(depth_tolerance), contact(contact_allowance);
  if (!root_below(tt, p.squared_depth, depth + contact) || !root_below(p.squared_depth, tt, contact)) return false;
  const mpq_class u = support_of_difference(c, t) - contact * difference_radius_bound(c) - p.squared_depth -
                      depth * depth;
  if (sgn(u) > 0 && u * u > 4 * depth * depth * p.squared_depth) return false;
  if (!normal || p.optimal.empty()) return true;
  if (!(normal_allowance >= 0)) return false;
  if (std::isinf(normal_allowance)) return true;
  const oracle::ExactPoint n = exact_point(*normal);
  const mpq_class g = dot(n, foot_of(p.optimal.front(), c.dim), c.dim) - dot(n, t, c.dim),
                  k = mpq_class(normal_allowance) + 2 * contact;
  return sgn(g) <= 0 || g * g <= k * k * dot(n, n, c.dim);
}

// ‖u − v‖², exactly (in doubles, a − b overflows for points near ±2^1023, and the squares overflow from about 2^512
// and underflow below about 2^−537 whatever the difference).
mpq_class squared_distance(const oracle::ExactPoint& u, const oracle::ExactPoint& v, int dim) {
  mpq_class sum = 0;
  for (int k = 0; k < dim; ++k) sum += (u[k] - v[k]) * (u[k] - v[k]);
  return sum;
}

}  // namespace

Judged judge(const Truth& t, const Result& result, const Info& info) {
  const casefile::Case& c = t.the_case();
  const oracle::Answer& truth = t.answer();
  Judged j;
  // The first finding decides the category; later ones still fill in their errors.
  const auto flag = [&j](Finding f) {
    if (j.within_contract) j.finding = f;
    j.within_contract = false;
  };
  const auto fail = [&j](Finding f) {
    j.finding = f;
    j.within_contract = false;
    return j;
  };
  const double epsilon = info.epsilon().value_or(kDoubleEpsilon);
  const bool exact = epsilon == 0;
  const bool invalid = truth.verdict == oracle::Verdict::InvalidInput;
  if (result.status == Status::Unsupported) {
    j.judged = false;
    j.not_judged = "not in this dimension";
    return j;
  }
  if (result.status == Status::Refused) {
    j.judged = false;
    j.not_judged = "refused: " + result.detail;
    return j;
  }
  // The range clause: a floating answer (or "invalid input") on input its contract makes no claim on is not judged;
  // failures, crashes and hangs are findings at any input, and so is a NaN, no number at all (a ±∞ there may be an
  // overflow's own result, and stays unjudged).
  const bool answer_like = result.status == Status::Answered || result.status == Status::InvalidInput;
  if (answer_like && !invalid && !exact &&
      !in_range(c, judged_exponent(info), smallest_normal(info), scales_of(c).m)) {
    if (result.status == Status::Answered && result.has_nan()) return fail(Finding::NonFiniteNumber);
    j.judged = false;
    const std::string e = std::to_string(judged_exponent(info));
    j.not_judged = "coordinates outside 2^±" + e + " (" + info.scalar + "'s judged range, docs/contract.md: every " +
                   "coordinate at most 2^" + e + " and 0 or normal, the scale M at least 2^-" + e + ")";
    return j;
  }
  switch (result.status) {
    case Status::Unsupported:
    case Status::Refused: break;
    case Status::Failed: return fail(Finding::Failed);
    case Status::Threw: return fail(Finding::Threw);
    case Status::Crashed: return fail(Finding::Crashed);
    case Status::Hung: return fail(Finding::Hung);
    case Status::InvalidInput: return invalid ? j : fail(Finding::WrongInvalidInput);
    case Status::Answered: break;
  }
  if (invalid) return fail(Finding::WrongInvalidInput);
  // A distance or depth of +∞ is the correct rounding of one beyond double's range: a finding only where the truth,
  // rounded to double, is finite.
  Result finite_part = result;
  if (finite_part.distance && std::isinf(*finite_part.distance) && *finite_part.distance > 0 &&
      std::isinf(truth.distance))
    finite_part.distance.reset();
  if (finite_part.penetration && std::isinf(*finite_part.penetration) && *finite_part.penetration > 0 &&
      truth.verdict == oracle::Verdict::Overlapping && std::isinf(t.penetration().depth))
    finite_part.penetration.reset();
  if (finite_part.has_non_finite_number()) return fail(Finding::NonFiniteNumber);
  const Scales s = scales_of(c);
  const Allowances allow{exact, epsilon, s.m, s.r, c.dim, info.rounds_input()};
  j.scale = s.m;
  j.band = allow.band();
  if (!exact && s.m > 0 && kContractVerdictEpsilons * epsilon * s.m < std::numeric_limits<double>::min()) {
    j.judged = false;
    char m[32];
    std::snprintf(m, sizeof m, "%.3g", s.m);  // std::to_string writes %f: 0.000000 for every M here
    j.not_judged = std::string("the contract's allowances underflow (M = ") + m + ")";
    return j;
  }
  // And their overflow: M, the largest coordinate of a difference a − b, is computed in double and is +∞ where a − b
  // leaves double's range (points near ±2^1023 on both sides; long double's judged range reaches them). The allowances
  // would all be +∞ and any answer would pass. Pinned by Judge.AnswersBeyondDoublesRangeNeitherCrashNorPass.
  if (!exact && !std::isfinite(j.band)) {
    j.judged = false;
    j.not_judged = "the contract's allowances overflow (a difference a - b is beyond double's range)";
    return j;
  }

  // 1. The verdict, with the band on the signed distance: |δ| = d apart, PD overlapping, 0 touching.
  const bool truly_separated = truth.verdict == oracle::Verdict::Separated;
  const bool says_separated = result.separated;
  bool excused = false;  // a wrong verdict inside the band
  if (says_separated != truly_separated) {
    const mpq_class& squared_delta = truly_separated ? truth.squared_distance
                                     : truth.verdict == oracle::Verdict::Overlapping
                                         ? t.penetration().squared_depth
                                         : mpq_class(0);
    j.finding = says_separated ? wrong_verdict(truth.verdict) : Finding::IntersectingWhileSeparated;
    if (exact || !root_within(squared_delta, j.band)) return fail(j.finding);
    excused = true;
  }
  const double true_distance = truth.distance;  // 0 unless apart
  // The class, from implementations that tell touching from overlapping.
  if (result.contact_class && *result.contact_class != oracle::to_string(truth.verdict)) flag(Finding::WrongClass);

  // Every number an answer reports is judged against the truth, whatever its verdict: a separated answer's depth or
  // normal, an intersecting answer's distance, claim something too. Where the verdict itself is only within the band
  // (excused), or is "intersecting" (which claims |δ| ≤ B), the numbers that follow from it may be off by the band as
  // well: a gap inside the band called touching, with distance 0 or depth 0.
  const double verdict_slack = excused ? j.band : 0;

  // 2. The distance: required of an implementation that measures, when it says separated; judged whenever reported.
  if (says_separated && !result.distance && info.can(kMeasures)) flag(Finding::MissingDistance);
  if (result.distance) {
    const double error = *result.distance == true_distance ? 0 : std::fabs(*result.distance - true_distance);
    if (says_separated && truly_separated && std::isfinite(error)) j.distance_error = error;
    const bool exact_mismatch = result.exact_squared_distance && *result.exact_squared_distance != truth.squared_distance;
    // The certified mode promises the correctly rounded distance: bit-equal to the oracle's.
    const bool rounding_mismatch = info.scalar == "certified" && *result.distance != true_distance;
    const double slack = says_separated ? verdict_slack : j.band;
    // Against the exact distance (where it is beyond double's range, d = +∞, with the allowance of the largest double);
    // the truth's own rounding d is within every allowance.
    const bool outside =
        error != 0 && !value_near(*result.distance, truth.squared_distance,
                                  allow.of_value(std::min(true_distance, std::numeric_limits<double>::max())) + slack);
    if (exact_mismatch || rounding_mismatch || outside) flag(Finding::DistanceOutsideContract);
  }

  // 3. Witness points: required of an implementation that declares them, when it says separated; each on its hull
  // within W, and |a − b| within D + 2W of d.
  if (says_separated && !result.witnesses && info.can(kWitnesses)) flag(Finding::MissingWitnesses);
  // Is the pair (a, b) a witness pair: each on its hull, and |a − b| = d, within the allowances (and `slack`: a closest
  // pair of shapes moved by up to the band is within the band of both hulls)?
  const auto witness_pair = [&](const std::array<double, 3>& a, const std::array<double, 3>& b, double slack,
                                std::optional<double>& error) {
    const mpq_class da = oracle::squared_distance_to_hull(c.a.points, a, c.dim);
    const mpq_class db = oracle::squared_distance_to_hull(c.b.points, b, c.dim);
    error = std::max(root(da), root(db));
    const double wa = allow.witness(a), wb = allow.witness(b);
    return root_within(da, wa + slack) && root_within(db, wb + slack) &&
           roots_near(squared_distance(exact_point(a), exact_point(b), c.dim), truth.squared_distance,
                      allow.of_value(std::min(true_distance, std::numeric_limits<double>::max())) + wa + wb + slack);
  };
  // With the distance's slack: the band where the verdict is excused or "intersecting" (they follow from it; a touching
  // pair called separated at a distance inside the band, with witnesses that far apart, had its distance excused and
  // its witnesses refused). Pinned by Judge.WitnessesFollowAnExcusedVerdictAsTheDistanceDoes.
  if (result.witnesses &&
      !witness_pair((*result.witnesses)[0], (*result.witnesses)[1], says_separated ? verdict_slack : j.band,
                    j.witness_error))
    flag(Finding::WitnessOutsideContract);

  // 4. Penetration: depth, normal and contact points. A declared depth is required on every overlapping pair called
  // intersecting; a declared normal and contacts with every depth reported beyond the band (at a depth rounding cannot
  // tell from 0, touching, a library may call the direction meaningless: libccd does, and FCL's contact points
  // coincide).
  const bool overlapping = truth.verdict == oracle::Verdict::Overlapping;
  if (!says_separated && overlapping && info.can(kPenetrates) && !result.penetration) flag(Finding::MissingDepth);
  if (!result.penetration && !result.normal && !result.contacts) return j;
  // After the depth's own judgement, so that a wrong depth names the finding.
  const auto require_the_rest = [&] {
    if (!result.penetration || !(*result.penetration > allow.of_value(0) + j.band)) return;
    if (info.can(kNormal) && !result.normal) flag(Finding::MissingNormal);
    if (info.can(kContacts) && !result.contacts) flag(Finding::MissingContacts);
  };
  // The truth: PD and its square, from the oracle for pairs that meet; 0 for shapes apart, along any direction that
  // separates them the directional depth h_D(n)/|n| being at most 0.
  const oracle::Penetration* p = truly_separated ? nullptr : &t.penetration();
  const double pd = p ? p->depth : 0;
  const mpq_class squared_pd = p ? p->squared_depth : mpq_class(0);
  // Where PD is beyond double's range (pd = +∞), the allowances are those of the largest double, and a finite depth is
  // measured against the exact one, as the distance is.
  const double finite_depth = std::min(pd, std::numeric_limits<double>::max());
  const double allowed = allow.of_value(finite_depth) + verdict_slack;
  if (result.penetration) {
    const double depth = *result.penetration;
    const double error = depth == pd ? 0 : std::fabs(depth - pd);
    if (std::isfinite(error)) j.depth_error = error;
    // The certified mode promises the correctly rounded depth: bit-equal to the oracle's.
    const bool rounding_mismatch = info.scalar == "certified" && depth != pd;
    const bool outside = error != 0 && !value_near(depth, squared_pd, allowed);
    if (rounding_mismatch || outside) flag(Finding::DepthOutsideContract);
  }
  require_the_rest();
  const double normal_allowance = allow.of_normal(finite_depth) + verdict_slack;
  if (result.normal) {
    // A zero normal gives no direction at all: outside the contract, with no error to measure.
    const auto excess = oracle::directional_depth_excess(c, *result.normal, squared_pd);
    if (excess && std::isfinite(*excess)) j.normal_error = excess;
    if (!excess || !directional_depth_within(c, *result.normal, squared_pd, normal_allowance))
      flag(Finding::NormalOutsideContract);
  }
  if (result.contacts && !p) {
    // Contact points of shapes apart can only be a closest pair: judged as witnesses.
    std::optional<double> error;
    const bool pair = witness_pair((*result.contacts)[0], (*result.contacts)[1], verdict_slack, error);
    j.contact_error = error;
    if (!pair) flag(Finding::ContactOutsideContract);
  } else if (result.contacts) {
    const auto& [ca, cb] = *result.contacts;
    const mpq_class da = oracle::squared_distance_to_hull(c.a.points, ca, c.dim);
    const mpq_class db = oracle::squared_distance_to_hull(c.b.points, cb, c.dim);
    const double wa = allow.witness(ca), wb = allow.witness(cb);
    const bool on_hulls = root_within(da, wa + verdict_slack) && root_within(db, wb + verdict_slack);
    oracle::ExactPoint gap = exact_point(ca);  // a − b, exactly
    for (int k = 0; k < 3; ++k) gap[k] -= mpq_class(cb[k]);
    const double contact_allowance = allowed + wa + wb;
    if (p->method == oracle::Method::Certified) {
      // Beyond the hull method's reach the depth is known without A⊖B's surface, where contact points may lie (every
      // facet within the depth's allowance of PD, ties included): each point within its allowance of its hull, and
      // the pair within the bounds every right pair meets; said so. Pinned by
      // Judge.BeyondTheHullsReachContactsMeetWhatEveryRightPairMeets.
      j.contacts_judged_in_part = "beyond the hull method's reach: the facets of A-B are not known; the contact points "
                                  "are held to their hulls and to bounds every right pair meets (docs/contract.md)";
      const double error = std::max({std::fabs(root(dot(gap, gap, c.dim)) - pd), root(da), root(db)});
      if (std::isfinite(error)) j.contact_error = error;
      if (!on_hulls ||
          !contacts_within_necessary_bounds(c, gap, *p, allowed, contact_allowance, result.normal, normal_allowance))
        flag(Finding::ContactOutsideContract);
      return j;
    }
    // a − b within the allowance of the closest point of a facet of A⊖B at the depth's allowance from PD (an optimal
    // one: PD·n̂), exactly (|a − b − t|² against its square).
    const std::vector<oracle::ExactPoint> closest = contact_candidates(t, allowed, c.dim);
    std::vector<bool> fits;
    // The error: the offset from the nearest optimal PD·n̂ (in 256-bit floating point), or from a nearer foot of a
    // facet within the allowance (after the optimal ones in `closest`).
    double offset = oracle::contact_offset(ca, cb, *p);
    const std::size_t optimal = std::max<std::size_t>(p->optimal.size(), 1);
    for (std::size_t i = 0; i < closest.size(); ++i) {
      const mpq_class squared = squared_distance(gap, closest[i], c.dim);
      fits.push_back(root_within(squared, contact_allowance));
      if (i >= optimal) offset = std::min(offset, root(squared));
    }
    j.contact_error = std::max({offset, root(da), root(db)});
    if (!on_hulls || std::none_of(fits.begin(), fits.end(), [](bool b) { return b; })) {
      flag(Finding::ContactOutsideContract);
    } else if (result.normal && closest.size() > 1) {
      // The normal and the contacts describe one contact (plugin.h): where several facets qualify (optimal ones that
      // tie, or facets within the depth's allowance of PD), a − b must be the closest point of a facet the normal
      // points to — as aligned with it, n·t, as with any other, within the normal's and the contacts' allowances
      // together ((best − n·t)/|n|; every t has length between PD and PD plus the depth's allowance). A normal along
      // one tied facet with contacts on another passed both checks, each on its own. Pinned by
      // Judge.TheNormalAndTheContactsDescribeOneContact and
      // Judge.ContactsOnAFacetWithinTheDepthsAllowanceAreJudgedAsTheDepthIs.
      const oracle::ExactPoint n = exact_point(*result.normal);
      std::vector<mpq_class> along;
      for (const oracle::ExactPoint& x : closest) along.push_back(dot(n, x, c.dim));
      const mpq_class best = *std::max_element(along.begin(), along.end());
      const mpq_class length = dot(n, n, c.dim);  // 0 for a zero normal: no direction, nothing to align (refused above)
      bool one_contact = false;
      for (std::size_t i = 0; i < closest.size(); ++i)
        if (fits[i])
          one_contact |= sgn(length) == 0 || root_within((best - along[i]) * (best - along[i]) / length,
                                                         normal_allowance + contact_allowance);
      if (!one_contact) flag(Finding::ContactOutsideContract);
    }
  }
  return j;
}

Judged judge(const oracle::Answer& truth, const Result& result, const Info& info, const casefile::Case& c) {
  return judge(Truth(c, truth), result, info);
}

std::string summary(const Judged& j) {
  if (!j.judged) return "not judged";
  if (j.finding == Finding::None) return "yes";
  return std::string(j.disagrees() ? "NO: " : "band: ") + to_string(j.finding);
}

}  // namespace gjkref::impl
