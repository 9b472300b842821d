// gjkref/oracle.hpp — exact oracles for "where is the origin relative to A⊖B?", with no CGAL type in sight.
//
// Inputs are the doubles of a case, each taken as the exact rational it is. Answers are exact: the verdict, the
// squared distance as a rational, exact witness points on conv(A) and conv(B), and the distance correctly rounded to
// double. Methods (docs/oracle.md):
//   hull_oracle — the primary: the convex hull of the pairwise differences of A's and B's extreme points, with the
//                 affine dimension (0 to 3) decided by exact predicates, the origin classified by exact orientation
//                 tests, and the closest point constructed exactly on the closest feature.
//   qp_oracle   — independent, simplex-based: the squared distance as an exact quadratic program over the weights of
//                 A's and B's points (CGAL's QP solver on Gmpzf, Bland pricing), the class from an exact linear program
//                 (are there strictly positive weights putting the origin in A⊖B?) and the affine dimension from an
//                 exact rank. Shares no code with hull_oracle.
//   minkowski_sum_oracle — 2D only, a third check: CGAL's literal Minkowski sum of the two hulls. It and
//                 boost_geometry_opinion live in the library gjkref::oracle_cross (link it to call them).
//   fast_oracle — for campaigns and for inputs beyond the hull's reach: the certified reference's exact answer
//                 (gjkref/certified.hpp), accepted only if its certificate checks exactly here, in one filtered pass
//                 over each shape; otherwise hull_oracle decides. Its answers are proven, not trusted.
// Every answer carries a certificate (below) and every oracle checks it before returning: a failed check throws
// CertificateError. check_certificate() re-checks any answer from the case alone.
#pragma once

#include <gmpxx.h>

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gjkref/casefile.hpp"

