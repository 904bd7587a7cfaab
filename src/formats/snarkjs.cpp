// snarkjs JSON for Groth16 on BLS12-381 (field names: iden3/snarkjs
// src/zkey_export_verificationkey.js, src/groth16_verify.js; see the header).
#include "cuzk/formats/snarkjs.hpp"

#include <limits>
#include <nlohmann/json.hpp>

#include "cuzk/ec/subgroup.hpp"

namespace cuzk::formats::snarkjs {

using groth16::Proof;
using groth16::VerifyingKey;
using ojson = nlohmann::ordered_json;  // keeps snarkjs's key order when writing

namespace {

constexpr const char* kProtocol = "groth16";
constexpr const char* kCurve = "bls12381";

// ---- writing ---------------------------------------------------------------------------

ojson g1_json(const G1Affine& p) {
    if (p.infinity) return ojson::array({"0", "1", "0"});
    return ojson::array({p.x.to_dec(), p.y.to_dec(), "1"});
}
ojson fp2_json(const Fp2& a) { return ojson::array({a.c0.to_dec(), a.c1.to_dec()}); }
ojson g2_json(const G2Affine& p) {
    if (p.infinity) return ojson::array({ojson::array({"0", "0"}), ojson::array({"1", "0"}), ojson::array({"0", "0"})});
    return ojson::array({fp2_json(p.x), fp2_json(p.y), ojson::array({"1", "0"})});
}
ojson fp6_json(const Fp6& a) { return ojson::array({fp2_json(a.c0), fp2_json(a.c1), fp2_json(a.c2)}); }
ojson fp12_json(const Fp12& a) { return ojson::array({fp6_json(a.c0), fp6_json(a.c1)}); }

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
    template <class F>
    F element() const {
        const std::string s = string();
        bool digits = !s.empty();
        for (char c : s) digits = digits && c >= '0' && c <= '9';
        const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
        if (!digits && !hex) fail("\"" + s.substr(0, 40) + "\" is not a decimal integer");
        auto v = F::from_string(s);
        if (!v) fail("value is not below the " + std::string(std::is_same_v<F, Fr> ? "Fr" : "Fp") + " modulus");
        return *v;
    }
    Fp2 fp2() const {
        array(2);
        return {at(0).element<Fp>(), at(1).element<Fp>()};
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
G1Affine g1_point(const Node& n, bool subgroup) {
    n.array(3);
    const Fp x = n.at(0).element<Fp>(), y = n.at(1).element<Fp>(), z = n.at(2).element<Fp>();
    G1Affine p;
    if (z.is_zero()) {
        if (!x.is_zero() || !y.is_one()) n.fail("point at infinity must be [\"0\", \"1\", \"0\"]");
        p = G1Affine::identity();
    } else if (z.is_one()) {
        p = {x, y, false};
    } else {
        n.at(2).fail("z must be \"1\" (affine) or \"0\" (infinity)");
    }
    check_point(n, p, subgroup);
    return p;
}

G2Affine g2_point(const Node& n, bool subgroup) {
    n.array(3);
    const Fp2 x = n.at(0).fp2(), y = n.at(1).fp2(), z = n.at(2).fp2();
    G2Affine p;
    if (z.is_zero()) {
        if (!x.is_zero() || !(y == Fp2::one())) n.fail("point at infinity must be [[0,0],[1,0],[0,0]]");
        p = G2Affine::identity();
    } else if (z == Fp2::one()) {
        p = {x, y, false};
    } else {
        n.at(2).fail("z must be [\"1\", \"0\"] (affine) or [\"0\", \"0\"] (infinity)");
    }
    check_point(n, p, subgroup);
    return p;
}

Fp12 fp12_value(const Node& n) {
    n.array(2);
    Fp6 c[2];
    for (size_t i = 0; i < 2; ++i) {
        Node six = n.at(i);
        six.array(3);
        c[i] = Fp6(six.at(0).fp2(), six.at(1).fp2(), six.at(2).fp2());
    }
    return Fp12(c[0], c[1]);
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

groth16::VerifyingKey VerificationKey::to_verifying_key() const {
    VerifyingKey vk;
    vk.alpha_g1 = alpha_1;
    vk.beta_g1 = G1Affine::identity();
    vk.beta_g2 = beta_2;
    vk.gamma_g2 = gamma_2;
    vk.delta_g1 = G1Affine::identity();
    vk.delta_g2 = delta_2;
    vk.ic = ic;
    return vk;
}

std::string vk_to_json(const VerifyingKey& vk, const Fp12& alphabeta) {
    if (vk.ic.empty()) throw FormatError("<memory>", "IC", FormatError::kNoOffset, "a vk needs at least IC[0]");
    ojson j;
    j["protocol"] = kProtocol;
    j["curve"] = kCurve;
    j["nPublic"] = vk.ic.size() - 1;
    j["vk_alpha_1"] = g1_json(vk.alpha_g1);
    j["vk_beta_2"] = g2_json(vk.beta_g2);
    j["vk_gamma_2"] = g2_json(vk.gamma_g2);
    j["vk_delta_2"] = g2_json(vk.delta_g2);
    j["vk_alphabeta_12"] = fp12_json(alphabeta);
    ojson ic = ojson::array();
    for (const G1Affine& p : vk.ic) ic.push_back(g1_json(p));
    j["IC"] = std::move(ic);
    return dump(j);
}

std::string proof_to_json(const Proof& proof) {
    ojson j;
    j["pi_a"] = g1_json(proof.a);
    j["pi_b"] = g2_json(proof.b);
    j["pi_c"] = g1_json(proof.c);
    j["protocol"] = kProtocol;
    j["curve"] = kCurve;
    return dump(j);
}

std::string public_to_json(std::span<const Fr> inputs) {
    ojson j = ojson::array();
    for (const Fr& x : inputs) j.push_back(x.to_dec());
    return dump(j);
}

VerificationKey parse_vk(std::string_view json, const ReadOptions& opt, std::string_view name) {
    const ojson j = parse_json(json, name);
    const Node root{j, "", name};
    if (!j.is_object()) root.fail("expected a JSON object");
    expect_string(root, "protocol", kProtocol);
    expect_string(root, "curve", kCurve);
    const Node np = root.field("nPublic");
    if (!np.j.is_number_unsigned()) np.fail("expected a non-negative integer");
    const uint64_t n_public = np.j.get<uint64_t>();
    const Node ic = root.field("IC");
    if (!ic.j.is_array()) ic.fail("expected an array");
    if (ic.j.size() != n_public + 1 || n_public == std::numeric_limits<uint64_t>::max())
        ic.fail("has " + std::to_string(ic.j.size()) + " points but nPublic is " + std::to_string(n_public));
    VerificationKey vk;
    vk.alpha_1 = g1_point(root.field("vk_alpha_1"), opt.check_subgroup);
    vk.beta_2 = g2_point(root.field("vk_beta_2"), opt.check_subgroup);
    vk.gamma_2 = g2_point(root.field("vk_gamma_2"), opt.check_subgroup);
    vk.delta_2 = g2_point(root.field("vk_delta_2"), opt.check_subgroup);
    vk.alphabeta_12 = fp12_value(root.field("vk_alphabeta_12"));
    vk.ic.reserve(ic.j.size());
    for (size_t i = 0; i < ic.j.size(); ++i) vk.ic.push_back(g1_point(ic.at(i), opt.check_subgroup));
    return vk;
}

Proof parse_proof(std::string_view json, std::string_view name) {
    const ojson j = parse_json(json, name);
    const Node root{j, "", name};
    if (!j.is_object()) root.fail("expected a JSON object");
    // protocol and curve are optional in snarkjs's reader; when present they must match.
    if (j.contains("protocol")) expect_string(root, "protocol", kProtocol);
    if (j.contains("curve")) expect_string(root, "curve", kCurve);
    Proof p;
    p.a = g1_point(root.field("pi_a"), true);
    p.b = g2_point(root.field("pi_b"), true);
    p.c = g1_point(root.field("pi_c"), true);
    return p;
}

std::vector<Fr> parse_public(std::string_view json, std::string_view name) {
    const ojson j = parse_json(json, name);
    const Node root{j, "", name};
    if (!j.is_array()) root.fail("expected an array of decimal strings");
    std::vector<Fr> out;
    out.reserve(j.size());
    for (size_t i = 0; i < j.size(); ++i) out.push_back(root.at(i).element<Fr>());
    return out;
}

void write_vk(const VerifyingKey& vk, const Fp12& alphabeta, const std::filesystem::path& file) {
    const std::string s = vk_to_json(vk, alphabeta);
    write_file_atomically(file, {reinterpret_cast<const uint8_t*>(s.data()), s.size()});
}
void write_proof(const Proof& proof, const std::filesystem::path& file) {
    const std::string s = proof_to_json(proof);
    write_file_atomically(file, {reinterpret_cast<const uint8_t*>(s.data()), s.size()});
}
void write_public(std::span<const Fr> inputs, const std::filesystem::path& file) {
    const std::string s = public_to_json(inputs);
    write_file_atomically(file, {reinterpret_cast<const uint8_t*>(s.data()), s.size()});
}
VerificationKey read_vk(const std::filesystem::path& file, const ReadOptions& opt) {
    return parse_vk(read_text(file), opt, file.string());
}
Proof read_proof(const std::filesystem::path& file) { return parse_proof(read_text(file), file.string()); }
std::vector<Fr> read_public(const std::filesystem::path& file) { return parse_public(read_text(file), file.string()); }

}  // namespace cuzk::formats::snarkjs
