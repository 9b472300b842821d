// impl/adapters/libccd.cpp — libccd 2.1 (Debian libccd-dev, built with CCD_DOUBLE): GJK and MPR intersection tests and
// GJK+EPA and MPR penetration, on point clouds given by support functions. 3D only (libccd has no 2D).
//
// Settings: CCD_INIT's defaults — first direction (1, 0, 0), max_iterations unlimited ((unsigned long)-1),
// epa_tolerance and mpr_tolerance 1e-4, dist_tolerance 1e-6 — as a user who calls CCD_INIT gets them. A query that
// never returns is the worker's time limit's business, and is reported as a hang. MPR's interior points (center1,
// center2) are the means of the points.
//
//   libccd-gjk, libccd-mpr: ccdGJKIntersect and ccdMPRIntersect, a verdict only.
//   libccd-gjk-epa, libccd-mpr-penetration: ccdGJKPenetration and ccdMPRPenetration (0: intersecting, -1: not,
//     -2 for GJK+EPA: out of memory). Their outputs and how they map to ours:
//     - depth: as returned (libccd documents that translating obj2 (B) by depth along dir leaves the shapes touching:
//       our convention already);
//     - dir: a unit vector from A into B, the direction to move B (ccd.h; verified: A = [0,1]^3, B = A + (1/2, 0, 0)
//       gives depth 0.5, dir (+1, 0, 0) from both; with A and B swapped, (-1, 0, 0)): our normal as is. For a touching
//       contact (depth 0) libccd documents the direction as meaningless (MPR sets it to 0; GJK+EPA normalises a zero
//       vector into NaN): no normal is reported then, and the detail says so;
//     - pos: ONE point, "where the force should take place" — not a pair of contact points, and not promised to lie
//       on either shape (GJK+EPA's is the mean of the support points, on A and on B, of the EPA polytope's vertices
//       nearest the origin; MPR's the midpoint of the two points the origin's barycentric coordinates in the final
//       portal give on A and on B). So no contact points are reported, and nothing libccd does not claim is judged;
//       pos is named in the detail. (On the unit cube against the cube moved by 1/2 along x, MPR's pos is
//       (0.75, 0, 0), the midpoint of the deepest points, and GJK+EPA's (0.5, 1/6, 1/4), on B's face.)
#include <ccd/ccd.h>

#include <cmath>

#include "adapter.hpp"

namespace {

using gjkref::adapters::Point;

struct Cloud {
  std::vector<Point> points;
  Point centre{0, 0, 0};  // the mean of the points: MPR's interior point
};

Cloud cloud_of(const gjkref_query& q, int side) {
  Cloud c{gjkref::adapters::points_of(q, side), {0, 0, 0}};
  for (const Point& p : c.points)
    for (int k = 0; k < 3; ++k) c.centre[k] += p[k];
  for (int k = 0; k < 3; ++k) c.centre[k] /= static_cast<double>(c.points.size());
  return c;
}

// The support function: the first point of greatest dot product with `dir`.
void support(const void* object, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const Cloud& c = *static_cast<const Cloud*>(object);
  std::size_t best = 0;
  double best_dot = -INFINITY;
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    const double d = c.points[i][0] * ccdVec3X(dir) + c.points[i][1] * ccdVec3Y(dir) + c.points[i][2] * ccdVec3Z(dir);
    if (d > best_dot) {
      best_dot = d;
      best = i;
    }
  }
  ccdVec3Set(out, c.points[best][0], c.points[best][1], c.points[best][2]);
}

void centre(const void* object, ccd_vec3_t* out) {
  const Cloud& c = *static_cast<const Cloud*>(object);
  ccdVec3Set(out, c.centre[0], c.centre[1], c.centre[2]);
}

ccd_t settings() {
  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.support1 = support;
  ccd.support2 = support;
  ccd.center1 = centre;
  ccd.center2 = centre;
  return ccd;
}

void gjk_intersect(const gjkref_query& q, gjkref_answer& answer) {
  const Cloud a = cloud_of(q, 0), b = cloud_of(q, 1);
  const ccd_t ccd = settings();
  answer.outcome = ccdGJKIntersect(&a, &b, &ccd) ? GJKREF_INTERSECTING : GJKREF_SEPARATED;
}

