// SnapDeals natively (sources in the header).
#include "cuzk/filecoin/update.hpp"

#include <bit>
#include <map>
#include <memory>
#include <stdexcept>
#include <unordered_map>

#include "bincode.hpp"
#include "cuzk/common/parallel.hpp"
#include "cuzk/filecoin/post.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/gadgets/poseidon.hpp"
#include "cuzk/hash/sha256.hpp"
#include "proof_paths.hpp"
#include "sparse_tree.hpp"

namespace cuzk::filecoin {

using detail::to_bytes;

// ---- registry --------------------------------------------------------------------------------

namespace {

constexpr uint64_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;

// constants.rs: ALLOWED_SECTOR_SIZES and validate_tree_r_shape; the registered proofs are the
// published sizes (2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB).
struct UpdateRow {
    uint64_t sector_size;
    TreeShape tree;
    int proof;  // RegisteredUpdateProof id, -1 for a test size
};
constexpr UpdateRow kUpdateRows[] = {
    {1 * kKiB, {8, 4, 0}, -1},  {2 * kKiB, {8, 0, 0}, 0},   {4 * kKiB, {8, 2, 0}, -1}, {8 * kKiB, {8, 4, 0}, -1},
    {16 * kKiB, {8, 8, 0}, -1}, {32 * kKiB, {8, 8, 2}, -1}, {8 * kMiB, {8, 0, 0}, 1},  {16 * kMiB, {8, 2, 0}, -1},
    {512 * kMiB, {8, 0, 0}, 2}, {32 * kGiB, {8, 8, 0}, 3},  {64 * kGiB, {8, 8, 2}, 4},
};
constexpr size_t kUpdateRowCount = sizeof(kUpdateRows) / sizeof(kUpdateRows[0]);

constexpr std::string_view kUpdateNames[kRegisteredUpdateProofCount] = {
    "StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1", "StackedDrg32GiBV1", "StackedDrg64GiBV1",
};

UpdateConfig make_update_config(const UpdateRow& row) {
    UpdateConfig c;
    if (row.proof >= 0) {
        c.proof = RegisteredUpdateProof(row.proof);
        c.name = kUpdateNames[row.proof];
    }
    c.sector_size = row.sector_size;
    c.nodes = row.sector_size / 32;
    const uint64_t n = c.nodes;
    c.challenge_bit_len = unsigned(std::countr_zero(n));
    c.challenge_count = n <= (16 * kMiB) / 32 ? 10 : 86;
    c.partition_count = n <= (8 * kKiB) / 32 ? 1 : n <= (32 * kKiB) / 32 ? 2 : n <= (16 * kMiB) / 32 ? 4 : 16;
    c.partition_bit_len = unsigned(std::countr_zero(c.partition_count));
    c.apex_leaf_count = n <= (8 * kKiB) / 32 ? 8 : 128;
    c.apex_leaf_bit_len = unsigned(std::countr_zero(c.apex_leaf_count));
    if (n <= (32 * kKiB) / 32)
        c.hs = {1, 1, 1, 1, 1, 1};
    else
        c.hs = {7, 8, 9, 10, 11, 12};
    c.tree = row.tree;
    return c;
}

const std::array<UpdateConfig, kUpdateRowCount>& update_configs() {
    static const std::array<UpdateConfig, kUpdateRowCount> configs = [] {
        std::array<UpdateConfig, kUpdateRowCount> out{};
        for (size_t i = 0; i < kUpdateRowCount; ++i) out[i] = make_update_config(kUpdateRows[i]);
        return out;
    }();
    return configs;
}

}  // namespace

std::vector<uint32_t> UpdateConfig::tree_r_arities() const { return tree_r_shape().level_arities(nodes); }

gadgets::TreeShape UpdateConfig::tree_r_shape() const {
    return gadgets::TreeShape::poseidon(tree.base_arity, tree.sub_arity, tree.top_arity);
}

uint64_t UpdateConfig::k_and_h_select(unsigned k, unsigned h) const {
    if (k >= partition_count)
        throw std::invalid_argument("partition " + std::to_string(k) + " out of range: a " + size_name() +
                                    " update has " + std::to_string(partition_count) + " partitions");
    for (size_t i = 0; i < hs.size(); ++i)
        if (hs[i] == h) return uint64_t(k) | (uint64_t(1) << i) << partition_bit_len;
    throw std::invalid_argument("h = " + std::to_string(h) + " is not allowed for " + size_name() + " sectors (" +
                                std::to_string(hs[0]) + ".." + std::to_string(hs[5]) + ")");
}

std::string UpdateConfig::size_name() const {
    if (sector_size >= kGiB) return std::to_string(sector_size / kGiB) + "GiB";
    if (sector_size >= kMiB) return std::to_string(sector_size / kMiB) + "MiB";
    return std::to_string(sector_size / kKiB) + "KiB";
}

const UpdateConfig& update_config(RegisteredUpdateProof proof) {
    const uint64_t id = uint64_t(proof);
    for (const UpdateConfig& c : update_configs())
        if (c.proof && uint64_t(*c.proof) == id) return c;
    throw std::invalid_argument("unknown registered update proof id " + std::to_string(id));
}

const UpdateConfig* update_config_for_sector_size(uint64_t sector_size) {
    for (const UpdateConfig& c : update_configs())
        if (c.sector_size == sector_size) return &c;
    return nullptr;
}

std::optional<RegisteredUpdateProof> update_proof_from_name(std::string_view name) {
    for (uint64_t id = 0; id < kRegisteredUpdateProofCount; ++id)
        if (kUpdateNames[id] == name) return RegisteredUpdateProof(id);
    return std::nullopt;
}

std::optional<RegisteredUpdateProof> update_proof_from_id(uint64_t id) {
    if (id >= kRegisteredUpdateProofCount) return std::nullopt;
    return RegisteredUpdateProof(id);
}

std::string update_parameter_identifier(const UpdateConfig& cfg) {
    return "empty_sector_update::PublicParams{ sector_nodes: " + std::to_string(cfg.nodes) + " }";
}

std::string update_parameter_cache_id(const UpdateConfig& cfg) {
    const std::string id = update_parameter_identifier(cfg);
    const auto digest = sha256_bytes({reinterpret_cast<const uint8_t*>(id.data()), id.size()});
    return "empty-sector-update-" + cfg.tree.display() + "-" + to_hex(digest);
}

std::string update_params_file_name(const UpdateConfig& cfg) {
    return "v28-" + update_parameter_cache_id(cfg) + ".params";
}
std::string update_vk_file_name(const UpdateConfig& cfg) { return "v28-" + update_parameter_cache_id(cfg) + ".vk"; }

// ---- commitments ------------------------------------------------------------------------------

namespace {
// Unsigned LEB128 varints of the codecs and multihash codes (go-fil-commcid).
constexpr uint8_t kSealedPrefix[] = {0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20};
constexpr uint8_t kUnsealedPrefix[] = {0x01, 0x81, 0xe2, 0x03, 0x92, 0x20, 0x20};
}  // namespace

Bytes32 commitment_from_bytes(std::span<const uint8_t> bytes, bool sealed, const std::string& field) {
    const std::span<const uint8_t> prefix =
        sealed ? std::span<const uint8_t>(kSealedPrefix) : std::span<const uint8_t>(kUnsealedPrefix);
    Bytes32 out{};
    if (bytes.size() == 32) {
        std::copy(bytes.begin(), bytes.end(), out.begin());
    } else if (bytes.size() == prefix.size() + 32 && std::equal(prefix.begin(), prefix.end(), bytes.begin())) {
        std::copy(bytes.begin() + prefix.size(), bytes.end(), out.begin());
    } else {
        throw std::invalid_argument(field + ": expected 32 bytes or the " + std::to_string(prefix.size() + 32) +
                                    "-byte CID of a " + (sealed ? "sealed" : "unsealed") +
                                    " commitment (fil-commitment-" + (sealed ? "sealed" : "unsealed") + "), got " +
                                    std::to_string(bytes.size()) + " bytes");
    }
    if (!Fr::from_bytes_le(out.data())) throw std::invalid_argument(field + ": not a canonical field element");
    return out;
}

std::vector<uint8_t> commitment_cid_bytes(const Bytes32& commitment, bool sealed) {
    std::vector<uint8_t> out;
    if (sealed)
        out.assign(std::begin(kSealedPrefix), std::end(kSealedPrefix));
    else
        out.assign(std::begin(kUnsealedPrefix), std::end(kUnsealedPrefix));
    out.insert(out.end(), commitment.begin(), commitment.end());
    return out;
}

// ---- challenges and randomness ---------------------------------------------------------------

namespace {
Fr gen_randomness(const Fr& a, const Fr& b) {
    const std::array<Fr, 2> pre{a, b};
    return gadgets::poseidon_hash(pre, gadgets::PoseidonHashType::custom(1));
}
}  // namespace

Fr update_phi(const Fr& comm_d_new, const Fr& comm_r_old) { return gen_randomness(comm_d_new, comm_r_old); }
Fr update_rho(const Fr& phi, uint64_t high) { return gen_randomness(phi, Fr::from_u64(high)); }

std::vector<uint64_t> update_challenges(const UpdateConfig& cfg, const Fr& comm_r_new, unsigned k) {
    if (k >= cfg.partition_count)
        throw std::invalid_argument("update_challenges: partition " + std::to_string(k) + " of " +
                                    std::to_string(cfg.partition_count));
    const unsigned bits = cfg.challenge_bit_len - cfg.partition_bit_len;
    const unsigned per_digest = 254 / bits;
    const uint64_t digests = (cfg.challenge_count + per_digest - 1) / per_digest;
    std::vector<uint64_t> out;
    out.reserve(cfg.challenge_count);
    for (uint64_t j = 0; out.size() < cfg.challenge_count; ++j) {
        const auto digest = gen_randomness(comm_r_new, Fr::from_u64(k * digests + j)).to_bigint();
        for (unsigned i = 0; i < per_digest && out.size() < cfg.challenge_count; ++i) {
            uint64_t c = 0;
            for (unsigned b = 0; b < bits; ++b)
                if (digest.bit(i * bits + b)) c |= uint64_t(1) << b;
            out.push_back(c | uint64_t(k) << bits);
        }
    }
    return out;
}

// ---- bincode ---------------------------------------------------------------------------------

namespace {

constexpr TreeShape kTreeD{2, 0, 0};

std::string tree_r_name(const UpdateConfig& cfg) { return "tree R " + cfg.tree.display(); }
size_t tree_r_base_levels(const UpdateConfig& cfg) {
    return cfg.tree_r_arities().size() - (cfg.tree.sub_arity ? 1 : 0) - (cfg.tree.top_arity ? 1 : 0);
}

}  // namespace

UpdatePartitionProof decode_update_partition_proof(const UpdateConfig& cfg, std::span<const uint8_t> bytes,
                                                   const std::string& what) {
    using bincode::Reader;
    Reader r(bytes, what);
    UpdatePartitionProof p;
    {
        Reader::Field f(r, "comm_c");
        p.comm_c = r.b32();
    }
    {
        Reader::Field f(r, "apex_leafs");
        const size_t n = r.len(cfg.apex_leaf_count, 32, "apex leaves");
        p.apex_leafs.resize(n);
        for (auto& a : p.apex_leafs) a = r.b32();
    }
    const size_t r_levels = tree_r_base_levels(cfg);
    const uint64_t r_bytes = bincode::merkle_proof_bytes(cfg.tree, r_levels);
    const uint64_t d_bytes = bincode::merkle_proof_bytes(kTreeD, cfg.challenge_bit_len);
    Reader::Field f(r, "challenge_proofs");
    const size_t n = r.len(cfg.challenge_count, 2 * r_bytes + d_bytes, "challenge proofs");
    p.challenge_proofs.resize(n);
    for (size_t i = 0; i < n; ++i) {
        Reader::Field fi(r, bincode::index_name(i));
        UpdateChallengeProof& c = p.challenge_proofs[i];
        {
            Reader::Field g(r, "proof_r_old");
            c.proof_r_old = bincode::read_merkle_proof(r, cfg.tree, r_levels, tree_r_name(cfg));
        }
        {
            Reader::Field g(r, "proof_d_new");
            c.proof_d_new = bincode::read_merkle_proof(r, kTreeD, cfg.challenge_bit_len, "tree D");
        }
        Reader::Field g(r, "proof_r_new");
        c.proof_r_new = bincode::read_merkle_proof(r, cfg.tree, r_levels, tree_r_name(cfg));
    }
    r.finish();
    return p;
}

std::vector<uint8_t> encode_update_partition_proof(const UpdatePartitionProof& proof) {
    bincode::Writer w;
    w.b32(proof.comm_c);
    w.u64(proof.apex_leafs.size());
    for (const Bytes32& a : proof.apex_leafs) w.b32(a);
    w.u64(proof.challenge_proofs.size());
    for (const UpdateChallengeProof& c : proof.challenge_proofs) {
        w.merkle_proof(c.proof_r_old);
        w.merkle_proof(c.proof_d_new);
        w.merkle_proof(c.proof_r_new);
    }
    return std::move(w.out);
}

// ---- verification ----------------------------------------------------------------------------

namespace {

// A Merkle proof as the native verifier takes it; `refuse(field, problem)` on a bad shape or
// a non-canonical value.
template <class Refuse>
gadgets::MerkleProof native_proof(const MerkleProof& m, const gadgets::TreeShape& shape,
                                  const std::vector<uint32_t>& arities, const TreeShape& tree, const std::string& field,
                                  Refuse&& refuse) {
    if (m.kind != bincode::proof_kind(tree))
        refuse(field, std::string("a ") + bincode::kind_name(m.kind) + " proof, the tree needs " +
                          bincode::kind_name(bincode::proof_kind(tree)));
    const size_t upper = (tree.sub_arity ? 1 : 0) + (tree.top_arity ? 1 : 0);
    if (m.base.size() + upper != arities.size() || m.sub.size() != (tree.sub_arity ? 1u : 0u) ||
        m.top.size() != (tree.top_arity ? 1u : 0u))
        refuse(field, "a path of " + std::to_string(m.base.size() + m.sub.size() + m.top.size()) +
                          " levels, the tree has " + std::to_string(arities.size()));
    gadgets::MerkleProof g;
    g.shape = shape;
    try {
        g.path = merkle_path_fr(m, field);
    } catch (const std::invalid_argument&) {
        refuse(field, "a sibling is not a canonical field element");
    }
    for (size_t l = 0; l < arities.size(); ++l)
        if (g.path[l].siblings.size() + 1 != arities[l] || g.path[l].index >= arities[l])
            refuse(field + ".path[" + std::to_string(l) + "]",
                   std::to_string(g.path[l].siblings.size()) + " siblings at index " + std::to_string(g.path[l].index) +
                       " do not fit arity " + std::to_string(arities[l]));
    const auto leaf = Fr::from_bytes_le(m.leaf.data());
    const auto root = Fr::from_bytes_le(m.root.data());
    if (!leaf) refuse(field + ".leaf", "not a canonical field element");
    if (!root) refuse(field + ".root", "not a canonical field element");
    g.leaf = *leaf;
    g.root = *root;
    return g;
}

}  // namespace

void update_verify_partition(const UpdateConfig& cfg, const UpdatePublicInputs& pub, unsigned k,
                             const UpdatePartitionProof& proof) {
    const std::string part = "partition " + std::to_string(k);
    auto refuse = [&](const std::string& field, const std::string& problem) {
        throw std::invalid_argument(part + ": " + field + ": " + problem);
    };
    const unsigned h = pub.h ? pub.h : cfg.h_default();
    cfg.k_and_h_select(k, h);  // k and h in range
    auto canonical = [&](const Bytes32& b, const char* field) {
        const auto f = Fr::from_bytes_le(b.data());
        if (!f) refuse(field, "not a canonical field element");
        return *f;
    };
    const Fr comm_r_old = canonical(pub.comm_r_old, "comm_r_old");
    const Fr comm_d_new = canonical(pub.comm_d_new, "comm_d_new");
    const Fr comm_r_new = canonical(pub.comm_r_new, "comm_r_new");
    const Fr comm_c = canonical(proof.comm_c, "comm_c");
    if (proof.apex_leafs.size() != cfg.apex_leaf_count)
        refuse("apex_leafs", "expected " + std::to_string(cfg.apex_leaf_count) + ", found " +
                                 std::to_string(proof.apex_leafs.size()));
    if (proof.challenge_proofs.size() != cfg.challenge_count)
        refuse("challenge_proofs", "expected " + std::to_string(cfg.challenge_count) + ", found " +
                                       std::to_string(proof.challenge_proofs.size()));
    // The apex tree: row 0 the leaves, each row above the SHA-256 nodes of pairs.
    std::vector<std::vector<Fr>> apex(1);
    for (size_t i = 0; i < proof.apex_leafs.size(); ++i)
        apex[0].push_back(canonical(proof.apex_leafs[i], ("apex_leafs[" + std::to_string(i) + "]").c_str()));
    while (apex.back().size() > 1) {
        std::vector<Fr> up;
        for (size_t i = 0; i < apex.back().size(); i += 2)
            up.push_back(gadgets::sha256_node(apex.back()[i], apex.back()[i + 1]));
        apex.push_back(std::move(up));
    }
    const auto r_arities = cfg.tree_r_arities();
    const std::vector<uint32_t> d_arities(cfg.challenge_bit_len, 2);
    const gadgets::TreeShape r_shape = cfg.tree_r_shape(), d_shape = gadgets::TreeShape::sha256_binary();
    const UpdateChallengeProof& first = proof.challenge_proofs[0];
    const auto root_r_old = Fr::from_bytes_le(first.proof_r_old.root.data());
    const auto root_r_new = Fr::from_bytes_le(first.proof_r_new.root.data());
    if (!root_r_old) refuse("challenge_proofs[0].proof_r_old.root", "not a canonical field element");
    if (!root_r_new) refuse("challenge_proofs[0].proof_r_new.root", "not a canonical field element");
    const std::array<Fr, 2> old_pair{comm_c, *root_r_old}, new_pair{comm_c, *root_r_new};
    if (gadgets::poseidon_hash(old_pair) != comm_r_old)
        refuse("comm_r_old", "is not Poseidon2(comm_c, the root of tree R old)");
    if (gadgets::poseidon_hash(new_pair) != comm_r_new)
        refuse("comm_r_new", "is not Poseidon2(comm_c, the root of tree R new)");
    const Fr phi = update_phi(comm_d_new, comm_r_old);
    const auto challenges = update_challenges(cfg, comm_r_new, k);
    const unsigned apex_height = cfg.challenge_bit_len - cfg.partition_bit_len - cfg.apex_leaf_bit_len;
    // Challenges are checked in parallel; the first refusal is the one reported.
    std::vector<std::string> refusals(challenges.size());
    parallel_for(0, challenges.size(), 1, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) try {
                const std::string cp = "challenge_proofs[" + std::to_string(i) + "]";
                const UpdateChallengeProof& c = proof.challenge_proofs[i];
                const uint64_t ch = challenges[i];
                struct Tree {
                    const MerkleProof& m;
                    const char* name;
                    const gadgets::TreeShape& shape;
                    const std::vector<uint32_t>& arities;
                    TreeShape tree;
                    Fr root;
                };
                const Tree trees[3] = {{c.proof_r_old, "proof_r_old", r_shape, r_arities, cfg.tree, *root_r_old},
                                       {c.proof_d_new, "proof_d_new", d_shape, d_arities, kTreeD, comm_d_new},
                                       {c.proof_r_new, "proof_r_new", r_shape, r_arities, cfg.tree, *root_r_new}};
                Fr leaves[3];
                for (int t = 0; t < 3; ++t) {
                    const std::string field = cp + "." + trees[t].name;
                    const gadgets::MerkleProof g =
                        native_proof(trees[t].m, trees[t].shape, trees[t].arities, trees[t].tree, field, refuse);
                    if (g.root != trees[t].root)
                        refuse(field + ".root",
                               t == 1 ? "differs from comm_d_new" : "differs from challenge_proofs[0]'s root");
                    if (!g.verify()) refuse(field, "the path does not hash to its root");
                    if (g.leaf_index() != ch)
                        refuse(field, "opens leaf " + std::to_string(g.leaf_index()) + ", the challenge is leaf " +
                                          std::to_string(ch));
                    leaves[t] = g.leaf;
                    if (t == 1) {
                        // The path passes through this partition's apex tree.
                        Fr node = g.leaf;
                        for (unsigned l = 0; l < apex_height; ++l) {
                            const auto& e = g.path[l];
                            node = e.index ? gadgets::sha256_node(e.siblings[0], node)
                                           : gadgets::sha256_node(node, e.siblings[0]);
                        }
                        const uint64_t j = (ch >> apex_height) & (cfg.apex_leaf_count - 1);
                        if (node != apex[0][j])
                            refuse(field, "its node at height " + std::to_string(apex_height) +
                                              " differs from apex_leafs[" + std::to_string(j) + "]");
                        for (unsigned a = 0; a < cfg.apex_leaf_bit_len; ++a) {
                            const uint64_t pos = j >> a;
                            if (g.path[apex_height + a].siblings[0] != apex[a][pos ^ 1])
                                refuse(field + ".path[" + std::to_string(apex_height + a) + "]",
                                       "the sibling is not the apex tree's node");
                        }
                    }
                }
                const Fr rho = update_rho(phi, ch >> (cfg.challenge_bit_len - h));
                if (leaves[0] + leaves[1] * rho != leaves[2])
                    refuse(cp + ".proof_r_new.leaf", "is not label_r_old + label_d_new · rho");
            } catch (const std::exception& ex) {
                refusals[i] = ex.what();
            }
    });
    for (const std::string& r : refusals)
        if (!r.empty()) throw std::invalid_argument(r);
}

