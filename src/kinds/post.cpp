// The "window-post" and "winning-post" kinds: Fallback PoSt from Curio's per-sector vanilla
// proofs (filecoin/post.hpp), one partition a job (Window: the request's partition index;
// Winning: its one sector's 66 challenges), keys from Filecoin's v28
// proof-of-spacetime-fallback parameter files.
#include <charconv>

#include "cuzk/circuits/post.hpp"
#include "cuzk/common/echo.hpp"
#include "cuzk/filecoin/post.hpp"
#include "cuzk/filecoin/registry.hpp"
#include "cuzk/formats/error.hpp"
#include "cuzk/kinds/kind.hpp"

namespace cuzk::kinds {
namespace {

using Code = KindError::Code;
using filecoin::PoStType;

const char* prefix(PoStType t) { return t == PoStType::Window ? "window-post-" : "winning-post-"; }

// One partition of a registered PoSt proof's circuit ("window-post-StackedDrgWindow2KiBV1_2").
class PoStShape final : public Shape {
 public:
    explicit PoStShape(const filecoin::PoStConfig& cfg) : cfg_(cfg) {}
    std::string id() const override { return prefix(cfg_.type) + std::string(cfg_.name); }
    std::unique_ptr<groth16::Circuit> blank_circuit() const override {
        return circuits::make_post_circuit(
            circuits::FallbackPoStCircuit::blank(circuits::FallbackPoStParams::from_config(cfg_)), id());
    }
    std::string params_file_name() const override { return filecoin::post_params_file_name(cfg_); }
    std::string vk_file_name() const override { return filecoin::post_vk_file_name(cfg_); }

 private:
    const filecoin::PoStConfig& cfg_;
};

// The partition: the circuit from the vanilla proofs (which verify: checked at prepare), its
// public inputs from what a verifier knows (randomness, sector ids, comm_rs).
class PoStWork final : public Work {
 public:
    PoStWork(const filecoin::PoStConfig& cfg, const filecoin::Bytes32& randomness, uint32_t partition,
             std::vector<filecoin::FallbackPoStSectorProof> sectors)
        : cfg_(cfg),
          randomness_(randomness),
          partition_(partition),
          sectors_(std::move(sectors)),
          shape_(std::make_shared<PoStShape>(cfg)) {}
    uint32_t partitions() const override { return 1; }
    std::shared_ptr<const Shape> shape() const override { return shape_; }
    Partition partition(uint32_t) const override {
        Partition p;
        std::vector<circuits::PoStPublicSector> pub;
        for (const auto& s : sectors_) pub.push_back({s.sector_id, s.comm_r});
        if (cfg_.type == PoStType::Window) {
            p.circuit = circuits::make_post_circuit(
                circuits::FallbackPoStCircuit::window(cfg_, randomness_, partition_, sectors_), shape_->id());
            p.public_inputs = circuits::window_post_public_inputs(cfg_, randomness_, partition_, pub);
        } else {
            p.circuit = circuits::make_post_circuit(circuits::FallbackPoStCircuit::winning(cfg_, randomness_, sectors_),
                                                    shape_->id());
            p.public_inputs = circuits::winning_post_public_inputs(cfg_, randomness_, pub.at(0));
        }
        return p;
    }

 private:
    const filecoin::PoStConfig& cfg_;
    filecoin::Bytes32 randomness_;
    uint32_t partition_;
    std::vector<filecoin::FallbackPoStSectorProof> sectors_;
    std::shared_ptr<const Shape> shape_;
};

class PoStKind final : public Kind {
 public:
    explicit PoStKind(PoStType type) : type_(type) {}
    std::string name() const override { return type_ == PoStType::Window ? "window-post" : "winning-post"; }
    // Curio's: a Winning PoSt misses its block if late, a Window PoSt its deadline.
    Priority default_priority() const override {
        return type_ == PoStType::Window ? Priority::High : Priority::Critical;
    }

