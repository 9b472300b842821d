// bench/peers/fcl.cpp — FCL 0.7: detail::GJKSolver_indep<double>::shapeDistance on two fcl::Convex<double> (points,
// no faces), identity transforms — as impl/adapters/fcl.cpp calls it.
#include <fcl/fcl.h>

#include "peers.hpp"

namespace gjkref::bench {
namespace {

using Convex = fcl::Convex<double>;

class Fcl final : public Queries {
 public:
  Fcl(const Pairs& pairs, bool penetration) : penetration_(penetration) {
    for (const auto& [a, b] : pairs) shapes_.push_back({convex_of(a), convex_of(b)});
  }
  double run(std::size_t i) override {
    const fcl::detail::GJKSolver_indep<double> solver;
    const fcl::Transform3d identity = fcl::Transform3d::Identity();
    if (penetration_) {
      std::vector<fcl::ContactPoint<double>> contacts;
      if (!solver.shapeIntersect(*shapes_[i].first, identity, *shapes_[i].second, identity, &contacts) ||
          contacts.empty())
        return -1.0;
      return contacts[0].penetration_depth;
    }
    double distance = 0;
    fcl::Vector3d on_a, on_b;
    if (!solver.shapeDistance(*shapes_[i].first, identity, *shapes_[i].second, identity, &distance, &on_a, &on_b))
      return 0.0;
    return distance;
  }

 private:
  static std::shared_ptr<Convex> convex_of(const Cloud& cloud) {
    auto vertices = std::make_shared<std::vector<fcl::Vector3d>>();
    for (const auto& p : cloud) vertices->emplace_back(p[0], p[1], p[2]);
    return std::make_shared<Convex>(vertices, 0, std::make_shared<std::vector<int>>());
  }
  bool penetration_;
  std::vector<std::pair<std::shared_ptr<Convex>, std::shared_ptr<Convex>>> shapes_;
};

}  // namespace

std::unique_ptr<Queries> fcl_indep_distance(const Pairs& pairs) { return std::make_unique<Fcl>(pairs, false); }
std::unique_ptr<Queries> fcl_indep_penetration(const Pairs& pairs) { return std::make_unique<Fcl>(pairs, true); }

}  // namespace gjkref::bench
