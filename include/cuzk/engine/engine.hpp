// The proving engine: jobs in, verified proofs out, with the GPU kept busy and memory
// bounded (DESIGN.md, "engine"). It knows nothing of gRPC; the daemon (src/server) is a
// thin layer over this interface.
//
//   submit ─► scheduler ─► [reserve memory] ─► witness workers (CPU) ─► bounded queue
//     ─► prove workers (per GPU, or CPU) ─► bounded queue ─► finalizer (verify, assemble)
//
// - A job is split into one work item per partition. Items are taken by priority
//   (CRITICAL first), then by job age (oldest first), then by partition, so partitions of
//   one job and of the next flow through the stages at the same time.
// - Each work item reserves its estimated bytes (from the circuit's shape) before its
//   witness starts and gives them back as its buffers are freed (a/b/c after H, the rest
//   after the proof); nothing starts that would overrun the budget.
// - Parameters are loaded (or, for built-in circuits, generated once and cached on disk)
//   on first use, kept resident and evicted least-recently-used when idle and memory is
//   wanted; their bytes count against the same budget.
// - Every proof is verified before it is returned (configurable); a proof that fails is
//   recomputed once on the CPU backend, and the event is logged and counted.
// - Cancellation removes a queued job at once; a running one stops at the next partition
//   boundary (a parameter load under way for it within milliseconds) and frees its memory.
// - Every stage opens a timing span (common/trace.hpp), aggregated into metrics and, on
//   request, written as a Chrome trace.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/common/trace.hpp"
#include "cuzk/groth16/backend.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/kinds/kind.hpp"

