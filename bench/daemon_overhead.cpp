// What the daemon costs over calling the prover directly, for one small proof
// (issue #5 target: <= 5 ms). Every variant computes the same thing: witness, Groth16
// proof on the CPU backend, verification; they differ only in the path to the prover:
//
//   BM_Direct            circuits::make_builtin + witness + groth16::prove + verify
//   BM_Engine            engine.submit + engine.await (in process, same engine as below)
//   BM_DaemonTcp         ProveBuiltin over gRPC on 127.0.0.1 (one RPC)
//   BM_DaemonUnix        ProveBuiltin over gRPC on a unix socket
//   BM_DaemonSubmitAwait SubmitBuiltin + AwaitProof over TCP (two RPCs, Curio's pattern)
//   BM_RpcRoundTrip      GetStatus over TCP: the floor of one gRPC call
//
// The daemon is in process (server::Daemon) so that BM_Engine and the gRPC variants
// share one warm engine (parameters loaded once). Argument: random-dense constraints.
//   cuzk_bench_daemon_overhead --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// On a loaded machine the proof's own time drifts by more than the overhead, so
// --paired[=N] runs N rounds that each take every path once, in a rotating order, and
// reports the median of each path and the median (and p90) of the per-round differences
// daemon - engine and daemon - direct: drift common to a round cancels out.
//   cuzk_bench_daemon_overhead --paired=200
//
// Measured (dev machine, 2 cores, load ~1, --paired=300, medians of per-round
// differences over groth16::prove directly): ProveBuiltin over TCP +0.76 ms (1 constraint)
// / +0.88 ms (64), over a unix socket +0.58 / +0.63 ms, SubmitBuiltin + AwaitProof
// +0.68 / +0.78 ms; the engine alone +0.20 / +0.19 ms; one empty gRPC call (GetStatus)
// 0.18 ms. Target: <= 5 ms.
#include <benchmark/benchmark.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>

#include "cuzk/circuits/builtin.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/server/client.hpp"
#include "cuzk/server/daemon.hpp"
#include "cuzk/v1/proving.grpc.pb.h"

using namespace cuzk;

namespace {

struct World {
    std::unique_ptr<server::Daemon> daemon;
    std::unique_ptr<v1::ProvingEngine::Stub> tcp, unix_socket;
    std::string socket_path;

