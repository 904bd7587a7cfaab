// The "builtin" kind: cuzk's synthetic circuits (circuits/builtin.hpp), keys from the
// development setup.
#include <algorithm>
#include <charconv>

#include "cuzk/common/echo.hpp"
#include "cuzk/kinds/kind.hpp"

namespace cuzk::kinds {
namespace {

using Code = KindError::Code;

bool parse_u64(std::string_view s, uint64_t& out) {
    if (s.empty()) return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}

// random-dense's shape depends on its seed and inputs; a SHA-256 chain's only on its length
// (the preimage is the witness).
class BuiltinShape final : public Shape {
 public:
    BuiltinShape(std::string name, uint64_t size, uint32_t inputs, uint64_t shape_seed)
        : name_(std::move(name)), size_(size), inputs_(inputs), shape_seed_(shape_seed) {}
    std::string id() const override {
        if (dense())
            return name_ + "-" + std::to_string(size_) + "-" + std::to_string(inputs_) + "-" +
                   std::to_string(shape_seed_);
        return name_ + "-" + std::to_string(size_);
    }
    std::unique_ptr<groth16::Circuit> blank_circuit() const override {
        return circuits::make_builtin(name_, size_, dense() ? shape_seed_ : 1, dense() ? inputs_ : 4).circuit;
    }
    r1cs::ShapeCounts counts(const CancelCheck&) const override {
        return circuits::builtin_counts(name_, size_, dense() ? inputs_ : 4);
    }

 private:
    bool dense() const { return name_ == "random-dense"; }
    std::string name_;
    uint64_t size_;
    uint32_t inputs_;
    uint64_t shape_seed_;
};

std::shared_ptr<const Shape> shape_of(const Request& r) {
    const bool sha = r.circuit == "sha256-chain";
    return std::make_shared<BuiltinShape>(r.circuit, r.size, sha ? 0 : r.inputs, sha ? 0 : r.seed);
}

// Partition k: a SHA-256 chain takes preimage seed + k (same shape, its own witness);
// random-dense's witness is fixed by its shape seed, so partitions repeat it.
class BuiltinWork final : public Work {
 public:
    explicit BuiltinWork(const Request& r)
        : circuit_(r.circuit),
          size_(r.size),
          inputs_(r.inputs),
          seed_(r.seed),
          partitions_(r.partitions),
          shape_(shape_of(r)) {}
    uint32_t partitions() const override { return partitions_; }
    std::shared_ptr<const Shape> shape() const override { return shape_; }
    Partition partition(uint32_t k) const override {
        const bool sha = circuit_ == "sha256-chain";
        return circuits::make_builtin(circuit_, size_, sha ? seed_ + k : seed_, inputs_);
    }

 private:
    std::string circuit_;
    uint64_t size_;
    uint32_t inputs_;
    uint64_t seed_;
    uint32_t partitions_;
    std::shared_ptr<const Shape> shape_;
};

// Name, partitions, size and inputs against the limits and the circuit's own rules.
void check(const Request& r, const Limits& limits) {
    const auto names = circuits::builtin_names();
    if (std::find(names.begin(), names.end(), r.circuit) == names.end()) {
        std::string known;
        for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
        throw KindError(Code::InvalidArgument, "unknown circuit '" + echo(r.circuit) + "' (known: " + known + ")");
    }
    if (r.partitions < 1 || r.partitions > limits.max_partitions)
        throw KindError(Code::InvalidArgument, "partitions must be in [1, " + std::to_string(limits.max_partitions) +
                                                   "], got " + std::to_string(r.partitions));
    // Constraints the circuit will have (for the size limit): 25,840 a SHA-256 block.
    const bool sha = r.circuit == "sha256-chain";
    const uint64_t per = sha ? 25840 : 1;
    if (r.size < 1 || r.size > limits.max_constraints / per)
        throw KindError(Code::InvalidArgument, "size of " + r.circuit + " must be in [1, " +
                                                   std::to_string(limits.max_constraints / per) + "], got " +
                                                   std::to_string(r.size));
    if (!sha && (r.inputs < 1 || r.inputs > 1024 || r.inputs > r.size))
        throw KindError(Code::InvalidArgument,
                        "random-dense inputs must be in [1, min(1024, size)], got " + std::to_string(r.inputs));
    // The circuit's own rules (random-dense's least size for its inputs), as the CLI checks them.
    try {
        circuits::check_builtin(r.circuit, r.size, r.inputs);
    } catch (const std::invalid_argument& e) {
        throw KindError(Code::InvalidArgument, e.what());
    }
}

class BuiltinKind final : public Kind {
 public:
    std::string name() const override { return "builtin"; }
    std::shared_ptr<const Work> prepare(const Request& r, const Limits& limits) const override {
        check(r, limits);
        return std::make_shared<BuiltinWork>(r);
    }
    std::string circuit_id(const Request& r) const override { return shape_of(r)->id(); }
    std::shared_ptr<const Shape> shape(const std::string& id, const Limits& limits) const override {
        auto fail = [&](const std::string& w) {
            throw KindError(Code::InvalidArgument, "circuit id '" + echo(id) + "': " + w);
        };
        for (const auto& name : circuits::builtin_names()) {
            if (id.rfind(name + "-", 0) != 0) continue;
            std::string_view rest(id);
            rest.remove_prefix(name.size() + 1);
            // The request a job of this shape would make: refused as prepare refuses it.
            Request r;
            r.circuit = name;
            if (name == "random-dense") {
                // size-inputs-seed
                const auto a = rest.find('-'), b = rest.rfind('-');
                uint64_t inputs = 0;
                if (a == std::string_view::npos || a == b || !parse_u64(rest.substr(0, a), r.size) ||
                    !parse_u64(rest.substr(a + 1, b - a - 1), inputs) || !parse_u64(rest.substr(b + 1), r.seed))
                    fail("expected random-dense-<constraints>-<inputs>-<seed>");
                if (inputs > UINT32_MAX) fail("inputs must be at most " + std::to_string(UINT32_MAX));
                r.inputs = uint32_t(inputs);
            } else if (!parse_u64(rest, r.size)) {
                fail("expected " + name + "-<size>");
            }
            if (r.size == 0) fail("size must be at least 1");
            check(r, limits);
            return shape_of(r);
        }
        return nullptr;
    }
    std::vector<std::string> circuit_id_forms() const override { return circuits::builtin_names(); }
};

}  // namespace

std::unique_ptr<Kind> make_builtin_kind() { return std::make_unique<BuiltinKind>(); }

}  // namespace cuzk::kinds
