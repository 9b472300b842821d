// The gjkref-case/1 reader and writer: the shipped examples, bit-exact round trips, and malformed input (an error
// naming the case and the field, never a crash or an exception).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>

#include "gjkref/casefile.hpp"

namespace gjkref::casefile {
namespace {

std::string example(const char* name) { return std::string(GJKREF_SOURCE_DIR) + "/cases/examples/" + name; }

TEST(CaseFile, ShippedExamplesParse) {
  const Parsed all = read_file(example("examples.json"));
  ASSERT_FALSE(all.error) << all.error->message();
  ASSERT_EQ(all.cases.size(), 5u);
  EXPECT_EQ(all.cases[0].name, "separated-segments-3d");
  EXPECT_EQ(all.cases[1].dim, 2);
  // "0x1.8p-40" and friends: hex-float strings, exact.
  const Case& tiny = all.cases[4];
  EXPECT_EQ(tiny.b.points[0][0], std::ldexp(1.5, -40));
  EXPECT_EQ(tiny.a.points[1][0], std::ldexp(1.0, -40));

  const Parsed face = read_file(example("point-on-face-3d.json"));
  ASSERT_FALSE(face.error) << face.error->message();
  ASSERT_EQ(face.cases.size(), 1u);
  EXPECT_EQ(face.cases[0].b.points[0], (std::array<double, 3>{1, 1, 2}));

  const Parsed squares = read_file(example("touching-squares-2d.json"));
  ASSERT_FALSE(squares.error) << squares.error->message();
  EXPECT_EQ(squares.cases[0].b.points[0][1], 0.25);
}

// Every double — random bit patterns (normals, subnormals, both zeros, huge values), plus the special ones — must
// read back bit for bit after writing. NaN payloads are not kept: every NaN reads back as NaN.
TEST(CaseFile, WritingReadsBackBitForBit) {
  std::mt19937_64 rng(7);
  std::vector<double> values = {0.0, -0.0, 1.0, -3.0, 0.1, 1e308, -1e-320, std::ldexp(1.0, 53), std::ldexp(1.0, 53) + 2,
                                std::ldexp(1.0, -1074), HUGE_VAL, -HUGE_VAL, std::nan("")};
  for (int i = 0; i < 3000; ++i) {
    const double x = std::bit_cast<double>(rng());
    if (!std::isnan(x)) values.push_back(x);
  }
  Case c{"round-trip \"quoted\" \\ name", 3, {}, {}, "note with\nnewline", std::nullopt};
  for (std::size_t i = 0; i + 2 < values.size(); i += 3) c.a.points.push_back({values[i], values[i + 1], values[i + 2]});
  c.b.points = {{1, 2, 3}};
  for (const std::string& text : {write(c), write_collection({c, c})}) {
    const Parsed back = parse(text, "<round trip>");
    ASSERT_FALSE(back.error) << back.error->message();
    ASSERT_GE(back.cases.size(), 1u);
    EXPECT_EQ(back.cases[0].name, c.name);
    EXPECT_EQ(back.cases[0].note, c.note);
    ASSERT_EQ(back.cases[0].a.points.size(), c.a.points.size());
    for (std::size_t i = 0; i < c.a.points.size(); ++i)
      for (int k = 0; k < 3; ++k) {
        const double x = c.a.points[i][k], y = back.cases[0].a.points[i][k];
        if (std::isnan(x)) {
          EXPECT_TRUE(std::isnan(y));
        } else {
          EXPECT_EQ(std::bit_cast<std::uint64_t>(x), std::bit_cast<std::uint64_t>(y)) << format_coordinate(x);
        }
      }
  }
}

TEST(CaseFile, NumbersAndStringsDenoteTheNearestDouble) {
  const Parsed p = parse(R"({"format": "gjkref-case/1", "name": "n", "dim": 2,
      "a": {"points": [[0.1, "0.1"], ["0x1.8p+1", 18446744073709551617], ["-0x1p-1074", "1e-400"]]},
      "b": {"points": [["nan", "inf"]]}})",
                         "<test>");
  ASSERT_FALSE(p.error) << p.error->message();
  const Case& c = p.cases[0];
  EXPECT_EQ(c.a.points[0][0], 0.1);
  EXPECT_EQ(c.a.points[0][1], 0.1);
  EXPECT_EQ(c.a.points[1][0], 3.0);
  EXPECT_EQ(c.a.points[1][1], std::ldexp(1.0, 64));  // 2^64 + 1 → nearest double
  EXPECT_EQ(c.a.points[2][0], -std::ldexp(1.0, -1074));
  EXPECT_EQ(c.a.points[2][1], 0.0);  // underflows to zero: the nearest double
  EXPECT_TRUE(std::isnan(c.b.points[0][0]));
  EXPECT_TRUE(c.has_non_finite_coordinate());
}

struct Malformed {
  std::string text;
  const char* where;  // must appear in the error's location
  const char* what;   // must appear in the error's description
};

