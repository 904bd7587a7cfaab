// Sealing a small sector in memory and its C1 output (sources in the header).
#include "cuzk/filecoin/seal.hpp"

#include <stdexcept>
#include <string>

#include "cuzk/common/parallel.hpp"
#include "cuzk/filecoin/crypto.hpp"
#include "cuzk/filecoin/graph.hpp"
#include "cuzk/filecoin/sdr.hpp"
#include "cuzk/gadgets/merkle.hpp"
#include "cuzk/gadgets/poseidon.hpp"
#include "cuzk/hash/sha256.hpp"
#include "proof_paths.hpp"

namespace cuzk::filecoin {

using detail::to_bytes;
using detail::to_fr;

// ---- fr32 ------------------------------------------------------------------------------------

namespace {

// `n` (<= 64) bits of `in` starting at bit `pos`, bits numbered little-endian within bytes.
uint64_t read_bits(std::span<const uint8_t> in, uint64_t pos, unsigned n) {
    const uint64_t byte = pos / 8;
    unsigned __int128 v = 0;
    for (unsigned k = 0; k < 9 && byte + k < in.size(); ++k) v |= (unsigned __int128)in[byte + k] << (8 * k);
    v >>= pos % 8;
    return n == 64 ? uint64_t(v) : uint64_t(v) & ((uint64_t(1) << n) - 1);
}

// ORs the `n` low bits of `value` into `out` at bit `pos` (the bits there must be zero).
void write_bits(std::span<uint8_t> out, uint64_t pos, uint64_t value, unsigned n) {
    if (n < 64) value &= (uint64_t(1) << n) - 1;
    const uint64_t byte = pos / 8;
    const unsigned __int128 v = (unsigned __int128)value << (pos % 8);
    for (unsigned k = 0; k < 9 && byte + k < out.size(); ++k) out[byte + k] |= uint8_t(v >> (8 * k));
}

}  // namespace

std::vector<uint8_t> fr32_pad(std::span<const uint8_t> raw) {
    if (raw.size() % 127) throw std::invalid_argument("fr32_pad: the length must be a multiple of 127 bytes");
    const uint64_t nodes = raw.size() / 127 * 4;
    std::vector<uint8_t> out(nodes * 32);
    for (uint64_t j = 0; j < nodes; ++j)  // node j holds raw bits [254 j, 254 j + 254), then 2 zero bits
        for (unsigned w = 0; w < 4; ++w) {
            const unsigned n = w < 3 ? 64 : 62;
            write_bits(out, j * 256 + 64 * w, read_bits(raw, j * 254 + 64 * w, n), n);
        }
    return out;
}

std::vector<uint8_t> fr32_unpad(std::span<const uint8_t> padded) {
    if (padded.size() % 128) throw std::invalid_argument("fr32_unpad: the length must be a multiple of 128 bytes");
    const uint64_t nodes = padded.size() / 32;
    std::vector<uint8_t> out(padded.size() / 128 * 127);
    for (uint64_t j = 0; j < nodes; ++j)
        for (unsigned w = 0; w < 4; ++w) {
            const unsigned n = w < 3 ? 64 : 62;
            write_bits(out, j * 254 + 64 * w, read_bits(padded, j * 256 + 64 * w, n), n);
        }
    return out;
}

std::vector<uint8_t> sector_data_from_bytes(const PoRepConfig& cfg, std::span<const uint8_t> bytes) {
    if (bytes.size() == cfg.sector_size) {
        for (uint64_t n = 0; n < cfg.nodes; ++n)
            if (bytes[32 * n + 31] & 0xc0)
                throw std::invalid_argument(
                    "sector data of " + std::to_string(cfg.sector_size) + " bytes is taken as fr32-padded, but node " +
                    std::to_string(n) + " (byte " + std::to_string(32 * n + 31) + ") has one of its top two bits set");
        return {bytes.begin(), bytes.end()};
    }
    const uint64_t capacity = unpadded_sector_size(cfg.sector_size);
    if (bytes.size() > capacity)
        throw std::invalid_argument(std::to_string(bytes.size()) + " bytes of data do not fit a " +
                                    std::to_string(cfg.sector_size) + "-byte sector: give at most " +
                                    std::to_string(capacity) + " bytes (unpadded) or exactly " +
                                    std::to_string(cfg.sector_size) + " (fr32-padded)");
    std::vector<uint8_t> raw(capacity, 0);
    std::copy(bytes.begin(), bytes.end(), raw.begin());
    return fr32_pad(raw);
}

std::vector<uint8_t> pseudo_random_sector_data(const PoRepConfig& cfg, uint64_t seed) {
    Sha256 h;
    static constexpr std::string_view kTag = "cuzk pseudo-random sector data";
    h.update({reinterpret_cast<const uint8_t*>(kTag.data()), kTag.size()});
    uint8_t le[8];
    for (int i = 0; i < 8; ++i) le[i] = uint8_t(seed >> (8 * i));
    h.update(le);
    ChaCha8Rng rng(h.final());
    std::vector<uint8_t> out(cfg.sector_size);
    for (uint64_t i = 0; i < out.size(); i += 4) {
        const uint32_t w = rng.next_u32();
        for (int k = 0; k < 4; ++k) out[i + k] = uint8_t(w >> (8 * k));
    }
    for (uint64_t n = 0; n < cfg.nodes; ++n) out[32 * n + 31] &= 0x3f;  // below 2^254, as fr32 data is
    return out;
}

// ---- sealing ---------------------------------------------------------------------------------

struct SealedSector::Impl {
    const PoRepConfig* cfg = nullptr;
    SealParams params;
    StackedGraph graph;
    std::vector<Bytes32> data;                 // the padded sector, node by node
    std::vector<std::vector<Bytes32>> labels;  // [layer - 1][node]
    std::vector<Bytes32> replica;
    gadgets::MerkleTree tree_d, tree_c, tree_r;
    PreCommitCommitments comm;

