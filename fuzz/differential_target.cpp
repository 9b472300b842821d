// Fuzz target: bytes → a case (decoder.hpp) → every built-in implementation (impl/) against the exact oracle. The
// reference's modes are held to their contract and abort on a violation, as in reference_target.cpp (checks.hpp);
// every other implementation's disagreement is recorded, not aborted on: it is a finding about that library, and the
// campaign goes on. Built once per dimension (GJKREF_FUZZ_DIM = 2 or 3). GJKREF_FUZZ_CASE_OUT=FILE writes each
// decoded case to FILE, as in reference_target.cpp.
//
// Recorded cases go to $GJKREF_FUZZ_FINDINGS_DIR (default fuzz-differential/) as
// IMPLEMENTATION/FINDING/HASH.json (gjkref-case/1, replay with gjkref eval --impl IMPLEMENTATION FILE), at most
// kRecordedPerKind per implementation and finding. The libraries run in worker processes (impl/worker.cpp): a crash
// or a hang in one is recorded like any other finding and never stops the fuzzer.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>

#include "checks.hpp"
#include "decoder.hpp"
#include "gjkref/implementations.hpp"
#include "gjkref/judge.hpp"

#ifndef GJKREF_FUZZ_DIM
#error "GJKREF_FUZZ_DIM must be 2 or 3"
#endif

namespace {

namespace fs = std::filesystem;

// Cases recorded per implementation and finding: the first few show the kind; the count of the rest is not the
// fuzzer's business (gjkref check counts).
constexpr int kRecordedPerKind = 20;
// A peer's query that takes longer than this is recorded as a hang. Every peer may hang on one input, so the peers'
// count times this (15 in 3D: 15 s) stays below libFuzzer's -timeout (30 s in scripts/fuzz-campaign; OSS-Fuzz's
// default is 25 s): a hanging library is a finding about the library, not a timeout of the target.
constexpr double kQueryTimeLimitSeconds = 1;

std::vector<std::unique_ptr<gjkref::impl::Implementation>>& peers() {
  static auto all = [] {
    std::string error;
    auto list = gjkref::impl::builtin_implementations(error, kQueryTimeLimitSeconds);
    if (!error.empty()) {
      std::fprintf(stderr, "differential target: %s\n", error.c_str());
      std::abort();
    }
    // The reference's modes are checked by check_reference below, with the fuzz targets' own rules.
    std::erase_if(list, [](const auto& i) { return i->info().name.rfind("reference-", 0) == 0; });
    // Without another implementation this target would check the reference alone and pass as if it had compared.
    if (list.empty()) {
      std::fprintf(stderr, "differential target: no built-in implementation besides the reference to compare "
                           "(configure with -DGJKREF_PEERS=ON)\n");
      std::abort();
    }
    return list;
  }();
  return all;
}

void record(const gjkref::casefile::Case& c, const gjkref::impl::Info& info, const gjkref::impl::Judged& judged,
            const gjkref::impl::Result& result) {
  const char* root = std::getenv("GJKREF_FUZZ_FINDINGS_DIR");
  const fs::path dir = fs::path(root && *root ? root : "fuzz-differential") / info.name /
                       gjkref::impl::to_string(judged.finding);
  fs::create_directories(dir);
  int recorded = 0;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".json") ++recorded;
  if (recorded >= kRecordedPerKind) return;
  gjkref::casefile::Case saved = c;
  saved.name = info.name + "/" + gjkref::impl::to_string(judged.finding);
  saved.note = info.name + " (" + info.version + "): " + gjkref::impl::to_string(judged.finding) +
               (result.detail.empty() ? "" : " (" + result.detail + ")") +
               ". Found by the differential fuzz target; replay: gjkref eval --impl " + info.name + " FILE";
  const std::string text = gjkref::casefile::write(saved);
  const fs::path file = dir / (std::to_string(std::hash<std::string>{}(text)) + ".json");
  const fs::path partial = file.string() + ".partial";
  std::ofstream(partial) << text;
  fs::rename(partial, file);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const gjkref::casefile::Case c = gjkref::fuzz::decode_case(data, size, GJKREF_FUZZ_DIM);
  if (const char* out = std::getenv("GJKREF_FUZZ_CASE_OUT")) std::ofstream(out) << gjkref::casefile::write(c);
  gjkref::fuzz::abort_on_violation(c, gjkref::fuzz::check_reference(c));
  // One truth for every peer: its penetration depth, computed on the first answer that needs it, serves them all.
  const gjkref::impl::Truth truth(c, gjkref::oracle::fast_oracle(c));
  for (auto& implementation : peers()) {
    const gjkref::impl::Result r = implementation->run(c);
    const gjkref::impl::Judged j = gjkref::impl::judge(truth, r, implementation->info());
    const bool miss = j.finding == gjkref::impl::Finding::SeparatedWhileTouching ||
                      j.finding == gjkref::impl::Finding::SeparatedWhileOverlapping;
    if (j.judged && (j.disagrees() || miss)) record(c, implementation->info(), j, r);
  }
  return 0;
}
