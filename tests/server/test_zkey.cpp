// circom/snarkjs proofs through the daemon: a .zkey loaded once at start ([zkey.<name>]),
// requests that name it and carry a .wtns, answers with snarkjs' proof.json and public.json
// checked against the committed verification key (tests/data/circom/chain8.* on BLS12-381,
// chain8_bn254.* on BN254), and the witnesses refused at submit.
#include <cstdlib>
#include <regex>

#include "cuzk/ec/bn254.hpp"
#include "cuzk/formats/circom.hpp"
#include "cuzk/formats/snarkjs.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "harness.hpp"

namespace cuzk::test {
namespace {

using E = groth16::Bls12_381;
using Bn = groth16::Bn254;
const fs::path kData = fs::path(CUZK_TEST_DATA_DIR) / "circom";

// [zkey.<name>] for tests/data/circom/<file>.zkey (and .r1cs).
DaemonOptions zkey_daemon(bool with_r1cs = true, const std::string& name = "chain8",
                          const std::string& file = "chain8") {
    DaemonOptions o;
    o.sections_toml = "[zkey." + name + "]\npath = \"" + (kData / (file + ".zkey")).string() + "\"\n" +
                      (with_r1cs ? "r1cs = \"" + (kData / (file + ".r1cs")).string() + "\"\n" : "");
    return o;
}

std::string bytes_of(const std::vector<uint8_t>& v) { return std::string(v.begin(), v.end()); }

v1::SubmitZkeyRequest zkey_request(const std::string& key, const std::string& witness) {
    v1::SubmitZkeyRequest r;
    r.set_key(key);
    r.set_witness(witness);
    return r;
}

// The value of a metric line `name{labels} value` in Prometheus text; -1 when absent.
double metric(const std::string& text, const std::string& series) {
    const size_t at = text.find("\n" + series + " ");
    if (at == std::string::npos) return -1;
    return std::stod(text.substr(at + series.size() + 2));
}

std::string metrics_of(const Daemon& d) {
    auto stub = d.stub();
    v1::GetMetricsResponse r;
    grpc::ClientContext ctx;
    const auto st = stub->GetMetrics(&ctx, v1::GetMetricsRequest{}, &r);
    if (!st.ok()) throw std::runtime_error("GetMetrics: " + st.error_message());
    return r.prometheus_text();
}

// snarkjs, where the CLI test finds it (CUZK_SNARKJS, PATH, build/npm); "" when absent.
std::string find_snarkjs() {
    if (const char* e = std::getenv("CUZK_SNARKJS"); e && *e) return e;
    const fs::path npm =
        fs::path(CUZK_TEST_DATA_DIR) / ".." / ".." / "build" / "npm" / "node_modules" / ".bin" / "snarkjs";
    if (fs::exists(npm)) return npm.string();
    return {};
}

TEST(DaemonZkey, ProvesWithAKeyLoadedOnceAndAnswersAsSnarkjs) {
    TempDir tmp;
    Daemon d(tmp.path(), zkey_daemon());
    auto stub = d.stub();
    const auto wtns_file = formats::circom::read_wtns<E>(kData / "chain8.wtns");
    const std::string witness = read_text(kData / "chain8.wtns");
    const groth16::PreparedVerifyingKey pvk(formats::snarkjs::read_vk(kData / "chain8.vkey.json").to_verifying_key());
    const auto key = formats::circom::read_zkey<E>(kData / "chain8.zkey");
    const auto pub = groth16::public_signals<E>(key, wtns_file.values);
    const std::vector<Fr> expected_public(pub.begin(), pub.end());

    // Three proofs: two ProveZkey, one SubmitZkey then AwaitBuiltin.
    std::vector<v1::AwaitBuiltinResponse> answers(3);
    for (int i = 0; i < 2; ++i) {
        grpc::ClientContext ctx;
        const auto st = stub->ProveZkey(&ctx, zkey_request("chain8", witness), &answers[size_t(i)]);
        ASSERT_TRUE(st.ok()) << code_and_message(st);
    }
    {
        v1::SubmitProofResponse sub;
        grpc::ClientContext ctx;
        auto st = stub->SubmitZkey(&ctx, zkey_request("chain8", witness), &sub);
        ASSERT_TRUE(st.ok()) << code_and_message(st);
        answers[2] = await_builtin(*stub, sub.job_id());
    }
    for (const auto& a : answers) {
        ASSERT_EQ(a.result().status(), v1::AwaitProofResponse::COMPLETED) << a.result().error_message();
        EXPECT_EQ(a.circuit_id(), "zkey-chain8");
        ASSERT_EQ(a.documents().count("proof.json"), 1u);
        ASSERT_EQ(a.documents().count("public.json"), 1u);
        // proof.json and public.json as snarkjs reads them, valid under snarkjs' verification key.
        const groth16::Proof proof = formats::snarkjs::parse_proof(a.documents().at("proof.json"), "proof.json");
        const std::vector<Fr> inputs = formats::snarkjs::parse_public(a.documents().at("public.json"), "public.json");
        EXPECT_EQ(inputs, expected_public);
        EXPECT_TRUE(groth16::verify(pvk, proof, inputs));
        // The raw proof bytes are the same proof.
        const std::string& raw = a.result().proof();
        ASSERT_EQ(raw.size(), 192u);
        const auto from_bytes =
            formats::read_proofs_from_bytes({reinterpret_cast<const uint8_t*>(raw.data()), raw.size()}, 1);
        EXPECT_EQ(formats::proofs_to_bytes(from_bytes), formats::proofs_to_bytes(std::vector<groth16::Proof>{proof}));
        // A different public input fails.
        auto other = inputs;
        other[0] += Fr::one();
        EXPECT_FALSE(groth16::verify(pvk, proof, other));
    }
    // Different randomisers: three different proofs.
    EXPECT_NE(answers[0].result().proof(), answers[1].result().proof());

    // The key was read once, at start, for all three proofs.
    const std::string m = metrics_of(d);
    EXPECT_EQ(metric(m, "cuzk_zkey_loads_total{key=\"chain8\"}"), 1) << m;
    EXPECT_EQ(metric(m, "cuzk_zkey_proofs_total{key=\"chain8\"}"), 3) << m;
    EXPECT_EQ(metric(m, "cuzk_tasks_completed_total{task_name=\"zkey\"}"), 3) << m;
    EXPECT_EQ(metric(m, "cuzk_daemon_rpc_total{method=\"ProveZkey\",code=\"OK\"}"), 2) << m;
    EXPECT_EQ(metric(m, "cuzk_daemon_rpc_total{method=\"SubmitZkey\",code=\"OK\"}"), 1) << m;

    // Listed like any job, by its kind.
    {
        v1::ListJobsRequest req;
        req.set_kind("zkey");
        v1::ListJobsResponse resp;
        grpc::ClientContext ctx;
        ASSERT_TRUE(stub->ListJobs(&ctx, req, &resp).ok());
        ASSERT_EQ(resp.jobs_size(), 3);
        for (const auto& j : resp.jobs()) {
            EXPECT_EQ(j.circuit_id(), "zkey-chain8");
            EXPECT_EQ(j.state(), "COMPLETED");
        }
    }

    // snarkjs' own verifier, where snarkjs is installed (as tests/cli/cli_zkey.sh).
    if (const std::string snarkjs = find_snarkjs(); !snarkjs.empty()) {
        std::ofstream(tmp.path() / "proof.json") << answers[0].documents().at("proof.json");
        std::ofstream(tmp.path() / "public.json") << answers[0].documents().at("public.json");
        auto [rc, out] = run_program({snarkjs, "groth16", "verify", (kData / "chain8.vkey.json").string(),
                                      (tmp.path() / "public.json").string(), (tmp.path() / "proof.json").string()},
                                     tmp.path());
        EXPECT_EQ(rc, 0) << out;
        EXPECT_NE(out.find("OK"), std::string::npos) << out;
    } else {
        std::printf("SKIP snarkjs groth16 verify: snarkjs not found (set CUZK_SNARKJS or run scripts/circom tools)\n");
    }
    EXPECT_EQ(d.stop(), 0);
}

TEST(DaemonZkey, RefusesBadWitnessesAndUnknownKeysAtSubmit) {
    TempDir tmp;
    Daemon d(tmp.path(), zkey_daemon());
    auto stub = d.stub();
    const auto good = formats::circom::read_wtns<E>(kData / "chain8.wtns").values;
    auto submit = [&](const std::string& key, const std::string& witness) {
        v1::SubmitProofResponse resp;
        grpc::ClientContext ctx;
        return stub->SubmitZkey(&ctx, zkey_request(key, witness), &resp);
    };
    auto expect = [&](const grpc::Status& st, grpc::StatusCode code, const std::vector<std::string>& parts) {
        EXPECT_EQ(st.error_code(), code) << code_and_message(st);
        for (const auto& p : parts) EXPECT_NE(st.error_message().find(p), std::string::npos) << st.error_message();
    };
    const std::string witness = bytes_of(formats::circom::wtns_to_bytes<E>(good));
    // The key's circuit id is resident from the start.
    {
        v1::GetStatusResponse st;
        grpc::ClientContext ctx;
        ASSERT_TRUE(stub->GetStatus(&ctx, v1::GetStatusRequest{}, &st).ok());
        ASSERT_EQ(st.loaded_srs_size(), 1);
        EXPECT_EQ(st.loaded_srs(0).circuit_id(), "zkey-chain8");
        EXPECT_EQ(st.loaded_srs(0).tier(), v1::SRSStatus::HOT);
    }

    // One value short: the length against the key's 11 signals.
    std::vector<Fr> shorter(good.begin(), good.end() - 1);
    expect(submit("chain8", bytes_of(formats::circom::wtns_to_bytes<E>(shorter))), grpc::StatusCode::INVALID_ARGUMENT,
           {"witness: 10 values", "the key 'chain8' has 11 signals"});
    // A value changed: the .r1cs names the constraint it breaks.
    auto bad = good;
    bad[5] += Fr::one();
    expect(submit("chain8", bytes_of(formats::circom::wtns_to_bytes<E>(bad))), grpc::StatusCode::INVALID_ARGUMENT,
           {"witness: constraint ", "does not hold", "key 'chain8'"});
    // ONE is not 1.
    auto no_one = good;
    no_one[0] = Fr::from_u64(2);
    expect(submit("chain8", bytes_of(formats::circom::wtns_to_bytes<E>(no_one))), grpc::StatusCode::INVALID_ARGUMENT,
           {"witness: ", "ONE"});
    // Bytes that are no .wtns, and none at all.
    expect(submit("chain8", "not a witness file"), grpc::StatusCode::INVALID_ARGUMENT, {"witness"});
    expect(submit("chain8", read_text(kData / "chain8.r1cs")), grpc::StatusCode::INVALID_ARGUMENT,
           {"witness: a .r1cs file, not a .wtns"});
    expect(submit("chain8", ""), grpc::StatusCode::INVALID_ARGUMENT, {"witness: empty"});
    // Keys that are not loaded.
    expect(submit("nope", witness), grpc::StatusCode::NOT_FOUND,
           {"key: no zkey named 'nope' is loaded", "loaded keys: chain8"});
    expect(submit("", witness), grpc::StatusCode::INVALID_ARGUMENT, {"key: empty"});

    // Nothing was queued or proven; the good witness still is.
    const std::string m = metrics_of(d);
    EXPECT_EQ(metric(m, "cuzk_zkey_proofs_total{key=\"chain8\"}"), 0) << m;
    {
        v1::ListJobsResponse resp;
        grpc::ClientContext ctx;
        ASSERT_TRUE(stub->ListJobs(&ctx, v1::ListJobsRequest{}, &resp).ok());
        EXPECT_EQ(resp.jobs_size(), 0);
    }
    v1::AwaitBuiltinResponse ok;
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub->ProveZkey(&ctx, zkey_request("chain8", witness), &ok).ok());
    EXPECT_EQ(ok.result().status(), v1::AwaitProofResponse::COMPLETED) << ok.result().error_message();
    EXPECT_EQ(d.stop(), 0);
}

// Without the .r1cs, a witness that breaks a constraint passes the submit checks (length,
// ONE) but its proof does not verify: the job fails, and no proof is handed out.
TEST(DaemonZkey, WithoutR1csABadWitnessFailsVerificationNotTheAnswer) {
    TempDir tmp;
    Daemon d(tmp.path(), zkey_daemon(false));
    auto stub = d.stub();
    auto bad = formats::circom::read_wtns<E>(kData / "chain8.wtns").values;
    bad[5] += Fr::one();
    v1::AwaitBuiltinResponse resp;
    grpc::ClientContext ctx;
    ASSERT_TRUE(
        stub->ProveZkey(&ctx, zkey_request("chain8", bytes_of(formats::circom::wtns_to_bytes<E>(bad))), &resp).ok());
    EXPECT_EQ(resp.result().status(), v1::AwaitProofResponse::FAILED);
    EXPECT_NE(resp.result().error_message().find("verification"), std::string::npos) << resp.result().error_message();
    EXPECT_TRUE(resp.result().proof().empty());
    EXPECT_TRUE(resp.documents().empty());
    EXPECT_EQ(d.stop(), 0);
}

// chain8_bn254 (snarkjs' bn128, circom's default curve): the daemon reads the curve from the
// .zkey, and its answers verify with cuzk's verifier against snarkjs' verification_key.json;
// the raw proof is the same proof in Ethereum's encoding; bad witnesses are refused at submit.
TEST(DaemonZkey, ProvesABn254KeyLoadedOnceAndRefusesBadWitnesses) {
    TempDir tmp;
    Daemon d(tmp.path(), zkey_daemon(true, "chain8bn", "chain8_bn254"));
    auto stub = d.stub();
    const std::string witness = read_text(kData / "chain8_bn254.wtns");
    const auto w = formats::circom::read_wtns<Bn>(kData / "chain8_bn254.wtns").values;
    const auto vk_file = kData / "chain8_bn254.vkey.json";
    const groth16::PreparedVerifyingKeyT<bn254::G1Curve, bn254::G2Curve> pvk(
        formats::snarkjs::read_vk<Bn>(vk_file).to_verifying_key());
    std::vector<v1::AwaitBuiltinResponse> answers(2);
    for (auto& a : answers) {
        grpc::ClientContext ctx;
        const auto st = stub->ProveZkey(&ctx, zkey_request("chain8bn", witness), &a);
        ASSERT_TRUE(st.ok()) << code_and_message(st);
        ASSERT_EQ(a.result().status(), v1::AwaitProofResponse::COMPLETED) << a.result().error_message();
        EXPECT_EQ(a.circuit_id(), "zkey-chain8bn");
        const auto proof = formats::snarkjs::parse_proof<Bn>(a.documents().at("proof.json"), "proof.json");
        const auto inputs = formats::snarkjs::parse_public<Bn>(a.documents().at("public.json"), "public.json");
        EXPECT_EQ(inputs, std::vector<bn254::Fr>(w.begin() + 1, w.begin() + 3));
        EXPECT_TRUE(groth16::verify(pvk, proof, inputs));
        const auto pa = bn254::to_eth_bytes(proof.a);
        const auto pb = bn254::to_eth_bytes(proof.b);
        const auto pc = bn254::to_eth_bytes(proof.c);
        const std::string eth =
            std::string(pa.begin(), pa.end()) + std::string(pb.begin(), pb.end()) + std::string(pc.begin(), pc.end());
        EXPECT_EQ(a.result().proof(), eth);
        ASSERT_EQ(a.public_inputs_size(), 1);
        EXPECT_EQ(a.public_inputs(0).values(0), inputs[0].to_dec());
    }
    EXPECT_NE(answers[0].result().proof(), answers[1].result().proof());

    auto refused = [&](const std::string& bytes, const std::string& part) {
        v1::SubmitProofResponse resp;
        grpc::ClientContext ctx;
        const auto st = stub->SubmitZkey(&ctx, zkey_request("chain8bn", bytes), &resp);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << code_and_message(st);
        EXPECT_NE(st.error_message().find(part), std::string::npos) << st.error_message();
    };
    auto bad = w;
    bad[5] += bn254::Fr::one();
    refused(bytes_of(formats::circom::wtns_to_bytes<Bn>(bad)), "witness: constraint ");
    refused(read_text(kData / "chain8.wtns"),
            "witness: its prime is BLS12-381 (bls12381)'s scalar field, the key 'chain8bn' is on BN254 (bn128)");

    const std::string m = metrics_of(d);
    EXPECT_EQ(metric(m, "cuzk_zkey_loads_total{key=\"chain8bn\"}"), 1) << m;
    EXPECT_EQ(metric(m, "cuzk_zkey_proofs_total{key=\"chain8bn\"}"), 2) << m;
    EXPECT_EQ(metric(m, "cuzk_tasks_completed_total{task_name=\"zkey\"}"), 2) << m;

    if (const std::string snarkjs = find_snarkjs(); !snarkjs.empty()) {
        std::ofstream(tmp.path() / "proof.json") << answers[0].documents().at("proof.json");
        std::ofstream(tmp.path() / "public.json") << answers[0].documents().at("public.json");
        auto [rc, out] = run_program({snarkjs, "groth16", "verify", vk_file.string(),
                                      (tmp.path() / "public.json").string(), (tmp.path() / "proof.json").string()},
                                     tmp.path());
        EXPECT_EQ(rc, 0) << out;
        EXPECT_NE(out.find("OK"), std::string::npos) << out;
    } else {
        std::printf("SKIP snarkjs groth16 verify: snarkjs not found (set CUZK_SNARKJS or run scripts/circom tools)\n");
    }
    EXPECT_EQ(d.stop(), 0);
}

// BN254 without the .r1cs: a witness that breaks a constraint passes the submit checks, its
// proof fails the kind's verification (and the CPU recompute), and no proof is handed out.
TEST(DaemonZkey, WithoutR1csABadBn254WitnessFailsVerificationNotTheAnswer) {
    TempDir tmp;
    Daemon d(tmp.path(), zkey_daemon(false, "chain8bn", "chain8_bn254"));
    auto stub = d.stub();
    auto bad = formats::circom::read_wtns<Bn>(kData / "chain8_bn254.wtns").values;
    bad[5] += bn254::Fr::one();
    v1::AwaitBuiltinResponse resp;
    grpc::ClientContext ctx;
    ASSERT_TRUE(
        stub->ProveZkey(&ctx, zkey_request("chain8bn", bytes_of(formats::circom::wtns_to_bytes<Bn>(bad))), &resp).ok());
    EXPECT_EQ(resp.result().status(), v1::AwaitProofResponse::FAILED);
    EXPECT_NE(resp.result().error_message().find("verification"), std::string::npos) << resp.result().error_message();
    EXPECT_TRUE(resp.result().proof().empty());
    EXPECT_TRUE(resp.documents().empty());
    EXPECT_EQ(d.stop(), 0);
}

// `cuzk client prove --kind zkey` writes proof.json and public.json, which verify-zkey
// accepts under snarkjs' verification key; `client submit` + `await --proof-json` as well.
TEST(DaemonZkey, CliProvesByKeyNameAndWritesSnarkjsFiles) {
    TempDir tmp;
    Daemon d(tmp.path(), zkey_daemon());
    const std::string proof = (tmp.path() / "proof.json").string(), pub = (tmp.path() / "public.json").string();
    const std::string wtns = (kData / "chain8.wtns").string(), vk = (kData / "chain8.vkey.json").string();
    auto [rc, out] = run_program({CUZK_CLI_PATH, "client", "--address", d.tcp(), "prove", "--kind", "zkey", "--key",
                                  "chain8", "--wtns", wtns, "--proof-json", proof, "--public-json", pub, "--verify"},
                                 tmp.path());
    ASSERT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("verified locally: 1 proof(s) valid"), std::string::npos) << out;
    std::tie(rc, out) = run_program({CUZK_CLI_PATH, "verify-zkey", vk, pub, proof}, tmp.path());
    EXPECT_EQ(rc, 0) << out;

