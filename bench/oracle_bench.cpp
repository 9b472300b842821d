// Oracle speed: cases per second for random point clouds of n = 4..64 vertices per shape, 2D and 3D, per method.
// Each shape is n random points in [−1, 1]^dim; B is shifted by a random offset in [−1.5, 1.5]^dim, so about half the
// pairs overlap. Run: build/default/bench/oracle_bench (figures in docs/oracle.md).
#include <benchmark/benchmark.h>

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

template <gjkref::oracle::Answer (*Method)(const gjkref::casefile::Case&)>
void oracle_cases(benchmark::State& state) {
  const auto cases = random_cases(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), 64);
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

}  // namespace

BENCHMARK_MAIN();
