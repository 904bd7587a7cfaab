// The proving engine (see include/cuzk/engine/engine.hpp for the pipeline).
//
// Threads: `witness_workers` take work items from the scheduler (priority, job age,
// partition), get the circuit's parameters, reserve the item's memory and synthesize the
// witness; `prove_workers_per_device` per GPU (or `cpu_prove_workers`) take synthesized
// items from a bounded queue and prove them; one finalizer verifies each proof,
// recomputes a bad one on the CPU, and assembles the job's result.
//
// Lock order: Impl::mu_ (jobs, scheduler) is never held while calling into the budget,
// the pool, the parameter manager, a queue or a backend.
#include "cuzk/engine/engine.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <limits>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <thread>

#include "cuzk/backend/backend.hpp"
#include "cuzk/common/echo.hpp"
#include "cuzk/common/trace.hpp"
#include "cuzk/engine/memory.hpp"
#include "cuzk/engine/params.hpp"
#include "cuzk/engine/queue.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/gpu/device.hpp"
#include "cuzk/gpu/host_memory.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::engine {
namespace {

using Clock = std::chrono::steady_clock;
double ms_between(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}
double ms_since(Clock::time_point t0) { return ms_between(t0, Clock::now()); }

bool terminal(JobState s) { return s == JobState::Completed || s == JobState::Failed || s == JobState::Cancelled; }

// How long a submit waits for room in the budget to read its request (Kind::prepare_bytes).
constexpr std::chrono::seconds kPrepareMemoryWait{10};

uint64_t system_memory() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : uint64_t(8) << 30;
}

// Aggregates every closed span into per-phase histograms (for /metrics), keeps it for the
// Chrome trace, and optionally logs it.
class Metrics final : public trace::Sink {
 public:
    static constexpr double kBuckets[] = {0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60};
    static constexpr size_t kNumBuckets = sizeof(kBuckets) / sizeof(kBuckets[0]);
    struct Hist {
        uint64_t count = 0;
        double sum = 0;
        uint64_t buckets[kNumBuckets] = {};
    };

    Metrics(size_t capacity, Clock::time_point origin, std::function<void(const trace::Event&)> log)
        : recorder_(capacity, origin), log_(std::move(log)) {}

    void record(const trace::Event& e) override {
        recorder_.record(e);
        const double s = e.ms() / 1000;
        {
            std::lock_guard<std::mutex> lock(mu_);
            Hist& h = hist_[{e.layer, e.name}];
            ++h.count;
            h.sum += s;
            for (size_t i = 0; i < kNumBuckets; ++i)
                if (s <= kBuckets[i]) ++h.buckets[i];
        }
        if (log_) log_(e);
    }
    std::map<std::pair<std::string, std::string>, Hist> snapshot() const {
        std::lock_guard<std::mutex> lock(mu_);
        return hist_;
    }
    const trace::Recorder& recorder() const { return recorder_; }

 private:
    trace::Recorder recorder_;
    std::function<void(const trace::Event&)> log_;
    mutable std::mutex mu_;
    std::map<std::pair<std::string, std::string>, Hist> hist_;
};

// One prove target: a GPU (with the lock that serializes its stages between the
// workers sharing it) or the CPU.
struct DeviceSlot {
    size_t index = 0;  // in Impl::slots and Impl::prove_qs
    int ordinal = -1;
    std::string name;
    std::unique_ptr<groth16::ProverBackend> backend;
    std::mutex mu;  // held for each stage on a GPU
    std::atomic<double> busy_ms{0};
    unsigned workers = 0;
    // Guarded by Impl::mu_:
    std::string current_job, current_kind;
    // Circuits whose parameters this device holds or will hold (a partition of it was
    // placed here), most recent last; and the partitions placed here and not yet proven.
    std::vector<std::string> circuits;
    uint32_t load = 0;
    uint64_t proven = 0;
};

// Serializes a shared device backend's stages and measures the time the device spends in
// them (a stage from lock to return: the device's busy time, host-side set-up included).
class SlotBackend final : public groth16::ProverBackend {
 public:
    explicit SlotBackend(DeviceSlot& slot) : slot_(slot) {}

 private:
    template <class F>
    auto run(const char* stage, F&& f) {
        std::unique_lock<std::mutex> lock(slot_.mu, std::defer_lock);
        if (slot_.ordinal >= 0) lock.lock();
        auto t0 = Clock::now();
        trace::Span span(stage, slot_.ordinal >= 0 ? "gpu" : "cpu");
        auto r = f();
        span.end();
        double prev = slot_.busy_ms.load();
        while (!slot_.busy_ms.compare_exchange_weak(prev, prev + ms_since(t0))) {
        }
        return r;
    }

 public:
    std::string name() const override { return slot_.backend->name(); }
    r1cs::WitnessVector compute_h(r1cs::WitnessVector& a, r1cs::WitnessVector& b, r1cs::WitnessVector& c) override {
        return run("device_h", [&] { return slot_.backend->compute_h(a, b, c); });
    }
    G1Jacobian msm_g1(groth16::G1Query q, std::span<const G1Affine> bases, std::span<const Fr> scalars,
                      const uint64_t* density) override {
        return run("device_msm_g1", [&] { return slot_.backend->msm_g1(q, bases, scalars, density); });
    }
    G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars, const uint64_t* density) override {
        return run("device_msm_g2", [&] { return slot_.backend->msm_g2(bases, scalars, density); });
    }
    void release(const void* bases) override { slot_.backend->release(bases); }
    // The fused stages the prover calls (H and its MSM; L and the three sums over z).
    G1Jacobian h_msm(r1cs::WitnessVector& a, r1cs::WitnessVector& b, r1cs::WitnessVector& c,
                     std::span<const G1Affine> h_bases, groth16::ZInputs next_z,
                     const groth16::AbcAhead* abc_ahead) override {
        return run("device_h_msm", [&] { return slot_.backend->h_msm(a, b, c, h_bases, next_z, abc_ahead); });
    }
    // Not a device stage (it only enqueues copies): no slot lock, no busy time.
    std::shared_ptr<groth16::AbcAhead> copy_abc_ahead(std::span<const Fr> a, std::span<const Fr> b,
                                                      std::span<const Fr> c) override {
        return slot_.backend->copy_abc_ahead(a, b, c);
    }
    groth16::ZSums msm_z(std::span<const Fr> inputs, std::span<const Fr> aux, std::span<const G1Affine> l_bases,
                         std::span<const G1Affine> a_bases, std::span<const G1Affine> b_g1_bases,
                         std::span<const G2Affine> b_g2_bases, const uint64_t* a_density,
                         const uint64_t* b_density) override {
        return run("device_msm_z", [&] {
            return slot_.backend->msm_z(inputs, aux, l_bases, a_bases, b_g1_bases, b_g2_bases, a_density, b_density);
        });
    }

 private:
    DeviceSlot& slot_;
};

}  // namespace

const char* priority_name(Priority p) {
    switch (p) {
        case Priority::Unspecified:
            return "UNSPECIFIED";
        case Priority::Low:
            return "LOW";
        case Priority::Normal:
            return "NORMAL";
        case Priority::High:
            return "HIGH";
        case Priority::Critical:
            return "CRITICAL";
    }
    return "?";
}

std::optional<Priority> parse_priority(const std::string& s) {
    std::string l;
    for (char c : s) l += char(std::tolower(static_cast<unsigned char>(c)));
    if (l == "low") return Priority::Low;
    if (l == "normal") return Priority::Normal;
    if (l == "high") return Priority::High;
    if (l == "critical") return Priority::Critical;
    return std::nullopt;
}

const char* job_state_name(JobState s) {
    switch (s) {
        case JobState::Queued:
            return "QUEUED";
        case JobState::Running:
            return "RUNNING";
        case JobState::Completed:
            return "COMPLETED";
        case JobState::Failed:
            return "FAILED";
        case JobState::Cancelled:
            return "CANCELLED";
    }
    return "?";
}

