// bench/peers_bench.cpp — the reference beside the Debian peers, on identical inputs, in one process (issue 17,
// part 4). Build: cmake --preset default -DGJKREF_PEER_BENCH=ON && cmake --build --preset default --target peers_bench;
// run: build/default/bench/peers_bench [--penetration] [--pairs N] [--sizes 8,32,128,1024] [--rounds R] [--seed S].
//
// --penetration (issue 19): the depth of overlapping pairs (clouds of each size, centres 0.5 apart; and two rotated
// unit cubes, centres 0.8 apart): gjkref's certified depth (exact, correctly rounded) and its double EPA beside
// Bullet's btGjkEpaSolver2::Penetration, FCL's GJKSolver_indep::shapeIntersect (EPA) and libccd's ccdGJKPenetration,
// each time as a ratio to the fastest peer's, and each one's agreement with the exact depth.
//
// Workloads: two clouds of n points uniformly on the unit sphere, n = m; B's centre 3 (distant), 2.1 (near: gap about
// 0.1) or 0.5 (overlapping) from A's, along a random direction per pair. Every implementation answers the same pairs;
// its shapes are built before timing, so only queries are timed. Implementations are interleaved: each round times
// every implementation once over all pairs, starting with a different one each round, and the table gives each one's
// median round, per query. Distance queries are compared with gjkref-double's time, the boolean query with libccd's.
//
// --instructions: instead of timing, one counted pass of each implementation over each workload's pairs (after one
// that is not counted), its instructions dumped by callgrind under the label "WORKLOAD|IMPLEMENTATION" (run under
// valgrind --tool=callgrind --collect-atstart=no: scripts/instruction-counts does, and prints the table; a first dump,
// "collection-check", must hold no instructions, or callgrind was collecting from the start). Instruction counts do
// not depend on what else the machine runs, so they compare builds beside a busy machine; they are not times (a cache
// miss or a division costs more than an addition). The pass of gjkref's support mapping is dumped as
// "WORKLOAD|support-sweep", and a line "workload WORKLOAD pairs=N iterations=I sweep-points=P" gives what the script
// needs for the bound.
//
// Probes (rows named probe-…) are not implementations: they measure what the speed targets of issue 17 ask
// (docs/algorithm.md, "What the speed targets need"). probe-bare-loop: gjkref's support mapping and region functions in
// a loop without safeguards. probe-lean-gjk: the leanest GJK we can write (bench/lean_gjk.hpp); probe-lean-soa: the
// same loop on the points stored by coordinate and scanned four at a time (bench/soa_points.hpp). probe-soa-double and
// probe-soa-intersect: the reference's own queries on that storage (the same answers bit for bit, other times).
//
// The support-sweep lower bound: a query must at least run its support calls, one per iteration and shape (point sets
// start from a₀ − b₀, without one), each over n points; the bound is the time of gjkref-double's support calls
// (iterations per shape), pair by pair, each
// shape's in a row (SupportCalls), timed in the same rounds over the same clouds.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define GJKREF_HAVE_CALLGRIND 1
#endif

#include "gjkref/certified.hpp"
#include "gjkref/certified_penetration.hpp"
#include "gjkref/gjkref.hpp"
#include "peers/peers.hpp"
#include "lean_gjk.hpp"
#include "soa_points.hpp"

