// Fallback PoSt natively (sources in the header).
#include "cuzk/filecoin/post.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include "bincode.hpp"
#include "cuzk/common/parallel.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/formats/error.hpp"
#include "cuzk/gadgets/poseidon.hpp"
#include "cuzk/hash/sha256.hpp"
#include "proof_paths.hpp"
#include "sparse_tree.hpp"

namespace cuzk::filecoin {

using bincode::le_u64;
using detail::to_bytes;

namespace {

void put_u64(Sha256& h, uint64_t v) {
    uint8_t le[8];
    for (int i = 0; i < 8; ++i) le[i] = uint8_t(v >> (8 * i));
    h.update(le);
}

std::optional<Fr> fr_of(const Bytes32& b) { return Fr::from_bytes_le(b.data()); }

}  // namespace

// ---- challenges ------------------------------------------------------------------------------

std::vector<uint64_t> post_sector_challenges(const Bytes32& randomness, const Bytes32& prover_id, uint64_t count,
                                             uint64_t sector_set_size) {
    if (sector_set_size == 0) throw std::invalid_argument("post_sector_challenges: empty sector set");
    std::vector<uint64_t> out;
    out.reserve(count);
    for (uint64_t n = 0; n < count; ++n) {
        Sha256 h;
        h.update(prover_id);
        h.update(randomness);
        put_u64(h, n);  // usize::to_le_bytes on a 64-bit target
        const auto d = h.final();
        out.push_back(le_u64(d.data()) % sector_set_size);
    }
    return out;
}

std::vector<uint64_t> winning_post_sector_challenges(const PoStConfig& cfg, const Bytes32& randomness,
                                                     const Bytes32& prover_id, uint64_t sector_set_size) {
    if (cfg.type != PoStType::Winning)
        throw std::invalid_argument(std::string(cfg.name) + " is not a Winning PoSt proof");
    return post_sector_challenges(randomness, prover_id, cfg.sector_count, sector_set_size);
}

uint64_t post_challenge_index(ApiVersion version, uint64_t sector_index, uint64_t challenges_per_sector, uint64_t n) {
    return version == ApiVersion::V1_2_0 ? n : sector_index * challenges_per_sector + n;
}

uint64_t post_leaf_challenge(uint64_t nodes, const Bytes32& randomness, uint64_t sector_id, uint64_t challenge_index) {
    if (nodes == 0) throw std::invalid_argument("post_leaf_challenge: a sector without nodes");
    Sha256 h;
    h.update(randomness);
    put_u64(h, sector_id);
    put_u64(h, challenge_index);
    const auto d = h.final();
    return le_u64(d.data()) % nodes;
}

std::vector<uint64_t> post_vanilla_challenges(const PoStConfig& cfg, const Bytes32& randomness, uint64_t sector_id,
                                              uint64_t sector_index) {
    std::vector<uint64_t> out;
    out.reserve(cfg.challenge_count);
    for (uint64_t n = 0; n < cfg.challenge_count; ++n)
        out.push_back(post_leaf_challenge(cfg.nodes, randomness, sector_id,
                                          post_challenge_index(cfg.api_version, sector_index, cfg.challenge_count, n)));
    return out;
}

// ---- bincode ---------------------------------------------------------------------------------

namespace {

using bincode::index_name;
using bincode::kind_name;
using bincode::proof_kind;
using bincode::Reader;
using bincode::Writer;

std::string tree_name(const PoStConfig& cfg) { return "tree " + cfg.tree.display(); }

}  // namespace

FallbackPoStSectorProof decode_post_sector_proof(const PoStConfig& cfg, std::span<const uint8_t> bytes,
                                                 const std::string& what) {
    Reader r(bytes, what);
    FallbackPoStSectorProof p;
    {
        Reader::Field f(r, "sector_id");
        p.sector_id = r.u64();
    }
    {
        Reader::Field f(r, "comm_r");
        p.comm_r = r.b32();
    }
    Reader::Field fv(r, "vanilla_proof");
    Reader::Field fs(r, "sectors");
    const uint64_t proof_bytes = bincode::merkle_proof_bytes(cfg.tree, cfg.base_path_levels());
    const size_t nsec = r.len(1, 8 + cfg.challenge_count * proof_bytes + 64, "sector proofs");
    p.sectors.resize(nsec);
    for (size_t s = 0; s < nsec; ++s) {
        Reader::Field fi(r, bincode::index_name(s));
        PoStSectorProof& sp = p.sectors[s];
        {
            Reader::Field f(r, "inclusion_proofs");
            const size_t n = r.len(cfg.challenge_count, proof_bytes, "inclusion proofs");
            sp.inclusion_proofs.reserve(n);
            for (size_t i = 0; i < n; ++i) {
                Reader::Field fe(r, bincode::index_name(i));
                sp.inclusion_proofs.push_back(
                    bincode::read_merkle_proof(r, cfg.tree, cfg.base_path_levels(), tree_name(cfg)));
            }
        }
        {
            Reader::Field f(r, "comm_c");
            sp.comm_c = r.b32();
        }
        Reader::Field f(r, "comm_r_last");
        sp.comm_r_last = r.b32();
    }
    r.finish();
    return p;
}

std::vector<uint8_t> encode_post_sector_proof(const FallbackPoStSectorProof& proof) {
    Writer w;
    w.u64(proof.sector_id);
    w.b32(proof.comm_r);
    w.u64(proof.sectors.size());
    for (const PoStSectorProof& sp : proof.sectors) {
        w.u64(sp.inclusion_proofs.size());
        for (const MerkleProof& m : sp.inclusion_proofs) w.merkle_proof(m);
        w.b32(sp.comm_c);
        w.b32(sp.comm_r_last);
    }
    return std::move(w.out);
}

// ---- the request file ------------------------------------------------------------------------

std::vector<uint8_t> encode_post_request_file(const PoStRequestFile& f) {
    Writer w;
    w.bytes({reinterpret_cast<const uint8_t*>(kPoStRequestMagic), 8});
    w.u32(kPoStRequestVersion);
    w.u64(uint64_t(f.proof));
    w.b32(f.randomness);
    w.u64(f.miner_id);
    w.u32(f.partition_index);
    w.u64(f.vanilla_proofs.size());
    for (const auto& v : f.vanilla_proofs) {
        w.u64(v.size());
        w.bytes(v);
    }
    return std::move(w.out);
}

PoStRequestFile decode_post_request_file(std::span<const uint8_t> bytes, const std::string& file) {
    Reader r(bytes, file);
    PoStRequestFile f;
    {
        Reader::Field g(r, "magic");
        if (bytes.size() < 8 || !std::equal(bytes.begin(), bytes.begin() + 8, kPoStRequestMagic))
            r.fail_at(0, "not a PoSt request file (it starts with \"" + std::string(kPoStRequestMagic) +
                             "\"; `cuzk gen-vanilla --kind window-post|winning-post` writes them)");
        (void)r.bytes(8);
    }
    {
        Reader::Field g(r, "version");
        const size_t at = r.pos();
        if (const uint32_t v = r.u32(); v != kPoStRequestVersion)
            r.fail_at(
                at, "format version " + std::to_string(v) + ", this cuzk reads " + std::to_string(kPoStRequestVersion));
    }
    const PoStConfig* cfg = nullptr;
    {
        Reader::Field g(r, "registered_proof");
        const size_t at = r.pos();
        const uint64_t id = r.u64();
        const auto p = post_proof_from_id(id);
        if (!p)
            r.fail_at(at, std::to_string(id) + " is not a registered PoSt proof (0.." +
                              std::to_string(kRegisteredPoStProofCount - 1) + ")");
        f.proof = *p;
        cfg = &post_config(*p);
    }
    {
        Reader::Field g(r, "randomness");
        f.randomness = r.b32();
    }
    {
        Reader::Field g(r, "miner_id");
        f.miner_id = r.u64();
    }
    {
        Reader::Field g(r, "partition_index");
        const size_t at = r.pos();
        f.partition_index = r.u32();
        if (cfg->type == PoStType::Winning && f.partition_index != 0)
            r.fail_at(at, "partition " + std::to_string(f.partition_index) + " of a Winning PoSt (it has one)");
    }
    Reader::Field g(r, "vanilla_proofs");
    const uint64_t most = cfg->type == PoStType::Window ? cfg->sector_count : 1;
    const size_t n = r.len_in(1, most, 8, "sectors");
    f.vanilla_proofs.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        Reader::Field gi(r, index_name(i));
        const uint64_t len = r.u64();
        const auto b = r.bytes(len);
        f.vanilla_proofs.emplace_back(b.begin(), b.end());
    }
    r.finish();
    return f;
}

