// The SDR graph: DRG bucket parents and Feistel expander parents (sources in the header).
#include "cuzk/filecoin/graph.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "cuzk/filecoin/crypto.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {

Bytes32 derive_porep_domain_seed(std::string_view tag, const Bytes32& porep_id) {
    Sha256 h;
    h.update({reinterpret_cast<const uint8_t*>(tag.data()), tag.size()});
    h.update(porep_id);
    return h.final();
}

std::array<uint8_t, 28> derive_drg_seed(const Bytes32& porep_id) {
    const Bytes32 raw = derive_porep_domain_seed("Filecoin_DRSample", porep_id);
    std::array<uint8_t, 28> seed{};
    std::copy_n(raw.begin(), 28, seed.begin());
    return seed;
}

std::array<uint64_t, 4> derive_feistel_keys(const Bytes32& porep_id) {
    const Bytes32 raw = derive_porep_domain_seed("Filecoin_Feistel", porep_id);
    std::array<uint64_t, 4> keys{};
    for (int k = 0; k < 4; ++k)
        for (int i = 0; i < 8; ++i) keys[k] |= uint64_t(raw[8 * k + i]) << (8 * i);
    return keys;
}

// ---- Feistel (storage-proofs-core/src/crypto/feistel.rs) -------------------------------------

Feistel::Feistel(uint64_t num_elements, const std::array<uint64_t, 4>& keys)
    : num_elements_(num_elements), keys_(keys) {
    // precompute(): the smallest power of 4 >= num_elements, at least 4; its bits split in halves.
    uint64_t next_pow4 = 4;
    unsigned log4 = 1;
    while (next_pow4 < num_elements) next_pow4 *= 4, ++log4;
    left_mask_ = ((uint64_t(1) << log4) - 1) << log4;
    right_mask_ = (uint64_t(1) << log4) - 1;
    half_bits_ = log4;
}

// The round function F(right, key): BLAKE2b-512 of u64_be(right) ‖ u64_be(key), the first 8
// bytes of the digest read big-endian, masked to the half width (feistel.rs::feistel, the
// 16-byte branch since Index is u64).
uint64_t Feistel::round(uint64_t right, uint64_t key) const {
    uint8_t data[16];
    for (int i = 0; i < 8; ++i) data[i] = uint8_t(right >> (56 - 8 * i)), data[8 + i] = uint8_t(key >> (56 - 8 * i));
    const auto hash = blake2b_512(data);
    uint64_t r = 0;
    for (int i = 0; i < 8; ++i) r = r << 8 | hash[i];
    return r & right_mask_;
}

uint64_t Feistel::encode(uint64_t index) const {
    uint64_t left = (index & left_mask_) >> half_bits_, right = index & right_mask_;
    for (unsigned i = 0; i < kFeistelRounds; ++i) {  // keys[0..3]; keys[3] is unused
        const uint64_t next_right = left ^ round(right, keys_[i]);
        left = right;
        right = next_right;
    }
    return left << half_bits_ | right;
}

uint64_t Feistel::decode(uint64_t index) const {
    uint64_t left = (index & left_mask_) >> half_bits_, right = index & right_mask_;
    for (unsigned i = kFeistelRounds; i-- > 0;) {
        const uint64_t next_left = right ^ round(left, keys_[i]);
        right = left;
        left = next_left;
    }
    return left << half_bits_ | right;
}

uint64_t Feistel::permute(uint64_t index) const {
    // Cycle walking: re-encode until the value lands in [0, num_elements).
    uint64_t u = encode(index);
    while (u >= num_elements_) u = encode(u);
    return u;
}

uint64_t Feistel::invert_permute(uint64_t index) const {
    uint64_t u = decode(index);
    while (u >= num_elements_) u = decode(u);
    return u;
}

// ---- the stacked graph ------------------------------------------------------------------------

std::string stacked_graph_identifier(uint64_t nodes) {
    return "stacked_graph::StackedGraph{expansion_degree: 8 base_graph: drgraph::BucketGraph{size: " +
           std::to_string(nodes) + "; degree: 6; hasher: poseidon_hasher} }";
}

StackedGraph::StackedGraph(uint64_t nodes, const Bytes32& porep_id, ApiVersion api_version)
    : nodes_(nodes),
      api_version_(api_version),
      drg_seed_(derive_drg_seed(porep_id)),
      feistel_(nodes * kExpDegree, derive_feistel_keys(porep_id)) {
    // BucketGraph::new: metagraph node indexes (nodes · 5) must stay exact in an f64;
    // StackedGraph::new: nodes must fit a u32.
    if (nodes < 2 || nodes > 0xffffffffu)
        throw std::invalid_argument("StackedGraph: node count " + std::to_string(nodes) + " out of range");
}

