// The fuzz targets' checks (fuzz/checks.hpp) against answers they must refuse and answers they must accept: a check
// that cannot fail finds nothing.
#include <gtest/gtest.h>

#include "checks.hpp"
#include "decoder.hpp"

namespace gjkref::fuzz {
namespace {

Case unit_squares(double dx, double dy) {
  Case c;
  c.dim = 2, c.name = "unit squares";
  c.a.points = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  for (const auto& p : c.a.points) c.b.points.push_back({p[0] + dx, p[1] + dy, 0});
  return c;
}

// intersect()'s verdict is judged on the signed distance (d apart, −PD overlapping): "separated" on squares overlapping
// by 1/2 is outside the contract in every scalar. The check compared the distance alone with the band, 0 for every
// pair that meets, and let it pass. Touching squares may be called either way (|δ| = 0, inside the band); squares 1
// apart must be called separated.
TEST(FuzzChecks, IntersectsVerdictIsJudgedOnTheSignedDistance) {
  const Case overlapping = unit_squares(0.5, 0.25), touching = unit_squares(1, 0.25), apart = unit_squares(2, 0.25);
  const impl::Truth deep(overlapping, oracle::fast_oracle(overlapping));
  const impl::Truth touch(touching, oracle::fast_oracle(touching));
  const impl::Truth far(apart, oracle::fast_oracle(apart));
  ASSERT_EQ(deep.answer().verdict, oracle::Verdict::Overlapping);
  ASSERT_EQ(touch.answer().verdict, oracle::Verdict::Touching);
  ASSERT_EQ(far.answer().verdict, oracle::Verdict::Separated);
  const auto check = [](const impl::Truth& t, Status s) {
    return std::tuple{boolean_verdict_outside_contract<float>(t, s), boolean_verdict_outside_contract<double>(t, s),
                      boolean_verdict_outside_contract<long double>(t, s)};
  };
  const auto refused = [](const auto& all) {
    return std::get<0>(all).has_value() && std::get<1>(all).has_value() && std::get<2>(all).has_value();
  };
  const auto accepted = [](const auto& all) {
    return !std::get<0>(all).has_value() && !std::get<1>(all).has_value() && !std::get<2>(all).has_value();
  };
  EXPECT_TRUE(refused(check(deep, Status::Separated)));
  EXPECT_EQ(*boolean_verdict_outside_contract<double>(deep, Status::Separated), "separated-while-overlapping");
  EXPECT_TRUE(accepted(check(deep, Status::Intersecting)));
  EXPECT_TRUE(accepted(check(touch, Status::Separated)));
  EXPECT_TRUE(accepted(check(touch, Status::Intersecting)));
  EXPECT_TRUE(refused(check(far, Status::Intersecting)));
  EXPECT_TRUE(accepted(check(far, Status::Separated)));
}

// The decoder's warm-start byte (fuzz/decoder.hpp): after the structure byte, w & 3 = 3 gives dim + 1 index pairs,
// 1 some, 2 a direction; an input that ends before it decodes as it did before the byte existed. A warm-started case
// goes through every check (the cold answer is the contract: exact and certified equal to the oracle).
TEST(FuzzDecoder, AWarmStartByteGivesTheCaseAWarmStart) {
  std::vector<std::uint8_t> bytes = {0b00011011, 0};  // |A| = |B| = 4, no transform
  const std::uint8_t lattice[8][3] = {{0x00, 0x00, 0x00}, {0x20, 0x00, 0x00}, {0x00, 0x20, 0x00}, {0x00, 0x00, 0x20},
                                      {0x10, 0x10, 0x10}, {0x30, 0x10, 0x10}, {0x10, 0x30, 0x10}, {0x10, 0x10, 0x30}};
  for (const auto& p : lattice) bytes.insert(bytes.end(), {0, p[0], p[1], p[2]});  // control byte 0: a lattice point
  bytes.push_back(0);                                                            // no structure
  const Case cold = decode_case(bytes.data(), bytes.size(), 3);
  EXPECT_FALSE(cold.warm_start.has_value());
  std::vector<std::uint8_t> warm = bytes;
  warm.insert(warm.end(), {3, 0, 0, 1, 1, 2, 2, 3, 3});  // four pairs: (0, 0), (1, 1), (2, 2), (3, 3)
  const Case c = decode_case(warm.data(), warm.size(), 3);
  ASSERT_TRUE(c.warm_start.has_value());
  EXPECT_EQ(c.warm_start->pairs.size(), 4u);
  EXPECT_EQ(c.warm_start->pairs[3], (std::array<std::size_t, 2>{3, 3}));
  EXPECT_EQ(c.a.points, cold.a.points);
  EXPECT_EQ(c.b.points, cold.b.points);
  std::vector<std::uint8_t> direction = bytes;
  direction.insert(direction.end(), {2, 0xF0, 0x10, 0});  // (−1, 1, 0)
  const Case d = decode_case(direction.data(), direction.size(), 3);
  ASSERT_TRUE(d.warm_start.has_value() && d.warm_start->direction.has_value());
  EXPECT_EQ(*d.warm_start->direction, (std::array<double, 3>{-1, 1, 0}));
  for (const Case* x : {&c, &d}) {
    const Report r = check_reference(*x);
    EXPECT_TRUE(r.violations.empty()) << r.answers;
  }
}

// The decoder's emptying byte (fuzz/decoder.hpp), after the warm start: 0xE1 empties A, 0xE2 B, 0xE3 both, and the
// warm start goes with them; any other value (1, 2, 3 included), or an input that ends before it, keeps the shapes. Every mode must name the empty shape (checks.hpp's
// input_error_of: EmptyA before EmptyB), the oracle must call it invalid input, and the case must survive the case
// format, since a failing input is saved as a case file (GJKREF_FUZZ_CASE_OUT).
TEST(FuzzDecoder, AnEmptyingByteEmptiesShapes) {
  std::vector<std::uint8_t> bytes = {0b00001001, 0};  // |A| = 2, |B| = 2, no transform
  for (const std::uint8_t x : {0x00, 0x20, 0x10, 0x30}) bytes.insert(bytes.end(), {0, x, x, x});  // lattice points
  bytes.insert(bytes.end(), {0, 1, 0, 0});  // no structure; one warm-start pair (0, 0)
  const Case full = decode_case(bytes.data(), bytes.size(), 3);
  ASSERT_EQ(full.a.points.size(), 2u);
  ASSERT_EQ(full.b.points.size(), 2u);
  ASSERT_TRUE(full.warm_start.has_value());
  EXPECT_EQ(input_error_of(full), InputError::None);
  for (const std::uint8_t e : {1, 2, 3, 0xE0, 0xE4, 0xFF}) {
    std::vector<std::uint8_t> input = bytes;
    input.push_back(e);
    const Case c = decode_case(input.data(), input.size(), 3);
    EXPECT_EQ(c.a.points, full.a.points) << int(e);
    EXPECT_EQ(c.b.points, full.b.points) << int(e);
  }
  const std::pair<std::uint8_t, InputError> emptyings[] = {
      {0xE1, InputError::EmptyA}, {0xE2, InputError::EmptyB}, {0xE3, InputError::EmptyA}};
  for (const auto& [e, expected] : emptyings) {
    std::vector<std::uint8_t> input = bytes;
    input.push_back(e);
    const Case c = decode_case(input.data(), input.size(), 3);
    EXPECT_EQ(c.a.points.empty(), (e & 1) != 0);
    EXPECT_EQ(c.b.points.empty(), (e & 2) != 0);
    EXPECT_FALSE(c.warm_start.has_value());
    EXPECT_EQ(input_error_of(c), expected);
    EXPECT_EQ(oracle::fast_oracle(c).verdict, oracle::Verdict::InvalidInput);
    const Report r = check_reference(c);
    EXPECT_TRUE(r.violations.empty()) << r.answers;
    const casefile::Parsed parsed = casefile::parse(casefile::write(c), "decoded");
    ASSERT_FALSE(parsed.error) << parsed.error->message();
    ASSERT_EQ(parsed.cases.size(), 1u);
    EXPECT_EQ(parsed.cases[0].a.points, c.a.points);
    EXPECT_EQ(parsed.cases[0].b.points, c.b.points);
  }
}

}  // namespace
}  // namespace gjkref::fuzz
