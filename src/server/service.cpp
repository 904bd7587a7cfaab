#include "service.hpp"

#include <grpcpp/support/server_interceptor.h>

#include <cmath>
#include <sstream>

#include "cuzk/common/echo.hpp"
#include "cuzk/server/gpu_status.hpp"
#include "log.hpp"
#include "views.hpp"

namespace cuzk::server {
namespace {

using Clock = std::chrono::steady_clock;
using engine::EngineError;

// A request the service refuses itself (before or instead of asking the engine).
struct RpcError {
    grpc::StatusCode code;
    std::string message;
};
// The client cancelled or disconnected while we waited for its job.
struct ClientGone {};

const char* code_name(int code) {
    static const char* names[] = {
        "OK",        "CANCELLED",      "UNKNOWN",           "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
        "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
        "ABORTED",   "OUT_OF_RANGE",   "UNIMPLEMENTED",     "INTERNAL",           "UNAVAILABLE",
        "DATA_LOSS", "UNAUTHENTICATED"};
    return code >= 0 && code < 17 ? names[code] : "UNKNOWN";
}

grpc::StatusCode to_grpc(EngineError::Code c) {
    switch (c) {
        case EngineError::Code::InvalidArgument:
            return grpc::StatusCode::INVALID_ARGUMENT;
        case EngineError::Code::NotImplemented:
            return grpc::StatusCode::UNIMPLEMENTED;
        case EngineError::Code::ResourceExhausted:
            return grpc::StatusCode::RESOURCE_EXHAUSTED;
        case EngineError::Code::ShuttingDown:
            return grpc::StatusCode::UNAVAILABLE;
        case EngineError::Code::NotFound:
            return grpc::StatusCode::NOT_FOUND;
        case EngineError::Code::AlreadyExists:
            return grpc::StatusCode::ALREADY_EXISTS;
    }
    return grpc::StatusCode::INTERNAL;
}

// Curio's proof kinds as the engine names them (engine.hpp, JobSpec::kind).
const char* engine_kind(v1::ProofKind k) {
    switch (k) {
        case v1::POREP_SEAL_COMMIT:
            return "porep-seal-commit";
        case v1::SNAP_DEALS_UPDATE:
            return "snap-deals-update";
        case v1::WINDOW_POST_PARTITION:
            return "window-post";
        case v1::WINNING_POST:
            return "winning-post";
        default:
            return nullptr;
    }
}

engine::Priority to_priority(int p) {
    if (p == v1::PRIORITY_UNSPECIFIED) return engine::Priority::Unspecified;  // the kind's default
    if (p < v1::LOW || p > v1::CRITICAL)
        throw RpcError{grpc::StatusCode::INVALID_ARGUMENT,
                       "priority " + std::to_string(p) + " is not one of LOW (1), NORMAL (2), HIGH (3), CRITICAL (4)"};
    return engine::Priority(p);
}

constexpr const char* kShuttingDown = "cuzk-daemon is shutting down: not accepting work";

uint64_t unix_ms(std::chrono::system_clock::time_point t) {
    const auto v = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
    return v > 0 ? uint64_t(v) : 0;
}

uint64_t ms(double v) { return v > 0 ? uint64_t(std::llround(v)) : 0; }

// deadline_unix_ms (0 = none) as the engine's deadline. Past 2100-01-01 is refused: far
// beyond any proof's use, and near where a clock's nanoseconds overflow.
std::optional<std::chrono::system_clock::time_point> to_deadline(uint64_t unix_ms) {
    constexpr uint64_t kLatest = 4102444800000;  // 2100-01-01T00:00:00Z
    if (unix_ms == 0) return std::nullopt;
    if (unix_ms > kLatest)
        throw RpcError{grpc::StatusCode::INVALID_ARGUMENT,
                       "deadline_unix_ms " + std::to_string(unix_ms) +
                           " is past 2100-01-01 (expected milliseconds since the Unix epoch, 0 = none)"};
    return std::chrono::system_clock::time_point(std::chrono::milliseconds(unix_ms));
}

v1::AwaitProofResponse::Status to_status(engine::JobState s) {
    switch (s) {
        case engine::JobState::Completed:
            return v1::AwaitProofResponse::COMPLETED;
        case engine::JobState::Failed:
            return v1::AwaitProofResponse::FAILED;
        case engine::JobState::Cancelled:
            return v1::AwaitProofResponse::CANCELLED;
        default:
            return v1::AwaitProofResponse::UNKNOWN;
    }
}

}  // namespace

// ---- RpcStats ---------------------------------------------------------------------------

void RpcStats::record(const char* method, grpc::StatusCode code, double seconds) {
    std::lock_guard lock(mu_);
    Entry& e = by_method_[method];
    ++e.by_code[int(code)];
    e.seconds += seconds;
}

std::string RpcStats::prometheus() const {
    std::lock_guard lock(mu_);
    std::ostringstream os;
    os << "# HELP cuzk_daemon_rpc_total gRPC requests served, by method and status code.\n"
          "# TYPE cuzk_daemon_rpc_total counter\n";
    for (const auto& [m, e] : by_method_)
        for (const auto& [code, n] : e.by_code)
            os << "cuzk_daemon_rpc_total{method=\"" << m << "\",code=\"" << code_name(code) << "\"} " << n << "\n";
    os << "# HELP cuzk_daemon_rpc_seconds_total Time spent serving gRPC requests, by method.\n"
          "# TYPE cuzk_daemon_rpc_seconds_total counter\n";
    for (const auto& [m, e] : by_method_)
        os << "cuzk_daemon_rpc_seconds_total{method=\"" << m << "\"} " << e.seconds << "\n";
    return os.str();
}

namespace {

// Counts every call when its status goes out: the ones the handlers answer and the ones
// gRPC refuses before a handler runs (a request over max_request_bytes, a method this
// service lacks). Methods are named from a fixed list, so a client cannot add labels.
class StatsInterceptor final : public grpc::experimental::Interceptor {
 public:
    StatsInterceptor(grpc::experimental::ServerRpcInfo* info, RpcStats& stats)
        : stats_(stats), method_(method_label(info->method())) {}

