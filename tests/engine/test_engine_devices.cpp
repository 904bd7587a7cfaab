// The engine over several prove devices: placement of partitions (spread over idle
// devices, kept with the device that holds a circuit's parameters), no proof mixing two
// devices, release of resident bases when parameters are evicted, per-device status.
// On the CPU the "devices" are CPU backends made by a test factory; the GPU tests run two
// logical devices on one GPU, and every GPU of the host when there are two or more
// (skipped otherwise).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "cuzk/backend/backend.hpp"
#include "cuzk/common/trace.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/gpu/device.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "support/engine_checks.hpp"

using namespace cuzk;
using namespace cuzk::engine;
using namespace std::chrono_literals;

namespace {

using test::expect_verifies;

JobSpec dense(uint64_t constraints, uint32_t partitions, uint64_t seed = 1) {
    return test::dense(constraints, partitions, Priority::Normal, seed);
}

// What every fake device saw: the device each stage of each (job, partition) ran on,
// and the base addresses released.
struct Record {
    std::mutex mu;
    std::map<std::pair<uint64_t, uint32_t>, std::set<int>> stage_devices;
    std::map<int, std::set<const void*>> released;
    // Stages wait here while `held` (so that placement sees work pile up).
    std::condition_variable cv;
    bool held = false;
    void hold(bool h) {
        {
            std::lock_guard<std::mutex> l(mu);
            held = h;
        }
        cv.notify_all();
    }
};

class RecordingBackend final : public groth16::ProverBackend {
 public:
    RecordingBackend(int device, Record* rec, std::unique_ptr<groth16::ProverBackend> inner)
        : device_(device), rec_(rec), inner_(std::move(inner)) {}
    std::string name() const override { return "fake:" + std::to_string(device_); }
    r1cs::WitnessVector compute_h(r1cs::WitnessVector& a, r1cs::WitnessVector& b, r1cs::WitnessVector& c) override {
        {
            std::unique_lock<std::mutex> l(rec_->mu);
            rec_->cv.wait(l, [&] { return !rec_->held; });
        }
        note();
        return inner_->compute_h(a, b, c);
    }
    G1Jacobian msm_g1(groth16::G1Query q, std::span<const G1Affine> bases, std::span<const Fr> s,
                      const uint64_t* d) override {
        note();
        return inner_->msm_g1(q, bases, s, d);
    }
    G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> s, const uint64_t* d) override {
        note();
        return inner_->msm_g2(bases, s, d);
    }
    void release(const void* bases) override {
        std::lock_guard<std::mutex> l(rec_->mu);
        rec_->released[device_].insert(bases);
        inner_->release(bases);
    }

 private:
    void note() {
        const auto ctx = trace::current();
        std::lock_guard<std::mutex> l(rec_->mu);
        rec_->stage_devices[{ctx.job, ctx.partition}].insert(device_);
        // The engine's context names the device of the worker running the stage.
        EXPECT_EQ(ctx.device, device_);
    }
    int device_;
    Record* rec_;
    std::unique_ptr<groth16::ProverBackend> inner_;
};

EngineConfig two_fake_devices(Record& rec) {
    EngineConfig c;
    c.memory_budget = uint64_t(2) << 30;
    c.log = [](int, const std::string&) {};
    c.devices = {0, 1};
    c.prove_workers_per_device = 1;
    c.witness_workers = 2;
    c.witness_queue_bound = 8;
    c.backend_factory = [&rec](int d) {
        return std::make_unique<RecordingBackend>(d, &rec, groth16::make_cpu_backend());
    };
    return c;
}

// Waits until `n` partitions are placed on the devices (witnesses done, stages held).
bool wait_placed(Engine& e, uint32_t n) {
    for (int i = 0; i < 2000; ++i) {
        uint32_t placed = 0;
        for (const auto& d : e.status().devices) placed += d.placed;
        if (placed >= n) return true;
        std::this_thread::sleep_for(5ms);
    }
    return false;
}

std::map<int, int> count_devices(const JobResult& r) {
    std::map<int, int> n;
    for (int d : r.partition_devices) ++n[d];
    return n;
}

}  // namespace

