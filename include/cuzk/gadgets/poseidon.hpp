// Poseidon over BLS12-381 Fr exactly as neptune computes it for Filecoin (neptune v11..14,
// argumentcomputer/neptune; the constants and test vectors also match filecoin-project/neptune).
//
// The constants and the native hash are in the hash layer (cuzk/hash/poseidon.hpp).
//
// The circuit (poseidon_hash_circuit below) replays neptune's *legacy* src/circuit.rs::
// poseidon_hash, the form Filecoin's published parameters were made with ("retained for
// backwards compatibility with extant trusted setups"; not circuit2). Its allocated values are
// the optimized-form states. Constraints: 3(t-1) + 4t(RF-1) + 4RP + 1, i.e. 311 / 377 / 505 / 598
// for arity 2 / 4 / 8 / 11.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/gadgets/num.hpp"
#include "cuzk/hash/poseidon.hpp"

namespace cuzk::gadgets {

// The native side (cuzk/hash/poseidon.hpp), named here as the circuits name it.
using hash::poseidon_constants;
using hash::poseidon_grain_round_constants;
using hash::poseidon_hash;
using hash::poseidon_hash_reference;
using hash::poseidon_round_numbers;
using hash::PoseidonConstants;
using hash::PoseidonHashType;

// ---- the circuit (neptune src/circuit.rs, legacy) ------------------------------------------

namespace poseidon_detail {

// neptune's Elt: an allocated number, or an unallocated linear combination with its value.
// In witness mode (kTrustValues) the LC is not built: it is rebuilt from the value when a
// constraint needs it. In shape mode (no values) values are not computed.
template <class CS>
struct Elt {
    using LC = typename CS::LC;
    bool allocated = false;
    Variable var;  // when allocated
    LC lc{};       // when not allocated (not maintained in witness mode)
    Fr value = Fr::zero();

    static Elt constant(const CS& cs, const Fr& c) {
        Elt e;
        e.lc = cs.lc();
        if constexpr (!CS::kTrustValues) cs.add_const(e.lc, c);
        e.value = c;
        return e;
    }
    static Elt from(const AllocatedNum& n) {
        Elt e;
        e.allocated = true;
        e.var = n.var;
        e.value = n.value;
        return e;
    }
    static Elt zero(const CS& cs) {
        Elt e;
        e.lc = cs.lc();
        return e;
    }
    // acc += c · self (acc must be a Num): neptune's acc.add(elt.scale(c)).
    void add_scaled_to(const CS& cs, Elt& acc, const Fr& c) const {
        if constexpr (!CS::kTrustValues) {
            if (allocated)
                cs.add(acc.lc, var, c);
            else
                cs.add_lc(acc.lc, lc, c);
        }
        if constexpr (CS::kHasValues) acc.value += value * c;
    }
    // self += o (both Nums).
    void add_num(const CS& cs, const Elt& o) {
        if constexpr (!CS::kTrustValues) cs.add_lc(lc, o.lc);
        if constexpr (CS::kHasValues) value += o.value;
    }
    // The LC of this element (1·var when allocated).
    LC as_lc(const CS& cs) const {
        if (allocated) return cs.lc(var);
        if constexpr (CS::kTrustValues) {
            LC l = cs.lc();
            cs.add_const(l, value);
            return l;
        } else {
            return lc;
        }
    }
};

// Elt::ensure_allocated(enforce = true): a Num is allocated and num · ONE = v enforced.
template <class CS>
AllocatedNum ensure_allocated(CS& cs, const Elt<CS>& e) {
    if (e.allocated) return AllocatedNum{e.var, e.value};
    AllocatedNum v;
    {
        auto ns = cs.namespace_("allocate for Elt::Num");
        v = AllocatedNum::alloc(cs, [&] { return e.value; });
    }
    cs.enforce("enforce num allocation preserves lc", e.as_lc(cs), cs.lc(Variable::one()), cs.lc(v.var));
    return v;
}

// (num + k)^2 = res, allocated then enforced (circuit.rs::square_sum).
template <class CS>
AllocatedNum square_sum(CS& cs, const Fr& k, const AllocatedNum& num) {
    AllocatedNum res;
    {
        auto ns = cs.namespace_("squared sum");
        res = AllocatedNum::alloc(cs, [&] { return (num.value + k).square(); });
    }
    auto l = cs.lc(num.var);
    cs.add_const(l, k);
    cs.enforce("squared sum constraint", l, l, cs.lc(res.var));
    return res;
}

// res = a · (b + pre) + post, enforced as (b + pre) · a = res - post (circuit.rs::mul_sum).
template <class CS>
AllocatedNum mul_sum(CS& cs, const AllocatedNum& a, const AllocatedNum& b, const Fr* pre, const Fr* post) {
    AllocatedNum res;
    {
        auto ns = cs.namespace_("mul_sum");
        res = AllocatedNum::alloc(cs, [&] {
            Fr t = b.value;
            if (pre) t += *pre;
            t *= a.value;
            if (post) t += *post;
            return t;
        });
    }
    auto la = cs.lc(b.var);
    if (pre) cs.add_const(la, *pre);
    auto lc = cs.lc(res.var);
    if (post) cs.add_const(lc, -*post);
    const char* name = pre ? (post ? "mul sum constraint pre-post-add" : "mul sum constraint pre-add")
                           : (post ? "mul sum constraint post-add" : "mul sum constraint");
    cs.enforce(name, la, cs.lc(a.var), lc);
    return res;
}

template <class CS>
class PoseidonCircuit {
 public:
    PoseidonCircuit(CS& cs, const PoseidonConstants& c, std::vector<Elt<CS>> elements)
        : cs_(cs), c_(c), el_(std::move(elements)) {}

