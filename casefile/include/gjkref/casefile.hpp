// gjkref/casefile.hpp — the gjkref-case/1 format (docs/case-format.md): read and write cases.
//
// A case is two point sets in 2D or 3D with a name, a note and, optionally, a warm start. Coordinates are doubles,
// taken exactly: a JSON number is converted to the nearest double; a string holds a C99 hex-float ("0x1.8p+1"), a
// decimal ("0.1", converted to the nearest double), or one of "nan", "inf", "-inf" (cases that test the invalid-input
// status). Writing always uses a form that reads back bit for bit. Reading never throws and never crashes: a
// malformed file gives an Error that names the file, the case and the field.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gjkref::casefile {

inline constexpr std::string_view kFormat = "gjkref-case/1";

struct Shape {
  std::vector<std::array<double, 3>> points;  // in 2D the third coordinate is 0 and never written
};

// A warm start for implementations that take one (the reference: gjkref::Options): a first search direction, or a
// previous simplex as (index in A, index in B) pairs — one or the other. Warm starts change only the path, never the
// answer, so a warm-started answer is judged like a cold one; implementations without warm starts answer cold.
struct WarmStart {
  std::optional<std::array<double, 3>> direction;  // finite; in 2D the third coordinate is 0 and never written
  std::vector<std::array<std::size_t, 2>> pairs;   // 1 to dim + 1 pairs, each index naming a point of its shape
};

struct Case {
  std::string name;
  int dim = 3;
  Shape a, b;
  std::string note;
  std::optional<WarmStart> warm_start;

  // Removes point i of A (of_a) or of B, keeping the warm start true to the points: pairs naming that point go, and
  // later indices move down by one (a warm start left with no pair goes too).
  void erase_point(bool of_a, std::size_t i);

  bool has_empty_shape() const { return a.points.empty() || b.points.empty(); }
  bool has_non_finite_coordinate() const;
};

struct Error {
  std::string where;  // "file.json: case 'touching' (#2): a.points[3][1]"
  std::string what;   // "expected a number or a numeric string, got true"
  std::string message() const { return where.empty() ? what : where + ": " + what; }
};

struct Parsed {
  std::vector<Case> cases;
  std::optional<Error> error;  // set: `cases` is empty
};

// The reader's limits (docs/case-format.md): a document of at most kMaxDocumentBytes, nested at most kMaxNesting deep
// (the format itself needs 5: collection, cases, case, shape, points, point), and no object with a key twice. Beyond
// them the document is refused with an error, before anything is built from it.
inline constexpr std::size_t kMaxDocumentBytes = std::size_t{1} << 30;  // 1 GiB: about 15 million 3D points
inline constexpr int kMaxNesting = 16;

// Parse a document holding one case or a collection {"format": ..., "cases": [...]}.
// `source` names the input in error messages (a file name, "<stdin>", ...).
Parsed parse(std::string_view text, std::string_view source);
// A file of more than max_bytes (at most kMaxDocumentBytes) is refused once that many have been read.
Parsed read_file(const std::string& path, std::size_t max_bytes = kMaxDocumentBytes);

// A coordinate as the JSON token that reads back bit for bit: an integer-valued double of magnitude below 2^53 as a
// JSON number, anything else (fractions, -0, huge and subnormal values) as a hex-float string; "nan", "inf", "-inf".
std::string format_coordinate(double x);
// The coordinate a JSON string denotes, as parse() reads it; nullopt for anything else (message in `why`).
std::optional<double> parse_coordinate_string(std::string_view s, std::string* why = nullptr);

// A single-case document, and a collection.
std::string write(const Case& c);
std::string write_collection(const std::vector<Case>& cases);

}  // namespace gjkref::casefile
