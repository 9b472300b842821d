// impl/: the implementations' interface, the worker isolation and the built-in adapters' wiring.
#include <gtest/gtest.h>

#include <time.h>

#include <cstdio>

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ios>
#include <limits>
#include <set>

#include "gjkref/contract.hpp"
#include "gjkref/epa.hpp"
#include "gjkref/exact.hpp"
#include "gjkref/implementations.hpp"
#include "gjkref/judge.hpp"
#include "gjkref/oracle.hpp"

namespace gjkref::impl {
namespace {

const std::string kPluginDir = GJKREF_TEST_PLUGIN_DIR;

casefile::Case square_pair(int dim, double first_x, std::array<double, 3> offset) {
  casefile::Case c;
  c.name = "pair";
  c.dim = dim;
  for (int i = 0; i < (dim == 2 ? 4 : 8); ++i) {
    const std::array<double, 3> p{double(i & 1), double((i >> 1) & 1), dim == 3 ? double((i >> 2) & 1) : 0.0};
    c.a.points.push_back(p);
    c.b.points.push_back({p[0] + offset[0], p[1] + offset[1], dim == 3 ? p[2] + offset[2] : 0.0});
  }
  c.a.points[0][0] = first_x;  // the misbehaving plugin reads its orders here; 0 keeps the unit square
  return c;
}

std::unique_ptr<Implementation> misbehaving(double time_limit) {
  std::string error;
  auto list = load_plugin(kPluginDir + "/libgjkref-misbehaving-plugin.so", error, time_limit);
  EXPECT_EQ(error, "");
  EXPECT_EQ(list.size(), 1u);
  return list.empty() ? nullptr : std::move(list.front());
}

// The orders of tests/misbehaving_plugin.cpp.
enum Behaviour { kWellBehaved = 0, kAborts = 1, kSegfaults = 2, kHangs = 3, kThrows = 4, kAnswersNaN = 5, kExits = 6,
                 kPrints = 7, kAllocates = 8, kLeavesUntouched = 9, kWritesToTheAnswerPipe = 10,
                 kClosesItsOutput = 11 };

// A query that takes this long is a hang for this test; the plugin's hang is a pause() that never returns.
constexpr double kShortTimeLimitSeconds = 0.5;

TEST(Isolation, EveryMisbehaviourIsAResultAndTheNextQueryIsAnswered) {
  auto impl = misbehaving(kShortTimeLimitSeconds);
  ASSERT_TRUE(impl);
  struct Expected {
    Behaviour behaviour;
    Status status;
    const char* detail;  // a substring of the result's detail
  };
  const Expected all[] = {
      {kAborts, Status::Crashed, "SIGABRT: misbehaving: about to abort"},
      {kSegfaults, Status::Crashed, "SEGV"},  // "SIGSEGV"; under ASan "... ERROR: AddressSanitizer: SEGV on ..."
      {kHangs, Status::Hung, "no answer within"},
      {kThrows, Status::Threw, "misbehaving: threw on purpose"},
      {kExits, Status::Crashed, "exited with status 3"},
      // ABI 3: the answer starts as GJKREF_UNANSWERED; left so, it is no answer (not the zeroed "separated").
      {kLeavesUntouched, Status::Failed, "returned without answering"},
      // Bytes written into the answer pipe put the stream out of step: seen by the query's number, not read as an
      // answer (nor as the next query's).
      {kWritesToTheAnswerPipe, Status::Crashed, "the worker's answers were out of step"},
  };
  for (const Expected& e : all) {
    const Result bad = impl->run(square_pair(2, e.behaviour, {0.5, 0, 0}));
    EXPECT_EQ(bad.status, e.status) << "behaviour " << e.behaviour << ": " << bad.detail;
    EXPECT_NE(bad.detail.find(e.detail), std::string::npos) << "behaviour " << e.behaviour << ": " << bad.detail;
    const Result next = impl->run(square_pair(2, kWellBehaved, {0.5, 0, 0}));
    EXPECT_EQ(next.status, Status::Answered) << "after behaviour " << e.behaviour << ": " << next.detail;
    EXPECT_FALSE(next.separated);
    EXPECT_EQ(next.detail, "well behaved");
  }
}

// A worker is forked from gjkref: whatever gjkref had written to stdout and not yet flushed is in the worker's copy of
// the buffer too, and a plugin that calls exit() flushes it — into the worker's output, which then read as the crash's
// detail (gjkref's own table, once). gjkref flushes before it forks, so the detail is the plugin's alone.
TEST(Isolation, APluginsExitDoesNotReplayGjkrefsBuffers) {
  auto impl = misbehaving(kShortTimeLimitSeconds);
  ASSERT_TRUE(impl);
  std::fputs("gjkref-output-not-yet-flushed ", stdout);  // no newline: buffered, on a terminal as on a pipe
  const Result r = impl->run(square_pair(2, kExits, {0.5, 0, 0}));
  std::fflush(stdout);
  EXPECT_EQ(r.status, Status::Crashed) << r.detail;
  EXPECT_NE(r.detail.find("exited with status 3"), std::string::npos) << r.detail;
  EXPECT_EQ(r.detail.find("gjkref-output-not-yet-flushed"), std::string::npos) << r.detail;
}

// A worker past its memory limit (RLIMIT_AS) fails alone: the plugin's 1 GiB allocation fails under a 512 MiB limit,
// the query is the plugin's result with the limit named, and the next query is answered. Without a limit the same
// allocation succeeds (so the limit, not the machine, made it fail). Not under AddressSanitizer, where the limit is not
// applied (its shadow memory is reserved address space). Each query may take a minute: touching 1 GiB took 3.2 s on a
// quiet machine here, and past 5 s under the test suite's load, where the unlimited query was `hung` — the time
// limit is not what this test is about.
TEST(Isolation, AWorkerPastItsMemoryLimitFailsAlone) {
#if defined(__SANITIZE_ADDRESS__)  // GCC's macro
  GTEST_SKIP() << "the worker memory limit is not applied under AddressSanitizer";
#elif defined(__has_feature)  // clang's
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "the worker memory limit is not applied under AddressSanitizer";
#endif
#endif
  std::string error;
  auto limited = load_plugin(kPluginDir + "/libgjkref-misbehaving-plugin.so", error, WorkerLimits{60, 512});
  auto unlimited = load_plugin(kPluginDir + "/libgjkref-misbehaving-plugin.so", error, WorkerLimits{60, 0});
  ASSERT_EQ(error, "");
  ASSERT_EQ(limited.size(), 1u);
  ASSERT_EQ(unlimited.size(), 1u);
  const Result bad = limited.front()->run(square_pair(2, kAllocates, {0.5, 0, 0}));
  EXPECT_TRUE(bad.status == Status::Threw || bad.status == Status::Crashed) << bad.detail;
  EXPECT_NE(bad.detail.find("the worker's memory limit: 512 MiB"), std::string::npos) << bad.detail;
  const Result next = limited.front()->run(square_pair(2, kWellBehaved, {0.5, 0, 0}));
  EXPECT_EQ(next.status, Status::Answered) << next.detail;
  const Result fine = unlimited.front()->run(square_pair(2, kAllocates, {0.5, 0, 0}));
  EXPECT_EQ(fine.status, Status::Answered) << fine.detail;
}

// The limit is the plugin's to use, beyond what its worker inherits from the process that forks it: with 512 MiB
// reserved by that process (a large case, say), a limit of 64 MiB still lets the worker load its library and answer.
// Before, the limit counted the inherited address space, and every worker failed to start ("failed to map segment").
TEST(Isolation, TheMemoryLimitIsThePluginsBeyondWhatItInherits) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "the worker memory limit is not applied under AddressSanitizer";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "the worker memory limit is not applied under AddressSanitizer";
#endif
#endif
  constexpr std::size_t kReserved = std::size_t{512} << 20;
  void* held = std::malloc(kReserved);  // address space, not touched
  ASSERT_NE(held, nullptr);
  std::string error;
  auto limited = load_plugin(kPluginDir + "/libgjkref-misbehaving-plugin.so", error, WorkerLimits{5, 64});
  EXPECT_EQ(error, "");
  if (limited.size() == 1) {
    const Result r = limited.front()->run(square_pair(2, kWellBehaved, {0.5, 0, 0}));
    EXPECT_EQ(r.status, Status::Answered) << r.detail;
  }
  std::free(held);
}

TEST(Isolation, NaNInAnAnswerIsFlagged) {
  auto impl = misbehaving(kShortTimeLimitSeconds);
  ASSERT_TRUE(impl);
  const Result r = impl->run(square_pair(3, kAnswersNaN, {3, 0, 0}));
  EXPECT_EQ(r.status, Status::Answered);
  ASSERT_TRUE(r.distance.has_value());
  EXPECT_TRUE(r.has_non_finite_number());
  EXPECT_FALSE(impl->run(square_pair(3, kWellBehaved, {3, 0, 0})).has_non_finite_number());
}

TEST(Isolation, APluginsOutputDoesNotReachGjkrefsStdout) {
  auto impl = misbehaving(kShortTimeLimitSeconds);
  ASSERT_TRUE(impl);
  testing::internal::CaptureStdout();
  const Result r = impl->run(square_pair(2, kPrints, {0.5, 0, 0}));
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");
  EXPECT_EQ(r.status, Status::Answered);
}

// CPU time of the calling thread (the worker is another process: not counted).
double thread_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// A plugin that closes its output (the worker's output pipe) and works on for 1 s is waited for without spinning: the
// closed pipe is ready (hung up) to poll for ever, and gjkref's wait for the answer polled it again at once, taking
// a core for the whole query (more than 0.5 s of this thread's time in 1 s, even beside two other processes on two
// cores). What counts is the thread's own CPU time, not the wall time. The bound: a quarter of the query's 1 s, far
// above a blocking wait's cost (a few milliseconds, a worker's start excluded) and far below a spin's.
constexpr double kWaitCpuSecondsBound = 0.25;
TEST(Isolation, APluginThatClosesItsOutputIsWaitedForWithoutSpinning) {
  auto impl = misbehaving(5.0);
  ASSERT_TRUE(impl);
  ASSERT_EQ(impl->run(square_pair(2, kWellBehaved, {0.5, 0, 0})).status, Status::Answered);  // the worker started
  const double before = thread_cpu_seconds();
  const Result r = impl->run(square_pair(2, kClosesItsOutput, {0.5, 0, 0}));
  const double spent = thread_cpu_seconds() - before;
  EXPECT_EQ(r.status, Status::Answered);
  EXPECT_LT(spent, kWaitCpuSecondsBound) << "seconds of CPU time spent waiting for a worker that worked for 1 s";
  EXPECT_EQ(impl->run(square_pair(2, kWellBehaved, {0.5, 0, 0})).status, Status::Answered);
}

TEST(Isolation, InvalidInputIsNotPassedToAPlugin) {
  auto impl = misbehaving(kShortTimeLimitSeconds);
  ASSERT_TRUE(impl);
  casefile::Case c = square_pair(2, kAborts, {0.5, 0, 0});
  c.b.points[1][1] = NAN;  // A's first point still asks for an abort: a call would crash
  EXPECT_EQ(impl->run(c).status, Status::InvalidInput);
  c = square_pair(2, kAborts, {0.5, 0, 0});
  c.b.points.clear();
  EXPECT_EQ(impl->run(c).status, Status::InvalidInput);
}

TEST(PluginLoading, ErrorsSayWhatIsWrong) {
  std::string error;
  EXPECT_TRUE(load_plugin(kPluginDir + "/no-such-plugin.so", error).empty());
  EXPECT_NE(error.find("cannot load"), std::string::npos) << error;
  error.clear();
  EXPECT_TRUE(load_plugin("libm.so.6", error).empty());
  EXPECT_NE(error.find("does not export gjkref_plugin_implementations"), std::string::npos) << error;
  error.clear();
  ::setenv("GJKREF_TEST_WRONG_ABI", "1", 1);
  EXPECT_TRUE(load_plugin(kPluginDir + "/libgjkref-misbehaving-plugin.so", error).empty());
  ::unsetenv("GJKREF_TEST_WRONG_ABI");
  EXPECT_NE(error.find("another ABI version"), std::string::npos) << error;
}

// A worker that has not loaded its library by the load time limit is killed, and says so: the load fails with
// TimedOut, and a query whose worker could not start is a hang. Never a wait for a worker that will not end by itself
// (it once was: gjkref waited for the worker to exit while the worker waited for a query). The query time limit is
// shorter than the load's, which a short --time-limit must not cut.
TEST(PluginLoading, ALoadPastItsTimeLimitIsKilledAndSaysSo) {
  const std::string path = kPluginDir + "/libgjkref-misbehaving-plugin.so";
  WorkerLimits limits{0.05};
  limits.load_seconds = 0.3;
  std::string error;
  auto list = load_plugin(path, error, limits);
  ASSERT_EQ(error, "");
  ASSERT_EQ(list.size(), 1u);
  ::setenv("GJKREF_TEST_HANG_ON_LOAD", "1", 1);
  const auto start = std::chrono::steady_clock::now();
  const Result hung = list.front()->run(square_pair(2, kWellBehaved, {0.5, 0, 0}));
  const PluginLoad refused = open_plugin(path, limits);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ::unsetenv("GJKREF_TEST_HANG_ON_LOAD");
  EXPECT_EQ(hung.status, Status::Hung) << hung.detail;
  EXPECT_NE(hung.detail.find("had not loaded the library within 0.3 s"), std::string::npos) << hung.detail;
  EXPECT_EQ(refused.status, LoadStatus::TimedOut) << refused.error;
  EXPECT_TRUE(refused.implementations.empty());
  EXPECT_NE(refused.error.find("had not loaded the library within 0.3 s (the load time limit); killed"),
            std::string::npos)
      << refused.error;
  EXPECT_LT(seconds, 5.0);  // two loads of 0.3 s each, and no wait past them
  const Result next = list.front()->run(square_pair(2, kWellBehaved, {0.5, 0, 0}));
  EXPECT_EQ(next.status, Status::Answered) << next.detail;
}

TEST(PluginLoading, TheExamplePluginAnswersIn2dOnly) {
  std::string error;
  auto list = load_plugin(kPluginDir + "/libgjkref-example-plugin.so", error);
  ASSERT_EQ(error, "");
  ASSERT_EQ(list.size(), 1u);
  Implementation& example = *list.front();
  EXPECT_EQ(example.info().name, "example-gjk2d");
  EXPECT_EQ(example.run(square_pair(3, 0, {3, 0, 0})).status, Status::Unsupported);
  const Result apart = example.run(square_pair(2, 0, {3, 0.5, 0}));
  ASSERT_EQ(apart.status, Status::Answered) << apart.detail;
  EXPECT_TRUE(apart.separated);
  const Result overlapping = example.run(square_pair(2, 0, {0.5, 0.5, 0}));
  ASSERT_EQ(overlapping.status, Status::Answered) << overlapping.detail;
  EXPECT_FALSE(overlapping.separated);
}

// The adapters' wiring, on pairs no implementation should get wrong: unit squares or cubes 2 apart, and overlapping
// by half their width. The oracle decides. What this catches: a swapped verdict, a squared distance reported as the
// distance, witnesses on the wrong shape, a 2D adapter reading 3D input.
// How far a reported distance may be from the truth on these pairs, relative to it: wide enough for FCL's API, whose
// tolerance is 1e-6 absolute, and any GJK's convergence test; a squared or halved distance is off by 100 %.
constexpr double kClearPairRelativeDistanceError = 1e-4;

// A float library cannot take a coordinate beyond float's range: its adapter refuses the query (outside the library's
// API), where it passed ±∞ on and the library's failure was charged to it as a finding (416 "failed" answers of
// bullet-gjk-float in the main job, all on such input). Unit squares or cubes scaled by 2^200; the double libraries
// answer them.
TEST(BuiltinAdapters, FloatLibrariesRefuseCoordinatesBeyondFloatsRange) {
  if (!GJKREF_HAVE_PEERS) GTEST_SKIP() << "a build without GJKREF_PEERS has no float library";
  std::string error;
  auto all = builtin_implementations(error);
  ASSERT_EQ(error, "");
  int refusals = 0;
  for (int dim : {2, 3}) {
    casefile::Case c = square_pair(dim, 0, {3, 0.25, 0.5});
    for (auto* shape : {&c.a, &c.b})
      for (auto& p : shape->points)
        for (double& x : p) x = std::ldexp(x, 200);
    for (const auto& impl : all) {
      const Info& info = impl->info();
      if (!info.answers(dim) || info.name.rfind("reference", 0) == 0) continue;
      const Result r = impl->run(c);
      if (info.scalar == "float") {
        EXPECT_EQ(r.status, Status::Refused) << info.name << " " << dim << "D: " << r.detail;
        EXPECT_NE(r.detail.find("beyond float's range"), std::string::npos) << info.name << ": " << r.detail;
        ++refusals;
      } else if (info.name == "bullet-gjk-double") {
        EXPECT_EQ(r.status, Status::Answered) << r.detail;
      }
    }
  }
  EXPECT_GE(refusals, 4);  // bullet's two float implementations in 3D, box2d's two in 2D
}

// The built-in implementation named `name`, loaded alone among the built-ins (they come as one list; `keep` holds it).
Implementation& builtin_named(std::vector<std::unique_ptr<Implementation>>& keep, const std::string& name) {
  std::string error;
  keep = builtin_implementations(error);
  EXPECT_EQ(error, "");
  for (auto& impl : keep)
    if (impl->info().name == name) return *impl;
  throw std::runtime_error("no built-in implementation named " + name);
}

// Box2D's polygon asserts on a hull whose area, summed in float, is not above b2_epsilon. The shrunk case of the main
// job (scales-2d-1735): triangles with coordinates of 2^81, within float's range, whose cross products overflow it
// (2^162), so that Set's area is not a number. The adapter's check of the area in double let them through, and
// box2d-polygons crashed on Set's assertion; it refuses them now, saying why.
TEST(BuiltinAdapters, Box2dPolygonsRefuseAHullWhoseFloatAreaOverflows) {
  if (!GJKREF_HAVE_PEERS) GTEST_SKIP() << "a build without GJKREF_PEERS has no Box2D";
  std::vector<std::unique_ptr<Implementation>> all;
  Implementation& polygons = builtin_named(all, "box2d-polygons");
  const double e = std::ldexp(1.0, 81);
  casefile::Case c;
  c.name = "scales-2d-1735";
  c.dim = 2;
  c.a.points = {{e, 0, 0}, {0, 0, 0}, {1.5 * e, -e, 0}};
  c.b.points = {{0, 0, 0}, {0, -e, 0}, {e, 0, 0}};
  const Result r = polygons.run(c);
  EXPECT_EQ(r.status, Status::Refused) << r.detail;
  EXPECT_NE(r.detail.find("area in float"), std::string::npos) << r.detail;
}

// Chipmunk 7.0.3 swaps a polygon and a segment given in that order, and its contact distances then have the wrong sign
// (impl/adapters/chipmunk.cpp). A segment inside the unit square, 1/8 and 3/8 below its top edge (PD = 3/8, along
// +y): the adapter reports the deepest of the two contact points in either order, with Chipmunk's sign — +3/8 with the
// segment first, −3/8 with the square first (where it reported the shallowest point's −1/8) — and says which order
// swapped.
TEST(BuiltinAdapters, ChipmunkReportsTheDeepestPointWhenItSwapsTheShapes) {
  if (!GJKREF_HAVE_PEERS) GTEST_SKIP() << "a build without GJKREF_PEERS has no Chipmunk";
  std::vector<std::unique_ptr<Implementation>> all;
  Implementation& chipmunk = builtin_named(all, "chipmunk-collide");
  casefile::Case square_first;
  square_first.dim = 2, square_first.name = "square, then segment";
  square_first.a.points = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  square_first.b.points = {{0.25, 0.875, 0}, {0.75, 0.625, 0}};
  casefile::Case segment_first = square_first;
  segment_first.name = "segment, then square";
  std::swap(segment_first.a, segment_first.b);
  ASSERT_EQ(Truth(square_first, oracle::hull_oracle(square_first)).penetration().squared_depth, mpq_class(9, 64));
  const Result in_order = chipmunk.run(segment_first), swapped = chipmunk.run(square_first);
  ASSERT_EQ(in_order.status, Status::Answered) << in_order.detail;
  ASSERT_EQ(swapped.status, Status::Answered) << swapped.detail;
  ASSERT_TRUE(in_order.penetration && swapped.penetration);
  EXPECT_NEAR(*in_order.penetration, 0.375, 1e-12) << in_order.detail;
  EXPECT_NEAR(*swapped.penetration, -0.375, 1e-12) << swapped.detail;
  EXPECT_NE(swapped.detail.find("swapped inside cpShapesCollide"), std::string::npos) << swapped.detail;
  EXPECT_EQ(in_order.detail.find("swapped"), std::string::npos) << in_order.detail;
}

// box2d-distance reads b2Distance's verdict as Box2D's own b2TestOverlap does: below 10·b2_epsilon, overlapping. Here
// B is A (a 2 × 2 square) with its first vertex moved by 10⁻⁸: b2Distance's first simplex point is shorter than
// b2_epsilon, it stops at once ("the shapes are overlapped", its source says) and returns 10⁻⁸, which the adapter took
// for a separation (a pair overlapping by 2 charged as separated). Squares 10⁻³ apart are still separated, with their
// distance.
TEST(BuiltinAdapters, Box2dDistanceReadsOverlapAsBox2dDoes) {
  if (!GJKREF_HAVE_PEERS) GTEST_SKIP() << "a build without GJKREF_PEERS has no Box2D";
  std::vector<std::unique_ptr<Implementation>> all;
  Implementation& distance = builtin_named(all, "box2d-distance");
  casefile::Case moved;
  moved.dim = 2, moved.name = "first vertex moved by 1e-8";
  moved.a.points = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}};
  moved.b.points = moved.a.points;
  moved.b.points[0][0] = 1e-8;
  ASSERT_EQ(oracle::hull_oracle(moved).verdict, oracle::Verdict::Overlapping);
  casefile::Case apart = moved;
  apart.name = "1e-3 apart";
  for (auto& p : apart.b.points) p = {p[0] + 2.001, p[1], 0};
  const oracle::Answer apart_truth = oracle::hull_oracle(apart);
  ASSERT_EQ(apart_truth.verdict, oracle::Verdict::Separated);
  const Result overlapping = distance.run(moved), separated = distance.run(apart);
  ASSERT_EQ(overlapping.status, Status::Answered) << overlapping.detail;
  EXPECT_FALSE(overlapping.separated) << overlapping.detail;
  EXPECT_NE(overlapping.detail.find("below b2TestOverlap's"), std::string::npos) << overlapping.detail;
  ASSERT_EQ(separated.status, Status::Answered) << separated.detail;
  EXPECT_TRUE(separated.separated) << separated.detail;
  ASSERT_TRUE(separated.distance);
  EXPECT_NEAR(*separated.distance, apart_truth.distance, 1e-6);
}

