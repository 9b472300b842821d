// bench/peers/bullet.cpp — Bullet 3.24 in double (compiled with BT_USE_DOUBLE_PRECISION, linked against the
// float64 libraries): btGjkPairDetector with btVoronoiSimplexSolver and btGjkEpaPenetrationDepthSolver on two
// btConvexHullShapes of margin 0, identity transforms — as impl/adapters/bullet.cpp calls it.
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
  explicit Bullet(const Pairs& pairs) {
    for (const auto& [a, b] : pairs) shapes_.push_back({hull_of(a), hull_of(b)});
  }
  double run(std::size_t i) override {
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
  std::vector<std::pair<std::unique_ptr<btConvexHullShape>, std::unique_ptr<btConvexHullShape>>> shapes_;
};

}  // namespace

std::unique_ptr<Queries> bullet_double_distance(const Pairs& pairs) { return std::make_unique<Bullet>(pairs); }

}  // namespace gjkref::bench
