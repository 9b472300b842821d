// impl/adapters/libccd.cpp — libccd 2.1 (Debian libccd-dev, built with CCD_DOUBLE): GJK and MPR intersection tests and
// GJK+EPA penetration, on point clouds given by support functions. 3D only (libccd has no 2D).
//
// Settings: CCD_INIT's defaults — first direction (1, 0, 0), max_iterations unlimited ((unsigned long)-1),
// epa_tolerance and mpr_tolerance 1e-4, dist_tolerance 1e-6 — as a user who calls CCD_INIT gets them. A query that
// never returns is the worker's time limit's business, and is reported as a hang.
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

// ccdGJKPenetration: 0 when the shapes intersect (depth, direction and position set), -1 when they do not, -2 when
// EPA could not allocate memory.
void gjk_penetration(const gjkref_query& q, gjkref_answer& answer) {
  const Cloud a = cloud_of(q, 0), b = cloud_of(q, 1);
  const ccd_t ccd = settings();
  ccd_real_t depth = 0;
  ccd_vec3_t direction, position;
  switch (ccdGJKPenetration(&a, &b, &ccd, &depth, &direction, &position)) {
    case 0:
      answer.outcome = GJKREF_INTERSECTING;
      answer.has_penetration = 1;
      answer.penetration_depth = depth;
      break;
    case -1: answer.outcome = GJKREF_SEPARATED; break;
    default:
      answer.outcome = GJKREF_FAILED;
      gjkref::adapters::say(answer, "ccdGJKPenetration returned an error (EPA out of memory)");
  }
}

constexpr const char* kVersion = "2.1 (Debian libccd-dev, double)";
const gjkref_implementation kGjk{GJKREF_PLUGIN_ABI_VERSION, "libccd-gjk", kVersion, "double", GJKREF_3D,
                                 GJKREF_CAN_DECIDE, gjkref::adapters::guarded<gjk_intersect>};
const gjkref_implementation kMpr{GJKREF_PLUGIN_ABI_VERSION, "libccd-mpr", kVersion, "double", GJKREF_3D,
                                 GJKREF_CAN_DECIDE, gjkref::adapters::guarded<mpr_intersect>};
const gjkref_implementation kPenetration{GJKREF_PLUGIN_ABI_VERSION, "libccd-gjk-epa", kVersion, "double", GJKREF_3D,
                                         GJKREF_CAN_DECIDE | GJKREF_CAN_PENETRATE,
                                         gjkref::adapters::guarded<gjk_penetration>};
const gjkref_implementation* const kAll[] = {&kGjk, &kMpr, &kPenetration};

}  // namespace

extern "C" const gjkref_implementation* const* gjkref_plugin_implementations(size_t* count) {
  *count = sizeof kAll / sizeof kAll[0];
  return kAll;
}