    void Intercept(grpc::experimental::InterceptorBatchMethods* m) override {
        if (m->QueryInterceptionHookPoint(grpc::experimental::InterceptionHookPoints::PRE_SEND_STATUS) && !counted_) {
            counted_ = true;
            stats_.record(method_, m->GetSendStatus().error_code(),
                          std::chrono::duration<double>(Clock::now() - t0_).count());
        }
        m->Proceed();
    }

 private:
    static const char* method_label(const char* full) {
        static const char* const known[] = {"SubmitProof",   "AwaitProof",   "Prove",        "CancelProof",
                                            "GetStatus",     "GetMetrics",   "PreloadSRS",   "EvictSRS",
                                            "SubmitBuiltin", "AwaitBuiltin", "ProveBuiltin", "ListJobs",
                                            "GetOverview",   "SubmitZkey",   "ProveZkey"};
        const std::string_view prefix = "/cuzk.v1.ProvingEngine/";
        const std::string_view f = full ? full : "";
        if (f.substr(0, prefix.size()) == prefix)
            for (const char* k : known)
                if (f.substr(prefix.size()) == k) return k;
        return "other";
    }

    RpcStats& stats_;
    const char* method_;
    const Clock::time_point t0_ = Clock::now();
    bool counted_ = false;
};

class StatsInterceptorFactory final : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
    explicit StatsInterceptorFactory(RpcStats& stats) : stats_(stats) {}
    grpc::experimental::Interceptor* CreateServerInterceptor(grpc::experimental::ServerRpcInfo* info) override {
        return new StatsInterceptor(info, stats_);
    }

 private:
    RpcStats& stats_;
};

}  // namespace

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> RpcStats::interceptor() {
    return std::make_unique<StatsInterceptorFactory>(*this);
}

// ---- the service --------------------------------------------------------------------------

