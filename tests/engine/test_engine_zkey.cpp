// The zkey kind on the engine: a shape with its own keys (kinds::Shape::own_keys) proven by
// its Work::prove, verified and answered with snarkjs' files; and the store's refusals.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

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

JobSpec zkey_job(std::vector<uint8_t> wtns) {
    JobSpec s;
    s.kind = "zkey";
    s.zkey = "chain8";
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

}  // namespace
}  // namespace cuzk::engine
