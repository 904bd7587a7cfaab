// The engine end to end on the CPU backend (and on fake "devices" made from it): jobs,
// partitions, priorities, cancellation, the memory budget, verification with a CPU
// recompute of a bad proof, parameters cached on disk, metrics and the Chrome trace.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <thread>

#include "cuzk/common/trace.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/params.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "support/engine_checks.hpp"
#include "support/gated_backend.hpp"

using namespace cuzk;
using namespace cuzk::engine;
using namespace std::chrono_literals;

namespace {

using test::dense;
using test::expect_verifies;
using test::Gate;
using test::refusal;
using test::TestBackend;

EngineConfig cpu_config() {
    EngineConfig c;
    c.backend = "cpu";
    c.memory_budget = uint64_t(2) << 30;
    c.log = [](int, const std::string&) {};
    return c;
}

uint64_t params_bytes(const EngineStatus& s) {
    uint64_t b = 0;
    for (const auto& p : s.params) b += p.size_bytes;
    return b;
}

// Nothing reserved but loaded parameters and idle pooled buffers.
void expect_idle(Engine& e) {
    for (int i = 0; i < 200; ++i) {
        auto s = e.status();
        if (s.memory_reserved == params_bytes(s) + s.pooled_bytes && s.jobs_running == 0) break;
        std::this_thread::sleep_for(10ms);
    }
    auto s = e.status();
    EXPECT_EQ(s.memory_reserved, params_bytes(s) + s.pooled_bytes);
    EXPECT_EQ(s.jobs_queued, 0u);
    EXPECT_EQ(s.jobs_running, 0u);
    for (const auto& q : s.queues) {
        EXPECT_EQ(q.pending, 0u) << q.name;
        if (q.bound) {
            EXPECT_LE(q.high_water, q.bound) << q.name;
        }
    }
    EXPECT_LE(s.memory_high_water, s.memory_budget);
}

}  // namespace

TEST(Engine, ProvesEveryPartitionAndTheProofsVerify) {
    Engine e(cpu_config());
    auto info = e.submit(dense(64, 3));
    EXPECT_FALSE(info.existing);
    auto r = e.await(info.job_id);
    ASSERT_TRUE(r);
    expect_verifies(*r);
    EXPECT_EQ(r->partitions_done, 3u);
    EXPECT_EQ(r->circuit_id, "random-dense-64-2-1");
    EXPECT_EQ(r->backend, "cpu");
    EXPECT_EQ(r->cpu_recomputes, 0u);
    EXPECT_GT(r->timings.total, 0);
    EXPECT_GE(r->timings.total, r->timings.queue_wait);
    EXPECT_EQ(e.peek(info.job_id).state, JobState::Completed);
    expect_idle(e);
    EXPECT_EQ(e.status().proofs_completed, 1u);
}

// EngineConfig::key_source: the keys of every circuit come from it, called once a load with
// the counts and densities of the density-only pass; a job proves with them, and keys that do
// not fit the circuit are refused naming it.
TEST(Engine, KeySourceGivesEveryCircuitsKeys) {
    EngineConfig cfg = cpu_config();
    int calls = 0;
    groth16::VerifyingKey made;
    cfg.key_source = [&](const std::string& id, const groth16::ShapeSummary& s) {
        ++calls;
        EXPECT_EQ(id, "random-dense-64-2-1");
        const r1cs::Shape shape = CircuitKey::parse(id)->blank_circuit()->shape();
        EXPECT_EQ(s.num_inputs, shape.num_inputs);
        EXPECT_EQ(s.num_aux, shape.num_aux);
        EXPECT_EQ(s.num_constraints, shape.num_constraints);
        EXPECT_EQ(s.density.a_aux.count(), shape.density().a_aux.count());
        auto p = groth16::setup(shape, groth16::ToxicWaste::from_seed(77));
        made = p.vk;
        return p;
    };
    {
        Engine e(cfg);
        for (int i = 0; i < 2; ++i) {
            const auto r = e.await(e.submit(dense(64, 2)).job_id);
            ASSERT_TRUE(r);
            expect_verifies(*r);
            EXPECT_EQ(r->verifying_key, formats::vk_to_bytes(made));
        }
        EXPECT_EQ(calls, 1);
    }
    cfg.key_source = [](const std::string&, const groth16::ShapeSummary&) { return groth16::Parameters{}; };
    Engine e(cfg);
    const auto r = e.await(e.submit(dense(64, 1)).job_id);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->state, JobState::Failed);
    EXPECT_NE(r->error.find("the key source's keys do not fit circuit random-dense-64-2-1"), std::string::npos)
        << r->error;
}