TEST(BuiltinAdapters, ClearPairsGetTheOraclesAnswer) {
  std::string error;
  auto all = builtin_implementations(error);
  ASSERT_EQ(error, "");
  std::set<std::string> names;
  for (const auto& impl : all) names.insert(impl->info().name);
  EXPECT_TRUE(names.count("reference-exact"));
  if (GJKREF_HAVE_PEERS) {  // a build with GJKREF_PEERS has every adapter
    for (const char* expected : {"libccd-gjk", "libccd-mpr", "libccd-gjk-epa", "bullet-gjk-double",
                                 "bullet-gjkepa-float", "box2d-distance", "fcl-libccd-distance", "fcl-indep-distance",
                                 "fcl-collide", "fcl-signed-distance"})
      EXPECT_TRUE(names.count(expected)) << expected << " is missing from the built-in implementations";
  }
  for (int dim : {2, 3})
    for (const auto& offset : {std::array<double, 3>{3, 0.25, 0.5}, std::array<double, 3>{0.5, 0.25, 0.5}}) {
      const casefile::Case c = square_pair(dim, 0, offset);
      const oracle::Answer truth = oracle::hull_oracle(c);
      const bool truly_separated = truth.verdict == oracle::Verdict::Separated;
      for (const auto& impl : all) {
        const Info& info = impl->info();
        const Result r = impl->run(c);
        const std::string what = info.name + " on " + std::to_string(dim) + "D pair offset by " +
                                 std::to_string(offset[0]);
        if (!info.answers(dim)) {
          EXPECT_EQ(r.status, Status::Unsupported) << what;
          continue;
        }
        ASSERT_EQ(r.status, Status::Answered) << what << ": " << to_string(r.status) << " " << r.detail;
        EXPECT_EQ(r.separated, truly_separated) << what;
        EXPECT_FALSE(r.has_non_finite_number()) << what;
        if (r.separated && info.can(kMeasures)) {
          ASSERT_TRUE(r.distance) << what;
          EXPECT_NEAR(*r.distance, truth.distance, kClearPairRelativeDistanceError * truth.distance) << what;
        }
        if (r.separated && info.can(kWitnesses)) {
          ASSERT_TRUE(r.witnesses) << what;
          const auto& [on_a, on_b] = *r.witnesses;
          EXPECT_NEAR(on_b[0] - on_a[0], truth.distance, kClearPairRelativeDistanceError * truth.distance)
              << what << ": the witness on B should lie in +x of the witness on A";
        }
      }
    }
}

