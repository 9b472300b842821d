// impl/adapters/bullet.cpp — Bullet 3.24 (Debian libbullet-dev), built twice: against the float library (plugin
// gjkref-bullet-float) and, with BT_USE_DOUBLE_PRECISION, against the float64 one (gjkref-bullet-double). The two
// libraries export the same symbols, so each build is its own plugin, loaded in its own worker process. 3D only.
//
// Shapes: btConvexHullShape with margin 0 (Bullet's default margin, 0.04, would grow every shape by 0.04 in every
// direction: the answer would be to another question). Identity transforms.
//   bullet-gjk-*:    btGjkPairDetector with btVoronoiSimplexSolver and btGjkEpaPenetrationDepthSolver, the pair
//                    Bullet's collision dispatcher uses for convex hulls; btPointCollector's distance (negative when
//                    penetrating) and its point on B and normal give the verdict, the distance and the witnesses.
//   bullet-gjkepa-*: btGjkEpaSolver2::Distance, whose boolean says only "distance computed": its status tells
//                    penetration (intersecting) from GJK failure (reported as a failure, not as a verdict); for
//                    penetrating shapes, btGjkEpaSolver2::Penetration gives the depth.
#include <btBulletCollisionCommon.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>

#include <memory>

#include "adapter.hpp"

namespace {

#ifdef BT_USE_DOUBLE_PRECISION
#define GJKREF_BULLET_SCALAR "double"
#else
#define GJKREF_BULLET_SCALAR "float"
#endif

std::unique_ptr<btConvexHullShape> hull_of(const gjkref_query& q, int side) {
  auto shape = std::make_unique<btConvexHullShape>();
  for (const auto& p : gjkref::adapters::points_of(q, side))
    shape->addPoint(btVector3(btScalar(p[0]), btScalar(p[1]), btScalar(p[2])), false);
  shape->recalcLocalAabb();
  shape->setMargin(0);
  return shape;
}

void pair_detector(const gjkref_query& q, gjkref_answer& answer) {
  const auto a = hull_of(q, 0), b = hull_of(q, 1);
  btVoronoiSimplexSolver simplex;
  btGjkEpaPenetrationDepthSolver penetration;
  btGjkPairDetector detector(a.get(), b.get(), &simplex, &penetration);
  btDiscreteCollisionDetectorInterface::ClosestPointInput input;
  input.m_transformA.setIdentity();
  input.m_transformB.setIdentity();
  btPointCollector result;
  detector.getClosestPoints(input, result, nullptr);
  if (!result.m_hasResult) {
    answer.outcome = GJKREF_FAILED;
    gjkref::adapters::say(answer, "no result (last method %d, degenerate simplex %d)", detector.m_lastUsedMethod,
                          detector.m_degenerateSimplex);
    return;
  }
  if (result.m_distance > 0) {
    gjkref::adapters::answer_separated(answer, double(result.m_distance));
    const btVector3 on_b = result.m_pointInWorld;
    const btVector3 on_a = on_b + result.m_normalOnBInWorld * result.m_distance;
    gjkref::adapters::set_witnesses(answer, on_a, on_b);
  } else {
    answer.outcome = GJKREF_INTERSECTING;
    answer.has_penetration = 1;
    answer.penetration_depth = -double(result.m_distance);
  }
  gjkref::adapters::say(answer, "last method %d", detector.m_lastUsedMethod);
}

void gjk_epa_distance(const gjkref_query& q, gjkref_answer& answer) {
  const auto a = hull_of(q, 0), b = hull_of(q, 1);
  btTransform identity;
  identity.setIdentity();
  btGjkEpaSolver2::sResults results;
  const bool computed = btGjkEpaSolver2::Distance(a.get(), identity, b.get(), identity, btVector3(1, 0, 0), results);
  using Status = btGjkEpaSolver2::sResults::eStatus;
  if (computed) {
    gjkref::adapters::answer_separated(answer, double(results.distance));
    gjkref::adapters::set_witnesses(answer, results.witnesses[0], results.witnesses[1]);
    gjkref::adapters::say(answer, "Separated");
  } else if (results.status == Status::Penetrating) {
    answer.outcome = GJKREF_INTERSECTING;
    // The depth from btGjkEpaSolver2::Penetration (EPA), reported, not judged; its failure leaves the verdict.
    btGjkEpaSolver2::sResults depth;
    if (btGjkEpaSolver2::Penetration(a.get(), identity, b.get(), identity, btVector3(1, 0, 0), depth)) {
      answer.has_penetration = 1;
      answer.penetration_depth = -double(depth.distance);
      gjkref::adapters::say(answer, "Penetrating");
    } else {
      gjkref::adapters::say(answer, "Penetrating (Penetration failed: %s)",
                            depth.status == Status::EPA_Failed ? "EPA_Failed" : "GJK_Failed");
    }
  } else {
    answer.outcome = GJKREF_FAILED;
    gjkref::adapters::say(answer, results.status == Status::GJK_Failed ? "GJK_Failed" : "EPA_Failed");
  }
}

constexpr const char* kVersion = "3.24 (Debian libbullet-dev, " GJKREF_BULLET_SCALAR ")";
const gjkref_implementation kPairDetector{
    GJKREF_PLUGIN_ABI_VERSION, "bullet-gjk-" GJKREF_BULLET_SCALAR, kVersion, GJKREF_BULLET_SCALAR, GJKREF_3D,
    GJKREF_CAN_DECIDE | GJKREF_CAN_MEASURE | GJKREF_CAN_WITNESS | GJKREF_CAN_PENETRATE,
    gjkref::adapters::guarded<pair_detector>};
const gjkref_implementation kGjkEpa{
    GJKREF_PLUGIN_ABI_VERSION, "bullet-gjkepa-" GJKREF_BULLET_SCALAR, kVersion, GJKREF_BULLET_SCALAR, GJKREF_3D,
    GJKREF_CAN_DECIDE | GJKREF_CAN_MEASURE | GJKREF_CAN_WITNESS | GJKREF_CAN_PENETRATE,
    gjkref::adapters::guarded<gjk_epa_distance>};
const gjkref_implementation* const kAll[] = {&kPairDetector, &kGjkEpa};

}  // namespace

extern "C" const gjkref_implementation* const* gjkref_plugin_implementations(size_t* count) {
  *count = sizeof kAll / sizeof kAll[0];
  return kAll;
}