namespace gjkref::oracle {

enum class Verdict {
  Separated,    // the origin is not in A⊖B
  Touching,     // in A⊖B but not in its interior (every flat, collinear or single-point A⊖B containing it)
  Overlapping,  // in the interior of A⊖B
  InvalidInput  // an empty shape or a non-finite coordinate: no geometric question to answer
};

// The feature of A⊖B on which the closest point lies (its relative interior).
enum class Feature { None, Vertex, Edge, Face, Interior };

using ExactPoint = std::array<mpq_class, 3>;  // in 2D the third coordinate is 0

// Which method produced an answer.
enum class Method { Hull, Qp, Certified, Support };

// A weight on one input point of a shape: `index` into the case's a.points or b.points.
struct Weight {
  std::size_t index = 0;
  mpq_class weight;
};

// The proof of an answer, checked exactly against the case by check_certificate():
// - weights_a and weights_b: strictly positive, each summing to 1, with witness_a = Σ w·a and witness_b = Σ w·b, so
//   v = witness_a − witness_b is a point of A⊖B;
// - separated: v ≠ 0, squared_distance = |v|², and v·a ≥ v·witness_a for every a, v·b ≤ v·witness_b for every b:
//   the plane through v normal to v has A⊖B on its far side, so v is the point of A⊖B closest to the origin;
// - touching: v = 0, and `normal` u ≠ 0 with u·a ≤ u·witness_a for every a and u·b ≥ u·witness_b for every b: a
//   plane through the origin with A⊖B on one side, so the origin is on the boundary. (Both methods give one: the hull
//   method a facet's normal, the QP method its class program's dual or, for a flat A⊖B, a normal of its affine hull.)
// - overlapping: v = 0, and the points carrying weights span the whole space (their differences a − a₀, b − b₀ have
//   full rank): with every weight positive, the origin is in the relative interior of conv(those of A) −
//   conv(those of B), which is full-dimensional, so it is an interior point of A⊖B.
struct Certificate {
  std::vector<Weight> weights_a, weights_b;
  std::optional<ExactPoint> normal;
};

struct Answer {
  Verdict verdict = Verdict::InvalidInput;
  mpq_class squared_distance;  // exact; 0 unless separated
  double distance = 0;         // sqrt(squared_distance), correctly rounded to double (round to nearest, ties to even)
  ExactPoint witness_a{}, witness_b{};  // closest points (a common point when not separated)
  Feature feature = Feature::None;
  int affine_dimension = -1;  // of A⊖B: 0 point, 1 segment, 2 polygon, 3 polytope
  Certificate certificate;    // empty for InvalidInput
  Method method = Method::Hull;
};

Answer hull_oracle(const casefile::Case& c);
// The largest n_A·n_B of an exposed face (the input points of A and of B on the certificate's plane) at which
// fast_oracle asks hull_oracle for the minimal face holding the answer, when the answer's own simplex does not show it.
// Beyond it the certified answer stands, proven, with Feature::None. Not a tolerance: a cost limit. The hull method's
// time grows with n_A·n_B (docs/oracle.md, "Reach"); 250,000 pairs keep one call to a few seconds.
// Pinned by FastOracle.AnswersBeyondTheHullsReach.
inline constexpr double kHullReachPairs = 250000;
// The most points (n_A + n_B) at which `gjkref eval` runs hull_oracle as its first method: with one shape large and
// the other small, the hull's time grows with the large shape's points, all of them extreme on a sphere (about 0.8 s
// at 10,000 + 1 and 3.3 s at 30,000 + 1 sphere points; 12.5 s at 100,000 + 1, docs/oracle.md, "Reach"). 20,000 keep
// it to about 2 s. Beyond it, or beyond kHullReachPairs, the certified fast path answers. A cost limit, not a
// tolerance. Pinned by CTest cli.eval-beyond-reach.
inline constexpr double kHullReachPoints = 20000;
// The most points (n_A + n_B) at which `gjkref eval` runs qp_oracle as the second method: its time grows with the
// points of both shapes (about 9 s at 5,000 + 5,000 or 10,000 + 1 sphere points, docs/oracle.md, "Reach"); 4,000
// keep it to a few seconds. Beyond it the certified fast path checks the hull's answer. A cost limit, not a tolerance.
inline constexpr double kQpReachPoints = 4000;
// The feature is not computed by this method (Feature::None).
Answer qp_oracle(const casefile::Case& c);
Answer fast_oracle(const casefile::Case& c);

// The third method, 2D only: CGAL::minkowski_sum_2(conv A, −conv B), the origin located in the sum and its squared
// distance to the sum's boundary. nullopt for 3D cases, invalid input, or when either hull has fewer than 3 vertices
// (minkowski_sum_2 takes polygons). No witnesses, no certificate: it is a cross-check of verdicts and distances.
struct SumAnswer {
  Verdict verdict = Verdict::InvalidInput;
  mpq_class squared_distance;  // exact; 0 unless separated
};
std::optional<SumAnswer> minkowski_sum_oracle(const casefile::Case& c);

// What is wrong with an answer's certificate, checked exactly against the case; nullopt when it proves the answer
// (verdict, squared distance and witnesses; the feature and the affine dimension are not part of the proof).
std::optional<std::string> check_certificate(const casefile::Case& c, const Answer& answer);

// Thrown by an oracle whose own answer fails check_certificate(): a bug in the oracle or in CGAL, never a tolerance.
struct CertificateError : std::logic_error {
  using std::logic_error::logic_error;
};

// The second method on demand (campaigns run it on a sample of cases and on every disagreement): qp_oracle's answer,
// or a DisagreementError naming both answers when its verdict, squared distance or closest vector v differs.
struct DisagreementError : std::logic_error {
  using std::logic_error::logic_error;
};
Answer cross_check(const casefile::Case& c, const Answer& answer);

// ---- Penetration depth (docs/oracle.md, "Penetration depth") --------------------------------------------------------
//
// For overlapping shapes the origin is interior to D = A⊖B, and the translational penetration depth is
//   PD = min over facets F of D of the distance from the origin to F's plane
// — the length of the shortest translation t of B after which the closed shapes touch; t = PD·n for an optimal facet's
// outward unit normal n (B moves along n: n points from A into B). Touching shapes have PD = 0.

// A pair of input points, a of A and b of B, naming the point a − b of D.
struct PointPair {
  std::size_t a = 0, b = 0;
  bool operator==(const PointPair&) const = default;
};

// A supporting plane of D, {x : normal·x = offset}, with D on the side normal·x ≤ offset. Its witness features are
// F_A(normal) (the points of A on A's supporting plane of that normal) and F_B(−normal): indices into the case's
// points, in input order, duplicates included.
struct DepthFacet {
  ExactPoint normal;  // exact, not unit length; outward
  mpq_class offset;   // normal·x on the plane: > 0 when the origin is inside D
  std::vector<std::size_t> on_a, on_b;
};

// The plane of a facet of D through d_k = a_{facet[k].a} − b_{facet[k].b} (a surface entry: in 2D the third pair
// repeats the second), exactly: normal n = (d₁ − d₀) × (d₂ − d₀) in 3D, the edge d₀ → d₁ turned clockwise in 2D
// (outward for a counter-clockwise order), offset o = n·d₀; on_a and on_b left empty. Its closest point to the origin
// is n·o/|n|², at squared distance o²/|n|². The pairs must name points of the case.
DepthFacet facet_plane(const casefile::Case& c, const std::array<PointPair, 3>& facet);
// The supporting plane of D with outward normal n ≠ 0: offset h_D(n) = max over a of n·a − min over b of n·b, and its
// witness features F_A(n), F_B(−n) (every point of A, and of B, on its shape's supporting plane), all exact
// (interval-filtered).
DepthFacet supporting_facet(const casefile::Case& c, const ExactPoint& n);

struct Penetration {
  Verdict verdict = Verdict::InvalidInput;  // the distance oracle's verdict: PD is defined for touching and overlapping
  mpq_class squared_depth;                  // PD², exact; 0 when touching
  double depth = 0;                         // PD correctly rounded to double
  // Overlapping: every optimal facet, one per plane (ties are common: congruent boxes). Touching with a
  // full-dimensional D: every facet of D whose plane passes through the origin — their normals generate the normal
  // cone of D at the origin, the directions in which B may be moved to separate the shapes (a vertex or an edge of D
  // has several). Touching with a flat D: the hull method lists none (every normal of D's affine hull qualifies); the
  // support method lists the two normals of D's hyperplane when D spans one (a polygon in 3D, a segment in 2D), else
  // none.
  std::vector<DepthFacet> optimal;
  // The certificate of the hull method: D's boundary as oriented facets — triangles (3D) or edges (2D: the third
  // entry repeats the second) — of differences of input points, each outward (counter-clockwise seen from outside).
  // Empty for the support method, and when D is not full-dimensional.
  std::vector<std::array<PointPair, 3>> surface;
  // The hull method's certificate when D is flat (touching, no surface): the origin as a point of D — strictly
  // positive weights on input points of A and of B, each set summing to 1, with Σ w·a = Σ w·b (the distance answer's
  // weights). Empty otherwise.
  std::vector<Weight> origin_a, origin_b;
  Method method = Method::Hull;
};

// Method 1: the facets of the convex hull of the differences (the hull oracle's hull), certificate checked before
// returning (CertificateError if it fails). `answer` is an oracle's answer for the same case (its verdict is used).
Penetration penetration_oracle(const casefile::Case& c, const Answer& answer);
// Method 2, independent of the hull of D: D's facet normals enumerated from A's and B's own faces and edges (every
// facet of a Minkowski sum is a face of one summand plus a vertex of the other, or the sum of two non-parallel edges),
// each kept only if its plane supports D, and PD the least distance among them. No CGAL.
Penetration penetration_by_support(const casefile::Case& c, const Answer& answer);
// The exact check of a hull-method penetration certificate (see docs/oracle.md for why it proves minimality):
// - a surface: D is full-dimensional, every listed facet's plane supports D with the origin strictly behind it
//   (overlapping) or not in front of it (touching), the facets close up (every directed edge matched by its reverse),
//   PD² is the least squared offset over them — exactly 0 when touching: the origin is on a facet's plane, so on the
//   boundary — and `optimal` lists every plane attaining it, one per direction (touching: the whole normal cone);
// - no surface (touching only): D is flat (its affine dimension below the case's), origin_a and origin_b put the
//   origin in D, and no facet is listed.
std::optional<std::string> check_penetration_certificate(const casefile::Case& c, const Penetration& p);
// Method 2 on demand: its answer, or a DisagreementError when the two claim different things. Both give PD²; where
// both list optimal facets (a hull-method surface: D full-dimensional), the same set of normal directions; on a flat
// D, where the hull method lists none, the support method's must be the normals of D's hyperplane (two, opposite,
// each plane holding every input point) when D spans one, and none when it spans less.
Penetration cross_check_penetration(const casefile::Case& c, const Answer& answer, const Penetration& p);

// For judging a reported normal u ≠ 0 of an intersecting pair: h_D(u)/|u| − PD, the directional depth along u in
// excess of the least (h_D the support function of D). Exactly 0 when u is an optimal normal (or, touching, in the
// normal cone), positive otherwise; the value is rounded to double from a 256-bit evaluation. nullopt for u = 0.
std::optional<double> directional_depth_excess(const casefile::Case& c, const std::array<double, 3>& u,
                                               const mpq_class& squared_depth);
// For judging a reported contact point pair (a', b') of an intersecting pair: the least, over the optimal facets, of
// |(a' − b') − PD·n̂| (n̂ the facet's unit normal): how far a' − b' is from a closest boundary point of D. 256-bit.
double contact_offset(const std::array<double, 3>& a, const std::array<double, 3>& b, const Penetration& p);
// The exact squared distance from a point to conv(points) (for judging witness and contact points).
mpq_class squared_distance_to_hull(const std::vector<std::array<double, 3>>& points, const std::array<double, 3>& x,
                                   int dim);

// √q correctly rounded to double, for a rational q ≥ 0 (MPFR, with an exactness check of the rounding).
double correctly_rounded_sqrt(const mpq_class& q);

// A non-exact second opinion for 2D cases, from Boost.Geometry in double: the convex hull of the rounded differences
// a − b, `covered_by` for the origin and `distance` to it. Not an oracle: it shows what double-precision geometry
// answers (docs/oracle.md). nullopt for 3D cases and invalid input.
struct Opinion {
  bool intersecting = false;
  double distance = 0;
};
std::optional<Opinion> boost_geometry_opinion(const casefile::Case& c);

// The time bound on oracle calls (hull_oracle, qp_oracle and the depth methods: CGAL code that must terminate, and did
// not always in other versions or with other pricing rules; docs/oracle.md). CPU time, not wall time: a paused,
// starved or frozen process is not hanging. The default: above the slowest calls measured within the methods' reach
// (about 10 s; docs/oracle.md, "Reach"), where a generated case takes milliseconds.
inline constexpr double kDefaultOracleTimeLimitSeconds = 60;
// Any value is taken: at 0 or below a call is reported at the watchdog's first look, and NaN never reports (gjkref's
// --oracle-time-limit takes 0.001 to 1,000,000 s only).
void set_time_limit(double seconds);
double time_limit();

// What happens when a call's thread has used more CPU time than the limit. A running CGAL call cannot be stopped, so
// the process ends either way:
// - by default, one line on stderr names the method, the limit and the case (its name and size), the case is saved
//   as $GJKREF_FAILURE_DIR/oracle-timeout-METHOD-HASH.json when that variable is set (nowhere otherwise), and the
//   process aborts;
// - with an action set, the action runs (on the watchdog's thread, while the call goes on: it records what its
//   program needs, say the case as a per-case result) and the process ends with std::_Exit(kTimeLimitExitStatus),
//   which the program's supervising process reads as "this case passed the oracle's time limit" and carries on from
//   (gjkref check restarts the shard, gjkref eval reports the case; docs/comparing.md).
// nullptr restores the default. Fork-safe: a child process starts with no armed call and its own watchdog.
using TimeLimitAction = void (*)(const casefile::Case& c, const char* method, double limit_seconds);
inline constexpr int kTimeLimitExitStatus = 86;
void on_time_limit(TimeLimitAction action);

// Arms the bound for one call, for as long as it lives.
class TimeLimit {
 public:
  TimeLimit(const casefile::Case& c, const char* method);
  ~TimeLimit();
  TimeLimit(const TimeLimit&) = delete;
  TimeLimit& operator=(const TimeLimit&) = delete;

 private:
  unsigned long long id_;
};

const char* to_string(Verdict v);
const char* to_string(Feature f);
const char* to_string(Method m);

}  // namespace gjkref::oracle