TEST(BuiltinAdapters, TheExactReferenceGivesTheExactDistance) {
  const auto refs = reference_implementations();
  const casefile::Case c = square_pair(3, 0, {3, 0.25, 0.5});
  const oracle::Answer truth = oracle::hull_oracle(c);
  int exact_modes = 0;
  for (const auto& ref : refs) {
    if (ref->info().name != "reference-exact" && ref->info().name != "reference-certified") continue;
    ++exact_modes;
    const Result r = ref->run(c);
    ASSERT_TRUE(r.exact_squared_distance) << ref->info().name;
    EXPECT_EQ(*r.exact_squared_distance, truth.squared_distance) << ref->info().name;
  }
  EXPECT_EQ(exact_modes, 2);
}

// Every reference mode measures the depth of the pairs it calls intersecting, with a unit normal, each judged against
// the oracle's exact penetration depth under its own scalar's contract: overlapping squares and cubes, and the same
// pairs scaled by 2^±40 (the floating EPA's frame). A depth reported in the wrong frame, a normal not scaled back to
// unit length, or a missing depth is a finding here.
// How far |n|² of a reported unit normal may be from 1: each coordinate is made unit in long double or rationals and
// rounded once to double (a relative ε/2 each), so |n|² is within about 2ε of 1 before its own three-term sum adds
// ≤ 2ε more; 4ε bounds both. A normal left at its raw length is off by far more.
constexpr double kUnitNormalSquaredError = 4 * std::numeric_limits<double>::epsilon();

TEST(BuiltinAdapters, TheReferenceModesReportTheirDepthAndNormal) {
  const auto refs = reference_implementations();
  ASSERT_EQ(refs.size(), 5u);
  for (int dim : {2, 3})
    for (const double scale : {1.0, 0x1p-40, 0x1p40}) {
      casefile::Case c = square_pair(dim, 0, {0.5, 0.25, 0.375});
      for (auto* shape : {&c.a, &c.b})
        for (auto& point : shape->points)
          for (double& x : point) x *= scale;
      const oracle::Answer truth = oracle::hull_oracle(c);
      ASSERT_EQ(truth.verdict, oracle::Verdict::Overlapping);
      for (const auto& ref : refs) {
        const std::string what = ref->info().name + " in " + std::to_string(dim) + "D at scale " + std::to_string(scale);
        const Result r = ref->run(c);
        ASSERT_TRUE(ref->info().can(kPenetrates) && ref->info().can(kNormal)) << what;
        ASSERT_EQ(r.status, Status::Answered) << what << ": " << r.detail;
        ASSERT_FALSE(r.separated) << what;
        ASSERT_TRUE(r.penetration && r.normal) << what << ": " << r.detail;
        double squared_length = 0;
        for (int k = 0; k < dim; ++k) squared_length += (*r.normal)[k] * (*r.normal)[k];
        EXPECT_NEAR(squared_length, 1.0, kUnitNormalSquaredError) << what;
        const Judged j = judge(truth, r, ref->info(), c);
        EXPECT_TRUE(j.judged && j.within_contract && j.finding == Finding::None)
            << what << ": " << to_string(j.finding) << " (depth " << *r.penetration << ")";
      }
    }
}

// The exact reference's doubles are the correct roundings of its exact answer: the distance bit-equal to the oracle's,
// each witness coordinate the nearest double to the exact closest point. A point p over the inside of the triangle
// (0,0,0) (1,0,1) (0,1,1), in the plane x + y − z = 0 with normal n = (1,1,−1): the closest point is p − t·n with
// t = (p·n)/3, a rational with a factor 3 in its denominator, so neither it nor the distance |p·n|/√3 is a double. The
// adapter once gave the display values — the square root of the squared distance truncated to double, each witness
// coordinate truncated — and 7 of these 40 distances and 48 of the 120 coordinates of the witnesses on A were one ulp
// off.
TEST(BuiltinAdapters, TheExactReferenceRoundsItsAnswerCorrectly) {
  const auto refs = reference_implementations();
  const auto exact = std::find_if(refs.begin(), refs.end(),
                                  [](const auto& r) { return r->info().name == "reference-exact"; });
  ASSERT_NE(exact, refs.end());
  for (int k = 0; k < 40; ++k) {
    casefile::Case c;
    c.name = "point-over-a-face";
    c.dim = 3;
    c.a.points = {{0, 0, 0}, {1, 0, 1}, {0, 1, 1}};
    const std::array<double, 3> p{0.2 + 0.001 * k, 0.25 - 0.0007 * k, 0.9 + 0.003 * k};
    c.b.points = {p};
    const mpq_class t = (mpq_class(p[0]) + mpq_class(p[1]) - mpq_class(p[2])) / 3;
    const std::array<mpq_class, 3> closest{mpq_class(p[0]) - t, mpq_class(p[1]) - t, mpq_class(p[2]) + t};
    ASSERT_GT(closest[0], 0);  // inside the triangle: the face's point is the closest
    ASSERT_GT(closest[1], 0);
    ASSERT_LT(closest[0] + closest[1], 1);
    const oracle::Answer truth = oracle::hull_oracle(c);
    ASSERT_EQ(truth.squared_distance, mpq_class(3 * t * t)) << "k = " << k;
    const Result r = (*exact)->run(c);
    ASSERT_EQ(r.status, Status::Answered) << r.detail;
    ASSERT_TRUE(r.distance && r.witnesses);
    EXPECT_EQ(*r.distance, truth.distance) << "k = " << k << std::hexfloat << ": " << *r.distance;
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(r.witnesses->at(0)[i], round_to_double(closest[i]))
          << "k = " << k << ", coordinate " << i << std::hexfloat << ": " << r.witnesses->at(0)[i];
      EXPECT_EQ(r.witnesses->at(1)[i], p[i]) << "k = " << k << ", coordinate " << i;
    }
  }
}

// A coordinate finite in the case but beyond the scalar's range is invalid input to that mode, and its detail says which
// coordinate, not only "non-finite"; a coordinate that is not finite in the case gets no such remark, nor does the
// other shape's.
TEST(BuiltinAdapters, ACoordinateBeyondTheScalarsRangeIsNamed) {
  const auto refs = reference_implementations();
  const auto named = [&](const char* name) {
    return std::find_if(refs.begin(), refs.end(), [&](const auto& r) { return r->info().name == name; })->get();
  };
  casefile::Case c = square_pair(2, 0, {3, 0, 0});
  c.b.points[1][0] = 1e308;
  const Result in_float = named("reference-float")->run(c);
  EXPECT_EQ(in_float.status, Status::InvalidInput);
  EXPECT_EQ(in_float.detail, "non-finite coordinate in B (the case's coordinate 1e+308 is beyond float's range)");
  EXPECT_EQ(named("reference-double")->run(c).status, Status::Answered);
  c.a.points[2][1] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(named("reference-float")->run(c).detail, "non-finite coordinate in A");
}

// The certified mode reports the oracle's class, and its distance bit-equal to the oracle's correctly rounded one; the
// judge refuses a class or a last bit that differs.
TEST(BuiltinAdapters, TheCertifiedReferenceGivesTheClassAndTheRoundedDistance) {
  const auto refs = reference_implementations();
  const auto certified = std::find_if(refs.begin(), refs.end(),
                                      [](const auto& r) { return r->info().name == "reference-certified"; });
  ASSERT_NE(certified, refs.end());
  for (const casefile::Case& c : {square_pair(3, 0, {3, 0.25, 0.5}), square_pair(3, 0, {2, 0.25, 0.5}),
                                  square_pair(3, 0, {1, 0.25, 0.5}), square_pair(3, 0, {0.5, 0.25, 0.5}),
                                  square_pair(2, 0, {1, 0.5, 0})}) {
    const oracle::Answer truth = oracle::hull_oracle(c);
    const Truth t(c, truth);
    Result r = (*certified)->run(c);
    ASSERT_TRUE(r.contact_class);
    EXPECT_EQ(*r.contact_class, oracle::to_string(truth.verdict));
    ASSERT_TRUE(r.distance);
    EXPECT_EQ(*r.distance, truth.distance);
    EXPECT_EQ(judge(t, r, (*certified)->info()).finding, Finding::None);
    r.contact_class = truth.verdict == oracle::Verdict::Touching ? "overlapping" : "touching";
    EXPECT_EQ(judge(t, r, (*certified)->info()).finding, Finding::WrongClass);
    r.contact_class = oracle::to_string(truth.verdict);
    // One ulp off is refused from the certified mode, with every verdict: an intersecting answer's distance is judged
    // too (against d = 0).
    r.distance = std::nextafter(truth.distance, 10.0);
    EXPECT_EQ(judge(t, r, (*certified)->info()).finding, Finding::DistanceOutsideContract);
  }
}

// ---- the judge ------------------------------------------------------------------------------------------------------

