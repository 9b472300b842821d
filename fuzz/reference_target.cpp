// Fuzz target: bytes → a case (decoder.hpp) → every mode of the reference against the exact oracle (checks.hpp).
// Built once per dimension (GJKREF_FUZZ_DIM = 2 or 3). GJKREF_FUZZ_CASE_OUT=FILE writes each decoded case to FILE,
// which turns a crashing input into a gjkref-case/1 file (scripts/fuzz-campaign does that).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>

#include "checks.hpp"
#include "decoder.hpp"

#ifndef GJKREF_FUZZ_DIM
#error "GJKREF_FUZZ_DIM must be 2 or 3"
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const gjkref::casefile::Case c = gjkref::fuzz::decode_case(data, size, GJKREF_FUZZ_DIM);
  if (const char* out = std::getenv("GJKREF_FUZZ_CASE_OUT")) std::ofstream(out) << gjkref::casefile::write(c);
  gjkref::fuzz::abort_on_violation(c, gjkref::fuzz::check_reference(c));
  return 0;
}
