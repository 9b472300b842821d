// bench/answer_digest.cpp — one digest per public query of the reference over a fixed set of inputs, for telling
// whether a change to reference/include/ changes any answer (scripts/answer-digest builds this file against two
// header trees and compares). Not a test: it says "the same" or "different", and which query differs.
//
// Inputs (fixed seed, GJKREF_DIGEST_QUERIES pairs per family and dimension, default 20000): clouds of 1 to 40 points in
// 2D and 3D, from five families: uniform in a cube, B shifted by 0 to 1.8 (separated, touching-near and overlapping
// pairs); a lattice of quarters (exact ties, duplicates, flat sets); B placed a tiny gap (2^-30 to 2^-50) beyond A's
// support plane along a random axis; the uniform family scaled by 2^k, k from -60 to 60; and a segment or a single
// point against a cloud.
// Digested per pair: distance() in float, double and long double (status, stop rule, iterations, pass, closest point,
// witnesses, simplex vertex indices); in double warm-started too, from the float answer's simplex (index pairs) and
// from a fixed initial direction; in exact rationals for every tenth pair of at most 12 + 12 points (status,
// squared distance, simplex); intersect() in double (status, stop rule); certified_distance() at its default
// output level (class, distance, witnesses, proven simplex) and, apart, its path; for overlapping pairs the double EPA
// (penetration(): status, squared depth, normal, translation, facet vertex indices) and, for every fourth such pair,
// certified_penetration() (status, depth, normal) and, apart, its path.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gjkref/certified.hpp"
#include "gjkref/certified_penetration.hpp"
#include "gjkref/epa.hpp"
#include "gjkref/gjk.hpp"

namespace {

using namespace gjkref;

// FNV-1a over the bytes of each value mixed in.
struct Digest {
  std::uint64_t h = 1469598103934665603ull;
  long count = 0;
  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  }
  template <class T>
  void add(const T& x) {
    if constexpr (std::is_same_v<T, long double> && std::numeric_limits<long double>::digits == 64) {
      bytes(&x, 10);  // x87's 80 bits, not the padding after them
    } else {
      bytes(&x, sizeof x);
    }
  }
  template <Vector V>
  void vec(const V& v) {
    for (int c = 0; c < V::dimension; ++c) add(v[c]);
  }
};

enum Part { kFloat, kDouble, kLongDouble, kWarm, kExact, kIntersect, kCertified, kCertifiedPath, kEpa,
            kCertifiedDepth, kCertifiedDepthPath, kParts };
const char* const kPartNames[kParts] = {"distance<float>",       "distance<double>",   "distance<long double>",
                                        "distance<double> warm", "distance<exact>",    "intersect<double>",
                                        "certified_distance",    "certified_distance path",
                                        "penetration<double>",   "certified_penetration",
                                        "certified_penetration path"};
Digest parts[kParts];

template <Vector V>
void result(Digest& d, const Result<V>& r) {
  d.add(static_cast<int>(r.status)), d.add(static_cast<int>(r.stop_rule)), d.add(r.iterations);
  d.add(static_cast<int>(r.pass));
  d.vec(r.closest), d.vec(r.witness_a), d.vec(r.witness_b);
  d.add(r.simplex.size);
  for (int i = 0; i < r.simplex.size; ++i) d.add(r.simplex.points[i].index_a), d.add(r.simplex.points[i].index_b);
  ++d.count;
}

template <class T, Vector VD>
Result<std::conditional_t<VD::dimension == 2, Vec2<T>, Vec3<T>>> floating(Digest& d, const std::vector<VD>& a,
                                                                           const std::vector<VD>& b) {
  using V = std::conditional_t<VD::dimension == 2, Vec2<T>, Vec3<T>>;
  std::vector<V> pa, pb;
  for (const auto& p : a) pa.push_back(convert<T>(p));
  for (const auto& p : b) pb.push_back(convert<T>(p));
  const Result<V> r = distance(ConvexPoints<V>(pa), ConvexPoints<V>(pb));
  result(d, r);
  return r;
}