namespace judging {

Info info_of(const char* scalar, unsigned capabilities = kDecides | kMeasures) {
  Info info;
  info.name = "under-test";
  info.scalar = scalar;
  info.in_2d = info.in_3d = true;
  info.capabilities = capabilities;
  return info;
}

Result answered(bool separated, std::optional<double> distance = std::nullopt) {
  Result r;
  r.status = Status::Answered;
  r.separated = separated;
  r.distance = distance;
  return r;
}

// Unit squares side by side: touching along an edge when `gap` is 0, apart by `gap` otherwise.
casefile::Case squares(double gap) { return square_pair(2, 0, {1 + gap, 0, 0}); }

TEST(Judge, ATouchingPairCalledSeparatedIsAMissTheFloatingContractAllows) {
  const casefile::Case c = squares(0);
  const oracle::Answer truth = oracle::hull_oracle(c);
  ASSERT_EQ(truth.verdict, oracle::Verdict::Touching);
  const Judged floating = judge(truth, answered(true, 0.0), info_of("double"), c);
  EXPECT_EQ(floating.finding, Finding::SeparatedWhileTouching);
  EXPECT_TRUE(floating.within_contract);
  EXPECT_TRUE(floating.within_band());
  // Exact arithmetic has no band: the same answer is a disagreement.
  const Judged exact = judge(truth, answered(true, 0.0), info_of("exact"), c);
  EXPECT_EQ(exact.finding, Finding::SeparatedWhileTouching);
  EXPECT_TRUE(exact.disagrees());
  // Calling it separated at a distance the contract does not allow is outside the contract.
  EXPECT_TRUE(judge(truth, answered(true, 1e-3), info_of("double"), c).disagrees());
}

TEST(Judge, IntersectingIsAllowedOnlyInsideTheVerdictBand) {
  // 2^-45 ≈ 2.8e-14 is inside double's verdict band here (128·ε·M with M = 2: 5.7e-14), and 1 + 2^-45 is a double.
  const casefile::Case far = squares(1), near = squares(std::ldexp(1.0, -45));
  const Judged beyond = judge(oracle::hull_oracle(far), answered(false), info_of("double"), far);
  EXPECT_EQ(beyond.finding, Finding::IntersectingWhileSeparated);
  EXPECT_TRUE(beyond.disagrees());
  const Judged within = judge(oracle::hull_oracle(near), answered(false), info_of("double"), near);
  EXPECT_EQ(within.finding, Finding::IntersectingWhileSeparated);
  EXPECT_TRUE(within.within_band());
}

TEST(Judge, DistancesAreHeldToTheContractOfTheirScalar) {
  const casefile::Case c = squares(1);
  const oracle::Answer truth = oracle::hull_oracle(c);
  const double off = 1 + 1e-9;  // 1e-9 relative: far outside double's allowance, far inside float's
  const Judged as_double = judge(truth, answered(true, off), info_of("double"), c);
  EXPECT_EQ(as_double.finding, Finding::DistanceOutsideContract);
  EXPECT_TRUE(as_double.disagrees());
  ASSERT_TRUE(as_double.distance_error);
  EXPECT_DOUBLE_EQ(*as_double.distance_error, off - 1);
  EXPECT_FALSE(judge(truth, answered(true, off), info_of("float"), c).disagrees());
  EXPECT_FALSE(judge(truth, answered(true, 1.0), info_of("double"), c).disagrees());
}

TEST(Judge, WhatHappenedToAnImplementationIsItsFinding) {
  const casefile::Case c = squares(1);
  const oracle::Answer truth = oracle::hull_oracle(c);
  const std::pair<Status, Finding> all[] = {{Status::Failed, Finding::Failed},
                                            {Status::Threw, Finding::Threw},
                                            {Status::Crashed, Finding::Crashed},
                                            {Status::Hung, Finding::Hung},
                                            {Status::InvalidInput, Finding::WrongInvalidInput}};
  for (const auto& [status, finding] : all) {
    Result r;
    r.status = status;
    const Judged j = judge(truth, r, info_of("double"), c);
    EXPECT_EQ(j.finding, finding) << to_string(status);
    EXPECT_TRUE(j.disagrees()) << to_string(status);
  }
  Result unsupported;
  EXPECT_FALSE(judge(truth, unsupported, info_of("double"), c).judged);
  // A refusal (input outside what the library's API accepts) is not judged, and the reason is kept.
  Result refused;
  refused.status = Status::Refused;
  refused.detail = "A: 9 points: b2PolygonShape::Set takes 3 to 8";
  const Judged r = judge(truth, refused, info_of("float"), c);
  EXPECT_FALSE(r.judged);
  EXPECT_FALSE(r.disagrees());
  EXPECT_EQ(r.not_judged, "refused: A: 9 points: b2PolygonShape::Set takes 3 to 8");
  EXPECT_EQ(judge(truth, answered(true, NAN), info_of("double"), c).finding, Finding::NonFiniteNumber);
}

TEST(Judge, InvalidInputMustBeSaidSo) {
  casefile::Case c = squares(1);
  c.a.points[2][1] = NAN;
  const oracle::Answer truth = oracle::hull_oracle(c);
  ASSERT_EQ(truth.verdict, oracle::Verdict::InvalidInput);
  Result r;
  r.status = Status::InvalidInput;
  EXPECT_FALSE(judge(truth, r, info_of("double"), c).disagrees());
  EXPECT_EQ(judge(truth, answered(true, 1.0), info_of("double"), c).finding, Finding::WrongInvalidInput);
}

// The band is on the signed distance δ = −PD for overlaps: "separated" for unit squares overlapping by 1/2 is outside
// every floating contract, with or without a distance — and so it is for an overlap of 2^−30, outside double's band
// (5.7e−14 here), while an overlap of 2^−45 is inside it.
TEST(Judge, SeparatedOnAnOverlapIsExcusedOnlyWhenTheDepthIsInsideTheBand) {
  for (double overlap : {0.5, std::ldexp(1.0, -30), std::ldexp(1.0, -45)}) {
    const casefile::Case c = squares(-overlap);
    const oracle::Answer truth = oracle::hull_oracle(c);
    ASSERT_EQ(truth.verdict, oracle::Verdict::Overlapping);
    const bool inside_band = overlap < 1e-13;
    for (const Result& r : {answered(true), answered(true, 0.0)}) {
      const Judged j = judge(truth, r, info_of("double", kDecides), c);
      EXPECT_EQ(j.finding, Finding::SeparatedWhileOverlapping);
      EXPECT_EQ(j.disagrees(), !inside_band) << overlap;
    }
    EXPECT_EQ(judge(truth, answered(true), info_of("float", kDecides), c).disagrees(), overlap > 1e-5) << overlap;
  }
}

// An implementation that measures must give a distance with "separated"; one that only decides need not.
TEST(Judge, AMissingDistanceIsAFindingOfAnImplementationThatMeasures) {
  const casefile::Case c = squares(1);
  const oracle::Answer truth = oracle::hull_oracle(c);
  EXPECT_EQ(judge(truth, answered(true), info_of("double"), c).finding, Finding::MissingDistance);
  EXPECT_TRUE(judge(truth, answered(true), info_of("double"), c).disagrees());
  EXPECT_FALSE(judge(truth, answered(true), info_of("double", kDecides), c).disagrees());
}

// Witnesses on their hulls pass; moved off them (even keeping a − b), they fail.
TEST(Judge, WitnessesAreJudgedOnTheirHulls) {
  const casefile::Case c = squares(1);  // [0,1]² and [2,3]×[0,1]: closest points (1, y) and (2, y)
  const oracle::Answer truth = oracle::hull_oracle(c);
  Result r = answered(true, 1.0);
  r.witnesses = std::array<std::array<double, 3>, 2>{{{1, 0.5, 0}, {2, 0.5, 0}}};
  EXPECT_FALSE(judge(truth, r, info_of("double"), c).disagrees());
  r.witnesses = std::array<std::array<double, 3>, 2>{{{1.001, 0.5, 0}, {2.001, 0.5, 0}}};
  const Judged shifted = judge(truth, r, info_of("double"), c);
  EXPECT_EQ(shifted.finding, Finding::WitnessOutsideContract);
  ASSERT_TRUE(shifted.witness_error);
  EXPECT_NEAR(*shifted.witness_error, 0.001, 1e-12);
}

// The judge compares a reported distance or depth r with the exact δ = √D, not with δ rounded: a distance δ = √2
// (points (0, 0) and (1, 1)) rounds up, to d = √2 + 0.44 ulp, and an exact implementation's allowance is ε·δ + the
// least subnormal, 1.414 ulp. d + 1 ulp is 1.44 ulp from δ (outside), though only 1 ulp from d (which a comparison of
// |r − d| in doubles let pass); d − 1 ulp is 0.56 ulp from δ (within). The same for a depth PD = √2 (the square with
// vertices (±2, 0), (0, ±2) against the origin), and |a − b| of witnesses on their hulls is held to δ as well.
TEST(Judge, DistancesAndDepthsAreComparedExactlyNotAfterRounding) {
  casefile::Case c;
  c.dim = 2, c.name = "root-two apart";
  c.a.points = {{0, 0, 0}};
  c.b.points = {{1, 1, 0}};
  const oracle::Answer truth = oracle::hull_oracle(c);
  ASSERT_EQ(truth.squared_distance, 2);
  const double d = truth.distance;
  ASSERT_GT(mpq_class(d) * d, 2);  // rounded up
  const double up = std::nextafter(d, 3.0), down = std::nextafter(d, 0.0);
  ASSERT_LE(up - d, std::numeric_limits<double>::epsilon() * d);  // within the allowance of d, in doubles
  EXPECT_EQ(judge(truth, answered(true, d), info_of("exact"), c).finding, Finding::None);
  EXPECT_EQ(judge(truth, answered(true, down), info_of("exact"), c).finding, Finding::None);
  EXPECT_EQ(judge(truth, answered(true, up), info_of("exact"), c).finding, Finding::DistanceOutsideContract);

  casefile::Case deep;
  deep.dim = 2, deep.name = "root-two deep";
  deep.a.points = {{2, 0, 0}, {0, 2, 0}, {-2, 0, 0}, {0, -2, 0}};
  deep.b.points = {{0, 0, 0}};
  const Truth t(deep, oracle::hull_oracle(deep));
  ASSERT_EQ(t.penetration().squared_depth, 2);
  const double pd = t.penetration().depth;
  ASSERT_EQ(pd, d);
  const Info measures_depth = info_of("exact", kDecides | kPenetrates);
  for (const auto& [depth, finding] : {std::pair{pd, Finding::None}, std::pair{down, Finding::None},
                                       std::pair{up, Finding::DepthOutsideContract}}) {
    Result r = answered(false);
    r.penetration = depth;
    EXPECT_EQ(judge(t, r, measures_depth).finding, finding) << depth;
  }

  const casefile::Case apart = squares(1);  // [0,1]² and [2,3]×[0,1], 1 apart
  const oracle::Answer apart_truth = oracle::hull_oracle(apart);
  Result r = answered(true, 1.0);
  r.witnesses = std::array<std::array<double, 3>, 2>{{{1, 0, 0}, {2, 1, 0}}};  // on their hulls, √2 apart
  EXPECT_EQ(judge(apart_truth, r, info_of("exact"), apart).finding, Finding::WitnessOutsideContract);
  r.witnesses = std::array<std::array<double, 3>, 2>{{{1, 0.25, 0}, {2, 0.25, 0}}};
  EXPECT_EQ(judge(apart_truth, r, info_of("exact"), apart).finding, Finding::None);
}

// Unit squares A = [0,1]² and B = A + offset.
casefile::Case unit_squares(double dx, double dy) {
  casefile::Case c;
  c.dim = 2, c.name = "unit squares";
  c.a.points = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  for (const auto& p : c.a.points) c.b.points.push_back({p[0] + dx, p[1] + dy, 0});
  return c;
}

Result penetrating(std::array<double, 3> normal, std::array<double, 3> on_a, std::array<double, 3> on_b) {
  Result r = answered(false);
  r.penetration = 0.5;
  r.normal = normal;
  r.contacts = std::array<std::array<double, 3>, 2>{{on_a, on_b}};
  return r;
}

// B = A + (1/2, 1/2): PD = 1/2 along +x and along +y, two optimal facets. A normal along one with the contact points of
// the other (a − b = PD·ŷ, a not on A's +x face) passed: the normal was judged alone, and the contacts against
// whichever optimal facet fitted them. plugin.h says the three describe one contact. Each consistent pair passes.
TEST(Judge, TheNormalAndTheContactsDescribeOneContact) {
  const casefile::Case c = unit_squares(0.5, 0.5);
  const Truth t(c, oracle::hull_oracle(c));
  ASSERT_EQ(t.penetration().optimal.size(), 2u);
  for (const char* scalar : {"double", "exact"}) {
    const Info all = info_of(scalar, kDecides | kPenetrates | kNormal | kContacts);
    EXPECT_EQ(judge(t, penetrating({1, 0, 0}, {0.75, 1, 0}, {0.75, 0.5, 0}), all).finding,
              Finding::ContactOutsideContract) << scalar;
    EXPECT_EQ(judge(t, penetrating({0, 1, 0}, {1, 0.75, 0}, {0.5, 0.75, 0}), all).finding,
              Finding::ContactOutsideContract) << scalar;
    EXPECT_EQ(judge(t, penetrating({1, 0, 0}, {1, 0.75, 0}, {0.5, 0.75, 0}), all).finding, Finding::None) << scalar;
    EXPECT_EQ(judge(t, penetrating({0, 2, 0}, {0.75, 1, 0}, {0.75, 0.5, 0}), all).finding, Finding::None) << scalar;
  }
}

// Beyond the hull method's reach the facets of A⊖B are not known, and contact points were not judged at all: the right
// verdict, depth and normal with contact points 100 away, or with a and b swapped (a − b = −PD·n̂), passed. They are now
// held to their hulls and to bounds every pair the contract accepts meets (judge.cpp, contacts_within_necessary_bounds).
// The pins: the same answers on the same shapes within the reach (unit squares, B = A + (1/2, 1/2): PD = 1/2 along +x
// and along +y) and beyond it (500 more points strictly inside each square: A⊖B is the same), every answer accepted
// within also accepted beyond, and the wrong ones refused beyond too. What does not matter: where the inner points
// lie, and which optimal facet the certificate names (the mixed answer is built from it).
TEST(Judge, BeyondTheHullsReachContactsMeetWhatEveryRightPairMeets) {
  const casefile::Case within = unit_squares(0.5, 0.5);
  casefile::Case beyond = within;
  for (int i = 1; i <= 25; ++i)
    for (int j = 1; j <= 20; ++j) {
      beyond.a.points.push_back({i / 26.0, j / 21.0, 0});
      beyond.b.points.push_back({0.5 + j / 21.0, 0.5 + i / 26.0, 0});
    }
  ASSERT_TRUE(within_hull_reach(within));
  ASSERT_FALSE(within_hull_reach(beyond));
  const Truth in(within, oracle::hull_oracle(within)), out(beyond, oracle::fast_oracle(beyond));
  ASSERT_EQ(out.penetration().method, oracle::Method::Certified);
  ASSERT_EQ(out.penetration().squared_depth, mpq_class(1, 4));
  ASSERT_EQ(out.penetration().optimal.size(), 1u);
  const bool certificate_along_x = sgn(out.penetration().optimal[0].normal[0]) > 0;
  const Info all = info_of("double", kDecides | kPenetrates | kNormal | kContacts);
  const Info without_normals = info_of("double", kDecides | kPenetrates | kContacts);
  const std::array<double, 3> x{1, 0, 0}, y{0, 1, 0};
  struct Named {
    const char* what;
    Result answer;
    bool right;
  };
  const auto without_normal = [](Result r) {
    r.normal.reset();
    return r;
  };
  const std::vector<Named> answers = {
      {"+x", penetrating(x, {1, 0.75, 0}, {0.5, 0.75, 0}), true},
      {"+x, elsewhere on the face", penetrating(x, {1, 0.6, 0}, {0.5, 0.6, 0}), true},
      {"+y", penetrating(y, {0.75, 1, 0}, {0.75, 0.5, 0}), true},
      {"+y's contacts, no normal", without_normal(penetrating(x, {0.75, 1, 0}, {0.75, 0.5, 0})), true},
      // Each bound on its own: swapped without a normal, refused by A⊖B's support along a − b alone; a − b too short,
      // by |a − b| ≥ PD − C alone.
      {"swapped, no normal", without_normal(penetrating(x, {0.5, 0.75, 0}, {1, 0.75, 0})), false},
      {"a − b too short, no normal", without_normal(penetrating(x, {0.75, 0.75, 0}, {0.5, 0.75, 0})), false},
      {"swapped", penetrating(x, {0.5, 0.75, 0}, {1, 0.75, 0}), false},
      {"100 away", penetrating(x, {50, 50, 0}, {-50, -50, 0}), false},
      {"each off its square by 2^-20", penetrating(x, {1 + 0x1p-20, 0.75, 0}, {0.5 + 0x1p-20, 0.75, 0}), false},
      {"a − b too long", penetrating(x, {1, 0.75, 0}, {0.5, 0.95, 0}), false},
      {"a − b off the optimal direction", penetrating(x, {1, 0.75, 0}, {0.5, 0.75 - 0x1p-20, 0}), false},
      {"the certificate's normal, the other facet's contacts",
       certificate_along_x ? penetrating(x, {0.75, 1, 0}, {0.75, 0.5, 0}) : penetrating(y, {1, 0.75, 0}, {0.5, 0.75, 0}),
       false},
  };
  for (const Named& n : answers) {
    SCOPED_TRACE(n.what);
    const Info& info = n.answer.normal ? all : without_normals;
    const Judged j_in = judge(in, n.answer, info), j_out = judge(out, n.answer, info);
    EXPECT_EQ(j_in.finding, n.right ? Finding::None : Finding::ContactOutsideContract);
    EXPECT_EQ(j_out.finding, j_in.finding);
    EXPECT_TRUE(j_in.contacts_judged_in_part.empty());
    EXPECT_FALSE(j_out.contacts_judged_in_part.empty());
  }
}

// Contact points are judged as the depth and the normal they come with are: on a facet of A⊖B whose depth is within the
// depth's allowance of PD, not only on an exactly optimal one. A the unit square, B = A + (1/2, 1/2 + 2^−53) as doubles
// hold it (its bottom edge at 1/2 + 2^−53, its top rounded to 3/2): PD = 1/2 − 2^−53 along +y, and the +x facet 2^−53
// deeper, a tie up to the last bit of the input. An answer along +x (depth 1/2,
// normal +x, the +x facet's contact points) has its depth and normal within the contract; its contacts were refused,
// measured against +y's closest point alone, 0.7 away. A facet deeper than the allowance still does not count, and
// the normal and the contacts still describe one contact.
TEST(Judge, ContactsOnAFacetWithinTheDepthsAllowanceAreJudgedAsTheDepthIs) {
  const double dy = 0.5 + std::ldexp(1.0, -53);
  const casefile::Case near_tie = unit_squares(0.5, dy);
  const Truth t(near_tie, oracle::hull_oracle(near_tie));
  ASSERT_EQ(t.penetration().optimal.size(), 1u);
  ASSERT_EQ(t.penetration().squared_depth, mpq_class(1 - dy) * mpq_class(1 - dy));
  const Info all = info_of("double", kDecides | kPenetrates | kNormal | kContacts);
  Result along_x = penetrating({1, 0, 0}, {1, 0.75, 0}, {0.5, 0.75, 0});
  along_x.contacts.reset();
  ASSERT_EQ(judge(t, along_x, info_of("double", kDecides | kPenetrates | kNormal)).finding, Finding::None)
      << "the +x facet's depth and normal are within the contract";
  EXPECT_EQ(judge(t, penetrating({1, 0, 0}, {1, 0.75, 0}, {0.5, 0.75, 0}), all).finding, Finding::None);
  Result along_y = penetrating({0, 1, 0}, {0.75, 1, 0}, {0.75, dy, 0});
  along_y.penetration = 1 - dy;
  EXPECT_EQ(judge(t, along_y, all).finding, Finding::None);
  // One contact: the optimal normal with the other facet's contact points, and the reverse.
  EXPECT_EQ(judge(t, penetrating({0, 1, 0}, {1, 0.75, 0}, {0.5, 0.75, 0}), all).finding,
            Finding::ContactOutsideContract);
  Result mixed = penetrating({1, 0, 0}, {0.75, 1, 0}, {0.75, dy, 0});
  mixed.penetration = 1 - dy;
  EXPECT_EQ(judge(t, mixed, all).finding, Finding::ContactOutsideContract);
  // 2^−30 apart: the +x facet is no answer, and its contact points are refused with the right depth and normal.
  const double far_dy = 0.5 + std::ldexp(1.0, -30);
  const casefile::Case apart = unit_squares(0.5, far_dy);
  const Truth u(apart, oracle::hull_oracle(apart));
  Result contacts_off = penetrating({0, 1, 0}, {1, 0.75, 0}, {0.5, 0.75, 0});
  contacts_off.penetration = 1 - far_dy;
  EXPECT_EQ(judge(u, contacts_off, all).finding, Finding::ContactOutsideContract);
  Result right = penetrating({0, 1, 0}, {0.75, 1, 0}, {0.75, far_dy, 0});
  right.penetration = 1 - far_dy;
  EXPECT_EQ(judge(u, right, all).finding, Finding::None);
}

// A normal's directional depth and the contacts' offset from PD·n̂ are compared with their allowances exactly, not
// after rounding the oracle's 256-bit values to double. B = A + (1/2, 0, 0), unit cubes (PD = 1/2 along +x). An answer
// is moved through its allowance in steps far below an ulp of its error: the normal (1, Y, z), with Y the last double
// whose normal (1, Y, 0) passes and z stepping up from 0 through consecutive doubles (each step adds about z's ulp to
// the excess); the contacts with b = (1/2, y, 0), y stepping likewise (the offset grows by y/offset times y's ulp). The
// judge's verdict turns between two answers whose errors round to the same double: no comparison after rounding could
// tell them apart, and one of its two verdicts would have been wrong.
TEST(Judge, NormalsAndContactsAreComparedExactlyNotAfterRounding) {
  casefile::Case c;
  c.dim = 3, c.name = "unit cubes";
  for (int i = 0; i < 8; ++i) c.a.points.push_back({double(i & 1), double(i >> 1 & 1), double(i >> 2 & 1)});
  for (const auto& p : c.a.points) c.b.points.push_back({p[0] + 0.5, p[1], p[2]});
  const Truth t(c, oracle::hull_oracle(c));
  ASSERT_EQ(t.penetration().squared_depth, mpq_class(1, 4));
  const Info normal_only = info_of("double", kDecides | kPenetrates | kNormal);
  const Info contacts_only = info_of("double", kDecides | kPenetrates | kContacts);
  const auto passes = [&](const Result& r, const Info& info) { return judge(t, r, info).finding == Finding::None; };
  // The last y in [0, 10^-12] for which answer(y) passes and the first for which it does not, by bisection over the
  // doubles' bit patterns (monotone for y ≥ 0).
  const auto boundary = [&](const auto& answer, const Info& info, double top) {
    std::uint64_t low = std::bit_cast<std::uint64_t>(0.0), high = std::bit_cast<std::uint64_t>(top);
    EXPECT_TRUE(passes(answer(0.0), info));
    EXPECT_FALSE(passes(answer(top), info));
    while (high - low > 1) {
      const std::uint64_t middle = low + (high - low) / 2;
      (passes(answer(std::bit_cast<double>(middle)), info) ? low : high) = middle;
    }
    return std::pair{std::bit_cast<double>(low), std::bit_cast<double>(high)};
  };
  const auto normal = [](double y, double z) {
    Result r = answered(false);
    r.penetration = 0.5;
    r.normal = std::array<double, 3>{1, y, z};
    return r;
  };
  // (Pairs, not structured bindings: a lambda may not capture a binding in clang's C++20.)
  const std::pair<double, double> ys = boundary([&](double y) { return normal(y, 0); }, normal_only, 1e-12);
  const double y_in = ys.first, y_out = ys.second;
  const std::pair<double, double> zs = boundary([&](double z) { return normal(y_in, z); }, normal_only, y_out - y_in);
  const double z_in = zs.first, z_out = zs.second;
  EXPECT_EQ(judge(t, normal(y_in, z_out), normal_only).finding, Finding::NormalOutsideContract);
  const auto excess = [&](double z) {
    return *oracle::directional_depth_excess(c, {1, y_in, z}, t.penetration().squared_depth);
  };
  EXPECT_EQ(excess(z_in), excess(z_out)) << y_in << " " << z_in << " " << z_out;
  const auto contacts = [](double y) {
    Result r = answered(false);
    r.penetration = 0.5;
    r.contacts = std::array<std::array<double, 3>, 2>{{{1 - 6.25e-14, 0, 0}, {0.5, y, 0}}};
    return r;
  };
  const std::pair<double, double> ys_contact = boundary(contacts, contacts_only, 1e-12);
  const double contact_in = ys_contact.first, contact_out = ys_contact.second;
  EXPECT_EQ(judge(t, contacts(contact_out), contacts_only).finding, Finding::ContactOutsideContract);
  const auto offset = [&](double y) {
    return oracle::contact_offset({1 - 6.25e-14, 0, 0}, {0.5, y, 0}, t.penetration());
  };
  EXPECT_EQ(offset(contact_in), offset(contact_out)) << contact_in << " " << contact_out;
}

// Witnesses follow the verdict as the distance does: where a wrong verdict is excused by the band, or the answer is
// "intersecting", they may be off by the band too. Touching squares called separated 10⁻¹³ apart (a distance their
// allowance and the band hold), with witnesses that far apart on their hulls, had the distance excused and the
// witnesses refused; so had a pair 5·10⁻¹⁴ apart (inside the band, 128·ε·M = 5.7·10⁻¹⁴) called intersecting with a
// common point as witnesses.
TEST(Judge, WitnessesFollowAnExcusedVerdictAsTheDistanceDoes) {
  const casefile::Case touching = squares(0);
  const oracle::Answer touching_truth = oracle::hull_oracle(touching);
  Result r = answered(true, 1e-13);
  r.witnesses = std::array<std::array<double, 3>, 2>{{{1, 0.5, 0}, {1 + 1e-13, 0.5, 0}}};
  const Judged j = judge(touching_truth, r, info_of("double"), touching);
  EXPECT_TRUE(j.within_band()) << to_string(j.finding);
  const casefile::Case near = squares(5e-14);
  const oracle::Answer near_truth = oracle::hull_oracle(near);
  ASSERT_EQ(near_truth.verdict, oracle::Verdict::Separated);
  Result common = answered(false);
  common.witnesses = std::array<std::array<double, 3>, 2>{{{1, 0.5, 0}, {1, 0.5, 0}}};
  const Judged k = judge(near_truth, common, info_of("double"), near);
  EXPECT_TRUE(k.within_band()) << to_string(k.finding);
  // Beyond the band, still refused.
  r.witnesses = std::array<std::array<double, 3>, 2>{{{1, 0.5, 0}, {1 + 1e-9, 0.5, 0}}};
  EXPECT_TRUE(judge(touching_truth, r, info_of("double"), touching).disagrees());
}

// An exact implementation's witness is off its hull by its rounding to double alone, half an ulp per coordinate of the
// point itself. With the allowance of the largest coordinate of either shape, one far vertex of B (2^600) let any
// pair near the origin pass: A = {(±1, 0)}, B = {(±1, 1), (2^600, 2^600 + 1)}, d = 1, and witnesses √5 apart.
TEST(Judge, AnExactWitnessIsAllowedItsOwnRoundingAlone) {
  casefile::Case c;
  c.dim = 2, c.name = "one far vertex";
  const double far = std::ldexp(1.0, 600);
  c.a.points = {{-1, 0, 0}, {1, 0, 0}};
  c.b.points = {{-1, 1, 0}, {1, 1, 0}, {far, far + 1, 0}};
  const oracle::Answer truth = oracle::hull_oracle(c);
  ASSERT_EQ(truth.distance, 1);
  const Info exact = info_of("exact", kDecides | kMeasures | kWitnesses);
  Result r = answered(true, 1.0);
  r.witnesses = std::array<std::array<double, 3>, 2>{{{1, 0, 0}, {-1, 1, 0}}};
  EXPECT_EQ(judge(truth, r, exact, c).finding, Finding::WitnessOutsideContract);
  r.witnesses = std::array<std::array<double, 3>, 2>{{{1e150, 0, 0}, {-1, 1, 0}}};
  EXPECT_EQ(judge(truth, r, exact, c).finding, Finding::WitnessOutsideContract);
  r.witnesses = std::array<std::array<double, 3>, 2>{{{0.25, 0, 0}, {0.25, 1, 0}}};
  EXPECT_EQ(judge(truth, r, exact, c).finding, Finding::None);
}

// Depth, normal and contacts of unit squares overlapping by 1/2 along x (PD = 1/2, normal +x).
TEST(Judge, DepthNormalAndContactsAreJudgedAgainstTheExactDepth) {
  const casefile::Case c = squares(-0.5);
  const oracle::Answer truth = oracle::hull_oracle(c);
  Info depth = info_of("double");
  depth.capabilities = kDecides | kPenetrates | kNormal | kContacts;
  Result r = answered(false);
  EXPECT_EQ(judge(truth, r, depth, c).finding, Finding::MissingDepth);
  r.penetration = 0.5;
  r.normal = std::array<double, 3>{2, 0, 0};
  r.contacts = std::array<std::array<double, 3>, 2>{{{1, 0.25, 0}, {0.5, 0.25, 0}}};
  EXPECT_FALSE(judge(truth, r, depth, c).disagrees());
  Result deeper = r;
  deeper.penetration = 0.55;
  EXPECT_EQ(judge(truth, deeper, depth, c).finding, Finding::DepthOutsideContract);
  Result tilted = r;
  tilted.normal = std::array<double, 3>{1, 1e-6, 0};
  EXPECT_EQ(judge(truth, tilted, depth, c).finding, Finding::NormalOutsideContract);
  Result reversed = r;
  reversed.normal = std::array<double, 3>{-1, 0, 0};  // B moved the long way: depth 3/2 along −x
  const Judged back = judge(truth, reversed, depth, c);
  EXPECT_EQ(back.finding, Finding::NormalOutsideContract);
  EXPECT_DOUBLE_EQ(*back.normal_error, 1.0);
  Result off = r;
  off.contacts = std::array<std::array<double, 3>, 2>{{{1, 0.25, 0}, {0.75, 0.25, 0}}};
  EXPECT_EQ(judge(truth, off, depth, c).finding, Finding::ContactOutsideContract);
  // A zero normal names no direction: outside the contract, and no error is measured (no infinity stands in for one;
  // the campaign logs, JSON, could not hold it).
  Result zero = r;
  zero.normal = std::array<double, 3>{0, 0, 0};
  const Judged none = judge(truth, zero, depth, c);
  EXPECT_EQ(none.finding, Finding::NormalOutsideContract);
  EXPECT_FALSE(none.normal_error.has_value());
}

// Every number an answer reports is judged against the truth, whatever its verdict. Before, a separated answer's depth,
// normal and contacts went unjudged, and so did an intersecting answer's distance; and on a gap inside the verdict band
// called intersecting only a depth above the band was refused (a depth of −1e300, a zero normal and contacts at 1e300
// passed). What does not matter: the shapes (unit squares), the gap's size within the band.
TEST(Judge, EveryReportedNumberIsJudgedWhateverTheVerdict) {
  const Info all = info_of("double", kDecides | kMeasures | kPenetrates | kNormal | kContacts);
  using Points = std::array<std::array<double, 3>, 2>;
  const Points far_away{{{1e300, 0, 0}, {-1e300, 0, 0}}};
  // Apart by 2^−50, inside double's band (5.7e−14 here), called intersecting: the verdict is excused, the numbers
  // are held to PD = 0 (give or take the band).
  const casefile::Case near = squares(std::ldexp(1.0, -50));
  const oracle::Answer near_truth = oracle::hull_oracle(near);
  ASSERT_EQ(near_truth.verdict, oracle::Verdict::Separated);
  Result touching = answered(false);
  touching.penetration = 0.0;
  touching.normal = std::array<double, 3>{1, 0, 0};  // moving B along +x: the way that separates
  touching.contacts = Points{{{1, 0.5, 0}, {1, 0.5, 0}}};
  const Judged fine = judge(near_truth, touching, all, near);
  EXPECT_EQ(fine.finding, Finding::IntersectingWhileSeparated);
  EXPECT_TRUE(fine.within_band());
  Result deep = touching;
  deep.penetration = -1e300;
  EXPECT_EQ(judge(near_truth, deep, all, near).finding, Finding::DepthOutsideContract);
  deep.penetration = 0.5;
  EXPECT_EQ(judge(near_truth, deep, all, near).finding, Finding::DepthOutsideContract);
  Result no_direction = touching;
  no_direction.normal = std::array<double, 3>{0, 0, 0};
  EXPECT_EQ(judge(near_truth, no_direction, all, near).finding, Finding::NormalOutsideContract);
  Result backwards = touching;
  backwards.normal = std::array<double, 3>{-1, 0, 0};  // B moved through A: directional depth 2
  EXPECT_EQ(judge(near_truth, backwards, all, near).finding, Finding::NormalOutsideContract);
  Result off_hulls = touching;
  off_hulls.contacts = far_away;
  EXPECT_EQ(judge(near_truth, off_hulls, all, near).finding, Finding::ContactOutsideContract);
  // Contacts of the shapes moved into touching, as if the gap were an overlap (a − b = +d·x̂: Bullet's, whose depth has
  // the gap's sign flipped): each point off its hull by d = 2^−46, beyond the witness allowance (about 4e−15 here) but
  // inside the band, which excuses the verdict and so the points that follow from it. By 2^−40, beyond the band, not.
  const double gap = std::ldexp(1.0, -46);
  const casefile::Case nearer = squares(gap);
  const oracle::Answer nearer_truth = oracle::hull_oracle(nearer);
  Result flipped = touching;
  flipped.penetration = gap;
  flipped.contacts = Points{{{1 + gap, 0.5, 0}, {1, 0.5, 0}}};
  EXPECT_TRUE(judge(nearer_truth, flipped, all, nearer).within_band());
  flipped.contacts = Points{{{1 + std::ldexp(1.0, -40), 0.5, 0}, {1 + gap, 0.5, 0}}};
  EXPECT_EQ(judge(nearer_truth, flipped, all, nearer).finding, Finding::ContactOutsideContract);
  // Apart by 1, called separated with its distance: a depth, a normal or contacts that come with it are judged too.
  const casefile::Case apart = squares(1);
  const oracle::Answer apart_truth = oracle::hull_oracle(apart);
  Result separated = answered(true, 1.0);
  separated.witnesses = Points{{{1, 0.5, 0}, {2, 0.5, 0}}};
  EXPECT_EQ(judge(apart_truth, separated, all, apart).finding, Finding::None);
  Result with_depth = separated;
  with_depth.penetration = 42.0;
  EXPECT_EQ(judge(apart_truth, with_depth, all, apart).finding, Finding::DepthOutsideContract);
  with_depth.penetration = 0.0;
  with_depth.normal = std::array<double, 3>{1, 0, 0};
  EXPECT_EQ(judge(apart_truth, with_depth, all, apart).finding, Finding::None);
  with_depth.normal = std::array<double, 3>{0, 0, 0};
  EXPECT_EQ(judge(apart_truth, with_depth, all, apart).finding, Finding::NormalOutsideContract);
  Result with_contacts = separated;
  with_contacts.contacts = far_away;
  EXPECT_EQ(judge(apart_truth, with_contacts, all, apart).finding, Finding::ContactOutsideContract);
  with_contacts.contacts = separated.witnesses;  // the closest pair: what contacts of shapes apart can only be
  EXPECT_EQ(judge(apart_truth, with_contacts, all, apart).finding, Finding::None);
  // Touching, called intersecting: a distance that comes with it is judged against d = 0.
  const casefile::Case contact = squares(0);
  const oracle::Answer contact_truth = oracle::hull_oracle(contact);
  EXPECT_EQ(judge(contact_truth, answered(false, 7.0), all, contact).finding, Finding::DistanceOutsideContract);
  EXPECT_EQ(judge(contact_truth, answered(false, 0.0), all, contact).finding, Finding::None);
  // Overlapping by 1/2, called separated: outside the band whatever comes with it; a distance of 1 as well.
  const casefile::Case overlap = squares(-0.5);
  EXPECT_EQ(judge(oracle::hull_oracle(overlap), answered(true, 1.0), all, overlap).finding,
            Finding::SeparatedWhileOverlapping);
}

// An implementation that declares witnesses, normals or contact points must report them where the answer calls for
// them: witnesses with "separated", a normal and contacts with every depth beyond the band (at a depth rounding cannot
// tell from 0, touching, libccd calls the direction meaningless, and FCL's contact points coincide). Before, only the distance and the depth were required, and an implementation could
// leave out the others wherever they would have been refused.
TEST(Judge, DeclaredNumbersMustBeReported) {
  using Points = std::array<std::array<double, 3>, 2>;
  const casefile::Case apart = squares(1);
  const oracle::Answer apart_truth = oracle::hull_oracle(apart);
  const Info witnesses = info_of("double", kDecides | kMeasures | kWitnesses);
  Result separated = answered(true, 1.0);
  EXPECT_EQ(judge(apart_truth, separated, witnesses, apart).finding, Finding::MissingWitnesses);
  EXPECT_EQ(judge(apart_truth, separated, info_of("double"), apart).finding, Finding::None);
  separated.witnesses = Points{{{1, 0.5, 0}, {2, 0.5, 0}}};
  EXPECT_EQ(judge(apart_truth, separated, witnesses, apart).finding, Finding::None);
  const casefile::Case overlap = squares(-0.5);
  const oracle::Answer overlap_truth = oracle::hull_oracle(overlap);
  const Info depth = info_of("double", kDecides | kPenetrates | kNormal | kContacts);
  Result r = answered(false);
  r.penetration = 0.5;
  EXPECT_EQ(judge(overlap_truth, r, depth, overlap).finding, Finding::MissingNormal);
  r.normal = std::array<double, 3>{1, 0, 0};
  EXPECT_EQ(judge(overlap_truth, r, depth, overlap).finding, Finding::MissingContacts);
  r.contacts = Points{{{1, 0.25, 0}, {0.5, 0.25, 0}}};
  EXPECT_EQ(judge(overlap_truth, r, depth, overlap).finding, Finding::None);
  // Touching, depth 0 or within the band (5.7e−14 here): no direction is required.
  const casefile::Case contact = squares(0);
  Result touching = answered(false);
  for (double d : {0.0, 1e-14}) {
    touching.penetration = d;
    EXPECT_EQ(judge(oracle::hull_oracle(contact), touching, depth, contact).finding, Finding::None) << d;
  }
}

// The certified mode promises the depth correctly rounded, as it does the distance: one ulp off is refused from it,
// and allowed from an exact implementation (which may round its exact depth another way). The judge held the certified
// depth to ε·PD only, though impl/implementations.cpp said bit for bit.
TEST(Judge, TheCertifiedDepthIsJudgedBitForBit) {
  const casefile::Case c = squares(-0.5);
  const oracle::Answer truth = oracle::hull_oracle(c);
  Result r = answered(false);
  r.penetration = std::nextafter(0.5, 1.0);
  Info certified = info_of("certified", kDecides | kMeasures | kPenetrates);
  Info exact = info_of("exact", kDecides | kMeasures | kPenetrates);
  EXPECT_EQ(judge(truth, r, certified, c).finding, Finding::DepthOutsideContract);
  EXPECT_EQ(judge(truth, r, exact, c).finding, Finding::None);
  r.penetration = 0.5;
  EXPECT_EQ(judge(truth, r, certified, c).finding, Finding::None);
}

// Beyond the hull method's reach the depth is the certified reference's, and its optimal facet lists, as the hull
// method's do (docs/output-formats.md, `optimal_facets`), every point of A and of B on the facet's supporting planes:
// here a face of 33 × 33 points on each box. The cause it pins: the facet's witness features taken from the
// certificate's nearest triangle (3 points at most) rather than from the plane. What does not matter: the grids' size
// beyond the reach (1,093 + 1,093 points: 1,194,649 pairs), B's far corners.
TEST(Judge, BeyondTheHullsReachTheOptimalFacetListsEveryPointOnItsPlanes) {
  casefile::Case c;
  c.name = "gridded-faces";
  c.dim = 3;
  for (int i = 0; i <= 32; ++i)
    for (int j = 0; j <= 32; ++j) {
      c.a.points.push_back({1, -1 + i / 16.0, -1 + j / 16.0});       // A = [−1, 1]³: its face x = 1
      c.b.points.push_back({0.5, -0.5 + i / 32.0, -0.5 + j / 32.0});  // B = [½, 5/2] × [−½, ½]²: its face x = ½
    }
  for (const double y : {-1.0, 1.0})
    for (const double z : {-1.0, 1.0}) {
      c.a.points.push_back({-1, y, z});
      c.b.points.push_back({2.5, y / 2, z / 2});
    }
  ASSERT_FALSE(within_hull_reach(c));
  const Truth t(c, oracle::fast_oracle(c));
  ASSERT_EQ(t.answer().verdict, oracle::Verdict::Overlapping);
  const oracle::Penetration& p = t.penetration();
  EXPECT_EQ(p.method, oracle::Method::Certified);
  EXPECT_EQ(p.squared_depth, mpq_class(1, 4));  // B leaves A along +x by ½; along y or z it would move 3/2
  ASSERT_EQ(p.optimal.size(), 1u);
  const oracle::ExactPoint& n = p.optimal[0].normal;
  EXPECT_TRUE(sgn(n[0]) > 0 && sgn(n[1]) == 0 && sgn(n[2]) == 0) << "the normal is not along +x";
  std::vector<std::size_t> on_a, on_b;
  for (std::size_t k = 0; k < c.a.points.size(); ++k) {
    if (c.a.points[k][0] == 1) on_a.push_back(k);
    if (c.b.points[k][0] == 0.5) on_b.push_back(k);
  }
  EXPECT_EQ(on_a.size(), 33u * 33u);
  EXPECT_EQ(p.optimal[0].on_a, on_a);
  EXPECT_EQ(p.optimal[0].on_b, on_b);
}

// Rotations with rational entries, from integer quaternions (w, x, y, z): R = (the usual quadratic form)/|q|².
constexpr int kQuaternions[][4] = {{1, 2, 3, 4}, {5, 1, -2, 3}, {2, -1, 1, 7}, {3, 4, -5, 1}};

// A = [−K, K]³ and B = [K − δ, K − δ + 1] × [−½, ½]², K = 1024, δ = 10⁻³, both rotated by q (and rounded): B enters
// A's +x face by about δ.
std::array<double, 3> rotate(const int (&q)[4], std::array<double, 3> p) {
  const double w = q[0], x = q[1], y = q[2], z = q[3], n = w * w + x * x + y * y + z * z;
  const double rot[3][3] = {{w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)},
                            {2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)},
                            {2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z}};
  std::array<double, 3> out{};
  for (int i = 0; i < 3; ++i) out[i] = (rot[i][0] * p[0] + rot[i][1] * p[1] + rot[i][2] * p[2]) / n;
  return out;
}

