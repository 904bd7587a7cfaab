// The gRPC service: cuzk.v1.ProvingEngine over an engine::Engine (see daemon.hpp).
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>

#include <grpcpp/support/server_interceptor.h>
#include "cuzk/engine/engine.hpp"
#include "cuzk/kinds/zkey.hpp"
#include "cuzk/server/ops.hpp"

#include "cuzk/v1/proving.grpc.pb.h"

namespace cuzk::server {

// Counters of the RPCs served, for /metrics: every call's outcome by method and code.
class RpcStats {
 public:
    void record(const char* method, grpc::StatusCode code, double seconds);
    // The server interceptor that records each call as its status is sent (register it
    // with ServerBuilder::experimental().SetInterceptorCreators).
    std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> interceptor();
    std::string prometheus() const;

 private:
    struct Entry {
        std::map<int, uint64_t> by_code;
        double seconds = 0;
    };
    mutable std::mutex mu_;
    std::map<std::string, Entry> by_method_;
};

class ProvingService final : public cuzk::v1::ProvingEngine::Service {
 public:
    // `ops`: the per-kind figures of the metrics and the overview.
    // `zkeys`: the zkey kind's keys, which load_zkey fills and whose figures join the metrics
    // (null: none).
    ProvingService(engine::Engine& engine, const OpsMetrics* ops, kinds::ZkeyStore* zkeys = nullptr)
        : engine_(engine), ops_(ops), zkeys_(zkeys) {}

    // From now on, requests that would start work get UNAVAILABLE; awaits, cancels and
    // status queries are still served so that clients collect what drains.
    void stop_accepting() { accepting_ = false; }
    bool accepting() const { return accepting_; }
    const RpcStats& stats() const { return stats_; }
    RpcStats& stats() { return stats_; }
    // RPC handlers running now (waiting awaits included).
    int in_flight() const { return in_flight_; }
    // PreloadSRS and EvictSRS, for the RPCs and the dashboard alike (`via` names the caller
    // in the log line). Throw EngineError: InvalidArgument for an empty or bad id,
    // ShuttingDown for a preload once stopping.
    engine::PreloadInfo preload(const std::string& circuit_id, const char* via);
    engine::EvictInfo evict(const std::string& circuit_id, const char* via);
    // Reads a snarkjs key into the zkey kind's store (the configuration's at start, the
    // dashboard's admin POST /api/zkeys/load later) and makes its circuit id zkey-<name>
    // resident. Throws EngineError: InvalidArgument naming the name or the file (a taken
    // name, a malformed .zkey, an .r1cs of another circuit), ShuttingDown once stopping.
    void load_zkey(const kinds::ZkeySpec& spec, const char* via);
    // The Prometheus text of /metrics and GetMetrics: the engine's, the per-kind figures,
    // the RPC counters.
    std::string metrics_text() const;

    using Ctx = grpc::ServerContext;
    grpc::Status SubmitProof(Ctx*, const v1::SubmitProofRequest*, v1::SubmitProofResponse*) override;
    grpc::Status AwaitProof(Ctx*, const v1::AwaitProofRequest*, v1::AwaitProofResponse*) override;
    grpc::Status Prove(Ctx*, const v1::ProveRequest*, v1::ProveResponse*) override;
    grpc::Status CancelProof(Ctx*, const v1::CancelProofRequest*, v1::CancelProofResponse*) override;
    grpc::Status GetStatus(Ctx*, const v1::GetStatusRequest*, v1::GetStatusResponse*) override;
    grpc::Status GetMetrics(Ctx*, const v1::GetMetricsRequest*, v1::GetMetricsResponse*) override;
    grpc::Status PreloadSRS(Ctx*, const v1::PreloadSrsRequest*, v1::PreloadSrsResponse*) override;
    grpc::Status EvictSRS(Ctx*, const v1::EvictSrsRequest*, v1::EvictSrsResponse*) override;
    grpc::Status SubmitBuiltin(Ctx*, const v1::SubmitBuiltinRequest*, v1::SubmitProofResponse*) override;
    grpc::Status AwaitBuiltin(Ctx*, const v1::AwaitProofRequest*, v1::AwaitBuiltinResponse*) override;
    grpc::Status ProveBuiltin(Ctx*, const v1::SubmitBuiltinRequest*, v1::AwaitBuiltinResponse*) override;
    grpc::Status SubmitZkey(Ctx*, const v1::SubmitZkeyRequest*, v1::SubmitProofResponse*) override;
    grpc::Status ProveZkey(Ctx*, const v1::SubmitZkeyRequest*, v1::AwaitBuiltinResponse*) override;
    grpc::Status ListJobs(Ctx*, const v1::ListJobsRequest*, v1::ListJobsResponse*) override;
    grpc::Status GetOverview(Ctx*, const v1::GetOverviewRequest*, v1::GetOverviewResponse*) override;

 private:
    template <class F>
    grpc::Status handle(const char* method, F&& body);
    void check_accepting() const;
    engine::JobSpec builtin_spec(const v1::SubmitBuiltinRequest& r) const;
    engine::JobSpec zkey_spec(const v1::SubmitZkeyRequest& r) const;
    engine::SubmitInfo submit(const engine::JobSpec& spec);
    engine::SubmitInfo submit_curio(const v1::SubmitProofRequest& req);
    // Waits for the job, in slices so that a client that went away frees its thread.
    // nullopt: timeout_ms passed. Throws ClientGone when the client cancelled.
    std::optional<engine::JobResult> await(Ctx* ctx, const std::string& job_id, uint64_t timeout_ms);
    // await() for Prove/ProveBuiltin: a job nobody else can name (no request_id) is
    // cancelled when its client goes away.
    engine::JobResult await_own(Ctx* ctx, const std::string& job_id, bool has_request_id);
    void fill(const engine::JobResult& r, v1::AwaitProofResponse* out) const;
    void fill(const engine::JobResult& r, v1::AwaitBuiltinResponse* out) const;

    engine::Engine& engine_;
    const OpsMetrics* ops_;
    kinds::ZkeyStore* zkeys_;
    std::atomic<bool> accepting_{true};
    std::atomic<int> in_flight_{0};
    RpcStats stats_;
};

}  // namespace cuzk::server
