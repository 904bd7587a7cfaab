// The proof kinds the engine proves (DESIGN.md, "kinds"): one small interface per kind turns a
// request into partitions, each a circuit and its public inputs, and names the circuit shape
// (the parameter cache's key) with its blank circuit and its Filecoin parameter files. The
// engine schedules, proves and verifies; what a kind's request means lives here.
//
//   Request ─► Kind::prepare (validate) ─► Work: partitions(), shape(), partition(k)
//   circuit id ─► Registry::shape ─► Shape: id(), blank_circuit(), params/vk file names
#pragma once

#include <array>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/circuits/builtin.hpp"
#include "cuzk/common/cancel.hpp"
#include "cuzk/groth16/backend.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/r1cs/shape.hpp"

namespace cuzk::kinds {

// Values as Curio's cuzk.v1.Priority: 0 (unspecified) takes the kind's default priority.
enum class Priority : int { Unspecified = 0, Low = 1, Normal = 2, High = 3, Critical = 4 };

// What a client asks to prove; each kind reads its own fields.
struct Request {
    // A registered kind's name (Registry::names()).
    std::string kind = "builtin";
    // builtin: the circuit (circuits::builtin_names()), its size in blocks (sha256-chain) or
    // constraints (random-dense), public inputs (random-dense), witness seed (partition k of
    // sha256-chain uses seed + k) and partitions.
    std::string circuit = "sha256-chain";
    uint64_t size = 1;
    uint32_t inputs = 4;
    uint64_t seed = 1;
    uint32_t partitions = 1;
    // porep-seal-commit: the C1 output (SealCommitPhase1Output JSON, filecoin/c1.hpp); the
    // registered proof ("StackedDrg2KiBV1_1" or its numeric id; "" = the one the C1 names)
    // and the sector size in bytes (0 = not checked), both checked against the C1.
    std::string c1_json;
    std::string registered_proof;
    uint64_t sector_size = 0;
    // window-post, winning-post: registered_proof names the registered PoSt proof (e.g.
    // "StackedDrgWindow2KiBV1_2" or its id); the 32-byte randomness; Window's partition index;
    // one bincode FallbackPoStSectorProof per sector (Window: the partition's, in order, at
    // most the proof's sectors per partition; Winning: the one challenged sector). miner_id is
    // Curio's prover: the vanilla proofs' challenges were drawn with it, the circuit does not
    // take it.
    std::vector<std::vector<uint8_t>> vanilla_proofs;
    std::vector<uint8_t> randomness;
    uint64_t miner_id = 0;
    uint32_t partition_index = 0;
    // snap-deals-update: registered_proof names the registered update proof
    // ("StackedDrg32GiBV1" or its id 0..4); one bincode PartitionProof per partition in
    // vanilla_proofs, in order; the commitments as 32 raw bytes or their binary CIDs
    // (filecoin::commitment_from_bytes); h 0 takes the size's default (10; 1 at 2 KiB).
    std::vector<uint8_t> comm_r_old, comm_r_new, comm_d_new;
    uint32_t update_h = 0;
    // zkey: the name of a loaded snarkjs key (ZkeyStore) and the witness, a .wtns file's bytes.
    std::string zkey;
    std::vector<uint8_t> wtns;
};

// Why a request or a circuit id is refused; the engine maps the code to its own.
class KindError : public std::runtime_error {
 public:
    enum class Code { InvalidArgument, NotImplemented, NotFound };
    KindError(Code code, const std::string& what) : std::runtime_error(what), code_(code) {}
    Code code() const { return code_; }

