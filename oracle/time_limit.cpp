// The time bound on oracle calls (gjkref/oracle.hpp): one watchdog thread, started on first use, watches the CPU time
// of every thread with an armed call; when one has used more than the limit, it reports the call's case and aborts the
// process. CPU time, not wall time: a process that is paused (SIGSTOP), starved by other work or frozen with its
// machine uses none, and must not be reported as a hang (a property campaign, paused or frozen, once was).
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
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
    std::lock_guard lock(mutex_);
    const unsigned long long id = next_id_++;
    armed_[id] = {clock, cpu_seconds(clock), time_limit(), &c, method};
    if (!thread_.joinable()) thread_ = std::thread([this] { watch(); });
    wake_.notify_one();
    return id;
  }

  void disarm(unsigned long long id) {
    std::lock_guard lock(mutex_);
    armed_.erase(id);
  }

 private:
  // A thread's CPU time advances no faster than the wall clock, so waiting (in wall time) for the least CPU time any
  // armed call has left never wakes after a limit has passed by more than the time it takes to wake.
  void watch() {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (armed_.empty()) {
        wake_.wait(lock);
        continue;
      }
      double least_left = 0;
      bool first = true;
      for (const auto& [id, a] : armed_) {
        const double left = a.limit - (cpu_seconds(a.clock) - a.start);
        if (left <= 0) report(a);
        least_left = first ? left : std::min(least_left, left);
        first = false;
      }
      wake_.wait_for(lock, std::chrono::duration<double>(least_left));
    }
  }

  [[noreturn]] static void report(const Armed& a) {
    const std::string text = casefile::write(*a.c);
    const char* dir_env = std::getenv("GJKREF_FAILURE_DIR");
    const std::filesystem::path dir = dir_env ? dir_env : "gjkref-failures";
    const std::filesystem::path file = dir / ("oracle-timeout-" + std::string(a.method) + ".json");
    std::error_code ignored;
    std::filesystem::create_directories(dir, ignored);
    std::ofstream(file) << text;
    std::fprintf(stderr,
                 "gjkref oracle: %s exceeded its time limit of %g s of CPU time on case '%s' (saved to %s):\n%s\n"
                 "gjkref oracle: aborting; replay with: gjkref eval %s\n",
                 a.method, a.limit, a.c->name.c_str(), file.c_str(), text.c_str(), file.c_str());
    std::abort();
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<unsigned long long, Armed> armed_;
  unsigned long long next_id_ = 0;
  std::thread thread_;
};

std::atomic<double> limit_seconds{kDefaultOracleTimeLimitSeconds};

}  // namespace

void set_time_limit(double seconds) { limit_seconds = seconds; }
double time_limit() { return limit_seconds; }

TimeLimit::TimeLimit(const casefile::Case& c, const char* method) : id_(Watchdog::instance().arm(c, method)) {}
TimeLimit::~TimeLimit() { Watchdog::instance().disarm(id_); }

}  // namespace gjkref::oracle
