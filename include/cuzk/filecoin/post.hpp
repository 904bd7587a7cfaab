// Fallback PoSt (Winning and Window), natively: challenge derivation, the vanilla proofs as
// Curio hands them to a SNARK prover (one bincode-serialized FallbackPoStSectorProof per
// sector), their verification, and generators of vanilla proofs (from a sealed sector, or
// synthetic for any size).
//
// Sources (rust-fil-proofs unless noted):
//  - storage-proofs-post/src/fallback/vanilla.rs: generate_sector_challenge(s),
//    generate_leaf_challenge(_inner), SectorProof, Proof, FallbackPoSt::verify.
//  - storage-proofs-post/src/fallback/utils.rs: get_challenge_index.
//  - filecoin-proofs/src/api/post_util.rs: generate_fallback_sector_challenges,
//    generate_single_vanilla_proof, single_partition_vanilla_proofs (the padding of a
//    partition by its last sector; Winning's 66 inclusion proofs unrolled to 66 sectors).
//  - filecoin-proofs/src/types/mod.rs: FallbackPoStSectorProof {sector_id, comm_r,
//    vanilla_proof: Proof {sectors: Vec<SectorProof>}}.
//  - storage-proofs-core/src/merkle/proof.rs: MerkleProof {data: ProofData}, ProofData =
//    Single {root, leaf, path} | Sub {base_proof, sub_proof, root, leaf} | Top {base_proof,
//    sub_proof, top_proof, root, leaf}; InclusionPath {path: Vec<PathElement {hashes, index}>}.
//  - rust-filecoin-proofs-api src/post.rs: the bytes are bincode::serialize (bincode 1, default
//    options): integers little-endian fixed width, usize as u64, a Vec as its u64 length then
//    its elements, [u8; 32] (commitments, PoseidonDomain) as 32 bytes, an enum as its u32
//    variant index then its fields, structs as their fields in declaration order.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/filecoin/c1.hpp"
#include "cuzk/filecoin/registry.hpp"
#include "cuzk/gadgets/merkle.hpp"