    std::tie(rc, out) = run_program(
        {CUZK_CLI_PATH, "client", "--address", d.tcp(), "submit", "--kind", "zkey", "--key", "chain8", "--wtns", wtns},
        tmp.path(), true);
    ASSERT_EQ(rc, 0) << out;
    const std::string job = out.substr(0, out.find('\n'));
    const std::string proof2 = (tmp.path() / "proof2.json").string(), pub2 = (tmp.path() / "public2.json").string();
    std::tie(rc, out) = run_program(
        {CUZK_CLI_PATH, "client", "--address", d.tcp(), "await", job, "--proof-json", proof2, "--public-json", pub2},
        tmp.path());
    ASSERT_EQ(rc, 0) << out;
    std::tie(rc, out) = run_program({CUZK_CLI_PATH, "verify-zkey", vk, pub2, proof2}, tmp.path());
    EXPECT_EQ(rc, 0) << out;

    // An unknown key is refused with the daemon's message.
    std::tie(rc, out) = run_program({CUZK_CLI_PATH, "client", "--address", d.tcp(), "prove", "--kind", "zkey", "--key",
                                     "other", "--wtns", wtns, "--proof-json", proof},
                                    tmp.path());
    EXPECT_EQ(rc, 1) << out;
    EXPECT_NE(out.find("no zkey named 'other' is loaded"), std::string::npos) << out;
    EXPECT_EQ(d.stop(), 0);
}

