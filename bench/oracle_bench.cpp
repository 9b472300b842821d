// Oracle speed: cases per second for n = 4..64 vertices per shape, 2D and 3D, per method. Random clouds: each shape is
// n random points in [−1, 1]^dim; B is shifted by a random offset in [−1.5, 1.5]^dim, so about half the pairs overlap.
// "-touching": exactly touching lattice pairs (touching_cases). Run: build/default/bench/oracle_bench (figures in docs/oracle.md).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>

#include "gjkref/oracle.hpp"

namespace {

std::vector<gjkref::casefile::Case> random_cases(int dim, int n, int count) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> unit(-1, 1), shift(-1.5, 1.5);
  std::vector<gjkref::casefile::Case> cases;
  for (int c = 0; c < count; ++c) {
    gjkref::casefile::Case k;
    k.name = "bench";
    k.dim = dim;
    std::array<double, 3> offset{shift(rng), shift(rng), dim == 3 ? shift(rng) : 0};
    for (auto* s : {&k.a, &k.b})
      for (int i = 0; i < n; ++i) {
        std::array<double, 3> p{unit(rng), unit(rng), dim == 3 ? unit(rng) : 0};
        if (s == &k.b)
          for (int j = 0; j < dim; ++j) p[j] += offset[j];
        s->points.push_back(p);
      }
    cases.push_back(k);
  }
  return cases;
}

// Exactly touching lattice pairs: A is n points of [−8, 8]^dim; B is A reflected through the midpoint of A's two
// points with the largest x (ties: the first), a boundary point, so A ∩ B lies in A's supporting plane there. Ties and
// shared vertices are everywhere: the fast path's certificates fail more often and it falls back to the hull.
std::vector<gjkref::casefile::Case> touching_cases(int dim, int n, int count) {
  std::mt19937_64 rng(43);
  std::uniform_int_distribution<int> coord(-8, 8);
  std::vector<gjkref::casefile::Case> cases;
  for (int c = 0; c < count; ++c) {
    gjkref::casefile::Case k;
    k.name = "bench-touching";
    k.dim = dim;
    for (int i = 0; i < n; ++i) k.a.points.push_back({double(coord(rng)), double(coord(rng)), dim == 3 ? double(coord(rng)) : 0});
    auto by_x = k.a.points;
    std::sort(by_x.begin(), by_x.end(), [](const auto& p, const auto& q) { return p[0] > q[0]; });
    std::array<double, 3> mid;
    for (int j = 0; j < 3; ++j) mid[j] = (by_x[0][j] + by_x[1][j]) / 2;
    for (const auto& p : k.a.points) k.b.points.push_back({2 * mid[0] - p[0], 2 * mid[1] - p[1], 2 * mid[2] - p[2]});
    cases.push_back(k);
  }
  return cases;
}

template <gjkref::oracle::Answer (*Method)(const gjkref::casefile::Case&), bool Touching = false>
void oracle_cases(benchmark::State& state) {
  const int dim = static_cast<int>(state.range(0)), n = static_cast<int>(state.range(1));
  const auto cases = Touching ? touching_cases(dim, n, 64) : random_cases(dim, n, 64);
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(Method(cases[i++ % cases.size()]));
  state.counters["cases/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int dim : {2, 3})
    for (int n : {4, 8, 16, 32, 64}) b->Args({dim, n});
  b->ArgNames({"dim", "n"})->Unit(benchmark::kMillisecond);
}

BENCHMARK(oracle_cases<gjkref::oracle::hull_oracle>)->Name("hull")->Apply(sizes);
BENCHMARK(oracle_cases<gjkref::oracle::qp_oracle>)->Name("qp")->Apply(sizes);
BENCHMARK(oracle_cases<gjkref::oracle::fast_oracle>)->Name("fast")->Apply(sizes);
BENCHMARK(oracle_cases<gjkref::oracle::fast_oracle, true>)->Name("fast-touching")->Apply(sizes);
BENCHMARK(oracle_cases<gjkref::oracle::hull_oracle, true>)->Name("hull-touching")->Apply(sizes);

// The penetration-depth oracle on overlapping pairs: clouds as above with B shrunk by 6 about the origin (most pairs
// overlap; the others are skipped when the cases are made). Each call takes the case's distance answer (made
// beforehand, not timed) and computes PD: "depth-hull" (method 1 with its certificate checked) and "depth-support"
// (method 2).
template <gjkref::oracle::Penetration (*Method)(const gjkref::casefile::Case&, const gjkref::oracle::Answer&)>
void depth_cases(benchmark::State& state) {
  const int dim = static_cast<int>(state.range(0)), n = static_cast<int>(state.range(1));
  std::vector<std::pair<gjkref::casefile::Case, gjkref::oracle::Answer>> cases;
  for (auto& c : random_cases(dim, n, 256)) {
    for (auto& p : c.b.points)
      for (int j = 0; j < dim; ++j) p[j] /= 6;  // B shrunk by 6 about the origin, into A's middle
    const auto answer = gjkref::oracle::fast_oracle(c);
    if (answer.verdict == gjkref::oracle::Verdict::Overlapping) cases.push_back({c, answer});
    if (cases.size() == 64) break;
  }
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& [c, answer] = cases[i++ % cases.size()];
    benchmark::DoNotOptimize(Method(c, answer));
  }
  state.counters["cases/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void depth_sizes(benchmark::internal::Benchmark* b) {
  for (int dim : {2, 3})
    for (int n : {4, 16, 64}) b->Args({dim, n});
  b->ArgNames({"dim", "n"})->Unit(benchmark::kMillisecond);
}

BENCHMARK(depth_cases<gjkref::oracle::penetration_oracle>)->Name("depth-hull")->Apply(depth_sizes);
BENCHMARK(depth_cases<gjkref::oracle::penetration_by_support>)->Name("depth-support")->Apply(depth_sizes);

}  // namespace

BENCHMARK_MAIN();
