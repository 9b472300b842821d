// impl/adapters/fcl.cpp — FCL 0.7 (Debian libfcl-dev, double): its two GJK solvers called directly, and its
// collide/distance API. 3D only.
//
// Shapes: fcl::Convex<double> with the points and no face list. Above 32 vertices a Convex finds support points by
// walking its face graph; without faces the mesh is "not watertight" and FCL falls back to scanning every vertex, so
// the support points are exact at every size and what is measured is FCL's GJK, not a face list we would supply.
//   fcl-libccd-intersect, fcl-libccd-distance: detail::GJKSolver_libccd<double> (FCL's copy of libccd),
//     shapeIntersect and shapeDistance with the solver's own defaults. shapeIntersect without contact points runs
//     libccd's MPR (ccdMPRIntersect, gjk_libccd-inl.h), not its GJK; shapeDistance runs libccd's GJK distance.
//   fcl-indep-intersect, fcl-indep-distance: detail::GJKSolver_indep<double> (FCL's own GJK and EPA), likewise.
//   fcl-collide: fcl::collide with a default CollisionRequest.
//   fcl-distance, fcl-signed-distance: fcl::distance with nearest points, unsigned and with enable_signed_distance.
//     The API sets the solver's tolerance to DistanceRequest's distance_tolerance, 1e-6 by default (absolute, in the
//     input's units), whatever the shapes' size.
//
// fcl-signed-distance's penetration (min_distance ≤ 0). For two Convex shapes and the default libccd solver, FCL
// returns GJKSolver_libccd::shapeSignedDistance's answer as is: GJK, then its own EPA (ccdGJKSignedDist), with
// min_distance = −depth and nearest_points the deepest points penEPAPosClosest extracts from EPA's nearest feature —
// nearest_points[0] on the first object (A), nearest_points[1] on the second (B), so nearest_points[0] −
// nearest_points[1] is the Minkowski-difference point nearest the origin: the translation of B that separates.
// Verified: A = [0,1]^3, B = A + (1/2, 0, 0) gives min_distance −0.5, nearest points (1, 0, 0) and (0.5, 0, 0);
// B = A − (0, 0.3, 0) gives −0.7, (0.5, 0, 0.25) and (0.5, 0.7, 0.25). Ours: depth = −min_distance, contact_a =
// nearest_points[0], contact_b = nearest_points[1], normal = contact_a − contact_b (FCL gives no normal; none is
// reported when the two points coincide, as when touching). When EPA fails FCL returns min_distance −1 without
// setting the points (they stay zero): the answer is kept as FCL gives it (depth 1, contacts at the origin) and the
// detail says so (and whether the points were set: a true depth of 1 also reads −1).
#include <fcl/fcl.h>

#include "adapter.hpp"