struct Job {
    uint64_t num = 0;
    std::string id;
    std::array<uint8_t, 32> digest{};  // request_digest() of what was submitted
    JobSpec spec;                      // its c1_json is dropped once prepared into work
    CircuitKey key;
    // What the kind's validated request holds (a PoRep's parsed C1), reserved in the budget;
    // declared before `work` so that it is released after the work is freed.
    Reservation work_mem;
    std::shared_ptr<const kinds::Work> work;  // the kind's validated request: its partitions
    Clock::time_point submitted, ended;
    std::chrono::system_clock::time_point submitted_wall;
    // The deadline on the engine's clock, and its place in the scheduler's order (its
    // nanoseconds; the largest value when there is none, so such jobs go last).
    std::optional<Clock::time_point> deadline;
    int64_t deadline_order = std::numeric_limits<int64_t>::max();
    bool deadline_risk = false, deadline_missed = false;
    JobState state = JobState::Queued;
    bool started = false;
    std::string error;
    // Per partition, as the answer carries them: the proof's bytes and the public inputs
    // (decimal, ONE excluded); a shape with its own keys adds its documents.
    std::vector<std::vector<uint8_t>> proofs;
    std::vector<std::vector<std::string>> inputs;
    std::vector<kinds::Work::Documents> partition_documents;
    std::vector<int> devices;  // per partition: the ordinal that proved it (-1 CPU)
    uint32_t done = 0, in_flight = 0, recomputes = 0;
    std::atomic<bool> stop{false};  // failed or cancelled: drop its items wherever they are
    JobTimings timings;
    std::string backend;
    std::vector<uint8_t> vk_bytes;
};

namespace {
struct Item {
    std::shared_ptr<Job> job;
    uint32_t partition = 0;
    std::shared_ptr<const LoadedCircuit> circuit;
    Reservation mem;
    groth16::Witness witness;
    std::vector<Fr> public_inputs;
    groth16::Proof proof;
    kinds::Work::OwnProof own;  // the proof of a shape with its own keys (Shape::own_keys)
    std::string backend;
    double prove_ms = 0;
    size_t slot = 0;  // the prove target it was placed on
    // Its a, b, c on their way to the device, started by the proof before it on the same
    // device (ProverBackend::copy_abc_ahead). After `witness`: dropped first, it waits for
    // its copies before the witness's storage can go.
    std::shared_ptr<groth16::AbcAhead> abc_ahead;
};

// SHA-256 of everything a submission asks for but its request_id: a retry with the same
// request_id must ask for the same thing. Each field is length-prefixed.
std::array<uint8_t, 32> request_digest(const JobSpec& s, Priority priority) {
    Sha256 h;
    auto put = [&](std::string_view v) {
        const uint64_t n = v.size();
        h.update({reinterpret_cast<const uint8_t*>(&n), sizeof n});
        h.update({reinterpret_cast<const uint8_t*>(v.data()), v.size()});
    };
    auto num = [&](uint64_t v) { put(std::to_string(v)); };
    put(s.kind);
    put(s.circuit);
    num(s.size);
    num(s.inputs);
    num(s.seed);
    num(s.partitions);
    put(s.c1_json);
    put(s.registered_proof);
    num(s.sector_size);
    num(s.vanilla_proofs.size());
    for (const auto& v : s.vanilla_proofs) put({reinterpret_cast<const char*>(v.data()), v.size()});
    put({reinterpret_cast<const char*>(s.randomness.data()), s.randomness.size()});
    num(s.miner_id);
    num(s.partition_index);
    for (const auto* c : {&s.comm_r_old, &s.comm_r_new, &s.comm_d_new})
        put({reinterpret_cast<const char*>(c->data()), c->size()});
    num(s.update_h);
    put(s.zkey);
    put({reinterpret_cast<const char*>(s.wtns.data()), s.wtns.size()});
    num(uint64_t(priority));
    put(s.deadline ? std::to_string(
                         std::chrono::duration_cast<std::chrono::milliseconds>(s.deadline->time_since_epoch()).count())
                   : std::string("none"));
    return h.final();
}

// A job id prefix no other engine run is likely to use (48 random bits), so that an id
// from before a restart is unknown to this run rather than naming another job.
std::string job_id_prefix() {
    std::random_device rd;
    const uint64_t nonce = (uint64_t(rd()) << 16 ^ uint64_t(rd())) & 0xffffffffffffull;
    char buf[24];
    std::snprintf(buf, sizeof buf, "job-%012llx-", (unsigned long long)nonce);
    return buf;
}

EngineError engine_error(const kinds::KindError& e) {
    using K = kinds::KindError::Code;
    using Code = EngineError::Code;
    switch (e.code()) {
        case K::NotImplemented:
            return EngineError(Code::NotImplemented, e.what());
        case K::NotFound:
            return EngineError(Code::NotFound, e.what());
        case K::InvalidArgument:
            break;
    }
    return EngineError(Code::InvalidArgument, e.what());
}

// The scheduler's order: priority, then deadline (earliest first, none last), then job
// age, then partition.
struct PendingKey {
    int neg_priority;
    int64_t deadline;
    uint64_t job;
    uint32_t partition;
    friend auto operator<=>(const PendingKey&, const PendingKey&) = default;
};
PendingKey pending_key(const Job& job, uint32_t partition) {
    return {-int(job.spec.priority), job.deadline_order, job.num, partition};
}
}  // namespace

struct Engine::Impl {
    explicit Impl(EngineConfig c);
    ~Impl() { shutdown(std::nullopt); }

    // --- configuration and shared state ---
    EngineConfig cfg;
    Clock::time_point started = Clock::now();
    std::function<void(int, const std::string&)> log;
    Metrics metrics;
    MemoryBudget budget;
    BufferPool pool;
    ParamManager params;
    std::shared_ptr<const kinds::Registry> registry;
    // One prove queue per prove target (slot): a partition is placed on a device when its
    // witness is ready (place_locked) and only that device's workers take it.
    std::vector<std::unique_ptr<BoundedQueue<Item>>> prove_qs;
    BoundedQueue<Item> fin_q;
    std::vector<std::unique_ptr<DeviceSlot>> slots;
    std::string backend_desc;

    mutable std::mutex mu_;
    std::condition_variable cv_pending_, cv_done_;
    std::map<std::string, std::shared_ptr<Job>> jobs_;
    std::map<uint64_t, std::shared_ptr<Job>> by_num_;
    std::map<std::string, std::string> by_request_;
    std::deque<std::string> ended_;
    std::set<PendingKey> pending_;
    uint64_t next_job_ = 1;
    const std::string job_prefix_ = job_id_prefix();
    bool accepting_ = true, stopping_ = false, shut_down_ = false;
    std::atomic<bool> abort_{false};  // give up on every wait (shutdown without drain)
    uint64_t completed_ = 0, failed_ = 0, cancelled_ = 0, recomputes_ = 0;
    uint64_t deadline_risks_ = 0, deadlines_missed_ = 0;
    // Jobs with a deadline that have not ended (by number), watched by deadline_loop.
    std::set<uint64_t> deadline_jobs_;
    std::condition_variable cv_deadline_;
    // Per circuit id: the summed witness + prove + verify time and the partitions of its
    // completed jobs, for the time a job still needs (deadline_estimate_locked).
    std::map<std::string, std::pair<double, uint64_t>> partition_ms_;
    uint32_t witness_busy_ = 0, prove_busy_ = 0, finalize_busy_ = 0;
    double proof_seconds_sum_ = 0;
    std::mutex shutdown_mu_;

    std::vector<std::thread> witness_threads, prove_threads;
    std::thread finalizer, deadline_thread;

    // --- stages ---
    void witness_loop();
    void prove_loop(DeviceSlot& slot);
    void finalize_loop();
    void deadline_loop();
    double deadline_estimate_locked(const Job& job) const;
    void raise_deadline_risk_locked(Job& job, Clock::time_point now);
    void job_event_locked(const Job& job, JobEvent::Type type, double deadline_in_ms = 0, double estimate_ms = 0) const;
    size_t place_locked(const std::string& circuit);
    void forget_circuit(const LoadedCircuit& c);
    void finish_partition(Item& item);

    // --- jobs ---
    void fail_job(const std::shared_ptr<Job>& job, const std::string& why);
    void end_job_locked(Job& job, JobState state, const std::string& why);
    void item_gone(const std::shared_ptr<Job>& job);
    JobResult result_locked(const Job& job) const;
    std::shared_ptr<Job> find_locked(const std::string& id) const;
    SubmitInfo submit(const JobSpec& spec);
    SubmitInfo enqueue(const JobSpec& spec, std::shared_ptr<const kinds::Work> work, Reservation work_mem,
                       const std::array<uint8_t, 32>& digest);
    Reservation reserve_for_prepare(uint64_t bytes, const JobSpec& in);
    void release_work_locked(Job& job);
    void check_request_id(const std::string& id) const;
    kinds::Limits limits() const { return {cfg.max_partitions, cfg.max_constraints, cfg.check_c1}; }
    void shutdown(std::optional<bool> drain);

