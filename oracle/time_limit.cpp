// The time bound on oracle calls (gjkref/oracle.hpp): one watchdog thread, started on first use, waits for the earliest
// deadline among the armed calls; when one passes, it reports the call's case and aborts the process.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "gjkref/oracle.hpp"

namespace gjkref::oracle {
namespace {

using Clock = std::chrono::steady_clock;

struct Armed {
  Clock::time_point deadline;
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
    const auto limit = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(time_limit()));
    std::lock_guard lock(mutex_);
    const unsigned long long id = next_id_++;
    armed_[id] = {Clock::now() + limit, &c, method};
    if (!thread_.joinable()) thread_ = std::thread([this] { watch(); });
    wake_.notify_one();
    return id;
  }

  void disarm(unsigned long long id) {
    std::lock_guard lock(mutex_);
    armed_.erase(id);
  }

 private:
  void watch() {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (armed_.empty()) {
        wake_.wait(lock);
        continue;
      }
      auto earliest = armed_.begin();
      for (auto it = armed_.begin(); it != armed_.end(); ++it)
        if (it->second.deadline < earliest->second.deadline) earliest = it;
      // A copy: wait_until reads its deadline after waking, and the entry may be erased (disarmed) meanwhile.
      const Clock::time_point deadline = earliest->second.deadline;
      if (Clock::now() < deadline) {
        wake_.wait_until(lock, deadline);
        continue;
      }
      report(earliest->second);
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
                 "gjkref oracle: %s exceeded its time limit of %g s on case '%s' (saved to %s):\n%s\n"
                 "gjkref oracle: aborting; replay with: gjkref eval %s\n",
                 a.method, time_limit(), a.c->name.c_str(), file.c_str(), text.c_str(), file.c_str());
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
