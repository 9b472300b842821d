// gjkref/implementations.hpp — one interface over every implementation gjkref compares (docs/comparing.md): the
// reference in each scalar mode (in process), the built-in adapters of libccd, FCL, Bullet, Box2D, Chipmunk2D and
// Boost.Geometry, and users' plugins (gjkref/plugin.h). Adapters and plugins run in worker processes with a time limit per query, so a crash, an
// abort or a hang is a result like any other, and the caller carries on.
#pragma once

#include <gmpxx.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gjkref/casefile.hpp"

namespace gjkref::impl {

// What an implementation can answer (the plugin ABI's GJKREF_CAN_* bits).
enum Capability : unsigned { kDecides = 1, kMeasures = 2, kWitnesses = 4, kPenetrates = 8, kNormal = 16, kContacts = 32 };

struct Info {
  std::string name;     // unique: "reference-double", "libccd-gjk", ...
  std::string version;  // of the code under test
  std::string scalar;   // "float", "double", "long double", "exact", "certified" (exact answers for double input)
  bool in_2d = false, in_3d = false;
  unsigned capabilities = 0;
  std::string source;  // "built in", or the plugin's path

  bool answers(int dim) const { return dim == 2 ? in_2d : in_3d; }
  bool can(Capability c) const { return (capabilities & c) != 0; }
  // The scalar's machine epsilon (0 for exact), which scales the contract's allowances (docs/contract.md); nullopt
  // for a scalar gjkref does not know, which no implementation may declare (a plugin that does is refused when it is
  // listed).
  std::optional<double> epsilon() const;
  // Did the implementation round the double input to a narrower scalar (float)?
  bool rounds_input() const { return scalar == "float"; }
};

enum class Status {
  Answered,      // a verdict (and whatever else the implementation measures)
  Failed,        // the implementation said it failed: an iteration limit, a degenerate simplex, ...
  Threw,         // an exception escaped it
  Crashed,       // its worker process died: a signal (an abort, a segmentation fault) or an exit
  Hung,          // no answer within the time limit; its worker was killed
  InvalidInput,  // the input has an empty shape or a non-finite coordinate (the reference's status; plugins are not
                 // called on such input)
  Refused,       // the implementation refused input outside what its API accepts (GJKREF_REFUSED; `detail` says why)
  Unsupported    // the implementation does not answer in this dimension
};
const char* to_string(Status s);

struct Result {
  Status status = Status::Unsupported;
  bool separated = false;            // the verdict, when Answered
  std::optional<double> distance;    // when the implementation measures and says separated
  std::optional<std::array<std::array<double, 3>, 2>> witnesses;  // closest points on A and on B
  std::optional<double> penetration;                            // depth, when it says intersecting and measures it
  std::optional<std::array<double, 3>> normal;                  // the direction to move B (from A into B), any length
  std::optional<std::array<std::array<double, 3>, 2>> contacts;  // contact points on A and on B (a − b = depth·n̂)
  std::optional<mpq_class> exact_squared_distance;              // the exact and certified reference only
  // "separated", "touching" or "overlapping", from implementations that tell touching from overlapping (the certified
  // reference); judged against the oracle's class.
  std::optional<std::string> contact_class;
  std::string detail;                // the stop rule, the failure, the signal, the exception's text, the stderr tail
  double seconds = 0;                // time inside the implementation's call
  // A NaN or infinite distance, witness or depth in an answer: reported as a finding of its own.
  bool has_non_finite_number() const;
  bool has_nan() const;  // a NaN anywhere in the reported numbers: never a result, on any input
  template <class Bad>
  bool any_number(const Bad& bad) const;  // does `bad` hold for any reported number?
};

class Implementation {
 public:
  virtual ~Implementation() = default;
  virtual const Info& info() const = 0;
  virtual Result run(const casefile::Case& c) = 0;
};

// The reference in float, double, long double and exact arithmetic, called in process.
std::vector<std::unique_ptr<Implementation>> reference_implementations();

// The time one query of a worker may take before it is killed and reported as a hang.
// Far above the slowest answer measured (FCL's signed distance with EPA, 64 points a shape: well under 10 ms): a
// query that takes this long is not coming back.
inline constexpr double kDefaultQueryTimeLimitSeconds = 5;

// The address space a worker may use (RLIMIT_AS), in MiB; 0 for none. A plugin that needs more fails to allocate
// (a std::bad_alloc, or a null pointer) in its worker, and that query is its result (threw or crashed), with the limit
// named; gjkref and the other workers go on. 8 GiB: far above what any built-in implementation needs on the largest
// cases gjkref generates (a few MiB), and a third of the 24 GiB machine, so that two jobs' workers cannot exhaust it.
// Not applied under AddressSanitizer, whose shadow memory reserves terabytes of address space. Pinned by
// Isolation.AWorkerPastItsMemoryLimitFailsAlone.
inline constexpr std::uint64_t kDefaultWorkerMemoryLimitMiB = 8192;

// The time a worker may take to load its library (dlopen, the library's static initialisers, its list of
// implementations) before it is killed; the query time limit applies when it is larger. Loading is not a query: a
// small --time-limit aimed at queries must not fail a library that loads in a few milliseconds more (FCL's takes
// about 10 ms, the slowest of the built-in ones). 10 s is a thousand times that, on a machine as busy as you like:
// a library that has not loaded by then is hung in its initialisers.
inline constexpr double kDefaultLoadTimeLimitSeconds = 10;

// What a worker may use: the time of one query, its address space, and the time to load its library.
struct WorkerLimits {
  double seconds = kDefaultQueryTimeLimitSeconds;
  std::uint64_t memory_mib = kDefaultWorkerMemoryLimitMiB;
  double load_seconds = kDefaultLoadTimeLimitSeconds;  // at least `seconds` in effect
  WorkerLimits() = default;
  WorkerLimits(double query_seconds) : seconds(query_seconds) {}  // a time limit alone: the default memory limit
  WorkerLimits(double query_seconds, std::uint64_t mib) : seconds(query_seconds), memory_mib(mib) {}
};

// How loading a plugin library ended.
enum class LoadStatus {
  Loaded,
  NotStarted,  // no worker could be started for it (no pipes, no fork)
  Refused,     // it cannot be opened, exports no gjkref_plugin_implementations, or declares what gjkref cannot use
  Died,        // its worker died while loading it (a crash in the library's initialisers, an exit)
  TimedOut,    // its worker had not loaded it within the load time limit (WorkerLimits::load_seconds); killed
};
const char* to_string(LoadStatus s);

// The implementations of one or more plugin libraries, or why they did not load. On failure the status is the first
// library's that failed, and `error` names each library that failed and says why.
struct PluginLoad {
  LoadStatus status = LoadStatus::Loaded;
  std::string error;
  std::vector<std::unique_ptr<Implementation>> implementations;
};

// Every implementation of the plugin library at `path`, each to run in a worker process of its own.
PluginLoad open_plugin(const std::string& path, WorkerLimits limits = {});

// The same, with the reason for a failure in `error` alone (an empty list then).
std::vector<std::unique_ptr<Implementation>> load_plugin(const std::string& path, std::string& error,
                                                         WorkerLimits limits = {});

// The reference's modes, then every built-in adapter (the plugins built beside gjkref: libccd, FCL, Bullet in float
// and double, Box2D). A built-in plugin that fails to load is an error, since the build made it.
PluginLoad open_builtin_implementations(WorkerLimits limits = {});

// The same, with the reason for a failure in `error` alone.
std::vector<std::unique_ptr<Implementation>> builtin_implementations(std::string& error, WorkerLimits limits = {});

// Where the built-in plugins are: $GJKREF_PLUGIN_DIR if set, else the build's impl/ directory, or, when that does not
// exist (the program was copied away from its build), gjkref-plugins/ beside the program.
std::string builtin_plugin_directory();

// `text` as valid UTF-8: every byte that does not begin a well-formed sequence becomes U+FFFD (worker.cpp).
std::string as_utf8(const std::string& text);

}  // namespace gjkref::impl