    void logf(int level, const std::string& line) const {
        if (log) log(level, line);
    }
};

Engine::Impl::Impl(EngineConfig c)
    : cfg(std::move(c)),
      log(cfg.log ? cfg.log : std::function<void(int, const std::string&)>([](int level, const std::string& line) {
          if (level >= 2) std::fprintf(stderr, "cuzk-engine %s %s\n", level >= 3 ? "ERROR" : "WARN", line.c_str());
      })),
      metrics(cfg.trace_capacity, started,
              cfg.log_spans ? std::function<void(const trace::Event&)>([this](const trace::Event& e) {
                  char buf[256];
                  std::snprintf(buf, sizeof buf, "event=span name=%s layer=%s job=%llu partition=%u device=%d ms=%.3f",
                                e.name, e.layer, (unsigned long long)e.job, e.partition, e.device, e.ms());
                  logf(0, buf);
              })
                            : std::function<void(const trace::Event&)>()),
      budget(cfg.memory_budget
                 ? cfg.memory_budget
                 : (system_memory() > cfg.safety_margin + (uint64_t(1) << 30) ? system_memory() - cfg.safety_margin
                                                                              : system_memory() / 2)),
      pool(budget, budget.limit() / 4, gpu::device_count() > 0),
      params(budget, cfg.param_cache, cfg.setup_seed, cfg.eviction_min_idle, log),
      fin_q(cfg.finalize_queue_bound) {
    params.set_filecoin(cfg.filecoin_param_dir, cfg.allow_dev_params);
    params.set_key_source(cfg.key_source);
    registry = cfg.kinds ? cfg.kinds : kinds::Registry::all();
    budget.set_reclaimer([this](uint64_t want) {
        uint64_t freed = pool.reclaim(want);
        if (freed < want) freed += params.reclaim(want - freed);
        return freed;
    });

    // Prove targets: the GPUs when asked for (or found, with "auto"), else the CPU.
    std::vector<int> devices;
    if (cfg.backend_factory) {
        devices = cfg.devices;
    } else if (cfg.backend != "cpu") {
        if (cfg.backend != "auto" && cfg.backend != "cuda")
            throw EngineError(EngineError::Code::InvalidArgument,
                              "unknown backend '" + cfg.backend + "' (known: auto, cpu, cuda)");
        std::string why;
        const int n = gpu::device_count(&why);
        const char* no_gpu = std::getenv("CUZK_NO_GPU");
        if (no_gpu && *no_gpu && std::string(no_gpu) != "0")
            why = "CUZK_NO_GPU is set";
        else if (n > 0) {
            devices = cfg.devices;
            if (devices.empty())
                for (int d = 0; d < n; ++d) devices.push_back(d);
            for (int d : devices)
                if (d < 0 || d >= n)
                    throw EngineError(
                        EngineError::Code::InvalidArgument,
                        "device " + std::to_string(d) + " does not exist (" + std::to_string(n) + " CUDA device(s))");
        }
        if (devices.empty()) {
            if (cfg.backend == "cuda")
                throw EngineError(EngineError::Code::InvalidArgument, "backend cuda: no usable GPU (" + why + ")");
            logf(1, "event=backend_fallback backend=cpu reason=\"" + why + "\"");
        }
    }
    auto make = [&](int d) {
        if (cfg.backend_factory) return cfg.backend_factory(d);
        return d < 0 ? groth16::make_cpu_backend() : gpu::make_cuda_backend(d);
    };
    if (devices.empty()) {
        auto s = std::make_unique<DeviceSlot>();
        s->ordinal = -1;
        s->name = "cpu";
        s->backend = make(-1);
        s->workers = std::max(1u, cfg.cpu_prove_workers);
        slots.push_back(std::move(s));
        prove_qs.push_back(std::make_unique<BoundedQueue<Item>>(cfg.witness_queue_bound));
        backend_desc = "cpu";
    } else {
        for (int d : devices) {
            auto s = std::make_unique<DeviceSlot>();
            s->ordinal = d;
            s->backend = make(d);
            s->name = gpu::device_info(d).name;
            if (s->name.empty()) s->name = s->backend->name();
            s->workers = std::max(1u, cfg.prove_workers_per_device);
            backend_desc += (backend_desc.empty() ? "" : ",") + s->backend->name();
            s->index = slots.size();
            slots.push_back(std::move(s));
            prove_qs.push_back(std::make_unique<BoundedQueue<Item>>(cfg.witness_queue_bound));
        }
    }
    params.set_on_evict([this](const LoadedCircuit& c) { forget_circuit(c); });
    logf(1, "event=engine_start backend=" + backend_desc + " memory_budget=" + std::to_string(budget.limit()) +
                " witness_workers=" + std::to_string(cfg.witness_workers));

    for (unsigned i = 0; i < std::max(1u, cfg.witness_workers); ++i)
        witness_threads.emplace_back([this] { witness_loop(); });
    for (auto& s : slots)
        for (unsigned i = 0; i < s->workers; ++i)
            prove_threads.emplace_back([this, slot = s.get()] { prove_loop(*slot); });
    finalizer = std::thread([this] { finalize_loop(); });
    deadline_thread = std::thread([this] { deadline_loop(); });
}

// ---- jobs ---------------------------------------------------------------------------

std::shared_ptr<Job> Engine::Impl::find_locked(const std::string& id) const {
    auto it = jobs_.find(id);
    if (it == jobs_.end()) throw EngineError(EngineError::Code::NotFound, "unknown job id '" + echo(id) + "'");
    return it->second;
}

void Engine::Impl::end_job_locked(Job& job, JobState state, const std::string& why) {
    if (terminal(job.state)) return;
    job.state = state;
    job.error = why;
    job.stop = state != JobState::Completed;
    job.ended = Clock::now();
    job.timings.total = ms_between(job.submitted, job.ended);
    for (uint32_t p = 0; p < job.spec.partitions; ++p) pending_.erase(pending_key(job, p));
    deadline_jobs_.erase(job.num);
    if (state == JobState::Completed) {
        ++completed_;
        proof_seconds_sum_ += job.timings.total / 1000;
        auto& [sum_ms, parts] = partition_ms_[job.key.id()];
        sum_ms += job.timings.witness + job.timings.prove + job.timings.verify;
        parts += job.spec.partitions;
    } else if (state == JobState::Failed) {
        ++failed_;
    } else {
        ++cancelled_;
    }
    release_work_locked(job);
    ended_.push_back(job.id);
    while (ended_.size() > cfg.finished_jobs_kept) {
        auto it = jobs_.find(ended_.front());
        if (it != jobs_.end()) {
            if (!it->second->spec.request_id.empty()) by_request_.erase(it->second->spec.request_id);
            by_num_.erase(it->second->num);
            jobs_.erase(it);
        }
        ended_.pop_front();
    }
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "event=job_end job=%s state=%s circuit=%s partitions=%u done=%u queue_wait_ms=%.1f "
                  "param_load_ms=%.1f witness_ms=%.1f prove_ms=%.1f verify_ms=%.1f total_ms=%.1f recomputes=%u",
                  job.id.c_str(), job_state_name(state), job.key.id().c_str(), job.spec.partitions, job.done,
                  job.timings.queue_wait, job.timings.param_load, job.timings.witness, job.timings.prove,
                  job.timings.verify, job.timings.total, job.recomputes);
    std::string line = buf;
    if (!why.empty()) line += " error=\"" + why + "\"";
    logf(state == JobState::Failed ? 2 : 1, line);
    job_event_locked(job, JobEvent::Type::Ended);
    cv_done_.notify_all();
}

void Engine::Impl::fail_job(const std::shared_ptr<Job>& job, const std::string& why) {
    std::lock_guard<std::mutex> lock(mu_);
    end_job_locked(*job, JobState::Failed, why);
}

// An ended job's validated request (a PoRep's parsed C1: ~15 MB at 32 GiB) and its
// reservation are dropped once no work item reads it any more, not kept with the result.
void Engine::Impl::release_work_locked(Job& job) {
    if (!terminal(job.state) || job.in_flight) return;
    job.work.reset();
    job.work_mem.reset();
}