TEST(EngineDevices, AJobSpreadsOverIdleDevicesAndNoProofMixesThem) {
    Record rec;
    auto cfg = two_fake_devices(rec);
    Engine e(cfg);
    e.preload(Engine::circuit_id(dense(64, 10)));
    rec.hold(true);
    auto id = e.submit(dense(64, 10)).job_id;
    ASSERT_TRUE(wait_placed(e, 10));
    rec.hold(false);
    auto r = e.await(id);
    ASSERT_TRUE(r);
    expect_verifies(*r);
    ASSERT_EQ(r->partition_devices.size(), 10u);
    auto n = count_devices(*r);
    // Placement cost 2 for a device without the parameters: the first three go to device
    // 0, then the load balances (5 and 5 when all ten are placed before any is proven).
    EXPECT_GE(n[0], 3) << "device 0";
    EXPECT_GE(n[1], 3) << "device 1";
    EXPECT_EQ(n[0] + n[1], 10);
    {
        std::lock_guard<std::mutex> l(rec.mu);
        ASSERT_EQ(rec.stage_devices.size(), 10u);
        for (const auto& [key, devices] : rec.stage_devices) {
            EXPECT_EQ(devices.size(), 1u)
                << "partition " << key.second << " ran stages on " << devices.size() << " devices";
            EXPECT_EQ(*devices.begin(), r->partition_devices.at(key.second)) << "partition " << key.second;
        }
    }
    auto s = e.status();
    ASSERT_EQ(s.devices.size(), 2u);
    EXPECT_EQ(s.devices[0].partitions_proven + s.devices[1].partitions_proven, 10u);
    EXPECT_EQ(s.devices[0].partitions_proven, uint64_t(n[0]));
    for (const auto& d : s.devices) {
        EXPECT_EQ(d.placed, 0u);
        EXPECT_EQ(d.circuits, std::vector<std::string>{Engine::circuit_id(dense(64, 10))});
    }
    const auto m = e.metrics_prometheus();
    EXPECT_NE(m.find("cuzk_device_partitions_total{device=\"1\"} " + std::to_string(n[1])), std::string::npos) << m;
    const auto j = e.status_json();
    EXPECT_NE(j.find("\"partitions_proven\""), std::string::npos);
    // Fake (host) backends hold no base sets: zeros, present all the same.
    EXPECT_NE(j.find("\"base_bytes_resident\":0"), std::string::npos) << j;
    EXPECT_NE(m.find("cuzk_device_base_bytes{device=\"0\",state=\"streamed\"} 0"), std::string::npos) << m;
    EXPECT_NE(j.find("\"twiddles_lent_bytes\":0"), std::string::npos) << j;
    EXPECT_NE(m.find("cuzk_device_twiddles_lent_bytes{device=\"1\"} 0"), std::string::npos) << m;
}

TEST(EngineDevices, PartitionsStayWithTheDeviceHoldingTheirParameters) {
    Record rec;
    auto cfg = two_fake_devices(rec);
    cfg.placement_upload_cost = 100;  // never worth moving a circuit in this test
    Engine e(cfg);
    const auto a = dense(64, 4, 1), b = dense(64, 4, 2);  // two shapes (seed)
    ASSERT_NE(Engine::circuit_id(a), Engine::circuit_id(b));
    e.preload(Engine::circuit_id(a));
    e.preload(Engine::circuit_id(b));
    rec.hold(true);
    auto ja = e.submit(a).job_id;
    ASSERT_TRUE(wait_placed(e, 4));
    auto jb = e.submit(b).job_id;
    ASSERT_TRUE(wait_placed(e, 8));
    rec.hold(false);
    auto ra = e.await(ja), rb = e.await(jb);
    ASSERT_TRUE(ra && rb);
    expect_verifies(*ra);
    expect_verifies(*rb);
    auto na = count_devices(*ra), nb = count_devices(*rb);
    EXPECT_EQ(na[0], 4) << "circuit a stays on device 0";
    EXPECT_EQ(nb[1], 4) << "circuit b goes to the device without a circuit, then stays";

    // A later job of b lands on device 1 again even with device 0 idle.
    auto rb2 = e.await(e.submit(dense(64, 3, 2)).job_id);
    ASSERT_TRUE(rb2);
    EXPECT_EQ(count_devices(*rb2)[1], 3);
}

TEST(EngineDevices, EvictedParametersAreReleasedOnEveryDevice) {
    Record rec;
    Engine e(two_fake_devices(rec));
    const auto spec = dense(64, 4);
    auto r = e.await(e.submit(spec).job_id);
    ASSERT_TRUE(r);
    expect_verifies(*r);
    const auto id = Engine::circuit_id(spec);
    for (int i = 0; i < 200 && e.status().params.at(0).ref_count; ++i) std::this_thread::sleep_for(5ms);
    ASSERT_TRUE(e.evict(id).was_loaded);
    std::lock_guard<std::mutex> l(rec.mu);
    // h, l, a, b_g1 and b_g2 of the evicted circuit, on both devices.
    EXPECT_EQ(rec.released[0].size(), 5u);
    EXPECT_EQ(rec.released[1], rec.released[0]);
    for (const auto& d : e.status().devices) EXPECT_TRUE(d.circuits.empty()) << "device " << d.ordinal;
}

