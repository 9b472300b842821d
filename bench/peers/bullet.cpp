// bench/peers/bullet.cpp — Bullet 3.24 in double (compiled with BT_USE_DOUBLE_PRECISION, linked against the
// float64 libraries): btGjkPairDetector with btVoronoiSimplexSolver and btGjkEpaPenetrationDepthSolver on two
// btConvexHullShapes of margin 0, identity transforms — as impl/adapters/bullet.cpp calls it.
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpaPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#include <btBulletCollisionCommon.h>

#include "peers.hpp"

namespace gjkref::bench {
namespace {

class Bullet final : public Queries {
 public:
  Bullet(const Pairs& pairs, bool penetration) : penetration_(penetration) {
    for (const auto& [a, b] : pairs) shapes_.push_back({hull_of(a), hull_of(b)});
  }
  double run(std::size_t i) override {
    if (penetration_) {
      btTransform identity;
      identity.setIdentity();
      btGjkEpaSolver2::sResults results;
      return btGjkEpaSolver2::Penetration(shapes_[i].first.get(), identity, shapes_[i].second.get(), identity,
                                          btVector3(1, 0, 0), results)
                 ? -double(results.distance)
                 : -1.0;
    }
    btVoronoiSimplexSolver simplex;
    btGjkEpaPenetrationDepthSolver penetration;
    btGjkPairDetector detector(shapes_[i].first.get(), shapes_[i].second.get(), &simplex, &penetration);
    btDiscreteCollisionDetectorInterface::ClosestPointInput input;
    input.m_transformA.setIdentity();
    input.m_transformB.setIdentity();
    btPointCollector result;
    detector.getClosestPoints(input, result, nullptr);
    return result.m_hasResult && result.m_distance > 0 ? double(result.m_distance) : 0.0;
  }

 private:
  static std::unique_ptr<btConvexHullShape> hull_of(const Cloud& cloud) {
    auto shape = std::make_unique<btConvexHullShape>();
    for (const auto& p : cloud) shape->addPoint(btVector3(p[0], p[1], p[2]), false);
    shape->recalcLocalAabb();
    shape->setMargin(0);
    return shape;
  }
  bool penetration_;
  std::vector<std::pair<std::unique_ptr<btConvexHullShape>, std::unique_ptr<btConvexHullShape>>> shapes_;
};

}  // namespace

std::unique_ptr<Queries> bullet_double_distance(const Pairs& pairs) { return std::make_unique<Bullet>(pairs, false); }
std::unique_ptr<Queries> bullet_double_penetration(const Pairs& pairs) { return std::make_unique<Bullet>(pairs, true); }

}  // namespace gjkref::bench
