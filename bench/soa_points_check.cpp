// bench/soa_points_check.cpp — holds bench/soa_points.hpp to its claim: SoaPoints returns ConvexPoints' support point
// (the same index) for every direction. Clouds of 1 to 67 points — random, lattice (many ties), flat, collinear, mostly
// duplicates — at scales from 1e-300 to 1e300, against directions with random, small-integer, tiny and huge components.
// Exit status 1 if any support differs. Built with peers_bench (-DGJKREF_PEER_BENCH=ON); run by hand, with an optional
// seed (printed).
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "gjkref/gjkref.hpp"
#include "soa_points.hpp"

int main(int argc, char** argv) {
  using V = gjkref::Vec3<double>;
  const unsigned long long seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 9;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  std::uniform_int_distribution<int> small(-3, 3);
  const double scales[] = {1, 1e-300, 1e300, 1e-5, 1e10};
  long compared = 0, differing = 0;
  for (int shape = 0; shape < 3000; ++shape) {
    const int n = 1 + shape % 67, family = shape % 5;
    const double scale = scales[(shape / 5) % 5];
    std::vector<V> points;
    for (int i = 0; i < n; ++i) {
      V p;
      if (family == 0) p = {g(rng), g(rng), g(rng)};
      if (family == 1) p = {double(small(rng)), double(small(rng)), double(small(rng))};
      if (family == 2) {
        const double a = g(rng), b = g(rng);
        p = {a, b, 0.375 * a - 0.3125 * b};
      }
      if (family == 3) {
        const double a = g(rng);
        p = {a, 2 * a, -a};
      }
      if (family == 4) p = i % 3 ? V{1, 2, 3} : V{g(rng), g(rng), g(rng)};
      points.push_back({p.x * scale, p.y * scale, p.z * scale});
    }
    const gjkref::ConvexPoints<V> scan(points);
    const gjkref::bench::SoaPoints soa(points);
    for (int t = 0; t < 300; ++t) {
      V d;
      if (t % 4 == 0) d = {g(rng), g(rng), g(rng)};
      if (t % 4 == 1) d = {double(small(rng)), double(small(rng)), double(small(rng))};
      if (t % 4 == 2) d = {g(rng) * 1e-300, g(rng), g(rng) * 1e300};
      if (t % 4 == 3) d = {g(rng) * 1.7e308, g(rng) * 1.7e308, 1};
      if (d.x == 0 && d.y == 0 && d.z == 0) d.x = 1;
      differing += scan.support(d).index != soa.support(d).index;
      ++compared;
    }
  }
  std::printf("soa_points_check --seed %llu: %ld supports compared, %ld differing\n", seed, compared, differing);
  return differing == 0 ? 0 : 1;
}
