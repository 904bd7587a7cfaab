// The witness's large vectors (aux, A·z, B·z, C·z): std::vector<Fr> whose resize(n) leaves
// new entries unwritten instead of zero-filling them (cuzk/common/default_init_allocator.hpp).
// The witness writes every entry it counts; the prover's backends take a, b, c in it as
// their H scratch. At a 32 GiB PoRep partition the zero-fill was 16.7 GB on one thread.
#pragma once

#include "cuzk/common/default_init_allocator.hpp"
#include "cuzk/ff/bls12_381.hpp"

namespace cuzk::r1cs {

using WitnessVector = DefaultInitVector<Fr>;

}  // namespace cuzk::r1cs
