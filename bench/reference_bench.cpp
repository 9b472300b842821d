// Reference GJK speed: distance() queries per second on random point clouds of n = 4..64 vertices per shape, 3D,
// in float, double, long double and exact rationals, and the certified mode (exact answers for the double input). Same generator as oracle_bench (B shifted by up to 1.5, about
// half the pairs overlapping). Run: build/default/bench/reference_bench
#include <benchmark/benchmark.h>

#include <random>

#include "gjkref/certified.hpp"
#include "gjkref/exact.hpp"
#include "gjkref/gjkref.hpp"

namespace {

template <class T>
std::vector<std::pair<gjkref::ConvexPoints<gjkref::Vec3<T>>, gjkref::ConvexPoints<gjkref::Vec3<T>>>> random_pairs(
    int n, int count) {
  using V = gjkref::Vec3<T>;
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> unit(-1, 1), shift(-1.5, 1.5);
  std::vector<std::pair<gjkref::ConvexPoints<V>, gjkref::ConvexPoints<V>>> pairs;
  for (int c = 0; c < count; ++c) {
    const gjkref::Vec3<double> offset{shift(rng), shift(rng), shift(rng)};
    std::vector<V> a, b;
    for (int i = 0; i < n; ++i) a.push_back(gjkref::convert<T>(gjkref::Vec3<double>{unit(rng), unit(rng), unit(rng)}));
    for (int i = 0; i < n; ++i)
      b.push_back(gjkref::convert<T>(gjkref::Vec3<double>{unit(rng), unit(rng), unit(rng)} + offset));
    pairs.emplace_back(gjkref::ConvexPoints<V>(a), gjkref::ConvexPoints<V>(b));
  }
  return pairs;
}

template <class T>
void reference_distance(benchmark::State& state) {
  const auto pairs = random_pairs<T>(static_cast<int>(state.range(0)), 64);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& [a, b] = pairs[i++ % pairs.size()];
    benchmark::DoNotOptimize(gjkref::distance(a, b));
  }
  state.counters["queries/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

template <gjkref::CertifiedOutput output>
void certified_distance(benchmark::State& state) {
  const auto pairs = random_pairs<double>(static_cast<int>(state.range(0)), 64);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& [a, b] = pairs[i++ % pairs.size()];
    benchmark::DoNotOptimize(gjkref::certified_distance(a, b, {}, output));
  }
  state.counters["queries/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int n : {4, 8, 16, 32, 64}) b->Arg(n);
  b->ArgName("n")->Unit(benchmark::kMicrosecond);
}

BENCHMARK(reference_distance<float>)->Name("float")->Apply(sizes);
BENCHMARK(reference_distance<double>)->Name("double")->Apply(sizes);
BENCHMARK(reference_distance<long double>)->Name("long_double")->Apply(sizes);
BENCHMARK(reference_distance<gjkref::Exact>)->Name("exact")->Apply(sizes);
BENCHMARK(certified_distance<gjkref::CertifiedOutput::Witnesses>)->Name("certified")->Apply(sizes);
BENCHMARK(certified_distance<gjkref::CertifiedOutput::Distance>)->Name("certified_distance_only")->Apply(sizes);
BENCHMARK(certified_distance<gjkref::CertifiedOutput::WithExact>)->Name("certified_with_exact")->Apply(sizes);

}  // namespace

BENCHMARK_MAIN();
