// PoRep C2 over gRPC: SubmitProof / Prove with POREP_SEAL_COMMIT and the C1 output as
// vanilla_proof.
//
// DaemonPoRep needs no parameters (the daemon runs with allow_dev_params = false and an
// empty parameter directory): the request is checked against the C1 and a missing file is
// NOT_FOUND, named. VerySlowDaemonPoRep proves a sealed 2 KiB sector with the keys of
// $CUZK_TEST_PARAM_DIR (default /tmp/cuzk-porep-cli-params), made there with
// `cuzk setup porep` when absent (minutes on 2 cores), and verifies the proof from the
// sector's public values alone.
#include <cstdlib>

#include "cuzk/circuits/porep.hpp"
#include "cuzk/filecoin/c1.hpp"
#include "cuzk/filecoin/registry.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "harness.hpp"

namespace cuzk::test {
namespace {

using filecoin::RegisteredSealProof;

filecoin::SealCommitPhase1Output sealed_2k() {
    filecoin::SealParams p;
    p.proof = RegisteredSealProof::StackedDrg2KiBV1_1;
    p.sector_id = 3;
    p.ticket[0] = 1;
    const auto& cfg = filecoin::porep_config(p.proof);
    auto sector = filecoin::SealedSector::seal(p, filecoin::pseudo_random_sector_data(cfg, 11));
    filecoin::Bytes32 seed{};
    seed[3] = 0x33;
    return sector.commit_phase1(seed);
}

v1::SubmitProofRequest porep_request(const filecoin::SealCommitPhase1Output& c1) {
    v1::SubmitProofRequest req;
    req.set_proof_kind(v1::POREP_SEAL_COMMIT);
    req.set_vanilla_proof(filecoin::write_c1_output(c1));
    req.set_registered_proof(uint64_t(c1.registered_proof));
    req.set_sector_size(filecoin::porep_config(c1.registered_proof).sector_size);
    return req;
}

grpc::Status submit(v1::ProvingEngine::Stub& stub, const v1::SubmitProofRequest& req) {
    v1::SubmitProofResponse r;
    grpc::ClientContext ctx;
    return stub.SubmitProof(&ctx, req, &r);
}

TEST(DaemonPoRep, SubmitIsCheckedAgainstTheC1AndMissingKeysAreNamed) {
    TempDir tmp;
    DaemonOptions o;
    o.engine_toml = "allow_dev_params = false\nfilecoin_param_dir = \"" + (tmp.path() / "none").string() + "\"";
    Daemon d(tmp.path(), o);
    auto stub = d.stub();
    const auto c1 = sealed_2k();

    auto req = porep_request(c1);
    req.set_registered_proof(uint64_t(RegisteredSealProof::StackedDrg32GiBV1_1));
    auto st = submit(*stub, req);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << st.error_message();
    EXPECT_NE(st.error_message().find("registered_proof StackedDrg32GiBV1_1 does not match"), std::string::npos)
        << st.error_message();

    req = porep_request(c1);
    req.set_sector_size(uint64_t(8) << 20);
    st = submit(*stub, req);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << st.error_message();
    EXPECT_NE(st.error_message().find("sector_size 8388608"), std::string::npos) << st.error_message();

    auto tampered = c1;
    tampered.comm_r[0] ^= 1;
    st = submit(*stub, porep_request(tampered));
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << st.error_message();
    EXPECT_NE(st.error_message().find("comm_r"), std::string::npos) << st.error_message();

    // A good request: only the keys are missing, and the answer names the file.
    st = submit(*stub, porep_request(c1));
    EXPECT_EQ(st.error_code(), grpc::StatusCode::NOT_FOUND) << st.error_message();
    const auto name = filecoin::porep_params_file_name(filecoin::porep_config(c1.registered_proof));
    EXPECT_NE(st.error_message().find((tmp.path() / "none" / name).string()), std::string::npos) << st.error_message();
    EXPECT_EQ(d.stop(), 0);
}

TEST(VerySlowDaemonPoRep, ProvesASealedSectorWithKeysFromTheParameterDirectory) {
    TempDir tmp;
    const char* env = std::getenv("CUZK_TEST_PARAM_DIR");
    const fs::path params = env && *env ? fs::path(env) : fs::path("/tmp/cuzk-porep-cli-params");
    const auto& cfg = filecoin::porep_config(RegisteredSealProof::StackedDrg2KiBV1_1);
    if (!fs::exists(params / filecoin::porep_params_file_name(cfg)) ||
        !fs::exists(params / filecoin::porep_vk_file_name(cfg))) {
        auto [rc, out] = run_program(
            {CUZK_CLI_PATH, "setup", "porep", "--sector-size", "2KiB", "--out-dir", params.string(), "--force"},
            tmp.path());
        ASSERT_EQ(rc, 0) << out;
    }
    DaemonOptions o;
    o.engine_toml = "allow_dev_params = false\nfilecoin_param_dir = \"" + params.string() + "\"";
    o.daemon_toml = "max_request_bytes = 67108864";
    Daemon d(tmp.path(), o);
    auto stub = d.stub();
    const auto c1 = sealed_2k();

    v1::ProveRequest preq;
    *preq.mutable_submit() = porep_request(c1);
    v1::ProveResponse presp;
    grpc::ClientContext ctx;
    auto st = stub->Prove(&ctx, preq, &presp);
    ASSERT_TRUE(st.ok()) << st.error_message();
    ASSERT_EQ(presp.result().status(), v1::AwaitProofResponse::COMPLETED) << presp.result().error_message();
    const std::string& proof = presp.result().proof();
    ASSERT_EQ(proof.size(), 192u * cfg.partitions);

    const groth16::PreparedVerifyingKey pvk(formats::read_vk(params / filecoin::porep_vk_file_name(cfg)));
    const auto proofs =
        formats::read_proofs_from_bytes({reinterpret_cast<const uint8_t*>(proof.data()), proof.size()}, cfg.partitions);
    auto inputs = [&](const filecoin::SealCommitPhase1Output& x, unsigned k) {
        return circuits::porep_public_inputs(x.registered_proof, x.replica_id, x.comm_d, x.comm_r, x.seed, k);
    };
    for (unsigned k = 0; k < cfg.partitions; ++k) {
        EXPECT_TRUE(groth16::verify(pvk, proofs[k], inputs(c1, k)));
        auto other = c1;
        other.seed[0] ^= 1;
        EXPECT_FALSE(groth16::verify(pvk, proofs[k], inputs(other, k)));
    }
    EXPECT_EQ(d.stop(), 0);
}

}  // namespace
}  // namespace cuzk::test