TEST(EngineDevices, PlacementByLoadAloneBalancesEveryJob) {
    Record rec;
    auto cfg = two_fake_devices(rec);
    cfg.placement_upload_cost = 0;
    Engine e(cfg);
    e.preload(Engine::circuit_id(dense(64, 6)));
    rec.hold(true);
    auto id = e.submit(dense(64, 6)).job_id;
    ASSERT_TRUE(wait_placed(e, 6));
    rec.hold(false);
    auto r = e.await(id);
    ASSERT_TRUE(r);
    expect_verifies(*r);
    auto n = count_devices(*r);
    EXPECT_EQ(n[0], 3);
    EXPECT_EQ(n[1], 3);
}

// Two logical devices sharing the one GPU (two CUDA backends, each with its own resident
// bases): every proof verifies and both take partitions.
TEST(EngineGpuDevices, TwoLogicalDevicesOnOneGpu) {
    std::string why;
    if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why;
    EngineConfig c;
    c.memory_budget = uint64_t(4) << 30;
    c.log = [](int, const std::string&) {};
    c.devices = {0, 1};
    c.prove_workers_per_device = 1;
    c.witness_workers = 4;
    c.backend_factory = [](int) { return gpu::make_cuda_backend(0); };
    Engine e(c);
    auto spec = dense(4096, 10);
    auto r = e.await(e.submit(spec).job_id);
    ASSERT_TRUE(r);
    expect_verifies(*r);
    auto n = count_devices(*r);
    EXPECT_EQ(n[0] + n[1], 10);
    EXPECT_GE(n[1], 1) << "the second logical device took no partition";
    EXPECT_EQ(r->cpu_recomputes, 0u);
    // Each device's backend keeps the parameters' five base sets resident (the GPU has room
    // for them): status and metrics say so, and nothing streams.
    for (const auto& d : e.status().devices) {
        EXPECT_EQ(d.base_sets_streamed, 0u) << "device " << d.ordinal;
        EXPECT_EQ(d.base_bytes_streamed, 0u) << "device " << d.ordinal;
        if (n[d.ordinal] > 0) {
            // At least the five sets' bases (H: 4095 G1 points of 96 B on the device alone).
            EXPECT_GE(d.base_bytes_resident, 4095u * 96u) << "device " << d.ordinal;
            EXPECT_EQ(d.base_sets_resident, 5u) << "device " << d.ordinal;
            EXPECT_EQ(d.h_step_vectors, 3u) << "device " << d.ordinal << ": room for a, b, c";
            EXPECT_EQ(d.twiddles_lent_bytes, 0u) << "device " << d.ordinal << ": the whole card keeps them";
        }
    }
    const auto m = e.metrics_prometheus();
    EXPECT_NE(m.find("cuzk_device_base_sets{device=\"1\",state=\"resident\"} 5"), std::string::npos) << m;
    EXPECT_NE(m.find("cuzk_device_h_step_vectors{device=\"1\"} 3"), std::string::npos) << m;
    EXPECT_NE(e.status_json().find("\"base_sets_streamed\":0"), std::string::npos);
    EXPECT_NE(e.status_json().find("\"base_bytes_streamed\":0"), std::string::npos);
    EXPECT_NE(m.find("cuzk_device_base_bytes{device=\"1\",state=\"streamed\"} 0"), std::string::npos) << m;
    EXPECT_NE(e.status_json().find("\"h_step_vectors\":3"), std::string::npos);
}

// The CUDA backend behind a gate: the first h_msm waits until the test opens it (so that
// the other partitions' witnesses queue up first); counts the copies ahead the engine
// starts and the h_msm calls that get one.
struct Gate {
    std::mutex mu;
    std::condition_variable cv;
    bool open = false;
    std::atomic<int> started{0}, given{0};    // copies ahead started; h_msm calls given one
    groth16::ProverBackend* inner = nullptr;  // the CUDA backend: its copy_ahead_stats
};
class GatedCuda final : public groth16::ProverBackend {
 public:
    explicit GatedCuda(Gate* g) : gate_(g), inner_(gpu::make_cuda_backend(0)) { g->inner = inner_.get(); }
    std::string name() const override { return inner_->name(); }
    r1cs::WitnessVector compute_h(r1cs::WitnessVector& a, r1cs::WitnessVector& b, r1cs::WitnessVector& c) override {
        return inner_->compute_h(a, b, c);
    }
    G1Jacobian msm_g1(groth16::G1Query q, std::span<const G1Affine> bases, std::span<const Fr> s,
                      const uint64_t* d) override {
        return inner_->msm_g1(q, bases, s, d);
    }
    G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> s, const uint64_t* d) override {
        return inner_->msm_g2(bases, s, d);
    }
    void release(const void* bases) override { inner_->release(bases); }
    G1Jacobian h_msm(r1cs::WitnessVector& a, r1cs::WitnessVector& b, r1cs::WitnessVector& c,
                     std::span<const G1Affine> h_bases, groth16::ZInputs z, const groth16::AbcAhead* ahead) override {
        {
            std::unique_lock<std::mutex> l(gate_->mu);
            gate_->cv.wait(l, [&] { return gate_->open; });
        }
        if (ahead) ++gate_->given;
        return inner_->h_msm(a, b, c, h_bases, z, ahead);
    }
    groth16::ZSums msm_z(std::span<const Fr> inputs, std::span<const Fr> aux, std::span<const G1Affine> l,
                         std::span<const G1Affine> a, std::span<const G1Affine> b1, std::span<const G2Affine> b2,
                         const uint64_t* ad, const uint64_t* bd) override {
        return inner_->msm_z(inputs, aux, l, a, b1, b2, ad, bd);
    }
    std::shared_ptr<groth16::AbcAhead> copy_abc_ahead(std::span<const Fr> a, std::span<const Fr> b,
                                                      std::span<const Fr> c) override {
        auto h = inner_->copy_abc_ahead(a, b, c);
        if (h) ++gate_->started;
        return h;
    }

 private:
    Gate* gate_;
    std::unique_ptr<groth16::ProverBackend> inner_;
};

