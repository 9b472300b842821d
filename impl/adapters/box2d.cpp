// impl/adapters/box2d.cpp — Box2D 2.4.1 (Debian libbox2d-dev, float): b2Distance, the GJK distance Box2D uses for
// time of impact and shape distance. 2D only. The input doubles are rounded to float, as a Box2D user's are.
//
// b2DistanceProxy takes any number of vertices (b2_maxPolygonVertices limits b2PolygonShape, not the proxy). No radii
// (useRadii false), identity transforms, a fresh simplex cache. b2Distance reports 0 for overlapping shapes, so a
// distance of 0 is its "intersecting".
#include <box2d/box2d.h>
#include <box2d/b2_distance.h>

#include <vector>

#include "adapter.hpp"

namespace {

std::vector<b2Vec2> vertices_of(const gjkref_query& q, int side) {
  std::vector<b2Vec2> out;
  for (const auto& p : gjkref::adapters::points_of(q, side)) out.emplace_back(float(p[0]), float(p[1]));
  return out;
}

void distance(const gjkref_query& q, gjkref_answer& answer) {
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
  if (output.distance > 0) {
    gjkref::adapters::answer_separated(answer, double(output.distance));
    const double on_a[3] = {output.pointA.x, output.pointA.y, 0}, on_b[3] = {output.pointB.x, output.pointB.y, 0};
    gjkref::adapters::set_witnesses(answer, on_a, on_b);
  } else {
    answer.outcome = GJKREF_INTERSECTING;
  }
  gjkref::adapters::say(answer, "%d iterations", int(output.iterations));
}

const gjkref_implementation kDistance{GJKREF_PLUGIN_ABI_VERSION,
                                      "box2d-distance",
                                      "2.4.1 (Debian libbox2d-dev, float)",
                                      "float",
                                      GJKREF_2D,
                                      GJKREF_CAN_DECIDE | GJKREF_CAN_MEASURE | GJKREF_CAN_WITNESS,
                                      gjkref::adapters::guarded<distance>};
const gjkref_implementation* const kAll[] = {&kDistance};

}  // namespace

extern "C" const gjkref_implementation* const* gjkref_plugin_implementations(size_t* count) {
  *count = 1;
  return kAll;
}