// Reserves the memory a request takes to read (kinds::Kind::prepare_bytes) before it is read,
// waiting at most kPrepareMemoryWait for room: concurrent submits cannot read past the budget.
Reservation Engine::Impl::reserve_for_prepare(uint64_t bytes, const JobSpec& in) {
    using Code = EngineError::Code;
    if (bytes == 0) return {};
    const std::string what = "reading the " + echo(in.kind) + " request (" + std::to_string(in.c1_json.size()) +
                             " bytes of C1 JSON, " + std::to_string(in.vanilla_proofs.size()) + " vanilla proofs)";
    if (bytes > budget.limit())
        throw EngineError(Code::ResourceExhausted, what + " needs " + std::to_string(bytes >> 20) +
                                                       " MiB, more than the memory budget of " +
                                                       std::to_string(budget.limit() >> 20) + " MiB");
    const auto deadline = Clock::now() + kPrepareMemoryWait;
    if (!budget.reserve(bytes, [&] { return abort_.load() || Clock::now() > deadline; }))
        throw EngineError(Code::ResourceExhausted,
                          what + " needs " + std::to_string(bytes >> 20) + " MiB of the memory budget of " +
                              std::to_string(budget.limit() >> 20) + " MiB, and no room came within " +
                              std::to_string(kPrepareMemoryWait.count()) + " s (" +
                              std::to_string(budget.reserved() >> 20) + " MiB reserved)");
    return Reservation(&budget, bytes);
}

void Engine::Impl::item_gone(const std::shared_ptr<Job>& job) {
    std::lock_guard<std::mutex> lock(mu_);
    if (job->in_flight) --job->in_flight;
    release_work_locked(*job);
    cv_done_.notify_all();
}

JobResult Engine::Impl::result_locked(const Job& job) const {
    JobResult r;
    r.job_id = job.id;
    r.state = job.state;
    r.error = job.error;
    r.circuit_id = job.key.id();
    r.partitions_total = job.spec.partitions;
    r.partitions_done = job.done;
    r.cpu_recomputes = job.recomputes;
    r.backend = job.backend;
    if (job.state == JobState::Completed) r.partition_devices = job.devices;
    r.timings = job.timings;
    r.deadline_missed = job.deadline_missed;
    if (!terminal(job.state)) r.timings.total = ms_since(job.submitted);
    if (job.state == JobState::Completed) {
        for (const auto& p : job.proofs) r.proof.insert(r.proof.end(), p.begin(), p.end());
        r.verifying_key = job.vk_bytes;
        for (const auto& d : job.partition_documents) r.documents.insert(r.documents.end(), d.begin(), d.end());
        r.public_inputs = job.inputs;
    }
    return r;
}

SubmitInfo Engine::Impl::submit(const JobSpec& in) {
    using Code = EngineError::Code;
    check_request_id(in.request_id);
    const int prio = int(in.priority);
    if (prio < int(Priority::Unspecified) || prio > int(Priority::Critical))
        throw EngineError(
            Code::InvalidArgument,
            "priority must be UNSPECIFIED, LOW, NORMAL, HIGH or CRITICAL (0..4), got " + std::to_string(prio));
    if (in.deadline && *in.deadline <= std::chrono::system_clock::now())
        throw EngineError(Code::InvalidArgument,
                          "the deadline has already passed (" +
                              std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                 std::chrono::system_clock::now() - *in.deadline)
                                                 .count()) +
                              " ms ago)");
    try {
        const kinds::Kind& kind = registry->find(in.kind);
        // A request whose reading takes memory in proportion to its bytes (a PoRep C1, read
        // as a stream) reserves that bound first, and the prepared work keeps what it holds
        // reserved for as long as the job lives.
        Reservation mem = reserve_for_prepare(kind.prepare_bytes(in), in);
        auto work = kind.prepare(in, limits());
        if (const uint64_t keep = work->held_bytes(); keep < mem.bytes()) mem.release(mem.bytes() - keep);
        JobSpec spec = in;
        spec.c1_json = {};  // prepared: the JSON (~50 MB for a 32 GiB PoRep) is not kept
        spec.vanilla_proofs = {};
        spec.wtns = {};
        spec.partitions = work->partitions();
        if (spec.priority == Priority::Unspecified) spec.priority = kind.default_priority();
        const CircuitKey key{work->shape()};
        if (auto why = params.missing_params_error(key)) throw EngineError(Code::NotFound, *why);
        // Refused now, from the closed-form sizes, rather than after a shape has grown past the
        // budget (a Filecoin circuit is counted when its load starts: seconds at 32 GiB).
        if (!key.has_filecoin_params() && !key.shape->own_keys() && !params.loaded(key.id()))
            params.check_fits(key.id(), ParamManager::footprint(key.counts(), false));
        // A shape with its own keys needs only its proof's peak.
        if (const auto own = key.shape->own_keys(); own && own->item_bytes > budget.limit())
            throw EngineError(Code::ResourceExhausted, "a proof of " + key.id() + " needs " +
                                                           std::to_string(own->item_bytes >> 20) +
                                                           " MiB, more than the memory budget of " +
                                                           std::to_string(budget.limit() >> 20) + " MiB");
        return enqueue(spec, std::move(work), std::move(mem), request_digest(in, spec.priority));
    } catch (const kinds::KindError& e) {
        throw engine_error(e);
    }
}

void Engine::Impl::check_request_id(const std::string& id) const {
    if (id.size() > kMaxRequestIdBytes || !printable(id))
        throw EngineError(EngineError::Code::InvalidArgument,
                          "request_id '" + echo(id) + "': expected at most " + std::to_string(kMaxRequestIdBytes) +
                              " printable ASCII characters, got " + std::to_string(id.size()) + " bytes");
}

SubmitInfo Engine::Impl::enqueue(const JobSpec& spec, std::shared_ptr<const kinds::Work> work, Reservation work_mem,
                                 const std::array<uint8_t, 32>& digest) {
    using Code = EngineError::Code;
    std::lock_guard<std::mutex> lock(mu_);
    if (!accepting_) throw EngineError(Code::ShuttingDown, "the engine is shutting down and accepts no new jobs");
    if (!spec.request_id.empty()) {
        auto it = by_request_.find(spec.request_id);
        if (it != by_request_.end()) {
            if (jobs_.at(it->second)->digest != digest)
                throw EngineError(Code::AlreadyExists, "request_id '" + echo(spec.request_id) + "' names job " +
                                                           it->second +
                                                           ", submitted with a different request; a retry must "
                                                           "repeat the request exactly, or use a new request_id");
            return {it->second, 0, true};
        }
    }
    auto job = std::make_shared<Job>();
    job->num = next_job_++;
    job->id = job_prefix_ + std::to_string(job->num);
    job->digest = digest;
    job->spec = spec;
    job->key = CircuitKey{work->shape()};
    job->work_mem = std::move(work_mem);
    job->work = std::move(work);
    job->submitted = Clock::now();
    job->submitted_wall = std::chrono::system_clock::now();
    if (spec.deadline) {
        job->deadline =
            job->submitted + std::chrono::duration_cast<Clock::duration>(*spec.deadline - job->submitted_wall);
        job->deadline_order =
            std::chrono::duration_cast<std::chrono::nanoseconds>(job->deadline->time_since_epoch()).count();
        deadline_jobs_.insert(job->num);
        cv_deadline_.notify_all();
    }
    job->proofs.resize(spec.partitions);
    job->inputs.resize(spec.partitions);
    job->partition_documents.resize(spec.partitions);
    job->devices.assign(spec.partitions, -1);
    jobs_[job->id] = job;
    by_num_[job->num] = job;
    if (!spec.request_id.empty()) by_request_[spec.request_id] = job->id;
    const PendingKey first = pending_key(*job, 0);
    uint32_t ahead = 0;
    for (auto it = pending_.begin(); it != pending_.end() && *it < first; ++it) ++ahead;
    for (uint32_t p = 0; p < spec.partitions; ++p) pending_.insert(pending_key(*job, p));
    logf(1, "event=job_submit job=" + job->id + " circuit=" + job->key.id() +
                " partitions=" + std::to_string(spec.partitions) + " priority=" + priority_name(spec.priority) +
                " queue_position=" + std::to_string(ahead) +
                (job->deadline
                     ? " deadline_in_ms=" + std::to_string(std::llround(ms_between(job->submitted, *job->deadline)))
                     : std::string()));
    cv_pending_.notify_all();
    return {job->id, ahead, false};
}

// ---- stages -------------------------------------------------------------------------

