// gjkref/gjk.hpp — the GJK loop: boolean intersection and distance with witness points.
//
// Both queries run the same loop (Gilbert, Johnson & Keerthi 1988, in van den Bergen's formulation):
//   v ← the point of the current simplex closest to the origin (regions.hpp), then
//   w ← s_{A⊖B}(−v), the support point of the Minkowski difference in direction −v, then
//   the simplex grows by w and shrinks to the feature closest to the origin, until a stop rule fires.
// Stop rules, in the order they are tested (docs/algorithm.md explains each):
//   1. the simplex encloses the origin, v = 0, or |v| is within the touching band → Intersecting
//   2. the iteration cap is reached                                             → IterationLimit (|v| is an upper
//                                                                                  bound)
//   3. boolean query only: the plane v·x = v·w separates (v·w > 0, and in floating
//      modes by more than the touching band)                                      → Separated
//   4. duality gap: |v|² − v·w ≤ gap·|v|²  — the main stop rule                   → Separated (distance converged)
//   5. w is already a vertex of the simplex (same vertex pair of A and B)         → Separated (stalled by rounding)
//   6. the new simplex is not closer to the origin than the old one              → Separated (stalled by rounding)
// Rules 4 to 6 are reached only with |v| outside the touching band (rule 1), so their verdict rests on the distance.
// With an exact scalar, the touching band and the gap are zero and rules 5 and 6 cannot fire (|v| decreases
// strictly while v·w < |v|²), so every answer is exactly right; the loop ends because |v| strictly decreases over
// finitely many simplices.
//
// The loop is the textbook's for every scalar. What it measures — v, v·v, v·w, the touching band, rule 3's test — it
// asks of its loop layer: TextbookLoop below for an exact scalar (the formulas as written). A floating query runs
// twice at most (run): first TextbookPass (gjkref/floating.hpp), the textbook's formulas in one power-of-two frame,
// which answers where the contract's bounds hold for its rounded v and otherwise hands the query over; then, after a
// hand-over, FloatingLoop, the careful pass, which measures in each step's frame and runs the secondary stop rules 5
// and 6. Those exist for rounding only; the loop calls them, and the hand-over, in one marked block. The careful pass's
// answer then goes through the post-pass (gjkref/finish.hpp): checked against the contract's bounds, or finished
// exactly.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "gjkref/floating.hpp"
#include "gjkref/regions.hpp"
#include "gjkref/simplex.hpp"
#include "gjkref/support.hpp"
#include "gjkref/tolerances.hpp"

namespace gjkref {

// Proof of separation: every point x of A⊖B has direction·x ≤ direction·support.w < 0, so the origin is not in A⊖B.
// `support` is s_{A⊖B}(direction) as computed; an exact re-check recomputes the maximum over all vertices.
template <Vector V>
struct SeparationCertificate {
  V direction;
  SupportPoint<V> support;
};

template <Vector V>
struct Options {
  int max_iterations = kDefaultMaxIterations;
  // Floating modes: skip the textbook pass and run the careful pass alone (what the careful layer's own tests pin).
  // The answer is within the same contract either way.
  bool careful_pass_only = false;
  // Warm start (temporal coherence), optional. Either a first search direction (e.g. the previous query's
  // `closest`, negated: any non-zero vector), or a previous simplex as (index in A, index in B) pairs, for shapes
  // that hand out vertices by index. The answer (status and distance) is the same as a cold start's; only the path
  // and the iteration count change.
  std::optional<V> initial_direction;
  std::vector<std::pair<std::size_t, std::size_t>> warm_start_simplex;
};

template <Vector V>
struct Result {
  using scalar_type = scalar_t<V>;

  Status status = Status::InvalidInput;
  InputError input_error = InputError::None;
  StopRule stop_rule = StopRule::None;
  // v = witness_a − witness_b, the point of A⊖B closest to the origin. Zero when intersecting.
  V closest{};
  // Closest points on A and B: Σ λ_i a_i and Σ λ_i b_i over the final simplex. When intersecting, a common point
  // (in floating modes the two may differ by up to the touching band).
  V witness_a{}, witness_b{};
  Simplex<V> simplex;  // when intersecting: the certificate, a simplex of A⊖B containing the origin
  // Passes of the main loop, each making one support query (a start from a direction takes one more: the options'
  // initial direction, or +x for shapes without vertex access; first_point).
  // The walk past a flat segment (rule 6) makes at most kStalledStepsWithGap more per query, not counted here.
  int iterations = 0;
  Pass pass = Pass::Textbook;  // which pass answered (floating modes: Careful after a hand-over)
  std::optional<SeparationCertificate<V>> separation;  // when separated: the certificate