void mpr_intersect(const gjkref_query& q, gjkref_answer& answer) {
  const Cloud a = cloud_of(q, 0), b = cloud_of(q, 1);
  const ccd_t ccd = settings();
  answer.outcome = ccdMPRIntersect(&a, &b, &ccd) ? GJKREF_INTERSECTING : GJKREF_SEPARATED;
}

// Converts a penetration result (return value 0) into the answer: see the header for the conventions.
void report_penetration(gjkref_answer& answer, ccd_real_t depth, const ccd_vec3_t& direction, const ccd_vec3_t& pos) {
  using gjkref::adapters::Point;
  answer.outcome = GJKREF_INTERSECTING;
  gjkref::adapters::set_penetration(answer, depth);
  const Point n{ccdVec3X(&direction), ccdVec3Y(&direction), ccdVec3Z(&direction)};
  const Point p{ccdVec3X(&pos), ccdVec3Y(&pos), ccdVec3Z(&pos)};
  if (depth == 0) {
    // Touching: libccd's direction is arbitrary (0 from MPR, NaN from GJK+EPA).
    gjkref::adapters::say(answer, "touching (depth 0): no direction from libccd (returned (%g, %g, %g)); pos (%g, %g, %g)",
                          n[0], n[1], n[2], p[0], p[1], p[2]);
    return;
  }
  gjkref::adapters::set_normal(answer, n);
  gjkref::adapters::say(answer, "pos (%.17g, %.17g, %.17g)", p[0], p[1], p[2]);
}

// libccd's two penetration calls share a signature: 0 when the shapes intersect (depth, direction and position set),
// -1 when they do not; ccdGJKPenetration also -2 when EPA could not allocate memory.
using PenetrationCall = int (*)(const void*, const void*, const ccd_t*, ccd_real_t*, ccd_vec3_t*, ccd_vec3_t*);

template <PenetrationCall Call>
void penetration(const gjkref_query& q, gjkref_answer& answer) {
  const Cloud a = cloud_of(q, 0), b = cloud_of(q, 1);
  const ccd_t ccd = settings();
  ccd_real_t depth = 0;
  ccd_vec3_t direction, position;
  ccdVec3Set(&direction, 0, 0, 0);
  ccdVec3Set(&position, 0, 0, 0);
  switch (const int status = Call(&a, &b, &ccd, &depth, &direction, &position)) {
    case 0: report_penetration(answer, depth, direction, position); break;
    case -1: answer.outcome = GJKREF_SEPARATED; break;
    default:
      answer.outcome = GJKREF_FAILED;
      gjkref::adapters::say(answer, "libccd returned %d (-2: EPA out of memory)", status);
  }
}

constexpr const char* kVersion = "2.1 (Debian libccd-dev, double)";
const gjkref_implementation kGjk{GJKREF_PLUGIN_ABI_VERSION, "libccd-gjk", kVersion, "double", GJKREF_3D,
                                 GJKREF_CAN_DECIDE, gjkref::adapters::guarded<gjk_intersect>};
const gjkref_implementation kMpr{GJKREF_PLUGIN_ABI_VERSION, "libccd-mpr", kVersion, "double", GJKREF_3D,
                                 GJKREF_CAN_DECIDE, gjkref::adapters::guarded<mpr_intersect>};
constexpr unsigned kPenetrates = GJKREF_CAN_DECIDE | GJKREF_CAN_PENETRATE | GJKREF_CAN_NORMAL;
const gjkref_implementation kPenetration{GJKREF_PLUGIN_ABI_VERSION, "libccd-gjk-epa", kVersion, "double", GJKREF_3D,
                                         kPenetrates, gjkref::adapters::guarded<penetration<ccdGJKPenetration>>};
const gjkref_implementation kMprPenetration{GJKREF_PLUGIN_ABI_VERSION, "libccd-mpr-penetration", kVersion, "double",
                                            GJKREF_3D, kPenetrates, gjkref::adapters::guarded<penetration<ccdMPRPenetration>>};
const gjkref_implementation* const kAll[] = {&kGjk, &kMpr, &kPenetration, &kMprPenetration};

}  // namespace

extern "C" const gjkref_implementation* const* gjkref_plugin_implementations(size_t* count) {
  *count = sizeof kAll / sizeof kAll[0];
  return kAll;
}
