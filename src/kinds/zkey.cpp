// The "zkey" kind (kinds/zkey.hpp): snarkjs keys on BLS12-381 or BN254 loaded once, proofs by
// groth16::prove_zkey.
#include "cuzk/kinds/zkey.hpp"

#include <cctype>
#include <optional>
#include <sstream>
#include <variant>

#include "cuzk/common/echo.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/circom.hpp"
#include "cuzk/formats/snarkjs.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/zkey.hpp"

namespace cuzk::kinds {

// The curves of the keys: everything curve-specific below is a template over E (the readers,
// the witness check, the prover, the proof's bytes, the verifier, the snarkjs JSON), each key
// on the curve its .zkey's header names (formats::circom::detect_curve, as cuzk prove-zkey).
using groth16::Bls12_381;
using groth16::Bn254;

namespace zkey_keys {
// A key on its curve, with its verifying key prepared once.
template <class E>
struct CurveKeys {
    groth16::Zkey<E> key;
    std::optional<groth16::CircomR1cs<E>> r1cs;
    std::unique_ptr<const groth16::PreparedVerifyingKeyT<typename E::G1, typename E::G2>> pvk;
};
}  // namespace zkey_keys

struct ZkeyStore::Entry {
    std::string name;
    std::filesystem::path path;
    groth16::SnarkjsCurve curve = groth16::SnarkjsCurve::kBls12_381;
    std::variant<zkey_keys::CurveKeys<Bls12_381>, zkey_keys::CurveKeys<Bn254>> keys;
    r1cs::ShapeCounts counts;  // Shape::counts
    std::shared_ptr<const OwnKeys> own;
    uint64_t bytes = 0;  // the key and the .r1cs as held
};

namespace {

using Code = KindError::Code;
using zkey_keys::CurveKeys;

template <class E>
const CurveKeys<E>& keys_of(const ZkeyStore::Entry& e) {
    return std::get<CurveKeys<E>>(e.keys);
}

// "BN254 (bn128)".
std::string curve_name(groth16::SnarkjsCurve c) {
    return groth16::with_curve(
        c, [](auto e) { return std::string(decltype(e)::kName) + " (" + decltype(e)::kSnarkjsName + ")"; });
}

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

// ---- a proof and a verifying key as the answer carries them ----------------------------
// BLS12-381: bellperson's bytes (compressed proof, 192 bytes; uncompressed .vk). BN254:
// Ethereum's uncompressed points (ec/bn254.hpp): a proof is A 64 || B 128 || C 64 bytes,
// the verifying key bellperson's layout (alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1,
// delta_g2, a big-endian u32 count, IC) with those points.
std::vector<uint8_t> proof_bytes(const groth16::ProofOn<Bls12_381>& p) {
    const auto b = formats::proof_to_bytes(p);
    return {b.begin(), b.end()};
}
void put_eth(std::vector<uint8_t>& out, const auto& point) {
    const auto b = bn254::to_eth_bytes(point);
    out.insert(out.end(), b.begin(), b.end());
}
std::vector<uint8_t> proof_bytes(const groth16::ProofOn<Bn254>& p) {
    std::vector<uint8_t> out;
    put_eth(out, p.a);
    put_eth(out, p.b);
    put_eth(out, p.c);
    return out;
}
constexpr size_t kBn254ProofBytes = 2 * bn254::kG1EthBytes + bn254::kG2EthBytes;

std::vector<uint8_t> vk_bytes(const groth16::VerifyingKeyOn<Bls12_381>& vk) { return formats::vk_to_bytes(vk); }
std::vector<uint8_t> vk_bytes(const groth16::VerifyingKeyOn<Bn254>& vk) {
    std::vector<uint8_t> out;
    put_eth(out, vk.alpha_g1);
    put_eth(out, vk.beta_g1);
    put_eth(out, vk.beta_g2);
    put_eth(out, vk.gamma_g2);
    put_eth(out, vk.delta_g1);
    put_eth(out, vk.delta_g2);
    const auto n = uint32_t(vk.ic.size());
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(uint8_t(n >> shift));
    for (const auto& p : vk.ic) put_eth(out, p);
    return out;
}

// The proof in `bytes` (proof_bytes' encoding); why not when they are none.
std::optional<groth16::ProofOn<Bls12_381>> proof_from_bytes(std::span<const uint8_t> bytes,
                                                            groth16::ProofOn<Bls12_381>*, std::string& why) {
    try {
        return formats::read_proofs_from_bytes(bytes, 1, "proof").at(0);
    } catch (const std::exception& e) {
        why = e.what();
        return std::nullopt;
    }
}
std::optional<groth16::ProofOn<Bn254>> proof_from_bytes(std::span<const uint8_t> bytes, groth16::ProofOn<Bn254>*,
                                                        std::string& why) {
    if (bytes.size() != kBn254ProofBytes) {
        why =
            "proof: " + std::to_string(bytes.size()) + " bytes, a BN254 proof has " + std::to_string(kBn254ProofBytes);
        return std::nullopt;
    }
    const auto a = bn254::decode_eth_g1(bytes.first(bn254::kG1EthBytes));
    const auto b = bn254::decode_eth_g2(bytes.subspan(bn254::kG1EthBytes, bn254::kG2EthBytes));
    const auto c = bn254::decode_eth_g1(bytes.subspan(bn254::kG1EthBytes + bn254::kG2EthBytes));
    for (const auto& [what, message] :
         {std::pair{"A", a ? nullptr : a.message()}, std::pair{"B", b ? nullptr : b.message()},
          std::pair{"C", c ? nullptr : c.message()}})
        if (message) {
            why = std::string("proof: ") + what + ": " + message;
            return std::nullopt;
        }
    return groth16::ProofOn<Bn254>{a.point, b.point, c.point};
}

// ---- the prover of each curve ----------------------------------------------------------
// Both curves' MSMs run on the engine's backend (the job's device): BLS12-381's through it,
// BN254's through the ZkeyMsm it gives (ProverBackend::bn254_msm).
groth16::ProofOn<Bls12_381> prove_on(const groth16::Zkey<Bls12_381>& key, std::span<const Fr> w,
                                     groth16::ProverBackend& backend, std::string& where) {
    where = backend.name();
    return groth16::prove_zkey(key, w, groth16::random_randomness(), backend);
}
groth16::ProofOn<Bn254> prove_on(const groth16::Zkey<Bn254>& key, std::span<const bn254::Fr> w,
                                 groth16::ProverBackend& backend, std::string& where) {
    auto msm = backend.bn254_msm();
    where = msm->name();
    return groth16::prove_zkey(key, w, groth16::random_randomness<bn254::Fr>(), *msm);
}

class ZkeyShape final : public Shape {
 public:
    explicit ZkeyShape(std::shared_ptr<const ZkeyStore::Entry> e) : e_(std::move(e)) {}
    std::string id() const override { return "zkey-" + e_->name; }
    std::unique_ptr<groth16::Circuit> blank_circuit() const override {
        throw KindError(Code::NotImplemented, id() + " is a snarkjs key: it has no circuit to synthesize");
    }
    r1cs::ShapeCounts counts(const CancelCheck&) const override { return e_->counts; }
    std::shared_ptr<const OwnKeys> own_keys() const override { return e_->own; }

