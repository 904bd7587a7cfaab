// Window and Winning PoSt through the engine ("window-post", "winning-post" kinds): 2 KiB
// proofs from synthetic vanilla proofs with development keys, checked against the public
// inputs a verifier derives; malformed or inconsistent vanilla proofs refused at submit.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "cuzk/circuits/post.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/filecoin/post.hpp"
#include "cuzk/filecoin/registry.hpp"
#include "support/engine_checks.hpp"
#include "support/gated_backend.hpp"

using namespace cuzk;
using namespace cuzk::engine;
using namespace std::chrono_literals;
using filecoin::RegisteredPoStProof;
using test::expect_verifies;
using test::refusal;
namespace fs = std::filesystem;

namespace {

filecoin::Bytes32 randomness(uint8_t v) {
    filecoin::Bytes32 r{};
    for (size_t i = 0; i < r.size(); ++i) r[i] = uint8_t(v + 3 * i);
    r[31] &= 0x3f;
    return r;
}

// A directory without Filecoin parameter files: development keys (in memory) are used.
EngineConfig dev_cpu(const fs::path& empty_dir) {
    EngineConfig c;
    c.backend = "cpu";
    c.memory_budget = uint64_t(8) << 30;
    c.log = [](int, const std::string&) {};
    c.filecoin_param_dir = empty_dir;
    return c;
}

fs::path empty_dir(const std::string& tag) {
    const fs::path p = fs::temp_directory_path() / ("cuzk-post-" + tag + "-" + std::to_string(::getpid()));
    fs::remove_all(p);
    fs::create_directories(p);
    return p;
}

// Window partition `partition` of sectors with these ids: synthetic vanilla proofs.
std::vector<filecoin::FallbackPoStSectorProof> window_sectors(const filecoin::PoStConfig& cfg,
                                                              const filecoin::Bytes32& r, uint32_t partition,
                                                              const std::vector<uint64_t>& ids) {
    std::vector<filecoin::FallbackPoStSectorProof> out;
    for (size_t i = 0; i < ids.size(); ++i)
        out.push_back(filecoin::synthetic_post_vanilla_proof(cfg, 11, ids[i], r, partition * cfg.sector_count + i));
    return out;
}

JobSpec post_spec(const std::string& kind, const filecoin::PoStConfig& cfg, const filecoin::Bytes32& r,
                  uint32_t partition, const std::vector<filecoin::FallbackPoStSectorProof>& sectors) {
    JobSpec s;
    s.kind = kind;
    s.registered_proof = std::string(cfg.name);
    s.randomness.assign(r.begin(), r.end());
    s.miner_id = 1000;
    s.partition_index = partition;
    for (const auto& p : sectors) s.vanilla_proofs.push_back(filecoin::encode_post_sector_proof(p));
    return s;
}

std::vector<std::string> decimal(const std::vector<Fr>& x) {
    std::vector<std::string> out;
    for (const auto& v : x) out.push_back(v.to_dec());
    return out;
}

}  // namespace

TEST(EnginePoSt, WindowTwoKiBPartitionVerifiesWithTheVerifiersInputs) {
    const fs::path dir = empty_dir("window");
    Engine e(dev_cpu(dir));
    const auto& cfg = filecoin::post_config(RegisteredPoStProof::StackedDrgWindow2KiBV1_2);
    const auto r = randomness(7);
    const uint32_t partition = 3;
    const auto sectors = window_sectors(cfg, r, partition, {42, 7});
    JobSpec spec = post_spec("window-post", cfg, r, partition, sectors);
    spec.registered_proof = std::to_string(uint64_t(cfg.proof));  // the id, as the daemon passes it
    EXPECT_EQ(Engine::circuit_id(spec), "window-post-StackedDrgWindow2KiBV1_2");
    auto info = e.submit(spec);
    auto res = e.await(info.job_id, 300s);
    ASSERT_TRUE(res);
    expect_verifies(*res);
    EXPECT_EQ(res->circuit_id, "window-post-StackedDrgWindow2KiBV1_2");
    ASSERT_EQ(res->public_inputs.size(), 1u);
    std::vector<circuits::PoStPublicSector> pub;
    for (const auto& s : sectors) pub.push_back({s.sector_id, s.comm_r});
    EXPECT_EQ(res->public_inputs[0], decimal(circuits::window_post_public_inputs(cfg, r, partition, pub)));
    fs::remove_all(dir);
}

TEST(EnginePoSt, WinningTwoKiBVerifiesWithTheVerifiersInputs) {
    const fs::path dir = empty_dir("winning");
    Engine e(dev_cpu(dir));
    const auto& cfg = filecoin::post_config(RegisteredPoStProof::StackedDrgWinning2KiBV1);
    const auto r = randomness(9);
    const auto sector = filecoin::synthetic_post_vanilla_proof(cfg, 5, 42, r, 0);
    auto info = e.submit(post_spec("winning-post", cfg, r, 0, {sector}));
    auto res = e.await(info.job_id, 300s);
    ASSERT_TRUE(res);
    expect_verifies(*res);
    EXPECT_EQ(res->circuit_id, "winning-post-StackedDrgWinning2KiBV1");
    ASSERT_EQ(res->public_inputs.size(), 1u);
    EXPECT_EQ(res->public_inputs[0],
              decimal(circuits::winning_post_public_inputs(cfg, r, {sector.sector_id, sector.comm_r})));
    fs::remove_all(dir);
}