template <class F>
grpc::Status ProvingService::handle(const char* method, F&& body) {
    const auto t0 = Clock::now();
    ++in_flight_;
    grpc::Status status;
    try {
        body();
    } catch (const RpcError& e) {
        status = grpc::Status(e.code, e.message);
    } catch (const ClientGone&) {
        status = grpc::Status(grpc::StatusCode::CANCELLED, "the client cancelled or went away");
    } catch (const EngineError& e) {
        status = grpc::Status(to_grpc(e.code()), e.what());
    } catch (const std::exception& e) {
        status = grpc::Status(grpc::StatusCode::INTERNAL, std::string("internal error: ") + e.what());
    }
    --in_flight_;
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    if (status.ok()) {
        spdlog::debug("event=rpc method={} code=OK ms={:.2f}", method, seconds * 1e3);
    } else {
        spdlog::info("event=rpc method={} code={} ms={:.2f} error={}", method, code_name(status.error_code()),
                     seconds * 1e3, kv(status.error_message()));
    }
    return status;
}

void ProvingService::check_accepting() const {
    if (!accepting_) throw RpcError{grpc::StatusCode::UNAVAILABLE, kShuttingDown};
}

// The engine logs the job's submission and its end (event=job_submit, event=job_end);
// the daemon adds only what it alone knows.
engine::SubmitInfo ProvingService::submit(const engine::JobSpec& spec) {
    check_accepting();
    engine::SubmitInfo info = engine_.submit(spec);
    if (info.existing) spdlog::info("event=submit_existing job={} request_id={}", kv(info.job_id), kv(spec.request_id));
    return info;
}

engine::JobSpec ProvingService::builtin_spec(const v1::SubmitBuiltinRequest& r) const {
    if (r.circuit().empty())
        throw RpcError{grpc::StatusCode::INVALID_ARGUMENT,
                       "circuit is empty (built-in circuits: sha256-chain, "
                       "random-dense)"};
    engine::JobSpec spec;
    spec.kind = "builtin";
    spec.circuit = r.circuit();
    spec.size = r.size();
    if (r.has_inputs()) spec.inputs = r.inputs();
    if (r.has_seed()) spec.seed = r.seed();
    if (r.has_partitions()) spec.partitions = r.partitions();
    spec.priority = to_priority(r.priority());
    spec.request_id = r.request_id();
    spec.deadline = to_deadline(r.deadline_unix_ms());
    return spec;
}

engine::JobSpec ProvingService::zkey_spec(const v1::SubmitZkeyRequest& r) const {
    engine::JobSpec spec;
    spec.kind = "zkey";
    spec.zkey = r.key();
    spec.wtns.assign(r.witness().begin(), r.witness().end());
    spec.priority = to_priority(r.priority());
    spec.request_id = r.request_id();
    spec.deadline = to_deadline(r.deadline_unix_ms());
    return spec;
}

std::optional<engine::JobResult> ProvingService::await(Ctx* ctx, const std::string& job_id, uint64_t timeout_ms) {
    if (job_id.empty()) throw RpcError{grpc::StatusCode::INVALID_ARGUMENT, "job_id is empty"};
    // The engine wakes await() the moment the job ends; the slice only bounds how long a
    // thread outlives a client that went away.
    constexpr auto kSlice = std::chrono::milliseconds(200);
    const auto t0 = Clock::now();
    for (;;) {
        auto slice = kSlice;
        if (timeout_ms) {
            auto left = std::chrono::milliseconds(timeout_ms) -
                        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
            if (left <= std::chrono::milliseconds(0)) return std::nullopt;
            slice = std::min(slice, left);
        }
        if (auto r = engine_.await(job_id, slice)) return r;
        if (ctx->IsCancelled()) throw ClientGone{};
    }
}

engine::JobResult ProvingService::await_own(Ctx* ctx, const std::string& job_id, bool has_request_id) {
    try {
        return *await(ctx, job_id, 0);
    } catch (const ClientGone&) {
        if (!has_request_id) {
            // Nobody else knows the job id: nobody can collect the proof.
            const auto c = engine_.cancel(job_id);
            spdlog::info("event=abandoned job={} cancelled={} was_running={}", kv(job_id), c.found, c.was_running);
        }
        throw;
    }
}

