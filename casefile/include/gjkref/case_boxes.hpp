// Boxes as case shapes: exact axis-aligned boxes, and boxes whose corners are computed from a pose in double the way
// a physics engine computes them. Shared by the property suite's penetration families (proptests/generators.hpp)
// and the fuzz decoder (fuzz/decoder.hpp).
#pragma once

#include <array>
#include <cmath>
#include <vector>

namespace gjkref::casefile {

// The 2^dim corners of the axis-aligned box [lo, hi] (exact; z = 0 in 2D when lo[2] = hi[2] = 0).
inline std::vector<std::array<double, 3>> axis_box(int dim, const std::array<double, 3>& lo,
                                                   const std::array<double, 3>& hi) {
  std::vector<std::array<double, 3>> out;
  for (int corner = 0; corner < (1 << dim); ++corner) {
    std::array<double, 3> q{0, 0, 0};
    for (int i = 0; i < dim; ++i) q[i] = corner >> i & 1 ? hi[i] : lo[i];
    out.push_back(q);
  }
  return out;
}

// The 2^dim corners of a box of half-extents `half` centred at `centre`, turned by `angle` about the last axis and, in
// 3D, then by `tilt` about the first: centre + R·(±half), computed in double as an engine computes a box's vertices
// from its pose. The rounded corners are the shape.
inline std::vector<std::array<double, 3>> posed_box(int dim, const std::array<double, 3>& centre,
                                                    const std::array<double, 3>& half, double angle, double tilt) {
  std::vector<std::array<double, 3>> out;
  const double ca = std::cos(angle), sa = std::sin(angle), ct = std::cos(tilt), st = std::sin(tilt);
  for (int corner = 0; corner < (1 << dim); ++corner) {
    std::array<double, 3> q{0, 0, 0};
    for (int i = 0; i < dim; ++i) q[i] = (corner >> i & 1 ? 1 : -1) * half[i];
    std::array<double, 3> r = {ca * q[0] - sa * q[1], sa * q[0] + ca * q[1], q[2]};
    if (dim == 3) r = {r[0], ct * r[1] - st * r[2], st * r[1] + ct * r[2]};
    for (int i = 0; i < dim; ++i) r[i] += centre[i];
    out.push_back(r);
  }
  return out;
}

}  // namespace gjkref::casefile