 private:
    Code code_;
};

// The engine's bounds on what a request may ask for.
struct Limits {
    uint32_t max_partitions = 128;  // NI-PoRep has 126 at 32/64 GiB
    uint64_t max_constraints = uint64_t(1) << 27;
    // Check vanilla proofs at prepare (a PoRep C1: filecoin::check_c1_consistency).
    bool check_vanilla = true;
};

// The keys of a shape that brings its own, with its own prover and verifier (a snarkjs .zkey
// on BLS12-381 or BN254, loaded once by its kind): the engine records no R1CS, runs no setup
// and synthesizes no witness for it; a partition's proof comes from Work::prove and is
// checked by Work::verify, so the engine holds none of the key's curve types.
struct OwnKeys {
    std::vector<uint8_t> vk_bytes;  // the verifying key as the answer carries it
    std::string source;             // where the keys came from, for the log ("zkey:<path>")
    uint64_t num_inputs = 0, num_aux = 0, domain = 0;
    uint64_t item_bytes = 0;  // a proof's peak memory beside the keys
};

// A circuit shape: what the parameter cache keys on.
class Shape {
 public:
    virtual ~Shape() = default;
    // "sha256-chain-4", "random-dense-1000-4-7", "porep-StackedDrg2KiBV1_1".
    virtual std::string id() const = 0;
    // The circuit with every value zero: its shape is this shape, for setup and the densities.
    virtual std::unique_ptr<groth16::Circuit> blank_circuit() const = 0;
    // Filecoin's parameter and verifying-key file names ("v28-..."); "" for a circuit
    // without published parameters (its keys come from the development setup).
    virtual std::string params_file_name() const { return {}; }
    virtual std::string vk_file_name() const { return {}; }
    // Its R1CS sizes before anything is recorded, for the engine's memory estimate: exact
    // counts and upper bounds on the non-zeros. By default a counting pass over the blank
    // circuit (nothing stored; `cancel` checked as it goes) with nnz_per_constraint()'s bounds.
    virtual r1cs::ShapeCounts counts(const CancelCheck& cancel) const;
    // The non-zero bounds of the default counts(): kNnzPerConstraint unless a kind's gadgets
    // put more in a matrix.
    virtual std::array<double, 3> nnz_per_constraint() const {
        return {kNnzPerConstraint[0], kNnzPerConstraint[1], kNnzPerConstraint[2]};
    }
    // Non-zeros per constraint in A, B, C that the default counts() assumes at most: the
    // Poseidon and Merkle gadgets' (Window / Winning PoSt 2 KiB: 6.87 / 1.02 / 1.25, checked
    // by Kinds.DefaultCountsBoundThePoStShape).
    static constexpr double kNnzPerConstraint[3] = {8.0, 1.5, 2.0};
    // Distinct coefficients the default counts() assumes at most (Poseidon's constants: a few
    // thousand a width).
    static constexpr uint64_t kCoeffs = uint64_t(1) << 16;
    // Non-null for a shape with its own keys and prover (OwnKeys).
    virtual std::shared_ptr<const OwnKeys> own_keys() const { return nullptr; }
};

// One partition: its circuit (with the witness) and the public inputs (ONE excluded) a
// verifier derives, against which the proof is checked.
using Partition = circuits::BuiltinCircuit;

// A validated request.
class Work {
 public:
    virtual ~Work() = default;
    virtual uint32_t partitions() const = 0;
    virtual std::shared_ptr<const Shape> shape() const = 0;
    // Partition k < partitions(); may be called again for the same k (a CPU recompute).
    virtual Partition partition(uint32_t k) const = 0;
    // Bytes it holds for as long as the job lives (a PoRep's parsed C1), kept reserved in
    // the engine's budget.
    virtual uint64_t held_bytes() const { return 0; }
    // Text files the answer carries beside the proof bytes, by name (a zkey job's proof.json
    // and public.json as snarkjs writes them).
    using Documents = std::vector<std::pair<std::string, std::string>>;
    // A proof of a shape with its own keys, as the answer carries it.
    struct OwnProof {
        // The curve's raw encoding: BLS12-381 bellperson's 192 bytes (compressed A, B, C);
        // BN254 Ethereum's uncompressed 256 (A 64, B 128, C 64; ec/bn254.hpp).
        std::vector<uint8_t> bytes;
        std::vector<std::string> public_inputs;  // decimal, ONE excluded
        Documents documents;
        std::string backend;  // where its MSMs ran ("cpu", "cuda:0")
    };
    // Partition k's proof on `backend` (or on the kind's own MSMs where the curve has no
    // ProverBackend), for a shape with its own keys (Shape::own_keys); the default refuses (the
    // engine proves every other shape from partition(k)'s circuit).
    virtual OwnProof prove(uint32_t k, groth16::ProverBackend& backend) const;
    // Whether proof.bytes, decoded, is a valid proof of partition k's public inputs (those that
    // proof.public_inputs lists) under the shape's own verifying key; the default refuses, as
    // prove() does.
    virtual groth16::VerifyResult verify(uint32_t k, const OwnProof& proof) const;
};

class Kind {
 public:
    virtual ~Kind() = default;
    virtual std::string name() const = 0;
    // The priority of a request that leaves it unset, as Curio sets it: Winning PoSt
    // CRITICAL, Window PoSt HIGH, PoRep, SnapDeals and the built-in circuits NORMAL.
    virtual Priority default_priority() const { return Priority::Normal; }
    // The memory prepare() may take to read the request, at most, in proportion to its bytes
    // (a PoRep C1 read as a stream: filecoin::c1_parse_bytes); the engine reserves it first.
    virtual uint64_t prepare_bytes(const Request&) const { return 0; }
    // Validates the request (KindError naming the field otherwise).
    virtual std::shared_ptr<const Work> prepare(const Request& request, const Limits& limits) const = 0;
    // The circuit id prepare's work would have, from the request's own fields where they
    // name it (no vanilla proof checked).
    virtual std::string circuit_id(const Request& request) const = 0;
    // The shape of a circuit id of this kind, checked against the limits as prepare checks a
    // request; nullptr when the id is not this kind's; KindError when it is but is malformed.
    virtual std::shared_ptr<const Shape> shape(const std::string& id, const Limits& limits) const = 0;
    // How this kind's circuit ids look, for messages ("porep-<registered proof>").
    virtual std::vector<std::string> circuit_id_forms() const = 0;
};

class Registry {
 public:
    void add(std::unique_ptr<Kind> kind);
    // KindError(InvalidArgument) naming the known kinds for an unknown name.
    const Kind& find(const std::string& name) const;
    std::vector<std::string> names() const;
    // The shape of a circuit id; KindError(InvalidArgument) naming the known forms.
    std::shared_ptr<const Shape> shape(const std::string& id, const Limits& limits) const;