void update_verify_all(const UpdateConfig& cfg, const UpdatePublicInputs& pub,
                       std::span<const UpdatePartitionProof> proofs) {
    if (proofs.size() != cfg.partition_count)
        throw std::invalid_argument(std::to_string(proofs.size()) + " partition proofs, a " + cfg.size_name() +
                                    " update has " + std::to_string(cfg.partition_count));
    for (unsigned k = 0; k < proofs.size(); ++k) update_verify_partition(cfg, pub, k, proofs[k]);
}

// ---- generators ------------------------------------------------------------------------------

namespace {

// A tree whose leaves are periodic within regions: leaf(i) depends on i mod period and on
// i / region only (period and region powers of two, period | region). Two subtrees of a level
// whose spans lie in the same region at the same offset mod period are equal, so only one of
// each class is hashed; every class is computed when the root is, so node() only reads.
class PeriodicTree {
 public:
    PeriodicTree(gadgets::MerkleHasher hasher, std::vector<uint32_t> arities, uint64_t period, uint64_t region,
                 std::function<Fr(uint64_t)> leaf)
        : hasher_(hasher), arities_(std::move(arities)), period_(period), region_(region), leaf_(std::move(leaf)) {
        spans_.push_back(1);
        for (uint32_t a : arities_) spans_.push_back(spans_.back() * a);
        memo_.resize(spans_.size());
        root_ = compute(arities_.size(), 0);
    }
    const Fr& root() const { return root_; }
    Fr node(size_t level, uint64_t index) const {
        const auto it = memo_[level].find(key(level, index));
        if (it == memo_[level].end()) throw std::logic_error("PeriodicTree: a node outside its classes");
        return it->second;
    }