    World() {
        server::DaemonConfig c;
        socket_path = "/tmp/cuzk-bench-" + std::to_string(getpid()) + ".sock";
        c.listen = {"127.0.0.1:0", "unix:" + socket_path};
        c.log_level = "warn";
        c.engine.backend = "cpu";
        c.engine.log = [](int, const std::string&) {};
        server::setup_logging(c.log_level);
        daemon = std::make_unique<server::Daemon>(c);
        tcp = v1::ProvingEngine::NewStub(server::make_channel(daemon->grpc_addresses().at(0)));
        unix_socket = v1::ProvingEngine::NewStub(server::make_channel("unix:" + socket_path));
    }
    ~World() { daemon->shutdown(); }
};

World& world() {
    static World w;
    return w;
}

engine::JobSpec spec(int64_t constraints) {
    engine::JobSpec s;
    s.circuit = "random-dense";
    s.size = uint64_t(constraints);
    s.inputs = 1;
    return s;
}

v1::SubmitBuiltinRequest request(int64_t constraints) {
    v1::SubmitBuiltinRequest r;
    r.set_circuit("random-dense");
    r.set_size(uint64_t(constraints));
    r.set_inputs(1);
    return r;
}

void BM_Direct(benchmark::State& state) {
    const auto s = spec(state.range(0));
    const auto b0 = circuits::make_builtin(s.circuit, s.size, s.seed, s.inputs);
    const r1cs::Shape shape = b0.circuit->shape();
    const groth16::Parameters params = groth16::setup(shape, groth16::ToxicWaste::from_seed(1));
    const r1cs::Density density = shape.density();
    const groth16::PreparedVerifyingKey pvk(params.vk);
    auto backend = groth16::make_cpu_backend();
    for (auto _ : state) {
        auto b = circuits::make_builtin(s.circuit, s.size, s.seed, s.inputs);
        const groth16::Witness w = b.circuit->witness();
        const groth16::Proof p = groth16::prove(params, density, w, groth16::random_randomness(), *backend);
        if (!groth16::verify(pvk, p, b.public_inputs)) state.SkipWithError("invalid proof");
    }
}

void BM_Engine(benchmark::State& state) {
    engine::Engine& e = world().daemon->engine();
    const auto s = spec(state.range(0));
    e.preload(engine::Engine::circuit_id(s));
    for (auto _ : state) {
        auto r = e.await(e.submit(s).job_id);
        if (!r || r->state != engine::JobState::Completed) state.SkipWithError("job failed");
    }
}

void daemon_prove(benchmark::State& state, v1::ProvingEngine::Stub& stub) {
    world().daemon->engine().preload(engine::Engine::circuit_id(spec(state.range(0))));
    const auto req = request(state.range(0));
    for (auto _ : state) {
        v1::AwaitBuiltinResponse r;
        grpc::ClientContext ctx;
        auto st = stub.ProveBuiltin(&ctx, req, &r);
        if (!st.ok() || r.result().status() != v1::AwaitProofResponse::COMPLETED) state.SkipWithError("RPC failed");
    }
}

void BM_DaemonTcp(benchmark::State& state) { daemon_prove(state, *world().tcp); }
void BM_DaemonUnix(benchmark::State& state) { daemon_prove(state, *world().unix_socket); }

void BM_DaemonSubmitAwait(benchmark::State& state) {
    auto& stub = *world().tcp;
    world().daemon->engine().preload(engine::Engine::circuit_id(spec(state.range(0))));
    const auto req = request(state.range(0));
    for (auto _ : state) {
        v1::SubmitProofResponse sub;
        grpc::ClientContext c1;
        if (!stub.SubmitBuiltin(&c1, req, &sub).ok()) state.SkipWithError("submit failed");
        v1::AwaitProofRequest aw;
        aw.set_job_id(sub.job_id());
        v1::AwaitProofResponse r;
        grpc::ClientContext c2;
        if (!stub.AwaitProof(&c2, aw, &r).ok() || r.status() != v1::AwaitProofResponse::COMPLETED)
            state.SkipWithError("await failed");
    }
}

void BM_RpcRoundTrip(benchmark::State& state) {
    auto& stub = *world().tcp;
    for (auto _ : state) {
        v1::GetStatusResponse r;
        grpc::ClientContext ctx;
        if (!stub.GetStatus(&ctx, v1::GetStatusRequest{}, &r).ok()) state.SkipWithError("RPC failed");
    }
}

// Wall time: the engine's and the daemon's threads do the work, not the caller's.
BENCHMARK(BM_Direct)->Arg(1)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Engine)->Arg(1)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DaemonTcp)->Arg(1)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DaemonUnix)->Arg(1)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DaemonSubmitAwait)->Arg(1)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_RpcRoundTrip)->Unit(benchmark::kMicrosecond)->UseRealTime();

// ---- --paired ---------------------------------------------------------------------------

double quantile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}