  // |v|², exact with an exact scalar. In floating modes it may under/overflow for extreme inputs: use distance().
  scalar_type squared_distance() const { return dot(closest, closest); }

  // |v|: for floating scalars, in the scalar's own precision, computed in a power-of-two frame (it never under- or
  // overflows and scales exactly); for exact scalars (no square root), the square root of the exact squared
  // distance rounded to double — for display; the exact answer is squared_distance().
  auto distance() const {
    using Tr = ScalarTraits<scalar_type>;
    if constexpr (Tr::is_exact) {
      return Tr::sqrt_as_double(squared_distance());
    } else {
      const int e = Tr::frame_exponent(max_abs_component(closest));
      const V scaled = scale_by_power_of_two(closest, -e);
      return Tr::scale_by_power_of_two(std::sqrt(dot(scaled, scaled)), e);
    }
  }
};

namespace detail {

enum class Query { Boolean, Distance };

// The post-pass after a careful pass (finish.hpp, included at the end of this file).
template <SupportMapping A, SupportMapping B, Vector V>
void post_pass(const A& a, const B& b, Query query, Result<V>& r);

// The answer, written into the query's result: the status, the rule, and what the final simplex gives. True: the loop
// answered.
template <Vector V>
bool finish(Result<V>& r, Status status, StopRule rule, Simplex<V>& s) {
  r.status = status;
  r.stop_rule = rule;
  r.witness_a = s.combine(&SupportPoint<V>::a);
  r.witness_b = s.combine(&SupportPoint<V>::b);
  r.closest = (status == Status::Intersecting) ? V{} : s.combine(&SupportPoint<V>::w);
  if (&s != &r.simplex) r.simplex = std::move(s);
  return true;
}

// The result of invalid input: the error and nothing else.
template <Vector V>
Result<V> invalid_input(InputError e) {
  Result<V> r;
  r.input_error = e;
  return r;
}

template <SupportMapping A, SupportMapping B>
std::optional<InputError> validate(const A& a, const B& b) {
  const ShapeCheck check_a = a.check(), check_b = b.check();
  if (check_a == ShapeCheck::Empty) return InputError::EmptyA;
  if (check_a == ShapeCheck::NonFinite) return InputError::NonFiniteA;
  if (check_b == ShapeCheck::Empty) return InputError::EmptyB;
  if (check_b == ShapeCheck::NonFinite) return InputError::NonFiniteB;
  return std::nullopt;
}

// The loop layer's textbook, for exact scalars: v = Σ λᵢwᵢ over the simplex, no frame, no touching band, and rule 3's
// plane separates when v·w > 0.
template <Vector V>
struct TextbookLoop {
  using T = scalar_t<V>;
  using Regions = TextbookRegions<T>;
  static constexpr bool rounds = false;
  static constexpr Pass pass = Pass::Textbook;
  struct Measure {
    V v;
  };
  struct Step {
    Points<V> points;  // the simplex's points and w
    V v;
    T vv, vw;
  };
  struct State {};

