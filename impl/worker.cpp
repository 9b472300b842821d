// impl/worker.cpp — plugins in worker processes (gjkref/implementations.hpp, docs/comparing.md).
//
// A worker is a child forked from gjkref that loads one plugin library and serves one of its implementations. The
// two talk over pipes: the worker first sends the library's list of implementations, then answers queries, one at a
// time. Its stdout and stderr go to a third pipe, whose tail explains a crash (an assertion's message, say). The
// parent waits for each answer with a deadline: past it the worker is killed and the query reported as a hang; a
// worker that dies mid-query is reported as a crash with its signal. Either way the next query starts a new worker.
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "gjkref/implementations.hpp"
#include "gjkref/plugin.h"

// The sanitizers' hook for a fatal error, when gjkref runs under one (libFuzzer sets it to save its current input).
extern "C" __attribute__((weak)) void __sanitizer_set_death_callback(void (*callback)(void));

// Whether this build runs under AddressSanitizer (GCC defines __SANITIZE_ADDRESS__; clang has __has_feature).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

namespace gjkref::impl {

// Text from a plugin (its version, an answer's detail, its output quoted in a crash's explanation) as valid UTF-8:
// every byte that does not begin a well-formed sequence (no overlong forms, no surrogates, nothing past U+10FFFF)
// becomes U+FFFD. The reports are JSON, which holds UTF-8 only: one invalid byte in a detail stopped every campaign
// that met it, and made eval's whole case an internal error.
std::string as_utf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  const auto byte = [&text](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char b = byte(i);
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
    if (b < 0x80) length = 1;
    else if (b >= 0xC2 && b <= 0xDF) length = 2;
    else if (b >= 0xE0 && b <= 0xEF) length = 3, low = b == 0xE0 ? 0xA0 : 0x80, high = b == 0xED ? 0x9F : 0xBF;
    else if (b >= 0xF0 && b <= 0xF4) length = 4, low = b == 0xF0 ? 0x90 : 0x80, high = b == 0xF4 ? 0x8F : 0xBF;
    bool valid = length > 0 && i + length <= text.size();
    for (std::size_t k = 1; valid && k < length; ++k) {
      const unsigned char c = byte(i + k);
      valid = k == 1 ? c >= low && c <= high : c >= 0x80 && c <= 0xBF;
    }
    if (valid) {
      out.append(text, i, length);
      i += length;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

namespace {

using Clock = std::chrono::steady_clock;

// The time `seconds` from now.
Clock::time_point from_now(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// --- pipes -------------------------------------------------------------------------------------------------------

// The longest string a worker sends while it lists the library (a name, a version, a scalar, why it refused; the
// worker refuses a declaration with a longer one): a longer length read by gjkref is bytes the library wrote into the
// channel itself, and gjkref would have allocated what they said, up to 4 GiB. Pinned by CTest impl.bad-declarations.
constexpr std::uint32_t kLongestListedString = 1u << 16;

bool write_all(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t k = ::write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= static_cast<std::size_t>(k);
  }
  return true;
}

// Blocking read of exactly n bytes (the worker's side); false at end of file or on error.
bool read_all(int fd, void* data, std::size_t n) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    const ssize_t k = ::read(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= static_cast<std::size_t>(k);
  }
  return true;
}

bool write_string(int fd, const char* s) {
  const std::uint32_t n = s ? static_cast<std::uint32_t>(std::strlen(s)) : 0;
  return write_all(fd, &n, sizeof n) && write_all(fd, s, n);
}

// --- the worker's side -------------------------------------------------------------------------------------------

// The message a worker sends first: the library's implementations, or why it could not load them.
constexpr std::uint32_t kLoadFailed = 0xFFFFFFFF;

[[noreturn]] void fail_to_load(int out, const std::string& why) {
  const std::uint32_t tag = kLoadFailed;
  write_all(out, &tag, sizeof tag);
  write_string(out, why.substr(0, kLongestListedString).c_str());  // dlerror's text may be a library's long name
  ::_exit(0);
}

// Never returns: the child's process ends with _exit, so none of gjkref's own exit handlers run in it.
[[noreturn]] void serve(const std::string& path, int index, int requests, int answers, int output, pid_t parent,
                        std::uint64_t memory_mib) {
  // Keep only the three pipes (as fds 3, 4 and stdout/stderr), so that no worker holds another worker's pipe open.
  const int in = ::fcntl(requests, F_DUPFD, 1000), out = ::fcntl(answers, F_DUPFD, 1000),
            log = ::fcntl(output, F_DUPFD, 1000);
  ::dup2(in, 3);
  ::dup2(out, 4);
  ::dup2(log, 1);
  ::dup2(log, 2);
  ::close_range(5, ~0U, 0);
  // A worker's fault is its own: the signal handlers and the death callback inherited from gjkref — or from a fuzzing
  // engine, which would save the parent's current input as a crash of the fuzz target — are reset, so a fault ends
  // the worker with its signal, which the parent reports.
  for (int signal : {SIGPIPE, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTERM}) ::signal(signal, SIG_DFL);
  // Interrupting gjkref (Ctrl-C reaches the whole process group) is gjkref's to handle: it stops its workers itself.
  // A worker whose parent dies, however it dies, is killed with it — no orphans, even of a plugin stuck in a loop.
  ::signal(SIGINT, SIG_IGN);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(0);  // the parent died before prctl took effect
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(nullptr);
  // The worker's address space (kDefaultWorkerMemoryLimitMiB), before the library is loaded: `memory_mib` beyond what
  // the worker inherits from the process it was forked from (gjkref's code and data, the case being judged), so that
  // the limit is the plugin's to use whatever gjkref holds (a case of 100,000 points made every worker fail to start
  // under a limit of 30 MiB). Not under AddressSanitizer: its shadow memory is reserved address space, terabytes of it.
  if (memory_mib > 0 && !kAddressSanitizer) {
    rlim_t inherited = 0;
    if (std::FILE* statm = std::fopen("/proc/self/statm", "r")) {
      unsigned long pages = 0;
      if (std::fscanf(statm, "%lu", &pages) == 1) inherited = static_cast<rlim_t>(pages) * ::sysconf(_SC_PAGESIZE);
      std::fclose(statm);
    }
    const rlim_t bytes = inherited + (static_cast<rlim_t>(memory_mib) << 20);
    const rlimit limit{bytes, bytes};
    ::setrlimit(RLIMIT_AS, &limit);
  }
  void* library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library)
    fail_to_load(4, std::string("cannot load: ") + ::dlerror() +
                        (memory_mib > 0 && memory_mib != kDefaultWorkerMemoryLimitMiB && !kAddressSanitizer &&
                                 std::filesystem::exists(path)
                             ? " (the worker's address space was limited to " + std::to_string(memory_mib) +
                                   " MiB: --memory-limit)"
                             : std::string()));
  using ListFunction = const gjkref_implementation* const* (*)(size_t*);
  auto list_function = reinterpret_cast<ListFunction>(::dlsym(library, "gjkref_plugin_implementations"));
  if (!list_function) fail_to_load(4, "the library does not export gjkref_plugin_implementations");
  size_t count = 0;
  const gjkref_implementation* const* list = list_function(&count);
  if (!list || count == 0) fail_to_load(4, "gjkref_plugin_implementations lists no implementation");
  for (size_t i = 0; i < count; ++i)
    if (!list[i] || list[i]->abi_version < GJKREF_PLUGIN_ABI_OLDEST || list[i]->abi_version > GJKREF_PLUGIN_ABI_VERSION ||
        !list[i]->query || !list[i]->name)
      fail_to_load(4, "implementation #" + std::to_string(i) + " is null, has no name or query function, or was " +
                          "built for another ABI version (gjkref accepts " +
                          std::to_string(GJKREF_PLUGIN_ABI_OLDEST) + " to " +
                          std::to_string(GJKREF_PLUGIN_ABI_VERSION) + ")");
  for (size_t i = 0; i < count; ++i)
    for (const char* text : {list[i]->name, list[i]->version, list[i]->scalar})
      if (text && std::strlen(text) > kLongestListedString)
        fail_to_load(4, "implementation #" + std::to_string(i) + " declares a name, version or scalar longer than " +
                            std::to_string(kLongestListedString) + " bytes");
  const std::uint32_t n = static_cast<std::uint32_t>(count);
  write_all(4, &n, sizeof n);
  for (size_t i = 0; i < count; ++i) {
    const gjkref_implementation& m = *list[i];
    const std::uint32_t numbers[2] = {m.dimensions, m.capabilities};
    write_string(4, m.name);
    write_string(4, m.version);
    write_string(4, m.scalar);
    write_all(4, numbers, sizeof numbers);
  }
  if (index < 0 || static_cast<size_t>(index) >= count) ::_exit(0);
  const gjkref_implementation& served = *list[index];
  // Each answer goes out behind its query's number, counted here and in the parent (Worker::query): a plugin that
  // writes into the answer pipe (fd 4) itself puts the stream out of step, and the parent sees it at once.
  for (std::uint64_t number = 1;; ++number) {
    std::int32_t dim = 0;
    std::uint64_t counts[2] = {0, 0};
    if (!read_all(3, &dim, sizeof dim) || !read_all(3, counts, sizeof counts)) ::_exit(0);
    std::vector<double> a(counts[0] * dim), b(counts[1] * dim);
    if (!read_all(3, a.data(), a.size() * sizeof(double)) || !read_all(3, b.data(), b.size() * sizeof(double)))
      ::_exit(0);
    const gjkref_query query{dim, counts[0], a.data(), counts[1], b.data()};
    // From ABI version 3 an answer starts unanswered (gjkref/plugin.h): a query that returns without setting the
    // outcome is recorded as such. Versions 1 and 2 get the zeroed answer they were written for.
    gjkref_answer answer{};
    if (served.abi_version >= 3) answer.outcome = GJKREF_UNANSWERED;
    const auto start = Clock::now();
    served.query(&query, &answer);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    answer.detail[sizeof answer.detail - 1] = '\0';
    if (!write_all(4, &number, sizeof number) || !write_all(4, &answer, sizeof answer) ||
        !write_all(4, &seconds, sizeof seconds))
      ::_exit(0);
  }
}

// --- the parent's side -------------------------------------------------------------------------------------------

// How much of a worker's output is kept to explain a crash.
constexpr std::size_t kOutputTailBytes = 400;

// How long a worker whose answer pipe closed is given to end before it is killed. A worker closes that pipe by
// ending (it is then a zombie within microseconds); one that closed it and lives on would otherwise be waited for
// forever.
constexpr double kExitGraceSeconds = 1;

struct Listed {
  std::vector<Info> implementations;
  LoadStatus status = LoadStatus::Loaded;
  std::string error;
};

// What is wrong with an implementation's declaration (gjkref/plugin.h), or "" when nothing is. Its name becomes a
// directory of counterexamples and a word in reports and command lines, so it must be [a-z0-9-]+ (at most
// kLongestName characters): a name such as "../x" would write outside --out. It must answer in 2D, 3D or both, and
// declare only capabilities gjkref knows.
constexpr std::size_t kLongestName = 64;
std::string why_not_a_declaration(const Info& info, std::uint32_t dimensions, std::uint32_t capabilities) {
  const std::string& name = info.name;
  const bool name_ok = !name.empty() && name.size() <= kLongestName &&
                       name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
  if (!name_ok)
    return "is named '" + name + "': a name is 1 to " + std::to_string(kLongestName) +
           " characters from a-z, 0-9 and '-'";
  if (dimensions == 0 || (dimensions & ~std::uint32_t{GJKREF_2D | GJKREF_3D}) != 0)
    return "'" + name + "' declares dimensions = " + std::to_string(dimensions) +
           ": GJKREF_2D, GJKREF_3D or both are expected";
  constexpr std::uint32_t kKnown = GJKREF_CAN_DECIDE | GJKREF_CAN_MEASURE | GJKREF_CAN_WITNESS | GJKREF_CAN_PENETRATE |
                                   GJKREF_CAN_NORMAL | GJKREF_CAN_CONTACT;
  if ((capabilities & ~kKnown) != 0)
    return "'" + name + "' declares capabilities = " + std::to_string(capabilities) +
           ", with bits no GJKREF_CAN_* value has";
  // A normal and contact points are required with a depth above the band (docs/comparing.md): declared without
  // GJKREF_CAN_PENETRATE they would never be asked for, and the declaration would promise what is never judged.
  if ((capabilities & (GJKREF_CAN_NORMAL | GJKREF_CAN_CONTACT)) != 0 && (capabilities & GJKREF_CAN_PENETRATE) == 0)
    return "'" + name + "' declares GJKREF_CAN_NORMAL or GJKREF_CAN_CONTACT without GJKREF_CAN_PENETRATE: a normal " +
           "and contact points come with a penetration depth";
  // The scalar sets the rounding allowance every answer is judged with (docs/contract.md): one gjkref does not know
  // cannot be judged fairly ("float32" taken as double would refuse a float implementation's right answers).
  if (!info.epsilon())
    return "'" + name + "' declares the scalar '" + info.scalar +
           "': gjkref judges \"float\", \"double\", \"long double\", \"exact\" and \"certified\" implementations " +
           "(exact answers for double input), with that scalar's rounding";
  return "";
}

class Worker {
 public:
  Worker(std::string path, int index, WorkerLimits limits)
      : path_(std::move(path)),
        index_(index),
        limit_(limits.seconds),
        load_limit_(std::max(limits.seconds, limits.load_seconds)),
        memory_mib_(limits.memory_mib) {}
  ~Worker() { stop(); }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Starts the worker and reads the library's list. On failure: the list is empty and `error` says why.
  Listed start() {
    stop();
    int requests[2], answers[2], output[2];
    if (::pipe(requests) != 0 || ::pipe(answers) != 0 || ::pipe(output) != 0)
      return {{}, LoadStatus::NotStarted, std::string("cannot create pipes: ") + std::strerror(errno)};
    ::signal(SIGPIPE, SIG_IGN);  // a worker that died must not take gjkref with it when we write to it
    // Nothing buffered in gjkref's stdio may be flushed again by the worker (a plugin that calls exit() would).
    std::fflush(nullptr);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) return {{}, LoadStatus::NotStarted, std::string("cannot fork: ") + std::strerror(errno)};
    if (pid == 0) serve(path_, index_, requests[0], answers[1], output[1], parent, memory_mib_);
    ::close(requests[0]);
    ::close(answers[1]);
    ::close(output[1]);
    pid_ = pid;
    queries_ = 0;
    to_ = requests[1];
    from_ = answers[0];
    log_ = output[0];
    ::fcntl(log_, F_SETFL, ::fcntl(log_, F_GETFL) | O_NONBLOCK);
    tail_.clear();
    report_.clear();
    Listed listed;
    std::uint32_t count = 0;
    const Clock::time_point deadline = from_now(load_limit_);
    // Every read of the handshake shares one deadline. A worker that misses it is killed before it is explained: it
    // may be alive and blocked for good (in the library's initialisers, or in read() on the request pipe, which
    // gjkref holds open), and waiting for it to end would wait forever.
    const auto failed = [&](Received got, const char* while_doing) {
      Listed failure;
      if (got == Received::TooLong) {
        failure.status = LoadStatus::Refused;
        failure.error = std::string("the worker's channel announced a string of more than ") +
                        std::to_string(kLongestListedString) + " bytes while " + while_doing +
                        ": the library wrote into gjkref's channel (fd 4) itself";
      } else if (got == Received::TimedOut) {
        failure.status = LoadStatus::TimedOut;
        failure.error = "the worker had not loaded the library within " + seconds_text(load_limit_) +
                        " s (the load time limit); killed" + last_output_note();
      } else {
        failure.status = LoadStatus::Died;
        failure.error = std::string("the worker died while ") + while_doing + " (" + explanation() + ")";
      }
      stop();
      return failure;
    };
    if (const Received got = receive(&count, sizeof count, deadline); got != Received::All)
      return failed(got, "loading the library");
    if (count == kLoadFailed) {
      std::string why;
      if (const Received got = receive_string(why, deadline); got != Received::All)
        return failed(got, "saying why the library did not load");
      listed.status = LoadStatus::Refused;
      listed.error = why;
      stop();
      return listed;
    }
    for (std::uint32_t i = 0; i < count; ++i) {
      Info info;
      std::uint32_t numbers[2] = {0, 0};
      Received got = receive_string(info.name, deadline);
      if (got == Received::All) got = receive_string(info.version, deadline);
      info.version = as_utf8(info.version);
      if (got == Received::All) got = receive_string(info.scalar, deadline);
      if (got == Received::All) got = receive(numbers, sizeof numbers, deadline);
      if (got != Received::All) return failed(got, "listing the library's implementations");
      if (const std::string why = why_not_a_declaration(info, numbers[0], numbers[1]); !why.empty()) {
        stop();
        return {{}, LoadStatus::Refused, "implementation " + std::to_string(i) + " of the library " + why};
      }
      info.in_2d = (numbers[0] & GJKREF_2D) != 0;
      info.in_3d = (numbers[0] & GJKREF_3D) != 0;
      info.capabilities = numbers[1];
      info.source = path_;
      listed.implementations.push_back(info);
    }
    if (index_ < 0) stop();
    return listed;
  }

  Result query(const casefile::Case& c) {
    Result r;
    if (pid_ <= 0) {
      const Listed listed = start();
      if (listed.status != LoadStatus::Loaded) {
        // A load past its time limit is a hang of the library's; any other failure, its worker's death.
        r.status = listed.status == LoadStatus::TimedOut ? Status::Hung : Status::Crashed;
        r.detail = "the worker could not start: " + listed.error;
        return r;
      }
    }
    const std::int32_t dim = c.dim;
    const std::uint64_t counts[2] = {c.a.points.size(), c.b.points.size()};
    std::vector<double> packed;
    for (const auto* shape : {&c.a, &c.b})
      for (const auto& p : shape->points)
        for (int k = 0; k < dim; ++k) packed.push_back(p[k]);
    gjkref_answer answer{};
    double seconds = 0;
    std::uint64_t number = 0;
    const bool sent = write_all(to_, &dim, sizeof dim) && write_all(to_, counts, sizeof counts) &&
                      write_all(to_, packed.data(), packed.size() * sizeof(double));
    ++queries_;
    const Clock::time_point deadline = from_now(limit_);
    Received got = sent ? receive(&number, sizeof number, deadline) : Received::Closed;
    if (got == Received::All && number != queries_) {
      // Not this query's answer: bytes the plugin wrote into the answer pipe itself (the worker's fd 4).
      r.status = Status::Crashed;
      r.detail = "the worker's answers were out of step (query " + std::to_string(queries_) + " read as number " +
                 std::to_string(number) + "): the plugin wrote into gjkref's answer pipe, fd 4; the worker was stopped";
      stop();
      return r;
    }
    if (got == Received::All) got = receive(&answer, sizeof answer, deadline);
    if (got == Received::All) got = receive(&seconds, sizeof seconds, deadline);
    if (got == Received::TimedOut) {
      r.status = Status::Hung;
      r.detail = "no answer within " + seconds_text(limit_) + " s; killed";
      stop();
      return r;
    }
    if (got == Received::Closed) {
      r.status = Status::Crashed;
      r.detail = explanation() + memory_note();
      stop();
      return r;
    }
    drain();
    r.seconds = seconds;
    r.detail = answer.detail;
    switch (answer.outcome) {
      case GJKREF_SEPARATED:
      case GJKREF_INTERSECTING: r.status = Status::Answered; break;
      case GJKREF_FAILED: r.status = Status::Failed; break;
      case GJKREF_THREW:
        r.status = Status::Threw;
        r.detail += memory_note();
        break;
      case GJKREF_REFUSED: r.status = Status::Refused; break;
      case GJKREF_UNANSWERED:
        r.status = Status::Failed;
        r.detail = "returned without answering (the outcome was still GJKREF_UNANSWERED, as gjkref set it before the "
                   "call)" + (r.detail.empty() ? std::string() : ": " + r.detail);
        return r;
      default:
        r.status = Status::Failed;
        r.detail = "the plugin answered an outcome the ABI does not define (" + std::to_string(answer.outcome) + ")";
        return r;
    }
    r.separated = answer.outcome == GJKREF_SEPARATED;
    if (answer.has_distance) r.distance = answer.distance;
    if (answer.has_witnesses) {
      std::array<std::array<double, 3>, 2> w{};
      for (int k = 0; k < 3; ++k) {
        w[0][k] = k < dim ? answer.witness_a[k] : 0;
        w[1][k] = k < dim ? answer.witness_b[k] : 0;
      }
      r.witnesses = w;
    }
    if (answer.has_penetration) r.penetration = answer.penetration_depth;
    const auto point = [dim](const double* p) {
      std::array<double, 3> x{0, 0, 0};
      for (int k = 0; k < dim; ++k) x[k] = p[k];
      return x;
    };
    if (answer.has_normal) r.normal = point(answer.normal);
    if (answer.has_contacts) r.contacts = std::array<std::array<double, 3>, 2>{point(answer.contact_a), point(answer.contact_b)};
    return r;
  }

 private:
  // TooLong: a string's length above kLongestListedString.
  enum class Received { All, Closed, TimedOut, TooLong };

  // Reads exactly n bytes from the worker before the deadline, draining its output meanwhile.
  Received receive(void* data, std::size_t n, Clock::time_point deadline) {
    char* p = static_cast<char*>(data);
    while (n > 0) {
      const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
      if (left <= 0) return Received::TimedOut;
      pollfd fds[2] = {{from_, POLLIN, 0}, {log_, POLLIN, 0}};
      const int ready = ::poll(fds, log_ >= 0 ? 2 : 1, static_cast<int>(std::ceil(left * 1000)));
      if (ready < 0 && errno == EINTR) continue;
      if (ready < 0) return Received::Closed;
      if (fds[1].revents) drain();
      if (fds[0].revents == 0) continue;
      const ssize_t k = ::read(from_, p, n);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) return Received::Closed;
      p += k;
      n -= static_cast<std::size_t>(k);
    }
    return Received::All;
  }

