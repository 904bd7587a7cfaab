// snarkjs JSON for Groth16 on BLS12-381 and BN254 (field names: iden3/snarkjs
// src/zkey_export_verificationkey.js, src/groth16_verify.js; see the header).
#include "cuzk/formats/snarkjs.hpp"

#include <limits>
#include <nlohmann/json.hpp>

#include "cuzk/ec/subgroup.hpp"

namespace cuzk::formats::snarkjs {

using groth16::Bn254;
using groth16::ProofOn;
using groth16::VerifyingKeyOn;
using ojson = nlohmann::ordered_json;  // keeps snarkjs's key order when writing

namespace {

constexpr const char* kProtocol = "groth16";

// ---- writing ---------------------------------------------------------------------------

template <class Curve>
ojson g1_json(const Affine<Curve>& p) {
    if (p.infinity) return ojson::array({"0", "1", "0"});
    return ojson::array({p.x.to_dec(), p.y.to_dec(), "1"});
}
template <class Fq2>
ojson fp2_json(const Fq2& a) {
    return ojson::array({a.c0.to_dec(), a.c1.to_dec()});
}
template <class Curve>
ojson g2_json(const Affine<Curve>& p) {
    if (p.infinity) return ojson::array({ojson::array({"0", "0"}), ojson::array({"1", "0"}), ojson::array({"0", "0"})});
    return ojson::array({fp2_json(p.x), fp2_json(p.y), ojson::array({"1", "0"})});
}
template <class Fq6>
ojson fp6_json(const Fq6& a) {
    return ojson::array({fp2_json(a.c0), fp2_json(a.c1), fp2_json(a.c2)});
}
template <class Fq12>
ojson fp12_json(const Fq12& a) {
    return ojson::array({fp6_json(a.c0), fp6_json(a.c1)});
}

// JSON.stringify(x, null, 1) style, as snarkjs writes its files.
std::string dump(const ojson& j) { return j.dump(1) + "\n"; }

// ---- reading ---------------------------------------------------------------------------

// A JSON value together with its path, for error messages.
struct Node {
    const ojson& j;
    std::string path;
    std::string_view file;