TEST(SlowEngine, Sha256ChainPartitionsHaveTheirOwnPreimages) {
    Engine e(cpu_config());
    JobSpec s;
    s.circuit = "sha256-chain";
    s.size = 1;
    s.partitions = 2;
    s.seed = 5;
    auto r = e.await(e.submit(s).job_id);
    ASSERT_TRUE(r);
    expect_verifies(*r);
    EXPECT_NE(r->public_inputs[0], r->public_inputs[1]);  // different preimages, different digests
}

TEST(Engine, BadRequestsAreRefusedWithAReason) {
    Engine e(cpu_config());
    auto code_of = [&](const JobSpec& s) { return refusal(e, s); };
    JobSpec s = dense();
    s.circuit = "no-such";
    auto [c1, m1] = code_of(s);
    EXPECT_EQ(c1, EngineError::Code::InvalidArgument);
    EXPECT_NE(m1.find("unknown circuit 'no-such'"), std::string::npos) << m1;
    s = dense();
    s.kind = "snap-deals-update";
    auto [c2, m2] = code_of(s);
    EXPECT_EQ(c2, EngineError::Code::InvalidArgument);
    EXPECT_NE(m2.find("is not a registered update proof"), std::string::npos) << m2;
    s = dense();
    s.kind = "bogus";
    EXPECT_EQ(code_of(s).first, EngineError::Code::InvalidArgument);
    s = dense(64, 0);
    EXPECT_NE(code_of(s).second.find("partitions"), std::string::npos);
    s = dense(uint64_t(1) << 40);
    EXPECT_NE(code_of(s).second.find("size"), std::string::npos);
    s = dense();
    s.priority = Priority(9);
    EXPECT_NE(code_of(s).second.find("priority"), std::string::npos);
    s = dense();
    s.inputs = 0;
    EXPECT_NE(code_of(s).second.find("inputs"), std::string::npos);
    // random-dense's least size for its inputs (circuits::check_builtin) is checked at submit,
    // not found later by a worker.
    s = dense(8);
    s.inputs = 8;
    auto [c3, m3] = code_of(s);
    EXPECT_EQ(c3, EngineError::Code::InvalidArgument);
    EXPECT_NE(m3.find("needs a size"), std::string::npos) << m3;
    EXPECT_THROW(e.await("job-999999"), EngineError);
    EXPECT_FALSE(e.cancel("job-999999").found);
    // The engine still serves good jobs.
    auto r = e.await(e.submit(dense()).job_id);
    ASSERT_TRUE(r);
    expect_verifies(*r);
}

TEST(Engine, RequestIdMakesSubmitIdempotent) {
    Engine e(cpu_config());
    JobSpec s = dense();
    s.request_id = "abc";
    auto a = e.submit(s);
    auto b = e.submit(s);
    EXPECT_EQ(a.job_id, b.job_id);
    EXPECT_TRUE(b.existing);
    ASSERT_TRUE(e.await(a.job_id));
}

TEST(Engine, AJobThatCannotFitTheBudgetIsRefusedWithTheSizes) {
    EngineConfig c = cpu_config();
    c.memory_budget = 1 << 20;  // 1 MiB: less than one partition's fixed overhead
    Engine e(c);
    auto [code, why] = refusal(e, dense());
    EXPECT_EQ(code, EngineError::Code::ResourceExhausted);
    EXPECT_NE(why.find("memory budget of 1 MiB"), std::string::npos) << why;
    EXPECT_NE(why.find("per partition"), std::string::npos) << why;
    expect_idle(e);
}

// This process's resident set (VmRSS) or its high-water mark (VmHWM), in bytes.
uint64_t proc_status_bytes(const char* field) {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind(field, 0) == 0) return std::stoull(line.substr(std::strlen(field) + 1)) << 10;
    return 0;
}