  static Points<V> frame_points(const Simplex<V>& s) {
    Points<V> p{};
    for (int i = 0; i < s.size; ++i) p[i] = s.points[i].w;
    return p;
  }
  static Measure measure(const Simplex<V>& s, State&) { return {s.combine(&SupportPoint<V>::w)}; }
  static bool within_touching_band(const Measure&) { return false; }
  static Step step(const Simplex<V>& s, const SupportPoint<V>& w, const Measure& m, State&) {
    Step step{frame_points(s), m.v, dot(m.v, m.v), dot(m.v, w.w)};
    step.points[s.size] = w.w;
    return step;
  }
  static bool separates(const Step& step) { return step.vw > T(0); }
};

template <Vector V>
using LoopLayer = std::conditional_t<is_exact_v<scalar_t<V>>, TextbookLoop<V>, FloatingLoop<V>>;

// The warm-start layer. Every simplex the loop builds from a cold start is affinely independent in exact arithmetic
// (each new w lies off the affine hull of the current feature), and the region functions are written for such
// simplices. A warm start names arbitrary points of A⊖B, so it is held to the same rule: a point that lies in the
// affine hull of the points kept before it adds nothing and is dropped — any subset of A⊖B's points is a valid start,
// so dropping never changes the answer, only how warm the start is. "Lies in the hull" is decided exactly in exact
// arithmetic; in floating modes a measure within its rounding counts as zero (kVolumeRoundingEpsilons·ε times the
// product of the edge lengths, as in signed_volume): a repeated point; a third point whose cross product with the
// first two is that small (collinear); a fourth whose volume with the first three is (coplanar). Kept, such a point
// makes a flat triangle or tetrahedron whose rounded areas or volumes can all share one sign, and the region tests
// then see the origin enclosed. Regressions: WarmStart.RepeatedPointsDoNotMakeAFalseEnclosure,
// WarmStart.CoplanarPointsDoNotMakeAFalseEnclosure; properties: WarmStart.FlatDifferencesGiveTheColdAnswer{2d,3d}.
template <Vector V>
bool extends_the_hull(const std::array<SupportPoint<V>, 4>& kept, int k, const V& w) {
  using T = scalar_t<V>;
  using std::abs;
  if (k == 0 || !is_finite(w)) return true;  // an overflowing difference is kept, for the loop to report
  const V& p = kept[0].w;
  if (k == 1) return !(w == p);
  if (k == 2) {
    const V e1 = kept[1].w - p, e2 = w - p;
    const auto n = cross(e1, e2);
    T nn;
    if constexpr (V::dimension == 3)
      nn = dot(n, n);
    else
      nn = n * n;
    const T r = Tolerances<T>::volume_rounding();
    return nn > r * r * dot(e1, e1) * dot(e2, e2);
  }
  if constexpr (V::dimension == 3) {
    const Volume<T> volume = RegionLayer<T>::volume(p, kept[1].w, kept[2].w, w);
    return abs(volume.value) > volume.rounding;
  } else {
    return false;  // a 2D simplex has at most three points
  }
}

// The book's "arbitrary point of A⊖B" to start from: the support point in the initial direction when one is given;
// else a₀ − b₀, the shapes' first vertices, where they hand out vertices by index (no support call: one fewer per
// query); else the support along +x.
template <SupportMapping A, SupportMapping B, Vector V = typename A::vector_type>
SupportPoint<V> first_point(const A& a, const B& b, const Options<V>& options) {
  if (options.initial_direction && !is_zero(*options.initial_direction))
    return minkowski_support(a, b, *options.initial_direction);
  if constexpr (IndexedShape<A> && IndexedShape<B>) {
    const V pa = a.vertex(0), pb = b.vertex(0);
    return {pa - pb, pa, pb, 0, 0};
  } else {
    V x{};
    x[0] = scalar_t<V>(1);
    return minkowski_support(a, b, x);
  }
}

// The first simplex, written into s: from a warm-start simplex (through the warm-start layer above), or the first
// point above. False, with s untouched: a warm start that cannot be used (more pairs than a simplex has points, an
// index out of range, or shapes that do not hand out vertices by index).
template <SupportMapping A, SupportMapping B, Vector V = typename A::vector_type>
bool initial_simplex(const A& a, const B& b, const Options<V>& options, Simplex<V>& s) {
  if (!options.warm_start_simplex.empty()) {
    if constexpr (IndexedShape<A> && IndexedShape<B>) {
      std::array<SupportPoint<V>, 4> pts{};
      if (options.warm_start_simplex.size() > static_cast<std::size_t>(V::dimension + 1)) return false;
      int k = 0;
      for (const auto& [ia, ib] : options.warm_start_simplex) {
        if (ia >= a.size() || ib >= b.size()) return false;
        const V pa = a.vertex(ia), pb = b.vertex(ib);
        const V w = pa - pb;
        if (extends_the_hull(pts, k, w)) pts[k++] = {w, pa, pb, ia, ib};
      }
      Simplex<V> whole;
      whole.points = pts;
      whole.size = k;
      reduce(pts, closest_on_simplex(LoopLayer<V>::frame_points(whole), k), s);
      return true;
    } else {
      return false;  // warm start by indices needs shapes that hand out vertices by index
    }
  }
  s.points[0] = first_point(a, b, options);
  s.weights[0] = scalar_t<V>(1);
  s.size = 1;
  s.encloses_origin = false;
  return true;
}

// The loop, on one loop layer, from the first simplex (in r.simplex), answering into r. False: the layer handed the
// query over (the textbook pass in floating modes, where it cannot vouch for its answer; TextbookPass in floating.hpp
// says when).
template <class Layer, SupportMapping A, SupportMapping B, Vector V = typename A::vector_type>
bool run_loop(const A& a, const B& b, const Options<V>& options, Query query, Result<V>& r) {
  using T = scalar_t<V>;
  r.pass = Layer::pass;
  typename Layer::State state;
  Simplex<V> other;  // with r.simplex, the loop's two simplices: the current one and the next, swapped each iteration
  Simplex<V>* current = &r.simplex;
  Simplex<V>* next = &other;
  for (int iteration = 0;; ++iteration) {
    Simplex<V>& s = *current;
    r.iterations = iteration;
    // Rule 1.
    if (s.encloses_origin) return finish(r, Status::Intersecting, StopRule::Enclosed, s);
    // v: the simplex's point closest to the origin (a layer may hand out the measure it keeps, by reference).
    const auto& m = Layer::measure(s, state);
    if (is_zero(m.v)) return finish(r, Status::Intersecting, StopRule::OriginOnSimplex, s);
    if (Layer::within_touching_band(m)) return finish(r, Status::Intersecting, StopRule::TouchingBand, s);
    // Rule 2.
    if (iteration >= options.max_iterations) return finish(r, Status::IterationLimit, StopRule::IterationCap, s);

    // w goes in the slot after the simplex's points (s.size is at most the dimension here: a full simplex encloses
    // the origin and rule 1 has stopped the loop), where the region functions' candidates are read from.
    SupportPoint<V>& w = s.points[s.size];
    w = minkowski_support(a, b, -m.v);
    if (!is_finite(w.w)) {
      r = invalid_input<V>(InputError::DifferenceOverflow);
      return true;
    }
    r.iterations = iteration + 1;
    const auto step = Layer::step(s, w, m, state);  // the points s ∪ {w}, v, v·v and v·w
    // Rules 4 to 6 answer Separated by the distance: rule 1 has just found |v| outside the touching band. (Not by the
    // sign of v·w: in floating modes v carries an absolute rounding error of about ε·max|w_i|, which tilts its
    // direction by about ε·max|w_i|/|v|; for distances below about √ε·max|w_i| that tilt, across the shapes' size,
    // exceeds |v|², and v·w can take either sign. The distance itself stays accurate — docs/contract.md.)
    const auto separated = [&](StopRule rule) {
      r.separation = SeparationCertificate<V>{-step.v, w};
      return finish(r, Status::Separated, rule, s);
    };
    // Rule 3.
    if (query == Query::Boolean && Layer::separates(step)) return separated(StopRule::SeparatingPlane);
    // Rule 4, the main stop rule: v·w/|v| ≤ distance ≤ |v|, and the two bounds have met.
    if (step.vv - step.vw <= Tolerances<T>::relative_gap() * step.vv) return separated(StopRule::DualityGap);

    // The simplex grows by w (in the slot after its points) and shrinks to its feature closest to the origin.
    const ClosestFeature<T> feature = closest_on_simplex<V, typename Layer::Regions>(step.points, s.size + 1);
    reduce(s.points, feature, *next);
    if constexpr (Layer::rounds) {  // floating modes: the careful pass's rules 5 and 6, the textbook pass's hand-over
      const typename Layer::Progress progress = Layer::progress(a, b, s, w, m, step, feature, *next, state);
      if (progress.hand_over) return false;
      if (progress.stop) return separated(*progress.stop);
    }
    std::swap(current, next);
  }
}

// One query. Exact scalars run the textbook loop. Floating ones run the textbook pass, and the careful pass when the
// textbook pass hands over (or when asked to run it alone); both start from the same first simplex. The result is one
// object, built in place: every path returns r (a copy of a result is hundreds of bytes).
template <SupportMapping A, SupportMapping B, Vector V = typename A::vector_type>
Result<V> run(const A& a, const B& b, const Options<V>& options, Query query) {
  Result<V> r;
  if (auto error = validate(a, b)) {
    r.input_error = *error;
    return r;
  }
  if (!initial_simplex(a, b, options, r.simplex)) {  // which then leaves r.simplex as it was
    r.input_error = InputError::BadWarmStart;
    return r;
  }
  for (int i = 0; i < r.simplex.size; ++i)
    if (!is_finite(r.simplex.points[i].w)) {
      r = invalid_input<V>(InputError::DifferenceOverflow);
      return r;
    }
  if constexpr (is_exact_v<scalar_t<V>>) {
    run_loop<TextbookLoop<V>>(a, b, options, query, r);
  } else if (options.careful_pass_only) {
    run_loop<FloatingLoop<V>>(a, b, options, query, r);
    post_pass(a, b, query, r);
  } else if (!run_loop<TextbookPass<V>>(a, b, options, query, r)) {
    r = Result<V>{};  // a hand-over: the careful pass starts afresh, from the same first simplex
    initial_simplex(a, b, options, r.simplex);
    run_loop<FloatingLoop<V>>(a, b, options, query, r);
    post_pass(a, b, query, r);  // its answer checked, or finished exactly
  }
  return r;
}

}  // namespace detail

// Do A and B intersect? Touching counts as intersecting. Stops as soon as a separating plane is found, so for a
// separated answer `closest` is only an upper bound on the distance; use distance() for the distance.
template <SupportMapping A, SupportMapping B>
requires std::same_as<typename A::vector_type, typename B::vector_type> Result<typename A::vector_type> intersect(
    const A& a, const B& b, const Options<typename A::vector_type>& options = {}) {
  return detail::run(a, b, options, detail::Query::Boolean);
}

// The distance between A and B with witness points, or Intersecting.
template <SupportMapping A, SupportMapping B>
requires std::same_as<typename A::vector_type, typename B::vector_type> Result<typename A::vector_type> distance(
    const A& a, const B& b, const Options<typename A::vector_type>& options = {}) {
  return detail::run(a, b, options, detail::Query::Distance);
}

inline const char* to_string(Status s) {
  switch (s) {
    case Status::Separated: return "separated";
    case Status::Intersecting: return "intersecting";
    case Status::IterationLimit: return "iteration-limit";
    case Status::InvalidInput: return "invalid-input";
  }
  return "?";
}

inline const char* to_string(StopRule r) {
  switch (r) {
    case StopRule::None: return "none";
    case StopRule::Enclosed: return "enclosed";
    case StopRule::OriginOnSimplex: return "origin-on-simplex";
    case StopRule::TouchingBand: return "touching-band";
    case StopRule::IterationCap: return "iteration-cap";
    case StopRule::SeparatingPlane: return "separating-plane";
    case StopRule::DualityGap: return "duality-gap";
    case StopRule::RepeatedSupport: return "repeated-support";
    case StopRule::NoProgress: return "no-progress";
  }
  return "?";
}

inline const char* to_string(Pass p) {
  switch (p) {
    case Pass::Textbook: return "textbook";
    case Pass::Careful: return "careful";
    case Pass::ExactFinish: return "exact-finish";
    case Pass::Unchecked: return "unchecked";
  }
  return "?";
}

inline const char* to_string(InputError e) {
  switch (e) {
    case InputError::None: return "none";
    case InputError::EmptyA: return "empty shape A";
    case InputError::EmptyB: return "empty shape B";
    case InputError::NonFiniteA: return "non-finite coordinate in A";
    case InputError::NonFiniteB: return "non-finite coordinate in B";
    case InputError::DifferenceOverflow: return "a difference a - b overflows";
    case InputError::BadWarmStart: return "warm-start index out of range (or shapes without vertex access)";
  }
  return "?";
}

}  // namespace gjkref

#include "gjkref/finish.hpp"  // the post-pass (its definitions need the whole of this file)