namespace cuzk::engine {

// Values as Curio's cuzk.v1.Priority (1..4); 0 (unspecified) takes the kind's default
// (kinds::Kind::default_priority: Winning PoSt CRITICAL, Window PoSt HIGH, others NORMAL).
using Priority = kinds::Priority;
const char* priority_name(Priority p);
// "low" | "normal" | "high" | "critical" (any case); nullopt otherwise.
std::optional<Priority> parse_priority(const std::string& s);

// What to prove: a kinds::Request (its `kind` names one of the engine's kinds, kinds/kind.hpp;
// "builtin" for cuzk's built-in circuits, "porep-seal-commit" for Filecoin PoRep C2,
// "window-post" and "winning-post" for Fallback PoSt, "snap-deals-update" for SnapDeals,
// "zkey" for a snarkjs key's proof where EngineConfig::kinds has kinds/zkey.hpp's kind) and
// how to schedule it. A built-in job has `partitions` partitions, a PoRep job its registered
// proof's, a PoSt job one, a SnapDeals job its update proof's (1 at 2 KiB, 16 at 32 GiB).
struct JobSpec : kinds::Request {
    Priority priority = Priority::Unspecified;
    // Idempotency key: a second submit with the same id and the same request returns the
    // same job; with a different request it is refused (EngineError::Code::AlreadyExists).
    // At most kMaxRequestIdBytes printable ASCII characters.
    std::string request_id;
    // When the proof stops being useful (wall clock; none = never). Within a priority, the
    // job with the earlier deadline goes first, jobs without one after those with one. A
    // job that can no longer make it is reported (event=deadline_risk, JobEvent::DeadlineRisk)
    // and, once the deadline passes unfinished, fails (JobResult::deadline_missed).
    std::optional<std::chrono::system_clock::time_point> deadline;
};
inline constexpr size_t kMaxRequestIdBytes = 128;

enum class JobState { Queued, Running, Completed, Failed, Cancelled };
const char* job_state_name(JobState s);

// Milliseconds, summed over the job's partitions where a stage runs once per partition.
struct JobTimings {
    double queue_wait = 0;  // submit → first partition's witness starts
    double param_load = 0;  // waiting for the parameters (load or generate)
    double witness = 0;     // synthesis: assignment and A·z, B·z, C·z
    double prove = 0;       // H and the five MSMs (the device's work when on a GPU)
    double verify = 0;
    double total = 0;  // submit → result
};

struct JobResult {
    std::string job_id;
    JobState state = JobState::Queued;
    std::string error;  // set when Failed (or why Cancelled)
    // Per partition, concatenated: 192 bytes (bellperson layout), or a shape with its own keys'
    // encoding (kinds::Work::OwnProof: a BN254 zkey's 256 bytes, Ethereum's).
    std::vector<uint8_t> proof;
    std::vector<std::vector<std::string>> public_inputs;  // per partition, decimal, ONE excluded
    // bellperson .vk bytes of the circuit's key, or its own keys' (kinds::OwnKeys::vk_bytes).
    std::vector<uint8_t> verifying_key;
    // Text files the kind adds to the answer, by name (a zkey job: snarkjs' proof.json and
    // public.json), once completed.
    std::vector<std::pair<std::string, std::string>> documents;
    std::string circuit_id;
    uint32_t partitions_done = 0, partitions_total = 0;
    uint32_t cpu_recomputes = 0;  // proofs that failed verification and were recomputed on the CPU
    std::string backend;          // where the proofs were computed, e.g. "cuda:0" or "cpu"
    // Device ordinal that proved each partition (-1: the CPU), once the job completed.
    std::vector<int> partition_devices;
    JobTimings timings;
    bool deadline_missed = false;  // Failed because its deadline passed
};

// A job as listed by Engine::jobs() (queued, running and the finished ones still kept).
struct JobInfo {
    std::string job_id;
    uint64_t number = 0;  // the job number its timing spans carry (trace::Event::job)
    std::string kind, circuit_id;
    Priority priority = Priority::Unspecified;
    JobState state = JobState::Queued;
    uint32_t partitions_done = 0, partitions_total = 0;
    std::chrono::system_clock::time_point submitted;
    std::optional<std::chrono::system_clock::time_point> deadline;
    bool deadline_at_risk = false, deadline_missed = false;
    std::string error, backend;
    JobTimings timings;  // total: so far for a job not yet ended
};

// What happens to a job, for observers (the daemon's per-kind metrics): its first partition
// starts (queue wait known), it ends, or it can no longer meet its deadline.
struct JobEvent {
    enum class Type { Started, Ended, DeadlineRisk } type = Type::Started;
    std::string job_id, kind, circuit_id;
    Priority priority = Priority::Unspecified;
    JobState state = JobState::Queued;  // Ended: the final state
    bool deadline_missed = false;       // Ended: failed because its deadline passed
    uint32_t partitions = 0;
    JobTimings timings;         // Started: queue_wait; Ended: all
    double deadline_in_ms = 0;  // DeadlineRisk: time left before the deadline (< 0: passed)
    double estimate_ms = 0;     // DeadlineRisk: the estimated time the job still needs
};

// Thrown by submit/preload for requests the engine refuses; what() names the problem.
class EngineError : public std::runtime_error {
 public:
    // AlreadyExists: a request_id already names a job submitted with a different request.
    enum class Code { InvalidArgument, NotImplemented, ResourceExhausted, ShuttingDown, NotFound, AlreadyExists };
    EngineError(Code code, const std::string& what) : std::runtime_error(what), code_(code) {}
    Code code() const { return code_; }