    // circuit.rs::PoseidonCircuit::hash.
    AllocatedNum hash() {
        {
            auto ns = cs_.namespace_("first round");
            full_round(true, false);
        }
        for (size_t i = 1; i < c_.half_full_rounds; ++i) {
            auto ns = cs_.namespace_([i] { return "initial full round " + std::to_string(i); });
            full_round(false, false);
        }
        for (size_t i = 0; i < c_.partial_rounds; ++i) {
            auto ns = cs_.namespace_([i] { return "partial round " + std::to_string(i); });
            partial_round();
        }
        for (size_t i = 0; i + 1 < c_.half_full_rounds; ++i) {
            auto ns = cs_.namespace_([i] { return "final full round " + std::to_string(i); });
            full_round(false, false);
        }
        {
            auto ns = cs_.namespace_("terminal full round");
            full_round(false, true);
        }
        auto ns = cs_.namespace_("hash result");
        return ensure_allocated(cs_, el_[1]);
    }

 private:
    void full_round(bool first, bool last) {
        const size_t t = c_.width;
        const Fr* pre = nullptr;
        const Fr* post = nullptr;
        size_t off = offset_;
        if (first) {
            pre = &c_.compressed_round_constants[off];
            off += t;
        }
        if (first || !last) {
            post = &c_.compressed_round_constants[off];
            off += t;
        }
        for (size_t i = 0; i < t; ++i) {
            const Fr* post_i = post ? post + i : nullptr;
            if (first && i == 0) {
                // The tag's first S-box is a constant (constant_quintic_s_box_pre_add_tag).
                Fr x = el_[0].value + pre[0];
                x = x * x.square().square() + *post_i;
                el_[0] = Elt<CS>::constant(cs_, x);
                continue;
            }
            auto ns = cs_.namespace_([i] { return "quintic s-box " + std::to_string(i); });
            if (first)
                el_[i] = s_box_pre_add(el_[i], pre[i], *post_i);
            else
                el_[i] = s_box(el_[i], post_i);
        }
        offset_ = off;
        product_mds();
    }

    void partial_round() {
        const Fr* key = &c_.compressed_round_constants[offset_++];
        auto ns = cs_.namespace_("solitary quintic s-box");
        el_[0] = s_box(el_[0], key);
        product_mds();
    }

    // circuit.rs::quintic_s_box: l = ensure_allocated(e); l^2; l^4; l4·l + post.
    Elt<CS> s_box(const Elt<CS>& e, const Fr* post) {
        AllocatedNum l;
        {
            auto ns = cs_.namespace_("S-box input");
            l = ensure_allocated(cs_, e);
        }
        AllocatedNum l2, l4;
        {
            auto ns = cs_.namespace_("l^2");
            l2 = l.square(cs_);
        }
        {
            auto ns = cs_.namespace_("l^4");
            l4 = l2.square(cs_);
        }
        auto ns = cs_.namespace_("(l4 * l) + rk)");
        return Elt<CS>::from(mul_sum(cs_, l4, l, nullptr, post));
    }