PoStRequestFile read_post_request_file(const std::string& path) {
    std::error_code ec;
    const uint64_t size = std::filesystem::file_size(path, ec);
    if (ec) throw formats::FormatError(path, "", formats::FormatError::kNoOffset, "cannot read: " + ec.message());
    if (size > kMaxPoStRequestFileBytes)
        throw formats::FormatError(path, "", formats::FormatError::kNoOffset,
                                   std::to_string(size) + " bytes, more than a PoSt request file holds (at most " +
                                       std::to_string(kMaxPoStRequestFileBytes) + ")");
    std::vector<uint8_t> bytes(size);
    std::ifstream in(path, std::ios::binary);
    if (!in || !in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(size)))
        throw formats::FormatError(path, "", formats::FormatError::kNoOffset,
                                   std::string("cannot read: ") + std::strerror(errno));
    return decode_post_request_file(bytes, path);
}

// ---- verification ----------------------------------------------------------------------------

std::vector<gadgets::PathElement> merkle_path_fr(const MerkleProof& proof, const std::string& what) {
    std::vector<gadgets::PathElement> out;
    out.reserve(proof.base.size() + proof.sub.size() + proof.top.size());
    for (const auto* part : {&proof.base, &proof.sub, &proof.top})
        for (const PathElement& e : *part) {
            gadgets::PathElement g;
            g.index = uint32_t(std::min<uint64_t>(e.index, UINT32_MAX));
            g.siblings.reserve(e.hashes.size());
            for (const Bytes32& h : e.hashes) {
                const auto f = fr_of(h);
                if (!f) throw std::invalid_argument(what + ": a sibling is not a canonical field element");
                g.siblings.push_back(*f);
            }
            out.push_back(std::move(g));
        }
    return out;
}

