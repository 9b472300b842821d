// impl/adapters/chipmunk.cpp — Chipmunk2D 7.0.3 (Debian libchipmunk-dev, cpFloat double: CP_USE_DOUBLES defaults to
// 1 off Apple platforms): cpShapesCollide, the contact query of Chipmunk's narrow phase (GJK for the closest points,
// EPA when the shapes overlap, then clipping of the two support edges into at most two contact points). 2D only.
//
//   chipmunk-collide: each point set becomes a shape with radius 0 on one static body (cpBodyNewStatic, identity
//     transform), by the number of vertices of its hull (cpConvexHull, tolerance 0, as cpPolyShapeNew computes it):
//     3 or more, cpPolyShapeNew with the hull's vertices (the hull of a hull is itself; passing the hull rather than
//     the raw points keeps cpPolyShapeNew's stack copy (alloca) small for large inputs); 2, cpSegmentShapeNew on the
//     hull's two ends; 1, cpCircleShapeNew centred on the point. Each shape is then brought up to date with
//     cpShapeUpdate(shape, cpTransformIdentity): a shape outside a space has no world-space vertices or bounding box
//     until then, and cpShapesCollide would read zeros. Then cpShapesCollide(A, B).
//
// What Chipmunk cannot do: its circle–circle and circle–segment tests are strict (distance < r1 + r2), so with radius 0
// they never report contact, whatever the points; those pairs (a one-point set against a one- or two-point set)
// answer GJKREF_REFUSED saying so (not judged). Debian's build keeps Chipmunk's soft assertions, which abort (the
// worker records a crash): EPA asserts that its closest edge has two distinct ends. Support-point ids keep 8 bits of a vertex index, so
// polygons above 256 vertices may stop EPA early.
//
// Conventions (cpArbiter.h, cpShape.c; checked numerically): count > 0 means touching or overlapping; count == 0,
// separated (no distance is measured). normal points from the first shape (A) to the second (B): the direction to move
// B, ours as is. pointA is on A, pointB on B, and distance = dot(pointB − pointA, normal), negative when overlapping,
// so pointA − pointB = −distance·normal. Ours: depth = −(least distance), the normal, contact_a = pointA and
// contact_b = pointB of the point with the least distance. Verified: A = [0,1]², B = A + (1/2, 0): count 2, normal (1, 0),
// points (1, 0)/(0.5, 0) and (1, 1)/(0.5, 1), distances −0.5; with B = [0.9,1.2]×[0.3,0.6] and A, B swapped, normal
// (−1, 0), distances −0.1. One defect of 7.0.3 (still in Chipmunk's master): when A's shape type sorts after B's
// (circle < segment < polygon) cpCollide swaps the two, and cpShapesCollide flips the normal and the points back but
// computes the distances with the flipped normal: they come out with the wrong sign (a point 0.1 inside a square, as
// B: distance +0.1). The depth is reported as Chipmunk gives it (then negative), from the deepest point as Chipmunk's
// sign makes it there (the greatest distance, not the least, which is the shallowest), and the detail says so.
#include <chipmunk/chipmunk.h>

#include <climits>
#include <memory>
#include <type_traits>
#include <vector>

#include "adapter.hpp"

