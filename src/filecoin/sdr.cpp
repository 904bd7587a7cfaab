// Replica id, challenges, labels and encoding (sources in the header).
#include "cuzk/filecoin/sdr.hpp"

#include <stdexcept>
#include <string_view>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {

namespace {

// fr32/src/convert.rs::bytes_into_fr_repr_safe: clear the top two bits of the last byte.
Bytes32 fr_safe(Bytes32 b) {
    b[31] &= 0x3f;
    return b;
}

// challenges.rs::bigint_to_challenge: the digest as a little-endian integer mod (nodes − 1), + 1.
uint64_t digest_to_challenge(const Bytes32& digest, uint64_t nodes) {
    const uint64_t m = nodes - 1;  // < 2^32, so r·256 + 255 fits in 64 bits
    uint64_t r = 0;
    for (int i = 31; i >= 0; --i) r = (r * 256 + digest[i]) % m;
    return r + 1;
}

void put_u32_le(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
}

}  // namespace

Bytes32 generate_replica_id(const Bytes32& prover_id, uint64_t sector_id, const Bytes32& ticket, const Bytes32& comm_d,
                            const Bytes32& porep_id) {
    Sha256 h;
    h.update(prover_id);
    uint8_t be[8];
    for (int i = 0; i < 8; ++i) be[i] = uint8_t(sector_id >> (56 - 8 * i));
    h.update(be);
    h.update(ticket);
    h.update(comm_d);
    h.update(porep_id);
    return fr_safe(h.final());
}

namespace {
// SHA256(tag ‖ replica_id ‖ x ‖ u32_le(j)), j = n·k + i, as a challenge (x: the seed for
// interactive PoRep, comm_r for NI-PoRep; the tag is empty for interactive).
uint64_t hashed_challenge(std::string_view tag, const Bytes32& replica_id, const Bytes32& x, unsigned n, uint8_t k,
                          unsigned i, uint64_t nodes) {
    uint8_t jle[4];
    put_u32_le(jle, uint32_t(n * unsigned(k) + i));
    Sha256 h;
    if (!tag.empty()) h.update({reinterpret_cast<const uint8_t*>(tag.data()), tag.size()});
    h.update(replica_id);
    h.update(x);
    h.update(jle);
    return digest_to_challenge(h.final(), nodes);
}
}  // namespace

std::vector<uint64_t> interactive_challenges(uint64_t nodes, const Bytes32& replica_id, const Bytes32& seed,
                                             unsigned challenges_per_partition, uint8_t k) {
    if (nodes < 2 || nodes > (uint64_t(1) << 32)) throw std::invalid_argument("challenges: bad node count");
    std::vector<uint64_t> out;
    out.reserve(challenges_per_partition);
    for (unsigned i = 0; i < challenges_per_partition; ++i)
        out.push_back(hashed_challenge({}, replica_id, seed, challenges_per_partition, k, i, nodes));
    return out;
}

std::vector<uint64_t> ni_challenges(uint64_t nodes, const Bytes32& replica_id, const Bytes32& comm_r,
                                    unsigned challenges_per_partition, uint8_t k) {
    if (nodes < 2 || nodes > (uint64_t(1) << 32)) throw std::invalid_argument("challenges: bad node count");
    static constexpr std::string_view kTag = "filecoin.io|PoRep|1|NonInteractive|1";
    std::vector<uint64_t> out;
    out.reserve(challenges_per_partition);
    for (unsigned i = 0; i < challenges_per_partition; ++i)
        out.push_back(hashed_challenge(kTag, replica_id, comm_r, challenges_per_partition, k, i, nodes));
    return out;
}

std::vector<uint64_t> porep_challenges(const PoRepConfig& cfg, const Bytes32& replica_id, const Bytes32& seed,
                                       const Bytes32& comm_r, unsigned k) {
    switch (cfg.kind) {
        case PoRepKind::Interactive:
            return interactive_challenges(cfg.nodes, replica_id, seed, cfg.challenges_per_partition, uint8_t(k));
        case PoRepKind::NonInteractivePoRep:
            return ni_challenges(cfg.nodes, replica_id, comm_r, cfg.challenges_per_partition, uint8_t(k));
        case PoRepKind::SyntheticPoRep:
            break;
    }
    throw std::logic_error(std::string(cfg.name) + ": synthetic PoRep challenges are not implemented");
}

Bytes32 label_from_parents(const Bytes32& replica_id, uint32_t layer, uint64_t node, std::span<const Bytes32> parents) {
    uint8_t header[32] = {};
    for (int i = 0; i < 4; ++i) header[i] = uint8_t(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; ++i) header[4 + i] = uint8_t(node >> (56 - 8 * i));
    Sha256 h;
    h.update(replica_id);
    h.update(header);
    for (const Bytes32& p : parents) h.update(p);
    return fr_safe(h.final());
}

std::vector<Bytes32> label_parents(const StackedGraph& g, const std::vector<std::vector<Bytes32>>& labels,
                                   uint32_t layer, uint64_t node) {
    std::array<uint32_t, kDegree> p{};
    g.parents(node, p);
    const std::vector<Bytes32>& cur = labels.at(layer - 1);
    std::vector<Bytes32> base;  // the parents before repetition: 6 (layer 1) or 14
    for (unsigned i = 0; i < kBaseDegree; ++i) base.push_back(cur.at(p[i]));
    if (layer > 1) {
        const std::vector<Bytes32>& prev = labels.at(layer - 2);
        for (unsigned i = kBaseDegree; i < kDegree; ++i) base.push_back(prev.at(p[i]));
    }
    std::vector<Bytes32> out;
    out.reserve(kTotalParents);
    for (unsigned i = 0; i < kTotalParents; ++i) out.push_back(base[i % base.size()]);
    return out;
}

std::vector<std::vector<Bytes32>> sdr_labels(const StackedGraph& g, unsigned layers, const Bytes32& replica_id) {
    std::vector<std::vector<Bytes32>> labels(layers, std::vector<Bytes32>(g.size()));
    for (uint32_t layer = 1; layer <= layers; ++layer) {
        labels[layer - 1][0] = label_from_parents(replica_id, layer, 0, {});  // node 0 has no parents
        for (uint64_t node = 1; node < g.size(); ++node)
            labels[layer - 1][node] =
                label_from_parents(replica_id, layer, node, label_parents(g, labels, layer, node));
    }
    return labels;
}

std::optional<Bytes32> encode_node(const Bytes32& key, const Bytes32& data) {
    const auto k = Fr::from_bytes_le(key.data()), d = Fr::from_bytes_le(data.data());
    if (!k || !d) return std::nullopt;
    return (*k + *d).to_bytes_le();
}

}  // namespace cuzk::filecoin
