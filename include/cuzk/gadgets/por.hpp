// Merkle inclusion in the constraint system, replaying rust-fil-proofs exactly:
//   pick / select / insert          storage-proofs-core/src/gadgets/insertion.rs
//   hash_multi_leaf_circuit         filecoin-hashers/src/{poseidon.rs, sha256.rs}
//   por (PoRCircuit::synthesize)    storage-proofs-core/src/gadgets/por.rs
//   por_no_challenge_input          same file (SnapDeals)
// Costs (storage-proofs-core/tests/por_circuit.rs): one level is log2(arity) index bits, the
// insertion (insert_2 = 2, insert_4 = 8, insert_8 = 22 constraints, else arity·(arity-1)) and
// the hash: Poseidon-8 level 530, Poseidon-2 level 314, SHA-256 binary level 45,382.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cuzk/gadgets/boolean.hpp"
#include "cuzk/gadgets/merkle.hpp"
#include "cuzk/gadgets/multipack.hpp"
#include "cuzk/gadgets/num.hpp"
#include "cuzk/gadgets/poseidon.hpp"
#include "cuzk/gadgets/sha256.hpp"

namespace cuzk::gadgets {

// ---- insertion.rs -----------------------------------------------------------------------------

// c = condition ? a : b, enforced as (b - a) · condition = b - c.
template <class CS>
AllocatedNum pick(CS& cs, const Boolean& condition, const AllocatedNum& a, const AllocatedNum& b) {
    AllocatedNum c;
    {
        auto ns = cs.namespace_("pick result");
        c = AllocatedNum::alloc(cs, [&] { return condition.value() ? a.value : b.value; });
    }
    auto la = cs.lc(b.var);
    cs.sub(la, a.var);
    auto lc = cs.lc(b.var);
    cs.sub(lc, c.var);
    cs.enforce("pick", la, condition.lc(cs, Fr::one()), lc);
    return c;
}

// from[index(path_bits)], path_bits little-endian: size - 1 picks, most significant bit first.
template <class CS>
AllocatedNum select(CS& cs, std::span<const AllocatedNum> from, std::span<const Boolean> path_bits) {
    if ((size_t(1) << path_bits.size()) != from.size()) throw std::invalid_argument("select: 2^bits != size");
    std::vector<AllocatedNum> state(from.begin(), from.end());
    size_t half = from.size() / 2;
    for (size_t i = 0; i < path_bits.size(); ++i) {
        const Boolean& bit = path_bits[path_bits.size() - 1 - i];
        std::vector<AllocatedNum> next;
        for (size_t j = 0; j < half; ++j) {
            auto ns = cs.namespace_([i, j] { return "pick " + std::to_string(i) + ", " + std::to_string(j); });
            next.push_back(pick(cs, bit, state[half + j], state[j]));
        }
        state = std::move(next);
        half /= 2;
    }
    return state[0];
}

namespace insertion_detail {
template <class CS>
AllocatedNum named_pick(CS& cs, const char* name, const Boolean& cond, const AllocatedNum& a, const AllocatedNum& b) {
    auto ns = cs.namespace_(name);
    return pick(cs, cond, a, b);
}
}  // namespace insertion_detail

// insert_2: [bit ? e0 : x, bit ? x : e0] ("binary insert 0/1").
template <class CS>
std::vector<AllocatedNum> insert_2(CS& cs, const AllocatedNum& x, std::span<const Boolean> bits,
                                   std::span<const AllocatedNum> e) {
    using insertion_detail::named_pick;
    return {named_pick(cs, "binary insert 0", bits[0], e[0], x), named_pick(cs, "binary insert 1", bits[0], x, e[0])};
}

// insert_4: 8 picks, witnesses named p{pos}_{b1 b0 pattern} as upstream.
template <class CS>
std::vector<AllocatedNum> insert_4(CS& cs, const AllocatedNum& a, std::span<const Boolean> bits,
                                   std::span<const AllocatedNum> e) {
    using insertion_detail::named_pick;
    const Boolean &b0 = bits[0], &b1 = bits[1];
    const AllocatedNum &b = e[0], &c = e[1], &d = e[2];
    auto p0_x0 = named_pick(cs, "p0_x0", b0, b, a);
    auto p0 = named_pick(cs, "p0", b1, b, p0_x0);
    auto p1_x0 = named_pick(cs, "p1_x0", b0, a, b);
    auto p1 = named_pick(cs, "p1", b1, c, p1_x0);
    auto p2_x1 = named_pick(cs, "p2_x1", b0, d, a);
    auto p2 = named_pick(cs, "p2", b1, p2_x1, c);
    auto p3_x1 = named_pick(cs, "p3_x1", b0, a, d);
    auto p3 = named_pick(cs, "p3", b1, p3_x1, d);
    return {p0, p1, p2, p3};
}

// insert_8: b0 nor b1, b0 and b1, then 20 picks (22 constraints). The bits must be allocated
// and not negated (upstream panics otherwise).
template <class CS>
std::vector<AllocatedNum> insert_8(CS& cs, const AllocatedNum& a, std::span<const Boolean> bits,
                                   std::span<const AllocatedNum> el) {
    using insertion_detail::named_pick;
    for (int i = 0; i < 2; ++i)
        if (bits[i].kind() != Boolean::Kind::Is)
            throw std::invalid_argument("insert_8: bits must be allocated, unnegated");
    const Boolean &b0 = bits[0], &b1 = bits[1], &b2 = bits[2];
    Boolean nor01, and01;
    {
        auto ns = cs.namespace_("b0 nor b1");
        nor01 = AllocatedBit::nor(cs, b0.bit(), b1.bit());
    }
    {
        auto ns = cs.namespace_("b0 and b1");
        and01 = AllocatedBit::and_(cs, b0.bit(), b1.bit());
    }
    const AllocatedNum &b = el[0], &c = el[1], &d = el[2], &e = el[3], &f = el[4], &g = el[5], &h = el[6];
    auto p0_xx0 = named_pick(cs, "p0_xx0", nor01, a, b);
    auto p0 = named_pick(cs, "p0", b2, b, p0_xx0);
    auto p1_x00 = named_pick(cs, "p1_x00", b0, a, b);
    auto p1_xx0 = named_pick(cs, "p1_xx0", b1, c, p1_x00);
    auto p1 = named_pick(cs, "p1", b2, c, p1_xx0);
    auto p2_x10 = named_pick(cs, "p2_x10", b0, d, a);
    auto p2_xx0 = named_pick(cs, "p2_xx0", b1, p2_x10, c);
    auto p2 = named_pick(cs, "p2", b2, d, p2_xx0);
    auto p3_xx0 = named_pick(cs, "p3_xx0", and01, a, d);
    auto p3 = named_pick(cs, "p3", b2, e, p3_xx0);
    auto p4_xx1 = named_pick(cs, "p4_xx1", nor01, a, f);
    auto p4 = named_pick(cs, "p4", b2, p4_xx1, e);
    auto p5_x01 = named_pick(cs, "p5_x01", b0, a, f);
    auto p5_xx1 = named_pick(cs, "p5_xx1", b1, g, p5_x01);
    auto p5 = named_pick(cs, "p5", b2, p5_xx1, f);
    auto p6_x11 = named_pick(cs, "p6_x11", b0, h, a);
    auto p6_xx1 = named_pick(cs, "p6_xx1", b1, p6_x11, g);
    auto p6 = named_pick(cs, "p6", b2, p6_xx1, g);
    auto p7_xx1 = named_pick(cs, "p7_xx1", and01, a, h);
    auto p7 = named_pick(cs, "p7", b2, p7_xx1, h);
    return {p0, p1, p2, p3, p4, p5, p6, p7};
}

// Inserts `element` into `elements` at the position the little-endian bits encode.
template <class CS>
std::vector<AllocatedNum> insert(CS& cs, const AllocatedNum& element, std::span<const Boolean> bits,
                                 std::span<const AllocatedNum> elements) {
    const size_t size = elements.size() + 1;
    if ((size_t(1) << bits.size()) != size) throw std::invalid_argument("insert: 2^bits != elements + 1");
    if (size == 2) return insert_2(cs, element, bits, elements);
    if (size == 4) return insert_4(cs, element, bits, elements);
    if (size == 8) return insert_8(cs, element, bits, elements);
    // General case: for each position, select among the values it takes for each index.
    std::vector<AllocatedNum> result;
    for (size_t pos = 0; pos < size; ++pos) {
        std::vector<AllocatedNum> choices;
        for (size_t index = 0; index < size; ++index)
            choices.push_back(pos < index ? elements[pos] : pos == index ? element : elements[pos - 1]);
        auto ns = cs.namespace_([pos] { return "choice at " + std::to_string(pos); });
        result.push_back(select(cs, std::span<const AllocatedNum>(choices), bits));
    }
    return result;
}

// Constraints of insert for `arity` children.
inline size_t insert_constraints(size_t arity) {
    return arity == 2 ? 2 : arity == 4 ? 8 : arity == 8 ? 22 : arity * (arity - 1);
}

// ---- filecoin-hashers: the node hash in the circuit -------------------------------------------

// SHA-256 of the children: each child to_bits_le (255 bits + 1), padded with a constant 0 to 256,
// bits reversed within each byte (the 32-byte little-endian encoding, MSB first per byte); the
// digest's bytes bit-reversed and its first 254 bits packed (pack_bits, 1 constraint)
// (sha256.rs::hash_multi_leaf_circuit, hash_circuit).
template <class CS>
AllocatedNum sha256_hash_leaves_circuit(CS& cs, std::span<const AllocatedNum> leaves) {
    std::vector<Boolean> bits;
    bits.reserve(leaves.size() * 256);
    for (size_t i = 0; i < leaves.size(); ++i) {
        std::vector<Boolean> padded;
        {
            auto ns = cs.namespace_([i] { return std::to_string(i) + "_num_into_bits"; });
            padded = leaves[i].to_bits_le(cs);
        }
        while (padded.size() % 8) padded.push_back(Boolean::constant(false));
        for (size_t k = 0; k < padded.size(); k += 8)
            for (size_t j = 8; j-- > 0;) bits.push_back(padded[k + j]);
    }
    std::vector<Boolean> be;
    {
        auto ns = cs.namespace_("hash");
        be = sha256(cs, std::span<const Boolean>(bits));
    }
    std::vector<Boolean> le;
    le.reserve(kFrCapacity);
    for (size_t k = 0; k < be.size() && le.size() < kFrCapacity; k += 8)
        for (size_t j = 8; j-- > 0 && le.size() < kFrCapacity;) le.push_back(be[k + j]);
    auto ns = cs.namespace_("pack_le");
    return pack_bits(cs, std::span<const Boolean>(le));
}

// Hasher::Function::hash_multi_leaf_circuit: Poseidon (legacy circuit, MerkleTree tag) of
// arity leaves.size(), or SHA-256 as above.
template <class CS>
AllocatedNum hash_multi_leaf_circuit(CS& cs, MerkleHasher h, std::span<const AllocatedNum> leaves) {
    if (h == MerkleHasher::Sha256) return sha256_hash_leaves_circuit(cs, leaves);
    return poseidon_hash_circuit(cs, leaves);
}

// ---- por.rs -----------------------------------------------------------------------------------

// por.rs's Root: a number already in the circuit (Root::Var) or a value to allocate (Root::Val).
struct NumOrValue {
    std::optional<AllocatedNum> num;
    Fr value = Fr::zero();

