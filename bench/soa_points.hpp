// bench/soa_points.hpp — a prototype support mapping measured in bench/peers_bench beside gjkref::ConvexPoints: the
// same points stored by coordinate (x₀x₁…, y₀y₁…, z₀z₁…), scanned four at a time with AVX2 where the processor has it.
//
// It answers exactly what ConvexPoints<Vec3<double>> answers — the first index maximising the computed value
// ṽ(p) = fl(fl(fl(d₀·fl(p₀ − o₀)) + fl(d₁·fl(p₁ − o₁))) + fl(d₂·fl(p₂ − o₂))), o the first point — because each lane
// computes ṽ with the same operations in the same order, each lane keeps its first maximum (a strictly larger value
// replaces it), and the lanes are merged by value and then by the smaller index. The arrays are padded to a multiple
// of four with copies of the first point, whose value is ṽ(o) = 0 (or NaN), which never displaces index 0. "The same
// operations" holds only where the compiler has no fused multiply-add to contract them into (GCC contracts the
// intrinsics too, and C++ builds default to -ffp-contract=fast): the header refuses builds with FMA enabled (-mfma,
// -march=x86-64-v3 or native), where clang was seen to give a different support for 3.6 % of soa_points_check's
// directions. The benchmark builds at -O2 for plain x86-64.
#pragma once

#if defined(__FMA__)
#error "bench/soa_points.hpp: SoaPoints equals ConvexPoints bit for bit only without fused multiply-add (no -mfma/-march)"
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define GJKREF_SOA_AVX2 1
#endif

#include <cstddef>
#include <array>
#include <cstdint>
#include <vector>

#include "gjkref/support.hpp"

namespace gjkref::bench {

class SoaPoints {
 public:
  using V = Vec3<double>;
  using vector_type = V;
  using scalar_type = double;

  SoaPoints() = default;
  explicit SoaPoints(std::vector<V> points) : shape_(points) {
    if (shape_.check() != ShapeCheck::Ok) return;
    const std::size_t n = points.size(), padded = (n + 3) / 4 * 4;
    for (int k = 0; k < 3; ++k) {
      coordinate_[k].resize(padded);
      for (std::size_t i = 0; i < padded; ++i) coordinate_[k][i] = points[i < n ? i : 0][k];
    }
  }

  Support<V> support(const V& d) const {
#ifdef GJKREF_SOA_AVX2
    static const bool avx2 = __builtin_cpu_supports("avx2");
    const std::size_t best = avx2 ? argmax_avx2(d) : argmax_scalar(d);
#else
    const std::size_t best = argmax_scalar(d);
#endif
    return {shape_.points()[best], best};
  }

  ShapeCheck check() const { return shape_.check(); }
  double max_abs_coordinate() const { return shape_.max_abs_coordinate(); }
  V vertex(std::size_t i) const { return shape_.vertex(i); }
  std::size_t size() const { return shape_.size(); }
  const std::vector<V>& points() const { return shape_.points(); }

 private:
  std::size_t argmax_scalar(const V& d) const {
    const double *x = coordinate_[0].data(), *y = coordinate_[1].data(), *z = coordinate_[2].data();
    const double ox = x[0], oy = y[0], oz = z[0];
    double best_value = 0;
    std::size_t best = 0;
    for (std::size_t i = 1; i < shape_.size(); ++i) {
      double value = d[0] * (x[i] - ox);
      value += d[1] * (y[i] - oy);
      value += d[2] * (z[i] - oz);
      if (best_value < value) best_value = value, best = i;
    }
    return best;
  }

#ifdef GJKREF_SOA_AVX2
  __attribute__((target("avx2"))) std::size_t argmax_avx2(const V& d) const {
    const double *x = coordinate_[0].data(), *y = coordinate_[1].data(), *z = coordinate_[2].data();
    const __m256d dx = _mm256_set1_pd(d[0]), dy = _mm256_set1_pd(d[1]), dz = _mm256_set1_pd(d[2]);
    const __m256d ox = _mm256_set1_pd(x[0]), oy = _mm256_set1_pd(y[0]), oz = _mm256_set1_pd(z[0]);
    __m256d best_value = _mm256_setzero_pd();
    __m256i best = _mm256_setzero_si256(), index = _mm256_set_epi64x(3, 2, 1, 0);
    const __m256i four = _mm256_set1_epi64x(4);
    const std::size_t padded = coordinate_[0].size();
    for (std::size_t i = 0; i < padded; i += 4) {
      __m256d value = _mm256_mul_pd(dx, _mm256_sub_pd(_mm256_loadu_pd(x + i), ox));
      value = _mm256_add_pd(value, _mm256_mul_pd(dy, _mm256_sub_pd(_mm256_loadu_pd(y + i), oy)));
      value = _mm256_add_pd(value, _mm256_mul_pd(dz, _mm256_sub_pd(_mm256_loadu_pd(z + i), oz)));
      const __m256d larger = _mm256_cmp_pd(value, best_value, _CMP_GT_OQ);
      best_value = _mm256_blendv_pd(best_value, value, larger);
      best = _mm256_castpd_si256(
          _mm256_blendv_pd(_mm256_castsi256_pd(best), _mm256_castsi256_pd(index), larger));
      index = _mm256_add_epi64(index, four);
    }
    alignas(32) double values[4];
    alignas(32) std::int64_t indices[4];
    _mm256_store_pd(values, best_value);
    _mm256_store_si256(reinterpret_cast<__m256i*>(indices), best);
    double v = values[0];
    std::int64_t b = indices[0];
    for (int lane = 1; lane < 4; ++lane)
      if (values[lane] > v || (values[lane] == v && indices[lane] < b)) v = values[lane], b = indices[lane];
    return static_cast<std::size_t>(b);
  }
#endif

  ConvexPoints<V> shape_;
  std::array<std::vector<double>, 3> coordinate_;
};

}  // namespace gjkref::bench
