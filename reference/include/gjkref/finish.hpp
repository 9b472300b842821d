// gjkref/finish.hpp — the post-pass of a floating query: the careful pass's answer, checked against the contract's
// bounds, or finished exactly.
//
// The textbook pass answers only by stops whose error docs/contract.md derives. The careful pass also stops where
// rounding has stalled the loop (rules 5 and 6) and on enclosures its rounded region tests accept; no bound of that
// kind covers those stops, and on needle and sliver Minkowski differences they were wrong (docs/edge-cases.md,
// "Needle and sliver differences"). So every careful-pass answer passes one check before it is returned:
//   within_contract  the answer shows, from one more support point and its own simplex, that it is within the
//                    contract's bounds (tolerances.hpp: kCheckSeparatedEpsilons, kCheckIntersectingEpsilons, with the
//                    derivation). A certificate of the floating answer, checked in floating point with its rounding
//                    counted: it holds whoever found the answer.
//   finish_exactly   otherwise, for shapes that hand out their vertices (IndexedShape), the exact loop answers on the
//                    vertices taken as the rationals they are, warm-started from the careful pass's simplex, and its
//                    answer is rounded to the scalar (within one ulp, far inside every bound). Shapes without vertex
//                    access keep the careful answer, marked Pass::Unchecked.
// Rule 3's separating plane (boolean query) and the iteration cap are outside the check: the plane is proven by its own
// margin, and a capped answer claims only an upper bound.
// Included at the end of gjk.hpp; gjk.hpp's run() calls post_pass after a careful pass.
#pragma once

#include <cmath>
#include <concepts>
#include <cstddef>
#include <utility>
#include <vector>

#include "gjkref/exact.hpp"
#include "gjkref/gjk.hpp"

