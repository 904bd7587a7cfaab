// The gadgets layer in one include.
#pragma once

#include "cuzk/gadgets/boolean.hpp"
#include "cuzk/gadgets/merkle.hpp"
#include "cuzk/gadgets/multieq.hpp"
#include "cuzk/gadgets/multipack.hpp"
#include "cuzk/gadgets/num.hpp"
#include "cuzk/gadgets/por.hpp"
#include "cuzk/gadgets/poseidon.hpp"
#include "cuzk/gadgets/sha256.hpp"
#include "cuzk/gadgets/uint32.hpp"
