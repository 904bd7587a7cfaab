// Template bodies of the built-in circuits (included by builtin.hpp).
#pragma once

#include <algorithm>
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
    const size_t products = constraints - inputs - 1;  // the rest are the input constraints
    // The values are kept only where CS has values: in shape mode they would be 32 bytes a
    // variable (4 GiB at 2^27) that nothing reads. The draws are the same in every mode.
    constexpr bool kValues = CS::kHasValues;
    std::vector<Variable> vars;
    std::vector<Fr> vals;
    vars.reserve(inputs + products + 2);
    if constexpr (kValues) vals.reserve(inputs + products + 2);
    vars.push_back(Variable::one());
    if constexpr (kValues) vals.push_back(Fr::one());
    for (size_t i = 0; i < inputs; ++i) {
        Fr v = Fr::random(rng);
        vars.push_back(cs.alloc_input([&] { return v; }));
        if constexpr (kValues) vals.push_back(v);
    }
    {
        Fr v = Fr::random(rng);
        vars.push_back(cs.alloc([&] { return v; }));
        if constexpr (kValues) vals.push_back(v);
    }
    // Variables 1..inputs + 1 (the inputs and the first private value) are read in turn by
    // the first products, in place of their random draws; each later product has its
    // output in C, so no variable is left out of every constraint.
    const size_t first_free = inputs + 2;
    size_t next_unread = 1;
    // Constraint k reads three earlier variables at random: at 2^26 the values are 2 GiB, so
    // each read is a cache miss (~55% of the time before). The draws of a block are made
    // first, in the same order as one at a time (the circuit does not change), so that the
    // reads of a constraint a few ahead can be prefetched.
    struct Draw {
        size_t i, j, l;
        Fr ck, dk;
    };
    constexpr size_t kBlock = 64, kAhead = 8;
    Draw draws[kBlock];
    for (size_t k0 = 0; k0 < products; k0 += kBlock) {
        const size_t len = std::min(kBlock, products - k0);
        for (size_t d = 0; d < len; ++d) {
            const size_t n = vars.size() + d;  // variables before constraint k0 + d
            Draw& x = draws[d];
            for (size_t* idx : {&x.i, &x.j, &x.l}) {
                *idx = rng() % n;
                if (next_unread < first_free) *idx = next_unread++;
            }
            x.ck = Fr::random(rng);
            x.dk = Fr::random(rng);
        }
        for (size_t d = 0; d < len; ++d) {
            if (d + kAhead < len) {
                const Draw& a = draws[d + kAhead];
                for (size_t idx : {a.i, a.j, a.l}) {
                    if constexpr (kValues) __builtin_prefetch(vals.data() + idx);
                    __builtin_prefetch(vars.data() + idx);
                }
            }
            const Draw& x = draws[d];
            const size_t k = k0 + d;
            Fr w = Fr::zero();
            if constexpr (kValues) w = (x.ck * vals[x.i] + vals[x.j]) * (vals[x.l] + x.dk);
            Variable wv = cs.alloc([&] { return w; });
            auto a = cs.lc();
            cs.add(a, vars[x.i], x.ck);
            cs.add(a, vars[x.j]);
            auto b = cs.lc(vars[x.l]);
            cs.add_const(b, x.dk);
            cs.enforce([k] { return "product " + std::to_string(k); }, a, b, cs.lc(wv));
            vars.push_back(wv);
            if constexpr (kValues) vals.push_back(w);
        }
    }
}

}  // namespace cuzk::circuits