namespace gjkref {

// Cap on the exact loop's iterations (here and in the certified mode's step 3). Not a tolerance: exact GJK ends by
// itself (|v| strictly decreases over finitely many simplices), in a few dozen iterations on the shapes measured; the
// cap only guarantees termination in writing. Pinned by Certified.ExactFinishAnswersWithinTheCap.
inline constexpr int kExactFinishMaxIterations = 1 << 20;

namespace detail {

// Does the careful pass's answer r show that it is within the contract? (tolerances.hpp, kCheckSeparatedEpsilons and
// kCheckIntersectingEpsilons, derive what a passing answer guarantees.) Every quantity is measured in a power-of-two
// frame, so scaling the input by 2^k changes nothing.
template <SupportMapping A, SupportMapping B, Vector V = typename A::vector_type>
bool within_contract(const A& a, const B& b, const Result<V>& r) {
  using T = scalar_t<V>;
  using Tr = ScalarTraits<T>;
  const Simplex<V>& s = r.simplex;
  for (int i = 0; i < s.size; ++i)
    if (!(s.weights[i] >= T(0))) return false;  // the simplex's point must be in the hull of its points
  T largest(0);
  for (int i = 0; i < s.size; ++i) largest = std::max(largest, max_abs_component(s.points[i].w));
  const T epsilon = Tr::epsilon();

  if (r.status == Status::Intersecting) {
    // p = Σλᵢŵᵢ within kCheckIntersectingEpsilons·ε·m of the origin.
    const int e = Tr::frame_exponent(largest);
    V p{};
    for (int i = 0; i < s.size; ++i) p = p + s.weights[i] * scale_by_power_of_two(s.points[i].w, -e);
    const T m = Tr::scale_by_power_of_two(largest, -e);
    const T bound = T(kCheckIntersectingEpsilons) * epsilon * m;
    return dot(p, p) <= bound * bound;
  }

  // Separated: |c| − ĉ·ŵ ≤ gap·|c| + kCheckSeparatedEpsilons·ε·m, with ŵ the support along −c.
  const V& c = r.closest;
  if (is_zero(c)) return false;
  // The support along −c in c's frame (minkowski_support_along): along c itself, the support's products would
  // underflow when |c| and the points are both far below 1, and ŵ would be whichever point came first.
  const SupportPoint<V> w = minkowski_support_along(a, b, V(-c));
  if (!is_finite(w.w)) return false;
  largest = std::max(largest, max_abs_component(w.w));
  const int e = Tr::frame_exponent(largest);          // the frame of A⊖B's points
  const int ec = Tr::frame_exponent(max_abs_component(c));  // c's own: |c| may be far below the points
  const V unit = scale_by_power_of_two(c, -ec);       // c·2^−ec: its largest coordinate in [1, 2)
  const T length = std::sqrt(dot(unit, unit));
  const T upper = Tr::scale_by_power_of_two(length, ec - e);                     // |c|, in the points' frame
  const T lower = dot(unit, scale_by_power_of_two(w.w, -e)) / length;           // ĉ·ŵ, in the points' frame
  const T m = Tr::scale_by_power_of_two(largest, -e);
  return upper - lower <= Tolerances<T>::relative_gap() * upper + T(kCheckSeparatedEpsilons) * epsilon * m;
}

// The exact loop on the shapes' vertices taken exactly, warm-started from r's simplex, its answer rounded into r.
template <IndexedShape A, IndexedShape B, Vector V = typename A::vector_type>
void finish_exactly(const A& a, const B& b, Query query, Result<V>& r) {
  using T = scalar_t<V>;
  using VE = exact_vector_t<V>;
  const auto exact_points = [](const auto& shape) {
    std::vector<VE> points;
    points.reserve(shape.size());
    for (std::size_t i = 0; i < shape.size(); ++i) points.push_back(convert<Exact>(shape.vertex(i)));
    return ConvexPoints<VE>(std::move(points));
  };
  Options<VE> options;
  options.max_iterations = kExactFinishMaxIterations;
  for (int i = 0; i < r.simplex.size; ++i)
    options.warm_start_simplex.push_back({r.simplex.points[i].index_a, r.simplex.points[i].index_b});
  const Result<VE> x = run(exact_points(a), exact_points(b), options, query);
  const auto rounded = [](const VE& p) {
    V q;
    for (int k = 0; k < V::dimension; ++k) q[k] = round_to<T>(p[k]);
    return q;
  };
  const auto support_point = [&](const SupportPoint<VE>& p) {
    const V pa = a.vertex(p.index_a), pb = b.vertex(p.index_b);
    return SupportPoint<V>{V(pa - pb), pa, pb, p.index_a, p.index_b};
  };
  const int iterations = r.iterations;
  r = Result<V>{};
  r.status = x.status;
  r.input_error = x.input_error;
  r.stop_rule = x.stop_rule;
  r.closest = rounded(x.closest);
  r.witness_a = rounded(x.witness_a);
  r.witness_b = rounded(x.witness_b);
  r.simplex.size = x.simplex.size;
  r.simplex.encloses_origin = x.simplex.encloses_origin;
  for (int i = 0; i < x.simplex.size; ++i) {
    r.simplex.points[i] = support_point(x.simplex.points[i]);
    r.simplex.weights[i] = round_to<T>(x.simplex.weights[i]);
  }
  r.iterations = iterations + x.iterations;
  r.pass = Pass::ExactFinish;
  if (x.separation) r.separation = SeparationCertificate<V>{rounded(x.separation->direction),
                                                            support_point(x.separation->support)};
}

// After a careful pass: r stands if it passes within_contract; otherwise the exact loop finishes (IndexedShape), or r
// stands marked Pass::Unchecked.
template <SupportMapping A, SupportMapping B, Vector V>
void post_pass(const A& a, const B& b, Query query, Result<V>& r) {
  if (r.status != Status::Separated && r.status != Status::Intersecting) return;
  if (r.stop_rule == StopRule::SeparatingPlane) return;
  if (within_contract(a, b, r)) return;
  if constexpr (IndexedShape<A> && IndexedShape<B>) {
    finish_exactly(a, b, query, r);
  } else {
    r.pass = Pass::Unchecked;
  }
}

}  // namespace detail

}  // namespace gjkref
