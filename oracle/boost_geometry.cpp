// Boost.Geometry's answer for 2D cases, in double: a non-exact second opinion shown beside the exact oracles.
#include <boost/geometry.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/geometries/polygon.hpp>
#include <cmath>

#include "gjkref/oracle.hpp"

namespace gjkref::oracle {

std::optional<Opinion> boost_geometry_opinion(const casefile::Case& c) {
  namespace bg = boost::geometry;
  using Point = bg::model::d2::point_xy<double>;
  if (c.dim != 2 || c.has_empty_shape() || c.has_non_finite_coordinate()) return std::nullopt;
  bg::model::multi_point<Point> differences;
  for (const auto& a : c.a.points)
    for (const auto& b : c.b.points) differences.emplace_back(a[0] - b[0], a[1] - b[1]);
  bg::model::polygon<Point> hull;
  bg::convex_hull(differences, hull);
  const Point origin(0, 0);
  Opinion o;
  o.intersecting = bg::covered_by(origin, hull);
  o.distance = o.intersecting ? 0.0 : bg::distance(origin, hull);
  return o;
}

}  // namespace gjkref::oracle