    // circuit.rs::quintic_s_box_pre_add: (l + pre)^2; ^2; l4·(l + pre) + post.
    Elt<CS> s_box_pre_add(const Elt<CS>& e, const Fr& pre, const Fr& post) {
        AllocatedNum l;
        {
            auto ns = cs_.namespace_("S-box input");
            l = ensure_allocated(cs_, e);
        }
        AllocatedNum l2, l4;
        {
            auto ns = cs_.namespace_("(l+rk)^2");
            l2 = square_sum(cs_, pre, l);
        }
        {
            auto ns = cs_.namespace_("l^4");
            l4 = l2.square(cs_);
        }
        auto ns = cs_.namespace_("l4 * (l + rk)");
        return Elt<CS>::from(mul_sum(cs_, l4, l, &pre, &post));
    }

    // circuit.rs::product_mds: the pre-sparse matrix after the first half of the full rounds,
    // the sparse matrices in the partial rounds, M otherwise.
    void product_mds() {
        const size_t half = c_.half_full_rounds;
        const size_t sparse_offset = half - 1;
        if (round_ == sparse_offset) {
            product_with_matrix(c_.pre_sparse_matrix);
        } else if (round_ > sparse_offset && round_ < half + c_.partial_rounds) {
            product_with_sparse(c_.sparse_matrices[round_ - sparse_offset - 1]);
        } else {
            product_with_matrix(c_.mds);
        }
        ++round_;
    }

    // result[j] = Σ_i matrix[i][j] · el[i] (neptune's apply_matrix orientation).
    void product_with_matrix(const std::vector<Fr>& m) {
        const size_t t = c_.width;
        std::vector<Elt<CS>> out;
        out.reserve(t);
        for (size_t j = 0; j < t; ++j) {
            Elt<CS> acc = Elt<CS>::zero(cs_);
            for (size_t i = 0; i < t; ++i) el_[i].add_scaled_to(cs_, acc, m[i * t + j]);
            out.push_back(std::move(acc));
        }
        el_ = std::move(out);
    }

    // result[0] = Σ w_hat[i] el[i]; result[j] = el[j] + v_rest[j-1] · el[0].
    void product_with_sparse(const PoseidonConstants::Sparse& s) {
        const size_t t = c_.width;
        Elt<CS> first = Elt<CS>::zero(cs_);
        for (size_t i = 0; i < t; ++i) el_[i].add_scaled_to(cs_, first, s.w_hat[i]);
        for (size_t j = 1; j < t; ++j) el_[0].add_scaled_to(cs_, el_[j], s.v_rest[j - 1]);
        el_[0] = std::move(first);
    }

    CS& cs_;
    const PoseidonConstants& c_;
    std::vector<Elt<CS>> el_;
    size_t offset_ = 0;  // into compressed_round_constants
    size_t round_ = 0;   // rounds done (selects the matrix)
};

}  // namespace poseidon_detail

// neptune circuit.rs::poseidon_hash (legacy): preimage.size() must equal c.arity (the legacy
// circuit has no padding, so ConstantLength(l) needs l == arity). Allocates the result.
template <class CS>
AllocatedNum poseidon_hash_circuit(CS& cs, std::span<const AllocatedNum> preimage, const PoseidonConstants& c,
                                   PoseidonHashType type = {}) {
    using poseidon_detail::Elt;
    if (preimage.size() != c.arity)
        throw std::invalid_argument("poseidon_hash_circuit: preimage length must equal the arity");
    if (type.kind == PoseidonHashType::Kind::ConstantLength && type.param != c.arity)
        throw std::invalid_argument("poseidon_hash_circuit: ConstantLength must equal the arity (legacy circuit)");
    std::vector<Elt<CS>> elements;
    elements.reserve(c.width);
    elements.push_back(Elt<CS>::constant(cs, type.domain_tag(c.arity)));
    for (const AllocatedNum& x : preimage) elements.push_back(Elt<CS>::from(x));
    return poseidon_detail::PoseidonCircuit<CS>(cs, c, std::move(elements)).hash();
}

template <class CS>
AllocatedNum poseidon_hash_circuit(CS& cs, std::span<const AllocatedNum> preimage, PoseidonHashType type = {}) {
    return poseidon_hash_circuit(cs, preimage, poseidon_constants(preimage.size()), type);
}

// Constraints of one legacy Poseidon circuit: 3(t-1) + 4t(RF-1) + 4RP + 1.
inline size_t poseidon_circuit_constraints(size_t arity) {
    auto [rf, rp] = poseidon_round_numbers(arity);
    const size_t t = arity + 1;
    return 3 * (t - 1) + 4 * t * (rf - 1) + 4 * rp + 1;
}

}  // namespace cuzk::gadgets
