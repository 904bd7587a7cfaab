// The "zkey" kind (kinds/zkey.hpp): snarkjs keys loaded once, proofs by groth16::prove_zkey.
#include "cuzk/kinds/zkey.hpp"

#include <cctype>
#include <optional>
#include <sstream>

#include "cuzk/common/echo.hpp"
#include "cuzk/formats/circom.hpp"
#include "cuzk/formats/snarkjs.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/zkey.hpp"

namespace cuzk::kinds {

// The curve of the keys: everything curve-specific below is written against E (the readers,
// the witness check, the prover, the snarkjs JSON), so a second curve is a second instance
// chosen from the .zkey's header.
using E = groth16::Bls12_381;

struct ZkeyStore::Entry {
    std::string name;
    std::filesystem::path path;
    groth16::Zkey<E> key;
    std::optional<groth16::CircomR1cs<E>> r1cs;
    std::shared_ptr<const OwnKeys> own;
    uint64_t bytes = 0;  // the key and the .r1cs as held
};

namespace {

using Code = KindError::Code;
constexpr size_t kFrBytes = sizeof(E::Fr);

std::string zkey_names(const ZkeyStore& store) {
    std::string s;
    for (const auto& n : store.names()) s += (s.empty() ? "" : ", ") + n;
    return s.empty() ? "none" : s;
}

template <class T>
uint64_t vec_bytes(const std::vector<T>& v) {
    return uint64_t(v.size()) * sizeof(T);
}
template <class F>
uint64_t rows_bytes(const groth16::SparseRows<F>& m) {
    return vec_bytes(m.row_ptr) + vec_bytes(m.signal) + vec_bytes(m.coeff);
}

class ZkeyShape final : public Shape {
 public:
    explicit ZkeyShape(std::shared_ptr<const ZkeyStore::Entry> e) : e_(std::move(e)) {}
    std::string id() const override { return "zkey-" + e_->name; }
    std::unique_ptr<groth16::Circuit> blank_circuit() const override {
        throw KindError(Code::NotImplemented, id() + " is a snarkjs key: it has no circuit to synthesize");
    }
    r1cs::ShapeCounts counts(const CancelCheck&) const override {
        r1cs::ShapeCounts c;
        c.num_inputs = e_->key.n_public + 1;
        c.num_aux = e_->key.n_vars - c.num_inputs;
        c.num_constraints = e_->key.domain_size;
        c.nnz_a = e_->key.a_rows.terms();
        c.nnz_b = e_->key.b_rows.terms();
        return c;
    }
    std::shared_ptr<const OwnKeys> own_keys() const override { return e_->own; }

 private:
    std::shared_ptr<const ZkeyStore::Entry> e_;
};

class ZkeyWork final : public Work {
 public:
    ZkeyWork(std::shared_ptr<const ZkeyStore> store, std::shared_ptr<const ZkeyStore::Entry> e, std::vector<Fr> w)
        : store_(std::move(store)), e_(std::move(e)), shape_(std::make_shared<ZkeyShape>(e_)), w_(std::move(w)) {}
    uint32_t partitions() const override { return 1; }
    std::shared_ptr<const Shape> shape() const override { return shape_; }
    Partition partition(uint32_t) const override {
        const auto pub = groth16::public_signals<E>(e_->key, w_);
        return {nullptr, std::vector<Fr>(pub.begin(), pub.end())};
    }
    uint64_t held_bytes() const override { return vec_bytes(w_); }
    groth16::Proof prove(uint32_t, groth16::ProverBackend& backend) const override {
        // The witness was checked at submit (length, ONE, the .r1cs's constraints).
        groth16::Proof p = groth16::prove_zkey(e_->key, w_, groth16::random_randomness(), backend);
        store_->count_proof(e_->name);
        return p;
    }
    Documents documents(const std::vector<groth16::Proof>& proofs,
                        const std::vector<std::vector<Fr>>& inputs) const override {
        if (proofs.size() != 1 || inputs.size() != 1) return {};
        return {{"proof.json", formats::snarkjs::proof_to_json(proofs[0])},
                {"public.json", formats::snarkjs::public_to_json(inputs[0])}};
    }

