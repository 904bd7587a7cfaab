// Window PoSt over gRPC: SubmitProof / Prove with WINDOW_POST_PARTITION, the sectors' bincode
// vanilla proofs, randomness and partition index, proven with development keys (an empty
// parameter directory) and verified from the verifier's public inputs.
#include "cuzk/circuits/post.hpp"
#include "cuzk/filecoin/post.hpp"
#include "cuzk/filecoin/registry.hpp"
#include "harness.hpp"

namespace cuzk::test {
namespace {

using filecoin::RegisteredPoStProof;

TEST(DaemonPoSt, ProvesAWindowPartitionFromVanillaProofs) {
    TempDir tmp;
    DaemonOptions o;
    o.engine_toml = "filecoin_param_dir = \"" + (tmp.path() / "none").string() + "\"";
    Daemon d(tmp.path(), o);
    auto stub = d.stub();
    const auto& cfg = filecoin::post_config(RegisteredPoStProof::StackedDrgWindow2KiBV1_2);
    filecoin::Bytes32 r{};
    r[0] = 0x42;
    r[5] = 0x17;
    const uint32_t partition = 2;
    std::vector<filecoin::FallbackPoStSectorProof> sectors;
    std::vector<circuits::PoStPublicSector> pub;
    for (uint64_t i = 0; i < 2; ++i) {
        sectors.push_back(filecoin::synthetic_post_vanilla_proof(cfg, 3, 100 + i, r, partition * cfg.sector_count + i));
        pub.push_back({sectors.back().sector_id, sectors.back().comm_r});
    }
    v1::ProveRequest preq;
    auto& req = *preq.mutable_submit();
    req.set_proof_kind(v1::WINDOW_POST_PARTITION);
    req.set_registered_proof(uint64_t(cfg.proof));
    req.set_sector_size(cfg.sector_size);
    req.set_randomness(std::string(r.begin(), r.end()));
    req.set_miner_id(1000);
    req.set_partition_index(partition);
    for (const auto& s : sectors) {
        const auto bytes = filecoin::encode_post_sector_proof(s);
        req.add_vanilla_proofs(std::string(bytes.begin(), bytes.end()));
    }
    // A vanilla proof cut short is refused at submit, naming it.
    {
        v1::SubmitProofRequest bad = req;
        bad.mutable_vanilla_proofs(1)->resize(bad.vanilla_proofs(1).size() - 1);
        v1::SubmitProofResponse resp;
        grpc::ClientContext ctx;
        const auto st = stub->SubmitProof(&ctx, bad, &resp);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << st.error_message();
        EXPECT_NE(st.error_message().find("vanilla_proofs[1]"), std::string::npos) << st.error_message();
    }
    v1::ProveResponse presp;
    grpc::ClientContext ctx;
    const auto st = stub->Prove(&ctx, preq, &presp);
    ASSERT_TRUE(st.ok()) << st.error_message();
    ASSERT_EQ(presp.result().status(), v1::AwaitProofResponse::COMPLETED) << presp.result().error_message();
    const std::string& proof = presp.result().proof();
    ASSERT_EQ(proof.size(), 192u);

    // The development keys the daemon made, from its parameter cache.
    const fs::path params = tmp.path() / "params" / "window-post-StackedDrgWindow2KiBV1_2-setup1.params";
    ASSERT_TRUE(fs::exists(params)) << params;
    const groth16::PreparedVerifyingKey pvk(formats::read_params(params).vk);
    const auto proofs =
        formats::read_proofs_from_bytes({reinterpret_cast<const uint8_t*>(proof.data()), proof.size()}, 1);
    EXPECT_TRUE(groth16::verify(pvk, proofs[0], circuits::window_post_public_inputs(cfg, r, partition, pub)));
    auto other = r;
    other[1] ^= 1;
    EXPECT_FALSE(groth16::verify(pvk, proofs[0], circuits::window_post_public_inputs(cfg, other, partition, pub)));
    EXPECT_EQ(d.stop(), 0);
}

// The command line as a Curio stand-in: `cuzk gen-vanilla --kind window-post` writes the
// request file, `cuzk client submit --kind window-post --vanilla` sends its fields,
// `client await --verify` checks the proof against the daemon's key and public inputs.
TEST(DaemonPoSt, CliSubmitsAGenVanillaRequestFile) {
    TempDir tmp;
    DaemonOptions o;
    o.engine_toml = "filecoin_param_dir = \"" + (tmp.path() / "none").string() + "\"";
    Daemon d(tmp.path(), o);
    const std::string req = (tmp.path() / "req.bin").string();
    auto [rc, out] = run_program({CUZK_CLI_PATH, "gen-vanilla", "--kind", "window-post", "--sector-size", "2KiB",
                                  "--partition-index", "1", "--out", req},
                                 tmp.path());
    ASSERT_EQ(rc, 0) << out;
    std::tie(rc, out) = run_program(
        {CUZK_CLI_PATH, "client", "--address", d.tcp(), "submit", "--kind", "window-post", "--vanilla", req},
        tmp.path(), true);
    ASSERT_EQ(rc, 0) << out;
    const std::string job = out.substr(0, out.find('\n'));
    std::tie(rc, out) =
        run_program({CUZK_CLI_PATH, "client", "--address", d.tcp(), "await", job, "--verify"}, tmp.path());
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("verified locally: 1 proof(s) valid"), std::string::npos) << out;
    // The file's public inputs are the daemon's: partition 1's sectors and comm_r's.
    const auto f = filecoin::read_post_request_file(req);
    const auto& cfg = filecoin::post_config(f.proof);
    std::vector<circuits::PoStPublicSector> pub;
    for (const auto& v : f.vanilla_proofs) {
        const auto s = filecoin::decode_post_sector_proof(cfg, v);
        pub.push_back({s.sector_id, s.comm_r});
    }
    const fs::path proof = tmp.path() / "proof.bin";
    std::tie(rc, out) =
        run_program({CUZK_CLI_PATH, "client", "--address", d.tcp(), "await", job, "--out", proof.string()}, tmp.path());
    ASSERT_EQ(rc, 0) << out;
    const groth16::PreparedVerifyingKey pvk(
        formats::read_params(tmp.path() / "params" / "window-post-StackedDrgWindow2KiBV1_2-setup1.params").vk);
    EXPECT_TRUE(groth16::verify(pvk, formats::read_proofs(proof, 1)[0],
                                circuits::window_post_public_inputs(cfg, f.randomness, 1, pub)));
    // The file's kind is checked against --kind, and a file is required.
    std::tie(rc, out) = run_program(
        {CUZK_CLI_PATH, "client", "--address", d.tcp(), "submit", "--kind", "winning-post", "--vanilla", req},
        tmp.path());
    EXPECT_EQ(rc, 1) << out;
    EXPECT_NE(out.find("req.bin: registered_proof StackedDrgWindow2KiBV1_2 is not a winning-post proof"),
              std::string::npos)
        << out;
    std::tie(rc, out) =
        run_program({CUZK_CLI_PATH, "client", "--address", d.tcp(), "submit", "--kind", "window-post"}, tmp.path());
    EXPECT_EQ(rc, 1) << out;
    EXPECT_NE(out.find("--kind window-post needs --vanilla (a PoSt request file)"), std::string::npos) << out;
    EXPECT_EQ(d.stop(), 0);
}

}  // namespace
}  // namespace cuzk::test
