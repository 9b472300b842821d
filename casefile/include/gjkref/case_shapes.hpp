// Shapes of a gjkref-case/1 case in a given scalar and dimension: the one conversion every gjkref tool uses (header
// only; users link gjkref::exact as well).
#pragma once

#include "gjkref/casefile.hpp"
#include "gjkref/exact.hpp"
#include "gjkref/gjk.hpp"
#include "gjkref/support.hpp"

namespace gjkref::casefile {

// The points of `s` as V (Vec2 or Vec3 of T): each double converted to T (exactly for long double and Exact).
template <class V>
ConvexPoints<V> to_shape(const Shape& s) {
  using T = scalar_t<V>;
  std::vector<V> pts;
  pts.reserve(s.points.size());  // gmpxx's rationals move without noexcept: a vector that grows copies them all
  for (const auto& p : s.points) {
    V v;
    for (int i = 0; i < V::dimension; ++i) v[i] = ScalarCast<T, double>::apply(p[i]);
    pts.push_back(v);
  }
  return ConvexPoints<V>(std::move(pts));
}

// The reference's options for the case: its warm start, if it has one (the direction converted to T, the pairs as
// they are); the default options otherwise.
template <class V>
Options<V> to_options(const Case& c) {
  Options<V> options;
  if (!c.warm_start) return options;
  if (c.warm_start->direction) {
    V d;
    for (int i = 0; i < V::dimension; ++i) d[i] = ScalarCast<scalar_t<V>, double>::apply((*c.warm_start->direction)[i]);
    options.initial_direction = d;
  }
  for (const auto& [ia, ib] : c.warm_start->pairs) options.warm_start_simplex.push_back({ia, ib});
  return options;
}

// Calls f.template operator()<V>() with V = Vec2<T> or Vec3<T> as the case's dimension says.
template <class T, class F>
auto in_dimension(const Case& c, F&& f) {
  return c.dim == 2 ? f.template operator()<Vec2<T>>() : f.template operator()<Vec3<T>>();
}

}  // namespace gjkref::casefile
