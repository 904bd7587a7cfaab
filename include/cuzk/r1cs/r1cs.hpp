// The constraint-system layer in one include: variables, the modes (shape, witness, check, count) and shapes.
#pragma once

#include "cuzk/r1cs/count_cs.hpp"
#include "cuzk/r1cs/cs.hpp"
#include "cuzk/r1cs/eval_cs.hpp"
#include "cuzk/r1cs/lc.hpp"
#include "cuzk/r1cs/shape.hpp"
#include "cuzk/r1cs/shape_cs.hpp"
#include "cuzk/r1cs/variable.hpp"