gadgets::TreeShape post_tree_shape(const PoStConfig& cfg) {
    return gadgets::TreeShape::poseidon(cfg.tree.base_arity, cfg.tree.sub_arity, cfg.tree.top_arity);
}

void post_verify_sector(const PoStConfig& cfg, const Bytes32& randomness, const FallbackPoStSectorProof& proof,
                        uint64_t sector_index, const std::string& what) {
    const std::string who = what + " (id " + std::to_string(proof.sector_id) + ")";
    auto refuse = [&](const std::string& field, const std::string& problem) {
        throw std::invalid_argument(who + ": " + field + ": " + problem);
    };
    if (!fr_of(randomness)) refuse("randomness", "not a canonical field element");
    if (proof.sectors.size() != 1)
        refuse("vanilla_proof.sectors", "expected 1 sector proof, found " + std::to_string(proof.sectors.size()));
    const PoStSectorProof& sp = proof.sectors[0];
    const auto comm_r = fr_of(proof.comm_r);
    const auto comm_c = fr_of(sp.comm_c);
    const auto comm_r_last = fr_of(sp.comm_r_last);
    if (!comm_r) refuse("comm_r", "not a canonical field element");
    if (!comm_c) refuse("comm_c", "not a canonical field element");
    if (!comm_r_last) refuse("comm_r_last", "not a canonical field element");
    const std::array<Fr, 2> pair{*comm_c, *comm_r_last};
    if (gadgets::poseidon_hash(pair) != *comm_r) refuse("comm_r", "is not Poseidon2(comm_c, comm_r_last)");
    if (sp.inclusion_proofs.size() != cfg.challenge_count)
        refuse("inclusion_proofs", "expected " + std::to_string(cfg.challenge_count) + ", found " +
                                       std::to_string(sp.inclusion_proofs.size()));
    const auto challenges = post_vanilla_challenges(cfg, randomness, proof.sector_id, sector_index);
    const gadgets::TreeShape shape = post_tree_shape(cfg);
    const auto arities = shape.level_arities(cfg.nodes);
    const MerkleProof::Kind kind = proof_kind(cfg.tree);
    for (size_t i = 0; i < sp.inclusion_proofs.size(); ++i) {
        const MerkleProof& m = sp.inclusion_proofs[i];
        const std::string field = "inclusion_proofs[" + std::to_string(i) + "]";
        if (m.kind != kind)
            refuse(field, std::string("a ") + kind_name(m.kind) + " proof, tree " + cfg.tree.display() + " needs " +
                              kind_name(kind));
        if (m.root != sp.comm_r_last) refuse(field + ".root", "differs from comm_r_last");
        gadgets::MerkleProof g;
        g.shape = shape;
        g.path = merkle_path_fr(m, who + ": " + field);
        if (g.path.size() != arities.size() || m.sub.size() != (cfg.tree.sub_arity ? 1u : 0u) ||
            m.top.size() != (cfg.tree.top_arity ? 1u : 0u))
            refuse(field, "path of " + std::to_string(g.path.size()) + " levels, the sector needs " +
                              std::to_string(arities.size()));
        for (size_t l = 0; l < arities.size(); ++l) {
            const PathElement& e = l < m.base.size()                      ? m.base[l]
                                   : l == m.base.size() && !m.sub.empty() ? m.sub[0]
                                                                          : m.top[0];
            if (e.hashes.size() + 1 != arities[l] || e.index >= arities[l])
                refuse(field + ".path[" + std::to_string(l) + "]",
                       std::to_string(e.hashes.size()) + " siblings at index " + std::to_string(e.index) +
                           " do not fit arity " + std::to_string(arities[l]));
        }
        const auto leaf = fr_of(m.leaf);
        if (!leaf) refuse(field + ".leaf", "not a canonical field element");
        g.leaf = *leaf;
        g.root = *comm_r_last;
        if (!g.verify()) refuse(field, "the path does not hash to comm_r_last");
        const uint64_t opened = g.leaf_index();
        if (opened != challenges[i])
            refuse(field,
                   "opens leaf " + std::to_string(opened) + ", the challenge is leaf " + std::to_string(challenges[i]));
    }
}