  Received receive_string(std::string& s, Clock::time_point deadline) {
    std::uint32_t n = 0;
    if (const Received got = receive(&n, sizeof n, deadline); got != Received::All) return got;
    if (n > kLongestListedString) return Received::TooLong;
    s.assign(n, '\0');
    return receive(s.data(), n, deadline);
  }

  static std::string seconds_text(double seconds) {
    std::ostringstream os;
    os << seconds;
    return os.str();
  }

  // ": " and the last line the worker printed, or nothing.
  std::string last_output_note() {
    drain();
    const std::string last = last_line();
    return last.empty() ? "" : ": " + last;
  }

  // The first sanitizer report line, or else the last line of the worker's output.
  std::string last_line() const {
    std::string last = report_.empty() ? tail_ : report_;
    while (!last.empty() && (last.back() == '\n' || last.back() == ' ')) last.pop_back();
    if (const auto cut = last.rfind('\n'); cut != std::string::npos) last.erase(0, cut + 1);
    return last;
  }

  // Keeps the last kOutputTailBytes of the worker's output, and the first sanitizer report line ("==123==ERROR:
  // AddressSanitizer: SEGV ..."): under a sanitizer a crash ends with "ABORTING", and the report says what happened.
  // At the end of the output (the worker closed it, or ended) the pipe is closed: poll reports an ended pipe as ready
  // for ever, and receive() would poll it again at once for as long as the worker works on.
  void drain() {
    if (log_ < 0) return;
    char buffer[4096];
    for (;;) {
      const ssize_t k = ::read(log_, buffer, sizeof buffer);
      if (k == 0) {
        ::close(log_);
        log_ = -1;
      }
      if (k <= 0) break;
      tail_.append(buffer, static_cast<std::size_t>(k));
      if (report_.empty())
        if (const auto at = tail_.find("ERROR: "); at != std::string::npos) {
          const auto end = tail_.find('\n', at);
          if (end != std::string::npos) report_ = tail_.substr(at, end - at);
        }
      if (tail_.size() > kOutputTailBytes) tail_.erase(0, tail_.size() - kOutputTailBytes);
    }
  }