casefile::Case rotated_shallow_box(const int (&q)[4]) {
  constexpr double kHalfSide = 1024, kDepth = 1e-3;
  const auto rotated = [&q](std::array<double, 3> p) { return rotate(q, p); };
  casefile::Case c;
  c.name = "rotated-shallow-box";
  c.dim = 3;
  for (int i = 0; i < 8; ++i) {
    const double sx = (i & 1) ? 1 : -1, sy = (i & 2) ? 1 : -1, sz = (i & 4) ? 1 : -1;
    c.a.points.push_back(rotated({sx * kHalfSide, sy * kHalfSide, sz * kHalfSide}));
    c.b.points.push_back(rotated({kHalfSide - kDepth + (sx + 1) / 2, sy / 2, sz / 2}));
  }
  return c;
}

// The exact normal of a rotated face, each coordinate rounded, tilts by up to ε and has a directional depth excess of
// about ε times the size of A⊖B's face — far above ε·PD on a shallow overlap of a large box. The judge allows an
// exact implementation that rounding (Allowances::of_normal), and nothing much more: a normal tilted by 2^10·ε is
// refused. The certified reference's normal is judged on these cases too.
TEST(Judge, AnExactNormalRoundedToDoubleIsWithinTheContract) {
  const auto refs = reference_implementations();
  const auto certified = std::find_if(refs.begin(), refs.end(),
                                      [](const auto& r) { return r->info().name == "reference-certified"; });
  ASSERT_NE(certified, refs.end());
  int needed_the_rounding_term = 0;
  for (const auto& q : kQuaternions) {
    const casefile::Case c = rotated_shallow_box(q);
    const oracle::Answer truth = oracle::hull_oracle(c);
    ASSERT_EQ(truth.verdict, oracle::Verdict::Overlapping);
    const Truth t(c, truth);
    const Result r = (*certified)->run(c);
    ASSERT_TRUE(r.normal);
    const Judged j = judge(t, r, (*certified)->info());
    EXPECT_EQ(j.finding, Finding::None) << "quaternion " << q[0] << " " << q[1] << " " << q[2] << " " << q[3];
    ASSERT_TRUE(j.normal_error);
    const double pd = t.penetration().depth;
    if (*j.normal_error > std::numeric_limits<double>::epsilon() * pd) ++needed_the_rounding_term;
    // Tilted across the face by 2^10·ε (towards A's rotated y axis): refused.
    Result tilted = r;
    const auto y_axis = rotate(q, {0, 1, 0});
    for (int k = 0; k < 3; ++k) (*tilted.normal)[k] += 0x1p-42 * y_axis[k];
    EXPECT_EQ(judge(t, tilted, (*certified)->info()).finding, Finding::NormalOutsideContract);
  }
  EXPECT_GT(needed_the_rounding_term, 0);  // else these cases would not test the allowance
}