void ProvingService::fill(const engine::JobResult& r, v1::AwaitProofResponse* out) const {
    out->set_job_id(r.job_id);
    out->set_status(r.deadline_missed ? v1::AwaitProofResponse::TIMEOUT : to_status(r.state));
    out->set_proof(r.proof.data(), r.proof.size());
    out->set_error_message(r.error);
    out->set_queue_wait_ms(ms(r.timings.queue_wait));
    out->set_srs_load_ms(ms(r.timings.param_load));
    out->set_synthesis_ms(ms(r.timings.witness));
    out->set_gpu_compute_ms(ms(r.timings.prove));
    out->set_total_ms(ms(r.timings.total));
}

void ProvingService::fill(const engine::JobResult& r, v1::AwaitBuiltinResponse* out) const {
    fill(r, out->mutable_result());
    for (const auto& part : r.public_inputs) {
        auto* p = out->add_public_inputs();
        for (const auto& v : part) p->add_values(v);
    }
    out->set_verifying_key(r.verifying_key.data(), r.verifying_key.size());
    out->set_circuit_id(r.circuit_id);
    out->set_partitions_done(r.partitions_done);
    out->set_partitions_total(r.partitions_total);
    out->set_backend(r.backend);
    out->set_cpu_recomputes(r.cpu_recomputes);
    out->set_verify_ms(ms(r.timings.verify));
    for (const auto& [name, text] : r.documents) (*out->mutable_documents())[name] = text;
}

engine::SubmitInfo ProvingService::submit_curio(const v1::SubmitProofRequest& req) {
    const char* kind = engine_kind(req.proof_kind());
    if (!kind)
        throw RpcError{grpc::StatusCode::INVALID_ARGUMENT,
                       "proof_kind " + std::to_string(int(req.proof_kind())) +
                           " is not a Filecoin proof kind (built-in circuits: use SubmitBuiltin)"};
    engine::JobSpec spec;
    spec.kind = kind;
    spec.priority = to_priority(req.priority());
    spec.request_id = req.request_id();
    spec.deadline = to_deadline(req.deadline_unix_ms());
    if (req.proof_kind() == v1::POREP_SEAL_COMMIT) {
        // The C1 output names its registered proof; the request's fields are checked
        // against it. registered_proof 0 (StackedDrg2KiBV1) cannot be told from unset in
        // proto3, so 0 is not checked.
        spec.c1_json = req.vanilla_proof();
        if (req.registered_proof()) spec.registered_proof = std::to_string(req.registered_proof());
        spec.sector_size = req.sector_size();
    } else if (req.proof_kind() == v1::WINDOW_POST_PARTITION || req.proof_kind() == v1::WINNING_POST) {
        // registered_proof is required (0 is StackedDrgWinning2KiBV1); one bincode
        // FallbackPoStSectorProof per sector; miner_id drew the challenges Curio proved.
        spec.registered_proof = std::to_string(req.registered_proof());
        spec.sector_size = req.sector_size();
        spec.vanilla_proofs.reserve(size_t(req.vanilla_proofs_size()));
        for (const auto& v : req.vanilla_proofs()) spec.vanilla_proofs.emplace_back(v.begin(), v.end());
        spec.randomness.assign(req.randomness().begin(), req.randomness().end());
        spec.miner_id = req.miner_id();
        spec.partition_index = req.partition_index();
    } else if (req.proof_kind() == v1::SNAP_DEALS_UPDATE) {
        // registered_proof is required (0 is the 2 KiB update proof); one bincode PartitionProof
        // per partition; the commitments as 32 raw bytes or their binary CIDs.
        spec.registered_proof = std::to_string(req.registered_proof());
        spec.sector_size = req.sector_size();
        spec.vanilla_proofs.reserve(size_t(req.vanilla_proofs_size()));
        for (const auto& v : req.vanilla_proofs()) spec.vanilla_proofs.emplace_back(v.begin(), v.end());
        spec.comm_r_old.assign(req.comm_r_old().begin(), req.comm_r_old().end());
        spec.comm_r_new.assign(req.comm_r_new().begin(), req.comm_r_new().end());
        spec.comm_d_new.assign(req.comm_d_new().begin(), req.comm_d_new().end());
        spec.miner_id = req.miner_id();
    }
    try {
        return submit(spec);
    } catch (const EngineError& e) {
        if (e.code() != EngineError::Code::NotImplemented) throw;
        throw RpcError{grpc::StatusCode::UNIMPLEMENTED,
                       "cuzk cannot prove " + v1::ProofKind_Name(req.proof_kind()) + " yet (" + e.what() + ")"};
    }
}