  // How a worker ended: its wait status, and whether gjkref had to kill it.
  struct Ending {
    std::optional<int> status;  // none when there was no worker to wait for
    bool killed = false;
  };

  // Waits for the worker to end for at most `grace_seconds`, then kills it; either way it is reaped. Never blocks
  // longer: a worker may be alive and blocked for good in read() on the request pipe, which gjkref holds open.
  Ending reap(double grace_seconds) {
    Ending ending;
    if (pid_ <= 0) return ending;
    const Clock::time_point deadline = from_now(grace_seconds);
    int status = 0;
    for (;;) {
      const pid_t got = ::waitpid(pid_, &status, WNOHANG);
      if (got == pid_) {
        pid_ = -1;
        ending.status = status;
        return ending;
      }
      if (got < 0 && errno != EINTR) {  // not our child any more: nothing to wait for
        pid_ = -1;
        return ending;
      }
      if (Clock::now() >= deadline) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ::kill(pid_, SIGKILL);
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    ending.status = status;
    ending.killed = true;
    return ending;
  }

  // How the worker ended (after it closed its pipe), and the last line of its output: "SIGABRT: file.h:12: ...
  // Assertion ... failed." or "exited with status 1".
  std::string explanation() {
    std::string why;
    const Ending ending = reap(kExitGraceSeconds);
    if (ending.killed) {
      why = "closed its pipe but did not end within " + seconds_text(kExitGraceSeconds) + " s; killed";
    } else if (ending.status) {
      const int status = *ending.status;
      if (WIFSIGNALED(status)) {
        const char* name = ::sigabbrev_np(WTERMSIG(status));
        why = name ? std::string("SIG") + name : "signal " + std::to_string(WTERMSIG(status));
      } else if (WIFEXITED(status)) {
        why = "exited with status " + std::to_string(WEXITSTATUS(status));
      }
    }
    // The worker has ended, so every writer of its output pipe is closed (unless the library left a process of its
    // own behind holding it): read what is left without blocking.
    drain();
    const std::string last = last_line();
    if (!last.empty()) why += (why.empty() ? "" : ": ") + last;
    return why.empty() ? "no explanation" : why;
  }

  void stop() {
    for (int* fd : {&to_, &from_, &log_})
      if (*fd >= 0) {
        ::close(*fd);
        *fd = -1;
      }
    reap(0);
  }

  // Said beside a crash or an exception: it may be the memory limit's doing (an allocation that failed).
  std::string memory_note() const {
    if (memory_mib_ == 0 || kAddressSanitizer) return "";
    return " (the worker's memory limit: " + std::to_string(memory_mib_) + " MiB)";
  }

  std::string path_;
  int index_;
  double limit_;
  double load_limit_;  // the handshake's: the larger of the load and the query time limits
  std::uint64_t memory_mib_;
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1, log_ = -1;
  std::uint64_t queries_ = 0;  // queries sent to this worker: the number its next answer must carry
  std::string tail_, report_;
};

class PluginImplementation final : public Implementation {
 public:
  PluginImplementation(Info info, const std::string& path, int index, WorkerLimits limits)
      : info_(std::move(info)), worker_(path, index, limits) {}
  const Info& info() const override { return info_; }
  Result run(const casefile::Case& c) override {
    Result r;
    if (!info_.answers(c.dim)) return r;  // Unsupported
    if (c.has_empty_shape() || c.has_non_finite_coordinate()) {
      r.status = Status::InvalidInput;
      r.detail = "not passed to the implementation: an empty shape or a non-finite coordinate";
      return r;
    }
    r = worker_.query(c);
    r.detail = as_utf8(r.detail);
    return r;
  }