template <Vector V>
void pair(const std::vector<V>& a, const std::vector<V>& b, long index) {
  const auto coarse = floating<float>(parts[kFloat], a, b);
  floating<double>(parts[kDouble], a, b);
  floating<long double>(parts[kLongDouble], a, b);
  const ConvexPoints<V> sa(a), sb(b);
  Options<V> warm;
  for (int i = 0; i < coarse.simplex.size; ++i)
    warm.warm_start_simplex.push_back({coarse.simplex.points[i].index_a, coarse.simplex.points[i].index_b});
  result(parts[kWarm], distance(sa, sb, warm));
  Options<V> along;
  along.initial_direction = V{};
  for (int c = 0; c < V::dimension; ++c) (*along.initial_direction)[c] = c == 0 ? 1.0 : -0.5 * c;
  result(parts[kWarm], distance(sa, sb, along));
  if (index % 10 == 0 && a.size() <= 12 && b.size() <= 12) {
    using VE = exact_vector_t<V>;
    std::vector<VE> ea, eb;
    for (const auto& p : a) ea.push_back(convert<Exact>(p));
    for (const auto& p : b) eb.push_back(convert<Exact>(p));
    const Result<VE> e = distance(ConvexPoints<VE>(ea), ConvexPoints<VE>(eb));
    Digest& dx = parts[kExact];
    dx.add(static_cast<int>(e.status)), dx.add(static_cast<int>(e.stop_rule)), dx.add(e.iterations);
    const std::string squared = e.squared_distance().get_str();
    dx.add(squared.size());
    dx.bytes(squared.data(), squared.size());
    dx.add(e.simplex.size);
    for (int i = 0; i < e.simplex.size; ++i) dx.add(e.simplex.points[i].index_a), dx.add(e.simplex.points[i].index_b);
    ++dx.count;
  }
  const Result<V> i = intersect(sa, sb);
  parts[kIntersect].add(static_cast<int>(i.status)), parts[kIntersect].add(static_cast<int>(i.stop_rule));
  ++parts[kIntersect].count;

  const CertifiedResult<V> c = certified_distance(sa, sb);
  Digest& dc = parts[kCertified];
  dc.add(static_cast<int>(c.status)), dc.add(static_cast<int>(c.contact_class)), dc.add(c.distance);
  dc.add(c.witness_a.has_value()), dc.add(c.witness_b.has_value());
  if (c.witness_a) dc.vec(*c.witness_a);
  if (c.witness_b) dc.vec(*c.witness_b);
  dc.add(c.simplex.size());
  for (const auto& [ia, ib] : c.simplex) dc.add(ia), dc.add(ib);
  ++dc.count;
  parts[kCertifiedPath].add(static_cast<int>(c.path));
  ++parts[kCertifiedPath].count;
  if (c.contact_class != ContactClass::Overlapping) return;

  const Penetration<V> p = penetration(sa, sb);
  Digest& de = parts[kEpa];
  de.add(static_cast<int>(p.status)), de.add(p.squared_depth), de.vec(p.normal), de.vec(p.translation);
  de.add(p.facet_size);
  for (int k = 0; k < p.facet_size; ++k) de.add(p.facet[k].index_a), de.add(p.facet[k].index_b);
  ++de.count;
  if (index % 4 != 0) return;
  const CertifiedPenetration<V> q = certified_penetration(sa, sb);
  Digest& dq = parts[kCertifiedDepth];
  dq.add(static_cast<int>(q.status)), dq.add(q.depth), dq.vec(q.normal);
  ++dq.count;
  parts[kCertifiedDepthPath].add(static_cast<int>(q.path));
  ++parts[kCertifiedDepthPath].count;
}

template <Vector V>
void family(int which, long queries, std::mt19937_64& g) {
  constexpr int D = V::dimension;
  std::uniform_real_distribution<double> unit(-1, 1);
  const auto cloud = [&](int n, auto&& coordinate) {
    std::vector<V> points(n);
    for (auto& p : points)
      for (int c = 0; c < D; ++c) p[c] = coordinate();
    return points;
  };
  for (long q = 0; q < queries; ++q) {
    const int n = 1 + static_cast<int>(g() % 40), m = 1 + static_cast<int>(g() % 40);
    std::vector<V> a, b;
    switch (which) {
      case 0: {  // uniform, B shifted along x
        const double shift = static_cast<double>(g() % 10) * 0.2;
        a = cloud(n, [&] { return unit(g); });
        b = cloud(m, [&] { return unit(g); });
        for (auto& p : b) p[0] += shift;
        break;
      }
      case 1: {  // a lattice of quarters
        const auto quarter = [&] { return static_cast<double>(static_cast<int>(g() % 9) - 4) / 4; };
        a = cloud(n, quarter);
        b = cloud(m, quarter);
        const double shift = static_cast<double>(g() % 5) * 0.5;
        for (auto& p : b) p[0] += shift;
        break;
      }
      case 2: {  // B a tiny gap beyond A's largest x
        a = cloud(n, [&] { return unit(g); });
        b = cloud(m, [&] { return unit(g) * 0.5 + 0.5; });
        double top = a[0][0], low = b[0][0];
        for (const auto& p : a) top = std::max(top, p[0]);
        for (const auto& p : b) low = std::min(low, p[0]);
        const double gap = std::ldexp(1.0, -30 - static_cast<int>(g() % 21));
        for (auto& p : b) p[0] += top - low + gap;
        break;
      }
      case 3: {  // uniform, scaled by 2^k
        const int k = static_cast<int>(g() % 121) - 60;
        a = cloud(n, [&] { return std::ldexp(unit(g), k); });
        b = cloud(m, [&] { return std::ldexp(unit(g), k); });
        const double shift = std::ldexp(static_cast<double>(g() % 10) * 0.2, k);
        for (auto& p : b) p[0] += shift;
        break;
      }
      default: {  // a segment or a point against a cloud
        a = cloud(1 + static_cast<int>(g() % 2), [&] { return unit(g); });
        b = cloud(m, [&] { return unit(g); });
        break;
      }
    }
    pair(a, b, q);
  }
}

}  // namespace

int main() {
  const char* env = std::getenv("GJKREF_DIGEST_QUERIES");
  char* end = nullptr;
  const long queries = env ? std::strtol(env, &end, 10) : 20000;
  if (env && (end == env || *end != '\0' || queries <= 0)) {
    std::fprintf(stderr, "answer_digest: GJKREF_DIGEST_QUERIES must be a positive integer, not '%s'\n", env);
    return 2;
  }
  std::mt19937_64 g(20261127);
  for (int f = 0; f < 5; ++f) {
    family<Vec2<double>>(f, queries, g);
    family<Vec3<double>>(f, queries, g);
  }
  for (int p = 0; p < kParts; ++p)
    std::printf("%-28s %9ld answers  %016llx\n", kPartNames[p], parts[p].count,
                static_cast<unsigned long long>(parts[p].h));
}
