// The EmptySectorUpdate (SnapDeals) circuit, bit-compatible with rust-fil-proofs (the
// published Groth16 parameters fix its R1CS). Sources, read for facts (rust-fil-proofs):
//   storage-proofs-update/src/circuit.rs     PublicInputs, EmptySectorUpdateCircuit::synthesize
//   storage-proofs-update/src/gadgets.rs     apex_por, gen_challenge_bits,
//                                            get_challenge_high_bits, label_r_new
//   storage-proofs-update/src/compound.rs    generate_public_inputs, circuit, blank_circuit
//   storage-proofs-core/src/gadgets/{por,insertion}.rs   por_no_challenge_input, select
//
// Synthesis, in order: k_and_h_select (input) and its partition_bit_len + 6 bits; the partition
// packed; comm_r_old, comm_d_new, comm_r_new (inputs); phi = Poseidon2_Custom(1)(comm_d_new,
// comm_r_old); comm_c, root_r_old, root_r_new, the apex leaves and the partition path
// (private); comm_r_old / comm_r_new = Poseidon2(comm_c, root); the apex tree (SHA-256) and its
// root's path to comm_d_new; per digest the challenge bits (Poseidon2_Custom(1)(comm_r_new,
// k · digests + j), 255 bits); per challenge c: c_high by h_select, rho = Poseidon2_Custom(1)
// (phi, c_high), label_r_new = label_r_old + label_d_new · rho, the tree-R-old and tree-R-new
// paths of c, the apex leaf selected by c's bits and tree D's path from c to it.
//
// Public inputs (ONE excluded): k_and_h_select, comm_r_old, comm_d_new, comm_r_new.
//
// The leaf of tree R new in a vanilla proof is not read: the circuit computes it (Rust only
// asserts the two agree while synthesizing; vanilla verification checks it here).
//
// Constraints per partition, input constraints excluded (tests/circuits/test_update.cpp pins
// them): 1 KiB 1,248,389 · 2 KiB 1,705,039 · 4 KiB 2,165,109 · 8 KiB 2,620,359 · 16 KiB
// 6,300,021 · 32 KiB 6,760,091 (those six as rust-fil-proofs' tests/circuit.rs) · 8 MiB
// 10,007,503 · 16 MiB 10,467,573 · 512 MiB 57,450,479 · 32 GiB 81,049,499 (its
// test_empty_sector_update_constraints_32gib) · 64 GiB 85,006,101.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "cuzk/common/parallel.hpp"
#include "cuzk/filecoin/update.hpp"
#include "cuzk/gadgets/multipack.hpp"
#include "cuzk/gadgets/num.hpp"
#include "cuzk/gadgets/por.hpp"
#include "cuzk/gadgets/poseidon.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/r1cs/count_cs.hpp"
#include "cuzk/r1cs/eval_cs.hpp"

namespace cuzk::circuits {

// One challenge's leaves and siblings (circuit.rs ChallengeProof): per level of tree R
// (arity − 1 siblings) and of tree D (1 sibling).
struct UpdateChallengeWitness {
    Fr leaf_r_old = Fr::zero(), leaf_d_new = Fr::zero(), leaf_r_new = Fr::zero();
    std::vector<std::vector<Fr>> path_r_old, path_d_new, path_r_new;
};

struct EmptySectorUpdateCircuit {
    filecoin::UpdateConfig cfg;
    // Public inputs.
    Fr k_and_h_select = Fr::zero(), comm_r_old = Fr::zero(), comm_d_new = Fr::zero(), comm_r_new = Fr::zero();
    // Private inputs (circuit.rs PrivateInputs).
    Fr comm_c = Fr::zero(), root_r_old = Fr::zero(), root_r_new = Fr::zero();
    std::vector<Fr> apex_leafs;
    std::vector<UpdateChallengeWitness> challenges;
    // Witness mode synthesizes the challenges in parallel, each into its own block of the
    // assignment (r1cs::WitnessCS::synthesize_blocks); false: one after another.
    bool parallel_witness = true;