TEST(CaseFile, MalformedInputGetsAnErrorNamingTheCaseAndField) {
  const std::vector<Malformed> cases = {
      {"", "<in>", "not valid JSON"},
      {"{\"format\": \"gjkref-case/1\", ", "<in>", "not valid JSON"},
      {"[1, 2]", "<in>", "expected a JSON object"},
      {R"({"name": "x"})", "format", "missing"},
      {R"({"format": "gjkref-case/2", "name": "x"})", "format", "expected \"gjkref-case/1\""},
      {R"({"format": "gjkref-case/1", "dim": 3, "a": {"points": []}, "b": {"points": []}})", "name",
       "missing or not a string"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 4, "a": {"points": []}, "b": {"points": []}})",
       "case 'x' (#1): dim", "expected 2 or 3"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2.5, "a": {"points": []}, "b": {"points": []}})", "dim",
       "expected 2 or 3"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 3, "b": {"points": []}})", "case 'x' (#1): a", "missing"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 3, "a": [], "b": {"points": []}})", "a",
       "expected an object"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 3, "a": {"points": {}}, "b": {"points": []}})", "a.points",
       "expected an array"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 3, "a": {"points": [[1, 2]]}, "b": {"points": []}})",
       "a.points[0]", "expected 3 coordinates"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2, "a": {"points": [[1, true]]}, "b": {"points": []}})",
       "a.points[0][1]", "expected a number or a numeric string"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2, "a": {"points": [[1, "1.5x"]]}, "b": {"points": []}})",
       "a.points[0][1]", "not a number"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2, "a": {"points": [[1, " 1"]]}, "b": {"points": []}})",
       "a.points[0][1]", "expected a number"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2, "a": {"points": [[1, "1e999"]]}, "b": {"points": []}})",
       "a.points[0][1]", "out of the double range"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2, "a": {"points": [[1, 1e999]]}, "b": {"points": []}})",
       "<in>", "number overflow"},  // a JSON number beyond the double range: the parser's own error
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2, "a": {"points": [[1, "infinity"]]}, "b": {"points": []}})",
       "a.points[0][1]", "write NaN and infinities as"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2, "a": {"points": [], "radius": 1}, "b": {"points": []}})",
       "a.radius", "reserved"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2, "a": {"points": [], "transform": []}, "b": {"points": []}})",
       "a.transform", "reserved"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2, "a": {"points": []}, "b": {"points": []}, "colour": 1})",
       "colour", "unknown field"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2, "a": {"points": []}, "b": {"points": []}, "note": 5})",
       "note", "expected a string"},
      {R"({"format": "gjkref-case/1", "cases": {}})", "cases", "expected an array"},
      // Found by the casefile fuzz target (CI smoke campaign, 2026-11-22): an empty collection was accepted, so
      // `gjkref eval` reported "0 disagreements" for a file that checks nothing.
      {R"({"format": "gjkref-case/1", "cases": []})", "cases", "empty"},
      {R"({"format": "gjkref-case/1", "cases": [{"name": "ok", "dim": 2, "a": {"points": []}, "b": {"points": []}},
          {"name": "second", "dim": 2, "a": {"points": [[0, 0]]}, "b": {"points": [[0]]}}]})",
       "case 'second' (#2): b.points[0]", "expected 2 coordinates"},
      {R"({"format": "gjkref-case/1", "cases": [5]})", "case #1", "expected a case object"},
      // The reader's limits (kMaxNesting, duplicate keys): refused before anything is built.
      {std::string(100000, '[') + std::string(100000, ']'), "<in>", "nested more than 16 levels deep"},
      {R"({"format": "gjkref-case/1", "name": "x", "name": "y", "dim": 2, "a": {"points": []}, "b": {"points": []}})",
       "<in>", "the key \"name\" appears twice in one object"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2, "a": {"points": [], "points": [[0, 0]]}, "b": {"points": []}})",
       "<in>", "the key \"points\" appears twice"},
      {R"({"format": "gjkref-case/1", "cases": [{"format": "gjkref-case/1", "name": "x", "dim": 2,
          "a": {"points": []}, "b": {"points": []}}]})",
       "format", "unknown field"},
      // Warm starts: one of pairs and direction; indices that name points; a finite direction of dim coordinates.
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2, "a": {"points": [[0, 0]]}, "b": {"points": [[1, 0]]},
          "warm_start": {}})",
       "warm_start", "exactly one of"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2, "a": {"points": [[0, 0]]}, "b": {"points": [[1, 0]]},
          "warm_start": {"pairs": [[0, 0]], "direction": [1, 0]}})",
       "warm_start", "exactly one of"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2, "a": {"points": [[0, 0]]}, "b": {"points": [[1, 0]]},
          "warm_start": {"pairs": [[0, 1]]}})",
       "warm_start.pairs[0][1]", "index 1 names no point of b (1 point)"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2, "a": {"points": [[0, 0]]}, "b": {"points": [[1, 0]]},
          "warm_start": {"pairs": [[-1, 0]]}})",
       "warm_start.pairs[0][0]", "expected a point's index"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2, "a": {"points": [[0, 0]]}, "b": {"points": [[1, 0]]},
          "warm_start": {"pairs": [[0, 0], [0, 0], [0, 0], [0, 0]]}})",
       "warm_start.pairs", "expected 1 to 3 pairs"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2, "a": {"points": [[0, 0]]}, "b": {"points": [[1, 0]]},
          "warm_start": {"direction": [1, "nan"]}})",
       "warm_start.direction[1]", "must be finite"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 3, "a": {"points": [[0, 0, 0]]}, "b": {"points": [[1, 0, 0]]},
          "warm_start": {"direction": [1, 0]}})",
       "warm_start.direction", "expected 3 coordinates"},
      {R"({"format": "gjkref-case/1", "name": "x", "dim": 2, "a": {"points": [[0, 0]]}, "b": {"points": [[1, 0]]},
          "warm_start": {"pairs": [[0, 0]], "simplex": 1}})",
       "warm_start.simplex", "unknown field"},
  };
  for (const Malformed& m : cases) {
    const Parsed p = parse(m.text, "<in>");
    ASSERT_TRUE(p.error.has_value()) << "accepted: " << m.text;
    EXPECT_TRUE(p.cases.empty());
    EXPECT_NE(p.error->where.find(m.where), std::string::npos) << p.error->message() << "\n  for " << m.text;
    EXPECT_NE(p.error->what.find(m.what), std::string::npos) << p.error->message() << "\n  for " << m.text;
  }
}