 private:
    Code code_;
};

struct EngineConfig {
    // Memory budget in bytes; 0 = system memory less `safety_margin`.
    uint64_t memory_budget = 0;
    uint64_t safety_margin = uint64_t(5) << 30;
    // Workers: witness generation threads; prove workers per GPU (or in total on the CPU).
    unsigned witness_workers = 2;
    unsigned prove_workers_per_device = 2;
    unsigned cpu_prove_workers = 1;
    // Bounds of the queues between stages (work items).
    unsigned witness_queue_bound = 4;  // synthesized items waiting for a prover
    unsigned finalize_queue_bound = 16;
    // "auto" | "cpu" | "cuda" (gpu::select_backend); devices used when CUDA ("" = all).
    std::string backend = "auto";
    std::vector<int> devices;
    // Placement over several devices, in partitions: a device without the circuit's
    // parameters resident counts as this many partitions busier (it would upload them
    // first). 0 places by load alone; large values keep a circuit on one device.
    double placement_upload_cost = 2;
    // Verify each proof before returning it; recompute a failed one once on the CPU.
    bool verify_proofs = true;
    // Where built-in circuits' generated parameters and shapes are cached ("" = memory only).
    std::filesystem::path param_cache;
    // Seed of the development setup for built-in circuits (keys are reproducible).
    uint64_t setup_seed = 1;
    // Filecoin parameters (PoRep keys): the directory holding the v28-*.params/.vk files
    // ("" = env FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters). When a
    // circuit's files are absent, allow_dev_params falls back to a development setup (cached
    // in param_cache like a built-in's, logged as event=dev_params: not Filecoin's keys);
    // otherwise the job fails naming the missing file.
    std::filesystem::path filecoin_param_dir;
    bool allow_dev_params = true;
    // Check a PoRep job's vanilla proofs at submit (filecoin::check_c1_consistency): a bad
    // C1 is refused with InvalidArgument naming the field instead of failing in synthesis.
    bool check_c1 = true;
    // The kinds this engine proves (null = kinds::Registry::all()).
    std::shared_ptr<const kinds::Registry> kinds;
    // Loaded parameters idle at least this long may be evicted when memory is wanted.
    std::chrono::milliseconds eviction_min_idle{0};
    // Jobs kept after they end, for AwaitProof and status (oldest forgotten first).
    size_t finished_jobs_kept = 1024;
    // Upper bound on partitions per job (NI-PoRep has 126 at 32/64 GiB) and on a built-in
    // circuit's size.
    uint32_t max_partitions = 128;
    uint64_t max_constraints = uint64_t(1) << 27;
    // On shutdown: finish running and queued jobs (true) or cancel them (false).
    bool drain_on_shutdown = false;
    // Keep timing spans for a Chrome trace (the last `trace_capacity` spans).
    size_t trace_capacity = 1 << 20;
    // Structured log lines ("event=... job=... key=value"), level 0 debug, 1 info, 2 warn,
    // 3 error. Default: warnings and errors to stderr.
    std::function<void(int level, const std::string& line)> log;
    bool log_spans = false;  // also one debug line per timing span
    // Called on every JobEvent, with the engine's lock held: it must return quickly and must
    // not call the engine.
    std::function<void(const JobEvent&)> on_job_event;
    // Tests: make the prove-stage backend for a device (-1 = CPU). Default: the real ones.
    std::function<std::unique_ptr<groth16::ProverBackend>(int device)> backend_factory;
    // Benchmarks: when set, every circuit's keys come from here instead of its parameter
    // files or a setup (e.g. timing-only keys sized from the densities, whose proofs do not
    // verify: turn verify_proofs off). Called once a load with the circuit id and its counts
    // and densities from the density-only pass (no matrices are recorded).
    std::function<groth16::Parameters(const std::string& circuit_id, const groth16::ShapeSummary&)> key_source;
};

struct SubmitInfo {
    std::string job_id;
    uint32_t queue_position = 0;  // work items ahead of this job's first
    bool existing = false;        // request_id matched an earlier job
};

struct CancelInfo {
    bool found = false;
    bool was_running = false;
};

struct ParamStatus {
    std::string circuit_id;
    enum class Tier { Hot, Warm, Cold } tier = Tier::Cold;  // as Curio's SRSStatus.Tier
    uint64_t size_bytes = 0;
    uint32_t ref_count = 0;  // work items using it now
    double idle_ms = 0;      // since a work item (or a preload) last took it
};

struct DeviceStatus {
    int ordinal = -1;  // -1: the CPU backend
    std::string name;
    uint64_t memory_total = 0, memory_free = 0;
    std::string current_job_id, current_kind;
    double busy_ms = 0;              // time inside device stages since start
    uint32_t placed = 0;             // partitions placed here and not yet proven
    uint64_t partitions_proven = 0;  // since start
    // Partitions whose a, b, c / z a CUDA backend had copied ahead (gpu::CopyAheadStats).
    uint64_t abc_copied_ahead = 0, z_copied_ahead = 0;
    // Base sets the device's backend holds resident / streams from host memory (CUDA
    // backend; gpu::residency_stats).
    uint64_t base_sets_resident = 0, base_sets_streamed = 0;
    // Their bytes: on the device (tables included), and copied from host memory by each run
    // over the streamed ones (gpu::base_set_states): what a proof moves over PCIe for its bases.
    uint64_t base_bytes_resident = 0, base_bytes_streamed = 0;
    // How many of a, b, c its last H step kept on the device (3, or 2 on a small budget; 0
    // before the first or without the CUDA backend).
    uint32_t h_step_vectors = 0;
    // Bytes of the H step's NTT twiddle table lent to the MSMs until the next H step (CUDA
    // backend on a small budget, memory_plan.hpp's lend_twiddles; 0 when kept).
    uint64_t twiddles_lent_bytes = 0;
    std::vector<std::string> circuits;  // whose parameters it holds or will hold (placement)
};

struct QueueStatus {
    std::string name;  // "witness", "prove", "finalize"
    uint32_t pending = 0, in_progress = 0, bound = 0, high_water = 0;
};

struct EngineStatus {
    std::vector<DeviceStatus> devices;
    std::vector<ParamStatus> params;
    std::vector<QueueStatus> queues;
    uint64_t jobs_queued = 0, jobs_running = 0;
    uint64_t proofs_completed = 0, proofs_failed = 0, proofs_cancelled = 0, cpu_recomputes = 0;
    uint64_t deadline_risks = 0, deadlines_missed = 0;  // jobs reported at risk; failed by their deadline
    uint64_t memory_budget = 0, memory_reserved = 0, memory_high_water = 0;
    uint64_t pooled_bytes = 0;  // buffer pool (pinned when CUDA is present)
    uint64_t pool_reuses = 0;   // buffers handed out again (a witness then overwrites, not zero-fills)
    double uptime_s = 0;
    bool accepting = true;
    std::string backend;
};

struct PreloadInfo {
    bool already_loaded = false;
    double load_ms = 0;
};
struct EvictInfo {
    bool was_loaded = false;
    uint64_t freed_bytes = 0;
};

class Engine {
 public:
    explicit Engine(EngineConfig config = {});
    ~Engine();  // shutdown() if not yet done
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // Queues a job. Throws EngineError for an unknown circuit or kind, sizes out of
    // range, a job that could never fit the memory budget, or after shutdown().
    SubmitInfo submit(const JobSpec& spec);
    // Waits for the job to end, at most `timeout` (zero = forever). nullopt on timeout;
    // throws EngineError(NotFound) for an unknown job id.
    std::optional<JobResult> await(const std::string& job_id, std::chrono::milliseconds timeout = {});
    // The job's current state without waiting; NotFound as await.
    JobResult peek(const std::string& job_id) const;
    CancelInfo cancel(const std::string& job_id);