void Engine::Impl::witness_loop() {
    for (;;) {
        std::shared_ptr<Job> job;
        uint32_t partition = 0;
        {
            std::unique_lock<std::mutex> lock(mu_);
            cv_pending_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
            if (pending_.empty()) return;  // stopping, nothing left
            auto k = *pending_.begin();
            pending_.erase(pending_.begin());
            job = by_num_.at(k.job);
            partition = k.partition;
            ++job->in_flight;
            ++witness_busy_;
            if (!job->started) {
                job->started = true;
                job->state = JobState::Running;
                job->timings.queue_wait = ms_since(job->submitted);
                job_event_locked(*job, JobEvent::Type::Started);
            }
        }
        Item item;
        item.job = job;
        item.partition = partition;
        trace::ScopedContext ctx({&metrics, job->num, partition, -1});
        // The item's wait in the scheduler, as a span like the others.
        metrics.record(trace::Event{"queue_wait", "engine", job->submitted, Clock::now(), job->num, partition, -1,
                                    trace::thread_number()});
        auto give_up = [&] { return job->stop.load() || abort_.load(); };
        try {
            double load_ms = 0;
            {
                trace::Span span("param_load", "engine");
                item.circuit = params.acquire(job->key, &load_ms, give_up);
            }
            const LoadedCircuit& c = *item.circuit;
            {
                trace::Span span("memory_wait", "engine");
                if (!give_up() && budget.reserve(c.item_bytes, give_up)) item.mem = Reservation(&budget, c.item_bytes);
            }
            if (item.mem.bytes() == 0 && !give_up())
                throw EngineError(EngineError::Code::ResourceExhausted,
                                  "a partition of " + c.key.id() + " needs " + std::to_string(c.item_bytes) +
                                      " bytes, more than the memory budget of " + std::to_string(budget.limit()));
            if (!give_up()) {
                auto t0 = Clock::now();
                trace::Span span("witness", "engine");
                auto built = job->work->partition(partition);
                // A shape with its own prover (a snarkjs key) takes its witness as it is.
                if (!c.key.shape->own_keys()) {
                    r1cs::WitnessBuffers bufs;
                    bufs.aux = pool.take(c.num_aux);
                    bufs.a = pool.take(c.domain);
                    bufs.b = pool.take(c.domain);
                    bufs.c = pool.take(c.domain);
                    item.witness = built.circuit->witness(std::move(bufs), c.num_aux, c.domain, give_up);
                }
                item.public_inputs = std::move(built.public_inputs);
                span.end();
                std::lock_guard<std::mutex> lock(mu_);
                job->timings.param_load += load_ms;
                job->timings.witness += ms_since(t0);
            }
        } catch (const EngineError& e) {
            fail_job(job, "partition " + std::to_string(partition) + ": " + e.what());
        } catch (const std::exception& e) {
            fail_job(job, "partition " + std::to_string(partition) + " (witness): " + e.what());
        }
        {
            std::lock_guard<std::mutex> lock(mu_);
            --witness_busy_;
        }
        if (give_up() || item.mem.bytes() == 0) {
            item_gone(job);
            continue;
        }
        {
            std::lock_guard<std::mutex> lock(mu_);
            item.slot = place_locked(job->key.id());
            ++slots[item.slot]->load;
        }
        const size_t slot = item.slot;
        if (!prove_qs[slot]->push(std::move(item))) {
            {
                std::lock_guard<std::mutex> lock(mu_);
                --slots[slot]->load;
            }
            item_gone(job);
        }
    }
}

// Placement: the cost of one more partition on a prove target is the partitions placed
// there and not yet proven, plus cfg.placement_upload_cost when the target does not hold
// (and has not been given work that will load) the circuit's parameters. The cheapest
// wins; ties go to a target that holds them, then to the lower index. So partitions stay
// with the device whose parameters are resident until it is placement_upload_cost
// partitions busier than another, and one job's partitions spread over idle devices.
size_t Engine::Impl::place_locked(const std::string& circuit) {
    size_t best = 0;
    double best_cost = 0;
    bool best_holds = false;
    for (size_t i = 0; i < slots.size(); ++i) {
        const auto& c = slots[i]->circuits;
        const bool holds = std::find(c.begin(), c.end(), circuit) != c.end();
        const double cost = slots[i]->load + (holds ? 0.0 : cfg.placement_upload_cost);
        if (i == 0 || cost < best_cost || (cost == best_cost && holds && !best_holds)) {
            best = i;
            best_cost = cost;
            best_holds = holds;
        }
    }
    auto& c = slots[best]->circuits;
    c.erase(std::remove(c.begin(), c.end(), circuit), c.end());
    c.push_back(circuit);  // most recently placed last
    return best;
}

// A circuit's parameters left host memory: every device forgets its copy of the bases
// (their host addresses may be reused) and the placement forgets it was resident.
void Engine::Impl::forget_circuit(const LoadedCircuit& c) {
    const auto& p = c.params;
    for (auto& slot : slots) {
        {
            std::unique_lock<std::mutex> device_lock(slot->mu, std::defer_lock);
            if (slot->ordinal >= 0) device_lock.lock();
            for (const void* bases : {static_cast<const void*>(p.h.data()), static_cast<const void*>(p.l.data()),
                                      static_cast<const void*>(p.a.data()), static_cast<const void*>(p.b_g1.data()),
                                      static_cast<const void*>(p.b_g2.data())})
                if (bases) slot->backend->release(bases);
        }
        std::lock_guard<std::mutex> lock(mu_);
        auto& ids = slot->circuits;
        ids.erase(std::remove(ids.begin(), ids.end(), c.key.id()), ids.end());
    }
}

void Engine::Impl::prove_loop(DeviceSlot& slot) {
    SlotBackend backend(slot);
    while (auto item = prove_qs[slot.index]->pop()) {
        auto job = item->job;
        if (job->stop) {
            {
                std::lock_guard<std::mutex> lock(mu_);
                --slot.load;
            }
            item_gone(job);
            continue;
        }
        {
            std::lock_guard<std::mutex> lock(mu_);
            ++prove_busy_;
            slot.current_job = job->id;
            slot.current_kind = job->spec.kind + ":" + job->key.id();
        }
        trace::ScopedContext ctx({&metrics, job->num, item->partition, slot.ordinal});
        bool ok = false;
        try {
            auto t0 = Clock::now();
            trace::Span span("prove", "engine");
            const LoadedCircuit& c = *item->circuit;
            groth16::Witness& w = item->witness;
            groth16::ProveHooks hooks;
            hooks.abc_ahead = item->abc_ahead.get();
            hooks.abc_released = [&] {
                // a, b, c are spent: their storage goes back to the pool (or is freed in the
                // background), and their share of the reservation back to the budget; the
                // copy made of them ahead, if any, was used (or is waited for) first.
                item->abc_ahead.reset();
                pool.give(std::move(w.a));
                pool.give(std::move(w.b));
                pool.give(std::move(w.c));
                item->mem.release(std::min(item->mem.bytes(), c.item_abc_bytes));
                // The next partition queued for this device has its witness: its a, b, c
                // go up while this proof's other MSMs run (page-locked buffers; else its
                // own h_msm copies them). Only with one prove worker on the device: with
                // two, the other worker already holds the next partition (popped, waiting
                // for the device), and its h_msm would overwrite the copies made for the
                // one after, having to wait for them first.
                if (slot.ordinal >= 0 && slot.workers == 1)
                    prove_qs[slot.index]->visit_front([&](Item& next) {
                        if (!next.abc_ahead && !next.job->stop)
                            next.abc_ahead = backend.copy_abc_ahead(next.witness.a, next.witness.b, next.witness.c);
                    });
            };
            if (c.key.shape->own_keys()) {
                item->own = job->work->prove(item->partition, backend);
                item->backend = item->own.backend;
            } else {
                item->proof = groth16::prove(c.params, c.density, std::move(w), groth16::random_randomness(), backend,
                                             nullptr, &hooks);
                item->backend = backend.name();
            }
            pool.give(std::move(w.aux));
            w = {};
            item->prove_ms = ms_since(t0);
            ok = true;
        } catch (const std::exception& e) {
            fail_job(job, "partition " + std::to_string(item->partition) + " (prove on " + backend.name() +
                              "): " + e.what());
        }
        {
            std::lock_guard<std::mutex> lock(mu_);
            --prove_busy_;
            --slot.load;
            if (ok) ++slot.proven;
            slot.current_job.clear();
            slot.current_kind.clear();
        }
        // What is left of the reservation (the proof is small) goes back now.
        item->mem.reset();
        if (!ok || job->stop || !fin_q.push(std::move(*item))) item_gone(job);
    }
}