// The shape is recorded only once its estimated memory fits: a circuit of 2^26 constraints
// (its shape and setup alone ~40 GB) is refused at submit, and by preload, from its
// closed-form sizes, with the resident set and its high-water mark untouched.
TEST(Engine, AHugeCircuitIsRefusedBeforeAnythingIsAllocated) {
    EngineConfig c = cpu_config();
    c.memory_budget = uint64_t(64) << 20;
    Engine e(c);
    std::ofstream("/proc/self/clear_refs") << "5";  // VmHWM := VmRSS
    const uint64_t hwm0 = proc_status_bytes("VmHWM:");
    const auto t0 = std::chrono::steady_clock::now();
    auto [code, why] = refusal(e, dense(uint64_t(1) << 26));
    EXPECT_EQ(code, EngineError::Code::ResourceExhausted);
    EXPECT_NE(why.find("needs an estimated"), std::string::npos) << why;
    EXPECT_NE(why.find("memory budget of 64 MiB"), std::string::npos) << why;
    try {
        e.preload("random-dense-67108864-2-1");
        ADD_FAILURE() << "preload accepted";
    } catch (const EngineError& err) {
        EXPECT_EQ(err.code(), EngineError::Code::ResourceExhausted);
        EXPECT_NE(std::string(err.what()).find("needs an estimated"), std::string::npos) << err.what();
    }
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 1s);
    const uint64_t hwm1 = proc_status_bytes("VmHWM:");
    std::printf("VmHWM %llu -> %llu KiB\n", (unsigned long long)(hwm0 >> 10), (unsigned long long)(hwm1 >> 10));
    EXPECT_LT(hwm1, hwm0 + (uint64_t(16) << 20));
    expect_idle(e);
}

// Shape recording and the development setup check the job's cancellation every few
// thousand constraints: cancelling a job (or shutting down) while its circuit's shape is
// being built stops the build within a bound and gives its memory back.
TEST(SlowEngine, CancelAndShutdownStopAShapeBeingBuilt) {
    EngineConfig c = cpu_config();
    c.memory_budget = uint64_t(8) << 30;  // an estimate of ~3 GiB for the load: it fits
    const uint64_t size = (uint64_t(1) << 21) - 16;
    auto building = [](Engine& e) {
        // The load's reservation is taken before the shape is recorded.
        for (int i = 0; i < 3000 && e.status().memory_reserved == 0; ++i) std::this_thread::sleep_for(10ms);
        EXPECT_GT(e.status().memory_reserved, 0u);
        std::this_thread::sleep_for(200ms);  // well into the shape (a few seconds at this size)
    };
    Engine e(c);
    const auto job = e.submit(dense(size, 1, Priority::Normal, 11));
    building(e);
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_TRUE(e.cancel(job.job_id).was_running);
    for (int i = 0; i < 1000 && e.status().memory_reserved != 0; ++i) std::this_thread::sleep_for(1ms);
    const auto cancel_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("cancel: memory back in %.0f ms\n", cancel_ms);
    EXPECT_LT(cancel_ms, 1000);
    EXPECT_EQ(e.status().memory_reserved, 0u);
    EXPECT_EQ(e.peek(job.job_id).state, JobState::Cancelled);
    EXPECT_TRUE(e.status().params.empty());

    const auto other = e.submit(dense(size, 1, Priority::Normal, 12));
    building(e);
    t0 = std::chrono::steady_clock::now();
    e.shutdown(false);
    const auto shutdown_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("shutdown: %.0f ms\n", shutdown_ms);
    EXPECT_LT(shutdown_ms, 1000);
    EXPECT_EQ(e.status().memory_reserved, 0u);
    EXPECT_EQ(e.peek(other.job_id).state, JobState::Cancelled);
}

TEST(Engine, HigherPriorityAndOlderJobsGoFirst) {
    Gate gate;
    EngineConfig c = cpu_config();
    c.witness_workers = 1;
    c.cpu_prove_workers = 1;
    c.witness_queue_bound = 1;
    c.backend_factory = [&](int) { return std::make_unique<TestBackend>(&gate, false); };
    Engine e(c);
    gate.close();
    auto first = e.submit(dense(64, 3));
    ASSERT_TRUE(gate.wait_for_waiters(1));
    // Partition 0 is held in the prover, partition 1 waits in the queue, and the witness
    // worker holds partition 2 until there is room: nothing else can start now.
    for (int i = 0; i < 400 && e.status().queues[0].pending != 0; ++i) std::this_thread::sleep_for(5ms);
    auto low = e.submit(dense(64, 1, Priority::Low));
    auto normal1 = e.submit(dense(64, 1, Priority::Normal));
    auto critical = e.submit(dense(64, 1, Priority::Critical));
    auto normal2 = e.submit(dense(64, 1, Priority::Normal));
    auto high = e.submit(dense(64, 1, Priority::High));
    EXPECT_EQ(critical.queue_position, 0u);
    EXPECT_EQ(low.queue_position, 0u);  // alone when submitted
    gate.release();
    for (const auto& id : {first.job_id, low.job_id, normal1.job_id, critical.job_id, normal2.job_id, high.job_id}) {
        auto r = e.await(id, 60s);
        ASSERT_TRUE(r);
        EXPECT_EQ(r->state, JobState::Completed) << r->error;
    }
    // "job-<nonce>-<number>": the number is what the trace context carries.
    auto num = [](const std::string& id) { return uint64_t(std::stoull(id.substr(id.rfind('-') + 1))); };
    const std::vector<uint64_t> want = {num(first.job_id),    num(first.job_id), num(first.job_id),
                                        num(critical.job_id), num(high.job_id),  num(normal1.job_id),
                                        num(normal2.job_id),  num(low.job_id)};
    EXPECT_EQ(gate.order, want);
    expect_idle(e);
}