void post_verify_window_partition(const PoStConfig& cfg, const Bytes32& randomness, unsigned partition,
                                  std::span<const FallbackPoStSectorProof> sectors) {
    const std::string part = "window partition " + std::to_string(partition);
    if (cfg.type != PoStType::Window)
        throw std::invalid_argument(std::string(cfg.name) + " is not a Window PoSt proof");
    if (sectors.empty() || sectors.size() > cfg.sector_count)
        throw std::invalid_argument(part + ": " + std::to_string(sectors.size()) + " sectors, " +
                                    std::string(cfg.name) + " takes 1 to " + std::to_string(cfg.sector_count));
    std::set<uint64_t> ids;
    for (size_t i = 0; i < sectors.size(); ++i)
        if (!ids.insert(sectors[i].sector_id).second)
            throw std::invalid_argument(part + ", sector " + std::to_string(i) + ": sector id " +
                                        std::to_string(sectors[i].sector_id) + " appears twice");
    // Sectors are verified in parallel (a 32 GiB sector is 100 Poseidon-8 hashes, 14 ms on
    // one core); the refusal of the first bad sector is the one reported.
    std::vector<std::string> refusals(sectors.size());
    parallel_for(0, sectors.size(), 1, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) {
            try {
                post_verify_sector(cfg, randomness, sectors[i], uint64_t(partition) * cfg.sector_count + i,
                                   part + ", sector " + std::to_string(i));
            } catch (const std::exception& ex) {
                refusals[i] = ex.what();
            }
        }
    });
    for (const std::string& r : refusals)
        if (!r.empty()) throw std::invalid_argument(r);
}

void post_verify_winning(const PoStConfig& cfg, const Bytes32& randomness,
                         std::span<const FallbackPoStSectorProof> sectors) {
    if (cfg.type != PoStType::Winning)
        throw std::invalid_argument(std::string(cfg.name) + " is not a Winning PoSt proof");
    if (sectors.size() != cfg.sector_count)
        throw std::invalid_argument("winning PoSt: " + std::to_string(sectors.size()) + " sectors, " +
                                    std::string(cfg.name) + " takes " + std::to_string(cfg.sector_count));
    post_verify_sector(cfg, randomness, sectors[0], 0, "winning PoSt, sector 0");
}