// The same for a long double implementation, whose normal reaches the judge rounded to double too: the rounding's
// tilt, about ε_double times the size of A⊖B's face, is far beyond long double's own allowance (128·ε_ld·M), and the
// judge allows it as for exact normals. The normal is the reference's long double EPA's (gjkref::penetration), rounded
// to double as a long double library would report it; without the term, some of these is refused.
TEST(Judge, ALongDoubleNormalRoundedToDoubleIsWithinTheContract) {
  const Info long_double = info_of("long double", kDecides | kPenetrates | kNormal);
  int needed_the_rounding_term = 0;
  for (const auto& q : kQuaternions) {
    const casefile::Case c = rotated_shallow_box(q);
    std::vector<Vec3<long double>> la, lb;
    std::vector<Vec3<double>> pa, pb;
    for (const auto& p : c.a.points) la.push_back({p[0], p[1], p[2]}), pa.push_back({p[0], p[1], p[2]});
    for (const auto& p : c.b.points) lb.push_back({p[0], p[1], p[2]}), pb.push_back({p[0], p[1], p[2]});
    const oracle::Answer truth = oracle::hull_oracle(c);
    ASSERT_EQ(truth.verdict, oracle::Verdict::Overlapping);
    const Truth t(c, truth);
    const Penetration<Vec3<long double>> p =
        penetration(ConvexPoints<Vec3<long double>>(la), ConvexPoints<Vec3<long double>>(lb));
    ASSERT_EQ(p.status, PenetrationStatus::Penetrating);
    Result r = answered(false);
    r.penetration = p.depth();
    std::array<double, 3> normal{};
    for (int k = 0; k < 3; ++k) normal[k] = static_cast<double>(p.normal[k]);  // EPA's frame keeps it near 1
    r.normal = normal;
    const Judged j = judge(t, r, long_double);
    EXPECT_EQ(j.finding, Finding::None) << "quaternion " << q[0] << " " << q[1] << " " << q[2] << " " << q[3];
    ASSERT_TRUE(j.normal_error);
    const ConvexPoints<Vec3<double>> sa(pa), sb(pb);
    const double own = gjkref::distance_allowance(t.penetration().depth, std::numeric_limits<long double>::epsilon(),
                                                  gjkref::input_scale(sa, sb), gjkref::largest_coordinate(sa, sb), 3,
                                                  false);
    if (*j.normal_error > own) ++needed_the_rounding_term;
  }
  EXPECT_GT(needed_the_rounding_term, 0);  // else these cases would not test the allowance
}

