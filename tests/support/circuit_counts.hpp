// A circuit's constraint, input and aux counts by a counting pass (nothing stored): what the
// tests pin against rust-fil-proofs' published figures.
#pragma once

#include <cstddef>

#include "cuzk/r1cs/count_cs.hpp"

namespace cuzk::test {

struct Counts {
    size_t constraints, inputs, aux;
};

template <class Circuit>
Counts count(const Circuit& c) {
    r1cs::CountCS cs;
    c.synthesize(cs);
    return {cs.num_constraints(), cs.num_inputs(), cs.num_aux()};
}

}  // namespace cuzk::test
