// fuzz/decoder.hpp — bytes → a gjkref case, built to land on degenerate input (docs/fuzzing.md).
//
// Uniform random coordinates almost never touch, share a vertex or sit on a feature; the decoder makes those the
// common case. Layout (every byte past the end reads as 0, so every input decodes):
//   byte 0     counts: |A| = 1 + (b & 7), |B| = 1 + ((b >> 3) & 7); bits 6–7 pick a case transform (below)
//   byte 1     the transform's parameter p
//   then |A| points of A, then |B| points of B, each a control byte c and its operands, op = c & 7:
//     0–3  a lattice point: one byte per coordinate, its top nibble as a signed value in [−8, 7]
//     4    a repeat of this shape's previous point (its first point repeats the other shape's first, if any)
//     5    a shared vertex: point (c >> 3) mod |other| of the other shape, already decoded (A's first points, for B)
//     6    the midpoint of two of this shape's earlier points, (c >> 3) & 3 and (c >> 5) & 7, modulo their count
//     7    a raw point: 8 bytes per coordinate, the double's bit pattern (NaN, ±∞, subnormals, huge values)
//   then one byte s that picks a structure reaching penetration (applied before the transform; 0, or past the end of
//   the input, keeps the decoded points), s & 3:
//     1  an offset copy: B = A moved by t, one byte per coordinate read as (int8)/32 (a multiple of 1/32 in [−4, 4)):
//        congruent shapes overlapping, with tied optimal facets whenever A has parallel faces
//     2  two axis-aligned boxes, per box and axis a byte: centre (int8 >> 4)/2, half-extent ((b & 15) + 1)/4; with
//        s & 4, both boxes' last axis thinned by 2^−((s >> 3) & 31) (aspect to 1e−9)
//     3  two boxes posed as an engine poses them (gjkref/case_boxes.hpp): per box and axis a half-extent byte
//        ((b & 15) + 1)/4, then for B an angle byte and (3D) a tilt byte, in 1/256 of a turn; B's centre is above A's
//        by the sum of their half-heights less 2^−((s >> 2) & 63) (0 when that field is 63: resting contact when B
//        is not turned out of the horizontal, angle 0 in 2D and tilt 0 in 3D; turned, a corner of B dips into A)
//   then one byte w that gives the case a warm start (docs/case-format.md; 0, or past the end of the input, gives none,
//   so inputs that end before it decode as before it existed), w & 3:
//     1  index pairs, 1 + ((w >> 2) & 3) of them (at most dim + 1), each two bytes: a point of A and one of B, modulo
//        their counts after the structure
//     2  a direction, one byte per coordinate read as (int8)/16 (the zero direction is the cold start)
//     3  dim + 1 index pairs, read as in 1: a full simplex, which on flat A⊖B is the warm-start layer's hard case
//   then one byte e that empties shapes when it is 0xE1, 0xE2 or 0xE3 (any other value, or past the end of the input,
//   keeps them; rare, so that the fuzzer's longer inputs are not mostly empty cases): e & 1 empties A, e & 2 empties
//   B — the invalid input every query must name (InputError::EmptyA, EmptyB), which the counts above cannot make; a
//   warm start goes with an emptied shape (no index names a point of it)
//   Transforms (bits 6–7 of byte 0): 0 none; 1 both shapes scaled by 2^k, k = (int8)p (exact unless it overflows or
//   underflows); 2 B moved along the last axis by ±2^−j, j = (p & 63), sign p & 64 (near touching); 3 both shapes
//   translated by 2^e along every axis, e = p & 63 (a large offset that rounds the small features).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "gjkref/case_boxes.hpp"
#include "gjkref/casefile.hpp"