// A witness over max_request_bytes is refused by gRPC before the service reads it.
TEST(DaemonZkey, AWitnessOverMaxRequestBytesIsRefused) {
    TempDir tmp;
    DaemonOptions o = zkey_daemon();
    o.daemon_toml = "max_request_bytes = 1024";
    Daemon d(tmp.path(), o);
    auto stub = d.stub();
    std::vector<Fr> many(64, Fr::one());  // 64 values: 2 KiB
    v1::SubmitProofResponse resp;
    grpc::ClientContext ctx;
    const auto st =
        stub->SubmitZkey(&ctx, zkey_request("chain8", bytes_of(formats::circom::wtns_to_bytes<E>(many))), &resp);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << code_and_message(st);
    // The key's own witness fits.
    v1::AwaitBuiltinResponse ok;
    grpc::ClientContext ctx2;
    ASSERT_TRUE(stub->ProveZkey(&ctx2, zkey_request("chain8", read_text(kData / "chain8.wtns")), &ok).ok());
    EXPECT_EQ(ok.result().status(), v1::AwaitProofResponse::COMPLETED);
    EXPECT_EQ(d.stop(), 0);
}

// The dashboard's admin route loads a key while the daemon runs, as [zkey.<name>] does at
// start; without the token, or with a bad file or a taken name, nothing is loaded.
TEST(DaemonZkey, AdminHttpLoadsAKeyWhileRunning) {
    TempDir tmp;
    DaemonOptions o;
    const std::string token = "zkey-admin-token-0123456789";
    o.daemon_toml = "admin_token = \"" + token + "\"";
    Daemon d(tmp.path(), o);
    auto stub = d.stub();
    const std::string witness = read_text(kData / "chain8.wtns");
    auto prove = [&] {
        v1::AwaitBuiltinResponse r;
        grpc::ClientContext ctx;
        return std::make_pair(stub->ProveZkey(&ctx, zkey_request("late", witness), &r), r);
    };
    EXPECT_EQ(prove().first.error_code(), grpc::StatusCode::NOT_FOUND);
    const std::string body =
        nlohmann::json{
            {"name", "late"}, {"path", (kData / "chain8.zkey").string()}, {"r1cs", (kData / "chain8.r1cs").string()}}
            .dump();
    auto r = d.http_post("/api/zkeys/load", body);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 401) << r->body;
    r = d.http_post("/api/zkeys/load",
                    nlohmann::json{{"name", "bad"}, {"path", (kData / "chain8.wtns").string()}}.dump(), token);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << r->body;
    EXPECT_NE(r->body.find("chain8.wtns"), std::string::npos) << r->body;
    r = d.http_post("/api/zkeys/load", nlohmann::json{{"name", "x"}}.dump(), token);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << r->body;
    EXPECT_NE(r->body.find("path is required"), std::string::npos) << r->body;
    r = d.http_post("/api/zkeys/load", body, token);
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
    auto [st, resp] = prove();
    ASSERT_TRUE(st.ok()) << code_and_message(st);
    EXPECT_EQ(resp.result().status(), v1::AwaitProofResponse::COMPLETED) << resp.result().error_message();
    r = d.http_post("/api/zkeys/load", body, token);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << r->body;
    EXPECT_NE(r->body.find("already loaded"), std::string::npos) << r->body;
    const std::string m = metrics_of(d);
    EXPECT_EQ(metric(m, "cuzk_zkey_loads_total{key=\"late\"}"), 1) << m;
    EXPECT_EQ(metric(m, "cuzk_zkey_loads_total{key=\"bad\"}"), -1) << m;
    EXPECT_EQ(d.stop(), 0);
}

// A key that cannot be loaded stops the daemon's start, naming the key and the file.
TEST(DaemonZkey, ABadKeyFileStopsTheStart) {
    TempDir tmp;
    const fs::path cfg = tmp.path() / "bad.toml";
    std::ofstream(cfg) << "[daemon]\nlisten = [\"127.0.0.1:0\"]\n[engine]\nbackend = \"cpu\"\n[zkey.broken]\npath = \""
                       << (kData / "chain8.wtns").string() << "\"\n";
    auto [rc, out] = run_program({CUZK_DAEMON_PATH, "--config", cfg.string()}, tmp.path());
    EXPECT_NE(rc, 0) << out;
    EXPECT_NE(out.find("zkey.broken"), std::string::npos) << out;
    EXPECT_NE(out.find("chain8.wtns"), std::string::npos) << out;
}

}  // namespace
}  // namespace cuzk::test