// A request that leaves its priority unset takes its kind's default (kinds::Kind::
// default_priority: Curio's, Winning PoSt CRITICAL): here a built-in kind registered with a
// CRITICAL default, whose job is proven ahead of NORMAL work queued before it.
class CriticalBuiltin final : public kinds::Kind {
 public:
    std::string name() const override { return "critical-builtin"; }
    kinds::Priority default_priority() const override { return kinds::Priority::Critical; }
    std::shared_ptr<const kinds::Work> prepare(const kinds::Request& r, const kinds::Limits& l) const override {
        return builtin_->prepare(r, l);
    }
    std::string circuit_id(const kinds::Request& r) const override { return builtin_->circuit_id(r); }
    std::shared_ptr<const kinds::Shape> shape(const std::string& id, const kinds::Limits& l) const override {
        return builtin_->shape(id, l);
    }
    std::vector<std::string> circuit_id_forms() const override { return builtin_->circuit_id_forms(); }

 private:
    std::unique_ptr<kinds::Kind> builtin_ = kinds::make_builtin_kind();
};

TEST(Engine, UnsetPriorityTakesTheKindsDefault) {
    Gate gate;
    EngineConfig c = cpu_config();
    c.witness_workers = 1;
    c.cpu_prove_workers = 1;
    c.witness_queue_bound = 1;
    c.backend_factory = [&](int) { return std::make_unique<TestBackend>(&gate, false); };
    auto registry = std::make_shared<kinds::Registry>();
    registry->add(kinds::make_builtin_kind());
    registry->add(std::make_unique<CriticalBuiltin>());
    c.kinds = registry;
    Engine e(c);
    gate.close();
    auto first = e.submit(dense(64, 3, Priority::Normal));
    ASSERT_TRUE(gate.wait_for_waiters(1));
    for (int i = 0; i < 400 && e.status().queues[0].pending != 0; ++i) std::this_thread::sleep_for(5ms);
    JobSpec unset = dense(64, 1, Priority::Unspecified);
    auto normal = e.submit(unset);  // builtin's default: NORMAL
    unset.kind = "critical-builtin";
    auto critical = e.submit(unset);
    EXPECT_EQ(critical.queue_position, 0u);
    gate.release();
    for (const auto& id : {first.job_id, normal.job_id, critical.job_id}) {
        auto r = e.await(id, 60s);
        ASSERT_TRUE(r);
        EXPECT_EQ(r->state, JobState::Completed) << r->error;
    }
    auto num = [](const std::string& id) { return uint64_t(std::stoull(id.substr(id.rfind('-') + 1))); };
    const std::vector<uint64_t> want = {num(first.job_id), num(first.job_id), num(first.job_id), num(critical.job_id),
                                        num(normal.job_id)};
    EXPECT_EQ(gate.order, want);
    // The kinds' own defaults, as Curio sets them.
    EXPECT_EQ(kinds::make_builtin_kind()->default_priority(), kinds::Priority::Normal);
    EXPECT_EQ(kinds::make_porep_kind()->default_priority(), kinds::Priority::Normal);
    expect_idle(e);
}

TEST(Engine, CancelRemovesQueuedJobsAndStopsRunningOnes) {
    Gate gate;
    EngineConfig c = cpu_config();
    c.witness_workers = 1;
    c.witness_queue_bound = 1;
    c.backend_factory = [&](int) { return std::make_unique<TestBackend>(&gate, false); };
    Engine e(c);
    gate.close();
    auto running = e.submit(dense(64, 4));
    ASSERT_TRUE(gate.wait_for_waiters(1));
    auto queued = e.submit(dense(64, 2));
    auto q = e.cancel(queued.job_id);
    EXPECT_TRUE(q.found);
    EXPECT_FALSE(q.was_running);
    EXPECT_EQ(e.peek(queued.job_id).state, JobState::Cancelled);
    auto rr = e.cancel(running.job_id);
    EXPECT_TRUE(rr.found);
    EXPECT_TRUE(rr.was_running);
    auto r = e.await(running.job_id, 10s);  // returns at once, the prover is still held
    ASSERT_TRUE(r);
    EXPECT_EQ(r->state, JobState::Cancelled);
    EXPECT_TRUE(r->proof.empty());
    EXPECT_FALSE(e.cancel(running.job_id).was_running);  // already ended
    gate.release();
    // The partition in flight finishes and is dropped; its memory comes back.
    expect_idle(e);
    auto s = e.status();
    EXPECT_EQ(s.proofs_cancelled, 2u);
    EXPECT_EQ(s.proofs_completed, 0u);
    // Later jobs are unaffected.
    auto after = e.await(e.submit(dense()).job_id);
    ASSERT_TRUE(after);
    expect_verifies(*after);
}