 private:
    uint64_t key(size_t level, uint64_t index) const {
        const uint64_t start = index * spans_[level];
        if (spans_[level] >= region_) return start;
        return start / region_ * region_ + start % period_;
    }
    Fr compute(size_t level, uint64_t index) {
        const uint64_t k = key(level, index);
        if (const auto it = memo_[level].find(k); it != memo_[level].end()) return it->second;
        Fr v;
        if (level == 0) {
            v = leaf_(k);
        } else {
            // The class representative's children.
            const uint32_t a = arities_[level - 1];
            const uint64_t rep = k / spans_[level];
            std::vector<Fr> children;
            children.reserve(a);
            for (uint64_t c = rep * a; c < rep * a + a; ++c) children.push_back(compute(level - 1, c));
            v = gadgets::merkle_node(hasher_, children);
        }
        memo_[level].emplace(k, v);
        return v;
    }

    gadgets::MerkleHasher hasher_;
    std::vector<uint32_t> arities_;
    std::vector<uint64_t> spans_;
    uint64_t period_, region_;
    std::function<Fr(uint64_t)> leaf_;
    std::vector<std::unordered_map<uint64_t, Fr>> memo_;
    Fr root_;
};

MerkleProof proof_of(const SectorUpdate::NodeFn& node, const std::vector<uint32_t>& arities, const Fr& root,
                     uint64_t leaf, const TreeShape& tree) {
    const auto path = gadgets::merkle_path(arities, leaf, node);
    return detail::c1_merkle_proof(node(0, leaf), root, path, tree);
}

}  // namespace

