// snarkjs JSON: round trips of verification_key.json, proof.json and public.json, the
// exact shape snarkjs expects, and malformed input rejected with the JSON path named.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ec/ec.hpp"
#include "cuzk/formats/snarkjs.hpp"
#include "support/seed.hpp"

namespace cuzk::formats::snarkjs {
namespace {

using groth16::Proof;
using groth16::VerifyingKey;
using json = nlohmann::json;

template <class Curve>
Affine<Curve> random_point(std::mt19937_64& rng) {
    return mul(Affine<Curve>::generator(), Fr::random(rng)).to_affine();
}

Fp2 random_fp2(std::mt19937_64& rng) { return {Fp::random(rng), Fp::random(rng)}; }
Fp12 random_fp12(std::mt19937_64& rng) {
    return Fp12(Fp6(random_fp2(rng), random_fp2(rng), random_fp2(rng)),
                Fp6(random_fp2(rng), random_fp2(rng), random_fp2(rng)));
}

struct SnarkjsJson : ::testing::Test {
    void SetUp() override {
        std::mt19937_64 rng(cuzk::test::seed());
        vk.alpha_g1 = random_point<G1Curve>(rng);
        vk.beta_g1 = random_point<G1Curve>(rng);
        vk.beta_g2 = random_point<G2Curve>(rng);
        vk.gamma_g2 = G2Affine::generator();
        vk.delta_g1 = random_point<G1Curve>(rng);
        vk.delta_g2 = random_point<G2Curve>(rng);
        for (int i = 0; i < 4; ++i) vk.ic.push_back(random_point<G1Curve>(rng));
        alphabeta = random_fp12(rng);
        proof = {random_point<G1Curve>(rng), random_point<G2Curve>(rng), random_point<G1Curve>(rng)};
        for (int i = 0; i < 3; ++i) inputs.push_back(Fr::random(rng));
        stray = random_curve_point<G1Curve>(rng);
    }
    VerifyingKey vk;
    Fp12 alphabeta;
    Proof proof;
    std::vector<Fr> inputs;
    G1Affine stray;
};

template <class Fn>
void expect_error(Fn fn, std::initializer_list<std::string> parts) {
    try {
        fn();
        ADD_FAILURE() << "no FormatError thrown";
    } catch (const FormatError& e) {
        const std::string msg = e.what();
        for (const std::string& p : parts)
            EXPECT_NE(msg.find(p), std::string::npos) << "missing \"" << p << "\" in: " << msg;
    }
}

TEST_F(SnarkjsJson, VkShapeAndRoundTrip) {
    const std::string text = vk_to_json(vk, alphabeta);
    const json j = json::parse(text);
    EXPECT_EQ(j["protocol"], "groth16");
    EXPECT_EQ(j["curve"], "bls12381");
    EXPECT_EQ(j["nPublic"], 3);
    EXPECT_EQ(j["IC"].size(), 4u);
    EXPECT_EQ(j["vk_alpha_1"][0], vk.alpha_g1.x.to_dec());
    EXPECT_EQ(j["vk_alpha_1"][2], "1");
    EXPECT_EQ(j["vk_beta_2"][0][1], vk.beta_g2.x.c1.to_dec());  // Fp2 as [c0, c1]
    EXPECT_EQ(j["vk_beta_2"][2], json::array({"1", "0"}));
    // vk_alphabeta_12 is [2][3][2]: Fp12.c1 . Fp6.c2 . Fp2.c0 below.
    EXPECT_EQ(j["vk_alphabeta_12"][1][2][0], alphabeta.c1.c2.c0.to_dec());
    // gamma_2 is the G2 generator, whose x.c0 snarkjs files start with 3527010695...
    EXPECT_EQ(j["vk_gamma_2"][0][0].get<std::string>().substr(0, 10), "3527010695");

    const VerificationKey back = parse_vk(text);
    EXPECT_EQ(back.alpha_1, vk.alpha_g1);
    EXPECT_EQ(back.beta_2, vk.beta_g2);
    EXPECT_EQ(back.gamma_2, vk.gamma_g2);
    EXPECT_EQ(back.delta_2, vk.delta_g2);
    EXPECT_EQ(back.ic, vk.ic);
    EXPECT_TRUE(back.alphabeta_12 == alphabeta);
    EXPECT_EQ(back.n_public(), 3u);
    const VerifyingKey v2 = back.to_verifying_key();
    EXPECT_EQ(v2.ic, vk.ic);
    EXPECT_TRUE(v2.beta_g1.infinity);
}

TEST_F(SnarkjsJson, ProofAndPublicRoundTrip) {
    const std::string text = proof_to_json(proof);
    const json j = json::parse(text);
    EXPECT_EQ(j["pi_a"].size(), 3u);
    EXPECT_EQ(j["pi_a"][1], proof.a.y.to_dec());
    EXPECT_EQ(j["pi_b"][1][0], proof.b.y.c0.to_dec());
    EXPECT_EQ(j["pi_c"][2], "1");
    EXPECT_EQ(j["protocol"], "groth16");
    EXPECT_EQ(parse_proof(text), proof);

    const std::string pub = public_to_json(inputs);
    EXPECT_EQ(json::parse(pub)[2], inputs[2].to_dec());
    EXPECT_EQ(parse_public(pub), inputs);
    EXPECT_TRUE(parse_public("[]").empty());
}

TEST_F(SnarkjsJson, FilesRoundTrip) {
    const auto dir = std::filesystem::temp_directory_path() / ("cuzk_snarkjs_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    write_vk(vk, alphabeta, dir / "verification_key.json");
    write_proof(proof, dir / "proof.json");
    write_public(inputs, dir / "public.json");
    EXPECT_EQ(read_vk(dir / "verification_key.json").ic, vk.ic);
    EXPECT_EQ(read_proof(dir / "proof.json"), proof);
    EXPECT_EQ(read_public(dir / "public.json"), inputs);
    std::filesystem::remove_all(dir);
}

TEST_F(SnarkjsJson, InfinityForm) {
    Proof p = proof;
    p.c = G1Affine::identity();
    const std::string text = proof_to_json(p);
    EXPECT_EQ(json::parse(text)["pi_c"], json::array({"0", "1", "0"}));
    EXPECT_EQ(parse_proof(text), p);
}

TEST_F(SnarkjsJson, MalformedRejected) {
    expect_error([] { parse_proof("{\"pi_a\": [1, 2"); }, {"malformed JSON"});
    expect_error([] { parse_proof(""); }, {"malformed JSON"});
    expect_error([] { parse_public("[\"1\", 4303.3E180984]"); }, {"malformed JSON", "number overflow"});
    expect_error([] { parse_proof("[]"); }, {"expected a JSON object"});
    expect_error([] { parse_public("{}"); }, {"expected an array"});
    expect_error([] { parse_public("[\"12\", 5]"); }, {"[1]", "expected a string, found number"});
    expect_error([] { parse_public("[\"12a\"]"); }, {"[0]", "not a decimal integer"});
    expect_error([] { parse_public("[\"\"]"); }, {"[0]", "not a decimal integer"});
    // r itself is not a canonical Fr value.
    expect_error(
        [] { parse_public("[\"52435875175126190479447740508185965837690552500527637822603658699938581184513\"]"); },
        {"[0]", "not below the Fr modulus"});

    json j = json::parse(proof_to_json(proof));
    auto with = [&](auto edit) {
        json k = j;
        edit(k);
        return k.dump();
    };
    expect_error([&] { parse_proof(with([](json& k) { k.erase("pi_b"); })); }, {"pi_b", "missing field"});
    expect_error([&] { parse_proof(with([](json& k) { k["pi_a"].erase(2); })); },
                 {"pi_a", "array of 3 elements, found 2"});
    expect_error([&] { parse_proof(with([](json& k) { k["pi_b"][1][0] = "x"; })); }, {"pi_b[1][0]", "not a decimal"});
    expect_error([&] { parse_proof(with([](json& k) { k["pi_a"][2] = "2"; })); }, {"pi_a[2]", "z must be"});
    expect_error([&] { parse_proof(with([](json& k) { k["curve"] = "bn128"; })); }, {"curve", "bls12381"});
    expect_error([&] { parse_proof(with([](json& k) { k["pi_c"][1] = "5"; })); }, {"pi_c", "not on the curve"});
    expect_error([&] { parse_proof(with([&](json& k) {
                           k["pi_a"] = {stray.x.to_dec(), stray.y.to_dec(), "1"};
                       })); },
                 {"pi_a", "subgroup"});

    json v = json::parse(vk_to_json(vk, alphabeta));
    auto vwith = [&](auto edit) {
        json k = v;
        edit(k);
        return k.dump();
    };
    expect_error([&] { parse_vk(vwith([](json& k) { k["nPublic"] = 5; })); }, {"IC", "4 points but nPublic is 5"});
    expect_error([&] { parse_vk(vwith([](json& k) { k["nPublic"] = "3"; })); }, {"nPublic", "non-negative integer"});
    expect_error([&] { parse_vk(vwith([](json& k) { k["protocol"] = "plonk"; })); }, {"protocol", "groth16"});
    expect_error([&] { parse_vk(vwith([](json& k) { k["vk_alphabeta_12"][1].erase(2); })); },
                 {"vk_alphabeta_12[1]", "3 elements"});
    expect_error([&] { parse_vk(vwith([](json& k) { k["IC"][2][0] = "7"; })); }, {"IC[2]"});
    expect_error([&] { parse_vk(vwith([](json& k) { k["IC"][3] = "7"; })); }, {"IC[3]", "array of 3"});
    expect_error([] { read_vk("/nonexistent/verification_key.json"); }, {"cannot open"});
}

}  // namespace
}  // namespace cuzk::formats::snarkjs