namespace cuzk::filecoin {

class SealedSector;

// ---- challenges ------------------------------------------------------------------------------

// generate_sector_challenges: for n in 0..count, SHA-256(prover_id ‖ randomness ‖ u64_le(n)),
// its first 8 bytes as a little-endian u64, mod sector_set_size. Winning PoSt draws
// cfg.sector_count (1) of them: indices into the miner's sector set.
// std::invalid_argument for an empty set.
std::vector<uint64_t> post_sector_challenges(const Bytes32& randomness, const Bytes32& prover_id, uint64_t count,
                                             uint64_t sector_set_size);
std::vector<uint64_t> winning_post_sector_challenges(const PoStConfig& cfg, const Bytes32& randomness,
                                                     const Bytes32& prover_id, uint64_t sector_set_size);

// get_challenge_index: 1.0 and 1.1 number the challenges across sectors
// (sector_index · challenges_per_sector + n), 1.2 restarts at n for every sector.
uint64_t post_challenge_index(ApiVersion version, uint64_t sector_index, uint64_t challenges_per_sector, uint64_t n);

// generate_leaf_challenge: SHA-256(randomness ‖ u64_le(sector_id) ‖ u64_le(challenge_index)),
// its first 8 bytes as a little-endian u64, mod nodes.
uint64_t post_leaf_challenge(uint64_t nodes, const Bytes32& randomness, uint64_t sector_id, uint64_t challenge_index);

// The leaves a sector's vanilla proof opens (generate_fallback_sector_challenges): its
// cfg.challenge_count challenges; sector_index is its position among all the sectors proven
// (Window: partition · cfg.sector_count + position in the partition; Winning: 0).
std::vector<uint64_t> post_vanilla_challenges(const PoStConfig& cfg, const Bytes32& randomness, uint64_t sector_id,
                                              uint64_t sector_index);

// ---- vanilla proofs --------------------------------------------------------------------------

// SectorProof: one inclusion proof in tree R per challenge, comm_c, comm_r_last.
// MerkleProof and PathElement are the C1 types: the same Rust types.
struct PoStSectorProof {
    std::vector<MerkleProof> inclusion_proofs;
    Bytes32 comm_c{}, comm_r_last{};
    bool operator==(const PoStSectorProof&) const = default;
};

// FallbackPoStSectorProof: what generate_single_vanilla_proof returns for one sector.
// `sectors` is vanilla_proof.sectors: one entry.
struct FallbackPoStSectorProof {
    uint64_t sector_id = 0;
    Bytes32 comm_r{};
    std::vector<PoStSectorProof> sectors;
    bool operator==(const FallbackPoStSectorProof&) const = default;
};

// bincode of a FallbackPoStSectorProof. Every count and length is checked against the
// remaining bytes and against the registered proof's shape (1 sector proof,
// cfg.challenge_count inclusion proofs, the ProofData variant and path levels of the tree
// shape, arity − 1 siblings, index < arity) before memory is taken; trailing bytes are
// refused. Throws formats::FormatError whose file is `what` (e.g. "vanilla proof 3") and
// whose section is the field path, e.g. "vanilla_proof.sectors[0].inclusion_proofs[4]
// .data.Sub.base_proof.path[2].hashes". Values are not checked here (post_verify_* does).
FallbackPoStSectorProof decode_post_sector_proof(const PoStConfig& cfg, std::span<const uint8_t> bytes,
                                                 const std::string& what = "vanilla proof");
// bincode::serialize of the same: decode ∘ encode is the identity.
std::vector<uint8_t> encode_post_sector_proof(const FallbackPoStSectorProof& proof);

// A Merkle proof's levels (base, then sub, then top) as field elements, bottom up.
// std::invalid_argument naming `what` for a value that is not a canonical Fr.
std::vector<gadgets::PathElement> merkle_path_fr(const MerkleProof& proof, const std::string& what);
// The tree-R shape of a config, as the native Merkle code takes it.
gadgets::TreeShape post_tree_shape(const PoStConfig& cfg);

// ---- the request file ------------------------------------------------------------------------

// A PoSt request as Curio's SubmitProofRequest carries it, in one file: what `cuzk gen-vanilla
// --kind window-post|winning-post` writes and `cuzk prove post`, `verify post` and `client
// submit` read. Its bytes are bincode (as above) of the fields in this order:
//   [u8; 8]   magic "cuzkpost"
//   u32       format version (kPoStRequestVersion)
//   u64       registered_proof: Filecoin's RegisteredPoStProof id (e.g. 3 = StackedDrgWinning32GiBV1)
//   [u8; 32]  randomness
//   u64       miner_id (the actor id)
//   u32       partition_index (Window; 0 for Winning)
//   Vec<Vec<u8>> vanilla_proofs: u64 count, then per sector a u64 length and the bincode
//             FallbackPoStSectorProof, byte for byte what Curio puts in `vanilla_proofs`
inline constexpr char kPoStRequestMagic[9] = "cuzkpost";
inline constexpr uint32_t kPoStRequestVersion = 1;
struct PoStRequestFile {
    RegisteredPoStProof proof{};
    Bytes32 randomness{};
    uint64_t miner_id = 0;
    uint32_t partition_index = 0;
    std::vector<std::vector<uint8_t>> vanilla_proofs;
    bool operator==(const PoStRequestFile&) const = default;
};
std::vector<uint8_t> encode_post_request_file(const PoStRequestFile& f);
// Checks the layout (magic, version, a registered PoSt proof id, 1..sector_count vanilla
// proofs for Window, 1 and partition 0 for Winning, every length against the bytes left, no
// trailing bytes) before memory is taken; the vanilla proofs are kept as bytes
// (decode_post_sector_proof reads them). formats::FormatError naming `file` and the field.
PoStRequestFile decode_post_request_file(std::span<const uint8_t> bytes, const std::string& file);
// The same from a file of at most kMaxPoStRequestFileBytes (a 64 GiB Window partition's
// file is about 60 MB), its size checked before it is read.
inline constexpr uint64_t kMaxPoStRequestFileBytes = uint64_t(1) << 30;
PoStRequestFile read_post_request_file(const std::string& path);

// ---- verification ----------------------------------------------------------------------------

// One sector as FallbackPoSt::verify checks it, plus what the circuit needs: every value a
// canonical Fr; comm_r = Poseidon2(comm_c, comm_r_last); every inclusion proof's root and the
// sector proof's comm_r_last equal; each path of the tree's shape hashes (Poseidon, arity 8
// base) from its leaf to its root; path i opens the leaf the challenges derive for
// (randomness, sector id, sector_index, i). Throws std::invalid_argument naming `what`, the
// sector id and the field, e.g. "window partition 0, sector 1 (id 42):
// inclusion_proofs[3]: opens leaf 17, the challenge is leaf 12".
void post_verify_sector(const PoStConfig& cfg, const Bytes32& randomness, const FallbackPoStSectorProof& proof,
                        uint64_t sector_index, const std::string& what);
// A Window PoSt partition: 1..cfg.sector_count sectors, distinct ids, each verified with
// sector_index = partition · cfg.sector_count + its position.
void post_verify_window_partition(const PoStConfig& cfg, const Bytes32& randomness, unsigned partition,
                                  std::span<const FallbackPoStSectorProof> sectors);
// Winning PoSt: exactly one sector, cfg.challenge_count (66) inclusion proofs.
void post_verify_winning(const PoStConfig& cfg, const Bytes32& randomness,
                         std::span<const FallbackPoStSectorProof> sectors);

// ---- generators ------------------------------------------------------------------------------

// generate_single_vanilla_proof from a sector's tree R (all nodes held): the inclusion proofs
// of post_vanilla_challenges. std::invalid_argument when the tree is not of the config's
// sector size and shape, or comm_r ≠ Poseidon2(comm_c, root).
FallbackPoStSectorProof post_vanilla_proof(const PoStConfig& cfg, uint64_t sector_id, const Bytes32& comm_r,
                                           const Bytes32& comm_c, const gadgets::MerkleTree& tree_r,
                                           const Bytes32& randomness, uint64_t sector_index);
// The same for a sector sealed in memory (its tree R is rebuilt from the replica).
FallbackPoStSectorProof post_vanilla_proof(const PoStConfig& cfg, const SealedSector& sector, uint64_t sector_id,
                                           const Bytes32& randomness, uint64_t sector_index);

// A vanilla proof for any sector size that passes post_verify_sector: the challenged leaves
// are pseudo-random, tree R is sparse (the nodes above a challenged leaf are hashes of their
// children, every other node is pseudo-random from the seed, the sector id and its position),
// comm_c is pseudo-random and comm_r = Poseidon2(comm_c, comm_r_last). The root depends on
// which leaves are challenged, so comm_r differs per randomness. Memory and time grow with
// challenges × path length. Deterministic in (cfg, seed, sector_id, randomness, sector_index).
FallbackPoStSectorProof synthetic_post_vanilla_proof(const PoStConfig& cfg, uint64_t seed, uint64_t sector_id,
                                                     const Bytes32& randomness, uint64_t sector_index);

}  // namespace cuzk::filecoin