grpc::Status ProvingService::SubmitProof(Ctx*, const v1::SubmitProofRequest* req, v1::SubmitProofResponse* resp) {
    return handle("SubmitProof", [&] {
        auto info = submit_curio(*req);
        resp->set_job_id(info.job_id);
        resp->set_queue_position(info.queue_position);
    });
}

grpc::Status ProvingService::SubmitBuiltin(Ctx*, const v1::SubmitBuiltinRequest* req, v1::SubmitProofResponse* resp) {
    return handle("SubmitBuiltin", [&] {
        const engine::JobSpec spec = builtin_spec(*req);
        auto info = submit(spec);
        resp->set_job_id(info.job_id);
        resp->set_queue_position(info.queue_position);
    });
}

grpc::Status ProvingService::AwaitProof(Ctx* ctx, const v1::AwaitProofRequest* req, v1::AwaitProofResponse* resp) {
    return handle("AwaitProof", [&] {
        auto r = await(ctx, req->job_id(), req->timeout_ms());
        if (!r) {
            resp->set_job_id(req->job_id());
            resp->set_status(v1::AwaitProofResponse::TIMEOUT);
            return;
        }
        fill(*r, resp);
    });
}

grpc::Status ProvingService::AwaitBuiltin(Ctx* ctx, const v1::AwaitProofRequest* req, v1::AwaitBuiltinResponse* resp) {
    return handle("AwaitBuiltin", [&] {
        auto r = await(ctx, req->job_id(), req->timeout_ms());
        if (!r) {
            // Progress so far: the partitions done, the state left UNKNOWN.
            engine::JobResult now = engine_.peek(req->job_id());
            resp->mutable_result()->set_job_id(req->job_id());
            resp->mutable_result()->set_status(v1::AwaitProofResponse::TIMEOUT);
            resp->set_circuit_id(now.circuit_id);
            resp->set_partitions_done(now.partitions_done);
            resp->set_partitions_total(now.partitions_total);
            resp->set_backend(now.backend);
            return;
        }
        fill(*r, resp);
    });
}

grpc::Status ProvingService::Prove(Ctx* ctx, const v1::ProveRequest* req, v1::ProveResponse* resp) {
    return handle("Prove", [&] {
        auto info = submit_curio(req->submit());
        auto r = await_own(ctx, info.job_id, !req->submit().request_id().empty());
        fill(r, resp->mutable_result());
    });
}

grpc::Status ProvingService::ProveBuiltin(Ctx* ctx, const v1::SubmitBuiltinRequest* req,
                                          v1::AwaitBuiltinResponse* resp) {
    return handle("ProveBuiltin", [&] {
        const engine::JobSpec spec = builtin_spec(*req);
        auto info = submit(spec);
        auto r = await_own(ctx, info.job_id, !req->request_id().empty());
        fill(r, resp);
    });
}

grpc::Status ProvingService::SubmitZkey(Ctx*, const v1::SubmitZkeyRequest* req, v1::SubmitProofResponse* resp) {
    return handle("SubmitZkey", [&] {
        auto info = submit(zkey_spec(*req));
        resp->set_job_id(info.job_id);
        resp->set_queue_position(info.queue_position);
    });
}

grpc::Status ProvingService::ProveZkey(Ctx* ctx, const v1::SubmitZkeyRequest* req, v1::AwaitBuiltinResponse* resp) {
    return handle("ProveZkey", [&] {
        auto info = submit(zkey_spec(*req));
        fill(await_own(ctx, info.job_id, !req->request_id().empty()), resp);
    });
}