 private:
  Info info_;
  Worker worker_;
};

}  // namespace

PluginLoad open_plugin(const std::string& given, WorkerLimits limits) {
  PluginLoad out;
  // A bare file name is a path in the current directory when that file exists there (dlopen would look for it in the
  // library path only, and say "No such file" of a file the user can see); otherwise dlopen's own search applies.
  std::error_code ec;
  const std::string path =
      given.find('/') == std::string::npos && std::filesystem::is_regular_file(given, ec) ? "./" + given : given;
  Worker lister(path, -1, limits);
  Listed listed = lister.start();
  if (listed.status != LoadStatus::Loaded) {
    out.status = listed.status;
    out.error = given + ": " + listed.error;
    return out;
  }
  // The source as the user gave it: check's replay lines name --plugin with it (cli/check.cpp finds it in --plugin).
  for (Info& info : listed.implementations) info.source = given;
  for (std::size_t i = 0; i < listed.implementations.size(); ++i)
    out.implementations.push_back(std::make_unique<PluginImplementation>(listed.implementations[i], path,
                                                                         static_cast<int>(i), limits));
  return out;
}

std::vector<std::unique_ptr<Implementation>> load_plugin(const std::string& path, std::string& error,
                                                         WorkerLimits limits) {
  PluginLoad loaded = open_plugin(path, limits);
  if (loaded.status != LoadStatus::Loaded) error = loaded.error;
  return std::move(loaded.implementations);
}

}  // namespace gjkref::impl
