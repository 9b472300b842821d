// impl/adapters/box2d.cpp — Box2D 2.4.1 (Debian libbox2d-dev, float). 2D only. The input doubles are rounded to float,
// as a Box2D user's are.
//
//   box2d-distance: b2Distance, the GJK distance Box2D uses for time of impact and shape distance. b2DistanceProxy
//     takes any number of vertices (b2_maxPolygonVertices limits b2PolygonShape, not the proxy). No radii (useRadii
//     false), identity transforms, a fresh simplex cache. Its verdict is read as Box2D's own overlap test reads it
//     (b2TestOverlap, b2_collision.cpp: overlapping when the distance is below 10·b2_epsilon, kBox2dOverlapDistance):
//     b2Distance stops when its search direction is shorter than b2_epsilon ("the origin is probably contained by a
//     line segment or triangle ... we can't return zero here even though there may be overlap", b2_distance.cpp) and
//     returns the length of its last simplex point, so a small positive distance is its "probably overlapping". Read
//     as "separated" (until 2026-11-27), a square overlapping another by 200 was charged as separated by 10^-7. A
//     distance at or above the threshold is "separated", with the distance and witnesses; below it, "intersecting",
//     with the distance Box2D gave in the detail.
//   box2d-polygons: b2CollidePolygons, the contact manifold Box2D's world uses for two polygons (SAT over both
//     polygons' edge normals, then clipping), on two b2PolygonShape built by b2PolygonShape::Set from the points, with
//     m_radius set to 0 (Set leaves b2_polygonRadius, 0.01: a skin that would make shapes 0.02 apart "touch"), at
//     identity transforms. No distance: a manifold with no point is "separated".
//
// box2d-polygons' preconditions. Set computes the hull itself (gift wrapping) after welding points closer than
// b2_linearSlop/2 (0.0025) into one, and Debian's build keeps Box2D's assertions, which abort: it asserts 3 to
// b2_maxPolygonVertices (8) points, at least 3 after welding, a hull walk that closes within 8 vertices and finds at
// least 3 (in float it may not, on nearly collinear points), and an area above b2_epsilon (FLT_EPSILON) in float. We
// check these before calling it (the walk with Box2D's float operations, the hull and its area with our own code, in
// double on the float-rounded points) and answer GJKREF_REFUSED with the reason otherwise (input Box2D's API does
// not accept: not judged). The area must clear b2_epsilon by a margin for Box2D's float rounding,
// 16·FLT_EPSILON·diameter², so a few slivers Box2D would accept are refused too. 60,000 random small point sets (nearly collinear, repeated, large offsets) ran without an abort.
// Welding itself changes the shape (a point 0.002 from another is dropped): that is Box2D's shape, judged.
//
// box2d-polygons' conventions (b2_collision.h; checked numerically): pointCount > 0 means touching or overlapping.
// b2WorldManifold::Initialize (radii 0) gives each point's separation, negative when overlapping: depth = −(the least
// separation). localNormal is the reference face's outward normal: on A for e_faceA, then it points from A into B
// (ours as is); on B for e_faceB, then it points from B into A (ours is its negation). Verified: A = [0,1]², B = A +
// (1/2, 0): e_faceA, localNormal (1, 0), separations −0.5 (depth 0.5, normal (+1, 0)); A = triangle (0,0) (2,0) (1,1),
// B = [0.5,1.5]×[0.8,2]: e_faceB, localNormal (0, −1), separation −0.2 (depth 0.2, normal (0, +1): B moves up). Box2D
// prefers A's faces within 0.1·b2_linearSlop (k_tol), so the depth may exceed the least one by up to 0.0005.
#include <box2d/box2d.h>
#include <box2d/b2_distance.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <vector>

#include "adapter.hpp"

