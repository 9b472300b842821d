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
//   Transforms (bits 6–7 of byte 0): 0 none; 1 both shapes scaled by 2^k, k = (int8)p (exact unless it overflows or
//   underflows); 2 B moved along the last axis by ±2^−j, j = (p & 63), sign p & 64 (near touching); 3 both shapes
//   translated by 2^e along every axis, e = p & 63 (a large offset that rounds the small features).
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

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
  switch (counts >> 6) {
    case 1:
      for (auto* shape : shapes)
        for (Point& p : *shape)
          for (int j = 0; j < dim; ++j) p[j] = std::ldexp(p[j], static_cast<std::int8_t>(parameter));
      c.name = "fuzz/scaled";
      break;
    case 2:
      for (Point& p : c.b.points) p[dim - 1] += (parameter & 64 ? -1 : 1) * std::ldexp(1.0, -(parameter & 63));
      c.name = "fuzz/near";
      break;
    case 3:
      for (auto* shape : shapes)
        for (Point& p : *shape)
          for (int j = 0; j < dim; ++j) p[j] += std::ldexp(1.0, parameter & 63);
      c.name = "fuzz/translated";
      break;
    default:
      break;
  }
  return c;
}

}  // namespace gjkref::fuzz