namespace {

using Convex = fcl::Convex<double>;

std::shared_ptr<Convex> convex_of(const gjkref_query& q, int side) {
  auto vertices = std::make_shared<std::vector<fcl::Vector3d>>();
  for (const auto& p : gjkref::adapters::points_of(q, side)) vertices->emplace_back(p[0], p[1], p[2]);
  return std::make_shared<Convex>(vertices, 0, std::make_shared<std::vector<int>>());
}

template <class Solver>
void solver_intersect(const gjkref_query& q, gjkref_answer& answer) {
  const auto a = convex_of(q, 0), b = convex_of(q, 1);
  const Solver solver;
  const fcl::Transform3d identity = fcl::Transform3d::Identity();
  answer.outcome = solver.shapeIntersect(*a, identity, *b, identity, nullptr) ? GJKREF_INTERSECTING : GJKREF_SEPARATED;
}

// shapeDistance returns true when it computed a distance (the shapes are apart) and false when they intersect. Its API
// has no third answer: GJKSolver_indep returns false (distance −1) for GJK's Failed status too, and its shapeIntersect
// returns false ("apart") for Failed and when EPA fails after GJK's Inside. What is recorded is what a caller of the API
// reads — intersecting, or apart — and it is judged as that: a failure hidden in a verdict is the verdict's finding.
template <class Solver>
void solver_distance(const gjkref_query& q, gjkref_answer& answer) {
  const auto a = convex_of(q, 0), b = convex_of(q, 1);
  const Solver solver;
  const fcl::Transform3d identity = fcl::Transform3d::Identity();
  double distance = 0;
  fcl::Vector3d on_a, on_b;
  if (solver.shapeDistance(*a, identity, *b, identity, &distance, &on_a, &on_b)) {
    gjkref::adapters::answer_separated(answer, distance);
    gjkref::adapters::set_witnesses(answer, on_a, on_b);
  } else {
    answer.outcome = GJKREF_INTERSECTING;
  }
}

void api_collide(const gjkref_query& q, gjkref_answer& answer) {
  fcl::CollisionObjectd a(convex_of(q, 0)), b(convex_of(q, 1));
  fcl::CollisionRequestd request;
  fcl::CollisionResultd result;
  fcl::collide(&a, &b, request, result);
  answer.outcome = result.isCollision() ? GJKREF_INTERSECTING : GJKREF_SEPARATED;
}

// fcl::distance reports min_distance -1 (unsigned) or the negative depth (signed) for intersecting shapes.
template <bool Signed>
void api_distance(const gjkref_query& q, gjkref_answer& answer) {
  fcl::CollisionObjectd a(convex_of(q, 0)), b(convex_of(q, 1));
  fcl::DistanceRequestd request;
  request.enable_nearest_points = true;
  request.enable_signed_distance = Signed;
  fcl::DistanceResultd result;
  fcl::distance(&a, &b, request, result);
  if (result.min_distance > 0) {
    gjkref::adapters::answer_separated(answer, result.min_distance);
    gjkref::adapters::set_witnesses(answer, result.nearest_points[0], result.nearest_points[1]);
  } else {
    answer.outcome = GJKREF_INTERSECTING;
    if (Signed) {
      gjkref::adapters::set_penetration(answer, 0.0 - result.min_distance);  // +0, not -0, when touching
      const fcl::Vector3d& on_a = result.nearest_points[0];
      const fcl::Vector3d& on_b = result.nearest_points[1];
      gjkref::adapters::set_contacts(answer, on_a, on_b);
      const fcl::Vector3d normal = on_a - on_b;
      if (normal != fcl::Vector3d::Zero()) gjkref::adapters::set_normal(answer, normal);
      // -1 is also a true depth of 1; when EPA fails FCL leaves the nearest points at zero.
      if (result.min_distance == -1)
        gjkref::adapters::say(answer, on_a == fcl::Vector3d::Zero() && on_b == fcl::Vector3d::Zero()
                                          ? "min_distance is -1 (FCL's sentinel when EPA fails)"
                                          : "min_distance is -1 (FCL's sentinel when EPA fails; nearest points set: "
                                            "perhaps a true depth of 1)");
    }
  }
}

constexpr const char* kVersion = "0.7.0 (Debian libfcl-dev, double)";
constexpr unsigned kDecide = GJKREF_CAN_DECIDE;
constexpr unsigned kMeasure = GJKREF_CAN_DECIDE | GJKREF_CAN_MEASURE | GJKREF_CAN_WITNESS;
using Libccd = fcl::detail::GJKSolver_libccd<double>;
using Indep = fcl::detail::GJKSolver_indep<double>;
const gjkref_implementation kLibccdIntersect{GJKREF_PLUGIN_ABI_VERSION, "fcl-libccd-intersect", kVersion, "double",
                                             GJKREF_3D, kDecide,
                                             gjkref::adapters::guarded<solver_intersect<Libccd>>};
const gjkref_implementation kLibccdDistance{GJKREF_PLUGIN_ABI_VERSION, "fcl-libccd-distance", kVersion, "double",
                                            GJKREF_3D, kMeasure, gjkref::adapters::guarded<solver_distance<Libccd>>};
const gjkref_implementation kIndepIntersect{GJKREF_PLUGIN_ABI_VERSION, "fcl-indep-intersect", kVersion, "double",
                                            GJKREF_3D, kDecide, gjkref::adapters::guarded<solver_intersect<Indep>>};
const gjkref_implementation kIndepDistance{GJKREF_PLUGIN_ABI_VERSION, "fcl-indep-distance", kVersion, "double",
                                           GJKREF_3D, kMeasure, gjkref::adapters::guarded<solver_distance<Indep>>};
const gjkref_implementation kCollide{GJKREF_PLUGIN_ABI_VERSION, "fcl-collide", kVersion, "double", GJKREF_3D, kDecide,
                                     gjkref::adapters::guarded<api_collide>};
const gjkref_implementation kDistance{GJKREF_PLUGIN_ABI_VERSION, "fcl-distance", kVersion, "double", GJKREF_3D,
                                      kMeasure, gjkref::adapters::guarded<api_distance<false>>};
const gjkref_implementation kSignedDistance{GJKREF_PLUGIN_ABI_VERSION, "fcl-signed-distance", kVersion, "double",
                                            GJKREF_3D,
                                            kMeasure | GJKREF_CAN_PENETRATE | GJKREF_CAN_NORMAL | GJKREF_CAN_CONTACT,
                                            gjkref::adapters::guarded<api_distance<true>>};
const gjkref_implementation* const kAll[] = {&kLibccdIntersect, &kLibccdDistance, &kIndepIntersect, &kIndepDistance,
                                             &kCollide, &kDistance, &kSignedDistance};

}  // namespace

extern "C" const gjkref_implementation* const* gjkref_plugin_implementations(size_t* count) {
  *count = sizeof kAll / sizeof kAll[0];
  return kAll;
}