TEST(EnginePoSt, MalformedOrInconsistentVanillaProofsAreRefusedAtSubmit) {
    const fs::path dir = empty_dir("refuse");
    EngineConfig c = dev_cpu(dir);
    c.allow_dev_params = false;
    Engine e(c);
    const auto& cfg = filecoin::post_config(RegisteredPoStProof::StackedDrgWindow2KiBV1_2);
    const auto r = randomness(7);
    const auto sectors = window_sectors(cfg, r, 0, {42, 7});
    const JobSpec good = post_spec("window-post", cfg, r, 0, sectors);
    using Code = EngineError::Code;
    auto expect = [&](const JobSpec& s, Code code, const std::string& part) {
        const auto [got, why] = refusal(e, s);
        EXPECT_EQ(got, code) << part << ": " << why;
        EXPECT_NE(why.find(part), std::string::npos) << why;
    };
    JobSpec s = good;
    s.vanilla_proofs[1].resize(s.vanilla_proofs[1].size() - 5);  // truncated bincode
    expect(s, Code::InvalidArgument, "vanilla_proofs[1]");
    s = good;
    s.randomness[0] ^= 1;  // the proofs open other leaves
    expect(s, Code::InvalidArgument, "sector 0 (id 42)");
    s = good;
    s.randomness.pop_back();
    expect(s, Code::InvalidArgument, "randomness must be 32 bytes");
    s = good;
    s.vanilla_proofs.push_back(s.vanilla_proofs[0]);
    expect(s, Code::InvalidArgument, "takes 1..2 vanilla proofs");
    s = good;
    s.registered_proof = "StackedDrgWinning2KiBV1";
    expect(s, Code::InvalidArgument, "is not a Window PoSt proof");
    s = good;
    s.registered_proof = "99";
    expect(s, Code::InvalidArgument, "is not a registered PoSt proof");
    s = good;
    s.kind = "winning-post";
    s.registered_proof = "StackedDrgWinning2KiBV1";
    s.vanilla_proofs.resize(1);
    expect(s, Code::InvalidArgument, "vanilla_proofs[0]");  // a Window proof's shape (10 challenges, not 66)
    // A valid request, but no parameter file and no development keys: the file is named.
    expect(good, Code::NotFound, filecoin::post_params_file_name(cfg));
    EXPECT_EQ(filecoin::post_params_file_name(cfg).rfind("v28-proof-of-spacetime-fallback", 0), 0u);
    fs::remove_all(dir);
}

// Winning PoSt while a stream of multi-partition (PoRep-shaped) NORMAL jobs keeps the one
// prove slot busy: submitted with its priority unset, it takes the kind's default (CRITICAL)
// and is the next item proven once the partition in the prover finishes, ahead of every
// partition queued before it; its latency is one partition of the stream, not the stream.
TEST(EnginePoSt, WinningGoesAheadOfAQueuedStream) {
    const fs::path dir = empty_dir("critical");
    test::Gate gate;
    EngineConfig c = dev_cpu(dir);
    c.witness_workers = 1;
    c.cpu_prove_workers = 1;
    c.witness_queue_bound = 1;
    c.backend_factory = [&](int) { return std::make_unique<test::TestBackend>(&gate, false); };
    Engine e(c);
    const auto& cfg = filecoin::post_config(RegisteredPoStProof::StackedDrgWinning2KiBV1);
    const auto r = randomness(3);
    JobSpec winning = post_spec("winning-post", cfg, r, 0, {filecoin::synthetic_post_vanilla_proof(cfg, 5, 42, r, 0)});
    ASSERT_EQ(winning.priority, Priority::Unspecified);
    // The keys are resident, as in production: the order below is the scheduler's alone.
    e.preload(Engine::circuit_id(winning));
    e.preload(Engine::circuit_id(test::dense(64, 3)));

    gate.close();
    std::vector<SubmitInfo> stream;
    stream.push_back(e.submit(test::dense(64, 3, Priority::Normal, 1)));
    ASSERT_TRUE(gate.wait_for_waiters(1));
    // Partition 0 is in the prover, partition 1 in the queue, the witness worker holds 2.
    for (int i = 0; i < 400 && e.status().queues[0].pending != 0; ++i) std::this_thread::sleep_for(5ms);
    for (uint64_t seed = 2; seed <= 3; ++seed) stream.push_back(e.submit(test::dense(64, 3, Priority::Normal, seed)));
    const auto w = e.submit(winning);
    EXPECT_EQ(w.queue_position, 0u);
    stream.push_back(e.submit(test::dense(64, 3, Priority::Normal, 4)));  // the stream goes on
    gate.release();

    const auto wr = e.await(w.job_id, 300s);
    ASSERT_TRUE(wr);
    expect_verifies(*wr);
    std::vector<JobResult> sr;
    for (const auto& s : stream) {
        auto res = e.await(s.job_id, 300s);
        ASSERT_TRUE(res);
        EXPECT_EQ(res->state, JobState::Completed) << res->error;
        sr.push_back(*res);
    }
    auto num = [](const std::string& id) { return uint64_t(std::stoull(id.substr(id.rfind('-') + 1))); };
    std::vector<uint64_t> want = {num(stream[0].job_id), num(stream[0].job_id), num(stream[0].job_id), num(w.job_id)};
    for (size_t j = 1; j < stream.size(); ++j) want.insert(want.end(), 3, num(stream[j].job_id));
    EXPECT_EQ(gate.order, want);
    // Observed latency: the jobs queued before it waited longer and took longer.
    for (size_t j = 1; j < 3; ++j) {
        EXPECT_GT(sr[j].timings.total, wr->timings.total) << "stream job " << j;
    }
    fs::remove_all(dir);
}