void paired(int rounds, int64_t constraints) {
    World& w = world();
    engine::Engine& e = w.daemon->engine();
    const auto s = spec(constraints);
    const auto req = request(constraints);
    e.preload(engine::Engine::circuit_id(s));
    const auto b0 = circuits::make_builtin(s.circuit, s.size, s.seed, s.inputs);
    const r1cs::Shape shape = b0.circuit->shape();
    const groth16::Parameters params = groth16::setup(shape, groth16::ToxicWaste::from_seed(1));
    const r1cs::Density density = shape.density();
    const groth16::PreparedVerifyingKey pvk(params.vk);
    auto backend = groth16::make_cpu_backend();
    auto rpc = [&](v1::ProvingEngine::Stub& stub) {
        v1::AwaitBuiltinResponse r;
        grpc::ClientContext ctx;
        if (!stub.ProveBuiltin(&ctx, req, &r).ok() || r.result().status() != v1::AwaitProofResponse::COMPLETED)
            throw std::runtime_error("ProveBuiltin failed");
    };
    const std::vector<std::pair<const char*, std::function<void()>>> paths = {
        {"direct",
         [&] {
             auto b = circuits::make_builtin(s.circuit, s.size, s.seed, s.inputs);
             const auto p =
                 groth16::prove(params, density, b.circuit->witness(), groth16::random_randomness(), *backend);
             if (!groth16::verify(pvk, p, b.public_inputs)) throw std::runtime_error("invalid proof");
         }},
        {"engine",
         [&] {
             auto r = e.await(e.submit(s).job_id);
             if (!r || r->state != engine::JobState::Completed) throw std::runtime_error("job failed");
         }},
        {"daemon tcp", [&] { rpc(*w.tcp); }},
        {"daemon unix", [&] { rpc(*w.unix_socket); }},
        {"daemon tcp submit+await",
         [&] {
             v1::SubmitProofResponse sub;
             grpc::ClientContext c1;
             if (!w.tcp->SubmitBuiltin(&c1, req, &sub).ok()) throw std::runtime_error("submit failed");
             v1::AwaitProofRequest aw;
             aw.set_job_id(sub.job_id());
             v1::AwaitProofResponse r;
             grpc::ClientContext c2;
             if (!w.tcp->AwaitProof(&c2, aw, &r).ok() || r.status() != v1::AwaitProofResponse::COMPLETED)
                 throw std::runtime_error("await failed");
         }},
    };
    const size_t n = paths.size();
    std::vector<std::vector<double>> t(n);
    for (size_t i = 0; i < n; ++i) paths[i].second();  // warm up every path
    for (int r = 0; r < rounds; ++r) {
        for (size_t k = 0; k < n; ++k) {
            const size_t i = (size_t(r) + k) % n;
            const auto t0 = std::chrono::steady_clock::now();
            paths[i].second();
            t[i].push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        }
    }
    std::printf("random-dense %lld constraints, %d rounds (ms)\n", (long long)constraints, rounds);
    std::printf("  %-24s %8s %14s %14s %14s\n", "path", "median", "-engine med", "-engine p90", "-direct med");
    for (size_t i = 0; i < n; ++i) {
        std::vector<double> de, dd;
        for (int r = 0; r < rounds; ++r) {
            de.push_back(t[i][r] - t[1][r]);
            dd.push_back(t[i][r] - t[0][r]);
        }
        std::printf("  %-24s %8.3f %14.3f %14.3f %14.3f\n", paths[i].first, quantile(t[i], 0.5), quantile(de, 0.5),
                    quantile(de, 0.9), quantile(dd, 0.5));
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app(
        "What the daemon costs over calling the prover directly. Google Benchmark flags "
        "(--benchmark_*) pass through.",
        "cuzk_bench_daemon_overhead");
    int rounds = 0;
    app.add_flag("--paired{100}", rounds,
                 "N rounds that each take every path once, in rotating order; medians of the per-round "
                 "differences (--paired alone: 100)")
        ->type_name("N");
    app.allow_extras();
    CLI11_PARSE(app, argc, argv);
    if (app.count("--paired") > 0) {
        for (int64_t c : {1, 64}) paired(std::max(rounds, 1), c);
        return 0;
    }
    std::vector<std::string> rest = app.remaining();
    std::vector<char*> bench_argv{argv[0]};
    for (std::string& a : rest) bench_argv.push_back(a.data());
    int bench_argc = int(bench_argv.size());
    benchmark::Initialize(&bench_argc, bench_argv.data());
    if (benchmark::ReportUnrecognizedArguments(bench_argc, bench_argv.data())) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
