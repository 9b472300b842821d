// The fuzz targets' checks (fuzz/checks.hpp) against answers they must refuse and answers they must accept: a check
// that cannot fail finds nothing.
#include <gtest/gtest.h>

#include "checks.hpp"

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

}  // namespace
}  // namespace gjkref::fuzz
