// The "porep-seal-commit" kind: Filecoin PoRep C2 from a C1 output (filecoin/c1.hpp), one
// StackedDrg circuit per partition, keys from Filecoin's v28 parameter files.
#include <charconv>

#include "cuzk/circuits/porep.hpp"
#include "cuzk/common/echo.hpp"
#include "cuzk/filecoin/c1.hpp"
#include "cuzk/filecoin/registry.hpp"
#include "cuzk/kinds/kind.hpp"

namespace cuzk::kinds {
namespace {

using Code = KindError::Code;

// One partition of a sector size's StackedDrg circuit, named after the size's V1_1 proof
// ("porep-StackedDrg32GiBV1_1"): every registered proof of the size (V1, V1_1, NI-PoRep) proves
// it with the same parameter files (filecoin::circuit_proof), so they share one loaded copy.
class PoRepShape final : public Shape {
 public:
    explicit PoRepShape(uint64_t proof) : proof_(proof) {}
    std::string id() const override {
        const auto p = filecoin::seal_proof_from_id(proof_);
        return "porep-" + (p ? std::string(filecoin::porep_config(*p).name) : std::to_string(proof_));
    }
    std::unique_ptr<groth16::Circuit> blank_circuit() const override {
        return circuits::make_stacked_circuit(
            circuits::StackedCircuit::blank(circuits::StackedParams::from_config(cfg())), id());
    }
    std::string params_file_name() const override { return filecoin::porep_params_file_name(cfg()); }
    std::string vk_file_name() const override { return filecoin::porep_vk_file_name(cfg()); }
    r1cs::ShapeCounts counts(const CancelCheck& cancel) const override {
        return circuits::porep_counts(circuits::StackedParams::from_config(cfg()), cancel);
    }

 private:
    const filecoin::PoRepConfig& cfg() const { return filecoin::porep_config(filecoin::RegisteredSealProof(proof_)); }
    uint64_t proof_;
};

// "StackedDrg2KiBV1_1" or its numeric id.
std::optional<filecoin::RegisteredSealProof> parse_registered_proof(const std::string& s) {
    if (auto p = filecoin::seal_proof_from_name(s)) return p;
    uint64_t id = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), id);
    if (ec == std::errc() && ptr == s.data() + s.size()) return filecoin::seal_proof_from_id(id);
    return std::nullopt;
}

// Validates a request against its C1 output (see Request): the parsed C1, whose registered
// proof fixes the circuit and the partitions.
std::shared_ptr<const filecoin::SealCommitPhase1Output> parse_c1(const Request& r, bool check) {
    if (r.c1_json.empty())
        throw KindError(Code::InvalidArgument,
                        "porep-seal-commit needs the C1 output (SealCommitPhase1Output JSON), got 0 bytes");
    auto c1 = std::make_shared<filecoin::SealCommitPhase1Output>();
    try {
        *c1 = filecoin::parse_c1_output(r.c1_json, "c1 output");
    } catch (const std::exception& e) {
        throw KindError(Code::InvalidArgument, e.what());
    }
    const auto& cfg = filecoin::porep_config(c1->registered_proof);
    if (!r.registered_proof.empty()) {
        const auto want = parse_registered_proof(r.registered_proof);
        if (!want)
            throw KindError(Code::InvalidArgument, "unknown registered proof '" + r.registered_proof +
                                                       "' (a name such as StackedDrg32GiBV1_1, or its id 0..19)");
        if (*want != c1->registered_proof)
            throw KindError(Code::InvalidArgument,
                            "registered_proof " + std::string(filecoin::porep_config(*want).name) +
                                " does not match the C1 output's registered_proof " + std::string(cfg.name));
    }
    if (r.sector_size && r.sector_size != cfg.sector_size)
        throw KindError(Code::InvalidArgument, "sector_size " + std::to_string(r.sector_size) +
                                                   " does not match the C1 output's registered_proof " +
                                                   std::string(cfg.name) + " (" + std::to_string(cfg.sector_size) +
                                                   "-byte sectors)");
    if (cfg.kind == filecoin::PoRepKind::SyntheticPoRep)
        throw KindError(Code::NotImplemented, "cuzk cannot prove synthetic PoRep (" + std::string(cfg.name) + ") yet");
    if (check) {
        try {
            filecoin::check_c1_consistency(*c1, "c1 output");
        } catch (const std::logic_error& e) {
            throw KindError(Code::NotImplemented, e.what());
        } catch (const std::exception& e) {
            throw KindError(Code::InvalidArgument, e.what());
        }
    }
    return c1;
}

