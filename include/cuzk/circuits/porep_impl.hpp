// Template body of StackedCircuit::synthesize (included by porep.hpp).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/common/parallel.hpp"
#include "cuzk/filecoin/graph.hpp"
#include "cuzk/gadgets/boolean.hpp"
#include "cuzk/gadgets/multipack.hpp"
#include "cuzk/gadgets/num.hpp"
#include "cuzk/gadgets/por.hpp"
#include "cuzk/gadgets/poseidon.hpp"
#include "cuzk/gadgets/sha256.hpp"
#include "cuzk/gadgets/uint32.hpp"
#include "cuzk/r1cs/count_cs.hpp"
#include "cuzk/r1cs/eval_cs.hpp"

namespace cuzk::circuits {

namespace porep_detail {

using gadgets::AllocatedBit;
using gadgets::AllocatedNum;
using gadgets::Boolean;

// storage-proofs-core util.rs::reverse_bit_numbering: pad with constant zeros to whole
// bytes, then reverse the bits within each byte (little-endian bits to the byte string's
// most-significant-first order).
inline std::vector<Boolean> reverse_bit_numbering(std::vector<Boolean> bits) {
    while (bits.size() % 8) bits.push_back(Boolean::constant(false));
    std::vector<Boolean> out;
    out.reserve(bits.size());
    for (size_t k = 0; k < bits.size(); k += 8)
        for (size_t j = 8; j-- > 0;) out.push_back(bits[k + j]);
    return out;
}

// params.rs::enforce_inclusion: PoRCircuit::synthesize with Root::Var leaf and root, private.
template <class CS>
void enforce_inclusion(CS& cs, const gadgets::TreeShape& shape, std::span<const gadgets::PathElement> path,
                       const AllocatedNum& root, const AllocatedNum& leaf) {
    gadgets::por(cs, shape, gadgets::NumOrValue::var(leaf), path, gadgets::NumOrValue::var(root), true);
}

// column.rs Column::alloc in namespace "column": rows "column_num_row_i".
template <class CS>
std::vector<AllocatedNum> alloc_column(CS& cs, const StackedColumnProof& col) {
    auto ns = cs.namespace_("column");
    std::vector<AllocatedNum> rows;
    rows.reserve(col.rows.size());
    for (size_t i = 0; i < col.rows.size(); ++i) {
        auto nr = cs.namespace_([i] { return "column_num_row_" + std::to_string(i); });
        rows.push_back(AllocatedNum::alloc(cs, [&] { return col.rows[i]; }));
    }
    return rows;
}

// hash.rs::hash_single_column: Poseidon (legacy circuit, MerkleTree tag) of arity 2 or 11.
template <class CS>
AllocatedNum hash_single_column(CS& cs, std::span<const AllocatedNum> column) {
    if (column.size() != 2 && column.size() != 11)
        throw std::invalid_argument("hash_single_column: unsupported column size " + std::to_string(column.size()));
    return gadgets::poseidon_hash_circuit(cs, column);
}

// create_label.rs::create_label_circuit: SHA-256 of replica_id (256 bits) ‖ u32_be(layer) ‖
// u64_be(node) ‖ zeros to 512 ‖ 37 parents (256 bits each), the digest's bits reversed
// within bytes, the first 254 packed into one number ("result_num").
template <class CS>
AllocatedNum create_label(CS& cs, std::span<const Boolean> replica_id,
                          const std::vector<const std::vector<Boolean>*>& parents, uint32_t layer,
                          std::span<const Boolean> node_bits_le) {
    if (parents.size() != filecoin::kTotalParents) throw std::invalid_argument("create_label: 37 parents needed");
    std::vector<Boolean> pre;
    pre.reserve((2 + filecoin::kTotalParents) * 256);
    pre.insert(pre.end(), replica_id.begin(), replica_id.end());
    while (pre.size() < 256) pre.push_back(Boolean::constant(false));
    for (int i = 31; i >= 0; --i) pre.push_back(Boolean::constant((layer >> i) & 1));  // UInt32 into_bits_be
    for (size_t i = node_bits_le.size(); i-- > 0;) pre.push_back(node_bits_le[i]);     // UInt64 to_bits_be
    while (pre.size() < 512) pre.push_back(Boolean::constant(false));
    for (const std::vector<Boolean>* p : parents) {
        pre.insert(pre.end(), p->begin(), p->end());
        while (pre.size() % 256) pre.push_back(Boolean::constant(false));
    }
    std::vector<Boolean> digest;
    {
        auto ns = cs.namespace_("hash");
        digest = gadgets::sha256(cs, std::span<const Boolean>(pre));
    }
    auto bits = reverse_bit_numbering(std::move(digest));
    auto ns = cs.namespace_("result_num");
    return gadgets::pack_bits(cs, std::span<const Boolean>(bits).subspan(0, gadgets::kFrCapacity));
}

// The 255 bits of a row, to_bits_le then reverse_bit_numbering (256 bits).
template <class CS, class Name>
std::vector<Boolean> row_bits(CS& cs, const AllocatedNum& row, Name&& name) {
    auto ns = cs.namespace_(std::forward<Name>(name));
    return reverse_bit_numbering(row.to_bits_le(cs));
}

// params.rs Proof::synthesize: one challenge.
template <class CS>
void synthesize_challenge(CS& cs, const StackedParams& pp, const StackedChallengeProof& p, const AllocatedNum& comm_d,
                          const AllocatedNum& comm_c, const AllocatedNum& comm_r_last,
                          std::span<const Boolean> replica_id_bits) {
    const gadgets::TreeShape tree_d = gadgets::TreeShape::sha256_binary();
    // Path lengths fix the circuit: a short path would give another (smaller) circuit.
    const size_t levels = pp.tree_levels();
    auto check_len = [](size_t got, size_t want, const char* what) {
        if (got != want)
            throw std::invalid_argument(std::string("porep: ") + what + " has " + std::to_string(got) +
                                        " levels, the sector needs " + std::to_string(want));
    };
    check_len(p.comm_d_path.size(), pp.comm_d_levels(), "the tree-D path");
    check_len(p.comm_r_last_path.size(), levels, "the tree-R path");
    check_len(p.comm_c_path.size(), levels, "the tree-C path");
    if (p.drg_parents.size() != filecoin::kBaseDegree || p.exp_parents.size() != filecoin::kExpDegree)
        throw std::invalid_argument("porep: 6 DRG and 8 expander parent columns needed");
    for (const auto* cols : {&p.drg_parents, &p.exp_parents})
        for (const StackedColumnProof& col : *cols) check_len(col.path.size(), levels, "a parent's tree-C path");
    AllocatedNum data_leaf;
    {
        auto ns = cs.namespace_("data_leaf");
        data_leaf = AllocatedNum::alloc(cs, [&] { return p.data_leaf; });
    }
    {
        auto ns = cs.namespace_("comm_d_inclusion");
        enforce_inclusion(cs, tree_d, p.comm_d_path, comm_d, data_leaf);
    }

    // Parent columns: allocate, hash, prove in tree C.
    auto parent_columns = [&](const std::vector<StackedColumnProof>& cols, const char* kind) {
        std::vector<std::vector<AllocatedNum>> out;
        out.reserve(cols.size());
        for (size_t i = 0; i < cols.size(); ++i) {
            if (cols[i].rows.size() != pp.layers) throw std::invalid_argument("porep: a parent column has wrong rows");
            std::vector<AllocatedNum> col;
            {
                auto ns = cs.namespace_([&] { return std::string(kind) + "_parent_" + std::to_string(i) + "_num"; });
                col = alloc_column(cs, cols[i]);
            }
            AllocatedNum h;
            {
                auto ns =
                    cs.namespace_([&] { return std::string(kind) + "_parent_" + std::to_string(i) + "_constraint"; });
                h = hash_single_column(cs, std::span<const AllocatedNum>(col));
            }
            {
                auto ns =
                    cs.namespace_([&] { return std::string(kind) + "_parent_" + std::to_string(i) + "_inclusion"; });
                enforce_inclusion(cs, pp.tree, cols[i].path, comm_c, h);
            }
            out.push_back(std::move(col));
        }
        return out;
    };
    const auto drg = parent_columns(p.drg_parents, "drg");
    const auto exp = parent_columns(p.exp_parents, "exp");

    // The challenge: UInt64::alloc ("allocated bit i"), pack_into_input.
    std::vector<Boolean> challenge_bits;
    challenge_bits.reserve(64);
    {
        auto ns = cs.namespace_("challenge");
        for (size_t i = 0; i < 64; ++i) {
            auto nb = cs.namespace_([i] { return "allocated bit " + std::to_string(i); });
            challenge_bits.push_back(AllocatedBit::alloc(cs, (p.challenge >> i) & 1));
        }
    }
    {
        auto ns = cs.namespace_("challenge input");
        gadgets::pack_into_inputs(cs, std::span<const Boolean>(challenge_bits));
    }

    // Labels of layers 1..L.
    std::vector<AllocatedNum> column_labels;
    column_labels.reserve(pp.layers);
    for (uint32_t layer = 1; layer <= pp.layers; ++layer) {
        auto ns = cs.namespace_([layer] { return "labeling_" + std::to_string(layer); });
        std::vector<std::vector<Boolean>> parents;
        parents.reserve(filecoin::kDegree);
        for (const auto& col : drg) {
            const size_t n = parents.size();
            parents.push_back(
                row_bits(cs, col[layer - 1], [n] { return "drg_parent_" + std::to_string(n) + "_bits"; }));
        }
        if (layer > 1) {
            for (const auto& col : exp) {
                const size_t n = parents.size();
                parents.push_back(
                    row_bits(cs, col[layer - 2], [n] { return "exp_parent_" + std::to_string(n) + "_bits"; }));
            }
        }
        // Repeat to 37: layer 1 has the 6 DRG parents 6 times then the first; later layers
        // the 14 parents twice then the first 9.
        std::vector<const std::vector<Boolean>*> expanded;
        expanded.reserve(filecoin::kTotalParents);
        for (size_t i = 0; i < filecoin::kTotalParents; ++i) expanded.push_back(&parents[i % parents.size()]);
        auto nl = cs.namespace_("create_label");
        column_labels.push_back(create_label(cs, replica_id_bits, expanded, layer, challenge_bits));
    }

    // Encoding: encoded = key + data_leaf (encode.rs, constraint::add), in tree R.
    {
        const AllocatedNum& key = column_labels.back();
        AllocatedNum encoded;
        {
            auto ns = cs.namespace_("encode_node");
            auto na = cs.namespace_("encode_add");
            {
                auto nn = cs.namespace_("add_num");
                encoded = AllocatedNum::alloc(cs, [&] { return key.value + data_leaf.value; });
            }
            auto a = cs.lc(key.var);
            cs.add(a, data_leaf.var);
            cs.enforce("sum constraint", a, cs.lc(r1cs::Variable::one()), cs.lc(encoded.var));
        }
        auto ns = cs.namespace_("comm_r_last_data_inclusion");
        enforce_inclusion(cs, pp.tree, p.comm_r_last_path, comm_r_last, encoded);
    }

    // The challenge's own column in tree C.
    AllocatedNum column_hash;
    {
        auto ns = cs.namespace_("c_x_column_hash");
        column_hash = hash_single_column(cs, std::span<const AllocatedNum>(column_labels));
    }
    auto ns = cs.namespace_("c_x_inclusion");
    enforce_inclusion(cs, pp.tree, p.comm_c_path, comm_c, column_hash);
}

}  // namespace porep_detail

template <class CS>
void StackedCircuit::synthesize(CS& cs) const {
    using gadgets::AllocatedNum;
    using gadgets::Boolean;
    if (proofs.size() != params.challenges)
        throw std::invalid_argument("StackedCircuit: " + std::to_string(proofs.size()) + " proofs for " +
                                    std::to_string(params.challenges) + " challenges");
    auto alloc = [&](const char* name, const Fr& v) {
        auto ns = cs.namespace_(name);
        return AllocatedNum::alloc(cs, [&] { return v; });
    };
    auto inputize = [&](const char* name, const AllocatedNum& n) {
        auto ns = cs.namespace_(name);
        n.inputize(cs);
    };
    const AllocatedNum replica_id_num = alloc("replica_id", replica_id);
    inputize("replica_id_input", replica_id_num);
    std::vector<Boolean> replica_id_bits;
    {
        auto ns = cs.namespace_("replica_id_bits");
        replica_id_bits = porep_detail::reverse_bit_numbering(replica_id_num.to_bits_le(cs));
    }
    const AllocatedNum comm_d_num = alloc("comm_d", comm_d);
    inputize("comm_d_input", comm_d_num);
    const AllocatedNum comm_r_num = alloc("comm_r", comm_r);
    inputize("comm_r_input", comm_r_num);
    const AllocatedNum comm_r_last_num = alloc("comm_r_last", comm_r_last);
    const AllocatedNum comm_c_num = alloc("comm_c", comm_c);
    {
        AllocatedNum h;
        {
            auto ns = cs.namespace_("H_comm_c_comm_r_last");
            const AllocatedNum pre[2] = {comm_c_num, comm_r_last_num};
            h = gadgets::poseidon_hash_circuit(cs, std::span<const AllocatedNum>(pre));
        }
        // constraint::equal: comm_r · 1 = hash.
        cs.enforce("enforce comm_r = H(comm_c || comm_r_last)", cs.lc(comm_r_num.var), cs.lc(r1cs::Variable::one()),
                   cs.lc(h.var));
    }
    if constexpr (std::is_same_v<CS, r1cs::WitnessCS>) {
        // Every challenge has the same variables and constraints (the R1CS is fixed), so
        // they are synthesized in parallel, each into its own block of the assignment:
        // the counts of one block come from counting challenge 0.
        if (parallel_witness && proofs.size() > 1 && num_threads() > 1) {
            r1cs::CountCS counter;
            porep_detail::synthesize_challenge(counter, params, proofs[0], comm_d_num, comm_c_num, comm_r_last_num,
                                               replica_id_bits);
            const r1cs::BlockCounts per{counter.num_inputs() - 1, counter.num_aux(), counter.num_constraints()};
            cs.synthesize_blocks(proofs.size(), per, [&](size_t i, r1cs::SegmentCS& seg) {
                porep_detail::synthesize_challenge(seg, params, proofs[i], comm_d_num, comm_c_num, comm_r_last_num,
                                                   replica_id_bits);
            });
            return;
        }
    }
    for (size_t i = 0; i < proofs.size(); ++i) {
        auto ns = cs.namespace_([i] { return "challenge_" + std::to_string(i); });
        porep_detail::synthesize_challenge(cs, params, proofs[i], comm_d_num, comm_c_num, comm_r_last_num,
                                           replica_id_bits);
    }
}

}  // namespace cuzk::circuits