// ---- generators ------------------------------------------------------------------------------

FallbackPoStSectorProof post_vanilla_proof(const PoStConfig& cfg, uint64_t sector_id, const Bytes32& comm_r,
                                           const Bytes32& comm_c, const gadgets::MerkleTree& tree_r,
                                           const Bytes32& randomness, uint64_t sector_index) {
    const gadgets::TreeShape shape = post_tree_shape(cfg);
    if (tree_r.num_leaves() != cfg.nodes || tree_r.shape().base_arity != shape.base_arity ||
        tree_r.shape().sub_arity != shape.sub_arity || tree_r.shape().top_arity != shape.top_arity ||
        tree_r.shape().hasher != shape.hasher)
        throw std::invalid_argument("post_vanilla_proof: tree R is not a " + cfg.tree.display() + " tree of " +
                                    std::to_string(cfg.nodes) + " leaves");
    const auto c = fr_of(comm_c);
    if (!c) throw std::invalid_argument("post_vanilla_proof: comm_c is not a canonical field element");
    const std::array<Fr, 2> pair{*c, tree_r.root()};
    if (to_bytes(gadgets::poseidon_hash(pair)) != comm_r)
        throw std::invalid_argument("post_vanilla_proof: comm_r is not Poseidon2(comm_c, tree R's root)");
    FallbackPoStSectorProof p;
    p.sector_id = sector_id;
    p.comm_r = comm_r;
    PoStSectorProof& sp = p.sectors.emplace_back();
    sp.comm_c = comm_c;
    sp.comm_r_last = to_bytes(tree_r.root());
    for (uint64_t leaf : post_vanilla_challenges(cfg, randomness, sector_id, sector_index))
        sp.inclusion_proofs.push_back(detail::c1_merkle_proof(tree_r.prove(leaf), cfg.tree));
    return p;
}

FallbackPoStSectorProof post_vanilla_proof(const PoStConfig& cfg, const SealedSector& sector, uint64_t sector_id,
                                           const Bytes32& randomness, uint64_t sector_index) {
    if (sector.config().sector_size != cfg.sector_size)
        throw std::invalid_argument("post_vanilla_proof: a sector of " + std::to_string(sector.config().sector_size) +
                                    " bytes for " + std::string(cfg.name));
    std::vector<Fr> leaves;
    leaves.reserve(sector.replica().size());
    for (const Bytes32& b : sector.replica()) leaves.push_back(detail::to_fr(b));
    const gadgets::MerkleTree tree_r(post_tree_shape(cfg), std::move(leaves));
    const PreCommitCommitments& comm = sector.commitments();
    return post_vanilla_proof(cfg, sector_id, comm.comm_r, comm.comm_c, tree_r, randomness, sector_index);
}

FallbackPoStSectorProof synthetic_post_vanilla_proof(const PoStConfig& cfg, uint64_t seed, uint64_t sector_id,
                                                     const Bytes32& randomness, uint64_t sector_index) {
    const detail::Derive derive(seed);
    const auto challenges = post_vanilla_challenges(cfg, randomness, sector_id, sector_index);
    std::map<uint64_t, Fr> leaves;
    for (uint64_t c : challenges) leaves.emplace(c, detail::to_fr(derive("post leaf", sector_id, c)));
    const gadgets::TreeShape shape = post_tree_shape(cfg);
    const detail::SparseTree tree(gadgets::MerkleHasher::Poseidon, shape.level_arities(cfg.nodes), derive,
                                  "post tree_r " + std::to_string(sector_id), leaves);
    FallbackPoStSectorProof p;
    p.sector_id = sector_id;
    PoStSectorProof& sp = p.sectors.emplace_back();
    sp.comm_c = derive("post comm_c", sector_id);
    sp.comm_r_last = to_bytes(tree.root());
    const std::array<Fr, 2> pair{detail::to_fr(sp.comm_c), tree.root()};
    p.comm_r = to_bytes(gadgets::poseidon_hash(pair));
    for (uint64_t c : challenges)
        sp.inclusion_proofs.push_back(detail::c1_merkle_proof(tree.leaf(c), tree.root(), tree.path(c), cfg.tree));
    return p;
}

}  // namespace cuzk::filecoin