// A normal rounded to double tilts by at most ε, and the directional depth by at most ε times the size of A⊖B — not
// times the shapes' distance from the origin. Two unit squares overlapping by ½ along x at x ≈ 2^30 (A⊖B of size 2,
// far from nothing): the certified normal (1, 0) passes; (1, 5·10⁻⁷), whose directional depth is 5·10⁻⁷ too deep,
// is refused from an exact or certified implementation. The allowance once took the largest coordinate (2^30) for the
// size, and let it through (2·√2·ε·2^30 ≈ 6.7·10⁻⁷).
TEST(Judge, ANormalsRoundingAllowanceIsTheDifferencesSizeNotItsPosition) {
  casefile::Case c = square_pair(2, 0, {0.5, 0, 0});
  for (auto* shape : {&c.a, &c.b})
    for (auto& p : shape->points) p[0] += 0x1p30;
  const oracle::Answer truth = oracle::hull_oracle(c);
  ASSERT_EQ(truth.verdict, oracle::Verdict::Overlapping);
  const Truth t(c, truth);
  ASSERT_EQ(t.penetration().depth, 0.5);
  for (const char* scalar : {"certified", "exact"}) {
    const Info info = info_of(scalar, kDecides | kMeasures | kPenetrates | kNormal);
    Result r = answered(false);
    r.penetration = 0.5;
    r.normal = std::array<double, 3>{1, 0, 0};
    EXPECT_EQ(judge(t, r, info).finding, Finding::None) << scalar;
    r.normal = std::array<double, 3>{1, 5e-7, 0};
    EXPECT_EQ(judge(t, r, info).finding, Finding::NormalOutsideContract) << scalar;
  }
}

// The range clause: float on 2^200 input, double on subnormal-scale input, are not judged; a crash there still is.
TEST(Judge, InputOutsideTheContractsRangeIsNotJudged) {
  casefile::Case huge = squares(1);
  for (auto* s : {&huge.a, &huge.b})
    for (auto& p : s->points)
      for (double& x : p) x = std::ldexp(x, 200);
  const oracle::Answer truth = oracle::hull_oracle(huge);
  Result invalid;
  invalid.status = Status::InvalidInput;
  const Judged j = judge(truth, invalid, info_of("float"), huge);
  EXPECT_FALSE(j.judged);
  EXPECT_FALSE(j.disagrees());
  EXPECT_TRUE(judge(truth, answered(true, 1.0), info_of("double"), huge).disagrees());  // 2^200: double's range
  Result crashed;
  crashed.status = Status::Crashed;
  EXPECT_TRUE(judge(truth, crashed, info_of("float"), huge).disagrees());
  // A NaN is never an answer, in range or not (it was "not judged" here); an infinite distance is judged no more than
  // any other number out of range.
  EXPECT_EQ(judge(truth, answered(true, std::nan("")), info_of("float"), huge).finding, Finding::NonFiniteNumber);
  EXPECT_FALSE(judge(truth, answered(true, std::numeric_limits<double>::infinity()), info_of("float"), huge).judged);
  casefile::Case tiny = squares(1);
  for (auto* s : {&tiny.a, &tiny.b})
    for (auto& p : s->points)
      for (double& x : p) x = std::ldexp(x, -1070);
  EXPECT_FALSE(judge(oracle::hull_oracle(tiny), answered(true, 0.0), info_of("double"), tiny).judged);
}