TEST(Engine, ABadProofIsRecomputedOnTheCpuAndNeverReturned) {
    EngineConfig c = cpu_config();
    c.devices = {0};  // one fake "device" that computes wrong MSMs
    c.backend_factory = [](int) { return std::make_unique<TestBackend>(nullptr, true); };
    Engine e(c);
    auto r = e.await(e.submit(dense(64, 2)).job_id);
    ASSERT_TRUE(r);
    expect_verifies(*r);
    EXPECT_EQ(r->cpu_recomputes, 2u);
    EXPECT_EQ(r->backend, "cpu");
    EXPECT_EQ(e.status().cpu_recomputes, 2u);
    EXPECT_NE(e.metrics_prometheus().find("cuzk_cpu_recomputes_total 2"), std::string::npos);
}

TEST(Engine, WithoutVerificationABadProofWouldPassThrough) {
    // The control for the test above: the fake device really does compute bad proofs.
    EngineConfig c = cpu_config();
    c.devices = {0};
    c.verify_proofs = false;
    c.backend_factory = [](int) { return std::make_unique<TestBackend>(nullptr, true); };
    Engine e(c);
    auto r = e.await(e.submit(dense(64, 1)).job_id);
    ASSERT_TRUE(r);
    ASSERT_EQ(r->state, JobState::Completed);
    auto vk = formats::read_vk_from_bytes(r->verifying_key);
    auto proofs = formats::read_proofs_from_bytes(r->proof, 1);
    std::vector<Fr> x;
    for (const auto& s : r->public_inputs[0]) x.push_back(*Fr::from_string(s));
    EXPECT_FALSE(groth16::verify(groth16::PreparedVerifyingKey(vk), proofs[0], x));
}

TEST(Engine, ManyJobsStayInsideATightBudget) {
    EngineConfig c = cpu_config();
    c.witness_workers = 3;
    c.cpu_prove_workers = 2;
    c.witness_queue_bound = 2;
    // Room for the parameters and about two partitions at once (~8.5 MiB each).
    c.memory_budget = 20 << 20;
    Engine e(c);
    std::vector<std::string> ids;
    for (int i = 0; i < 8; ++i) ids.push_back(e.submit(dense(1024, 2, Priority::Normal, 3)).job_id);
    for (const auto& id : ids) {
        auto r = e.await(id, 120s);
        ASSERT_TRUE(r);
        ASSERT_EQ(r->state, JobState::Completed) << r->error;
    }
    // Every proof verifies, also those whose witness went into reused (stale) pool buffers.
    for (const auto& id : ids) expect_verifies(*e.await(id));
    auto s = e.status();
    EXPECT_GT(s.pool_reuses, 0u);
    EXPECT_EQ(s.cpu_recomputes, 0u);
    EXPECT_LE(s.memory_high_water, c.memory_budget);
    EXPECT_EQ(s.proofs_completed, 8u);
    expect_idle(e);
}