    Impl(const PoRepConfig& c, const SealParams& p, std::vector<Bytes32> d, std::vector<std::vector<Bytes32>> l,
         std::vector<Bytes32> r, gadgets::MerkleTree td, gadgets::MerkleTree tc, gadgets::MerkleTree tr)
        : cfg(&c),
          params(p),
          graph(c),
          data(std::move(d)),
          labels(std::move(l)),
          replica(std::move(r)),
          tree_d(std::move(td)),
          tree_c(std::move(tc)),
          tree_r(std::move(tr)) {}

    ColumnProof column_proof(uint64_t node) const {
        ColumnProof cp;
        cp.column.index = uint32_t(node);
        for (const auto& layer : labels) cp.column.rows.push_back(layer[node]);
        cp.inclusion_proof = detail::c1_merkle_proof(tree_c.prove(node), cfg->tree);
        return cp;
    }
};

namespace {

void report(const ProgressFn& progress, const std::string& line) {
    if (progress) progress(line);
}

// All labels, as sdr_labels computes them, but reading the parents from one parent cache
// (the graph's parents are computed once, not once per layer).
std::vector<std::vector<Bytes32>> seal_labels(const PoRepConfig& cfg, const StackedGraph& g, const Bytes32& replica_id,
                                              const ProgressFn& progress) {
    report(progress, "parent cache: " + std::to_string(cfg.nodes) + " nodes");
    std::vector<uint32_t> cache(cfg.nodes * kDegree);
    parallel_for(0, cfg.nodes, 1024, [&](size_t b, size_t e) {
        for (size_t n = b; n < e; ++n) g.parents(n, std::span<uint32_t, kDegree>(&cache[n * kDegree], kDegree));
    });
    auto parent = [&](uint64_t node, unsigned i) { return cache[node * kDegree + i]; };
    std::vector<std::vector<Bytes32>> labels(cfg.layers, std::vector<Bytes32>(cfg.nodes));
    std::array<Bytes32, kTotalParents> parents{};
    for (uint32_t layer = 1; layer <= cfg.layers; ++layer) {
        report(progress, "labels: layer " + std::to_string(layer) + " of " + std::to_string(cfg.layers));
        std::vector<Bytes32>& cur = labels[layer - 1];
        cur[0] = label_from_parents(replica_id, layer, 0, {});  // node 0 has no parents
        const unsigned base = layer == 1 ? kBaseDegree : kDegree;
        for (uint64_t node = 1; node < cfg.nodes; ++node) {
            for (unsigned i = 0; i < base; ++i)
                parents[i] = i < kBaseDegree ? cur[parent(node, i)] : labels[layer - 2][parent(node, i)];
            for (unsigned i = base; i < kTotalParents; ++i) parents[i] = parents[i % base];
            cur[node] = label_from_parents(replica_id, layer, node, parents);
        }
    }
    return labels;
}

}  // namespace

SealedSector SealedSector::seal(const SealParams& params, std::vector<uint8_t> bytes, const ProgressFn& progress) {
    const PoRepConfig& cfg = porep_config(params.proof);
    if (cfg.kind == PoRepKind::SyntheticPoRep)
        throw std::invalid_argument(std::string(cfg.name) + ": synthetic PoRep sealing is not supported");
    if (bytes.size() != cfg.sector_size)
        throw std::invalid_argument("seal: expected " + std::to_string(cfg.sector_size) +
                                    " bytes of padded sector data, got " + std::to_string(bytes.size()));
    const StackedGraph g(cfg);

    // Phase 1: tree D, comm_d, replica_id, labels.
    report(progress, "tree D: SHA-256 over " + std::to_string(cfg.nodes) + " nodes");
    std::vector<Bytes32> data(cfg.nodes);
    std::vector<Fr> leaves(cfg.nodes);
    for (uint64_t n = 0; n < cfg.nodes; ++n) {
        std::copy_n(bytes.begin() + 32 * n, 32, data[n].begin());
        const auto f = Fr::from_bytes_le(data[n].data());
        if (!f) throw std::invalid_argument("seal: data node " + std::to_string(n) + " is not below the Fr modulus");
        leaves[n] = *f;
    }
    bytes = {};
    gadgets::MerkleTree tree_d(gadgets::TreeShape::sha256_binary(), std::move(leaves));
    PreCommitCommitments comm;
    comm.comm_d = to_bytes(tree_d.root());
    comm.replica_id = generate_replica_id(params.prover_id, params.sector_id, params.ticket, comm.comm_d, cfg.porep_id);
    auto labels = seal_labels(cfg, g, comm.replica_id, progress);

    // Phase 2: tree C over the column hashes, the replica, tree R_last, comm_r.
    report(progress, "tree C: Poseidon-" + std::to_string(cfg.layers) + " column hashes, then " + cfg.tree.display());
    std::vector<Fr> columns(cfg.nodes), replica_leaves(cfg.nodes);
    std::vector<Bytes32> replica(cfg.nodes);
    const auto& column_constants = gadgets::poseidon_constants(cfg.layers);
    parallel_for(0, cfg.nodes, 1024, [&](size_t b, size_t e) {
        std::vector<Fr> rows(cfg.layers);
        for (size_t n = b; n < e; ++n) {
            for (unsigned l = 0; l < cfg.layers; ++l) rows[l] = to_fr(labels[l][n]);
            columns[n] = gadgets::poseidon_hash(column_constants, rows);
            replica_leaves[n] = rows.back() + to_fr(data[n]);  // encode: key + data in Fr
            replica[n] = to_bytes(replica_leaves[n]);
        }
    });
    gadgets::MerkleTree tree_c(detail::poseidon_shape(cfg), std::move(columns));
    report(progress, "tree R_last: " + cfg.tree.display());
    gadgets::MerkleTree tree_r(detail::poseidon_shape(cfg), std::move(replica_leaves));
    comm.comm_c = to_bytes(tree_c.root());
    comm.comm_r_last = to_bytes(tree_r.root());
    const std::array<Fr, 2> pair{tree_c.root(), tree_r.root()};
    comm.comm_r = to_bytes(gadgets::poseidon_hash(pair));  // hash2: Poseidon-2, MerkleTree tag

    auto impl = std::make_unique<Impl>(cfg, params, std::move(data), std::move(labels), std::move(replica),
                                       std::move(tree_d), std::move(tree_c), std::move(tree_r));
    impl->comm = comm;
    return SealedSector(std::move(impl));
}

SealedSector::SealedSector(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SealedSector::SealedSector(SealedSector&&) noexcept = default;
SealedSector& SealedSector::operator=(SealedSector&&) noexcept = default;
SealedSector::~SealedSector() = default;

const PoRepConfig& SealedSector::config() const { return *impl_->cfg; }
const PreCommitCommitments& SealedSector::commitments() const { return impl_->comm; }
const std::vector<std::vector<Bytes32>>& SealedSector::labels() const { return impl_->labels; }
const std::vector<Bytes32>& SealedSector::replica() const { return impl_->replica; }

SealCommitPhase1Output SealedSector::commit_phase1(const Bytes32& seed, const ProgressFn& progress) const {
    const Impl& s = *impl_;
    const PoRepConfig& cfg = *s.cfg;
    SealCommitPhase1Output c1;
    c1.registered_proof = cfg.proof;
    c1.comm_r = s.comm.comm_r;
    c1.comm_d = s.comm.comm_d;
    c1.replica_id = s.comm.replica_id;
    c1.seed = seed;
    c1.ticket = s.params.ticket;
    for (unsigned k = 0; k < cfg.partitions; ++k) {
        report(progress,
               "vanilla proofs: partition " + std::to_string(k + 1) + " of " + std::to_string(cfg.partitions));
        std::vector<VanillaProof> part;
        for (uint64_t c : porep_challenges(cfg, c1.replica_id, seed, c1.comm_r, k)) {
            VanillaProof p;
            p.comm_d_proofs = detail::c1_merkle_proof(s.tree_d.prove(c), TreeShape{2, 0, 0});
            p.comm_r_last_proof = detail::c1_merkle_proof(s.tree_r.prove(c), cfg.tree);
            p.replica_column_proofs.c_x = s.column_proof(c);
            std::array<uint32_t, kDegree> parents{};
            s.graph.parents(c, parents);
            for (unsigned j = 0; j < kDegree; ++j)
                (j < kBaseDegree ? p.replica_column_proofs.drg_parents : p.replica_column_proofs.exp_parents)
                    .push_back(s.column_proof(parents[j]));
            // Labeling proofs: layer 1 hashes the 6 DRG parents of layer 1; a later layer the
            // 6 DRG parents of that layer and the 8 expander parents of the layer below; each
            // repeated to 37 (prove_layers_generate).
            for (uint32_t layer = 1; layer <= cfg.layers; ++layer)
                p.labeling_proofs.push_back({label_parents(s.graph, s.labels, layer, c), layer, c});
            p.encoding_proof = p.labeling_proofs.back();
            part.push_back(std::move(p));
        }
        c1.vanilla_proofs.push_back(std::move(part));
    }
    return c1;
}

}  // namespace cuzk::filecoin
