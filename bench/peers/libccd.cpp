// bench/peers/libccd.cpp — libccd: ccdGJKIntersect with CCD_INIT's settings and a point cloud's support function (the
// first point of greatest dot product) — as impl/adapters/libccd.cpp calls it.
#include <ccd/ccd.h>

#include <cmath>

#include "peers.hpp"

namespace gjkref::bench {
namespace {

void support(const void* object, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const Cloud& c = *static_cast<const Cloud*>(object);
  std::size_t best = 0;
  double best_dot = -INFINITY;
  for (std::size_t i = 0; i < c.size(); ++i) {
    const double d = c[i][0] * ccdVec3X(dir) + c[i][1] * ccdVec3Y(dir) + c[i][2] * ccdVec3Z(dir);
    if (d > best_dot) best_dot = d, best = i;
  }
  ccdVec3Set(out, c[best][0], c[best][1], c[best][2]);
}

class Libccd final : public Queries {
 public:
  explicit Libccd(const Pairs& pairs) : pairs_(pairs) {
    CCD_INIT(&ccd_);
    ccd_.support1 = support;
    ccd_.support2 = support;
  }
  double run(std::size_t i) override { return ccdGJKIntersect(&pairs_[i].first, &pairs_[i].second, &ccd_) ? 1 : 0; }

 private:
  const Pairs& pairs_;
  ccd_t ccd_;
};

class LibccdPenetration final : public Queries {
 public:
  explicit LibccdPenetration(const Pairs& pairs) : pairs_(pairs) {
    CCD_INIT(&ccd_);
    ccd_.support1 = support;
    ccd_.support2 = support;
  }
  double run(std::size_t i) override {
    ccd_real_t depth = 0;
    ccd_vec3_t direction, position;
    return ccdGJKPenetration(&pairs_[i].first, &pairs_[i].second, &ccd_, &depth, &direction, &position) == 0
               ? double(depth)
               : -1.0;
  }

 private:
  const Pairs& pairs_;
  ccd_t ccd_;
};

}  // namespace

std::unique_ptr<Queries> libccd_penetration(const Pairs& pairs) { return std::make_unique<LibccdPenetration>(pairs); }

std::unique_ptr<Queries> libccd_intersect(const Pairs& pairs) { return std::make_unique<Libccd>(pairs); }

}  // namespace gjkref::bench
