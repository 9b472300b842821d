// Private to the oracle library: what both penetration-depth methods (hull.cpp, penetration.cpp) need of a supporting
// plane of A⊖B.
#pragma once

#include "gjkref/oracle.hpp"

namespace gjkref::oracle {

// The supporting plane of D = A⊖B with outward normal n ≠ 0: offset h_D(n) = max over a of n·a − min over b of n·b,
// and its witness features F_A(n), F_B(−n), all exact (interval-filtered).
DepthFacet supporting_facet(const casefile::Case& c, const ExactPoint& n);

// Does the normal u point the same way as some optimal facet's normal (u = λ·n, λ > 0)?
bool same_direction(const ExactPoint& u, const ExactPoint& n);

}  // namespace gjkref::oracle
