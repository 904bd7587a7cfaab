// SnapDeals through the engine ("snap-deals-update" kind): a 2 KiB update (sealed and encoded
// in memory) and a synthetic one proven with development keys and checked against the public
// inputs a verifier derives; malformed or inconsistent requests refused at submit.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "cuzk/circuits/update.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/filecoin/update.hpp"
#include "support/engine_checks.hpp"

using namespace cuzk;
using namespace cuzk::engine;
using namespace std::chrono_literals;
using filecoin::RegisteredUpdateProof;
using test::expect_verifies;
using test::refusal;
namespace fs = std::filesystem;

namespace {

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
    const fs::path p = fs::temp_directory_path() / ("cuzk-snap-" + tag + "-" + std::to_string(::getpid()));
    fs::remove_all(p);
    fs::create_directories(p);
    return p;
}

JobSpec snap_spec(const filecoin::SectorUpdate& u) {
    JobSpec s;
    s.kind = "snap-deals-update";
    s.registered_proof = std::to_string(uint64_t(*u.config().proof));
    const auto& pub = u.public_inputs();
    s.comm_r_old.assign(pub.comm_r_old.begin(), pub.comm_r_old.end());
    s.comm_r_new.assign(pub.comm_r_new.begin(), pub.comm_r_new.end());
    s.comm_d_new.assign(pub.comm_d_new.begin(), pub.comm_d_new.end());
    for (const auto& p : u.partition_proofs()) s.vanilla_proofs.push_back(filecoin::encode_update_partition_proof(p));
    return s;
}

std::vector<std::string> decimal(const std::vector<Fr>& x) {
    std::vector<std::string> out;
    for (const auto& v : x) out.push_back(v.to_dec());
    return out;
}

const filecoin::SectorUpdate& update_2k() {
    static const filecoin::SectorUpdate u = [] {
        filecoin::SealParams p;
        p.proof = filecoin::RegisteredSealProof::StackedDrg2KiBV1_1;
        p.sector_id = 9;
        const auto& cfg = filecoin::porep_config(p.proof);
        static const auto sealed = filecoin::SealedSector::seal(p, filecoin::pseudo_random_sector_data(cfg, 1));
        return filecoin::SectorUpdate::encode(sealed, filecoin::pseudo_random_sector_data(cfg, 2));
    }();
    return u;
}

}  // namespace

// VerySlow: the development setup of the 2 KiB circuit (1.7 M constraints) takes minutes on 2
// cores; the keys are cached in CUZK_TEST_PARAM_CACHE (default <tmp>/cuzk-porep-test-params).
TEST(VerySlowEngineSnap, TwoKiBUpdateVerifiesWithTheVerifiersInputs) {
    const fs::path dir = empty_dir("prove");
    EngineConfig cfg = dev_cpu(dir);
    const char* env = std::getenv("CUZK_TEST_PARAM_CACHE");
    cfg.param_cache = env && *env ? fs::path(env) : fs::temp_directory_path() / "cuzk-porep-test-params";
    Engine e(cfg);
    const auto& u = update_2k();
    JobSpec spec = snap_spec(u);
    // The commitments as Curio's ProveUpdateCuzk sends them: binary CIDs.
    spec.comm_r_new = filecoin::commitment_cid_bytes(u.public_inputs().comm_r_new, true);
    spec.comm_d_new = filecoin::commitment_cid_bytes(u.public_inputs().comm_d_new, false);
    EXPECT_EQ(Engine::circuit_id(spec), "snap-deals-update-StackedDrg2KiBV1");
    auto info = e.submit(spec);
    auto res = e.await(info.job_id, 600s);
    ASSERT_TRUE(res);
    expect_verifies(*res);
    EXPECT_EQ(res->circuit_id, "snap-deals-update-StackedDrg2KiBV1");
    ASSERT_EQ(res->public_inputs.size(), 1u);
    EXPECT_EQ(res->public_inputs[0], decimal(circuits::update_public_inputs(u.config(), u.public_inputs(), 0)));
    EXPECT_EQ(res->proof.size(), 192u);
    fs::remove_all(dir);
}

TEST(EngineSnap, MalformedOrInconsistentRequestsAreRefusedAtSubmit) {
    const fs::path dir = empty_dir("refuse");
    EngineConfig c = dev_cpu(dir);
    c.allow_dev_params = false;
    Engine e(c);
    const JobSpec good = snap_spec(update_2k());
    using Code = EngineError::Code;
    auto expect = [&](const JobSpec& s, Code code, const std::string& part) {
        const auto [got, why] = refusal(e, s);
        EXPECT_EQ(got, code) << part << ": " << why;
        EXPECT_NE(why.find(part), std::string::npos) << why;
    };
    JobSpec s = good;
    s.vanilla_proofs[0].resize(s.vanilla_proofs[0].size() - 5);
    expect(s, Code::InvalidArgument, "vanilla_proofs[0]: challenge_proofs at byte 296: 10 challenge proofs need");
    s = good;
    s.comm_r_new[2] ^= 1;  // the proofs open other leaves
    expect(s, Code::InvalidArgument, "partition 0: comm_r_new: is not Poseidon2");
    s = good;
    s.comm_d_new.pop_back();
    expect(s, Code::InvalidArgument, "comm_d_new: expected 32 bytes or the 39-byte CID");
    s = good;
    s.comm_r_old = filecoin::commitment_cid_bytes(filecoin::Bytes32{}, false);  // an unsealed CID for comm_r
    expect(s, Code::InvalidArgument, "comm_r_old: expected 32 bytes or the 40-byte CID of a sealed commitment");
    s = good;
    s.vanilla_proofs.push_back(s.vanilla_proofs[0]);
    expect(s, Code::InvalidArgument, "takes 1 vanilla proofs (one bincode PartitionProof a partition), got 2");
    s = good;
    s.vanilla_proofs[0][40 + 3] ^= 0x10;  // an apex leaf
    expect(s, Code::InvalidArgument, "partition 0: challenge_proofs[");
    s = good;
    s.registered_proof = "StackedDrg8MiBV1";
    s.vanilla_proofs.resize(4, s.vanilla_proofs[0]);
    expect(s, Code::InvalidArgument, "vanilla_proofs[0]: apex_leafs at byte 32: expected 128 apex leaves, found 8");
    s = good;
    s.sector_size = 4096;
    expect(s, Code::InvalidArgument, "sector_size 4096 does not match registered_proof StackedDrg2KiBV1");
    s = good;
    s.update_h = 3;
    expect(s, Code::InvalidArgument, "h = 3 is not allowed for 2KiB sectors");
    // A valid request, but no parameter file and no development keys: the file is named.
    const auto& cfg = filecoin::update_config(RegisteredUpdateProof::StackedDrg2KiBV1);
    expect(good, Code::NotFound, filecoin::update_params_file_name(cfg));
    fs::remove_all(dir);
}
