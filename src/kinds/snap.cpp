// The "snap-deals-update" kind: SnapDeals (EmptySectorUpdate) from Curio's per-partition
// vanilla proofs (filecoin/update.hpp), every partition of the sector a job, keys from
// Filecoin's v28 empty-sector-update parameter files.
#include <charconv>

#include "cuzk/circuits/update.hpp"
#include "cuzk/common/echo.hpp"
#include "cuzk/filecoin/update.hpp"
#include "cuzk/kinds/kind.hpp"

namespace cuzk::kinds {
namespace {

using Code = KindError::Code;
constexpr const char* kPrefix = "snap-deals-update-";

// One partition of a registered update proof's circuit ("snap-deals-update-StackedDrg2KiBV1").
class UpdateShape final : public Shape {
 public:
    explicit UpdateShape(const filecoin::UpdateConfig& cfg) : cfg_(cfg) {}
    std::string id() const override { return kPrefix + std::string(cfg_.name); }
    std::unique_ptr<groth16::Circuit> blank_circuit() const override {
        return circuits::make_update_circuit(circuits::EmptySectorUpdateCircuit::blank(cfg_), id());
    }
    std::string params_file_name() const override { return filecoin::update_params_file_name(cfg_); }
    std::string vk_file_name() const override { return filecoin::update_vk_file_name(cfg_); }
    // SnapDeals' non-zero bounds for the default counting pass: its SHA-256 paths put more in C than the Poseidon-heavy
    // default assumes (2 KiB: 2.36, 1.00, 2.12 a constraint, checked by
    // Kinds.DefaultCountsBoundThePoStAndSnapShapes).
    std::array<double, 3> nnz_per_constraint() const override { return {3.0, 1.5, 3.0}; }

 private:
    const filecoin::UpdateConfig& cfg_;
};

class UpdateWork final : public Work {
 public:
    UpdateWork(const filecoin::UpdateConfig& cfg, const filecoin::UpdatePublicInputs& pub,
               std::vector<filecoin::UpdatePartitionProof> proofs, uint64_t held)
        : cfg_(cfg), pub_(pub), proofs_(std::move(proofs)), held_(held), shape_(std::make_shared<UpdateShape>(cfg)) {}
    uint32_t partitions() const override { return uint32_t(proofs_.size()); }
    std::shared_ptr<const Shape> shape() const override { return shape_; }
    Partition partition(uint32_t k) const override {
        Partition p;
        p.circuit = circuits::make_update_circuit(
            circuits::EmptySectorUpdateCircuit::from_partition_proof(cfg_, pub_, k, proofs_.at(k)), shape_->id());
        p.public_inputs = circuits::update_public_inputs(cfg_, pub_, k);
        return p;
    }
    uint64_t held_bytes() const override { return held_; }

 private:
    const filecoin::UpdateConfig& cfg_;
    filecoin::UpdatePublicInputs pub_;
    std::vector<filecoin::UpdatePartitionProof> proofs_;
    uint64_t held_;
    std::shared_ptr<const Shape> shape_;
};

class SnapKind final : public Kind {
 public:
    std::string name() const override { return "snap-deals-update"; }

    std::shared_ptr<const Work> prepare(const Request& r, const Limits& limits) const override {
        const filecoin::UpdateConfig& cfg = config(r.registered_proof);
        if (r.sector_size && r.sector_size != cfg.sector_size)
            throw KindError(Code::InvalidArgument, "sector_size " + std::to_string(r.sector_size) +
                                                       " does not match registered_proof " + std::string(cfg.name) +
                                                       " (" + std::to_string(cfg.sector_size) + "-byte sectors)");
        if (cfg.partition_count > limits.max_partitions)
            throw KindError(Code::InvalidArgument, std::string(cfg.name) + " has " +
                                                       std::to_string(cfg.partition_count) +
                                                       " partitions, more than this engine's limit of " +
                                                       std::to_string(limits.max_partitions));
        filecoin::UpdatePublicInputs pub;
        try {
            pub.comm_r_old = filecoin::commitment_from_bytes(r.comm_r_old, true, "comm_r_old");
            pub.comm_r_new = filecoin::commitment_from_bytes(r.comm_r_new, true, "comm_r_new");
            pub.comm_d_new = filecoin::commitment_from_bytes(r.comm_d_new, false, "comm_d_new");
            pub.h = r.update_h ? r.update_h : cfg.h_default();
            cfg.k_and_h_select(0, pub.h);
        } catch (const std::invalid_argument& e) {
            throw KindError(Code::InvalidArgument, e.what());
        }
        if (r.vanilla_proofs.size() != cfg.partition_count)
            throw KindError(Code::InvalidArgument,
                            name() + " of " + std::string(cfg.name) + " takes " + std::to_string(cfg.partition_count) +
                                " vanilla proofs (one bincode PartitionProof a partition), got " +
                                std::to_string(r.vanilla_proofs.size()));
        std::vector<filecoin::UpdatePartitionProof> proofs;
        proofs.reserve(r.vanilla_proofs.size());
        uint64_t held = 0;
        for (size_t i = 0; i < r.vanilla_proofs.size(); ++i) {
            const std::string what = "vanilla_proofs[" + std::to_string(i) + "]";
            try {
                proofs.push_back(filecoin::decode_update_partition_proof(cfg, r.vanilla_proofs[i], what));
                // Nothing is proven from vanilla proofs that do not verify.
                filecoin::update_verify_partition(cfg, pub, unsigned(i), proofs.back());
            } catch (const std::exception& e) {
                throw KindError(Code::InvalidArgument, e.what());
            }
            // Decoded, a proof holds its bytes again in vectors of 32-byte values.
            held += 2 * r.vanilla_proofs[i].size();
        }
        return std::make_shared<UpdateWork>(cfg, pub, std::move(proofs), held);
    }

    std::string circuit_id(const Request& r) const override {
        return kPrefix + std::string(config(r.registered_proof).name);
    }

    std::shared_ptr<const Shape> shape(const std::string& id, const Limits&) const override {
        if (id.rfind(kPrefix, 0) != 0) return nullptr;
        const std::string rest = id.substr(std::string(kPrefix).size());
        const auto proof = filecoin::update_proof_from_name(rest);
        if (!proof)
            throw KindError(Code::InvalidArgument, "circuit id '" + echo(id) + "': unknown registered update proof '" +
                                                       echo(rest) + "' (e.g. " + kPrefix + "StackedDrg32GiBV1)");
        return std::make_shared<UpdateShape>(filecoin::update_config(*proof));
    }
    std::vector<std::string> circuit_id_forms() const override { return {kPrefix + std::string("<update proof>")}; }

 private:
    // registered_proof: a name or an id (go-state-types' abi.RegisteredUpdateProof).
    static const filecoin::UpdateConfig& config(const std::string& s) {
        std::optional<filecoin::RegisteredUpdateProof> p = filecoin::update_proof_from_name(s);
        uint64_t id = 0;
        auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), id);
        if (!p && !s.empty() && ec == std::errc() && ptr == s.data() + s.size()) p = filecoin::update_proof_from_id(id);
        if (!p)
            throw KindError(Code::InvalidArgument,
                            "registered_proof '" + echo(s) +
                                "' is not a registered update proof (a name such as StackedDrg32GiBV1, or its id 0.." +
                                std::to_string(filecoin::kRegisteredUpdateProofCount - 1) + ")");
        return filecoin::update_config(*p);
    }
};

}  // namespace

std::unique_ptr<Kind> make_snap_kind() { return std::make_unique<SnapKind>(); }

}  // namespace cuzk::kinds
