// Fuzz target: the gjkref-case/1 parser (docs/case-format.md) on arbitrary bytes. Reading must never crash or hang;
// a rejected document must name what is wrong; an accepted one must write back to a document that reads as the same
// cases, bit for bit (NaN payloads aside: every NaN reads back as a NaN), warm starts included.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "gjkref/casefile.hpp"

namespace {

using gjkref::casefile::Case;

bool same_coordinate(double x, double y) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  return std::memcmp(&x, &y, sizeof x) == 0;  // bit for bit: -0 and 0 differ
}

bool same_case(const Case& x, const Case& y) {
  if (x.name != y.name || x.dim != y.dim || x.note != y.note) return false;
  if (x.warm_start.has_value() != y.warm_start.has_value()) return false;
  if (x.warm_start) {
    const auto &u = *x.warm_start, &v = *y.warm_start;
    if (u.pairs != v.pairs || u.direction.has_value() != v.direction.has_value()) return false;
    if (u.direction)
      for (int j = 0; j < 3; ++j)
        if (!same_coordinate((*u.direction)[j], (*v.direction)[j])) return false;
  }
  for (const auto& [s, t] : {std::pair{&x.a, &y.a}, std::pair{&x.b, &y.b}}) {
    if (s->points.size() != t->points.size()) return false;
    for (std::size_t i = 0; i < s->points.size(); ++i)
      for (int j = 0; j < 3; ++j)
        if (!same_coordinate(s->points[i][j], t->points[i][j])) return false;
  }
  return true;
}

[[noreturn]] void fail(const char* what, const std::string& text) {
  std::fprintf(stderr, "gjkref fuzz (casefile): %s\n%s\n", what, text.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const gjkref::casefile::Parsed parsed = gjkref::casefile::parse(text, "<fuzz>");
  if (parsed.error) {
    if (parsed.error->what.empty()) fail("an error without a message", std::string(text));
    if (!parsed.cases.empty()) fail("an error with cases", std::string(text));
    return 0;
  }
  if (parsed.cases.empty()) fail("accepted with no case", std::string(text));
  const std::string rewritten = gjkref::casefile::write_collection(parsed.cases);
  const gjkref::casefile::Parsed again = gjkref::casefile::parse(rewritten, "<rewritten>");
  if (again.error) fail(("the rewritten document does not read: " + again.error->message()).c_str(), rewritten);
  if (again.cases.size() != parsed.cases.size()) fail("the rewritten document has other cases", rewritten);
  for (std::size_t i = 0; i < parsed.cases.size(); ++i)
    if (!same_case(parsed.cases[i], again.cases[i])) fail("a case does not read back bit for bit", rewritten);
  return 0;
}