    // Every kind cuzk has (builtin, porep-seal-commit, snap-deals-update, window-post,
    // winning-post).
    static std::shared_ptr<const Registry> all();
    // A new registry of the kinds of all(), to which a caller adds its own (the daemon's
    // zkey kind, whose keys its configuration names).
    static std::shared_ptr<Registry> standard();

 private:
    std::vector<std::unique_ptr<Kind>> kinds_;
};

std::unique_ptr<Kind> make_builtin_kind();
std::unique_ptr<Kind> make_porep_kind();
// "window-post" (window = true) or "winning-post".
std::unique_ptr<Kind> make_post_kind(bool window);
// "snap-deals-update": SnapDeals (EmptySectorUpdate), one partition per vanilla proof.
std::unique_ptr<Kind> make_snap_kind();
// A kind that is known but not provable yet: prepare says NotImplemented.
std::unique_ptr<Kind> make_unimplemented_kind(std::string name);

// The Filecoin parameter directory, where a shape's params/vk files are: `configured` if
// set, else env FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters.
std::filesystem::path filecoin_param_dir(const std::filesystem::path& configured = {});

// The shape of a registered seal proof's PoRep circuit (filecoin::RegisteredSealProof id): the
// one shape of its sector size, "porep-StackedDrg<size>V1_1" (filecoin::circuit_proof).
std::shared_ptr<const Shape> porep_shape(uint64_t registered_proof);

}  // namespace cuzk::kinds