grpc::Status ProvingService::CancelProof(Ctx*, const v1::CancelProofRequest* req, v1::CancelProofResponse* resp) {
    return handle("CancelProof", [&] {
        if (req->job_id().empty()) throw RpcError{grpc::StatusCode::INVALID_ARGUMENT, "job_id is empty"};
        const auto c = engine_.cancel(req->job_id());
        if (!c.found) throw RpcError{grpc::StatusCode::NOT_FOUND, "unknown job id '" + echo(req->job_id()) + "'"};
        spdlog::debug("event=cancel_request job={} was_running={}", kv(req->job_id()), c.was_running);
        resp->set_was_running(c.was_running);
    });
}

void fill_gpu_status(const engine::DeviceStatus& d, v1::GPUStatus* g) {
    g->set_ordinal(uint32_t(d.ordinal));
    g->set_name(d.name);
    g->set_vram_total_bytes(d.memory_total);
    g->set_vram_free_bytes(d.memory_free);
    g->set_current_job_id(d.current_job_id);
    g->set_current_proof_kind(d.current_kind);
    g->set_partitions_proven(d.partitions_proven);
    g->set_partitions_placed(d.placed);
    g->set_busy_ms(ms(d.busy_ms));
    g->set_base_sets_resident(uint32_t(d.base_sets_resident));
    g->set_base_sets_streamed(uint32_t(d.base_sets_streamed));
    g->set_base_bytes_resident(d.base_bytes_resident);
    g->set_base_bytes_streamed(d.base_bytes_streamed);
    g->set_h_step_vectors(d.h_step_vectors);
    g->set_twiddles_lent_bytes(d.twiddles_lent_bytes);
    g->set_abc_copied_ahead(d.abc_copied_ahead);
    g->set_z_copied_ahead(d.z_copied_ahead);
}

grpc::Status ProvingService::GetStatus(Ctx*, const v1::GetStatusRequest*, v1::GetStatusResponse* resp) {
    return handle("GetStatus", [&] {
        const engine::EngineStatus s = engine_.status();
        for (const auto& d : s.devices) {
            if (d.ordinal < 0) continue;  // the CPU backend is no GPU
            fill_gpu_status(d, resp->add_gpus());
        }
        for (const auto& p : s.params) {
            auto* srs = resp->add_loaded_srs();
            srs->set_circuit_id(p.circuit_id);
            srs->set_tier(p.tier == engine::ParamStatus::Tier::Hot    ? v1::SRSStatus::HOT
                          : p.tier == engine::ParamStatus::Tier::Warm ? v1::SRSStatus::WARM
                                                                      : v1::SRSStatus::COLD);
            srs->set_size_bytes(p.size_bytes);
            srs->set_ref_count(p.ref_count);
        }
        for (const auto& q : s.queues) {
            auto* qs = resp->add_queues();
            qs->set_proof_kind(q.name);
            qs->set_pending(q.pending);
            qs->set_in_progress(q.in_progress);
        }
        resp->set_total_proofs_completed(s.proofs_completed);
        resp->set_total_proofs_failed(s.proofs_failed);
        resp->set_uptime_seconds(uint64_t(s.uptime_s));
        resp->set_pinned_memory_bytes(s.pooled_bytes);
        resp->set_pinned_memory_limit_bytes(s.memory_budget);
    });
}

grpc::Status ProvingService::GetMetrics(Ctx*, const v1::GetMetricsRequest*, v1::GetMetricsResponse* resp) {
    return handle("GetMetrics", [&] { resp->set_prometheus_text(metrics_text()); });
}

std::string ProvingService::metrics_text() const {
    return engine_.metrics_prometheus() + ops_->prometheus(engine_.status(), engine_.jobs()) + stats_.prometheus() +
           (zkeys_ ? zkeys_->prometheus() : std::string());
}

