#include <cstdlib>

#include "cuzk/common/echo.hpp"
#include "cuzk/kinds/kind.hpp"

namespace cuzk::kinds {

r1cs::ShapeCounts Shape::counts(const CancelCheck& cancel) const {
    groth16::ShapeOptions opt;
    opt.cancel = cancel;
    const groth16::ShapeSummary s = blank_circuit()->summary(opt);
    r1cs::ShapeCounts c;
    c.num_inputs = s.num_inputs;
    c.num_aux = s.num_aux;
    c.num_constraints = s.num_constraints;
    const double m = double(c.num_constraints);
    const std::array<double, 3> nnz = nnz_per_constraint();
    c.nnz_a = uint64_t(m * nnz[0]) + 1;
    c.nnz_b = uint64_t(m * nnz[1]) + 1;
    c.nnz_c = uint64_t(m * nnz[2]) + 1;
    c.coeffs = kCoeffs;
    return c;
}

void Registry::add(std::unique_ptr<Kind> kind) { kinds_.push_back(std::move(kind)); }

std::vector<std::string> Registry::names() const {
    std::vector<std::string> out;
    for (const auto& k : kinds_) out.push_back(k->name());
    return out;
}

const Kind& Registry::find(const std::string& name) const {
    for (const auto& k : kinds_)
        if (k->name() == name) return *k;
    std::string known;
    for (const auto& n : names()) known += (known.empty() ? "" : ", ") + n;
    throw KindError(KindError::Code::InvalidArgument, "unknown proof kind '" + echo(name) + "' (known: " + known + ")");
}

std::shared_ptr<const Shape> Registry::shape(const std::string& id, const Limits& limits) const {
    for (const auto& k : kinds_)
        if (auto s = k->shape(id, limits)) return s;
    std::string known;
    for (const auto& k : kinds_)
        for (const auto& f : k->circuit_id_forms()) known += (known.empty() ? "" : ", ") + f;
    throw KindError(KindError::Code::InvalidArgument,
                    "circuit id '" + echo(id) + "': unknown circuit (known: " + known + ")");
}

std::shared_ptr<Registry> Registry::standard() {
    auto r = std::make_shared<Registry>();
    r->add(make_builtin_kind());
    r->add(make_porep_kind());
    r->add(make_snap_kind());
    r->add(make_post_kind(true));
    r->add(make_post_kind(false));
    return r;
}

std::shared_ptr<const Registry> Registry::all() {
    static const std::shared_ptr<const Registry> registry = standard();
    return registry;
}

Work::OwnProof Work::prove(uint32_t, groth16::ProverBackend&) const {
    throw KindError(KindError::Code::NotImplemented, "this kind's partitions are proven from their circuits");
}

groth16::VerifyResult Work::verify(uint32_t, const OwnProof&) const {
    throw KindError(KindError::Code::NotImplemented, "this kind's proofs are verified with its circuit's key");
}

namespace {
class Unimplemented final : public Kind {
 public:
    explicit Unimplemented(std::string name) : name_(std::move(name)) {}
    std::string name() const override { return name_; }
    std::shared_ptr<const Work> prepare(const Request&, const Limits&) const override { fail(); }
    std::string circuit_id(const Request&) const override { fail(); }
    std::shared_ptr<const Shape> shape(const std::string&, const Limits&) const override { return nullptr; }
    std::vector<std::string> circuit_id_forms() const override { return {}; }

 private:
    [[noreturn]] void fail() const {
        throw KindError(KindError::Code::NotImplemented, "cuzk cannot prove " + name_ + " proofs yet");
    }
    std::string name_;
};
}  // namespace

std::filesystem::path filecoin_param_dir(const std::filesystem::path& configured) {
    if (!configured.empty()) return configured;
    const char* env = std::getenv("FIL_PROOFS_PARAMETER_CACHE");
    if (env && *env) return env;
    return "/var/tmp/filecoin-proof-parameters";
}

std::unique_ptr<Kind> make_unimplemented_kind(std::string name) {
    return std::make_unique<Unimplemented>(std::move(name));
}

}  // namespace cuzk::kinds
