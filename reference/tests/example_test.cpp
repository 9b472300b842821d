// The README's example, compiled and checked, so the README cannot drift from the code.
#include <gtest/gtest.h>

#include "gjkref/certified.hpp"
#include "gjkref/certify.hpp"
#include "gjkref/exact.hpp"
#include "gjkref/gjkref.hpp"

TEST(ReadmeExample, PointOnAFaceTouches) {
  using V = gjkref::Vec3<double>;
  gjkref::ConvexPoints<V> a{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}, {0, 0, 4}}, b{{1, 1, 2}};
  auto r = gjkref::distance(a, b);
  EXPECT_EQ(r.status, gjkref::Status::Intersecting);  // (1, 1, 2) lies on the face x + y + z = 4
  EXPECT_EQ(r.distance(), 0.0);
  auto proof = gjkref::check_certificate(a, b, r);
  EXPECT_EQ(proof.check, gjkref::CertificateCheck::Verified);
  auto c = gjkref::certified_distance(a, b);
  EXPECT_EQ(c.contact_class, gjkref::ContactClass::Touching);  // on the boundary of A⊖B: touching, not overlapping
  EXPECT_EQ(c.distance, 0.0);
  ASSERT_TRUE(c.witness_a && c.witness_b);
  EXPECT_EQ(*c.witness_a, (V{1, 1, 2}));  // the common point
  auto e = gjkref::certified_distance(a, b, {}, gjkref::CertifiedOutput::WithExact);
  ASSERT_TRUE(e.exact);
  EXPECT_EQ(e.exact->squared_distance, 0);
  ASSERT_TRUE(c.touching_normal);
  auto i = gjkref::intersect(a, b);
  EXPECT_EQ(i.status, gjkref::Status::Intersecting);
}
