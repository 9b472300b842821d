// Private to the oracle library: what both penetration-depth methods (hull.cpp, penetration.cpp) need beside
// supporting_facet (oracle.hpp).
#pragma once

#include "gjkref/oracle.hpp"

namespace gjkref::oracle {

// Does the normal u point the same way as some optimal facet's normal (u = λ·n, λ > 0)?
bool same_direction(const ExactPoint& u, const ExactPoint& n);

}  // namespace gjkref::oracle