grpc::Status ProvingService::ListJobs(Ctx*, const v1::ListJobsRequest* req, v1::ListJobsResponse* resp) {
    return handle("ListJobs", [&] {
        if (req->limit() > kMaxJobsListed)
            throw RpcError{grpc::StatusCode::INVALID_ARGUMENT,
                           "limit " + std::to_string(req->limit()) + ": at most " + std::to_string(kMaxJobsListed)};
        const unsigned limit = req->limit() ? req->limit() : kDefaultJobsListed;
        for (const auto& j : select_jobs(engine_, req->kind(), req->state(), limit)) {
            auto* out = resp->add_jobs();
            out->set_job_id(j.job_id);
            out->set_kind(j.kind);
            out->set_circuit_id(j.circuit_id);
            out->set_priority(v1::Priority(int(j.priority)));
            out->set_state(engine::job_state_name(j.state));
            out->set_partitions_done(j.partitions_done);
            out->set_partitions_total(j.partitions_total);
            out->set_submitted_unix_ms(unix_ms(j.submitted));
            if (j.deadline) out->set_deadline_unix_ms(unix_ms(*j.deadline));
            out->set_deadline_at_risk(j.deadline_at_risk);
            out->set_deadline_missed(j.deadline_missed);
            out->set_error(j.error);
            out->set_queue_wait_ms(ms(j.timings.queue_wait));
            out->set_total_ms(ms(j.timings.total));
            out->set_backend(j.backend);
        }
    });
}

grpc::Status ProvingService::GetOverview(Ctx*, const v1::GetOverviewRequest*, v1::GetOverviewResponse* resp) {
    return handle("GetOverview", [&] { resp->set_overview_json(overview_json(engine_, *ops_).dump()); });
}

engine::PreloadInfo ProvingService::preload(const std::string& circuit_id, const char* via) {
    if (!accepting_) throw EngineError(EngineError::Code::ShuttingDown, kShuttingDown);
    if (circuit_id.empty()) throw EngineError(EngineError::Code::InvalidArgument, "circuit_id is empty");
    const auto p = engine_.preload(circuit_id);
    spdlog::info("event=preload circuit={} already_loaded={} ms={:.1f} via={}", kv(circuit_id), p.already_loaded,
                 p.load_ms, via);
    return p;
}

engine::EvictInfo ProvingService::evict(const std::string& circuit_id, const char* via) {
    if (circuit_id.empty()) throw EngineError(EngineError::Code::InvalidArgument, "circuit_id is empty");
    const auto e = engine_.evict(circuit_id);
    spdlog::info("event=evict circuit={} was_loaded={} freed_bytes={} via={}", kv(circuit_id), e.was_loaded,
                 e.freed_bytes, via);
    return e;
}

void ProvingService::load_zkey(const kinds::ZkeySpec& spec, const char* via) {
    if (!accepting_) throw EngineError(EngineError::Code::ShuttingDown, kShuttingDown);
    if (!zkeys_) throw EngineError(EngineError::Code::NotImplemented, "this daemon has no zkey kind");
    const auto t0 = Clock::now();
    try {
        zkeys_->load(spec);
    } catch (const std::exception& e) {
        throw EngineError(EngineError::Code::InvalidArgument, e.what());
    }
    for (const auto& st : zkeys_->stats())
        if (st.name == spec.name)
            spdlog::info(
                "event=zkey_loaded key={} path={} curve={} signals={} public={} domain={} r1cs={} bytes={} ms={:.1f} "
                "via={}",
                kv(spec.name), kv(spec.path.string()), st.curve, st.signals, st.public_signals, st.domain, st.r1cs,
                st.bytes, std::chrono::duration<double, std::milli>(Clock::now() - t0).count(), via);
    // Resident from now on (GetStatus, the dashboard's parameters).
    engine_.preload("zkey-" + spec.name);
}

grpc::Status ProvingService::PreloadSRS(Ctx*, const v1::PreloadSrsRequest* req, v1::PreloadSrsResponse* resp) {
    return handle("PreloadSRS", [&] {
        const auto p = preload(req->circuit_id(), "grpc");
        resp->set_already_loaded(p.already_loaded);
        resp->set_load_time_ms(ms(p.load_ms));
    });
}

grpc::Status ProvingService::EvictSRS(Ctx*, const v1::EvictSrsRequest* req, v1::EvictSrsResponse* resp) {
    return handle("EvictSRS", [&] {
        const auto e = evict(req->circuit_id(), "grpc");
        resp->set_was_loaded(e.was_loaded);
        resp->set_freed_bytes(e.freed_bytes);
    });
}

}  // namespace cuzk::server
