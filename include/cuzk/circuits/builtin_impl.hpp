// Template bodies of the built-in circuits (included by builtin.hpp).
#pragma once

#include <random>

#include "cuzk/gadgets/boolean.hpp"
#include "cuzk/gadgets/multipack.hpp"
#include "cuzk/gadgets/sha256.hpp"

namespace cuzk::circuits {

template <class CS>
void Sha256Chain::synthesize(CS& cs) const {
    using gadgets::AllocatedBit;
    using gadgets::Boolean;
    std::vector<Boolean> block;
    block.reserve(512);
    {
        auto ns = cs.namespace_("preimage");
        for (size_t i = 0; i < 512; ++i) {
            const bool bit = (preimage[i / 8] >> (7 - i % 8)) & 1;  // most significant first
            auto ns_bit = cs.namespace_([i] { return "bit " + std::to_string(i); });
            block.push_back(Boolean(AllocatedBit::alloc(cs, bit)));
        }
    }
    std::vector<Boolean> digest;
    for (size_t k = 0; k < blocks; ++k) {
        auto ns = cs.namespace_([k] { return "block " + std::to_string(k); });
        digest = gadgets::sha256_block_no_padding(cs, block);
        block.assign(digest.begin(), digest.end());
        block.insert(block.end(), digest.begin(), digest.end());
    }
    auto ns = cs.namespace_("pack digest");
    gadgets::pack_into_inputs(cs, std::span<const Boolean>(digest));
}

template <class CS>
void RandomDense::synthesize(CS& cs) const {
    std::mt19937_64 rng(seed);
    using r1cs::Variable;
    std::vector<Variable> vars;
    std::vector<Fr> vals;  // meaningful only where CS has values; cheap to keep anyway
    vars.push_back(Variable::one());
    vals.push_back(Fr::one());
    for (size_t i = 0; i < inputs; ++i) {
        Fr v = Fr::random(rng);
        vars.push_back(cs.alloc_input([&] { return v; }));
        vals.push_back(v);
    }
    {
        Fr v = Fr::random(rng);
        vars.push_back(cs.alloc([&] { return v; }));
        vals.push_back(v);
    }
    for (size_t k = 0; k < constraints; ++k) {
        const size_t n = vars.size();
        const size_t i = rng() % n, j = rng() % n, l = rng() % n;
        const Fr ck = Fr::random(rng), dk = Fr::random(rng);
        const Fr w = (ck * vals[i] + vals[j]) * (vals[l] + dk);
        Variable wv = cs.alloc([&] { return w; });
        auto a = cs.lc();
        cs.add(a, vars[i], ck);
        cs.add(a, vars[j]);
        auto b = cs.lc(vars[l]);
        cs.add_const(b, dk);
        cs.enforce([k] { return "product " + std::to_string(k); }, a, b, cs.lc(wv));
        vars.push_back(wv);
        vals.push_back(w);
    }
}

}  // namespace cuzk::circuits
