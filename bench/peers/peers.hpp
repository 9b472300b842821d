// bench/peers/peers.hpp — the peers' queries for bench/peers_bench.cpp, each library in its own translation unit
// (Bullet's double build, FCL's Eigen templates and libccd do not share headers well).
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace gjkref::bench {

using Cloud = std::vector<std::array<double, 3>>;
using Pairs = std::vector<std::pair<Cloud, Cloud>>;

// One library's query over a fixed set of pairs: the library's shapes are built once, in the constructor, so that
// run() times the query alone. run(i) answers pair i: a distance (0 when intersecting), or 1/0 for a boolean query.
class Queries {
 public:
  virtual ~Queries() = default;
  virtual double run(std::size_t i) = 0;
};

std::unique_ptr<Queries> bullet_double_distance(const Pairs& pairs);  // btGjkPairDetector, margin 0
std::unique_ptr<Queries> fcl_indep_distance(const Pairs& pairs);      // detail::GJKSolver_indep<double>
std::unique_ptr<Queries> libccd_intersect(const Pairs& pairs);        // ccdGJKIntersect

// Penetration depth of overlapping pairs (run(i) returns the depth; −1 when the library gives none).
std::unique_ptr<Queries> bullet_double_penetration(const Pairs& pairs);  // btGjkEpaSolver2::Penetration
std::unique_ptr<Queries> fcl_indep_penetration(const Pairs& pairs);      // GJKSolver_indep::shapeIntersect, one contact
std::unique_ptr<Queries> libccd_penetration(const Pairs& pairs);         // ccdGJKPenetration (GJK + EPA)

}  // namespace gjkref::bench
