// The fuzz targets' checks (fuzz/checks.hpp) against answers they must refuse and answers they must accept: a check
// that cannot fail finds nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

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

// The floating modes' statuses are checked whatever the input: on invalid input intersect() must name the input's
// error as distance() must (it was checked for InvalidInput alone), and beyond the range where the bounds are claimed
// (2^±100) both queries must still end with an answer (intersect() was not checked there). Each mode's own answers
// pass; each answer changed as named is refused.
TEST(FuzzChecks, EveryQueryOfEveryModeEndsWithTheRightStatus) {
  Case nan_in_a = unit_squares(2, 0.25);
  nan_in_a.a.points[1][0] = std::numeric_limits<double>::quiet_NaN();
  Case tiny = unit_squares(2, 0.25);  // coordinates 2^-600: beyond 2^±100
  for (auto* shape : {&tiny.a, &tiny.b})
    for (auto& p : shape->points)
      for (double& x : p) x = std::ldexp(x, -600);
  const impl::Truth tiny_truth(tiny, oracle::fast_oracle(tiny));
  ASSERT_EQ(tiny_truth.answer().verdict, oracle::Verdict::Separated);
  const auto both = [](const Case& c, const impl::Truth* t, const FloatingAnswers& x) {
    return std::pair{floating_violations<double>(c, t, x).size(), floating_violations<long double>(c, t, x).size()};
  };
  const std::pair<std::size_t, std::size_t> none{0, 0};

  FloatingAnswers nan_answers = floating_answers<double>(nan_in_a);
  ASSERT_EQ(nan_answers.boolean_error, InputError::NonFiniteA);
  EXPECT_EQ(both(nan_in_a, nullptr, nan_answers), none);
  nan_answers.boolean_error = InputError::NonFiniteB;
  EXPECT_EQ(floating_violations<double>(nan_in_a, nullptr, nan_answers),
            std::vector<std::string>{"intersect(): expected invalid input (non-finite coordinate in A)"});

  FloatingAnswers tiny_answers = floating_answers<double>(tiny);
  ASSERT_EQ(tiny_answers.boolean_status, Status::Separated);
  EXPECT_EQ(both(tiny, &tiny_truth, tiny_answers), none);
  tiny_answers.boolean_status = Status::IterationLimit;
  EXPECT_EQ(floating_violations<double>(tiny, &tiny_truth, tiny_answers),
            std::vector<std::string>{"intersect(): no answer within the iteration cap (iteration-limit)"});
  tiny_answers = floating_answers<double>(tiny);
  tiny_answers.status = Status::IterationLimit;
  EXPECT_EQ(floating_violations<double>(tiny, &tiny_truth, tiny_answers),
            std::vector<std::string>{"distance(): no answer within the iteration cap (iteration-limit)"});
}

// Long double takes the double input as it is: its distance is held to long double's bounds with no allowance for an
// input rounding (only float rounds its input, impl::Info::rounds_input). On squares 2 apart translated by 2^52 that
// allowance, ε_ld·√2·R, is about 8·10⁻⁴, which let a distance off by 10⁻⁶ pass.
TEST(FuzzChecks, LongDoubleIsNotAllowedAnInputRounding) {
  Case far = unit_squares(2, 0.25);
  for (auto* shape : {&far.a, &far.b})
    for (auto& p : shape->points) p[0] += 0x1p52;
  const impl::Truth truth(far, oracle::fast_oracle(far));
  ASSERT_EQ(truth.answer().verdict, oracle::Verdict::Separated);
  FloatingAnswers x = floating_answers<long double>(far);
  EXPECT_TRUE(floating_violations<long double>(far, &truth, x).empty());
  x.distance += 1e-6;
  EXPECT_EQ(floating_violations<long double>(far, &truth, x),
            std::vector<std::string>{"distance() outside docs/contract.md"});
}

// A seed named near-touching decodes to a pair 2^-40 apart ("-apart": separated, at most 2^-39 apart) or overlapping
// by as little ("-into": PD at most 2^-39), in every corpus that holds one. The 2D ones were deep overlaps (B's
// corner inside A) that the nudge left overlapping: no 2D input tried the transform on a touching pair. They stay,
// renamed seed-deep-overlap-nudged-*; seed-near-touching-vertex-* are the 2D vertex contacts.
TEST(FuzzCorpus, NearTouchingSeedsAreNearTouching) {
  int seen = 0;
  for (const auto& [dir, dim] : {std::pair{"reference_2d", 2}, {"reference_3d", 3}, {"differential_2d", 2},
                                 {"differential_3d", 3}}) {
    for (const auto& entry : std::filesystem::directory_iterator(std::string(GJKREF_SOURCE_DIR) + "/fuzz/corpus/" + dir)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("seed-near-touching", 0) != 0) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
      const Case c = decode_case(bytes.data(), bytes.size(), dim);
      const oracle::Answer answer = oracle::fast_oracle(c);
      SCOPED_TRACE(std::string(dir) + "/" + name + ": " + casefile::write(c));
      if (name.find("-apart") != std::string::npos) {
        EXPECT_EQ(answer.verdict, oracle::Verdict::Separated);
        EXPECT_GT(answer.distance, 0);
        EXPECT_LE(answer.distance, 0x1p-39);
      } else {
        ASSERT_NE(name.find("-into"), std::string::npos) << "a near-touching seed is -apart or -into";
        ASSERT_EQ(answer.verdict, oracle::Verdict::Overlapping);
        const oracle::Penetration pd = oracle::penetration_oracle(c, answer);
        EXPECT_GT(pd.depth, 0);
        EXPECT_LE(pd.depth, 0x1p-39);
      }
      ++seen;
    }
  }
  EXPECT_EQ(seen, 8);  // apart and into in each of the four corpora
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