void Engine::Impl::finalize_loop() {
    std::unique_ptr<groth16::ProverBackend> cpu;
    while (auto item = fin_q.pop()) {
        auto job = item->job;
        if (job->stop) {
            item_gone(job);
            continue;
        }
        {
            std::lock_guard<std::mutex> lock(mu_);
            ++finalize_busy_;
        }
        trace::ScopedContext ctx({&metrics, job->num, item->partition, -1});
        const LoadedCircuit& c = *item->circuit;
        // A shape with its own keys verifies its own proofs (on its curve).
        const bool own = c.key.shape->own_keys() != nullptr;
        auto verify = [&] {
            return own ? job->work->verify(item->partition, item->own)
                       : groth16::verify(*c.pvk, item->proof, item->public_inputs);
        };
        double verify_ms = 0;
        bool recomputed = false;
        try {
            if (cfg.verify_proofs) {
                auto t0 = Clock::now();
                trace::Span span("verify", "engine");
                auto v = verify();
                span.end();
                verify_ms = ms_since(t0);
                if (!v) {
                    // Never hand out an invalid proof: recompute this partition once on the CPU.
                    logf(2, "event=proof_invalid job=" + job->id + " partition=" + std::to_string(item->partition) +
                                " backend=" + item->backend + " reason=\"" + v.error + "\" action=recompute_on_cpu");
                    recomputed = true;
                    trace::Span rspan("recompute_cpu", "engine");
                    if (!cpu) cpu = groth16::make_cpu_backend();
                    Reservation mem;
                    auto give_up = [&] { return job->stop.load() || abort_.load(); };
                    if (!budget.reserve(c.item_bytes, give_up))
                        throw EngineError(EngineError::Code::ResourceExhausted, "no memory to recompute on the CPU");
                    mem = Reservation(&budget, c.item_bytes);
                    if (own) {
                        item->own = job->work->prove(item->partition, *cpu);
                    } else {
                        auto built = job->work->partition(item->partition);
                        item->proof = groth16::prove(c.params, c.density, built.circuit->witness(),
                                                     groth16::random_randomness(), *cpu);
                    }
                    auto again = verify();
                    if (!again)
                        throw EngineError(EngineError::Code::InvalidArgument,
                                          "the proof failed verification on " + item->backend +
                                              " and again when recomputed on the CPU: " + again.error);
                    item->backend = own ? item->own.backend : "cpu";
                }
            }
            std::lock_guard<std::mutex> lock(mu_);
            --finalize_busy_;
            if (recomputed) {
                ++job->recomputes;
                ++recomputes_;
            }
            if (!terminal(job->state)) {
                if (own) {
                    job->proofs[item->partition] = std::move(item->own.bytes);
                    job->inputs[item->partition] = std::move(item->own.public_inputs);
                    job->partition_documents[item->partition] = std::move(item->own.documents);
                } else {
                    const auto bytes = formats::proof_to_bytes(item->proof);
                    job->proofs[item->partition].assign(bytes.begin(), bytes.end());
                    std::vector<std::string> row;
                    for (const auto& x : item->public_inputs) row.push_back(x.to_dec());
                    job->inputs[item->partition] = std::move(row);
                }
                job->devices[item->partition] = recomputed ? -1 : slots[item->slot]->ordinal;
                job->timings.prove += item->prove_ms;
                job->timings.verify += verify_ms;
                if (job->backend.empty() || job->backend == item->backend)
                    job->backend = item->backend;
                else if (job->backend.find(item->backend) == std::string::npos)
                    job->backend += "," + item->backend;
                ++job->done;
                if (job->done == job->spec.partitions) {
                    job->vk_bytes = c.vk_bytes;
                    end_job_locked(*job, JobState::Completed, "");
                }
            }
            if (job->in_flight) --job->in_flight;
            cv_done_.notify_all();
            continue;
        } catch (const std::exception& e) {
            {
                std::lock_guard<std::mutex> lock(mu_);
                --finalize_busy_;
            }
            fail_job(job, "partition " + std::to_string(item->partition) + " (finalize): " + e.what());
        }
        item_gone(job);
    }
}

// ---- deadlines ----------------------------------------------------------------------

// What a job still needs: its partitions not yet done times the circuit's mean partition
// time (witness + prove + verify) over its completed jobs; 0 before the circuit's first
// completed job, when the risk is raised only as the deadline passes.
double Engine::Impl::deadline_estimate_locked(const Job& job) const {
    auto it = partition_ms_.find(job.key.id());
    if (it == partition_ms_.end() || it->second.second == 0) return 0;
    return double(job.spec.partitions - job.done) * it->second.first / double(it->second.second);
}

void Engine::Impl::raise_deadline_risk_locked(Job& job, Clock::time_point now) {
    job.deadline_risk = true;
    ++deadline_risks_;
    const double left = ms_between(now, *job.deadline), estimate = deadline_estimate_locked(job);
    char buf[256];
    std::snprintf(buf, sizeof buf, " state=%s partitions_done=%u partitions=%u deadline_in_ms=%.0f estimate_ms=%.0f",
                  job_state_name(job.state), job.done, job.spec.partitions, left, estimate);
    logf(2, "event=deadline_risk job=" + job.id + " kind=" + job.spec.kind + " circuit=" + job.key.id() + buf);
    job_event_locked(job, JobEvent::Type::DeadlineRisk, left, estimate);
}

// Watches the jobs that carry a deadline: one that can no longer make it (now + what it
// still needs is past the deadline) is reported once; one still unfinished when the
// deadline passes fails (reported first if it was not yet). Checks every kDeadlineCheck
// while such jobs exist, and at each deadline.
void Engine::Impl::deadline_loop() {
    constexpr auto kDeadlineCheck = std::chrono::milliseconds(100);
    std::unique_lock<std::mutex> lock(mu_);
    while (!stopping_) {
        const auto now = Clock::now();
        auto wake = now + std::chrono::hours(1);
        std::vector<std::shared_ptr<Job>> missed;
        for (uint64_t num : deadline_jobs_) {
            const auto& job = by_num_.at(num);
            if (now >= *job->deadline) {
                missed.push_back(job);
                continue;
            }
            const auto need = std::chrono::duration<double, std::milli>(deadline_estimate_locked(*job));
            if (!job->deadline_risk && now + std::chrono::duration_cast<Clock::duration>(need) >= *job->deadline)
                raise_deadline_risk_locked(*job, now);
            wake = std::min({wake, *job->deadline, now + kDeadlineCheck});
        }
        for (const auto& job : missed) {
            if (!job->deadline_risk) raise_deadline_risk_locked(*job, now);
            job->deadline_missed = true;
            ++deadlines_missed_;
            end_job_locked(*job, JobState::Failed,
                           "its deadline passed with " + std::to_string(job->done) + " of " +
                               std::to_string(job->spec.partitions) + " partitions done, " +
                               std::to_string(std::llround(ms_between(job->submitted, *job->deadline))) +
                               " ms after its submission");
        }
        cv_deadline_.wait_until(lock, wake);
    }
}

void Engine::Impl::job_event_locked(const Job& job, JobEvent::Type type, double deadline_in_ms,
                                    double estimate_ms) const {
    if (!cfg.on_job_event) return;
    JobEvent e;
    e.type = type;
    e.job_id = job.id;
    e.kind = job.spec.kind;
    e.circuit_id = job.key.id();
    e.priority = job.spec.priority;
    e.state = job.state;
    e.deadline_missed = job.deadline_missed;
    e.partitions = job.spec.partitions;
    e.timings = job.timings;
    e.deadline_in_ms = deadline_in_ms;
    e.estimate_ms = estimate_ms;
    cfg.on_job_event(e);
}

void Engine::Impl::shutdown(std::optional<bool> drain_opt) {
    std::lock_guard<std::mutex> once(shutdown_mu_);
    if (shut_down_) return;
    const bool drain = drain_opt.value_or(cfg.drain_on_shutdown);
    {
        std::unique_lock<std::mutex> lock(mu_);
        accepting_ = false;
        logf(1, std::string("event=engine_shutdown drain=") + (drain ? "true" : "false"));
        if (drain) {
            cv_done_.wait(lock, [&] {
                for (auto& [id, j] : jobs_)
                    if (!terminal(j->state)) return false;
                return true;
            });
        } else {
            for (auto& [id, j] : jobs_)
                if (!terminal(j->state)) end_job_locked(*j, JobState::Cancelled, "the engine shut down");
            abort_ = true;
        }
        stopping_ = true;
    }
    cv_pending_.notify_all();
    for (auto& t : witness_threads) t.join();
    for (auto& q : prove_qs) q->close();
    for (auto& t : prove_threads) t.join();
    fin_q.close();
    finalizer.join();
    cv_deadline_.notify_all();
    deadline_thread.join();
    {
        // Every worker has joined: items still in flight were dropped with their reservations.
        std::lock_guard<std::mutex> lock(mu_);
        shut_down_ = true;
    }
    pool.flush();
}

