// A third exact method for 2D cases (docs/oracle.md): the literal Minkowski sum conv(A) ⊕ (−conv(B)) from
// CGAL::minkowski_sum_2, the origin located with bounded_side_2 and its squared distance to the sum's boundary edges.
// Kernel: Simple_cartesian<Gmpq> (exact). With Epeck, minkowski_sum_2 failed an assertion on coordinates near 1e216
// and 1e-310 mixed (docs/oracle.md). Shares no code with the other methods.
#include <CGAL/Gmpq.h>
#include <CGAL/Simple_cartesian.h>
#include <CGAL/convex_hull_2.h>
#include <CGAL/minkowski_sum_2.h>

#include "gjkref/oracle.hpp"

namespace gjkref::oracle {
namespace {

using Kernel = CGAL::Simple_cartesian<CGAL::Gmpq>;
using Point = Kernel::Point_2;
using Polygon = CGAL::Polygon_2<Kernel>;

// The convex hull of the points (negated when `negate`), counter-clockwise.
Polygon hull(const casefile::Shape& s, bool negate) {
  std::vector<Point> points;
  for (const auto& p : s.points) points.emplace_back(negate ? -p[0] : p[0], negate ? -p[1] : p[1]);
  std::vector<Point> h;
  CGAL::convex_hull_2(points.begin(), points.end(), std::back_inserter(h));
  return Polygon(h.begin(), h.end());
}

mpq_class to_mpq(const CGAL::Gmpq& q) { return mpq_class(q.mpq()); }

}  // namespace

std::optional<SumAnswer> minkowski_sum_oracle(const casefile::Case& c) {
  if (c.dim != 2 || c.has_empty_shape() || c.has_non_finite_coordinate()) return std::nullopt;
  const Polygon a = hull(c.a, false), minus_b = hull(c.b, true);
  if (a.size() < 3 || minus_b.size() < 3) return std::nullopt;
  const TimeLimit bound(c, "minkowski-sum");
  const Polygon sum = CGAL::minkowski_sum_2(a, minus_b).outer_boundary();
  SumAnswer out;
  switch (sum.bounded_side(CGAL::ORIGIN)) {
    case CGAL::ON_BOUNDED_SIDE: out.verdict = Verdict::Overlapping; break;
    case CGAL::ON_BOUNDARY: out.verdict = Verdict::Touching; break;
    case CGAL::ON_UNBOUNDED_SIDE: {
      out.verdict = Verdict::Separated;
      std::optional<CGAL::Gmpq> best;
      for (auto e = sum.edges_begin(); e != sum.edges_end(); ++e) {
        const CGAL::Gmpq d = CGAL::squared_distance(Point(CGAL::ORIGIN), *e);
        if (!best || d < *best) best = d;
      }
      out.squared_distance = to_mpq(*best);
      break;
    }
  }
  return out;
}

}  // namespace gjkref::oracle
