// gjkref/oracle.hpp — exact oracles for "where is the origin relative to A⊖B?", with no CGAL type in sight.
//
// Inputs are the doubles of a case, each taken as the exact rational it is. Answers are exact: the verdict, the
// squared distance as a rational, exact witness points on conv(A) and conv(B), and the distance correctly rounded to
// double. Methods (docs/oracle.md):
//   hull_oracle — the primary: the convex hull of the pairwise differences of A's and B's extreme points, with the
//                 affine dimension (0 to 3) decided by exact predicates, the origin classified by exact orientation
//                 tests, and the closest point constructed exactly on the closest feature.
//   qp_oracle   — independent, simplex-based: the squared distance as an exact quadratic program over the weights of
//                 A's and B's points (CGAL's QP solver on Gmpzf, Bland pricing), the class from an exact linear program
//                 (are there strictly positive weights putting the origin in A⊖B?) and the affine dimension from an
//                 exact rank. Shares no code with hull_oracle.
#pragma once

#include <gmpxx.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "gjkref/casefile.hpp"

namespace gjkref::oracle {

enum class Verdict {
  Separated,    // the origin is not in A⊖B
  Touching,     // in A⊖B but not in its interior (every flat, collinear or single-point A⊖B containing it)
  Overlapping,  // in the interior of A⊖B
  InvalidInput  // an empty shape or a non-finite coordinate: no geometric question to answer
};

// The feature of A⊖B on which the closest point lies (its relative interior).
enum class Feature { None, Vertex, Edge, Face, Interior };

using ExactPoint = std::array<mpq_class, 3>;  // in 2D the third coordinate is 0

struct Answer {
  Verdict verdict = Verdict::InvalidInput;
  mpq_class squared_distance;  // exact; 0 unless separated
  double distance = 0;         // sqrt(squared_distance), correctly rounded to double (round to nearest, ties to even)
  ExactPoint witness_a{}, witness_b{};  // closest points (a common point when not separated)
  Feature feature = Feature::None;
  int affine_dimension = -1;  // of A⊖B: 0 point, 1 segment, 2 polygon, 3 polytope
};

Answer hull_oracle(const casefile::Case& c);
// The feature is not computed by this method (Feature::None).
Answer qp_oracle(const casefile::Case& c);

// √q correctly rounded to double, for a rational q ≥ 0 (MPFR, with an exactness check of the rounding).
double correctly_rounded_sqrt(const mpq_class& q);

// A non-exact second opinion for 2D cases, from Boost.Geometry in double: the convex hull of the rounded differences
// a − b, `covered_by` for the origin and `distance` to it. Not an oracle: it shows what double-precision geometry
// answers (docs/oracle.md). nullopt for 3D cases and invalid input.
struct Opinion {
  bool intersecting = false;
  double distance = 0;
};
std::optional<Opinion> boost_geometry_opinion(const casefile::Case& c);

const char* to_string(Verdict v);
const char* to_string(Feature f);

}  // namespace gjkref::oracle