UpdatePartitionProof SectorUpdate::partition_proof(unsigned k) const {
    const UpdateConfig& cfg = *cfg_;
    if (k >= cfg.partition_count)
        throw std::invalid_argument("partition " + std::to_string(k) + " of a " + cfg.size_name() + " update (" +
                                    std::to_string(cfg.partition_count) + " partitions)");
    UpdatePartitionProof p;
    p.comm_c = comm_c_;
    const unsigned apex_height = cfg.challenge_bit_len - cfg.partition_bit_len - cfg.apex_leaf_bit_len;
    for (uint64_t j = 0; j < cfg.apex_leaf_count; ++j)
        p.apex_leafs.push_back(to_bytes(d_new_(apex_height, uint64_t(k) * cfg.apex_leaf_count + j)));
    const auto r_arities = cfg.tree_r_arities();
    const std::vector<uint32_t> d_arities(cfg.challenge_bit_len, 2);
    const auto challenges = update_challenges(cfg, detail::to_fr(pub_.comm_r_new), k);
    p.challenge_proofs.resize(challenges.size());
    parallel_for(0, challenges.size(), 1, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) {
            const uint64_t c = challenges[i];
            p.challenge_proofs[i] = {proof_of(r_old_, r_arities, root_r_old_, c, cfg.tree),
                                     proof_of(d_new_, d_arities, root_d_, c, kTreeD),
                                     proof_of(r_new_, r_arities, root_r_new_, c, cfg.tree)};
        }
    });
    return p;
}