// Partition k: the StackedDrg circuit of the C1's partition k, its public inputs derived from
// replica_id, comm_d, comm_r and the seed (as a verifier derives them), not taken from the
// vanilla proofs: a C1 whose challenges are not the seed's makes a proof that fails.
class PoRepWork final : public Work {
 public:
    explicit PoRepWork(std::shared_ptr<const filecoin::SealCommitPhase1Output> c1)
        : c1_(std::move(c1)), shape_(porep_shape(uint64_t(c1_->registered_proof))) {}
    uint32_t partitions() const override { return uint32_t(c1_->vanilla_proofs.size()); }
    std::shared_ptr<const Shape> shape() const override { return shape_; }
    Partition partition(uint32_t k) const override {
        const filecoin::SealCommitPhase1Output& c1 = *c1_;
        const auto& cfg = filecoin::porep_config(c1.registered_proof);
        Partition b;
        b.circuit = circuits::make_stacked_circuit(
            circuits::StackedCircuit::from_vanilla(cfg, c1.replica_id, c1.comm_d, c1.comm_r, c1.vanilla_proofs.at(k)),
            shape_->id());
        b.public_inputs =
            circuits::porep_public_inputs(c1.registered_proof, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, k);
        return b;
    }
    uint64_t held_bytes() const override { return filecoin::c1_heap_bytes(*c1_); }

 private:
    std::shared_ptr<const filecoin::SealCommitPhase1Output> c1_;
    std::shared_ptr<const Shape> shape_;
};

class PoRepKind final : public Kind {
 public:
    std::string name() const override { return "porep-seal-commit"; }
    uint64_t prepare_bytes(const Request& r) const override { return filecoin::c1_parse_bytes(r.c1_json.size()); }
    std::shared_ptr<const Work> prepare(const Request& r, const Limits& limits) const override {
        auto work = std::make_shared<PoRepWork>(parse_c1(r, limits.check_vanilla));
        if (work->partitions() < 1 || work->partitions() > limits.max_partitions)
            throw KindError(Code::InvalidArgument, "partitions must be in [1, " +
                                                       std::to_string(limits.max_partitions) + "], got " +
                                                       std::to_string(work->partitions()));
        return work;
    }
    std::string circuit_id(const Request& r) const override {
        if (!r.registered_proof.empty()) {
            if (auto p = parse_registered_proof(r.registered_proof)) return porep_shape(uint64_t(*p))->id();
            throw KindError(Code::InvalidArgument, "unknown registered proof '" + echo(r.registered_proof) + "'");
        }
        return porep_shape(uint64_t(parse_c1(r, false)->registered_proof))->id();
    }
    std::shared_ptr<const Shape> shape(const std::string& id, const Limits&) const override {
        if (id.rfind("porep-", 0) != 0) return nullptr;
        const std::string proof = id.substr(6);
        const auto p = filecoin::seal_proof_from_name(proof);
        if (!p)
            throw KindError(Code::InvalidArgument, "circuit id '" + echo(id) + "': unknown registered proof '" +
                                                       echo(proof) + "' (e.g. porep-StackedDrg2KiBV1_1)");
        return porep_shape(uint64_t(*p));
    }
    std::vector<std::string> circuit_id_forms() const override { return {"porep-<registered proof>"}; }
};

}  // namespace

std::shared_ptr<const Shape> porep_shape(uint64_t registered_proof) {
    const auto p = filecoin::seal_proof_from_id(registered_proof);
    return std::make_shared<PoRepShape>(p ? uint64_t(filecoin::circuit_proof(*p)) : registered_proof);
}

std::unique_ptr<Kind> make_porep_kind() { return std::make_unique<PoRepKind>(); }

}  // namespace cuzk::kinds
