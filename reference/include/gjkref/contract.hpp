// gjkref/contract.hpp — the scales docs/contract.md states its bounds in, for anyone checking a result against it
// (the tests, `gjkref eval`). The constants themselves are in tolerances.hpp.
#pragma once

#include <algorithm>

#include "gjkref/support.hpp"

namespace gjkref {

// M, the input scale: the largest coordinate magnitude of A⊖B, max over vertex pairs (a, b) of ‖a − b‖∞, computed in
// the shapes' own scalar type.
template <Vector V>
scalar_t<V> input_scale(const ConvexPoints<V>& a, const ConvexPoints<V>& b) {
  scalar_t<V> m(0);
  for (const V& p : a.points())
    for (const V& q : b.points()) m = std::max(m, max_abs_component(V(p - q)));
  return m;
}

// R, the largest coordinate magnitude of A and B: the scale of the error made by rounding the input to a narrower
// type (docs/contract.md, "Input rounding").
template <Vector V>
scalar_t<V> largest_coordinate(const ConvexPoints<V>& a, const ConvexPoints<V>& b) {
  scalar_t<V> r(0);
  for (const auto* shape : {&a, &b})
    for (const V& p : shape->points()) r = std::max(r, max_abs_component(p));
  return r;
}

}  // namespace gjkref