// The range clause is on the input's scale, and on each coordinate only as far as the contract's "normal range" goes: a
// coordinate of 10⁻²⁰⁰ beside unit squares (double) or of 10⁻³⁵ (float) leaves the case judged, and a wrong answer
// there refused; a coordinate subnormal in the implementation's scalar (10⁻⁴⁰ in float) does not. Before, one
// coordinate below 2^−500 (2^−100 in float) anywhere made the whole case unjudged. What does not matter: which point
// holds it.
TEST(Judge, TinyCoordinatesBesideAJudgedScaleAreJudged) {
  casefile::Case c = squares(3);  // [0,1]² and [4,5]×[0,1]: d = 3
  c.b.points[0][1] = 1e-200;
  const oracle::Answer truth = oracle::hull_oracle(c);
  ASSERT_EQ(truth.verdict, oracle::Verdict::Separated);
  EXPECT_TRUE(judge(truth, answered(true, 3.0), info_of("double"), c).judged);
  EXPECT_FALSE(judge(truth, answered(true, 3.0), info_of("double"), c).disagrees());
  EXPECT_EQ(judge(truth, answered(false), info_of("double"), c).finding, Finding::IntersectingWhileSeparated);
  EXPECT_TRUE(judge(truth, answered(false), info_of("double"), c).disagrees());
  c.b.points[0][1] = 1e-35;  // normal in float, below 2^−100
  const oracle::Answer float_truth = oracle::hull_oracle(c);
  EXPECT_TRUE(judge(float_truth, answered(true, 3.0), info_of("float"), c).judged);
  EXPECT_FALSE(judge(float_truth, answered(true, 3.0), info_of("float"), c).disagrees());
  EXPECT_TRUE(judge(float_truth, answered(false), info_of("float"), c).disagrees());
  c.b.points[0][1] = 1e-40;  // subnormal in float: outside float's range, judged in double
  const oracle::Answer subnormal_truth = oracle::hull_oracle(c);
  EXPECT_FALSE(judge(subnormal_truth, answered(false), info_of("float"), c).judged);
  EXPECT_TRUE(judge(subnormal_truth, answered(false), info_of("double"), c).disagrees());
  c.b.points[0][1] = 1e-320;  // subnormal in double: outside double's range, judged in long double
  const oracle::Answer double_subnormal_truth = oracle::hull_oracle(c);
  EXPECT_FALSE(judge(double_subnormal_truth, answered(false), info_of("double"), c).judged);
  EXPECT_TRUE(judge(double_subnormal_truth, answered(false), info_of("long double"), c).disagrees());
}

// The exact and certified references on input at the ends of double's range: coordinates near ±2^1023 (the witnesses'
// difference and its square overflow in doubles), near 2^−997 (the squares underflow), and subnormal (the exact
// witnesses round to 0, and the relative allowances ε·r and ε·d vanish). Their answers are exactly right, rounded once;
// the judge measured |a − b| in doubles and flagged every one of them as witness-outside-contract. Now the gap is a
// rational and the allowances of an exact implementation carry the least subnormal (kRoundingFloor). What does not
// matter: the shapes (the smallest that reach each regime). Wrong witnesses there are still refused.
TEST(Judge, ExactAnswersAtTheEndsOfTheRangeAreWithinTheContract) {
  const auto refs = reference_implementations();
  const auto find = [&refs](const char* name) -> Implementation* {
    const auto it = std::find_if(refs.begin(), refs.end(), [&](const auto& r) { return r->info().name == name; });
    return it == refs.end() ? nullptr : it->get();
  };
  ASSERT_NE(find("reference-exact"), nullptr);
  ASSERT_NE(find("reference-certified"), nullptr);
  const auto named = [&find](const char* name) -> Implementation& { return *find(name); };
  const double big = 0x1.8p1022, small = 0x1p-997, least = std::numeric_limits<double>::denorm_min();
  casefile::Case huge, tiny, subnormal;
  huge.dim = 3, huge.name = "huge";
  huge.a.points = {{big, 0, 0}, {-big, 0, 0}};
  huge.b.points = {{0, big, 0}};
  tiny.dim = 2, tiny.name = "tiny";
  tiny.a.points = {{small, 0, 0}};
  tiny.b.points = {{0, small, 0}};
  subnormal.dim = 3, subnormal.name = "subnormal";
  subnormal.a.points = {{least, 0, 0}, {0, least, 0}, {0, 0, least}};
  subnormal.b.points = {{0, 0, 0}};
  for (const casefile::Case* c : {&huge, &tiny, &subnormal}) {
    const Truth t(*c, oracle::hull_oracle(*c));
    ASSERT_EQ(t.answer().verdict, oracle::Verdict::Separated) << c->name;
    for (const char* name : {"reference-exact", "reference-certified"}) {
      Implementation& impl = named(name);
      const Result r = impl.run(*c);
      ASSERT_TRUE(r.witnesses) << c->name << " " << name;
      const Judged j = judge(t, r, impl.info());
      EXPECT_TRUE(j.judged) << c->name << " " << name;
      EXPECT_EQ(j.finding, Finding::None) << c->name << " " << name;
    }
  }
  // Witnesses on their hulls, but not the closest pair: a gap of √2·big, not big.
  Result far = named("reference-exact").run(huge);
  far.witnesses = std::array<std::array<double, 3>, 2>{{{big, 0, 0}, {0, big, 0}}};
  EXPECT_EQ(judge(Truth(huge, oracle::hull_oracle(huge)), far, named("reference-exact").info()).finding,
            Finding::WitnessOutsideContract);
  // A witness 2^−40 of the scale off its hull (a single point).
  Result off = named("reference-exact").run(tiny);
  (*off.witnesses)[0][0] *= 1 + 0x1p-40;
  EXPECT_EQ(judge(Truth(tiny, oracle::hull_oracle(tiny)), off, named("reference-exact").info()).finding,
            Finding::WitnessOutsideContract);
  // Fifteen least subnormals off the triangle (its nearest point is the vertex (0, 0, least)).
  Result beyond = named("reference-exact").run(subnormal);
  (*beyond.witnesses)[0] = {0, 0, 16 * least};
  EXPECT_EQ(judge(Truth(subnormal, oracle::hull_oracle(subnormal)), beyond, named("reference-exact").info()).finding,
            Finding::WitnessOutsideContract);
}

// Points near ±2^1023 on both sides: a − b leaves double's range. Far apart, the true distance (3·2^1023) is beyond it
// too, and its correct rounding to double is +∞; close (distance 2, along y), only the differences are. The judge
// computed the input scale M in double (+∞), and with it a verdict band of +∞, which it took as a rational: GMP raised
// SIGFPE, and `gjkref eval` lost the case ("internal-error"). It also refused the exact and certified references' +∞,
// the oracle's own rounding, as a non-finite number. Now a floating answer with allowances of +∞ is not judged (the
// overflow twin of the underflow rule), +∞ is a finding only where the truth rounds to a finite double, and every
// double the judge takes as a rational is finite. What does not matter: which of A's points is far from the others.
TEST(Judge, AnswersBeyondDoublesRangeNeitherCrashNorPass) {
  const auto refs = reference_implementations();
  const double big = 0x1.8p1023;
  casefile::Case far, close;
  far.dim = close.dim = 3;
  far.name = "far", close.name = "close";
  far.a.points = {{big, 0, 0}, {big, 1, 0}};
  far.b.points = {{-big, 0, 0}};
  close.a.points = {{big, 0, 0}, {-big, 1, 0}};
  close.b.points = {{-big, -1, 0}};
  const Truth far_truth(far, oracle::hull_oracle(far)), close_truth(close, oracle::hull_oracle(close));
  ASSERT_TRUE(std::isinf(far_truth.answer().distance));
  ASSERT_EQ(close_truth.answer().distance, 2.0);
  // A = B = the cube [−big, big]³, overlapping by PD = 2·big = 3·2^1023, beyond double's range: the certified
  // reference's depth is +∞, the oracle's rounding.
  casefile::Case deep;
  deep.dim = 3, deep.name = "deep";
  for (int i = 0; i < 8; ++i)
    deep.a.points.push_back({(i & 1) ? big : -big, (i & 2) ? big : -big, (i & 4) ? big : -big});
  deep.b.points = deep.a.points;
  const Truth deep_truth(deep, oracle::hull_oracle(deep));
  ASSERT_TRUE(std::isinf(deep_truth.penetration().depth));
  int checked = 0;
  for (const auto& impl : refs) {
    const std::string name = impl->info().name;
    if (name != "reference-exact" && name != "reference-certified") continue;
    ++checked;
    for (const Truth* t : {&far_truth, &close_truth, &deep_truth}) {
      const Result r = impl->run(t->the_case());
      const Judged j = judge(*t, r, impl->info());
      EXPECT_TRUE(j.judged) << name << " " << t->the_case().name;
      EXPECT_EQ(j.finding, Finding::None) << name << " " << t->the_case().name;
    }
  }
  EXPECT_EQ(checked, 2);
  // A long double answer: its allowances are +∞, so it is not judged, whatever verdict or distance it gives
  // (intersecting is wrong); a NaN or a crash would still be a finding.
  for (const Truth* t : {&far_truth, &close_truth}) {
    const Judged j = judge(*t, answered(false), info_of("long double"));
    EXPECT_FALSE(j.judged) << t->the_case().name;
    EXPECT_NE(j.not_judged.find("overflow"), std::string::npos) << j.not_judged;
  }
  // Exact answers are judged there: a wrong verdict, and a finite distance where the truth is beyond double's range.
  EXPECT_EQ(judge(far_truth, answered(false), info_of("exact")).finding, Finding::IntersectingWhileSeparated);
  EXPECT_EQ(judge(close_truth, answered(false), info_of("exact")).finding, Finding::IntersectingWhileSeparated);
  EXPECT_EQ(judge(far_truth, answered(true, std::numeric_limits<double>::max()), info_of("exact")).finding,
            Finding::DistanceOutsideContract);
  EXPECT_EQ(judge(far_truth, answered(true, std::numeric_limits<double>::infinity()), info_of("exact")).finding,
            Finding::None);
  EXPECT_EQ(judge(close_truth, answered(true, std::numeric_limits<double>::infinity()), info_of("exact")).finding,
            Finding::NonFiniteNumber);
  // Points ±2^1023: the true distance 2^1024 rounds to +∞, and |−max| is within the allowance of it; the sign is not.
  casefile::Case edge;
  edge.dim = 3, edge.name = "edge";
  edge.a.points = {{0x1p1023, 0, 0}};
  edge.b.points = {{-0x1p1023, 0, 0}};
  const Truth edge_truth(edge, oracle::hull_oracle(edge));
  EXPECT_EQ(judge(edge_truth, answered(true, std::numeric_limits<double>::max()), info_of("exact")).finding,
            Finding::None);
  EXPECT_EQ(judge(edge_truth, answered(true, -std::numeric_limits<double>::max()), info_of("exact")).finding,
            Finding::DistanceOutsideContract);
  // Differences beyond double's range (M = +∞) and a shallow overlap, PD = 1/2 along +y: an exact implementation's
  // normal is still judged (its allowance was +∞: any normal passed). It is large, as the shapes are wide: a normal's
  // rounding to double may tilt it by ε, and the directional depth then moves by up to ε·2r ≈ 10^293 (so that even
  // (0, −1), 1 deeper, is within it); (1, 0) and (1, 1) are about 2r deeper.
  {
    casefile::Case wide;
    wide.dim = 2, wide.name = "wide";
    wide.a.points = {{-big, 0, 0}, {big, 0, 0}, {big, 1, 0}, {-big, 1, 0}};
    for (const auto& p : wide.a.points) wide.b.points.push_back({p[0], p[1] + 0.5, 0});
    const Truth wide_truth(wide, oracle::hull_oracle(wide));
    ASSERT_EQ(wide_truth.penetration().squared_depth, mpq_class(1, 4));
    const Info exact_normal = info_of("exact", kDecides | kPenetrates | kNormal);
    for (const auto& [normal, finding] :
         {std::pair{std::array<double, 3>{0, 1, 0}, Finding::None},
          std::pair{std::array<double, 3>{1, 0, 0}, Finding::NormalOutsideContract},
          std::pair{std::array<double, 3>{1, 1, 0}, Finding::NormalOutsideContract}}) {
      Result r = answered(false);
      r.penetration = 0.5;
      r.normal = normal;
      const Judged j = judge(wide_truth, r, exact_normal);
      EXPECT_EQ(j.finding, finding) << normal[0] << " " << normal[1];
      EXPECT_TRUE(!j.normal_error || std::isfinite(*j.normal_error));
    }
  }
  // Depths beyond double's range: +∞ is the truth's rounding; a finite one far below it, or a negative one, is not.
  Info depth = info_of("exact", kDecides | kMeasures | kPenetrates);
  for (const double reported : {std::numeric_limits<double>::infinity(), 1.0, -5.0}) {
    Result r = answered(false);
    r.penetration = reported;
    EXPECT_EQ(judge(deep_truth, r, depth).finding,
              std::isinf(reported) ? Finding::None : Finding::DepthOutsideContract) << reported;
  }
}

}  // namespace judging
}  // namespace
}  // namespace gjkref::impl