    // The circuit id a spec proves with (e.g. "sha256-chain-4"), for preload/evict.
    static std::string circuit_id(const JobSpec& spec);
    PreloadInfo preload(const std::string& circuit_id);  // InvalidArgument for a bad id
    EvictInfo evict(const std::string& circuit_id);

    EngineStatus status() const;
    std::string status_json() const;         // EngineStatus as JSON (HTTP /status)
    std::string metrics_prometheus() const;  // Prometheus text exposition format
    // Chrome trace (Trace Event JSON, for Perfetto) of the spans kept so far.
    std::string chrome_trace_json() const;
    // The jobs the engine knows (queued, running, and the last finished_jobs_kept ended),
    // oldest first.
    std::vector<JobInfo> jobs() const;
    // The timing spans kept so far that `keep` accepts (null: all), oldest first, and the
    // time their trace counts from.
    std::vector<trace::Event> spans(const std::function<bool(const trace::Event&)>& keep = nullptr) const;
    trace::Clock::time_point trace_origin() const;

    // Stops accepting jobs; finishes or cancels what is in flight (config.drain_on_shutdown
    // unless `drain` is given) and joins every worker. Idempotent.
    void shutdown(std::optional<bool> drain = std::nullopt);

    struct Impl;

 private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace cuzk::engine
