// Multipacking (bellperson gadgets/multipack.rs): bits exposed as public inputs, 254
// bits (Fr's capacity) per input, little-endian within each input: input k is
// Σ_j 2^j bit[254k + j]. One input and one constraint (num · 1 = input) per chunk.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "cuzk/gadgets/boolean.hpp"
#include "cuzk/gadgets/num.hpp"

namespace cuzk::gadgets {

inline constexpr size_t kFrCapacity = 254;

template <class CS>
void pack_into_inputs(CS& cs, std::span<const Boolean> bits) {
    for (size_t i = 0; i * kFrCapacity < bits.size(); ++i) {
        auto chunk = bits.subspan(i * kFrCapacity, std::min(kFrCapacity, bits.size() - i * kFrCapacity));
        auto num = Num<CS>::zero(cs);
        for (size_t j = 0; j < chunk.size(); ++j) num.add_bool_with_coeff(cs, chunk[j], r1cs::pow2(j));
        Variable input = cs.alloc_input([&] { return num.value(); });
        cs.enforce([i] { return "packing constraint " + std::to_string(i); }, num.lc(cs, Fr::one()),
                   cs.lc(Variable::one()), cs.lc(input));
    }
}

// The first 254 bits as one allocated (aux) number: num · 1 = n.
template <class CS>
AllocatedNum pack_bits(CS& cs, std::span<const Boolean> bits) {
    auto num = Num<CS>::zero(cs);
    for (size_t j = 0; j < std::min(bits.size(), kFrCapacity); ++j) num.add_bool_with_coeff(cs, bits[j], r1cs::pow2(j));
    AllocatedNum n;
    {
        auto ns = cs.namespace_("input");
        n = AllocatedNum::alloc(cs, [&] { return num.value(); });
    }
    cs.enforce("packing constraint", num.lc(cs, Fr::one()), cs.lc(Variable::one()), cs.lc(n.var));
    return n;
}

// The public inputs pack_into_inputs creates, computed outside a circuit.
std::vector<Fr> compute_multipacking(const std::vector<bool>& bits);
// Bits of bytes, most significant first within each byte / least significant first.
std::vector<bool> bytes_to_bits(std::span<const uint8_t> bytes);
std::vector<bool> bytes_to_bits_le(std::span<const uint8_t> bytes);

}  // namespace cuzk::gadgets