    static NumOrValue val(const Fr& v) { return {std::nullopt, v}; }
    static NumOrValue var(const AllocatedNum& n) { return {n, n.value}; }

    template <class CS>
    AllocatedNum allocated(CS& cs) const {
        if (num) return *num;
        return AllocatedNum::alloc(cs, [&] { return value; });
    }
};

namespace por_detail {

// SubPath::synthesize: levels in namespaces "merkle tree hash i"; per level the index bits
// ("index bit k"), the siblings ("path element k"), insert, then the hash ("computation of
// commitment hash"). Appends the index bits to path_bits.
template <class CS>
AllocatedNum sub_path(CS& cs, MerkleHasher hasher, std::span<const PathElement> path, AllocatedNum cur,
                      std::vector<Boolean>& path_bits) {
    for (size_t i = 0; i < path.size(); ++i) {
        const PathElement& el = path[i];
        const size_t arity = el.siblings.size() + 1;
        if (arity < 2 || (arity & (arity - 1))) throw std::invalid_argument("por: arity must be a power of two");
        size_t nbits = 0;
        while ((size_t(1) << nbits) < arity) ++nbits;
        auto ns = cs.namespace_([i] { return "merkle tree hash " + std::to_string(i); });
        std::vector<Boolean> index_bits;
        for (size_t k = 0; k < nbits; ++k) {
            auto nb = cs.namespace_([k] { return "index bit " + std::to_string(k); });
            index_bits.push_back(AllocatedBit::alloc(cs, (el.index >> k) & 1));
        }
        path_bits.insert(path_bits.end(), index_bits.begin(), index_bits.end());
        std::vector<AllocatedNum> siblings;
        for (size_t k = 0; k < el.siblings.size(); ++k) {
            auto nb = cs.namespace_([k] { return "path element " + std::to_string(k); });
            siblings.push_back(AllocatedNum::alloc(cs, [&] { return el.siblings[k]; }));
        }
        auto inserted = insert(cs, cur, std::span<const Boolean>(index_bits), std::span<const AllocatedNum>(siblings));
        auto nh = cs.namespace_("computation of commitment hash");
        cur = hash_multi_leaf_circuit(cs, hasher, std::span<const AllocatedNum>(inserted));
    }
    return cur;
}

}  // namespace por_detail

// PoRCircuit::synthesize(cs, value, auth_path, root, private): the leaf ("value"), the base,
// sub and top paths (namespaces "base", "sub", "top"), pack_into_inputs of all index bits
// ("path": one public input, the leaf index), the root ("root_value"), root equality, and when
// !private_root the root inputized ("root"). `path` holds the base levels, then the sub level,
// then the top level, as MerkleTree::prove returns them; in shape mode only the sizes matter.
template <class CS>
void por(CS& cs, const TreeShape& shape, const NumOrValue& leaf, std::span<const PathElement> path,
         const NumOrValue& root, bool private_root) {
    const size_t extra = (shape.sub_arity ? 1 : 0) + (shape.top_arity ? 1 : 0);
    if (path.size() <= extra) throw std::invalid_argument("por: path shorter than the tree shape");
    const size_t nbase = path.size() - extra;
    auto check = [&](std::span<const PathElement> p, uint32_t arity) {
        for (const PathElement& e : p)
            if (e.siblings.size() + 1 != arity) throw std::invalid_argument("por: path arity differs from the shape");
    };
    check(path.subspan(0, nbase), shape.base_arity);
    if (shape.sub_arity) check(path.subspan(nbase, 1), shape.sub_arity);
    if (shape.top_arity) check(path.subspan(nbase + 1, 1), shape.top_arity);

    AllocatedNum cur;
    {
        auto ns = cs.namespace_("value");
        cur = leaf.allocated(cs);
    }
    std::vector<Boolean> bits;
    {
        auto ns = cs.namespace_("base");
        cur = por_detail::sub_path(cs, shape.hasher, path.subspan(0, nbase), cur, bits);
    }
    {
        auto ns = cs.namespace_("sub");
        cur = por_detail::sub_path(cs, shape.hasher, path.subspan(nbase, shape.sub_arity ? 1 : 0), cur, bits);
    }
    {
        auto ns = cs.namespace_("top");
        cur = por_detail::sub_path(cs, shape.hasher, path.subspan(nbase + (shape.sub_arity ? 1 : 0)), cur, bits);
    }
    {
        auto ns = cs.namespace_("path");
        pack_into_inputs(cs, std::span<const Boolean>(bits));
    }
    AllocatedNum rt;
    {
        auto ns = cs.namespace_("root_value");
        rt = root.allocated(cs);
    }
    // constraint::equal: computed · 1 = root.
    cs.enforce("enforce root is correct", cs.lc(cur.var), cs.lc(Variable::one()), cs.lc(rt.var));
    if (!private_root) {
        auto ns = cs.namespace_("root");
        rt.inputize(cs);
    }
}

// por_no_challenge_input: the challenge bits (little-endian) and the siblings are allocated by
// the caller; per level insert ("merkle proof insert (height=h)") then hash ("merkle proof hash
// (height=h)"); then computed · 1 = root. No public input.
template <class CS>
void por_no_challenge_input(CS& cs, const TreeShape& shape, std::span<const AllocatedBit> challenge_bits,
                            const AllocatedNum& leaf, const std::vector<std::vector<AllocatedNum>>& path_values,
                            const AllocatedNum& root) {
    const size_t extra = (shape.sub_arity ? 1 : 0) + (shape.top_arity ? 1 : 0);
    // A path may have no base level (the apex root's path in a sector of one partition).
    if (path_values.size() < extra) throw std::invalid_argument("por_no_challenge_input: path too short");
    const size_t nbase = path_values.size() - extra;
    AllocatedNum cur = leaf;
    size_t bit = 0;
    for (size_t h = 0; h < path_values.size(); ++h) {
        const uint32_t arity =
            h < nbase ? shape.base_arity : (h == nbase && shape.sub_arity ? shape.sub_arity : shape.top_arity);
        if (path_values[h].size() + 1 != arity)
            throw std::invalid_argument("por_no_challenge_input: path element has the wrong number of siblings");
        std::vector<Boolean> index;
        for (uint32_t a = arity; a > 1; a >>= 1) {
            if (bit >= challenge_bits.size()) throw std::invalid_argument("por_no_challenge_input: too few bits");
            index.push_back(challenge_bits[bit++]);
        }
        std::vector<AllocatedNum> preimg;
        {
            auto ns = cs.namespace_([h] { return "merkle proof insert (height=" + std::to_string(h) + ")"; });
            preimg = insert(cs, cur, std::span<const Boolean>(index), std::span<const AllocatedNum>(path_values[h]));
        }
        auto ns = cs.namespace_([h] { return "merkle proof hash (height=" + std::to_string(h) + ")"; });
        cur = hash_multi_leaf_circuit(cs, shape.hasher, std::span<const AllocatedNum>(preimg));
    }
    if (bit != challenge_bits.size())
        throw std::invalid_argument("por_no_challenge_input: challenge bit-length and tree arity do not agree");
    cs.enforce("calculated root == provided root", cs.lc(cur.var), cs.lc(Variable::one()), cs.lc(root.var));
}

// Constraints of one level of `arity` with `hasher` (index bits + insert + hash).
inline size_t por_level_constraints(MerkleHasher hasher, size_t arity) {
    size_t bits = 0;
    while ((size_t(1) << bits) < arity) ++bits;
    // SHA-256 level: 2 × to_bits_le (256) + the SHA-256 of 512 bits, two of them constant
    // (44,866) + pack_bits (1).
    const size_t hash = hasher == MerkleHasher::Sha256 ? 2 * 256 + 44866 + 1 : poseidon_circuit_constraints(arity);
    return bits + insert_constraints(arity) + hash;
}

}  // namespace cuzk::gadgets