 private:
    std::shared_ptr<const ZkeyStore::Entry> e_;
};

template <class E>
class ZkeyWork final : public Work {
 public:
    using F = typename E::Fr;
    ZkeyWork(std::shared_ptr<const ZkeyStore> store, std::shared_ptr<const ZkeyStore::Entry> e, std::vector<F> w)
        : store_(std::move(store)), e_(std::move(e)), shape_(std::make_shared<ZkeyShape>(e_)), w_(std::move(w)) {}
    uint32_t partitions() const override { return 1; }
    std::shared_ptr<const Shape> shape() const override { return shape_; }
    // No circuit: prove() takes the witness as it is, and its proof carries the public inputs.
    Partition partition(uint32_t) const override { return {nullptr, {}}; }
    uint64_t held_bytes() const override { return vec_bytes(w_); }
    OwnProof prove(uint32_t, groth16::ProverBackend& backend) const override {
        // The witness was checked at submit (length, ONE, the .r1cs's constraints).
        OwnProof out;
        const auto proof = prove_on(keys_of<E>(*e_).key, w_, backend, out.backend);
        store_->count_proof(e_->name);
        const auto pub = inputs();
        out.bytes = proof_bytes(proof);
        for (const auto& x : pub) out.public_inputs.push_back(x.to_dec());
        out.documents = {{"proof.json", formats::snarkjs::proof_to_json<E>(proof)},
                         {"public.json", formats::snarkjs::public_to_json<E>(pub)}};
        return out;
    }
    // The bytes the answer carries, decoded, against the witness's public signals.
    groth16::VerifyResult verify(uint32_t, const OwnProof& p) const override {
        std::string why;
        const auto proof = proof_from_bytes(p.bytes, static_cast<groth16::ProofOn<E>*>(nullptr), why);
        if (!proof) return {false, why};
        return groth16::verify(*keys_of<E>(*e_).pvk, *proof, std::span<const F>(inputs()));
    }