namespace {

static_assert(std::is_same_v<cpFloat, double>, "Debian's Chipmunk is built with doubles");

struct FreeBody {
  void operator()(cpBody* body) const { cpBodyFree(body); }
};
struct FreeShape {
  void operator()(cpShape* shape) const { cpShapeFree(shape); }
};
using Body = std::unique_ptr<cpBody, FreeBody>;
using Shape = std::unique_ptr<cpShape, FreeShape>;

enum class Kind { Circle, Segment, Polygon };  // Chipmunk's order of shape types
constexpr const char* kKindNames[] = {"point (circle)", "segment", "polygon"};

struct Made {
  Shape shape;
  Kind kind;
  int vertices;  // of the hull
};

Made shape_of(const gjkref_query& q, int side, cpBody* body) {
  std::vector<cpVect> points;
  for (const auto& p : gjkref::adapters::points_of(q, side)) points.push_back(cpv(p[0], p[1]));
  std::vector<cpVect> hull(points.size());
  const int n = cpConvexHull(int(points.size()), points.data(), hull.data(), nullptr, 0.0);
  Made made{nullptr, Kind::Polygon, n};
  if (n == 1) {
    made.shape.reset(cpCircleShapeNew(body, 0.0, hull[0]));
    made.kind = Kind::Circle;
  } else if (n == 2) {
    made.shape.reset(cpSegmentShapeNew(body, hull[0], hull[1], 0.0));
    made.kind = Kind::Segment;
  } else {
    made.shape.reset(cpPolyShapeNew(body, n, hull.data(), cpTransformIdentity, 0.0));
  }
  cpShapeUpdate(made.shape.get(), cpTransformIdentity);
  return made;
}

void collide(const gjkref_query& q, gjkref_answer& answer) {
  if (q.count_a > std::size_t(INT_MAX) || q.count_b > std::size_t(INT_MAX)) {
    answer.outcome = GJKREF_REFUSED;
    gjkref::adapters::say(answer, "more than INT_MAX points: Chipmunk counts vertices in an int");
    return;
  }
  const Body body(cpBodyNewStatic());
  const Made a = shape_of(q, 0, body.get()), b = shape_of(q, 1, body.get());
  if ((a.kind == Kind::Circle && b.kind != Kind::Polygon) || (b.kind == Kind::Circle && a.kind != Kind::Polygon)) {
    answer.outcome = GJKREF_REFUSED;
    gjkref::adapters::say(answer, "%s against %s: Chipmunk's test is strict (distance < r1 + r2) and never reports "
                          "contact with radius 0", kKindNames[int(a.kind)], kKindNames[int(b.kind)]);
    return;
  }
  const cpContactPointSet set = cpShapesCollide(a.shape.get(), b.shape.get());
  if (set.count <= 0) {
    answer.outcome = GJKREF_SEPARATED;
    gjkref::adapters::say(answer, "no contact point (%s, %s)", kKindNames[int(a.kind)], kKindNames[int(b.kind)]);
    return;
  }
  answer.outcome = GJKREF_INTERSECTING;
  // The deepest point: the least distance, or the greatest where cpShapesCollide swapped the shapes (above).
  const bool swapped = a.kind > b.kind;
  int deepest = 0;
  for (int i = 1; i < set.count; ++i)
    if (swapped ? set.points[i].distance > set.points[deepest].distance
                : set.points[i].distance < set.points[deepest].distance)
      deepest = i;
  const auto& point = set.points[deepest];
  gjkref::adapters::set_penetration(answer, 0.0 - point.distance);  // +0, not -0, when touching
  gjkref::adapters::set_normal(answer, gjkref::adapters::Point{set.normal.x, set.normal.y, 0});
  gjkref::adapters::set_contacts(answer, gjkref::adapters::Point{point.pointA.x, point.pointA.y, 0},
                                 gjkref::adapters::Point{point.pointB.x, point.pointB.y, 0});
  if (swapped)
    gjkref::adapters::say(answer, "%d point%s; %s against %s: swapped inside cpShapesCollide, whose distances then "
                          "have the wrong sign (7.0.3)", set.count, set.count == 1 ? "" : "s", kKindNames[int(a.kind)],
                          kKindNames[int(b.kind)]);
  else
    gjkref::adapters::say(answer, "%d point%s (%s, %s)", set.count, set.count == 1 ? "" : "s", kKindNames[int(a.kind)],
                          kKindNames[int(b.kind)]);
}

const gjkref_implementation kCollide{GJKREF_PLUGIN_ABI_VERSION,
                                     "chipmunk-collide",
                                     "7.0.3 (Debian libchipmunk-dev, double)",
                                     "double",
                                     GJKREF_2D,
                                     GJKREF_CAN_DECIDE | GJKREF_CAN_PENETRATE | GJKREF_CAN_NORMAL | GJKREF_CAN_CONTACT,
                                     gjkref::adapters::guarded<collide>};
const gjkref_implementation* const kAll[] = {&kCollide};

}  // namespace

extern "C" const gjkref_implementation* const* gjkref_plugin_implementations(size_t* count) {
  *count = sizeof kAll / sizeof kAll[0];
  return kAll;
}