std::vector<UpdatePartitionProof> SectorUpdate::partition_proofs() const {
    std::vector<UpdatePartitionProof> out;
    for (unsigned k = 0; k < cfg_->partition_count; ++k) out.push_back(partition_proof(k));
    return out;
}

SectorUpdate SectorUpdate::encode(const SealedSector& sector, std::span<const uint8_t> new_data, unsigned h) {
    const PoRepConfig& pcfg = sector.config();
    const UpdateConfig* cfg = update_config_for_sector_size(pcfg.sector_size);
    if (!cfg || !cfg->proof)
        throw std::invalid_argument("sector update: no registered update proof for " +
                                    std::to_string(pcfg.sector_size) + "-byte sectors");
    if (new_data.size() != pcfg.sector_size)
        throw std::invalid_argument("sector update: the new data has " + std::to_string(new_data.size()) +
                                    " bytes, the sector " + std::to_string(pcfg.sector_size));
    if (!h) h = cfg->h_default();
    cfg->k_and_h_select(0, h);
    const uint64_t n = cfg->nodes;
    std::vector<Fr> data(n);
    for (uint64_t i = 0; i < n; ++i) {
        const auto f = Fr::from_bytes_le(new_data.data() + 32 * i);
        if (!f)
            throw std::invalid_argument("sector update: new data node " + std::to_string(i) +
                                        " is not below the Fr modulus (fr32-pad the data)");
        data[i] = *f;
    }
    std::vector<Fr> old(n);
    for (uint64_t i = 0; i < n; ++i) old[i] = detail::to_fr(sector.replica()[i]);
    auto tree_d = std::make_shared<gadgets::MerkleTree>(gadgets::TreeShape::sha256_binary(), data);
    auto tree_r_old = std::make_shared<gadgets::MerkleTree>(cfg->tree_r_shape(), old);
    const PreCommitCommitments& comm = sector.commitments();
    const Fr comm_r_old = detail::to_fr(comm.comm_r);
    const Fr phi = update_phi(tree_d->root(), comm_r_old);
    // encode_into: new = key + data · rho(node >> (bits - h)).
    const unsigned shr = cfg->challenge_bit_len - h;
    std::vector<Fr> rhos(size_t(1) << h);
    for (uint64_t r = 0; r < rhos.size(); ++r) rhos[r] = update_rho(phi, r);
    std::vector<Fr> fresh(n);
    for (uint64_t i = 0; i < n; ++i) fresh[i] = old[i] + data[i] * rhos[i >> shr];
    SectorUpdate u;
    u.replica_new_.reserve(n);
    for (const Fr& f : fresh) u.replica_new_.push_back(to_bytes(f));
    auto tree_r_new = std::make_shared<gadgets::MerkleTree>(cfg->tree_r_shape(), std::move(fresh));
    u.cfg_ = cfg;
    u.comm_c_ = comm.comm_c;
    u.root_r_old_ = tree_r_old->root();
    u.root_r_new_ = tree_r_new->root();
    u.root_d_ = tree_d->root();
    const std::array<Fr, 2> pair{detail::to_fr(comm.comm_c), u.root_r_new_};
    u.pub_ = {comm.comm_r, to_bytes(u.root_d_), to_bytes(gadgets::poseidon_hash(pair)), h};
    u.r_old_ = [tree_r_old](size_t l, uint64_t i) { return tree_r_old->levels()[l][i]; };
    u.d_new_ = [tree_d](size_t l, uint64_t i) { return tree_d->levels()[l][i]; };
    u.r_new_ = [tree_r_new](size_t l, uint64_t i) { return tree_r_new->levels()[l][i]; };
    return u;
}