    // blank_circuit: every value zero, every path of the right shape. With k_and_h_select 0
    // (not a valid value) its witness is not satisfied; only its shape is used.
    static EmptySectorUpdateCircuit blank(const filecoin::UpdateConfig& cfg);
    // compound.rs circuit(): partition k from its vanilla proof. Checks only what the circuit's
    // shape needs (counts, path shapes, canonical values, one partition path for every
    // challenge): std::invalid_argument naming the partition and field otherwise. A proof that
    // does not verify gives an unsatisfied circuit.
    static EmptySectorUpdateCircuit from_partition_proof(const filecoin::UpdateConfig& cfg,
                                                         const filecoin::UpdatePublicInputs& pub, unsigned k,
                                                         const filecoin::UpdatePartitionProof& proof);
    // update_verify_partition, then from_partition_proof.
    static EmptySectorUpdateCircuit partition(const filecoin::UpdateConfig& cfg,
                                              const filecoin::UpdatePublicInputs& pub, unsigned k,
                                              const filecoin::UpdatePartitionProof& proof);

    template <class CS>
    void synthesize(CS& cs) const;
};

// compound.rs generate_public_inputs (ONE excluded): k_and_h_select, comm_r_old, comm_d_new,
// comm_r_new. std::invalid_argument for k or h out of range or a non-canonical commitment.
std::vector<Fr> update_public_inputs(const filecoin::UpdateConfig& cfg, const filecoin::UpdatePublicInputs& pub,
                                     unsigned k);

inline std::unique_ptr<groth16::Circuit> make_update_circuit(EmptySectorUpdateCircuit c,
                                                             std::string name = "empty-sector-update") {
    return groth16::make_circuit(std::move(c), std::move(name));
}

namespace update_detail {

using gadgets::AllocatedBit;
using gadgets::AllocatedNum;
using gadgets::Boolean;
using r1cs::Variable;

template <class CS>
AllocatedNum alloc_num(CS& cs, const std::string& name, const Fr& v) {
    auto ns = cs.namespace_(name);
    return AllocatedNum::alloc(cs, [&] { return v; });
}

// Σ 2^i bits[i] · ONE = num (the decompositions of k_and_h_select and of each digest).
template <class CS>
void enforce_decomposition(CS& cs, const char* name, const std::vector<AllocatedBit>& bits, const AllocatedNum& num) {
    auto lc = cs.lc();
    for (size_t i = 0; i < bits.size(); ++i) cs.add_bit(lc, bits[i].var, bits[i].value, r1cs::pow2(i));
    cs.enforce(name, lc, cs.lc(Variable::one()), cs.lc(num.var));
}

template <class CS>
AllocatedNum gen_randomness(CS& cs, const AllocatedNum& a, const AllocatedNum& b) {
    const AllocatedNum pre[2] = {a, b};
    return gadgets::poseidon_hash_circuit(cs, std::span<const AllocatedNum>(pre), gadgets::PoseidonHashType::custom(1));
}

// What every challenge reads of the partition's header.
struct Shared {
    std::vector<AllocatedBit> partition_bits, h_select_bits;
    AllocatedNum phi, root_r_old, root_r_new;
    std::vector<AllocatedNum> apex_leafs;
};

// One challenge (the body of circuit.rs's loop over generated_bits).
template <class CS>
void synthesize_challenge(CS& cs, const filecoin::UpdateConfig& cfg, const Shared& sh, size_t c_index,
                          const std::vector<AllocatedBit>& random_bits, const UpdateChallengeWitness& w) {
    const std::string ci = "(c_index=" + std::to_string(c_index) + ")";
    std::vector<AllocatedBit> c_bits = random_bits;
    c_bits.insert(c_bits.end(), sh.partition_bits.begin(), sh.partition_bits.end());
    const size_t bit_len = c_bits.size();

    // get_challenge_high_bits.
    AllocatedNum c_high;
    {
        auto ns = cs.namespace_("get_challenge_high_bits " + ci);
        std::vector<Boolean> cb(c_bits.begin(), c_bits.end());
        std::vector<AllocatedNum> or_zero;
        for (size_t k = 0; k < cfg.hs.size(); ++k) {
            const unsigned h = cfg.hs[k];
            const std::string hk = "(h=" + std::to_string(h) + ", k=" + std::to_string(k) + ")";
            AllocatedNum high;
            {
                auto nh = cs.namespace_("c_high " + hk);
                high = gadgets::pack_bits(cs, std::span<const Boolean>(cb).subspan(bit_len - h));
            }
            const AllocatedBit& sel = sh.h_select_bits[k];
            const AllocatedNum z = alloc_num(cs, "c_high_or_zero " + hk, sel.value ? high.value : Fr::zero());
            cs.enforce([&] { return "c_high_or_zero == c_high * h_select_bit " + hk; }, cs.lc(high.var), cs.lc(sel.var),
                       cs.lc(z.var));
            or_zero.push_back(z);
        }
        Fr sum = Fr::zero();
        for (const auto& z : or_zero) sum += z.value;
        c_high = alloc_num(cs, "c_high_selected", sum);
        auto lc = cs.lc();
        for (const auto& z : or_zero) cs.add(lc, z.var);
        cs.enforce("c_high_selected == dot(c_highs, h_select_bits)", lc, cs.lc(Variable::one()), cs.lc(c_high.var));
    }
    AllocatedNum rho;
    {
        auto ns = cs.namespace_("rho " + ci);
        rho = gen_randomness(cs, sh.phi, c_high);
    }
    const AllocatedNum leaf_r_old = alloc_num(cs, "leaf_r_old " + ci, w.leaf_r_old);
    const AllocatedNum leaf_d_new = alloc_num(cs, "leaf_d_new " + ci, w.leaf_d_new);
    // label_r_new.
    AllocatedNum leaf_r_new;
    {
        auto ns = cs.namespace_("leaf_r_new " + ci);
        AllocatedNum prod;
        {
            auto nm = cs.namespace_("label_d_new * rho");
            prod = leaf_d_new.mul(cs, rho);
        }
        leaf_r_new = alloc_num(cs, "label_r_new", leaf_r_old.value + prod.value);
        auto lc = cs.lc(leaf_r_old.var);
        cs.add(lc, prod.var);
        cs.enforce("label_r_new == label_r_old + label_d_new * rho", lc, cs.lc(Variable::one()), cs.lc(leaf_r_new.var));
    }
    auto alloc_path = [&](const char* name, const std::vector<std::vector<Fr>>& path) {
        std::vector<std::vector<AllocatedNum>> out;
        for (size_t row = 0; row < path.size(); ++row) {
            std::vector<AllocatedNum> sib;
            for (size_t s = 0; s < path[row].size(); ++s)
                sib.push_back(alloc_num(cs,
                                        std::string(name) + " sibling (c_index=" + std::to_string(c_index) +
                                            ", tree_row=" + std::to_string(row) +
                                            ", sibling_index=" + std::to_string(s) + ")",
                                        path[row][s]));
            out.push_back(std::move(sib));
        }
        return out;
    };
    const gadgets::TreeShape r_shape = cfg.tree_r_shape();
    {
        const auto path = alloc_path("path_r_old", w.path_r_old);
        auto ns = cs.namespace_("por tree_r_old " + ci);
        gadgets::por_no_challenge_input(cs, r_shape, std::span<const AllocatedBit>(c_bits), leaf_r_old, path,
                                        sh.root_r_old);
    }
    {
        const auto path = alloc_path("path_r_new", w.path_r_new);
        auto ns = cs.namespace_("por tree_r_new " + ci);
        gadgets::por_no_challenge_input(cs, r_shape, std::span<const AllocatedBit>(c_bits), leaf_r_new, path,
                                        sh.root_r_new);
    }
    const size_t to_apex = cfg.challenge_bit_len - cfg.partition_bit_len - cfg.apex_leaf_bit_len;
    AllocatedNum apex_leaf;
    {
        std::vector<Boolean> bits(c_bits.begin() + to_apex, c_bits.begin() + to_apex + cfg.apex_leaf_bit_len);
        auto ns = cs.namespace_("select_apex_leaf " + ci);
        apex_leaf = gadgets::select(cs, std::span<const AllocatedNum>(sh.apex_leafs), std::span<const Boolean>(bits));
    }
    std::vector<std::vector<AllocatedNum>> path_d;
    for (size_t row = 0; row < to_apex; ++row)
        path_d.push_back({alloc_num(
            cs,
            "path_to_apex_leaf sibling (c_index=" + std::to_string(c_index) + ", tree_row=" + std::to_string(row) + ")",
            w.path_d_new[row][0])});
    auto ns = cs.namespace_("por to_apex_leaf " + ci);
    gadgets::por_no_challenge_input(cs, gadgets::TreeShape::sha256_binary(),
                                    std::span<const AllocatedBit>(c_bits).subspan(0, to_apex), leaf_d_new, path_d,
                                    apex_leaf);
}

}  // namespace update_detail

template <class CS>
void EmptySectorUpdateCircuit::synthesize(CS& cs) const {
    using namespace update_detail;
    if (apex_leafs.size() != cfg.apex_leaf_count || challenges.size() != cfg.challenge_count)
        throw std::invalid_argument("EmptySectorUpdateCircuit: " + std::to_string(apex_leafs.size()) +
                                    " apex leaves and " + std::to_string(challenges.size()) + " challenges for " +
                                    std::to_string(cfg.apex_leaf_count) + " and " +
                                    std::to_string(cfg.challenge_count));
    const size_t r_levels = cfg.tree_r_arities().size();
    for (const auto& c : challenges)
        if (c.path_r_old.size() != r_levels || c.path_r_new.size() != r_levels ||
            c.path_d_new.size() != cfg.challenge_bit_len)
            throw std::invalid_argument("EmptySectorUpdateCircuit: a challenge's paths do not fit the sector");
    const size_t part_from = cfg.challenge_bit_len - cfg.partition_bit_len;
    const std::vector<std::vector<Fr>> partition_path(challenges[0].path_d_new.begin() + part_from,
                                                      challenges[0].path_d_new.end());
    for (const auto& c : challenges)
        for (size_t l = part_from; l < c.path_d_new.size(); ++l)
            if (c.path_d_new[l].size() != 1 || c.path_d_new[l][0] != partition_path[l - part_from][0])
                throw std::invalid_argument("EmptySectorUpdateCircuit: the challenges' partition paths differ");

    const unsigned hsel_len = unsigned(cfg.hs.size());
    const AllocatedNum khs = alloc_num(cs, "k_and_h_select", k_and_h_select);
    {
        auto ns = cs.namespace_("k_and_h_select (public input)");
        khs.inputize(cs);
    }
    std::vector<AllocatedBit> khs_bits;
    {
        const auto big = k_and_h_select.to_bigint();
        for (unsigned i = 0; i < cfg.partition_bit_len + hsel_len; ++i) {
            auto ns = cs.namespace_([i] { return "k_and_h_select_bit_" + std::to_string(i); });
            khs_bits.push_back(AllocatedBit::alloc(cs, big.bit(i)));
        }
        enforce_decomposition(cs, "k_and_h_select binary decomp", khs_bits, khs);
    }
    Shared sh;
    sh.partition_bits.assign(khs_bits.begin(), khs_bits.begin() + cfg.partition_bit_len);
    sh.h_select_bits.assign(khs_bits.begin() + cfg.partition_bit_len, khs_bits.end());
    AllocatedNum partition;
    {
        auto ns = cs.namespace_("pack partition bits");
        const std::vector<Boolean> pb(sh.partition_bits.begin(), sh.partition_bits.end());
        partition = gadgets::pack_bits(cs, std::span<const Boolean>(pb));
    }
    auto public_num = [&](const char* name, const char* input_name, const Fr& v) {
        const AllocatedNum n = alloc_num(cs, name, v);
        auto ns = cs.namespace_(input_name);
        n.inputize(cs);
        return n;
    };
    const AllocatedNum r_old = public_num("comm_r_old", "comm_r_old_input", comm_r_old);
    const AllocatedNum d_new = public_num("comm_d_new", "comm_d_new_input", comm_d_new);
    const AllocatedNum r_new = public_num("comm_r_new", "comm_r_new_input", comm_r_new);
    {
        auto ns = cs.namespace_("phi");
        sh.phi = gen_randomness(cs, d_new, r_old);
    }
    const AllocatedNum c = alloc_num(cs, "comm_c", comm_c);
    sh.root_r_old = alloc_num(cs, "root_r_old", root_r_old);
    sh.root_r_new = alloc_num(cs, "root_r_new", root_r_new);
    for (size_t i = 0; i < apex_leafs.size(); ++i)
        sh.apex_leafs.push_back(alloc_num(cs, "apex_leaf_" + std::to_string(i), apex_leafs[i]));
    std::vector<std::vector<AllocatedNum>> part_path;
    for (size_t i = 0; i < partition_path.size(); ++i)
        part_path.push_back({alloc_num(cs, "partition_path_sibling_" + std::to_string(i), partition_path[i][0])});
    // comm_r = Poseidon2(comm_c, root), old and new.
    auto check_comm_r = [&](const char* name, const char* eq, const AllocatedNum& root, const AllocatedNum& comm) {
        AllocatedNum calc;
        {
            auto ns = cs.namespace_(name);
            const AllocatedNum pre[2] = {c, root};
            calc = gadgets::poseidon_hash_circuit(cs, std::span<const AllocatedNum>(pre));
        }
        cs.enforce(eq, cs.lc(calc.var), cs.lc(Variable::one()), cs.lc(comm.var));
    };
    check_comm_r("comm_r_old_calc", "enforce comm_r_old_calc == comm_r_old", sh.root_r_old, r_old);
    check_comm_r("comm_r_new_calc", "enforce comm_r_new_calc == comm_r_new", sh.root_r_new, r_new);
    // apex_por: the apex tree, then its root's path (the partition bits) to comm_d_new.
    {
        auto ns = cs.namespace_("apex_gadget");
        std::vector<AllocatedNum> row = sh.apex_leafs;
        for (size_t r = 0; row.size() > 1; ++r) {
            std::vector<AllocatedNum> up;
            for (size_t i = 0; i < row.size(); i += 2) {
                auto nh = cs.namespace_([r, i] {
                    return "apex_tree generation hash (tree_row=" + std::to_string(r) +
                           ", siblings=" + std::to_string(i / 2) + ")";
                });
                const AllocatedNum pair[2] = {row[i], row[i + 1]};
                up.push_back(gadgets::sha256_hash_leaves_circuit(cs, std::span<const AllocatedNum>(pair)));
            }
            row = std::move(up);
        }
        auto np = cs.namespace_("partition-tree por");
        gadgets::por_no_challenge_input(cs, gadgets::TreeShape::sha256_binary(),
                                        std::span<const AllocatedBit>(sh.partition_bits), row[0], part_path, d_new);
    }
    // gen_challenge_bits.
    const unsigned bits_per = cfg.challenge_bit_len - cfg.partition_bit_len;
    const unsigned per_digest = unsigned(gadgets::kFrCapacity) / bits_per;
    const uint64_t digests = (cfg.challenge_count + per_digest - 1) / per_digest;
    std::vector<std::vector<AllocatedBit>> generated;
    {
        auto ns = cs.namespace_("gen_challenge_bits");
        for (uint64_t j = 0; j < digests; ++j) {
            AllocatedNum index;
            {
                auto ni = cs.namespace_([j] { return "digest_index_" + std::to_string(j); });
                index =
                    AllocatedNum::alloc(cs, [&] { return partition.value * Fr::from_u64(digests) + Fr::from_u64(j); });
            }
            auto lc = cs.lc();
            cs.add(lc, partition.var, Fr::from_u64(digests));
            cs.add(lc, Variable::one(), Fr::from_u64(j));
            cs.enforce(
                [j] {
                    return "digest_index_" + std::to_string(j) + " == k * digests_per_partition + " + std::to_string(j);
                },
                lc, cs.lc(Variable::one()), cs.lc(index.var));
            AllocatedNum digest;
            {
                auto nd = cs.namespace_([j] { return "digest_" + std::to_string(j); });
                digest = gen_randomness(cs, r_new, index);
            }
            std::vector<AllocatedBit> bits;
            {
                auto nb = cs.namespace_([j] { return "digest_" + std::to_string(j) + "_bits"; });
                bits = gadgets::field_into_allocated_bits_le(cs, digest.value);
                enforce_decomposition(cs, "binary decomp", bits, digest);
            }
            const size_t take = j + 1 == digests ? cfg.challenge_count - generated.size() : size_t(per_digest);
            for (size_t i = 0; i < take; ++i)
                generated.emplace_back(bits.begin() + i * bits_per, bits.begin() + (i + 1) * bits_per);
        }
    }
    if constexpr (std::is_same_v<CS, r1cs::WitnessCS>) {
        // Every challenge has the same variables and constraints: they are synthesized in
        // parallel, each into its own block (counts from counting challenge 0).
        if (parallel_witness && challenges.size() > 1 && num_threads() > 1) {
            r1cs::CountCS counter;
            synthesize_challenge(counter, cfg, sh, 0, generated[0], challenges[0]);
            const r1cs::BlockCounts per{counter.num_inputs() - 1, counter.num_aux(), counter.num_constraints()};
            cs.synthesize_blocks(challenges.size(), per, [&](size_t i, r1cs::SegmentCS& seg) {
                synthesize_challenge(seg, cfg, sh, i, generated[i], challenges[i]);
            });
            return;
        }
    }
    for (size_t i = 0; i < challenges.size(); ++i) synthesize_challenge(cs, cfg, sh, i, generated[i], challenges[i]);
}

}  // namespace cuzk::circuits
