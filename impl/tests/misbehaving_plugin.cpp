// A plugin that misbehaves on purpose, for impl/tests: what it does is chosen by the x coordinate of A's first point.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <thread>
#include <vector>

#include "../adapters/adapter.hpp"

namespace {

// The x coordinate of A's first point that asks for each misbehaviour (implementations_test.cpp uses the same).
enum Behaviour {
  kAborts = 1,
  kSegfaults = 2,
  kHangs = 3,
  kThrows = 4,
  kAnswersNaN = 5,
  kExits = 6,
  kPrints = 7,
  kAllocates = 8,  // 1 GiB, every page touched
  kLeavesUntouched = 9,  // returns without writing its answer
  kWritesToTheAnswerPipe = 10,  // writes bytes into fd 4, the worker's answer pipe, then answers
  kClosesItsOutput = 11  // closes stdout and stderr (the worker's output pipe), works for 1 s, then answers
};

void misbehave(const gjkref_query& q, gjkref_answer& answer) {
  // GJKREF_TEST_DETAIL set: its text is the answer's detail, whatever the case (cli/tests/check-details.sh: text that
  // is not one line, on generated cases whose first x may be any of the orders below); with GJKREF_TEST_REFUSE set
  // too, the answer is a refusal that gives it as its reason; with GJKREF_TEST_NUMBERED, the text is followed by the
  // answer's number in this worker (a detail that differs on every answer).
  if (const char* detail = std::getenv("GJKREF_TEST_DETAIL")) {
    static int answers = 0;
    answer.outcome = std::getenv("GJKREF_TEST_REFUSE") ? GJKREF_REFUSED : GJKREF_INTERSECTING;
    if (std::getenv("GJKREF_TEST_NUMBERED"))
      gjkref::adapters::say(answer, "%s %d", detail, ++answers);
    else
      gjkref::adapters::say(answer, "%s", detail);
    return;
  }
  switch (static_cast<int>(q.a[0])) {
    case kAborts: std::fprintf(stderr, "misbehaving: about to abort\n"); std::abort();
    case kSegfaults: std::raise(SIGSEGV); break;
    case kHangs:
      for (;;) ::pause();
    case kThrows: throw std::runtime_error("misbehaving: threw on purpose");
    case kAnswersNaN: gjkref::adapters::answer_separated(answer, std::nan("")); return;
    case kLeavesUntouched: return;
    case kWritesToTheAnswerPipe: {
      const char noise[] = "not an answer";
      if (::write(4, noise, sizeof noise) < 0) return;
      break;
    }
    case kClosesItsOutput:
      ::close(1);
      ::close(2);
      std::this_thread::sleep_for(std::chrono::seconds(1));
      break;
    case kExits: std::exit(3);
    case kPrints: std::printf("misbehaving: noise on stdout\n"); std::fflush(stdout); break;
    case kAllocates: {
      std::vector<char> block(std::size_t(1) << 30, 1);
      if (block[block.size() / 2] != 1) return;
      break;
    }
    default: break;
  }
  answer.outcome = GJKREF_INTERSECTING;
  gjkref::adapters::say(answer, "well behaved");
}

const gjkref_implementation kMisbehaving{GJKREF_PLUGIN_ABI_VERSION, "misbehaving", "1", "double",
                                         GJKREF_2D | GJKREF_3D, GJKREF_CAN_DECIDE | GJKREF_CAN_MEASURE,
                                         gjkref::adapters::guarded<misbehave>};
const gjkref_implementation kWrongAbi{GJKREF_PLUGIN_ABI_VERSION + 1, "wrong-abi", "1", "double", GJKREF_2D,
                                      GJKREF_CAN_DECIDE, gjkref::adapters::guarded<misbehave>};
const gjkref_implementation* const kGood[] = {&kMisbehaving};
const gjkref_implementation* const kBad[] = {&kMisbehaving, &kWrongAbi};

}  // namespace

// GJKREF_TEST_WRONG_ABI set: the list includes an implementation built for another ABI version.
// GJKREF_TEST_HANG_ON_LOAD set: the list never comes (a library hung in its initialisers).
// GJKREF_TEST_SLOW_LOAD_MS=N: the list comes after N ms (a library whose initialisers take that long).
extern "C" const gjkref_implementation* const* gjkref_plugin_implementations(size_t* count) {
  if (std::getenv("GJKREF_TEST_HANG_ON_LOAD"))
    for (;;) ::pause();
  if (const char* ms = std::getenv("GJKREF_TEST_SLOW_LOAD_MS"))
    std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(ms)));
  if (std::getenv("GJKREF_TEST_WRONG_ABI")) {
    *count = 2;
    return kBad;
  }
  *count = 1;
  return kGood;
}