    std::shared_ptr<const Work> prepare(const Request& r, const Limits&) const override {
        const filecoin::PoStConfig& cfg = config(r.registered_proof);
        if (r.sector_size && r.sector_size != cfg.sector_size)
            throw KindError(Code::InvalidArgument, "sector_size " + std::to_string(r.sector_size) +
                                                       " does not match registered_proof " + std::string(cfg.name) +
                                                       " (" + std::to_string(cfg.sector_size) + "-byte sectors)");
        if (r.randomness.size() != 32)
            throw KindError(Code::InvalidArgument,
                            "randomness must be 32 bytes, got " + std::to_string(r.randomness.size()));
        filecoin::Bytes32 randomness;
        std::copy(r.randomness.begin(), r.randomness.end(), randomness.begin());
        const size_t most = type_ == PoStType::Window ? cfg.sector_count : 1;
        if (r.vanilla_proofs.empty() || r.vanilla_proofs.size() > most)
            throw KindError(Code::InvalidArgument,
                            name() + " of " + std::string(cfg.name) + " takes 1.." + std::to_string(most) +
                                " vanilla proofs (one bincode FallbackPoStSectorProof a sector), got " +
                                std::to_string(r.vanilla_proofs.size()));
        const uint32_t partition = type_ == PoStType::Window ? r.partition_index : 0;
        std::vector<filecoin::FallbackPoStSectorProof> sectors;
        sectors.reserve(r.vanilla_proofs.size());
        for (size_t i = 0; i < r.vanilla_proofs.size(); ++i) {
            try {
                sectors.push_back(filecoin::decode_post_sector_proof(cfg, r.vanilla_proofs[i],
                                                                     "vanilla_proofs[" + std::to_string(i) + "]"));
            } catch (const std::exception& e) {
                throw KindError(Code::InvalidArgument, e.what());
            }
        }
        // Nothing is proven from vanilla proofs that do not verify.
        try {
            if (type_ == PoStType::Window)
                filecoin::post_verify_window_partition(cfg, randomness, partition, sectors);
            else
                filecoin::post_verify_winning(cfg, randomness, sectors);
        } catch (const std::exception& e) {
            throw KindError(Code::InvalidArgument, e.what());
        }
        return std::make_shared<PoStWork>(cfg, randomness, partition, std::move(sectors));
    }

    std::string circuit_id(const Request& r) const override {
        return prefix(type_) + std::string(config(r.registered_proof).name);
    }

    std::shared_ptr<const Shape> shape(const std::string& id, const Limits&) const override {
        const std::string p = prefix(type_);
        if (id.rfind(p, 0) != 0) return nullptr;
        const auto proof = filecoin::post_proof_from_name(id.substr(p.size()));
        if (!proof || filecoin::post_config(*proof).type != type_)
            throw KindError(Code::InvalidArgument,
                            "circuit id '" + echo(id) + "': unknown registered " + name() + " proof '" +
                                echo(id.substr(p.size())) + "' (e.g. " + p +
                                (type_ == PoStType::Window ? "StackedDrgWindow2KiBV1_2" : "StackedDrgWinning2KiBV1") +
                                ")");
        return std::make_shared<PoStShape>(filecoin::post_config(*proof));
    }
    std::vector<std::string> circuit_id_forms() const override {
        return {prefix(type_) + std::string("<registered proof>")};
    }

 private:
    // registered_proof: a name or an id, of this kind's type.
    const filecoin::PoStConfig& config(const std::string& s) const {
        std::optional<filecoin::RegisteredPoStProof> p = filecoin::post_proof_from_name(s);
        uint64_t id = 0;
        auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), id);
        if (!p && !s.empty() && ec == std::errc() && ptr == s.data() + s.size()) p = filecoin::post_proof_from_id(id);
        const std::string example =
            type_ == PoStType::Window ? "StackedDrgWindow32GiBV1_2" : "StackedDrgWinning32GiBV1";
        if (!p)
            throw KindError(Code::InvalidArgument, "registered_proof '" + echo(s) +
                                                       "' is not a registered PoSt proof (a name such as " + example +
                                                       ", or its id 0.." +
                                                       std::to_string(filecoin::kRegisteredPoStProofCount - 1) + ")");
        const auto& cfg = filecoin::post_config(*p);
        if (cfg.type != type_)
            throw KindError(Code::InvalidArgument, "registered_proof " + std::string(cfg.name) + " is not a " +
                                                       (type_ == PoStType::Window ? "Window" : "Winning") +
                                                       " PoSt proof (e.g. " + example + ")");
        return cfg;
    }
    PoStType type_;
};

}  // namespace

std::unique_ptr<Kind> make_post_kind(bool window) {
    return std::make_unique<PoStKind>(window ? PoStType::Window : PoStType::Winning);
}

}  // namespace cuzk::kinds
