// gjkref/simplex.hpp — the simplex GJK carries from one iteration to the next, and the words its answers use.
//
// A simplex here is up to dimension + 1 points of A⊖B, each with the vertices of A and B that made it, and the
// barycentric weights of its point closest to the origin. reduce() turns the region functions' answer
// (regions.hpp: which feature is closest, with which weights) into the next simplex.
#pragma once

#include <array>

#include "gjkref/regions.hpp"
#include "gjkref/support.hpp"

namespace gjkref {

enum class Status {
  Separated,       // the shapes are disjoint; `closest` is the shortest vector between them
  Intersecting,    // the shapes share a point; touching counts (the shapes are closed sets)
  IterationLimit,  // the cap was reached first; |closest| is an upper bound on the distance, nothing more
  InvalidInput,    // see `input_error`; no other field is meaningful
};

// Which stop rule ended the loop (the numbered rules at the top of gjk.hpp). Tells why an answer is what it is.
enum class StopRule {
  None,             // invalid input: the loop never ran
  Enclosed,         // 1: the full-dimensional simplex contains the origin (as the region test decided)
  OriginOnSimplex,  // 1: v, computed, is exactly zero: the origin lies on the simplex (a vertex, edge or face)
  TouchingBand,     // 1: v is not zero but within the touching band (floating modes only)
  IterationCap,     // 2
  SeparatingPlane,  // 3: boolean query, v·w > 0
  DualityGap,       // 4
  RepeatedSupport,  // 5: w is already in the simplex (floating modes only)
  NoProgress,       // 6: the new simplex is not closer (floating modes only)
};

// Which pass of the loop gave the answer (gjk.hpp). Exact scalars run the textbook alone. Floating ones run the
// textbook first, in one power-of-two frame, and hand the query to the careful pass (the floating layer,
// floating.hpp) when the textbook's rounding cannot be vouched for.
enum class Pass {
  Textbook,  // the textbook loop and region functions (floating modes: the first pass, accepted)
  Careful,   // the careful pass: the floating layer's loop and region functions (floating modes only)
  ExactFinish,  // the careful pass's answer failed the post-pass check; the exact loop answered (finish.hpp)
  Unchecked,    // the careful pass's answer failed the post-pass check, and the shapes give no vertices to finish
                // exactly with: outside the contract's guarantee (finish.hpp)
};

enum class InputError {
  None,
  EmptyA,              // shape A has no points
  EmptyB,              // shape B has no points
  NonFiniteA,          // shape A has a NaN or infinite coordinate (or transform entry)
  NonFiniteB,          // likewise for B
  DifferenceOverflow,  // a difference a − b overflowed to infinity (finite inputs near the top of the range)
  BadWarmStart,        // a warm-start index pair names a vertex that does not exist
};

// The simplex GJK ended with: points of A⊖B (with the vertices of A and B that made them) and the barycentric
// weights of the closest point. Weights are ≥ 0 and sum to 1 (exactly, with an exact scalar). Only the first `size`
// points and weights are meaningful.
template <Vector V>
struct Simplex {
  std::array<SupportPoint<V>, 4> points{};
  std::array<scalar_t<V>, 4> weights{};
  int size = 0;
  bool encloses_origin = false;  // full-dimensional and containing the origin (the weights locate it)

  // Σ λ_i x_i for x = w, a or b.
  template <class Member>
  V combine(Member member) const {
    std::array<const V*, 4> x{};
    for (int i = 0; i < size; ++i) x[i] = &(points[i].*member);
    return weighted_sum(weights, x, size);
  }
  bool contains(const SupportPoint<V>& p) const {
    for (int i = 0; i < size; ++i)
      if (points[i].same_vertices(p)) return true;
    return false;
  }
};

// The simplex of the closest feature `f` of `candidates` (the points the region functions saw, in the same order),
// written over `s` (the loop reuses one simplex's storage: rationals keep their allocations).
template <Vector V>
void reduce(const std::array<SupportPoint<V>, 4>& candidates, const ClosestFeature<scalar_t<V>>& f, Simplex<V>& s) {
  s.size = f.count;
  for (int i = 0; i < f.count; ++i) {
    s.points[i] = candidates[f.vertex[i]];
    s.weights[i] = f.weight[i];
  }
  s.encloses_origin = f.encloses_origin;
}
template <Vector V>
Simplex<V> reduce(const std::array<SupportPoint<V>, 4>& candidates, const ClosestFeature<scalar_t<V>>& f) {
  Simplex<V> s;
  reduce(candidates, f, s);
  return s;
}

}  // namespace gjkref