// ---- Engine -------------------------------------------------------------------------

Engine::Engine(EngineConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {}
Engine::~Engine() = default;

SubmitInfo Engine::submit(const JobSpec& spec) { return impl_->submit(spec); }

std::optional<JobResult> Engine::await(const std::string& job_id, std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(impl_->mu_);
    auto job = impl_->find_locked(job_id);
    auto done = [&] { return terminal(job->state); };
    if (timeout.count() <= 0)
        impl_->cv_done_.wait(lock, done);
    else if (!impl_->cv_done_.wait_for(lock, timeout, done))
        return std::nullopt;
    return impl_->result_locked(*job);
}

JobResult Engine::peek(const std::string& job_id) const {
    std::lock_guard<std::mutex> lock(impl_->mu_);
    return impl_->result_locked(*impl_->find_locked(job_id));
}

CancelInfo Engine::cancel(const std::string& job_id) {
    std::lock_guard<std::mutex> lock(impl_->mu_);
    CancelInfo info;
    auto it = impl_->jobs_.find(job_id);
    if (it == impl_->jobs_.end()) return info;
    info.found = true;
    Job& job = *it->second;
    if (terminal(job.state)) return info;
    info.was_running = job.started;
    impl_->end_job_locked(job, JobState::Cancelled, "cancelled by request");
    return info;
}

std::string Engine::circuit_id(const JobSpec& spec) {
    try {
        return kinds::Registry::all()->find(spec.kind).circuit_id(spec);
    } catch (const kinds::KindError& e) {
        throw engine_error(e);
    }
}

PreloadInfo Engine::preload(const std::string& id) {
    // The parameters a job of this shape would use: refused as submit refuses the job.
    CircuitKey key;
    try {
        key.shape = impl_->registry->shape(id, impl_->limits());
    } catch (const kinds::KindError& e) {
        throw engine_error(e);
    }
    if (auto missing = impl_->params.missing_params_error(key))
        throw EngineError(EngineError::Code::NotFound, *missing);
    PreloadInfo info;
    info.already_loaded = impl_->params.loaded(id);
    auto t0 = Clock::now();
    impl_->params.acquire(key, nullptr, [this] { return impl_->abort_.load(); });
    info.load_ms = ms_since(t0);
    return info;
}

EvictInfo Engine::evict(const std::string& id) { return impl_->params.evict(id); }

EngineStatus Engine::status() const {
    const Impl& m = *impl_;
    EngineStatus s;
    s.params = m.params.list();
    s.memory_budget = m.budget.limit();
    s.memory_reserved = m.budget.reserved();
    s.memory_high_water = m.budget.high_water();
    s.pooled_bytes = m.pool.idle_bytes();
    s.pool_reuses = m.pool.reuses();
    s.uptime_s = ms_since(m.started) / 1000;
    s.backend = m.backend_desc;
    std::lock_guard<std::mutex> lock(m.mu_);
    for (const auto& slot : m.slots) {
        DeviceStatus d;
        d.ordinal = slot->ordinal;
        d.name = slot->name;
        if (slot->ordinal >= 0) {
            auto info = gpu::device_info(slot->ordinal);
            d.memory_total = info.memory_total;
            d.memory_free = info.memory_free;
        }
        d.current_job_id = slot->current_job;
        d.current_kind = slot->current_kind;
        d.busy_ms = slot->busy_ms.load();
        d.placed = slot->load;
        d.partitions_proven = slot->proven;
        const gpu::CopyAheadStats ahead = gpu::copy_ahead_stats(*slot->backend);
        d.abc_copied_ahead = ahead.abc;
        d.z_copied_ahead = ahead.z;
        const gpu::ResidencyStats res = gpu::residency_stats(*slot->backend);
        d.base_sets_resident = res.resident_sets;
        d.base_sets_streamed = res.streamed_sets;
        for (const gpu::BaseSetState& b : gpu::base_set_states(*slot->backend))
            (b.resident ? d.base_bytes_resident : d.base_bytes_streamed) += b.bytes;
        d.h_step_vectors = res.h_vectors;
        d.twiddles_lent_bytes = res.twiddles_lent;
        d.circuits = slot->circuits;
        s.devices.push_back(d);
    }
    s.queues.push_back({"witness", uint32_t(m.pending_.size()), m.witness_busy_, 0, 0});
    QueueStatus prove{"prove", 0, m.prove_busy_, 0, 0};
    for (const auto& q : m.prove_qs) {  // one queue per device: their sums
        prove.pending += uint32_t(q->size());
        prove.bound += uint32_t(q->bound());
        prove.high_water += uint32_t(q->high_water());
    }
    s.queues.push_back(prove);
    s.queues.push_back({"finalize", uint32_t(m.fin_q.size()), m.finalize_busy_, uint32_t(m.fin_q.bound()),
                        uint32_t(m.fin_q.high_water())});
    for (const auto& [id, j] : m.jobs_) {
        if (j->state == JobState::Queued) ++s.jobs_queued;
        if (j->state == JobState::Running) ++s.jobs_running;
    }
    s.proofs_completed = m.completed_;
    s.proofs_failed = m.failed_;
    s.proofs_cancelled = m.cancelled_;
    s.cpu_recomputes = m.recomputes_;
    s.deadline_risks = m.deadline_risks_;
    s.deadlines_missed = m.deadlines_missed_;
    s.accepting = m.accepting_;
    return s;
}

std::string Engine::status_json() const {
    const EngineStatus s = status();
    nlohmann::json j;
    j["backend"] = s.backend;
    j["accepting"] = s.accepting;
    j["uptime_seconds"] = s.uptime_s;
    j["jobs"] = {{"queued", s.jobs_queued},
                 {"running", s.jobs_running},
                 {"completed", s.proofs_completed},
                 {"failed", s.proofs_failed},
                 {"cancelled", s.proofs_cancelled},
                 {"cpu_recomputes", s.cpu_recomputes},
                 {"deadline_risks", s.deadline_risks},
                 {"deadlines_missed", s.deadlines_missed}};
    j["memory"] = {{"budget_bytes", s.memory_budget},
                   {"reserved_bytes", s.memory_reserved},
                   {"high_water_bytes", s.memory_high_water},
                   {"pooled_bytes", s.pooled_bytes},
                   {"pool_reuses", s.pool_reuses}};
    j["devices"] = nlohmann::json::array();
    for (const auto& d : s.devices)
        j["devices"].push_back({{"ordinal", d.ordinal},
                                {"name", d.name},
                                {"memory_total_bytes", d.memory_total},
                                {"memory_free_bytes", d.memory_free},
                                {"current_job_id", d.current_job_id},
                                {"current_kind", d.current_kind},
                                {"busy_ms", d.busy_ms},
                                {"partitions_placed", d.placed},
                                {"partitions_proven", d.partitions_proven},
                                {"abc_copied_ahead", d.abc_copied_ahead},
                                {"z_copied_ahead", d.z_copied_ahead},
                                {"base_sets_resident", d.base_sets_resident},
                                {"base_sets_streamed", d.base_sets_streamed},
                                {"base_bytes_resident", d.base_bytes_resident},
                                {"base_bytes_streamed", d.base_bytes_streamed},
                                {"h_step_vectors", d.h_step_vectors},
                                {"twiddles_lent_bytes", d.twiddles_lent_bytes},
                                {"circuits", d.circuits}});
    j["queues"] = nlohmann::json::array();
    for (const auto& q : s.queues)
        j["queues"].push_back({{"name", q.name},
                               {"pending", q.pending},
                               {"in_progress", q.in_progress},
                               {"bound", q.bound},
                               {"high_water", q.high_water}});
    j["params"] = nlohmann::json::array();
    for (const auto& p : s.params)
        j["params"].push_back({{"circuit_id", p.circuit_id},
                               {"tier", p.tier == ParamStatus::Tier::Hot    ? "HOT"
                                        : p.tier == ParamStatus::Tier::Warm ? "WARM"
                                                                            : "COLD"},
                               {"size_bytes", p.size_bytes},
                               {"ref_count", p.ref_count}});
    return j.dump();
}

std::string Engine::metrics_prometheus() const {
    const EngineStatus s = status();
    std::string out;
    auto header = [&](const char* name, const char* help, const char* type) {
        out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
    };
    auto sample = [&](const char* name, const std::string& labels, double v) {
        char buf[64];
        std::snprintf(buf, sizeof buf, " %.17g\n", v);
        out += name + (labels.empty() ? std::string() : "{" + labels + "}") + buf;
    };
    auto metric = [&](const char* name, const char* help, const char* type, double v) {
        header(name, help, type);
        sample(name, "", v);
    };
    // Curio cuzk's metrics (same meaning; counters carry Prometheus' _total suffix), then cuzk's own.
    metric("cuzk_proofs_completed_total", "Jobs completed since start", "counter", double(s.proofs_completed));
    metric("cuzk_proofs_failed_total", "Jobs failed since start", "counter", double(s.proofs_failed));
    metric("cuzk_proofs_cancelled_total", "Jobs cancelled since start", "counter", double(s.proofs_cancelled));
    metric("cuzk_cpu_recomputes_total", "Proofs that failed verification and were recomputed on the CPU", "counter",
           double(s.cpu_recomputes));
    metric("cuzk_queue_depth", "Jobs waiting to start", "gauge", double(s.jobs_queued));
    metric("cuzk_running_jobs", "Jobs in progress", "gauge", double(s.jobs_running));
    metric("cuzk_uptime_seconds", "Seconds since the engine started", "gauge", s.uptime_s);
    {
        std::lock_guard<std::mutex> lock(impl_->mu_);
        header("cuzk_proof_duration_seconds", "Submit-to-result time of completed jobs", "summary");
        sample("cuzk_proof_duration_seconds_sum", "", impl_->proof_seconds_sum_);
        sample("cuzk_proof_duration_seconds_count", "", double(impl_->completed_));
    }
    metric("cuzk_memory_budget_bytes", "Memory budget", "gauge", double(s.memory_budget));
    metric("cuzk_memory_reserved_bytes", "Memory reserved now", "gauge", double(s.memory_reserved));
    metric("cuzk_memory_high_water_bytes", "Most memory reserved at once", "gauge", double(s.memory_high_water));
    metric("cuzk_pool_idle_bytes", "Idle pooled buffers", "gauge", double(s.pooled_bytes));
    metric("cuzk_pool_reuses_total", "Pooled buffers handed out again", "counter", double(s.pool_reuses));
    header("cuzk_stage_pending", "Work items waiting for a stage", "gauge");
    for (const auto& q : s.queues) sample("cuzk_stage_pending", "stage=\"" + q.name + "\"", double(q.pending));
    header("cuzk_stage_in_progress", "Work items in a stage", "gauge");
    for (const auto& q : s.queues) sample("cuzk_stage_in_progress", "stage=\"" + q.name + "\"", double(q.in_progress));
    header("cuzk_stage_high_water", "Most work items ever waiting for a bounded stage", "gauge");
    for (const auto& q : s.queues) sample("cuzk_stage_high_water", "stage=\"" + q.name + "\"", double(q.high_water));
    header("cuzk_device_busy_seconds_total", "Time each prove target spent in prove stages", "counter");
    for (const auto& d : s.devices)
        sample("cuzk_device_busy_seconds_total", "device=\"" + std::to_string(d.ordinal) + "\"", d.busy_ms / 1000);
    header("cuzk_device_partitions_total", "Partitions each prove target has proven", "counter");
    for (const auto& d : s.devices)
        sample("cuzk_device_partitions_total", "device=\"" + std::to_string(d.ordinal) + "\"",
               double(d.partitions_proven));
    header("cuzk_device_copies_ahead_total",
           "Partitions whose inputs a device had copied before its proof needed them (kind: abc, z)", "counter");
    for (const auto& d : s.devices) {
        const std::string dev = "device=\"" + std::to_string(d.ordinal) + "\"";
        sample("cuzk_device_copies_ahead_total", dev + ",kind=\"abc\"", double(d.abc_copied_ahead));
        sample("cuzk_device_copies_ahead_total", dev + ",kind=\"z\"", double(d.z_copied_ahead));
    }
    header("cuzk_device_base_sets", "Parameter base sets a device keeps resident or streams from host memory", "gauge");
    for (const auto& d : s.devices) {
        const std::string dev = "device=\"" + std::to_string(d.ordinal) + "\"";
        sample("cuzk_device_base_sets", dev + ",state=\"resident\"", double(d.base_sets_resident));
        sample("cuzk_device_base_sets", dev + ",state=\"streamed\"", double(d.base_sets_streamed));
    }
    header("cuzk_device_base_bytes",
           "Bytes of parameter bases a device holds (resident) or copies from host memory each proof (streamed)",
           "gauge");
    for (const auto& d : s.devices) {
        const std::string dev = "device=\"" + std::to_string(d.ordinal) + "\"";
        sample("cuzk_device_base_bytes", dev + ",state=\"resident\"", double(d.base_bytes_resident));
        sample("cuzk_device_base_bytes", dev + ",state=\"streamed\"", double(d.base_bytes_streamed));
    }
    header("cuzk_device_h_step_vectors", "Of a, b, c, how many the last H step kept on the device", "gauge");
    for (const auto& d : s.devices)
        sample("cuzk_device_h_step_vectors", "device=\"" + std::to_string(d.ordinal) + "\"", double(d.h_step_vectors));
    header("cuzk_device_twiddles_lent_bytes",
           "Bytes of the H step's twiddle table lent to the MSMs until the next H step", "gauge");
    for (const auto& d : s.devices)
        sample("cuzk_device_twiddles_lent_bytes", "device=\"" + std::to_string(d.ordinal) + "\"",
               double(d.twiddles_lent_bytes));
    header("cuzk_device_partitions_placed", "Partitions placed on each prove target, not yet proven", "gauge");
    for (const auto& d : s.devices)
        sample("cuzk_device_partitions_placed", "device=\"" + std::to_string(d.ordinal) + "\"", double(d.placed));
    // One histogram per phase.
    const auto hist = impl_->metrics.snapshot();
    out +=
        "# HELP cuzk_phase_seconds Time spent in each phase of each partition\n"
        "# TYPE cuzk_phase_seconds histogram\n";
    for (const auto& [key, h] : hist) {
        const std::string labels = "layer=\"" + key.first + "\",phase=\"" + key.second + "\"";
        for (size_t i = 0; i < Metrics::kNumBuckets; ++i) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%g", Metrics::kBuckets[i]);
            out +=
                "cuzk_phase_seconds_bucket{" + labels + ",le=\"" + buf + "\"} " + std::to_string(h.buckets[i]) + "\n";
        }
        out += "cuzk_phase_seconds_bucket{" + labels + ",le=\"+Inf\"} " + std::to_string(h.count) + "\n";
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", h.sum);
        out += "cuzk_phase_seconds_sum{" + labels + "} " + buf + "\n";
        out += "cuzk_phase_seconds_count{" + labels + "} " + std::to_string(h.count) + "\n";
    }
    return out;
}

