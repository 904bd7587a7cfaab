// The "zkey" kind: circom/snarkjs Groth16 proofs (groth16::prove_zkey) from .zkey keys on
// BLS12-381 or BN254 (snarkjs' bn128; the curve read from each .zkey's header) loaded once,
// by name, into a ZkeyStore; each request names a key and carries a witness (.wtns bytes),
// checked at submit (its curve against the key's, its length against the key's signals, ONE,
// and with the key's .r1cs every constraint). The kind proves and verifies each proof itself
// (kinds::Work::prove and verify: the engine holds no curve type of it), and its answer
// carries the proof's bytes (BLS12-381: bellperson's 192; BN254: Ethereum's uncompressed
// 256, A 64 || B 128 || C 64) and snarkjs' proof.json and public.json.
//
//   ZkeyStore::load(name, .zkey[, .r1cs]) once ─► make_zkey_kind(store) in the engine's
//   registry ─► Request{kind "zkey", zkey name, wtns bytes} ─► circuit id "zkey-<name>"
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuzk/kinds/kind.hpp"

namespace cuzk::kinds {

// A key to load: its name (what requests say), its .zkey file, and optionally the circuit's
// .r1cs (with it, a witness's constraints are checked at submit and a failing one named).
struct ZkeySpec {
    std::string name;
    std::filesystem::path path;
    std::filesystem::path r1cs;  // "" = none
    // Check every point of the .zkey in the prime-order subgroup (cuzk prove-zkey checks
    // unless --no-subgroup-check): the bulk of the load time of a large key.
    bool check_subgroup = true;
};

// Letters, digits, '_', '-' and '.', 1 to 64 of them: a key name is part of the circuit id
// and of metric labels.
bool valid_zkey_name(const std::string& name);

// The keys the zkey kind proves with, loaded once each and kept for the store's life.
class ZkeyStore {
 public:
    ZkeyStore();
    ~ZkeyStore();
    // Loads a key (std::invalid_argument for a bad or taken name; formats::FormatError naming
    // the file and where for a malformed .zkey or .r1cs; std::runtime_error when the .r1cs is
    // not the key's circuit).
    void load(const ZkeySpec& spec);
    std::vector<std::string> names() const;
    // Per key: how many times it was loaded (1: a key is read once, whatever the proofs) and
    // the proofs made with it; Prometheus text (cuzk_zkey_*).
    struct Stats {
        std::string name, path;
        std::string curve;  // "bls12381" or "bn128", as snarkjs names it
        uint64_t loads = 0, proofs = 0, bytes = 0;
        uint32_t signals = 0, public_signals = 0, domain = 0;
        bool r1cs = false;
    };
    std::vector<Stats> stats() const;
    std::string prometheus() const;

    struct Entry;
    // The loaded key of that name; nullptr if none.
    std::shared_ptr<const Entry> find(const std::string& name) const;
    void count_proof(const std::string& name) const;

 private:
    mutable std::mutex mu_;
    std::map<std::string, std::shared_ptr<const Entry>> keys_;
    mutable std::map<std::string, Stats> stats_;
};

// The "zkey" kind over the store's keys (circuit ids "zkey-<name>").
std::unique_ptr<Kind> make_zkey_kind(std::shared_ptr<const ZkeyStore> store);

}  // namespace cuzk::kinds