TEST(Engine, ParametersAreCachedOnDiskAndEvicted) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("cuzk-engine-test-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    EngineConfig c = cpu_config();
    c.param_cache = dir;
    std::vector<uint8_t> vk1;
    {
        Engine e(c);
        EXPECT_FALSE(e.preload("random-dense-64-2-1").already_loaded);
        EXPECT_TRUE(e.preload("random-dense-64-2-1").already_loaded);
        EXPECT_THROW(e.preload("nonsense-1"), EngineError);
        auto r = e.await(e.submit(dense()).job_id);
        ASSERT_TRUE(r);
        vk1 = r->verifying_key;
        // The last partition's item may still hold the circuit for a moment after await.
        for (int i = 0; i < 200 && e.status().params.at(0).ref_count; ++i) std::this_thread::sleep_for(5ms);
        auto ev = e.evict("random-dense-64-2-1");
        EXPECT_TRUE(ev.was_loaded);
        EXPECT_GT(ev.freed_bytes, 0u);
        EXPECT_FALSE(e.evict("random-dense-64-2-1").was_loaded);
        EXPECT_TRUE(e.status().params.empty());
        expect_idle(e);
    }
    size_t files = 0;
    for (auto& f : fs::directory_iterator(dir)) files += f.path().extension() == ".params";
    EXPECT_EQ(files, 1u);
    std::vector<std::string> lines;
    c.log = [&](int, const std::string& l) { lines.push_back(l); };
    Engine e(c);
    auto r = e.await(e.submit(dense()).job_id);
    ASSERT_TRUE(r);
    expect_verifies(*r);
    EXPECT_EQ(r->verifying_key, vk1);  // read back from the cache, not a new setup
    for (const auto& l : lines) EXPECT_EQ(l.find("event=setup"), std::string::npos) << l;
    e.shutdown();
    fs::remove_all(dir);
}

TEST(Engine, ShutdownDrainsOrCancelsAndThenRefusesWork) {
    {
        Engine e(cpu_config());
        auto a = e.submit(dense(64, 2));
        e.shutdown(true);
        EXPECT_EQ(e.peek(a.job_id).state, JobState::Completed);
        EXPECT_THROW(e.submit(dense()), EngineError);
        EXPECT_FALSE(e.status().accepting);
    }
    Gate gate;
    EngineConfig c = cpu_config();
    c.backend_factory = [&](int) { return std::make_unique<TestBackend>(&gate, false); };
    Engine e(c);
    gate.close();
    auto a = e.submit(dense(64, 2));
    ASSERT_TRUE(gate.wait_for_waiters(1));
    std::thread releaser([&] {
        std::this_thread::sleep_for(50ms);
        gate.release();
    });
    e.shutdown(false);
    releaser.join();
    EXPECT_EQ(e.peek(a.job_id).state, JobState::Cancelled);
    auto s = e.status();
    EXPECT_EQ(s.memory_reserved, params_bytes(s) + s.pooled_bytes);
}

TEST(Engine, MetricsStatusAndTraceDescribeEveryPhase) {
    Engine e(cpu_config());
    auto r = e.await(e.submit(dense(64, 2)).job_id);
    ASSERT_TRUE(r);
    const std::string m = e.metrics_prometheus();
    for (const char* want : {"cuzk_proofs_completed_total 1", "cuzk_memory_budget_bytes",
                             "cuzk_phase_seconds_count{layer=\"groth16\",phase=\"msm_h\"} 2",
                             "cuzk_phase_seconds_count{layer=\"engine\",phase=\"witness\"} 2",
                             "cuzk_phase_seconds_count{layer=\"engine\",phase=\"verify\"} 2",
                             "cuzk_stage_high_water{stage=\"prove\"}", "# TYPE cuzk_phase_seconds histogram"})
        EXPECT_NE(m.find(want), std::string::npos) << want << "\n" << m;
    auto st = nlohmann::json::parse(e.status_json());
    EXPECT_EQ(st["jobs"]["completed"], 1);
    EXPECT_EQ(st["backend"], "cpu");
    EXPECT_EQ(st["queues"].size(), 3u);
    auto tr = nlohmann::json::parse(e.chrome_trace_json());
    std::set<std::string> phases;
    for (auto& ev : tr["traceEvents"])
        if (ev["ph"] == "X") {
            phases.insert(ev["name"].get<std::string>());
            EXPECT_GE(ev["dur"].get<double>(), 0.0);
        }
    for (const char* p : {"queue_wait", "param_load", "witness", "prove", "h", "msm_h", "msm_l", "msm_a", "msm_b_g1",
                          "msm_b_g2", "assemble", "verify", "device_h_msm", "device_msm_z"})
        EXPECT_TRUE(phases.count(p)) << p;
    EXPECT_GE(r->timings.witness, 0);
    EXPECT_GT(r->timings.prove, 0);
    EXPECT_GT(r->timings.verify, 0);
}