 private:
    std::shared_ptr<const ZkeyStore> store_;
    std::shared_ptr<const ZkeyStore::Entry> e_;
    std::shared_ptr<const Shape> shape_;
    std::vector<Fr> w_;
};

class ZkeyKind final : public Kind {
 public:
    explicit ZkeyKind(std::shared_ptr<const ZkeyStore> store) : store_(std::move(store)) {}
    std::string name() const override { return "zkey"; }
    // The witness decoded beside its bytes.
    uint64_t prepare_bytes(const Request& r) const override { return r.wtns.size(); }
    std::shared_ptr<const Work> prepare(const Request& r, const Limits&) const override {
        auto e = entry(r.zkey, "key");
        // The witness's values section against the key's signal count before anything is
        // decoded (the reader then checks the header's count against the section).
        const std::span<const uint8_t> bytes(r.wtns);
        if (bytes.empty()) throw KindError(Code::InvalidArgument, "witness: empty (expected a .wtns file's bytes)");
        std::vector<Fr> w;
        try {
            const auto layout = formats::circom::read_bin_layout(bytes, "witness");
            if (layout.magic != "wtns")
                throw KindError(Code::InvalidArgument,
                                "witness: a ." + echo(layout.magic) + " file, not a .wtns (snarkjs wtns calculate)");
            const formats::circom::Section* values = layout.find(2);
            const uint64_t want = uint64_t(e->key.n_vars) * kFrBytes;
            if (values && values->size != want)
                throw KindError(Code::InvalidArgument, "witness: " + std::to_string(values->size / kFrBytes) +
                                                           " values (" + std::to_string(values->size) +
                                                           " bytes), the key '" + e->name + "' has " +
                                                           std::to_string(e->key.n_vars) +
                                                           " signals (ONE included): not a witness of its circuit");
            w = formats::circom::read_wtns_bytes<E>(bytes, "witness").values;
        } catch (const formats::FormatError& fe) {
            throw KindError(Code::InvalidArgument, fe.what());  // "witness: section ..."
        }
        if (auto why = groth16::check_witness<E>(e->key, w, e->r1cs ? &*e->r1cs : nullptr))
            throw KindError(Code::InvalidArgument, "witness: " + *why + " (key '" + e->name + "')");
        return std::make_shared<ZkeyWork>(store_, e, std::move(w));
    }
    std::string circuit_id(const Request& r) const override { return "zkey-" + r.zkey; }
    std::shared_ptr<const Shape> shape(const std::string& id, const Limits&) const override {
        if (id.rfind("zkey-", 0) != 0) return nullptr;
        return std::make_shared<ZkeyShape>(entry(id.substr(5), "circuit id '" + echo(id) + "'"));
    }
    std::vector<std::string> circuit_id_forms() const override { return {"zkey-<loaded key name>"}; }

 private:
    std::shared_ptr<const ZkeyStore::Entry> entry(const std::string& name, const std::string& field) const {
        if (name.empty())
            throw KindError(Code::InvalidArgument, field + ": empty (loaded keys: " + zkey_names(*store_) + ")");
        auto e = store_->find(name);
        if (!e)
            throw KindError(Code::NotFound, field + ": no zkey named '" + echo(name) +
                                                "' is loaded (loaded keys: " + zkey_names(*store_) + ")");
        return e;
    }
    std::shared_ptr<const ZkeyStore> store_;
};

}  // namespace

bool valid_zkey_name(const std::string& name) {
    if (name.empty() || name.size() > 64) return false;
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) return false;
    return true;
}

ZkeyStore::ZkeyStore() = default;
ZkeyStore::~ZkeyStore() = default;