namespace {

std::vector<b2Vec2> vertices_of(const gjkref_query& q, int side) {
  std::vector<b2Vec2> out;
  for (const auto& p : gjkref::adapters::points_of(q, side))
    out.emplace_back(gjkref::adapters::narrowed<float>(p[0]), gjkref::adapters::narrowed<float>(p[1]));
  return out;
}

// b2TestOverlap's threshold on b2Distance's distance, Box2D's (an absolute length in the input's units: pairs apart by
// less are called overlapping by Box2D, and judged as such). Pinned by
// BuiltinAdapters.Box2dDistanceReadsOverlapAsBox2dDoes.
constexpr float kBox2dOverlapDistance = 10.0f * b2_epsilon;

void distance(const gjkref_query& q, gjkref_answer& answer) {
  if (gjkref::adapters::refused_beyond_range<float>(q, answer, "float")) return;
  const std::vector<b2Vec2> a = vertices_of(q, 0), b = vertices_of(q, 1);
  b2DistanceInput input;
  input.proxyA.Set(a.data(), int32(a.size()), 0.0f);
  input.proxyB.Set(b.data(), int32(b.size()), 0.0f);
  input.transformA.SetIdentity();
  input.transformB.SetIdentity();
  input.useRadii = false;
  b2SimplexCache cache;
  cache.count = 0;
  b2DistanceOutput output;
  b2Distance(&output, &cache, &input);
  if (output.distance >= kBox2dOverlapDistance) {
    gjkref::adapters::answer_separated(answer, double(output.distance));
    const double on_a[3] = {output.pointA.x, output.pointA.y, 0}, on_b[3] = {output.pointB.x, output.pointB.y, 0};
    gjkref::adapters::set_witnesses(answer, on_a, on_b);
    gjkref::adapters::say(answer, "%d iterations", int(output.iterations));
  } else {
    answer.outcome = GJKREF_INTERSECTING;
    gjkref::adapters::say(answer, "%d iterations; distance %.9g, below b2TestOverlap's 10*b2_epsilon",
                          int(output.iterations), double(output.distance));
  }
}

// Why b2PolygonShape::Set cannot take these points (see the header), or nullptr when it can.
const char* why_not_a_polygon(const std::vector<b2Vec2>& points, char (&why)[150]) {
  if (points.size() < 3 || points.size() > std::size_t(b2_maxPolygonVertices)) {
    std::snprintf(why, sizeof why, "%zu point%s: b2PolygonShape::Set takes 3 to b2_maxPolygonVertices (%d)",
                  points.size(), points.size() == 1 ? "" : "s", int(b2_maxPolygonVertices));
    return why;
  }
  // Set's welding: a point is kept when it is at least b2_linearSlop/2 from every point kept before it.
  const float weld = 0.5f * b2_linearSlop;
  std::vector<b2Vec2> kept;
  for (const b2Vec2& p : points)
    if (std::none_of(kept.begin(), kept.end(), [&](const b2Vec2& k) { return b2DistanceSquared(p, k) < weld * weld; }))
      kept.push_back(p);
  if (kept.size() < 3) {
    std::snprintf(why, sizeof why, "%zu distinct points after b2PolygonShape::Set's welding (b2_linearSlop/2): "
                  "it needs 3", kept.size());
    return why;
  }
  // Set's gift wrapping runs in float: from the rightmost point (the lowest of ties), each next vertex is the point no
  // other point lies to the right of (b2Cross < 0), the farther one when exactly collinear. With nearly collinear
  // points, rounding can make the walk miss its start; Set then asserts that it has fewer than
  // b2_maxPolygonVertices vertices (found by random inputs: 5 nearly collinear points and 1 more). The same walk, with
  // Box2D's own float operations, tells in advance.
  std::size_t start = 0;
  for (std::size_t i = 1; i < kept.size(); ++i)
    if (kept[i].x > kept[start].x || (kept[i].x == kept[start].x && kept[i].y < kept[start].y)) start = i;
  bool closed = false;
  std::size_t walked = 0;  // the hull's vertices
  std::vector<b2Vec2> wrapped;  // and the vertices themselves, in Set's order
  for (std::size_t current = start; !closed && walked < std::size_t(b2_maxPolygonVertices); ++walked) {
    wrapped.push_back(kept[current]);
    std::size_t next = 0;
    for (std::size_t j = 1; j < kept.size(); ++j) {
      if (next == current) {
        next = j;
        continue;
      }
      const b2Vec2 r = kept[next] - kept[current], v = kept[j] - kept[current];
      const float c = b2Cross(r, v);
      if (c < 0.0f || (c == 0.0f && v.LengthSquared() > r.LengthSquared())) next = j;
    }
    closed = next == start;
    current = next;
  }
  if (!closed || walked < 3) {
    std::snprintf(why, sizeof why, "b2PolygonShape::Set's gift wrapping (float) would %s on these nearly collinear "
                  "points: it would assert", closed ? "find fewer than 3 vertices" : "not close");
    return why;
  }
  // Set's centroid sums the hull's area in float, in triangles from its first vertex, and asserts that it is above
  // b2_epsilon: far from the origin (coordinates near 2^64 and beyond) the cross products overflow float and the sum is
  // not a number, which the double sum below does not see. The same sum, in float.
  float float_area = 0.0f;
  for (std::size_t i = 1; i + 1 < wrapped.size(); ++i)
    float_area += 0.5f * b2Cross(wrapped[i] - wrapped[0], wrapped[i + 1] - wrapped[0]);
  if (!(float_area > b2_epsilon)) {
    std::snprintf(why, sizeof why, "the hull's area in float, as b2PolygonShape::Set computes it, is %g, not above "
                  "b2_epsilon: Set would assert", double(float_area));
    return why;
  }
  // The hull's area (Andrew's monotone chain, in double) and the points' diameter.
  struct D { double x, y; };
  std::vector<D> v;
  for (const b2Vec2& p : kept) v.push_back({p.x, p.y});
  std::sort(v.begin(), v.end(), [](const D& a, const D& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  const auto cross = [](const D& o, const D& a, const D& b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  };
  std::vector<D> hull(2 * v.size());
  std::size_t m = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    while (m >= 2 && cross(hull[m - 2], hull[m - 1], v[i]) <= 0) --m;
    hull[m++] = v[i];
  }
  for (std::size_t i = v.size() - 1, lower = m + 1; i-- > 0;) {
    while (m >= lower && cross(hull[m - 2], hull[m - 1], v[i]) <= 0) --m;
    hull[m++] = v[i];
  }
  const std::size_t n = m - 1;  // the last vertex repeats the first
  double area = 0, diameter2 = 0;
  for (std::size_t i = 0; i < n; ++i) area += 0.5 * cross(hull[0], hull[i], hull[i + 1]);
  for (const D& a : v)
    for (const D& b : v) diameter2 = std::max(diameter2, (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y));
  const double least = double(b2_epsilon) + 16 * double(FLT_EPSILON) * diameter2;
  if (n < 3 || !(area > least)) {
    std::snprintf(why, sizeof why, "degenerate polygon: hull of %zu vertices, area %.3g, not clearly above "
                  "b2_epsilon (at least %.3g): b2PolygonShape::Set would assert", n, area, least);
    return why;
  }
  return nullptr;
}

void collide_polygons(const gjkref_query& q, gjkref_answer& answer) {
  if (gjkref::adapters::refused_beyond_range<float>(q, answer, "float")) return;
  const std::vector<b2Vec2> a = vertices_of(q, 0), b = vertices_of(q, 1);
  char why[150];
  for (const auto* points : {&a, &b})
    if (why_not_a_polygon(*points, why)) {
      answer.outcome = GJKREF_REFUSED;
      gjkref::adapters::say(answer, "%s: %s", points == &a ? "A" : "B", why);
      return;
    }
  b2PolygonShape polygon_a, polygon_b;
  polygon_a.Set(a.data(), int32(a.size()));
  polygon_b.Set(b.data(), int32(b.size()));
  polygon_a.m_radius = 0;
  polygon_b.m_radius = 0;
  b2Transform identity;
  identity.SetIdentity();
  b2Manifold manifold;
  b2CollidePolygons(&manifold, &polygon_a, identity, &polygon_b, identity);
  if (manifold.pointCount == 0) {
    answer.outcome = GJKREF_SEPARATED;
    gjkref::adapters::say(answer, "no manifold point");
    return;
  }
  answer.outcome = GJKREF_INTERSECTING;
  b2WorldManifold world;
  world.Initialize(&manifold, identity, 0.0f, identity, 0.0f);
  float least = world.separations[0];
  for (int32 i = 1; i < manifold.pointCount; ++i) least = std::min(least, world.separations[i]);
  gjkref::adapters::set_penetration(answer, 0.0 - double(least));
  const bool on_a = manifold.type == b2Manifold::e_faceA;
  const double sign = on_a ? 1 : -1;
  const gjkref::adapters::Point normal{sign * manifold.localNormal.x, sign * manifold.localNormal.y, 0};
  gjkref::adapters::set_normal(answer, normal);
  gjkref::adapters::say(answer, "%s, %d point%s", on_a ? "e_faceA" : "e_faceB", int(manifold.pointCount),
                        manifold.pointCount == 1 ? "" : "s");
}

constexpr const char* kVersion = "2.4.1 (Debian libbox2d-dev, float)";
const gjkref_implementation kDistance{GJKREF_PLUGIN_ABI_VERSION,
                                      "box2d-distance",
                                      kVersion,
                                      "float",
                                      GJKREF_2D,
                                      GJKREF_CAN_DECIDE | GJKREF_CAN_MEASURE | GJKREF_CAN_WITNESS,
                                      gjkref::adapters::guarded<distance>};
const gjkref_implementation kPolygons{GJKREF_PLUGIN_ABI_VERSION,
                                      "box2d-polygons",
                                      kVersion,
                                      "float",
                                      GJKREF_2D,
                                      GJKREF_CAN_DECIDE | GJKREF_CAN_PENETRATE | GJKREF_CAN_NORMAL,
                                      gjkref::adapters::guarded<collide_polygons>};
const gjkref_implementation* const kAll[] = {&kDistance, &kPolygons};

}  // namespace

extern "C" const gjkref_implementation* const* gjkref_plugin_implementations(size_t* count) {
  *count = sizeof kAll / sizeof kAll[0];
  return kAll;
}