namespace {

std::optional<std::chrono::system_clock::time_point> in(std::chrono::milliseconds d) {
    return std::chrono::system_clock::now() + d;
}

// Every JobEvent and every log line, in the order the engine produced them.
struct Observed {
    std::mutex mu;
    std::vector<JobEvent> events;
    std::vector<std::string> lines;
    void attach(EngineConfig& c) {
        c.on_job_event = [this](const JobEvent& e) {
            std::lock_guard<std::mutex> l(mu);
            events.push_back(e);
            lines.push_back(std::string("job_event:") + std::to_string(int(e.type)) + ":" + e.job_id);
        };
        c.log = [this](int, const std::string& line) {
            std::lock_guard<std::mutex> l(mu);
            lines.push_back(line);
        };
    }
    // Index of the first line containing every part, or -1.
    int find(std::initializer_list<std::string> parts) {
        std::lock_guard<std::mutex> l(mu);
        for (size_t i = 0; i < lines.size(); ++i) {
            bool all = true;
            for (const auto& p : parts) all &= lines[i].find(p) != std::string::npos;
            if (all) return int(i);
        }
        return -1;
    }
};

uint64_t job_number(const std::string& id) { return uint64_t(std::stoull(id.substr(id.rfind('-') + 1))); }

}  // namespace

TEST(Engine, WithinAPriorityTheEarlierDeadlineGoesFirst) {
    Gate gate;
    EngineConfig c = cpu_config();
    c.witness_workers = 1;
    c.cpu_prove_workers = 1;
    c.witness_queue_bound = 1;
    c.backend_factory = [&](int) { return std::make_unique<TestBackend>(&gate, false); };
    Engine e(c);
    gate.close();
    auto first = e.submit(dense(64, 3));
    ASSERT_TRUE(gate.wait_for_waiters(1));
    for (int i = 0; i < 400 && e.status().queues[0].pending != 0; ++i) std::this_thread::sleep_for(5ms);
    auto none = e.submit(dense(64, 1));
    auto late = dense(64, 1);
    late.deadline = in(600s);
    auto late_id = e.submit(late);
    auto soon = dense(64, 1);
    soon.deadline = in(300s);
    auto soon_id = e.submit(soon);
    auto high = e.submit(dense(64, 1, Priority::High));  // priority still comes first
    EXPECT_EQ(soon_id.queue_position, 0u);               // ahead of the other NORMAL jobs
    gate.release();
    for (const auto& id : {first.job_id, none.job_id, late_id.job_id, soon_id.job_id, high.job_id}) {
        auto r = e.await(id, 60s);
        ASSERT_TRUE(r);
        EXPECT_EQ(r->state, JobState::Completed) << r->error;
    }
    const uint64_t f = job_number(first.job_id);
    const std::vector<uint64_t> want = {f,
                                        f,
                                        f,
                                        job_number(high.job_id),
                                        job_number(soon_id.job_id),
                                        job_number(late_id.job_id),
                                        job_number(none.job_id)};
    EXPECT_EQ(gate.order, want);
    EXPECT_EQ(e.status().deadline_risks, 0u);
    // A deadline already passed is refused, saying so.
    auto past = dense(64, 1);
    past.deadline = in(-1s);
    const auto [code, why] = refusal(e, past);
    EXPECT_EQ(code, EngineError::Code::InvalidArgument);
    EXPECT_NE(why.find("the deadline has already passed"), std::string::npos) << why;
    expect_idle(e);
}

TEST(Engine, AJobStillQueuedAtItsDeadlineIsReportedAndThenFails) {
    Gate gate;
    Observed seen;
    EngineConfig c = cpu_config();
    c.witness_workers = 1;
    c.cpu_prove_workers = 1;
    c.backend_factory = [&](int) { return std::make_unique<TestBackend>(&gate, false); };
    seen.attach(c);
    Engine e(c);
    gate.close();
    auto blocker = e.submit(dense(64, 1));
    ASSERT_TRUE(gate.wait_for_waiters(1));
    auto spec = dense(64, 2, Priority::Low);
    spec.deadline = in(300ms);
    const auto t0 = std::chrono::steady_clock::now();
    auto late = e.submit(spec);
    auto r = e.await(late.job_id, 30s);
    ASSERT_TRUE(r);
    EXPECT_GE(std::chrono::steady_clock::now() - t0, 290ms);
    EXPECT_EQ(r->state, JobState::Failed);
    EXPECT_TRUE(r->deadline_missed);
    EXPECT_NE(r->error.find("deadline passed with 0 of 2 partitions done"), std::string::npos) << r->error;
    // The risk (event and structured line) comes before the job's end.
    const int risk_line = seen.find({"event=deadline_risk", "job=" + late.job_id, "kind=builtin", "estimate_ms="});
    const int risk_event = seen.find({"job_event:2:" + late.job_id});
    const int end_line = seen.find({"event=job_end", "job=" + late.job_id, "state=FAILED"});
    ASSERT_GE(risk_line, 0);
    ASSERT_GE(risk_event, 0);
    ASSERT_GE(end_line, 0);
    EXPECT_LT(risk_line, end_line);
    EXPECT_LT(risk_event, end_line);
    {
        std::lock_guard<std::mutex> l(seen.mu);
        const JobEvent* ended = nullptr;
        for (const auto& ev : seen.events)
            if (ev.job_id == late.job_id && ev.type == JobEvent::Type::Ended) ended = &ev;
        ASSERT_NE(ended, nullptr);
        EXPECT_TRUE(ended->deadline_missed);
        EXPECT_EQ(ended->kind, "builtin");
    }
    auto s = e.status();
    EXPECT_EQ(s.deadline_risks, 1u);
    EXPECT_EQ(s.deadlines_missed, 1u);
    gate.release();
    auto b = e.await(blocker.job_id, 60s);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->state, JobState::Completed);
    expect_idle(e);
}