SectorUpdate SectorUpdate::synthetic(const UpdateConfig& cfg, uint64_t seed, unsigned h) {
    if (!h) h = cfg.h_default();
    cfg.k_and_h_select(0, h);
    const detail::Derive derive(seed);
    const unsigned shr = cfg.challenge_bit_len - h;
    const uint64_t region = uint64_t(1) << shr;
    const uint64_t period = std::min<uint64_t>(64, region);
    std::vector<Fr> old_p(period), data_p(period);
    for (uint64_t i = 0; i < period; ++i) {
        old_p[i] = detail::to_fr(derive("update sector key", cfg.nodes, i));
        data_p[i] = detail::to_fr(derive("update data", cfg.nodes, i));
    }
    const auto r_arities = cfg.tree_r_arities();
    const std::vector<uint32_t> d_arities(cfg.challenge_bit_len, 2);
    auto tree_r_old = std::make_shared<PeriodicTree>(gadgets::MerkleHasher::Poseidon, r_arities, period, cfg.nodes,
                                                     [old_p, period](uint64_t i) { return old_p[i % period]; });
    auto tree_d = std::make_shared<PeriodicTree>(gadgets::MerkleHasher::Sha256, d_arities, period, cfg.nodes,
                                                 [data_p, period](uint64_t i) { return data_p[i % period]; });
    const Bytes32 comm_c = derive("update comm_c", cfg.nodes);
    const std::array<Fr, 2> old_pair{detail::to_fr(comm_c), tree_r_old->root()};
    const Fr comm_r_old = gadgets::poseidon_hash(old_pair);
    const Fr phi = update_phi(tree_d->root(), comm_r_old);
    std::vector<Fr> rhos(size_t(1) << h);
    for (uint64_t r = 0; r < rhos.size(); ++r) rhos[r] = update_rho(phi, r);
    auto tree_r_new = std::make_shared<PeriodicTree>(gadgets::MerkleHasher::Poseidon, r_arities, period, region,
                                                     [old_p, data_p, rhos, period, shr](uint64_t i) {
                                                         return old_p[i % period] + data_p[i % period] * rhos[i >> shr];
                                                     });
    SectorUpdate u;
    u.cfg_ = &cfg;
    u.comm_c_ = comm_c;
    u.root_r_old_ = tree_r_old->root();
    u.root_r_new_ = tree_r_new->root();
    u.root_d_ = tree_d->root();
    const std::array<Fr, 2> new_pair{detail::to_fr(comm_c), u.root_r_new_};
    u.pub_ = {to_bytes(comm_r_old), to_bytes(u.root_d_), to_bytes(gadgets::poseidon_hash(new_pair)), h};
    u.r_old_ = [tree_r_old](size_t l, uint64_t i) { return tree_r_old->node(l, i); };
    u.d_new_ = [tree_d](size_t l, uint64_t i) { return tree_d->node(l, i); };
    u.r_new_ = [tree_r_new](size_t l, uint64_t i) { return tree_r_new->node(l, i); };
    return u;
}

}  // namespace cuzk::filecoin
