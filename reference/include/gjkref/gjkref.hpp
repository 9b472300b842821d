// gjkref/gjkref.hpp — the reference GJK, all of it. For exact rationals, also include gjkref/exact.hpp.
#pragma once

#include "gjkref/contract.hpp"
#include "gjkref/gjk.hpp"
#include "gjkref/regions.hpp"
#include "gjkref/scalar.hpp"
#include "gjkref/support.hpp"
#include "gjkref/tolerances.hpp"
#include "gjkref/vec.hpp"