void StackedGraph::drg_parents(uint64_t node, std::span<uint32_t, kBaseDegree> out) const {
    if (node <= 1) {  // node 0 references itself, node 1 only node 0
        std::fill(out.begin(), out.end(), 0u);
        return;
    }
    std::array<uint8_t, 32> seed{};
    std::copy(drg_seed_.begin(), drg_seed_.end(), seed.begin());
    for (int i = 0; i < 4; ++i) seed[28 + i] = uint8_t(node >> (8 * i));
    ChaCha8Rng rng(seed);

    constexpr uint64_t m_prime = kBaseDegree - 1;
    const uint64_t metagraph_node = node * m_prime;
    // (metagraph_node as f64).log2().ceil(), as Rust computes it (both call the C library's log2).
    const uint64_t n_buckets = uint64_t(std::ceil(std::log2(double(metagraph_node))));

    // V1_0: the predecessor goes last and the draws fill parents[0..5]; later versions put the
    // predecessor first and draw parents[1..6].
    const bool legacy = api_version_ == ApiVersion::V1_0_0;
    const size_t predecessor_index = legacy ? m_prime : 0;
    const size_t first_drawn = legacy ? 0 : 1;
    for (size_t k = 0; k < m_prime; ++k) {
        const uint64_t bucket_index = rng.next_u64() % n_buckets + 1;
        const uint64_t largest_distance = std::min(metagraph_node, uint64_t(1) << bucket_index);
        const uint64_t smallest_distance = std::max<uint64_t>(2, largest_distance >> 1);
        const uint64_t n_distances = largest_distance - smallest_distance + 1;  // inclusive
        const uint64_t distance = smallest_distance + rng.next_u64() % n_distances;
        const uint64_t metagraph_parent = metagraph_node - distance;
        const uint32_t mapped_parent = uint32_t(metagraph_parent / m_prime);
        out[first_drawn + k] = mapped_parent == node ? uint32_t(node - 1) : mapped_parent;
    }
    out[predecessor_index] = uint32_t(node - 1);
}

void StackedGraph::expander_parents(uint64_t node, std::span<uint32_t, kExpDegree> out) const {
    for (unsigned i = 0; i < kExpDegree; ++i) {
        const uint64_t transformed = feistel_.permute(node * kExpDegree + i);
        // graph.rs::correspondent: V1_0 casts to u32 before dividing (only differs for 64 GiB).
        out[i] = api_version_ == ApiVersion::V1_0_0 ? uint32_t(transformed) / kExpDegree
                                                    : uint32_t(transformed / kExpDegree);
    }
}

void StackedGraph::parents(uint64_t node, std::span<uint32_t, kDegree> out) const {
    drg_parents(node, out.first<kBaseDegree>());
    expander_parents(node, out.last<kExpDegree>());
}

std::vector<uint8_t> StackedGraph::parent_cache() const {
    std::vector<uint8_t> out(nodes_ * kDegree * 4);
    std::array<uint32_t, kDegree> p{};
    for (uint64_t node = 0; node < nodes_; ++node) {
        parents(node, p);
        uint8_t* dst = out.data() + node * kDegree * 4;
        for (unsigned i = 0; i < kDegree; ++i)
            for (int b = 0; b < 4; ++b) dst[4 * i + b] = uint8_t(p[i] >> (8 * b));
    }
    return out;
}

std::string StackedGraph::parent_cache_id() const {
    Sha256 h;
    const std::string hasher = "poseidon_hasher", id = stacked_graph_identifier(nodes_);
    h.update({reinterpret_cast<const uint8_t*>(hasher.data()), hasher.size()});
    h.update({reinterpret_cast<const uint8_t*>(id.data()), id.size()});
    for (uint64_t key : feistel_keys()) {
        uint8_t le[8];
        for (int i = 0; i < 8; ++i) le[i] = uint8_t(key >> (8 * i));
        h.update(le);
    }
    const uint32_t entries = uint32_t(nodes_);
    const uint8_t le[4] = {uint8_t(entries), uint8_t(entries >> 8), uint8_t(entries >> 16), uint8_t(entries >> 24)};
    h.update(le);
    return "v28-sdr-parent-" + to_hex(h.final());
}

}  // namespace cuzk::filecoin