namespace {

using gjkref::bench::Cloud;
using gjkref::bench::Pairs;
using gjkref::bench::Queries;
using Clock = std::chrono::steady_clock;

struct Settings {
  std::size_t pairs = 1000;
  std::vector<int> sizes = {8, 32, 128, 1024};
  int rounds = 5;
  std::uint64_t seed = 20261124;
  bool penetration = false;   // --penetration: the depth of overlapping pairs instead of the distance
  bool instructions = false;  // --instructions: one callgrind-counted pass per implementation instead of timing
};

Cloud sphere_cloud(std::mt19937_64& rng, int n, const std::array<double, 3>& centre) {
  std::normal_distribution<double> g;
  Cloud cloud;
  for (int i = 0; i < n; ++i) {
    std::array<double, 3> x{g(rng), g(rng), g(rng)};
    const double length = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    for (int k = 0; k < 3; ++k) x[k] = centre[k] + x[k] / length;
    cloud.push_back(x);
  }
  return cloud;
}

Pairs make_pairs(std::mt19937_64& rng, std::size_t count, int n, double centres_apart) {
  Pairs pairs;
  for (std::size_t i = 0; i < count; ++i) {
    const Cloud direction = sphere_cloud(rng, 1, {0, 0, 0});
    const auto& u = direction[0];
    pairs.emplace_back(sphere_cloud(rng, n, {0, 0, 0}),
                       sphere_cloud(rng, n, {centres_apart * u[0], centres_apart * u[1], centres_apart * u[2]}));
  }
  return pairs;
}

// A unit cube's 8 corners, rotated by a random unit quaternion, centred at `centre`.
Cloud box(std::mt19937_64& rng, const std::array<double, 3>& centre) {
  std::normal_distribution<double> g;
  double q[4] = {g(rng), g(rng), g(rng), g(rng)};
  const double length = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (double& x : q) x /= length;
  const double w = q[0], x = q[1], y = q[2], z = q[3];
  const double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                          {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                          {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
  Cloud cloud;
  for (int corner = 0; corner < 8; ++corner) {
    const double p[3] = {(corner & 1) - 0.5, ((corner >> 1) & 1) - 0.5, ((corner >> 2) & 1) - 0.5};
    std::array<double, 3> out{};
    for (int i = 0; i < 3; ++i) out[i] = centre[i] + r[i][0] * p[0] + r[i][1] * p[1] + r[i][2] * p[2];
    cloud.push_back(out);
  }
  return cloud;
}

// Two rotated unit cubes whose centres are `apart` apart along a random direction.
Pairs box_pairs(std::mt19937_64& rng, std::size_t count, double apart) {
  Pairs pairs;
  for (std::size_t i = 0; i < count; ++i) {
    const Cloud direction = sphere_cloud(rng, 1, {0, 0, 0});
    const auto& u = direction[0];
    pairs.emplace_back(box(rng, {0, 0, 0}), box(rng, {apart * u[0], apart * u[1], apart * u[2]}));
  }
  return pairs;
}

template <class T>
gjkref::ConvexPoints<gjkref::Vec3<T>> shape_of(const Cloud& cloud) {
  std::vector<gjkref::Vec3<T>> points;
  for (const auto& p : cloud) points.push_back({T(p[0]), T(p[1]), T(p[2])});
  return gjkref::ConvexPoints<gjkref::Vec3<T>>(std::move(points));
}

// The reference's queries, over shapes built once.
template <class T>
class Reference final : public Queries {
 public:
  Reference(const Pairs& pairs, bool boolean) : boolean_(boolean) {
    for (const auto& [a, b] : pairs) shapes_.push_back({shape_of<T>(a), shape_of<T>(b)});
  }
  double run(std::size_t i) override {
    const auto& [a, b] = shapes_[i];
    if (boolean_) return gjkref::intersect(a, b).status == gjkref::Status::Intersecting ? 1 : 0;
    const auto r = gjkref::distance(a, b);
    return r.status == gjkref::Status::Separated ? double(r.distance()) : 0.0;
  }
  int iterations(std::size_t i) const { return gjkref::distance(shapes_[i].first, shapes_[i].second).iterations; }

 private:
  bool boolean_;
  std::vector<std::pair<gjkref::ConvexPoints<gjkref::Vec3<T>>, gjkref::ConvexPoints<gjkref::Vec3<T>>>> shapes_;
};

// A probe, not an implementation: the reference's distance and boolean queries on another support mapping for the
// same points, SoaPoints (bench/soa_points.hpp: the points by coordinate, four at a time), which returns ConvexPoints'
// point for every direction; the answers are therefore gjkref-double's, bit for bit, and only the time differs.
template <class Shape>
class ProbeReference final : public Queries {
 public:
  ProbeReference(const Pairs& pairs, bool boolean) : boolean_(boolean) {
    for (const auto& [a, b] : pairs) shapes_.push_back({shape(a), shape(b)});
  }
  double run(std::size_t i) override {
    const auto& [a, b] = shapes_[i];
    if (boolean_) return gjkref::intersect(a, b).status == gjkref::Status::Intersecting ? 1 : 0;
    const auto r = gjkref::distance(a, b);
    return r.status == gjkref::Status::Separated ? double(r.distance()) : 0.0;
  }

 private:
  static Shape shape(const Cloud& cloud) {
    std::vector<gjkref::Vec3<double>> points;
    for (const auto& p : cloud) points.push_back({p[0], p[1], p[2]});
    return Shape(std::move(points));
  }
  bool boolean_;
  std::vector<std::pair<Shape, Shape>> shapes_;
};
using SoaReference = ProbeReference<gjkref::bench::SoaPoints>;

// A probe, not an implementation: the lean GJK of bench/lean_gjk.hpp (what a fast, unguarded GJK costs), on the
// points as they are (scanned one by one) or on SoaPoints (by coordinate, four at a time).
template <class Shape>
class LeanGjk final : public Queries {
 public:
  explicit LeanGjk(const Pairs& pairs) {
    for (const auto& [a, b] : pairs) shapes_.push_back({shape(a), shape(b)});
  }
  double run(std::size_t i) override { return gjkref::bench::lean::distance(shapes_[i].first, shapes_[i].second); }

 private:
  static Shape shape(const Cloud& cloud);
  std::vector<std::pair<Shape, Shape>> shapes_;
};
template <>
gjkref::bench::lean::Points LeanGjk<gjkref::bench::lean::Points>::shape(const Cloud& cloud) {
  gjkref::bench::lean::Points out;
  for (const auto& p : cloud) out.points.push_back({p[0], p[1], p[2]});
  return out;
}
struct LeanSoa {
  gjkref::bench::SoaPoints shape;
  std::size_t support(gjkref::bench::lean::P3 d) const { return shape.support({d.x, d.y, d.z}).index; }
  gjkref::bench::lean::P3 operator[](std::size_t i) const {
    const auto p = shape.vertex(i);
    return {p.x, p.y, p.z};
  }
};
template <>
LeanSoa LeanGjk<LeanSoa>::shape(const Cloud& cloud) {
  std::vector<gjkref::Vec3<double>> points;
  for (const auto& p : cloud) points.push_back({p[0], p[1], p[2]});
  return {gjkref::bench::SoaPoints(std::move(points))};
}

class Certified final : public Queries {
 public:
  Certified(const Pairs& pairs, gjkref::CertifiedOutput output) : output_(output) {
    for (const auto& [a, b] : pairs) shapes_.push_back({shape_of<double>(a), shape_of<double>(b)});
  }
  double run(std::size_t i) override {
    return gjkref::certified_distance(shapes_[i].first, shapes_[i].second, {}, output_).distance;
  }
  // How many answers each path gave: filtered, double-certified, exact finish.
  std::array<int, 3> paths() const {
    std::array<int, 3> out{};
    for (const auto& [a, b] : shapes_) {
      const auto path = gjkref::certified_distance(a, b, {}, output_).path;
      if (path == gjkref::CertifiedPath::Filtered) ++out[0];
      if (path == gjkref::CertifiedPath::DoubleCertified) ++out[1];
      if (path == gjkref::CertifiedPath::ExactFinish) ++out[2];
    }
    return out;
  }

 private:
  gjkref::CertifiedOutput output_;
  std::vector<std::pair<gjkref::ConvexPoints<gjkref::Vec3<double>>, gjkref::ConvexPoints<gjkref::Vec3<double>>>>
      shapes_;
};

// A probe, not an implementation: gjkref's own support mapping (ConvexPoints::support) and region functions
// (closest_on_simplex with TextbookRegions, the textbook pass's) in a bare loop, with none of the pass's safeguards —
// no power-of-two frame, no touching band, no hand-over to the careful pass, no check that an enclosure or a step is
// certain; it stops on the duality gap, a repeated support, a step that is not closer, or the origin enclosed, and
// takes the witnesses from the final weights. Its
// time is what any loop built on these two pieces costs at least; beside Bullet's it tells how far issue 17's speed
// targets can be reached by the loop alone, whatever else changes. Its answers are not judged (the agreement column
// compares its distance with gjkref-double's).
class BareLoop final : public Queries {
 public:
  explicit BareLoop(const Pairs& pairs) {
    for (const auto& [a, b] : pairs) shapes_.push_back({shape_of<double>(a), shape_of<double>(b)});
  }
  double run(std::size_t i) override {
    using V = gjkref::Vec3<double>;
    const auto& [a, b] = shapes_[i];
    gjkref::Points<V> w;
    std::array<std::size_t, 4> index_a{}, index_b{};
    std::array<double, 4> weight{1, 0, 0, 0};
    // The reference's start on point sets: a₀ − b₀, without a support call (initial_simplex).
    w[0] = a.vertex(0) - b.vertex(0), index_a[0] = 0, index_b[0] = 0;
    int k = 1;
    V v = w[0];
    double vv = gjkref::dot(v, v);
    for (int iteration = 0; iteration < gjkref::kDefaultMaxIterations; ++iteration) {
      const auto pa = a.support(-v), pb = b.support(v);
      const V x = pa.point - pb.point;
      if (vv - gjkref::dot(v, x) <= gjkref::Tolerances<double>::relative_gap() * vv) break;
      bool repeated = false;
      for (int j = 0; j < k; ++j) repeated = repeated || (index_a[j] == pa.index && index_b[j] == pb.index);
      if (repeated) break;
      w[k] = x, index_a[k] = pa.index, index_b[k] = pb.index;
      const auto f = gjkref::closest_on_simplex<V, gjkref::TextbookRegions<double>>(w, k + 1);
      gjkref::Points<V> kept;
      for (int j = 0; j < f.count; ++j) {
        kept[j] = w[f.vertex[j]], index_a[j] = index_a[f.vertex[j]], index_b[j] = index_b[f.vertex[j]];
        weight[j] = f.weight[j];
      }
      w = kept, k = f.count;
      if (f.encloses_origin) return 0.0;
      V next = weight[0] * w[0];
      for (int j = 1; j < k; ++j) next = next + weight[j] * w[j];
      const double next_vv = gjkref::dot(next, next);
      if (!(next_vv < vv)) break;
      v = next, vv = next_vv;
    }
    V on_a = weight[0] * a.vertex(index_a[0]), on_b = weight[0] * b.vertex(index_b[0]);
    for (int j = 1; j < k; ++j) {
      on_a = on_a + weight[j] * a.vertex(index_a[j]);
      on_b = on_b + weight[j] * b.vertex(index_b[j]);
    }
    const V d = on_a - on_b;
    return vv == 0 ? 0.0 : std::sqrt(gjkref::dot(d, d));
  }

 private:
  std::vector<std::pair<gjkref::ConvexPoints<gjkref::Vec3<double>>, gjkref::ConvexPoints<gjkref::Vec3<double>>>>
      shapes_;
};

// The reference's penetration depth: the certified mode (exact, correctly rounded), or the double EPA.
class Depth final : public Queries {
 public:
  Depth(const Pairs& pairs, bool certified) : certified_(certified) {
    for (const auto& [a, b] : pairs) shapes_.push_back({shape_of<double>(a), shape_of<double>(b)});
  }
  double run(std::size_t i) override {
    const auto& [a, b] = shapes_[i];
    if (certified_) {
      const auto r = gjkref::certified_penetration(a, b);
      return r.status == gjkref::PenetrationStatus::Penetrating ? r.depth : -1.0;
    }
    const auto r = gjkref::penetration(a, b);
    return r.status == gjkref::PenetrationStatus::Penetrating ? r.depth() : -1.0;
  }
  // How many answers each path gave: filtered, double-certified, exact finish.
  std::array<int, 3> paths() const {
    std::array<int, 3> out{};
    for (const auto& [a, b] : shapes_) {
      const auto path = gjkref::certified_penetration(a, b).path;
      if (path == gjkref::CertifiedPath::Filtered) ++out[0];
      if (path == gjkref::CertifiedPath::DoubleCertified) ++out[1];
      if (path == gjkref::CertifiedPath::ExactFinish) ++out[2];
    }
    return out;
  }

 private:
  bool certified_;
  std::vector<std::pair<gjkref::ConvexPoints<gjkref::Vec3<double>>, gjkref::ConvexPoints<gjkref::Vec3<double>>>>
      shapes_;
};

struct Entry {
  const char* name;
  bool boolean;
  std::unique_ptr<Queries> queries;
  std::vector<double> round_ns;  // per query, one per round
  double agree = 0;              // share of pairs whose answer agrees with gjkref-double's (or libccd's, boolean)
};

// One pass over all pairs; ns per query.
double time_pass(Queries& q, std::size_t count, double& sink) {
  const auto start = Clock::now();
  for (std::size_t i = 0; i < count; ++i) sink += q.run(i);
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count() / static_cast<double>(count);
}

// --instructions: one pass of q over the pairs with callgrind collecting, dumped under `label` (callgrind's counters
// restart at each dump, so each dump holds this pass alone). A pass not counted comes first, as the timed tables leave
// out their first rounds' effects by taking the median: costs paid once (lazy symbol binding, the heap's growth, any
// work a library does once per shape) are not counted.
void counted_pass(Queries& q, std::size_t count, const std::string& label, double& sink) {
#ifdef GJKREF_HAVE_CALLGRIND
  for (std::size_t i = 0; i < count; ++i) sink += q.run(i);
  CALLGRIND_TOGGLE_COLLECT;
  for (std::size_t i = 0; i < count; ++i) sink += q.run(i);
  CALLGRIND_TOGGLE_COLLECT;
  CALLGRIND_DUMP_STATS_AT(label.c_str());
#else
  (void)q, (void)count, (void)label, (void)sink;
#endif
}

// The support-sweep lower bound of one workload, timed as a query among the others (so in the same rounds, and its
// median taken likewise): run(i) makes gjkref-double's number of support calls on each shape of pair i (calls[i]:
// the answering pass's iterations; a query handed to the careful pass, or walking past a flat segment, makes
// more, so this stays a lower bound), with gjkref's support mapping (ConvexPoints::support, the loop every query
// runs): A's calls in a row, then B's, where a query alternates between the two; either way each shape is read from
// memory once and then from the cache, as in the query. (Sweeping every shape once along one direction instead, shape
// after shape, read
// every point from memory: at n = 1024, where 1,000 pairs of shapes are 49 MB, that sweep cost more per point than
// the queries themselves and gave a "bound" above gjkref-double's time.) The directions cycle through a fixed set: the
// loop's cost does not depend on the direction (its comparison is a conditional move).
// Its entry's name (timed runs only: under --instructions the dump of that name is the Sweep pass below).
constexpr const char* kSupportSweep = "support-sweep";
class SupportCalls final : public Queries {
 public:
  SupportCalls(const Pairs& pairs, std::vector<int> calls) : calls_(std::move(calls)) {
    for (const auto& [a, b] : pairs) shapes_.push_back({shape_of<double>(a), shape_of<double>(b)});
  }
  double run(std::size_t i) override {
    static const std::array<gjkref::Vec3<double>, 4> directions = {
        gjkref::Vec3<double>{0.3, -0.5, 0.81}, {-0.64, 0.48, 0.6}, {0.8, 0.6, 0}, {-0.36, -0.48, -0.8}};
    double sum = 0;
    for (int k = 0; k < calls_[i]; ++k) sum += static_cast<double>(shapes_[i].first.support(directions[k % 4]).index);
    for (int k = 0; k < calls_[i]; ++k) sum += static_cast<double>(shapes_[i].second.support(directions[k % 4]).index);
    return sum;
  }

 private:
  std::vector<int> calls_;
  std::vector<std::pair<gjkref::ConvexPoints<gjkref::Vec3<double>>, gjkref::ConvexPoints<gjkref::Vec3<double>>>>
      shapes_;
};

// --instructions: one support call per shape of every pair along a fixed direction (run(0) sweeps them all): the
// instructions per point of the support loop, which do not depend on the cache (scripts/instruction-counts multiplies
// them by the support calls).
class Sweep final : public Queries {
 public:
  explicit Sweep(const Pairs& pairs) {
    for (const auto& [a, b] : pairs) {
      shapes_.push_back(shape_of<double>(a));
      shapes_.push_back(shape_of<double>(b));
    }
  }
  double run(std::size_t) override {
    const gjkref::Vec3<double> d{0.3, -0.5, 0.81};
    double sum = 0;
    for (const auto& shape : shapes_) sum += static_cast<double>(shape.support(d).index);
    return sum;
  }

 private:
  std::vector<gjkref::ConvexPoints<gjkref::Vec3<double>>> shapes_;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

bool parse(int argc, char** argv, Settings& s) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--penetration") {
      s.penetration = true;
      continue;
    }
    if (arg == "--instructions") {
      s.instructions = true;
      continue;
    }
    if (i + 1 >= argc) return false;
    const std::string value = argv[++i];
    if (arg == "--pairs") {
      s.pairs = std::stoul(value);
    } else if (arg == "--rounds") {
      s.rounds = std::stoi(value);
    } else if (arg == "--seed") {
      s.seed = std::stoull(value);
    } else if (arg == "--sizes") {
      s.sizes.clear();
      std::stringstream list(value);
      for (std::string item; std::getline(list, item, ',');) s.sizes.push_back(std::stoi(item));
    } else {
      return false;
    }
  }
  return s.pairs > 0 && s.rounds > 0 && !s.sizes.empty();
}

// The penetration-depth table: overlapping clouds of each size, then boxes; every time as a ratio to the fastest peer's.
void penetration_tables(const Settings& s, double& sink) {
  struct Workload {
    std::string name;
    std::string label;  // --instructions: the workload's name in the dumps
    Pairs pairs;
  };
  std::vector<Workload> workloads;
  for (int n : s.sizes) {
    std::mt19937_64 rng(s.seed + static_cast<std::uint64_t>(n) * 7919 + 5);
    workloads.push_back({"n = m = " + std::to_string(n) + ", overlapping (centres 0.5 apart)",
                         "n=" + std::to_string(n) + "-overlapping", make_pairs(rng, s.pairs, n, 0.5)});
  }
  std::mt19937_64 rng(s.seed + 3);
  workloads.push_back({"boxes (unit cubes, centres 0.8 apart)", "boxes", box_pairs(rng, s.pairs, 0.8)});
  for (const Workload& w : workloads) {
    const Pairs& pairs = w.pairs;
    auto certified = std::make_unique<Depth>(pairs, true);
    const std::array<int, 3> paths = s.instructions ? std::array<int, 3>{} : certified->paths();
    std::vector<Entry> entries;
    entries.push_back({"gjkref-certified", false, std::move(certified), {}, 0});
    entries.push_back({"gjkref-double-epa", false, std::make_unique<Depth>(pairs, false), {}, 0});
    entries.push_back({"bullet-double-epa", false, gjkref::bench::bullet_double_penetration(pairs), {}, 0});
    entries.push_back({"fcl-indep-epa", false, gjkref::bench::fcl_indep_penetration(pairs), {}, 0});
    entries.push_back({"libccd-gjk-epa", false, gjkref::bench::libccd_penetration(pairs), {}, 0});
    if (s.instructions) {
      std::printf("workload %s pairs=%zu\n", w.label.c_str(), pairs.size());
      for (Entry& e : entries) counted_pass(*e.queries, pairs.size(), w.label + "|" + e.name, sink);
      continue;
    }
    // Agreement with the certified depth (exact, correctly rounded): within 10^-6 relative.
    std::vector<double> truth(pairs.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) truth[i] = entries[0].queries->run(i);
    for (Entry& e : entries) {
      std::size_t same = 0;
      for (std::size_t i = 0; i < pairs.size(); ++i)
        same += std::fabs(e.queries->run(i) - truth[i]) <= 1e-6 * std::max(1e-300, std::fabs(truth[i]));
      e.agree = static_cast<double>(same) / static_cast<double>(pairs.size());
    }
    for (int round = 0; round < s.rounds; ++round)
      for (std::size_t k = 0; k < entries.size(); ++k) {
        Entry& e = entries[(k + static_cast<std::size_t>(round)) % entries.size()];
        e.round_ns.push_back(time_pass(*e.queries, pairs.size(), sink));
      }
    double fastest_peer = 1e300;
    for (std::size_t k = 2; k < entries.size(); ++k) fastest_peer = std::min(fastest_peer, median(entries[k].round_ns));
    std::printf("\n%s, %zu pairs\n", w.name.c_str(), pairs.size());
    std::printf("  certified paths: %d filtered, %d double-certified, %d exact finish\n", paths[0], paths[1], paths[2]);
    std::printf("  %-18s %12s %24s %16s\n", "implementation", "ns/query", "ratio", "agrees (exact)");
    for (const Entry& e : entries) {
      const double ns = median(e.round_ns);
      std::printf("  %-18s %12.0f %10.2f x fastest peer %13.1f %%\n", e.name, ns, ns / fastest_peer, 100 * e.agree);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  try {
    if (!parse(argc, argv, s)) {
      std::fprintf(stderr,
                   "usage: peers_bench [--penetration] [--instructions] [--pairs N] [--sizes 8,32,128,1024] "
                   "[--rounds R] [--seed S]\n");
      return 2;
    }
  } catch (const std::exception&) {
    std::fprintf(stderr, "peers_bench: a number was expected\n");
    return 2;
  }
  std::string sizes;
  for (int n : s.sizes) sizes += (sizes.empty() ? "" : ",") + std::to_string(n);
#ifndef GJKREF_HAVE_CALLGRIND
  if (s.instructions) {
    std::fprintf(stderr, "peers_bench: --instructions needs valgrind/callgrind.h at build time (Debian: valgrind)\n");
    return 2;
  }
#endif
  std::printf("peers_bench%s%s --pairs %zu --sizes %s --rounds %d --seed %llu\n", s.penetration ? " --penetration" : "",
              s.instructions ? " --instructions" : "", s.pairs, sizes.c_str(), s.rounds,
              static_cast<unsigned long long>(s.seed));
  double sink = 0;
#ifdef GJKREF_HAVE_CALLGRIND
  if (s.instructions) CALLGRIND_DUMP_STATS_AT("collection-check");
#endif
  if (s.penetration) {
    penetration_tables(s, sink);
    std::printf("\n(checksum %g)\n", sink);
    return 0;
  }
  const struct {
    const char* name;
    double apart;
  } placements[] = {{"distant", 3.0}, {"near", 2.1}, {"overlapping", 0.5}};
  for (int n : s.sizes)
    for (const auto& placement : placements) {
      std::mt19937_64 rng(s.seed + static_cast<std::uint64_t>(n) * 7919 + static_cast<std::uint64_t>(placement.apart * 10));
      const Pairs pairs = make_pairs(rng, s.pairs, n, placement.apart);
      auto reference = std::make_unique<Reference<double>>(pairs, false);
      std::vector<int> calls(pairs.size());  // gjkref-double's support calls per shape, pair by pair
      double iterations = 0;
      // One support call per iteration and shape: a query on point sets starts from a₀ − b₀ without one
      // (initial_simplex).
      for (std::size_t i = 0; i < pairs.size(); ++i) iterations += calls[i] = reference->iterations(i);
      iterations /= static_cast<double>(pairs.size());
      const Reference<double>& reference_view = *reference;
      std::vector<Entry> entries;
      entries.push_back({"gjkref-double", false, std::move(reference), {}, 0});
      entries.push_back({"gjkref-float", false, std::make_unique<Reference<float>>(pairs, false), {}, 0});
      auto certified = std::make_unique<Certified>(pairs, gjkref::CertifiedOutput::Witnesses);
      const std::array<int, 3> paths = s.instructions ? std::array<int, 3>{} : certified->paths();
      entries.push_back({"gjkref-certified", false, std::move(certified), {}, 0});
      entries.push_back({"gjkref-cert-dist", false,
                         std::make_unique<Certified>(pairs, gjkref::CertifiedOutput::Distance), {}, 0});
      entries.push_back({"bullet-double", false, gjkref::bench::bullet_double_distance(pairs), {}, 0});
      entries.push_back({"fcl-indep", false, gjkref::bench::fcl_indep_distance(pairs), {}, 0});
      entries.push_back({"probe-bare-loop", false, std::make_unique<BareLoop>(pairs), {}, 0});
      entries.push_back({"probe-lean-gjk", false, std::make_unique<LeanGjk<gjkref::bench::lean::Points>>(pairs), {}, 0});
      entries.push_back({"probe-lean-soa", false, std::make_unique<LeanGjk<LeanSoa>>(pairs), {}, 0});
      entries.push_back({"probe-soa-double", false, std::make_unique<SoaReference>(pairs, false), {}, 0});
      // The bound (timed runs only): timed in the rounds, printed in the workload's line, not in the table.
      if (!s.instructions)
        entries.push_back({kSupportSweep, false, std::make_unique<SupportCalls>(pairs, calls), {}, 0});
      entries.push_back({"probe-soa-intersect", true, std::make_unique<SoaReference>(pairs, true), {}, 0});
      entries.push_back({"gjkref-intersect", true, std::make_unique<Reference<double>>(pairs, true), {}, 0});
      entries.push_back({"libccd-gjk", true, gjkref::bench::libccd_intersect(pairs), {}, 0});
      (void)reference_view;
      if (s.instructions) {
        const std::string label = "n=" + std::to_string(n) + "-" + placement.name;
        std::printf("workload %s pairs=%zu iterations=%.6f sweep-points=%zu\n", label.c_str(), pairs.size(), iterations,
                    2 * static_cast<std::size_t>(n) * pairs.size());
        for (Entry& e : entries) counted_pass(*e.queries, pairs.size(), label + "|" + e.name, sink);
        Sweep sweep(pairs);
        counted_pass(sweep, 1, label + "|support-sweep", sink);
        continue;
      }
      // Agreement with gjkref-double (distance: 1e-6 absolute or relative) and with libccd (boolean), once.
      std::vector<double> truth(pairs.size()), truth_boolean(pairs.size());
      for (std::size_t i = 0; i < pairs.size(); ++i) {
        truth[i] = entries[0].queries->run(i);
        truth_boolean[i] = entries.back().queries->run(i);
      }
      const auto is_bound = [](const Entry& e) { return std::string_view(e.name) == kSupportSweep; };
      for (Entry& e : entries) {
        if (is_bound(e)) continue;
        std::size_t same = 0;
        for (std::size_t i = 0; i < pairs.size(); ++i) {
          const double x = e.queries->run(i), t = e.boolean ? truth_boolean[i] : truth[i];
          same += std::fabs(x - t) <= 1e-6 * std::max(1.0, std::fabs(t));
        }
        e.agree = static_cast<double>(same) / static_cast<double>(pairs.size());
      }
      // The SoA probes claim the reference's answers bit for bit (bench/soa_points.hpp): held to it on every pair.
      const auto entry = [&](std::string_view name) -> Entry& {
        return *std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.name == name; });
      };
      for (const auto& [probe, reference] : {std::pair{"probe-soa-double", "gjkref-double"},
                                             std::pair{"probe-soa-intersect", "gjkref-intersect"}})
        for (std::size_t i = 0; i < pairs.size(); ++i)
          if (entry(probe).queries->run(i) != entry(reference).queries->run(i)) {
            std::fprintf(stderr, "peers_bench: %s and %s differ on pair %zu\n", probe, reference, i);
            return 1;
          }
      for (int round = 0; round < s.rounds; ++round)
        for (std::size_t k = 0; k < entries.size(); ++k) {
          Entry& e = entries[(k + static_cast<std::size_t>(round)) % entries.size()];
          e.round_ns.push_back(time_pass(*e.queries, pairs.size(), sink));
        }
      const auto sweep = std::find_if(entries.begin(), entries.end(), is_bound);
      const double bound = median(sweep->round_ns);
      const double per_point = bound / (iterations * 2 * n);
      const double reference_ns = median(entries[0].round_ns), ccd_ns = median(entries.back().round_ns);
      std::printf("\nn = m = %d, %s (centres %.1f apart), %zu pairs; gjkref-double: %.2f support calls per shape per "
                  "query; support-sweep lower bound %.0f ns (%.2f ns per point); gjkref-double = %.2f x the bound\n",
                  n, placement.name, placement.apart, pairs.size(), iterations, bound, per_point, reference_ns / bound);
      std::printf("  certified paths: %d filtered, %d double-certified, %d exact finish\n", paths[0], paths[1], paths[2]);
      std::printf("  %-28s %12s %22s %14s\n", "implementation", "ns/query", "ratio", "agrees");
      for (const Entry& e : entries) {
        if (is_bound(e)) continue;
        const double ns = median(e.round_ns);
        const double ratio = e.boolean ? ns / ccd_ns : ns / reference_ns;
        std::printf("  %-28s %12.0f %10.2f x %-10s %13.1f %%\n", e.name, ns, ratio,
                    e.boolean ? "libccd" : "gjk-double", 100 * e.agree);
      }
    }
  std::printf("\n(checksum %g)\n", sink);
  return 0;
}
