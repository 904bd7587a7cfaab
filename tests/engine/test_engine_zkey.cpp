// The zkey kind on the engine: a shape with its own keys (kinds::Shape::own_keys) proven and
// verified by its Work::prove and Work::verify, on BLS12-381 and BN254, and answered with
// snarkjs' files; and the store's refusals.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cuzk/ec/bn254.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/formats/circom.hpp"
#include "cuzk/formats/snarkjs.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "cuzk/kinds/zkey.hpp"

namespace cuzk::engine {
namespace {

namespace fs = std::filesystem;
using E = groth16::Bls12_381;
using Bn = groth16::Bn254;
const fs::path kData = fs::path(CUZK_TEST_DATA_DIR) / "circom";

std::shared_ptr<kinds::ZkeyStore> chain8_store(bool with_r1cs) {
    auto store = std::make_shared<kinds::ZkeyStore>();
    store->load({"chain8", kData / "chain8.zkey", with_r1cs ? kData / "chain8.r1cs" : fs::path(), true});
    return store;
}

EngineConfig zkey_config(std::shared_ptr<const kinds::ZkeyStore> store) {
    EngineConfig c;
    c.backend = "cpu";
    c.memory_budget = uint64_t(1) << 30;
    c.log = [](int, const std::string&) {};
    auto r = kinds::Registry::standard();
    r->add(kinds::make_zkey_kind(std::move(store)));
    c.kinds = std::move(r);
    return c;
}

JobSpec zkey_job(std::vector<uint8_t> wtns, const std::string& key = "chain8") {
    JobSpec s;
    s.kind = "zkey";
    s.zkey = key;
    s.wtns = std::move(wtns);
    return s;
}

std::vector<uint8_t> file_bytes(const fs::path& p) {
    const std::string s = [&] {
        std::ifstream in(p, std::ios::binary);
        std::ostringstream ss;
        ss << in.rdbuf();
        return ss.str();
    }();
    return {s.begin(), s.end()};
}

TEST(EngineZkey, ProvesWithTheKindsKeysAndAnswersWithSnarkjsFiles) {
    auto store = chain8_store(true);
    Engine engine(zkey_config(store));
    const auto wtns = formats::circom::read_wtns<E>(kData / "chain8.wtns").values;
    const auto id = engine.submit(zkey_job(file_bytes(kData / "chain8.wtns"))).job_id;
    const auto r = engine.await(id, std::chrono::seconds(60));
    ASSERT_TRUE(r);
    ASSERT_EQ(r->state, JobState::Completed) << r->error;
    EXPECT_EQ(r->circuit_id, "zkey-chain8");
    ASSERT_EQ(r->documents.size(), 2u);
    EXPECT_EQ(r->documents[0].first, "proof.json");
    EXPECT_EQ(r->documents[1].first, "public.json");
    const auto proof = formats::snarkjs::parse_proof(r->documents[0].second);
    const auto inputs = formats::snarkjs::parse_public(r->documents[1].second);
    ASSERT_EQ(inputs.size(), 2u);
    EXPECT_EQ(inputs[0], wtns[1]);
    EXPECT_EQ(inputs[1], wtns[2]);
    const groth16::PreparedVerifyingKey pvk(formats::snarkjs::read_vk(kData / "chain8.vkey.json").to_verifying_key());
    EXPECT_TRUE(groth16::verify(pvk, proof, inputs));
    // The engine's verifying key is the key's (bellperson bytes of the same points).
    EXPECT_TRUE(
        groth16::verify(groth16::PreparedVerifyingKey(formats::read_vk_from_bytes(r->verifying_key)), proof, inputs));
    EXPECT_EQ(store->stats().at(0).proofs, 1u);
    EXPECT_EQ(store->stats().at(0).loads, 1u);

    // Its circuit id is preloaded and evicted like any other; the key stays with the kind.
    EXPECT_TRUE(engine.preload("zkey-chain8").already_loaded);
    EXPECT_TRUE(engine.evict("zkey-chain8").was_loaded);
    const auto again = engine.await(engine.submit(zkey_job(file_bytes(kData / "chain8.wtns"))).job_id);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->state, JobState::Completed) << again->error;
    EXPECT_EQ(store->stats().at(0).loads, 1u);
    try {
        engine.preload("zkey-nope");
        ADD_FAILURE() << "preload of an unknown key accepted";
    } catch (const EngineError& e) {
        EXPECT_EQ(e.code(), EngineError::Code::NotFound);
        EXPECT_NE(std::string(e.what()).find("no zkey named 'nope'"), std::string::npos) << e.what();
    }
}

TEST(EngineZkey, ABadWitnessIsRefusedAtSubmitNamingTheField) {
    Engine engine(zkey_config(chain8_store(true)));
    auto w = formats::circom::read_wtns<E>(kData / "chain8.wtns").values;
    w[4] += Fr::one();
    try {
        engine.submit(zkey_job(formats::circom::wtns_to_bytes<E>(w)));
        ADD_FAILURE() << "a witness that breaks a constraint was accepted";
    } catch (const EngineError& e) {
        EXPECT_EQ(e.code(), EngineError::Code::InvalidArgument);
        EXPECT_EQ(std::string(e.what()).rfind("witness: constraint ", 0), 0u) << e.what();
    }
    EXPECT_TRUE(engine.jobs().empty());
}

TEST(EngineZkey, AProofOverTheBudgetIsRefusedAtSubmit) {
    EngineConfig cfg = zkey_config(chain8_store(false));
    cfg.memory_budget = uint64_t(4) << 20;  // below a proof's 8 MiB of MSM scratch
    Engine engine(cfg);
    try {
        engine.submit(zkey_job(file_bytes(kData / "chain8.wtns")));
        ADD_FAILURE() << "a proof over the budget was accepted";
    } catch (const EngineError& e) {
        EXPECT_EQ(e.code(), EngineError::Code::ResourceExhausted);
        EXPECT_NE(std::string(e.what()).find("a proof of zkey-chain8 needs"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(engine.jobs().empty());
}

TEST(ZkeyStore, RefusesBadNamesTakenNamesAndAForeignR1cs) {
    kinds::ZkeyStore store;
    EXPECT_THROW(store.load({"a b", kData / "chain8.zkey", {}, true}), std::invalid_argument);
    EXPECT_THROW(store.load({"", kData / "chain8.zkey", {}, true}), std::invalid_argument);
    store.load({"k", kData / "chain8.zkey", {}, false});
    EXPECT_THROW(store.load({"k", kData / "chain8.zkey", {}, false}), std::invalid_argument);
    // An .r1cs whose constraint differs from the key's coefficients is not the key's circuit.
    auto r1cs = formats::circom::read_r1cs<E>(kData / "chain8.r1cs");
    r1cs.a.coeff.at(0) += Fr::one();
    const fs::path other = fs::temp_directory_path() / ("cuzk-zkey-other-" + std::to_string(::getpid()) + ".r1cs");
    {
        const auto bytes = formats::circom::r1cs_to_bytes<E>(r1cs);
        std::ofstream(other, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    }
    try {
        store.load({"k2", kData / "chain8.zkey", other, false});
        ADD_FAILURE() << "a foreign .r1cs was accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("not the same circuit"), std::string::npos) << e.what();
    }
    fs::remove(other);
    EXPECT_EQ(store.names(), std::vector<std::string>{"k"});
    // A file that is no .zkey names itself.
    try {
        store.load({"k3", kData / "chain8.wtns", {}, false});
        ADD_FAILURE() << "a .wtns was loaded as a key";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("chain8.wtns"), std::string::npos) << e.what();
    }
}

// chain8_bn254 (snarkjs' bn128): the curve comes from the .zkey; the answer's proof.json and
// public.json verify with cuzk's verifier against snarkjs' verification_key.json, the raw
// bytes are the same proof in Ethereum's encoding, the key is read once.
TEST(EngineZkey, ProvesABn254KeyAndAnswersWithSnarkjsFiles) {
    auto store = std::make_shared<kinds::ZkeyStore>();
    store->load({"chain8bn", kData / "chain8_bn254.zkey", kData / "chain8_bn254.r1cs", true});
    Engine engine(zkey_config(store));
    const auto wtns = formats::circom::read_wtns<Bn>(kData / "chain8_bn254.wtns").values;
    const auto vkey = formats::snarkjs::read_vk<Bn>(kData / "chain8_bn254.vkey.json");
    const groth16::PreparedVerifyingKeyT<bn254::G1Curve, bn254::G2Curve> pvk(vkey.to_verifying_key());
    for (int i = 0; i < 2; ++i) {
        const auto r = engine.await(engine.submit(zkey_job(file_bytes(kData / "chain8_bn254.wtns"), "chain8bn")).job_id,
                                    std::chrono::seconds(60));
        ASSERT_TRUE(r);
        ASSERT_EQ(r->state, JobState::Completed) << r->error;
        EXPECT_EQ(r->circuit_id, "zkey-chain8bn");
        EXPECT_EQ(r->backend, "cpu");
        ASSERT_EQ(r->documents.size(), 2u);
        ASSERT_EQ(r->documents[0].first, "proof.json");
        EXPECT_NE(r->documents[0].second.find("\"bn128\""), std::string::npos) << r->documents[0].second;
        const auto proof = formats::snarkjs::parse_proof<Bn>(r->documents[0].second);
        const auto inputs = formats::snarkjs::parse_public<Bn>(r->documents[1].second);
        ASSERT_EQ(inputs.size(), 2u);
        EXPECT_EQ(inputs[0], wtns[1]);
        EXPECT_EQ(inputs[1], wtns[2]);
        EXPECT_TRUE(groth16::verify(pvk, proof, inputs));
        auto other = inputs;
        other[1] += bn254::Fr::one();
        EXPECT_FALSE(groth16::verify(pvk, proof, other));
        ASSERT_EQ(r->public_inputs.size(), 1u);
        EXPECT_EQ(r->public_inputs[0], (std::vector<std::string>{inputs[0].to_dec(), inputs[1].to_dec()}));
        // Raw bytes: A 64 || B 128 || C 64, Ethereum's uncompressed points.
        ASSERT_EQ(r->proof.size(), 256u);
        std::vector<uint8_t> eth;
        auto put = [&](const auto& point) {
            const auto b = bn254::to_eth_bytes(point);
            eth.insert(eth.end(), b.begin(), b.end());
        };
        put(proof.a);
        put(proof.b);
        put(proof.c);
        EXPECT_EQ(r->proof, eth);
        // The verifying key: bellperson's layout with Ethereum's points (6 fixed, u32 count, IC).
        ASSERT_EQ(r->verifying_key.size(), 3 * 64u + 3 * 128u + 4u + 3 * 64u);
        const auto alpha = bn254::to_eth_bytes(vkey.alpha_1);
        EXPECT_TRUE(std::equal(alpha.begin(), alpha.end(), r->verifying_key.begin()));
    }
    const auto st = store->stats().at(0);
    EXPECT_EQ(st.curve, "bn128");
    EXPECT_EQ(st.loads, 1u);
    EXPECT_EQ(st.proofs, 2u);
}

TEST(EngineZkey, ABn254WitnessIsCheckedAgainstItsKeyAndCurve) {
    auto store = std::make_shared<kinds::ZkeyStore>();
    store->load({"chain8", kData / "chain8.zkey", kData / "chain8.r1cs", false});
    store->load({"chain8bn", kData / "chain8_bn254.zkey", kData / "chain8_bn254.r1cs", false});
    Engine engine(zkey_config(store));
    auto refused = [&](std::vector<uint8_t> wtns, const std::string& key) -> std::string {
        try {
            engine.submit(zkey_job(std::move(wtns), key));
        } catch (const EngineError& e) {
            EXPECT_EQ(e.code(), EngineError::Code::InvalidArgument) << e.what();
            return e.what();
        }
        ADD_FAILURE() << "a bad witness for '" << key << "' was accepted";
        return {};
    };
    auto w = formats::circom::read_wtns<Bn>(kData / "chain8_bn254.wtns").values;
    auto bad = w;
    bad[4] += bn254::Fr::one();
    EXPECT_EQ(refused(formats::circom::wtns_to_bytes<Bn>(bad), "chain8bn").rfind("witness: constraint ", 0), 0u);
    EXPECT_NE(refused(formats::circom::wtns_to_bytes<Bn>(std::span(w).first(w.size() - 1)), "chain8bn")
                  .find("the key 'chain8bn' has 11 signals"),
              std::string::npos);
    // Each curve's witness against the other curve's key: its prime names the field.
    const std::string bn_on_bls = refused(file_bytes(kData / "chain8_bn254.wtns"), "chain8");
    EXPECT_EQ(
        bn_on_bls.rfind("witness: its prime is BN254 (bn128)'s scalar field, the key 'chain8' is on BLS12-381", 0), 0u)
        << bn_on_bls;
    const std::string bls_on_bn = refused(file_bytes(kData / "chain8.wtns"), "chain8bn");
    EXPECT_NE(bls_on_bn.find("BLS12-381 (bls12381)'s scalar field, the key 'chain8bn' is on BN254"), std::string::npos)
        << bls_on_bn;
    EXPECT_TRUE(engine.jobs().empty());
}

// A BN254 key whose C points are swapped (valid points, a wrong key): its proofs fail
// verification, the CPU recompute fails again, and the job fails without an answer.
TEST(EngineZkey, ABn254ProofThatFailsVerificationIsNotAnswered) {
    auto bytes = file_bytes(kData / "chain8_bn254.zkey");
    const auto layout = formats::circom::read_bin_layout(bytes, "chain8_bn254.zkey");
    const formats::circom::Section* c = layout.find(8);  // C: one G1 point (64 bytes) per aux signal
    ASSERT_TRUE(c);
    ASSERT_GE(c->size, 2 * 64u);
    std::swap_ranges(bytes.begin() + std::ptrdiff_t(c->data_offset),
                     bytes.begin() + std::ptrdiff_t(c->data_offset + 64),
                     bytes.begin() + std::ptrdiff_t(c->data_offset + 64));
    const fs::path broken = fs::temp_directory_path() / ("cuzk-zkey-broken-" + std::to_string(::getpid()) + ".zkey");
    std::ofstream(broken, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    auto store = std::make_shared<kinds::ZkeyStore>();
    store->load({"broken", broken, {}, true});
    fs::remove(broken);
    Engine engine(zkey_config(store));
    const auto r = engine.await(engine.submit(zkey_job(file_bytes(kData / "chain8_bn254.wtns"), "broken")).job_id,
                                std::chrono::seconds(60));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->state, JobState::Failed);
    EXPECT_NE(r->error.find("failed verification on cpu and again when recomputed on the CPU"), std::string::npos)
        << r->error;
    EXPECT_TRUE(r->proof.empty());
    EXPECT_TRUE(r->documents.empty());
    EXPECT_TRUE(r->public_inputs.empty());
    EXPECT_EQ(store->stats().at(0).proofs, 2u);  // the proof and its CPU recompute
}

}  // namespace
}  // namespace cuzk::engine
