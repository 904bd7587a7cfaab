// SnapDeals over gRPC: SubmitProof / Prove with SNAP_DEALS_UPDATE, one bincode PartitionProof a
// partition and the commitments as Curio sends them (32 raw bytes, or binary CIDs); refused
// at submit naming the field; (VerySlow) proven with development keys and verified from the
// verifier's public inputs.
#include <cstdlib>

#include "cuzk/circuits/update.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/filecoin/update.hpp"
#include "harness.hpp"

namespace cuzk::test {
namespace {

const filecoin::SectorUpdate& update_2k() {
    static const filecoin::SectorUpdate u = [] {
        filecoin::SealParams p;
        p.proof = filecoin::RegisteredSealProof::StackedDrg2KiBV1_1;
        p.sector_id = 5;
        const auto& cfg = filecoin::porep_config(p.proof);
        static const auto sealed = filecoin::SealedSector::seal(p, filecoin::pseudo_random_sector_data(cfg, 3));
        return filecoin::SectorUpdate::encode(sealed, filecoin::pseudo_random_sector_data(cfg, 4));
    }();
    return u;
}

v1::SubmitProofRequest snap_request(const filecoin::SectorUpdate& u) {
    v1::SubmitProofRequest req;
    req.set_proof_kind(v1::SNAP_DEALS_UPDATE);
    req.set_registered_proof(uint64_t(*u.config().proof));
    req.set_sector_size(u.config().sector_size);
    req.set_miner_id(1000);
    req.set_sector_number(5);
    const auto& pub = u.public_inputs();
    req.set_comm_r_old(std::string(pub.comm_r_old.begin(), pub.comm_r_old.end()));
    req.set_comm_r_new(std::string(pub.comm_r_new.begin(), pub.comm_r_new.end()));
    const auto cid = filecoin::commitment_cid_bytes(pub.comm_d_new, false);
    req.set_comm_d_new(std::string(cid.begin(), cid.end()));
    for (const auto& p : u.partition_proofs()) {
        const auto bytes = filecoin::encode_update_partition_proof(p);
        req.add_vanilla_proofs(std::string(bytes.begin(), bytes.end()));
    }
    return req;
}

grpc::Status submit(v1::ProvingEngine::Stub& stub, const v1::SubmitProofRequest& req) {
    v1::SubmitProofResponse resp;
    grpc::ClientContext ctx;
    return stub.SubmitProof(&ctx, req, &resp);
}

TEST(DaemonSnap, RefusesBadRequestsNamingTheField) {
    TempDir tmp;
    DaemonOptions o;
    o.engine_toml = "filecoin_param_dir = \"" + (tmp.path() / "none").string() + "\"\nallow_dev_params = false";
    Daemon d(tmp.path(), o);
    auto stub = d.stub();
    const auto good = snap_request(update_2k());
    auto expect = [&](const v1::SubmitProofRequest& req, grpc::StatusCode code, const std::string& part) {
        const auto st = submit(*stub, req);
        EXPECT_EQ(st.error_code(), code) << part << ": " << st.error_message();
        EXPECT_NE(st.error_message().find(part), std::string::npos) << st.error_message();
    };
    auto bad = good;
    bad.mutable_vanilla_proofs(0)->resize(bad.vanilla_proofs(0).size() - 1);
    expect(bad, grpc::StatusCode::INVALID_ARGUMENT, "vanilla_proofs[0]");
    bad = good;
    (*bad.mutable_comm_r_new())[0] ^= 1;
    expect(bad, grpc::StatusCode::INVALID_ARGUMENT, "partition 0: comm_r_new: is not Poseidon2");
    bad = good;
    bad.mutable_comm_r_old()->resize(31);
    expect(bad, grpc::StatusCode::INVALID_ARGUMENT, "comm_r_old: expected 32 bytes");
    bad = good;
    (*bad.mutable_vanilla_proofs(0))[304 + 4 + 40] ^= 1;  // challenge 0: proof_r_old's leaf
    expect(bad, grpc::StatusCode::INVALID_ARGUMENT, "partition 0: challenge_proofs[0].proof_r_old");
    // Valid, but neither the v28 file nor development keys.
    expect(
        good, grpc::StatusCode::NOT_FOUND,
        filecoin::update_params_file_name(filecoin::update_config(filecoin::RegisteredUpdateProof::StackedDrg2KiBV1)));
    EXPECT_EQ(d.stop(), 0);
}

// VerySlow: the development setup of the 2 KiB circuit (1.7 M constraints) takes minutes on 2
// cores; the keys are cached in CUZK_TEST_PARAM_CACHE (default <tmp>/cuzk-porep-test-params).
TEST(VerySlowDaemonSnap, ProvesATwoKiBUpdate) {
    TempDir tmp;
    DaemonOptions o;
    o.engine_toml = "filecoin_param_dir = \"" + (tmp.path() / "none").string() + "\"";
    const char* env = std::getenv("CUZK_TEST_PARAM_CACHE");
    o.param_cache = env && *env ? fs::path(env) : fs::temp_directory_path() / "cuzk-porep-test-params";
    Daemon d(tmp.path(), o);
    auto stub = d.stub();
    const auto& u = update_2k();
    v1::ProveRequest preq;
    *preq.mutable_submit() = snap_request(u);
    v1::ProveResponse presp;
    grpc::ClientContext ctx;
    const auto st = stub->Prove(&ctx, preq, &presp);
    ASSERT_TRUE(st.ok()) << st.error_message();
    ASSERT_EQ(presp.result().status(), v1::AwaitProofResponse::COMPLETED) << presp.result().error_message();
    const std::string& proof = presp.result().proof();
    ASSERT_EQ(proof.size(), 192u);
    const fs::path params = *o.param_cache / "snap-deals-update-StackedDrg2KiBV1-setup1.params";
    ASSERT_TRUE(fs::exists(params)) << params;
    const groth16::PreparedVerifyingKey pvk(formats::read_params(params).vk);
    const auto proofs =
        formats::read_proofs_from_bytes({reinterpret_cast<const uint8_t*>(proof.data()), proof.size()}, 1);
    EXPECT_TRUE(groth16::verify(pvk, proofs[0], circuits::update_public_inputs(u.config(), u.public_inputs(), 0)));
    auto other = u.public_inputs();
    other.comm_r_new[1] ^= 1;
    EXPECT_FALSE(groth16::verify(pvk, proofs[0], circuits::update_public_inputs(u.config(), other, 0)));
    EXPECT_EQ(d.stop(), 0);
}

}  // namespace
}  // namespace cuzk::test
