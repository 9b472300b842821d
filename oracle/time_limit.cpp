// The time bound on oracle calls (gjkref/oracle.hpp): one watchdog thread, started on first use, watches the CPU time
// of every thread with an armed call; when one has used more than the limit, it runs the action set by
// on_time_limit() (the default reports the call and its case) and ends the process: a CGAL call cannot be stopped from
// outside, so the process that runs it is what ends, and a supervisor (gjkref check's shards, gjkref eval's cases)
// records the case and carries on. CPU time, not wall time: a process that is paused (SIGSTOP), starved by other work
// or frozen with its machine uses none, and must not be reported as a hang (a property campaign, paused or frozen,
// once was).
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <new>
#include <thread>

#include "gjkref/oracle.hpp"

namespace gjkref::oracle {
namespace {

// Seconds of CPU time used by the thread whose CPU-time clock this is.
double cpu_seconds(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

std::atomic<TimeLimitAction> g_action{nullptr};  // on_time_limit()

struct Armed {
  clockid_t clock;  // the calling thread's CPU-time clock
  double start;     // its reading when the call was armed
  double limit;     // seconds of CPU time
  const casefile::Case* c;
  const char* method;
};

class Watchdog {
 public:
  static Watchdog& instance() {
    static Watchdog* w = new Watchdog;  // never destroyed: the thread may outlive static destruction
    return *w;
  }

  unsigned long long arm(const casefile::Case& c, const char* method) {
    clockid_t clock{};
    pthread_getcpuclockid(pthread_self(), &clock);
    const double limit = time_limit();
    const double start = cpu_seconds(clock);
    std::lock_guard lock(mutex_);
    const unsigned long long id = next_id_++;
    armed_[id] = {clock, start, limit, &c, method};
    // Threads do not survive fork(): a child process (a campaign's shard, eval's per-case process) starts its own.
    if (watching_in_ != ::getpid()) {
      std::thread([this] { watch(); }).detach();  // it takes the mutex (held here) before it clears starting_
      starting_ = true;
      watching_in_ = ::getpid();
      return id;  // it looks at every armed call when it starts
    }
    // The watchdog wakes by itself no later than next_wake_. This call cannot pass its limit in CPU time before
    // `limit` seconds of wall time have passed, so only a watchdog asleep beyond that needs waking. With the limit
    // unchanged none is: an idle watchdog sleeps for one limit from when it last looked. Waking it costs a system call
    // and two context switches per call, which an oracle called per generated case pays thousands of times a second.
    if (next_wake_ > after(limit)) wake_.notify_one();
    return id;
  }

  void disarm(unsigned long long id) {
    std::lock_guard lock(mutex_);
    armed_.erase(id);
  }

 private:
  // A thread's CPU time advances no faster than the wall clock, so waiting (in wall time) for the least CPU time any
  // armed call has left never wakes after a limit has passed by more than the time it takes to wake. With nothing
  // armed it waits for one limit: a call armed meanwhile has at least that long before it can pass its own (arm()).
  void watch() {
    std::unique_lock lock(mutex_);
    starting_ = false;
    started_.notify_all();
    for (;;) {
      double least_left = time_limit();
      for (const auto& [id, a] : armed_) {
        const double left = a.limit - (cpu_seconds(a.clock) - a.start);
        if (left <= 0) report(a);
        least_left = std::min(least_left, left);
      }
      next_wake_ = after(least_left);
      wake_.wait_until(lock, next_wake_);
    }
  }

  [[noreturn]] static void report(const Armed& a) {
    if (const TimeLimitAction action = g_action.load()) {
      action(*a.c, a.method, a.limit);
      std::fflush(nullptr);
      std::_Exit(kTimeLimitExitStatus);
    }
    report_and_abort(*a.c, a.method, a.limit);
  }

  // The default action: one message naming the method, the limit and the case (its size, not its points: a case of
  // 100,000 points is megabytes); the case saved only where the user said ($GJKREF_FAILURE_DIR), under a name of its
  // own (the method and a hash of the case's text), so that two hangs never overwrite each other.
  [[noreturn]] static void report_and_abort(const casefile::Case& c, const char* method, double limit) {
    std::string saved = "not saved: set GJKREF_FAILURE_DIR to keep it";
    if (const char* dir_env = std::getenv("GJKREF_FAILURE_DIR"); dir_env && *dir_env) {
      const std::string text = casefile::write(c);
      std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a
      for (const unsigned char ch : text) hash = (hash ^ ch) * 0x100000001b3ULL;
      char hex[17];
      std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
      const std::filesystem::path file =
          std::filesystem::path(dir_env) / ("oracle-timeout-" + std::string(method) + "-" + hex + ".json");
      std::error_code ec;
      std::filesystem::create_directories(file.parent_path(), ec);
      std::ofstream out(file);
      out << text;
      out.close();
      saved = out ? "saved to " + file.string() + "; replay with: gjkref eval " + file.string()
                  : "could not be saved to " + file.string();
    }
    std::fprintf(stderr,
                 "gjkref oracle: %s exceeded its time limit of %g s of CPU time on case '%s' (%dD, %zu + %zu points; "
                 "%s); aborting\n",
                 method, limit, c.name.c_str(), c.dim, c.a.points.size(), c.b.points.size(), saved.c_str());
    std::abort();
  }

 public:
  // Threads do not survive fork(), and a mutex held by the watchdog at that moment would stay locked in the child:
  // the fork handlers take the mutex around fork(), and the child starts with no armed call and no watchdog. They
  // also wait until a watchdog thread just created has started: a thread still starting when the process forks can
  // leave a runtime's thread bookkeeping locked in the child (under AddressSanitizer the child's own watchdog then
  // never ran, in 16 of 300 runs of TimeLimit.AForkedChildHasItsOwnWatchdog under load).
  static void before_fork() {
    Watchdog& w = instance();
    std::unique_lock lock(w.mutex_);
    w.started_.wait(lock, [&w] { return !w.starting_; });
    lock.release();  // held across fork(); each side unlocks it after
  }
  static void after_fork_in_parent() { instance().mutex_.unlock(); }
  static void after_fork_in_child() {
    Watchdog& w = instance();
    w.armed_.clear();
    w.next_wake_ = Clock::time_point::max();
    w.watching_in_ = 0;  // a later process may be given a pid this one's ancestors had
    new (&w.wake_) std::condition_variable;  // the parent's watchdog, waiting on it, is not in the child
    new (&w.started_) std::condition_variable;
    w.mutex_.unlock();
  }

 private:
  using Clock = std::chrono::steady_clock;
  // The time `seconds` from now, a day at most (a limit may be set as large as a double goes; the watchdog then looks
  // once a day, which bounds every limit of a day or more as well as the limit would).
  static Clock::time_point after(double seconds) {
    // Within [1 ms, a day]: a limit of 0 or below (the library takes any) would make an idle watchdog spin, and NaN,
    // converted to the clock's integer ticks, is undefined.
    const double bounded = std::isnan(seconds) ? kLongestSleepSeconds : std::clamp(seconds, 1e-3, kLongestSleepSeconds);
    return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(bounded));
  }
  static constexpr double kLongestSleepSeconds = 86400;

  std::mutex mutex_;
  std::condition_variable wake_;
  Clock::time_point next_wake_ = Clock::time_point::max();  // when the watchdog looks again at the latest
  std::condition_variable started_;  // the watchdog thread has started (starting_ false)
  bool starting_ = false;            // a watchdog thread was created and has not yet started
  std::map<unsigned long long, Armed> armed_;
  unsigned long long next_id_ = 0;
  pid_t watching_in_ = 0;  // the process whose watchdog thread runs (0: none yet)
};

std::atomic<double> limit_seconds{kDefaultOracleTimeLimitSeconds};

[[maybe_unused]] const int g_fork_handlers_registered = [] {
  Watchdog::instance();
  return ::pthread_atfork(&Watchdog::before_fork, &Watchdog::after_fork_in_parent, &Watchdog::after_fork_in_child);
}();

}  // namespace

void set_time_limit(double seconds) { limit_seconds = seconds; }
void on_time_limit(TimeLimitAction action) { g_action = action; }
double time_limit() { return limit_seconds; }

TimeLimit::TimeLimit(const casefile::Case& c, const char* method) : id_(Watchdog::instance().arm(c, method)) {}
TimeLimit::~TimeLimit() { Watchdog::instance().disarm(id_); }

}  // namespace gjkref::oracle
