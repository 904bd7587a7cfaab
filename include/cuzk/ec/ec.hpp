// The ec layer in one include: affine/Jacobian/XYZZ points of BLS12-381 G1 and G2,
// scalar multiplication, subgroup checks, cofactor clearing and the Zcash encoding.
#pragma once

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/psi.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/ec/subgroup.hpp"
#include "cuzk/ec/xyzz.hpp"
