// impl/adapters/boost_geometry.cpp — Boost.Geometry (Debian libboost-dev, double), 2D: the shapes as a user of the
// library would build them — the convex hull of each point set (bg::convex_hull into a polygon) — then
// bg::intersects for the verdict and bg::distance for the distance. Not a GJK: the baseline a 2D user might reach for
// instead. A point set with fewer than three points in general position gives a degenerate polygon, as it would for
// that user.
#include <boost/geometry.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/geometries/polygon.hpp>
#include <boost/version.hpp>

#include "adapter.hpp"

namespace {

namespace bg = boost::geometry;
using Point = bg::model::d2::point_xy<double>;
using Polygon = bg::model::polygon<Point>;

Polygon hull_of(const gjkref_query& q, int side) {
  bg::model::multi_point<Point> points;
  for (const auto& p : gjkref::adapters::points_of(q, side)) points.emplace_back(p[0], p[1]);
  Polygon hull;
  bg::convex_hull(points, hull);
  return hull;
}

void intersects_and_distance(const gjkref_query& q, gjkref_answer& answer) {
  const Polygon a = hull_of(q, 0), b = hull_of(q, 1);
  if (bg::intersects(a, b)) {
    answer.outcome = GJKREF_INTERSECTING;
  } else {
    gjkref::adapters::answer_separated(answer, bg::distance(a, b));
  }
}

const gjkref_implementation kBoostGeometry{
    GJKREF_PLUGIN_ABI_VERSION,
    "boost-geometry",
    "Boost " BOOST_LIB_VERSION " (Debian libboost-dev, double)",
    "double",
    GJKREF_2D,
    GJKREF_CAN_DECIDE | GJKREF_CAN_MEASURE,
    gjkref::adapters::guarded<intersects_and_distance>};
const gjkref_implementation* const kAll[] = {&kBoostGeometry};

}  // namespace

extern "C" const gjkref_implementation* const* gjkref_plugin_implementations(size_t* count) {
  *count = 1;
  return kAll;
}