    [[noreturn]] void fail(const std::string& problem) const {
        throw FormatError(std::string(file), path.empty() ? "(root)" : path, FormatError::kNoOffset, problem);
    }
    Node at(size_t i) const { return {j[i], path + "[" + std::to_string(i) + "]", file}; }
    Node field(const char* key) const {
        if (!j.is_object()) fail("expected a JSON object");
        auto it = j.find(key);
        if (it == j.end()) throw FormatError(std::string(file), key, FormatError::kNoOffset, "missing field");
        return {*it, path.empty() ? std::string(key) : path + "." + key, file};
    }
    const Node& array(size_t n) const {
        if (!j.is_array()) fail("expected an array of " + std::to_string(n) + " elements");
        if (j.size() != n)
            fail("expected an array of " + std::to_string(n) + " elements, found " + std::to_string(j.size()));
        return *this;
    }
    std::string string() const {
        if (!j.is_string()) fail(std::string("expected a string, found ") + j.type_name());
        return j.get<std::string>();
    }
    // what: the field's name in messages ("Fr", "Fp").
    template <class F>
    F element(const char* what) const {
        const std::string s = string();
        bool digits = !s.empty();
        for (char c : s) digits = digits && c >= '0' && c <= '9';
        const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
        if (!digits && !hex) fail("\"" + s.substr(0, 40) + "\" is not a decimal integer");
        auto v = F::from_string(s);
        if (!v) fail("value is not below the " + std::string(what) + " modulus");
        return *v;
    }
    template <class Fq2>
    Fq2 fp2() const {
        using Fq = decltype(Fq2::c0);
        array(2);
        return {at(0).element<Fq>("Fp"), at(1).element<Fq>("Fp")};
    }
};

ojson parse_json(std::string_view text, std::string_view file) {
    try {
        return ojson::parse(text.begin(), text.end());
    } catch (const ojson::parse_error& e) {
        // e.byte is 1-based; the message after "parse error at ..." names the token.
        throw FormatError(std::string(file), "", e.byte > 0 ? e.byte - 1 : 0,
                          std::string("malformed JSON: ") + e.what());
    } catch (const ojson::exception& e) {
        // Also thrown while parsing: out_of_range for a number too large for a double
        // (found by fuzz_snarkjs: 4303.3E180984...).
        throw FormatError(std::string(file), "", FormatError::kNoOffset, std::string("malformed JSON: ") + e.what());
    }
}

template <class Curve>
void check_point(const Node& n, const Affine<Curve>& p, bool subgroup) {
    if (!p.is_on_curve()) n.fail("point is not on the curve");
    if (subgroup && !p.infinity && !is_in_subgroup(p)) n.fail("point is not in the prime-order subgroup");
}

// [x, y, z] with z = 1 (affine) or z = 0 (infinity, then x = 0, y = 1).
template <class E>
Affine<typename E::G1> g1_point(const Node& n, bool subgroup) {
    using Fq = typename E::Fq;
    n.array(3);
    const Fq x = n.at(0).element<Fq>("Fp"), y = n.at(1).element<Fq>("Fp"), z = n.at(2).element<Fq>("Fp");
    Affine<typename E::G1> p;
    if (z.is_zero()) {
        if (!x.is_zero() || !y.is_one()) n.fail("point at infinity must be [\"0\", \"1\", \"0\"]");
        p = Affine<typename E::G1>::identity();
    } else if (z.is_one()) {
        p = {x, y, false};
    } else {
        n.at(2).fail("z must be \"1\" (affine) or \"0\" (infinity)");
    }
    check_point(n, p, subgroup);
    return p;
}

template <class E>
Affine<typename E::G2> g2_point(const Node& n, bool subgroup) {
    using Fq2 = typename E::Fq2;
    n.array(3);
    const Fq2 x = n.at(0).fp2<Fq2>(), y = n.at(1).fp2<Fq2>(), z = n.at(2).fp2<Fq2>();
    Affine<typename E::G2> p;
    if (z.is_zero()) {
        if (!x.is_zero() || !(y == Fq2::one())) n.fail("point at infinity must be [[0,0],[1,0],[0,0]]");
        p = Affine<typename E::G2>::identity();
    } else if (z == Fq2::one()) {
        p = {x, y, false};
    } else {
        n.at(2).fail("z must be [\"1\", \"0\"] (affine) or [\"0\", \"0\"] (infinity)");
    }
    check_point(n, p, subgroup);
    return p;
}

template <class E>
typename E::Fq12 fp12_value(const Node& n) {
    using Fq2 = typename E::Fq2;
    using Fq6 = typename E::Fq6;
    n.array(2);
    Fq6 c[2];
    for (size_t i = 0; i < 2; ++i) {
        Node six = n.at(i);
        six.array(3);
        c[i] = Fq6(six.at(0).fp2<Fq2>(), six.at(1).fp2<Fq2>(), six.at(2).fp2<Fq2>());
    }
    return typename E::Fq12(c[0], c[1]);
}

void expect_string(const Node& root, const char* key, const char* value) {
    Node n = root.field(key);
    if (n.string() != value) n.fail("expected \"" + std::string(value) + "\", found \"" + n.string() + "\"");
}

std::string read_text(const std::filesystem::path& file) {
    MappedFile m(file);
    auto b = m.bytes();
    return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

}  // namespace

template <class E>
VerifyingKeyOn<E> VerificationKeyT<E>::to_verifying_key() const {
    VerifyingKeyOn<E> vk;
    vk.alpha_g1 = alpha_1;
    vk.beta_g1 = Affine<typename E::G1>::identity();
    vk.beta_g2 = beta_2;
    vk.gamma_g2 = gamma_2;
    vk.delta_g1 = Affine<typename E::G1>::identity();
    vk.delta_g2 = delta_2;
    vk.ic = ic;
    return vk;
}

template <class E>
std::string vk_to_json(const VerifyingKeyOn<E>& vk, const typename E::Fq12& alphabeta) {
    if (vk.ic.empty()) throw FormatError("<memory>", "IC", FormatError::kNoOffset, "a vk needs at least IC[0]");
    ojson j;
    j["protocol"] = kProtocol;
    j["curve"] = E::kSnarkjsName;
    j["nPublic"] = vk.ic.size() - 1;
    j["vk_alpha_1"] = g1_json(vk.alpha_g1);
    j["vk_beta_2"] = g2_json(vk.beta_g2);
    j["vk_gamma_2"] = g2_json(vk.gamma_g2);
    j["vk_delta_2"] = g2_json(vk.delta_g2);
    j["vk_alphabeta_12"] = fp12_json(alphabeta);
    ojson ic = ojson::array();
    for (const auto& p : vk.ic) ic.push_back(g1_json(p));
    j["IC"] = std::move(ic);
    return dump(j);
}

template <class E>
std::string proof_to_json(const ProofOn<E>& proof) {
    ojson j;
    j["pi_a"] = g1_json(proof.a);
    j["pi_b"] = g2_json(proof.b);
    j["pi_c"] = g1_json(proof.c);
    j["protocol"] = kProtocol;
    j["curve"] = E::kSnarkjsName;
    return dump(j);
}

template <class E>
std::string public_to_json(std::span<const typename E::Fr> inputs) {
    ojson j = ojson::array();
    for (const auto& x : inputs) j.push_back(x.to_dec());
    return dump(j);
}

groth16::SnarkjsCurve parse_vk_curve(std::string_view json, std::string_view name) {
    const ojson j = parse_json(json, name);
    const Node root{j, "", name};
    const Node c = root.field("curve");
    const std::string curve = c.string();
    if (curve == Bn254::kSnarkjsName) return groth16::SnarkjsCurve::kBn254;
    if (curve == Bls12_381::kSnarkjsName) return groth16::SnarkjsCurve::kBls12_381;
    c.fail("curve \"" + curve.substr(0, 40) + "\": cuzk verifies \"bn128\" (BN254) and \"bls12381\"");
}

template <class E>
VerificationKeyT<E> parse_vk(std::string_view json, const ReadOptions& opt, std::string_view name) {
    const ojson j = parse_json(json, name);
    const Node root{j, "", name};
    if (!j.is_object()) root.fail("expected a JSON object");
    expect_string(root, "protocol", kProtocol);
    expect_string(root, "curve", E::kSnarkjsName);
    const Node np = root.field("nPublic");
    if (!np.j.is_number_unsigned()) np.fail("expected a non-negative integer");
    const uint64_t n_public = np.j.get<uint64_t>();
    const Node ic = root.field("IC");
    if (!ic.j.is_array()) ic.fail("expected an array");
    if (ic.j.size() != n_public + 1 || n_public == std::numeric_limits<uint64_t>::max())
        ic.fail("has " + std::to_string(ic.j.size()) + " points but nPublic is " + std::to_string(n_public));
    VerificationKeyT<E> vk;
    vk.alpha_1 = g1_point<E>(root.field("vk_alpha_1"), opt.check_subgroup);
    vk.beta_2 = g2_point<E>(root.field("vk_beta_2"), opt.check_subgroup);
    vk.gamma_2 = g2_point<E>(root.field("vk_gamma_2"), opt.check_subgroup);
    vk.delta_2 = g2_point<E>(root.field("vk_delta_2"), opt.check_subgroup);
    vk.alphabeta_12 = fp12_value<E>(root.field("vk_alphabeta_12"));
    vk.ic.reserve(ic.j.size());
    for (size_t i = 0; i < ic.j.size(); ++i) vk.ic.push_back(g1_point<E>(ic.at(i), opt.check_subgroup));
    return vk;
}

template <class E>
ProofOn<E> parse_proof(std::string_view json, std::string_view name) {
    const ojson j = parse_json(json, name);
    const Node root{j, "", name};
    if (!j.is_object()) root.fail("expected a JSON object");
    // protocol and curve are optional in snarkjs's reader; when present they must match.
    if (j.contains("protocol")) expect_string(root, "protocol", kProtocol);
    if (j.contains("curve")) expect_string(root, "curve", E::kSnarkjsName);
    ProofOn<E> p;
    p.a = g1_point<E>(root.field("pi_a"), true);
    p.b = g2_point<E>(root.field("pi_b"), true);
    p.c = g1_point<E>(root.field("pi_c"), true);
    return p;
}

template <class E>
std::vector<typename E::Fr> parse_public(std::string_view json, std::string_view name) {
    const ojson j = parse_json(json, name);
    const Node root{j, "", name};
    if (!j.is_array()) root.fail("expected an array of decimal strings");
    std::vector<typename E::Fr> out;
    out.reserve(j.size());
    for (size_t i = 0; i < j.size(); ++i) out.push_back(root.at(i).element<typename E::Fr>("Fr"));
    return out;
}

namespace {
void write_text(const std::string& s, const std::filesystem::path& file) {
    write_file_atomically(file, {reinterpret_cast<const uint8_t*>(s.data()), s.size()});
}
}  // namespace

template <class E>
void write_vk(const VerifyingKeyOn<E>& vk, const typename E::Fq12& alphabeta, const std::filesystem::path& file) {
    write_text(vk_to_json<E>(vk, alphabeta), file);
}
template <class E>
void write_proof(const ProofOn<E>& proof, const std::filesystem::path& file) {
    write_text(proof_to_json<E>(proof), file);
}
template <class E>
void write_public(std::span<const typename E::Fr> inputs, const std::filesystem::path& file) {
    write_text(public_to_json<E>(inputs), file);
}
template <class E>
VerificationKeyT<E> read_vk(const std::filesystem::path& file, const ReadOptions& opt) {
    return parse_vk<E>(read_text(file), opt, file.string());
}
template <class E>
ProofOn<E> read_proof(const std::filesystem::path& file) {
    return parse_proof<E>(read_text(file), file.string());
}
template <class E>
std::vector<typename E::Fr> read_public(const std::filesystem::path& file) {
    return parse_public<E>(read_text(file), file.string());
}
groth16::SnarkjsCurve read_vk_curve(const std::filesystem::path& file) {
    return parse_vk_curve(read_text(file), file.string());
}

#define CUZK_SNARKJS_INSTANTIATE(E)                                                                             \
    template struct VerificationKeyT<E>;                                                                        \
    template std::string vk_to_json<E>(const VerifyingKeyOn<E>&, const typename E::Fq12&);                      \
    template std::string proof_to_json<E>(const ProofOn<E>&);                                                   \
    template std::string public_to_json<E>(std::span<const typename E::Fr>);                                    \
    template VerificationKeyT<E> parse_vk<E>(std::string_view, const ReadOptions&, std::string_view);           \
    template ProofOn<E> parse_proof<E>(std::string_view, std::string_view);                                     \
    template std::vector<typename E::Fr> parse_public<E>(std::string_view, std::string_view);                   \
    template void write_vk<E>(const VerifyingKeyOn<E>&, const typename E::Fq12&, const std::filesystem::path&); \
    template void write_proof<E>(const ProofOn<E>&, const std::filesystem::path&);                              \
    template void write_public<E>(std::span<const typename E::Fr>, const std::filesystem::path&);               \
    template VerificationKeyT<E> read_vk<E>(const std::filesystem::path&, const ReadOptions&);                  \
    template ProofOn<E> read_proof<E>(const std::filesystem::path&);                                            \
    template std::vector<typename E::Fr> read_public<E>(const std::filesystem::path&);
CUZK_SNARKJS_INSTANTIATE(Bls12_381)
CUZK_SNARKJS_INSTANTIATE(Bn254)
#undef CUZK_SNARKJS_INSTANTIATE

}  // namespace cuzk::formats::snarkjs