namespace gjkref::fuzz {

class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  double raw_double() {
    std::uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits |= static_cast<std::uint64_t>(byte()) << (8 * i);
    double x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

// The warm-start byte (see the layout above), after the structure has fixed the point counts.
inline void decode_warm_start(ByteReader& in, casefile::Case& c) {
  const std::uint8_t w = in.byte();
  if ((w & 3) == 0 || c.a.points.empty() || c.b.points.empty()) return;
  casefile::WarmStart start;
  if ((w & 3) == 2) {
    std::array<double, 3> d{};
    for (int j = 0; j < c.dim; ++j) d[j] = static_cast<std::int8_t>(in.byte()) / 16.0;
    start.direction = d;
  } else {
    const int count = (w & 3) == 3 ? c.dim + 1 : std::min(1 + ((w >> 2) & 3), c.dim + 1);
    for (int k = 0; k < count; ++k) {
      const std::size_t ia = in.byte() % c.a.points.size(), ib = in.byte() % c.b.points.size();
      start.pairs.push_back({ia, ib});
    }
  }
  c.warm_start = start;
  c.name += (w & 3) == 2 ? "/warm-direction" : "/warm-pairs";
}

// The emptying byte (see the layout above), after the warm start.
inline void decode_emptying(ByteReader& in, casefile::Case& c) {
  const std::uint8_t e = in.byte();
  if ((e & 0xFC) != 0xE0 || (e & 3) == 0) return;
  if (e & 1) c.a.points.clear();
  if (e & 2) c.b.points.clear();
  c.warm_start.reset();
  c.name += (e & 3) == 3 ? "/both-empty" : (e & 1) ? "/empty-a" : "/empty-b";
}

// The structure byte's shapes (see the layout above), replacing or moving the decoded points.
inline void decode_structure(ByteReader& in, casefile::Case& c) {
  using Point = std::array<double, 3>;
  const int dim = c.dim, last = dim - 1;
  const std::uint8_t s = in.byte();
  const auto extent = [&in] { return ((in.byte() & 15) + 1) / 4.0; };
  switch (s & 3) {
    case 1: {
      Point t{0, 0, 0};
      for (int j = 0; j < dim; ++j) t[j] = static_cast<std::int8_t>(in.byte()) / 32.0;
      c.b.points = c.a.points;
      for (Point& p : c.b.points)
        for (int j = 0; j < dim; ++j) p[j] += t[j];
      c.name = "fuzz/offset-copy";
      break;
    }
    case 2: {
      std::vector<Point>* shapes[2] = {&c.a.points, &c.b.points};
      for (auto* shape : shapes) {
        Point lo{0, 0, 0}, hi{0, 0, 0};
        for (int j = 0; j < dim; ++j) {
          const std::uint8_t b = in.byte();
          const double centre = (static_cast<std::int8_t>(b) >> 4) / 2.0, half = ((b & 15) + 1) / 4.0;
          lo[j] = centre - half, hi[j] = centre + half;
        }
        if (s & 4) {
          const double centre = (lo[last] + hi[last]) / 2, half = std::ldexp((hi[last] - lo[last]) / 2, -((s >> 3) & 31));
          lo[last] = centre - half, hi[last] = centre + half;
        }
        *shape = casefile::axis_box(dim, lo, hi);
      }
      c.name = s & 4 ? "fuzz/thin-boxes" : "fuzz/boxes";
      break;
    }
    case 3: {
      constexpr double kTurn = 6.283185307179586;
      Point half_a{0, 0, 0}, half_b{0, 0, 0};
      for (int j = 0; j < dim; ++j) half_a[j] = extent();
      for (int j = 0; j < dim; ++j) half_b[j] = extent();
      const double angle = in.byte() * kTurn / 256, tilt = dim == 3 ? in.byte() * kTurn / 256 : 0;
      const int k = (s >> 2) & 63;
      Point centre_b{0, 0, 0};
      centre_b[last] = half_a[last] + half_b[last] - (k == 63 ? 0 : std::ldexp(1.0, -k));
      c.a.points = casefile::posed_box(dim, {0, 0, 0}, half_a, 0, 0);
      c.b.points = casefile::posed_box(dim, centre_b, half_b, angle, tilt);
      c.name = "fuzz/posed-boxes";
      break;
    }
    default:
      break;
  }
}

inline casefile::Case decode_case(const std::uint8_t* data, std::size_t size, int dim) {
  using Point = std::array<double, 3>;
  ByteReader in(data, size);
  const std::uint8_t counts = in.byte();
  const std::uint8_t parameter = in.byte();
  casefile::Case c;
  c.name = "fuzz";
  c.dim = dim;
  std::vector<Point>* shapes[2] = {&c.a.points, &c.b.points};
  const int count[2] = {1 + (counts & 7), 1 + ((counts >> 3) & 7)};
  for (int s = 0; s < 2; ++s) {
    std::vector<Point>& own = *shapes[s];
    const std::vector<Point>& other = *shapes[1 - s];
    for (int i = 0; i < count[s]; ++i) {
      const std::uint8_t control = in.byte();
      Point p{0, 0, 0};
      switch (control & 7) {
        case 4:
          if (!own.empty()) p = own.back();
          else if (!other.empty()) p = other.front();
          break;
        case 5:
          if (!other.empty()) p = other[(control >> 3) % other.size()];
          break;
        case 6:
          if (!own.empty()) {
            const Point& x = own[((control >> 3) & 3) % own.size()];
            const Point& y = own[((control >> 5) & 7) % own.size()];
            for (int j = 0; j < dim; ++j) p[j] = (x[j] + y[j]) / 2;
          }
          break;
        case 7:
          for (int j = 0; j < dim; ++j) p[j] = in.raw_double();
          break;
        default:
          for (int j = 0; j < dim; ++j) p[j] = static_cast<double>(static_cast<std::int8_t>(in.byte()) >> 4);
          break;
      }
      own.push_back(p);
    }
  }
  decode_structure(in, c);
  decode_warm_start(in, c);
  decode_emptying(in, c);
  switch (counts >> 6) {
    case 1:
      for (auto* shape : shapes)
        for (Point& p : *shape)
          for (int j = 0; j < dim; ++j) p[j] = std::ldexp(p[j], static_cast<std::int8_t>(parameter));
      c.name += "/scaled";
      break;
    case 2:
      for (Point& p : c.b.points) p[dim - 1] += (parameter & 64 ? -1 : 1) * std::ldexp(1.0, -(parameter & 63));
      c.name += "/near";
      break;
    case 3:
      for (auto* shape : shapes)
        for (Point& p : *shape)
          for (int j = 0; j < dim; ++j) p[j] += std::ldexp(1.0, parameter & 63);
      c.name += "/translated";
      break;
    default:
      break;
  }
  return c;
}

}  // namespace gjkref::fuzz