// A warm start reads back as written, and follows its points when one is erased (the shrinker's erase_point).
TEST(CaseFile, WarmStartsReadBackAndFollowTheirPoints) {
  Case c{"warm", 3, {}, {}, "", std::nullopt};
  c.a.points = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  c.b.points = {{3, 3, 3}, {4, 3, 3}};
  c.warm_start = casefile::WarmStart{std::nullopt, {{0, 1}, {3, 0}, {2, 1}}};
  Case d = c;
  d.warm_start = casefile::WarmStart{std::array<double, 3>{-0.1, 0x1p-1074, 3}, {}};
  for (const Case& x : {c, d}) {
    const Parsed back = parse(write(x), "<round trip>");
    ASSERT_FALSE(back.error) << back.error->message();
    ASSERT_TRUE(back.cases[0].warm_start.has_value());
    EXPECT_EQ(back.cases[0].warm_start->pairs, x.warm_start->pairs);
    EXPECT_EQ(back.cases[0].warm_start->direction, x.warm_start->direction);
  }
  c.erase_point(true, 2);  // A's point 2 goes: the pair (2, 1) with it, and (3, 0) becomes (2, 0)
  using Pairs = std::vector<std::array<std::size_t, 2>>;
  EXPECT_EQ(c.warm_start->pairs, (Pairs{{0, 1}, {2, 0}}));
  c.erase_point(false, 0);  // B's point 0: (2, 0) goes, and (0, 1) becomes (0, 0)
  EXPECT_EQ(c.warm_start->pairs, (Pairs{{0, 0}}));
  c.erase_point(false, 0);
  EXPECT_FALSE(c.warm_start.has_value());  // no pair left: no warm start
  EXPECT_FALSE(parse(write(c), "<round trip>").error);
}

TEST(CaseFile, MissingFileIsAnError) {
  const Parsed p = read_file("/nonexistent/case.json");
  ASSERT_TRUE(p.error.has_value());
  EXPECT_EQ(p.error->message(), "/nonexistent/case.json: cannot open the file");
}

// A file that never ends is refused by its size once past the reader's limit, not read whole (it was: /dev/zero took
// all the memory there was); a directory is an error too, not an empty document. The limit is lowered to 1 MiB here
// (the default, kMaxDocumentBytes, is 1 GiB). What does not matter: the bytes.
TEST(CaseFile, EndlessAndUnreadableFilesAreErrors) {
  const Parsed endless = read_file("/dev/zero", std::size_t{1} << 20);
  ASSERT_TRUE(endless.error.has_value());
  EXPECT_EQ(endless.error->message(), "/dev/zero: too large: more than 1048576 bytes (the reader takes at most that)");
  EXPECT_FALSE(read_file(example("examples.json"), std::size_t{1} << 20).error);  // a case file below the limit
  const Parsed directory = read_file("/");
  ASSERT_TRUE(directory.error.has_value());
}

// A large case (200,000 points) parses; empty shapes are accepted (they test the invalid-input status).
TEST(CaseFile, LargeAndEmptyShapes) {
  Case c{"big", 2, {}, {}, "", std::nullopt};
  for (int i = 0; i < 200000; ++i) c.a.points.push_back({double(i), -double(i), 0});
  const Parsed p = parse(write(c), "<big>");
  ASSERT_FALSE(p.error) << p.error->message();
  EXPECT_EQ(p.cases[0].a.points.size(), 200000u);
  EXPECT_TRUE(p.cases[0].has_empty_shape());
}

}  // namespace
}  // namespace gjkref::casefile
