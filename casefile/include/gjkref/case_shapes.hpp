// Shapes of a gjkref-case/1 case in a given scalar and dimension: the one conversion every gjkref tool uses (header
// only; users link gjkref::exact as well).
#pragma once

#include "gjkref/casefile.hpp"
#include "gjkref/exact.hpp"
#include "gjkref/support.hpp"

namespace gjkref::casefile {

// The points of `s` as V (Vec2 or Vec3 of T): each double converted to T (exactly for long double and Exact).
template <class V>
ConvexPoints<V> to_shape(const Shape& s) {
  using T = scalar_t<V>;
  std::vector<V> pts;
  for (const auto& p : s.points) {
    V v;
    for (int i = 0; i < V::dimension; ++i) v[i] = ScalarCast<T, double>::apply(p[i]);
    pts.push_back(v);
  }
  return ConvexPoints<V>(std::move(pts));
}

// Calls f.template operator()<V>() with V = Vec2<T> or Vec3<T> as the case's dimension says.
template <class T, class F>
auto in_dimension(const Case& c, F&& f) {
  return c.dim == 2 ? f.template operator()<Vec2<T>>() : f.template operator()<Vec3<T>>();
}

}  // namespace gjkref::casefile