// With the next partitions' witnesses queued for the device, each proof starts the copy of
// the next one's a and c once its H is done, the next proof's h_msm starts on them, and
// every proof verifies with no CPU recompute. The pool page-locks buffers as they come back
// (from 1 MiB: a, b, c of a 2^16 domain are 2 MiB), so a first job fills it and the second
// one's witnesses, queued behind a gate, are in page-locked memory.
TEST(EngineGpuDevices, QueuedPartitionsHaveTheirInputsCopiedAhead) {
    std::string why;
    if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why;
    Gate gate;
    gate.open = true;
    EngineConfig c;
    c.memory_budget = uint64_t(4) << 30;
    c.log = [](int, const std::string&) {};
    c.devices = {0};
    c.prove_workers_per_device = 1;
    c.witness_workers = 4;
    c.witness_queue_bound = 8;
    c.backend_factory = [&gate](int) { return std::make_unique<GatedCuda>(&gate); };
    Engine e(c);
    constexpr uint32_t kParts = 6;
    const JobSpec spec = dense(40000, kParts);
    auto first = e.await(e.submit(spec).job_id);
    ASSERT_TRUE(first);
    expect_verifies(*first);
    {
        std::lock_guard<std::mutex> l(gate.mu);
        gate.open = false;
    }
    const int started0 = gate.started.load(), given0 = gate.given.load();
    const size_t used0 = gpu::copy_ahead_stats(*gate.inner).abc;
    const auto id = e.submit(spec).job_id;
    // The first partition waits at the gate; the others' witnesses queue for the device.
    const auto deadline = std::chrono::steady_clock::now() + 120s;
    for (;;) {
        uint32_t pending = 0;
        for (const auto& q : e.status().queues)
            if (q.name == "prove") pending = q.pending;
        if (pending >= kParts - 1) break;
        ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "the witnesses never queued up";
        std::this_thread::sleep_for(10ms);
    }
    {
        std::lock_guard<std::mutex> l(gate.mu);
        gate.open = true;
    }
    gate.cv.notify_all();
    auto r = e.await(id);
    ASSERT_TRUE(r);
    expect_verifies(*r);
    EXPECT_EQ(r->cpu_recomputes, 0u);
    EXPECT_EQ(gate.started.load() - started0, int(kParts) - 1);
    EXPECT_EQ(gate.given.load() - given0, int(kParts) - 1);
    EXPECT_EQ(gpu::copy_ahead_stats(*gate.inner).abc - used0, kParts - 1) << "handles given but not used";
    EXPECT_EQ(e.status().devices.size(), 1u);
}

// Every GPU of the host (two or more): a 10-partition job spreads over them.
TEST(EngineGpuDevices, AJobSpreadsOverEveryGpu) {
    std::string why;
    const int n_gpus = gpu::device_count(&why);
    if (n_gpus < 2) GTEST_SKIP() << "needs two GPUs, found " << n_gpus << (why.empty() ? "" : ": " + why);
    EngineConfig c;
    c.backend = "cuda";
    c.memory_budget = uint64_t(8) << 30;
    c.log = [](int, const std::string&) {};
    c.witness_workers = 8;
    Engine e(c);
    ASSERT_EQ(e.status().devices.size(), size_t(n_gpus));
    JobSpec spec;
    spec.circuit = "sha256-chain";
    spec.size = 4;
    spec.partitions = 10;
    auto r = e.await(e.submit(spec).job_id);
    ASSERT_TRUE(r);
    expect_verifies(*r);
    std::set<int> used(r->partition_devices.begin(), r->partition_devices.end());
    EXPECT_GE(used.size(), 2u) << "all 10 partitions on one GPU";
    EXPECT_EQ(used.count(-1), 0u) << "a partition was recomputed on the CPU";
}