 private:
    std::vector<F> inputs() const {
        const auto pub = groth16::public_signals<E>(keys_of<E>(*e_).key, w_);
        return {pub.begin(), pub.end()};
    }
    std::shared_ptr<const ZkeyStore> store_;
    std::shared_ptr<const ZkeyStore::Entry> e_;
    std::shared_ptr<const Shape> shape_;
    std::vector<F> w_;
};

// The witness in `bytes` against a key on curve E: its values section's length against the
// key's signal count before anything is decoded (the reader then checks the header's count
// against the section), then ONE and, with the key's .r1cs, every constraint.
template <class E>
std::shared_ptr<const Work> prepare_on(std::shared_ptr<const ZkeyStore> store,
                                       std::shared_ptr<const ZkeyStore::Entry> e, std::span<const uint8_t> bytes,
                                       const formats::circom::BinFile& layout) {
    constexpr size_t kFrBytes = sizeof(typename E::Fr);
    const auto& k = keys_of<E>(*e);
    std::vector<typename E::Fr> w;
    try {
        const formats::circom::Section* values = layout.find(2);
        const uint64_t want = uint64_t(k.key.n_vars) * kFrBytes;
        if (values && values->size != want)
            throw KindError(Code::InvalidArgument, "witness: " + std::to_string(values->size / kFrBytes) + " values (" +
                                                       std::to_string(values->size) + " bytes), the key '" + e->name +
                                                       "' has " + std::to_string(k.key.n_vars) +
                                                       " signals (ONE included): not a witness of its circuit");
        w = formats::circom::read_wtns_bytes<E>(bytes, "witness").values;
    } catch (const formats::FormatError& fe) {
        throw KindError(Code::InvalidArgument, fe.what());  // "witness: section ..."
    }
    if (auto why = groth16::check_witness<E>(k.key, w, k.r1cs ? &*k.r1cs : nullptr))
        throw KindError(Code::InvalidArgument, "witness: " + *why + " (key '" + e->name + "')");
    return std::make_shared<ZkeyWork<E>>(std::move(store), std::move(e), std::move(w));
}

class ZkeyKind final : public Kind {
 public:
    explicit ZkeyKind(std::shared_ptr<const ZkeyStore> store) : store_(std::move(store)) {}
    std::string name() const override { return "zkey"; }
    // The witness decoded beside its bytes.
    uint64_t prepare_bytes(const Request& r) const override { return r.wtns.size(); }
    std::shared_ptr<const Work> prepare(const Request& r, const Limits&) const override {
        auto e = entry(r.zkey, "key");
        const std::span<const uint8_t> bytes(r.wtns);
        if (bytes.empty()) throw KindError(Code::InvalidArgument, "witness: empty (expected a .wtns file's bytes)");
        formats::circom::BinFile layout;
        groth16::SnarkjsCurve curve;
        try {
            layout = formats::circom::read_bin_layout(bytes, "witness");
            if (layout.magic != "wtns")
                throw KindError(Code::InvalidArgument,
                                "witness: a ." + echo(layout.magic) + " file, not a .wtns (snarkjs wtns calculate)");
            curve = formats::circom::detect_curve(bytes, "witness");
        } catch (const formats::FormatError& fe) {
            throw KindError(Code::InvalidArgument, fe.what());
        }
        // The curve first: a witness of the other curve may have the key's length.
        if (curve != e->curve)
            throw KindError(Code::InvalidArgument,
                            "witness: its prime is " + curve_name(curve) + "'s scalar field, the key '" + e->name +
                                "' is on " + curve_name(e->curve) + ": the witness and the key must be on one curve");
        return groth16::with_curve(
            curve, [&](auto c) { return prepare_on<decltype(c)>(store_, std::move(e), bytes, layout); });
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

// Reads the key (and its .r1cs) on curve E into e.
template <class E>
void load_on(ZkeyStore::Entry& e, const ZkeySpec& spec) {
    constexpr size_t kFrBytes = sizeof(typename E::Fr);
    CurveKeys<E> ck;
    ck.key = formats::circom::read_zkey<E>(spec.path, {.check_subgroup = spec.check_subgroup});
    if (!spec.r1cs.empty()) {
        ck.r1cs = formats::circom::read_r1cs<E>(spec.r1cs);
        if (auto why = groth16::check_r1cs_matches<E>(ck.key, *ck.r1cs))
            throw std::runtime_error(spec.r1cs.string() + " and " + spec.path.string() + ": " + *why);
    }
    const auto& k = ck.key;
    const auto vk = groth16::verifying_key(k);
    ck.pvk = std::make_unique<const groth16::PreparedVerifyingKeyT<typename E::G1, typename E::G2>>(vk);
    e.bytes = rows_bytes(k.a_rows) + rows_bytes(k.b_rows) + vec_bytes(k.a) + vec_bytes(k.b1) + vec_bytes(k.b2) +
              vec_bytes(k.c) + vec_bytes(k.h) + vec_bytes(k.ic) + vec_bytes(k.z_density.a) + vec_bytes(k.z_density.b);
    if (ck.r1cs) e.bytes += rows_bytes(ck.r1cs->a) + rows_bytes(ck.r1cs->b) + rows_bytes(ck.r1cs->c);
    e.counts.num_inputs = k.n_public + 1;
    e.counts.num_aux = k.n_vars - e.counts.num_inputs;
    e.counts.num_constraints = k.domain_size;
    e.counts.nnz_a = k.a_rows.terms();
    e.counts.nnz_b = k.b_rows.terms();
    auto own = std::make_shared<OwnKeys>();
    own->vk_bytes = vk_bytes(vk);
    own->source = "zkey:" + spec.path.string();
    own->num_inputs = k.n_public + 1;
    own->num_aux = k.n_vars - own->num_inputs;
    own->domain = k.domain_size;
    // prove_zkey's peak: A·w, B·w, C·w and H over the domain, the witness's copy for the
    // MSMs, and MSM scratch.
    own->item_bytes = 4 * uint64_t(k.domain_size) * kFrBytes + 2 * uint64_t(k.n_vars) * kFrBytes + (uint64_t(8) << 20);
    e.own = std::move(own);
    e.keys = std::move(ck);
}

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
    e->curve = formats::circom::detect_curve(spec.path);
    groth16::with_curve(e->curve, [&](auto c) { load_on<decltype(c)>(*e, spec); });
    std::lock_guard lock(mu_);
    if (keys_.count(spec.name)) throw std::invalid_argument("zkey name '" + spec.name + "' is already loaded");
    keys_[spec.name] = e;
    Stats& s = stats_[spec.name];
    s.name = spec.name;
    s.path = spec.path.string();
    ++s.loads;
    s.bytes = e->bytes;
    s.curve = groth16::with_curve(e->curve, [](auto c) { return std::string(decltype(c)::kSnarkjsName); });
    std::visit(
        [&](const auto& ck) {
            s.signals = ck.key.n_vars;
            s.public_signals = ck.key.n_public;
            s.domain = ck.key.domain_size;
            s.r1cs = ck.r1cs.has_value();
        },
        e->keys);
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