TEST(Engine, DeadlineRiskIsRaisedFromTheEstimateBeforeTheDeadlinePasses) {
    Gate gate;
    Observed seen;
    EngineConfig c = cpu_config();
    c.witness_workers = 1;
    c.cpu_prove_workers = 1;
    c.backend_factory = [&](int) { return std::make_unique<TestBackend>(&gate, false); };
    seen.attach(c);
    Engine e(c);
    // A first job of the circuit whose partition takes >= 600 ms (held at the gate): the
    // estimate for the next one of that circuit is at least that.
    gate.close();
    auto warm = e.submit(dense(64, 1));
    ASSERT_TRUE(gate.wait_for_waiters(1));
    std::this_thread::sleep_for(600ms);
    gate.release();
    ASSERT_EQ(e.await(warm.job_id, 60s)->state, JobState::Completed);
    // The next one is held too, with a deadline 2 s away: at risk ~0.6 s before it.
    gate.close();
    auto spec = dense(64, 1);
    spec.deadline = in(2000ms);
    auto job = e.submit(spec);
    ASSERT_TRUE(gate.wait_for_waiters(1));
    int risk = -1;
    for (int i = 0; i < 400 && (risk = seen.find({"job_event:2:" + job.job_id})) < 0; ++i)
        std::this_thread::sleep_for(10ms);
    ASSERT_GE(risk, 0);
    EXPECT_EQ(e.peek(job.job_id).state, JobState::Running);  // reported, not yet failed
    {
        std::lock_guard<std::mutex> l(seen.mu);
        for (const auto& ev : seen.events)
            if (ev.job_id == job.job_id && ev.type == JobEvent::Type::DeadlineRisk) {
                EXPECT_GT(ev.deadline_in_ms, 0);
                EXPECT_GE(ev.estimate_ms, 590);
                EXPECT_GE(ev.estimate_ms + 150, ev.deadline_in_ms);
            }
    }
    // The job lists as at risk.
    bool listed = false;
    for (const auto& j : e.jobs())
        if (j.job_id == job.job_id) {
            listed = true;
            EXPECT_TRUE(j.deadline_at_risk);
            EXPECT_TRUE(j.deadline.has_value());
        }
    EXPECT_TRUE(listed);
    gate.release();
    auto r = e.await(job.job_id, 60s);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->state, JobState::Completed) << r->error;  // it made it after all
    EXPECT_EQ(e.status().deadline_risks, 1u);
    EXPECT_EQ(e.status().deadlines_missed, 0u);
}

TEST(Engine, JobsListsEveryJobAndSpansCarryItsNumber) {
    Observed seen;
    EngineConfig c = cpu_config();
    seen.attach(c);
    Engine e(c);
    auto a = e.submit(dense(64, 2));
    ASSERT_EQ(e.await(a.job_id, 60s)->state, JobState::Completed);
    auto jobs = e.jobs();
    ASSERT_EQ(jobs.size(), 1u);
    EXPECT_EQ(jobs[0].job_id, a.job_id);
    EXPECT_EQ(jobs[0].kind, "builtin");
    EXPECT_EQ(jobs[0].state, JobState::Completed);
    EXPECT_EQ(jobs[0].partitions_done, 2u);
    EXPECT_GT(jobs[0].timings.total, 0);
    std::set<std::string> phases;
    for (const auto& s : e.spans())
        if (s.job == jobs[0].number) phases.insert(s.name);
    for (const char* p : {"queue_wait", "witness", "prove", "verify"}) EXPECT_TRUE(phases.count(p)) << p;
    // Started then Ended, once each.
    EXPECT_LT(seen.find({"job_event:0:" + a.job_id}), seen.find({"job_event:1:" + a.job_id}));
}