std::string Engine::chrome_trace_json() const { return impl_->metrics.recorder().chrome_json(); }

std::vector<trace::Event> Engine::spans(const std::function<bool(const trace::Event&)>& keep) const {
    return keep ? impl_->metrics.recorder().events(keep) : impl_->metrics.recorder().events();
}

trace::Clock::time_point Engine::trace_origin() const { return impl_->metrics.recorder().origin(); }

std::vector<JobInfo> Engine::jobs() const {
    const Impl& m = *impl_;
    std::lock_guard<std::mutex> lock(m.mu_);
    std::vector<JobInfo> out;
    out.reserve(m.by_num_.size());
    const auto now_steady = Clock::now();
    for (const auto& [num, job] : m.by_num_) {
        JobInfo j;
        j.job_id = job->id;
        j.number = num;
        j.kind = job->spec.kind;
        j.circuit_id = job->key.id();
        j.priority = job->spec.priority;
        j.state = job->state;
        j.partitions_done = job->done;
        j.partitions_total = job->spec.partitions;
        j.submitted = job->submitted_wall;
        j.deadline = job->spec.deadline;
        j.deadline_at_risk = job->deadline_risk;
        j.deadline_missed = job->deadline_missed;
        j.error = job->error;
        j.backend = job->backend;
        j.timings = job->timings;
        if (!terminal(job->state)) j.timings.total = ms_between(job->submitted, now_steady);
        out.push_back(std::move(j));
    }
    return out;
}

void Engine::shutdown(std::optional<bool> drain) { impl_->shutdown(drain); }

}  // namespace cuzk::engine