void ZkeyStore::load(const ZkeySpec& spec) {
    if (!valid_zkey_name(spec.name))
        throw std::invalid_argument("zkey name '" + echo(spec.name) +
                                    "': expected 1 to 64 letters, digits, '_', '-' or '.'");
    {
        std::lock_guard lock(mu_);
        if (keys_.count(spec.name)) throw std::invalid_argument("zkey name '" + spec.name + "' is already loaded");
    }
    auto e = std::make_shared<Entry>();
    e->name = spec.name;
    e->path = spec.path;
    e->key = formats::circom::read_zkey<E>(spec.path, {.check_subgroup = spec.check_subgroup});
    if (!spec.r1cs.empty()) {
        e->r1cs = formats::circom::read_r1cs<E>(spec.r1cs);
        if (auto why = groth16::check_r1cs_matches<E>(e->key, *e->r1cs))
            throw std::runtime_error(spec.r1cs.string() + " and " + spec.path.string() + ": " + *why);
    }
    const auto& k = e->key;
    e->bytes = rows_bytes(k.a_rows) + rows_bytes(k.b_rows) + vec_bytes(k.a) + vec_bytes(k.b1) + vec_bytes(k.b2) +
               vec_bytes(k.c) + vec_bytes(k.h) + vec_bytes(k.ic) + vec_bytes(k.z_density.a) + vec_bytes(k.z_density.b);
    if (e->r1cs) e->bytes += rows_bytes(e->r1cs->a) + rows_bytes(e->r1cs->b) + rows_bytes(e->r1cs->c);
    auto own = std::make_shared<OwnKeys>();
    own->vk = groth16::verifying_key(k);
    own->source = "zkey:" + spec.path.string();
    own->num_inputs = k.n_public + 1;
    own->num_aux = k.n_vars - own->num_inputs;
    own->domain = k.domain_size;
    // prove_zkey's peak: A·w, B·w, C·w and H over the domain, the witness's copy for the
    // MSMs, and MSM scratch.
    own->item_bytes = 4 * uint64_t(k.domain_size) * kFrBytes + 2 * uint64_t(k.n_vars) * kFrBytes + (uint64_t(8) << 20);
    e->own = std::move(own);
    std::lock_guard lock(mu_);
    if (keys_.count(spec.name)) throw std::invalid_argument("zkey name '" + spec.name + "' is already loaded");
    keys_[spec.name] = e;
    Stats& s = stats_[spec.name];
    s.name = spec.name;
    s.path = spec.path.string();
    ++s.loads;
    s.bytes = e->bytes;
    s.signals = k.n_vars;
    s.public_signals = k.n_public;
    s.domain = k.domain_size;
    s.r1cs = e->r1cs.has_value();
}

std::vector<std::string> ZkeyStore::names() const {
    std::lock_guard lock(mu_);
    std::vector<std::string> out;
    for (const auto& [n, e] : keys_) out.push_back(n);
    return out;
}

std::shared_ptr<const ZkeyStore::Entry> ZkeyStore::find(const std::string& name) const {
    std::lock_guard lock(mu_);
    auto it = keys_.find(name);
    return it == keys_.end() ? nullptr : it->second;
}

void ZkeyStore::count_proof(const std::string& name) const {
    std::lock_guard lock(mu_);
    ++stats_[name].proofs;
}

std::vector<ZkeyStore::Stats> ZkeyStore::stats() const {
    std::lock_guard lock(mu_);
    std::vector<Stats> out;
    for (const auto& [n, s] : stats_) out.push_back(s);
    return out;
}

std::string ZkeyStore::prometheus() const {
    const auto all = stats();
    std::ostringstream os;
    auto family = [&](const char* name, const char* help, const char* type, auto value) {
        os << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n";
        for (const auto& s : all) os << name << "{key=\"" << s.name << "\"} " << value(s) << "\n";
    };
    family("cuzk_zkey_loads_total", "Times each snarkjs key was read from its file (once a key).", "counter",
           [](const Stats& s) { return s.loads; });
    family("cuzk_zkey_proofs_total", "Proofs made with each snarkjs key.", "counter",
           [](const Stats& s) { return s.proofs; });
    family("cuzk_zkey_bytes", "Memory each loaded snarkjs key holds (its .r1cs included).", "gauge",
           [](const Stats& s) { return s.bytes; });
    family("cuzk_zkey_signals", "Signals of each loaded snarkjs key, ONE included.", "gauge",
           [](const Stats& s) { return s.signals; });
    return os.str();
}

std::unique_ptr<Kind> make_zkey_kind(std::shared_ptr<const ZkeyStore> store) {
    return std::make_unique<ZkeyKind>(std::move(store));
}

}  // namespace cuzk::kinds
