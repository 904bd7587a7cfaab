// cuzk-daemon end to end: a real daemon process on loopback (harness.hpp), the CPU
// backend, small circuits (random-dense 64 constraints, sha256-chain 1 block).
#include <netinet/in.h>
#include <sys/socket.h>

#include <atomic>
#include <mutex>
#include <set>

#include "harness.hpp"

namespace cuzk::test {
namespace {

constexpr uint64_t kDense = 64;  // random-dense constraints: ~10 ms a proof on the CPU
// Jobs that must still be running a moment later: random-dense 512, ~100 ms a partition
// on the CPU, and a setup (~0.2 s) much cheaper than sha256-chain's (~1.2 s).
constexpr uint64_t kLong = 512;

// ---- the service works ----------------------------------------------------------------

TEST(Daemon, ProvesBuiltinCircuitsOverTcpAndUnixSocket) {
    TempDir tmp;
    Daemon d(tmp.path());
    for (const std::string& address : {d.tcp(), d.unix_address()}) {
        SCOPED_TRACE(address);
        auto stub = d.stub(address);
        auto r = prove_builtin(*stub, builtin("random-dense", kDense, 2));
        ASSERT_EQ(r.result().status(), v1::AwaitProofResponse::COMPLETED) << r.result().error_message();
        EXPECT_EQ(r.result().proof().size(), 2 * formats::kProofBytes);
        EXPECT_EQ(r.public_inputs_size(), 2);
        EXPECT_EQ(r.partitions_done(), 2u);
        EXPECT_EQ(verify_locally(r), "");
        // A proof of other public inputs must not verify: the check can fail.
        auto bad = r;
        bad.mutable_public_inputs(0)->set_values(0, "12345");
        EXPECT_NE(verify_locally(bad), "");
    }
    // Curio's AwaitProof works for a builtin job, and so does the separate submit.
    auto stub = d.stub();
    std::string job;
    ASSERT_TRUE(submit_builtin(*stub, builtin("sha256-chain", 1, 1, 7), &job).ok());
    v1::AwaitProofRequest req;
    req.set_job_id(job);
    v1::AwaitProofResponse ar;
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub->AwaitProof(&ctx, req, &ar).ok());
    EXPECT_EQ(ar.status(), v1::AwaitProofResponse::COMPLETED) << ar.error_message();
    EXPECT_EQ(ar.job_id(), job);
    EXPECT_EQ(ar.proof().size(), formats::kProofBytes);
    auto details = await_builtin(*stub, job);  // a finished job can be awaited again
    EXPECT_EQ(details.result().proof(), ar.proof());
    EXPECT_EQ(verify_locally(details), "");

    // Idempotency: the same request_id is the same job.
    auto again = builtin("random-dense", kDense);
    again.set_request_id("same-request");
    std::string j1, j2;
    ASSERT_TRUE(submit_builtin(*stub, again, &j1).ok());
    ASSERT_TRUE(submit_builtin(*stub, again, &j2).ok());
    EXPECT_EQ(j1, j2);

    // Status over gRPC and HTTP.
    v1::GetStatusResponse st;
    grpc::ClientContext sctx;
    ASSERT_TRUE(stub->GetStatus(&sctx, v1::GetStatusRequest{}, &st).ok());
    EXPECT_GE(st.total_proofs_completed(), 2u);
    EXPECT_FALSE(st.queues().empty());
    auto metrics = d.http_get("/metrics");
    ASSERT_TRUE(metrics);
    EXPECT_EQ(metrics->first, 200);
    EXPECT_NE(metrics->second.find("cuzk_daemon_rpc_total{method=\"ProveBuiltin\",code=\"OK\"} 2"), std::string::npos)
        << metrics->second;
    v1::GetMetricsResponse gm;
    grpc::ClientContext mctx;
    ASSERT_TRUE(stub->GetMetrics(&mctx, v1::GetMetricsRequest{}, &gm).ok());
    EXPECT_NE(gm.prometheus_text().find("cuzk_daemon_rpc_total"), std::string::npos);
    auto trace = d.http_get("/trace");
    ASSERT_TRUE(trace);
    EXPECT_EQ(trace->first, 200);
    EXPECT_TRUE(nlohmann::json::accept(trace->second)) << trace->second.substr(0, 200);
    auto health = d.http_get("/healthz");
    ASSERT_TRUE(health);
    EXPECT_EQ(health->first, 200);
    auto missing = d.http_get("/nope");
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->first, 404);
    expect_idle(d);
    EXPECT_EQ(d.stop(), 0) << d.log();
    EXPECT_FALSE(fs::exists(d.socket_path())) << "the unix socket is removed on a clean exit";
}

TEST(Daemon, PreloadAndEvict) {
    TempDir tmp;
    Daemon d(tmp.path());
    auto stub = d.stub();
    v1::PreloadSrsRequest pr;
    pr.set_circuit_id("sha256-chain-1");
    v1::PreloadSrsResponse p1, p2;
    {
        grpc::ClientContext ctx;
        auto st = stub->PreloadSRS(&ctx, pr, &p1);
        ASSERT_TRUE(st.ok()) << code_and_message(st);
    }
    {
        grpc::ClientContext ctx;
        ASSERT_TRUE(stub->PreloadSRS(&ctx, pr, &p2).ok());
    }
    EXPECT_FALSE(p1.already_loaded());
    EXPECT_TRUE(p2.already_loaded());
    v1::GetStatusResponse st;
    {
        grpc::ClientContext ctx;
        ASSERT_TRUE(stub->GetStatus(&ctx, v1::GetStatusRequest{}, &st).ok());
    }
    bool listed = false;
    for (const auto& s : st.loaded_srs()) listed |= s.circuit_id() == "sha256-chain-1";
    EXPECT_TRUE(listed);
    v1::EvictSrsRequest er;
    er.set_circuit_id("sha256-chain-1");
    v1::EvictSrsResponse e1, e2;
    {
        grpc::ClientContext ctx;
        ASSERT_TRUE(stub->EvictSRS(&ctx, er, &e1).ok());
    }
    {
        grpc::ClientContext ctx;
        ASSERT_TRUE(stub->EvictSRS(&ctx, er, &e2).ok());
    }
    EXPECT_TRUE(e1.was_loaded());
    EXPECT_GT(e1.freed_bytes(), 0u);
    EXPECT_FALSE(e2.was_loaded());
    // A circuit id that names nothing is refused with its name in the message.
    pr.set_circuit_id("no-such-circuit-9");
    v1::PreloadSrsResponse p3;
    grpc::ClientContext ctx;
    auto bad = stub->PreloadSRS(&ctx, pr, &p3);
    EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << code_and_message(bad);
    EXPECT_NE(bad.error_message().find("no-such-circuit-9"), std::string::npos) << bad.error_message();
    EXPECT_EQ(d.stop(), 0);
}

// ---- bad input ----------------------------------------------------------------------------

TEST(Daemon, BadRequestsFailWithTheProblemNamedAndOthersAreServed) {
    TempDir tmp;
    DaemonOptions o;
    o.daemon_toml = "max_request_bytes = \"1MiB\"";
    o.engine_toml = "max_partitions = 8";
    Daemon d(tmp.path(), o);
    auto stub = d.stub();

    // Keep a good job going through all of it.
    std::string good;
    ASSERT_TRUE(submit_builtin(*stub, builtin("random-dense", kDense, 3), &good).ok());

    struct Case {
        const char* what;
        v1::SubmitBuiltinRequest req;
        std::vector<grpc::StatusCode> codes;
        std::string needle;  // the message names the problem
    };
    auto with = [](v1::SubmitBuiltinRequest r, auto f) {
        f(r);
        return r;
    };
    const std::vector<Case> cases = {
        {"unknown circuit", builtin("no-such-circuit", 1), {grpc::StatusCode::INVALID_ARGUMENT}, "no-such-circuit"},
        {"empty circuit", builtin("", 1), {grpc::StatusCode::INVALID_ARGUMENT}, "circuit"},
        {"size 0", builtin("sha256-chain", 0), {grpc::StatusCode::INVALID_ARGUMENT}, "size"},
        {"partitions 0", builtin("random-dense", kDense, 0), {grpc::StatusCode::INVALID_ARGUMENT}, "partition"},
        {"partitions over max_partitions",
         builtin("random-dense", kDense, 9),
         {grpc::StatusCode::INVALID_ARGUMENT},
         "partition"},
        {"size past max_constraints",
         builtin("random-dense", uint64_t(1) << 40),
         {grpc::StatusCode::INVALID_ARGUMENT, grpc::StatusCode::RESOURCE_EXHAUSTED},
         ""},
        {"priority out of range",
         with(builtin("random-dense", kDense), [](auto& r) { r.set_priority(v1::Priority(9)); }),
         {grpc::StatusCode::INVALID_ARGUMENT},
         "priority"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.what);
        std::string job;
        auto st = submit_builtin(*stub, c.req, &job);
        // Either the RPC is refused or the job fails; both must say why.
        if (st.ok()) {
            auto r = await_builtin(*stub, job);
            EXPECT_EQ(r.result().status(), v1::AwaitProofResponse::FAILED);
            EXPECT_NE(r.result().error_message().find(c.needle), std::string::npos) << r.result().error_message();
            continue;
        }
        bool expected = false;
        for (auto code : c.codes) expected |= st.error_code() == code;
        EXPECT_TRUE(expected) << code_and_message(st);
        EXPECT_FALSE(st.error_message().empty());
        EXPECT_NE(st.error_message().find(c.needle), std::string::npos) << st.error_message();
    }

    // Curio's kinds: PoRep takes a C1 output (a malformed one is refused naming the
    // problem); SnapDeals and PoSt requests without their fields are refused naming them.
    {
        v1::SubmitProofRequest req;
        req.set_proof_kind(v1::POREP_SEAL_COMMIT);
        req.set_vanilla_proof(std::string(1000, 'x'));
        v1::SubmitProofResponse r;
        grpc::ClientContext ctx;
        auto st = stub->SubmitProof(&ctx, req, &r);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << code_and_message(st);
        EXPECT_NE(st.error_message().find("c1 output"), std::string::npos) << st.error_message();
        req.set_proof_kind(v1::SNAP_DEALS_UPDATE);
        grpc::ClientContext sctx;
        st = stub->SubmitProof(&sctx, req, &r);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << code_and_message(st);
        EXPECT_NE(st.error_message().find("comm_r_old: expected 32 bytes"), std::string::npos) << st.error_message();
        v1::ProveRequest preq;
        preq.mutable_submit()->set_proof_kind(v1::SNAP_DEALS_UPDATE);
        preq.mutable_submit()->set_registered_proof(9);
        v1::ProveResponse presp;
        grpc::ClientContext pctx;
        st = stub->Prove(&pctx, preq, &presp);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << code_and_message(st);
        EXPECT_NE(st.error_message().find("registered_proof '9' is not a registered update proof"), std::string::npos)
            << st.error_message();
        // PoSt is proven: a request without its vanilla proofs is refused by name.
        preq.mutable_submit()->set_proof_kind(v1::WINNING_POST);
        preq.mutable_submit()->set_registered_proof(0);
        grpc::ClientContext wctx;
        st = stub->Prove(&wctx, preq, &presp);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << code_and_message(st);
        EXPECT_NE(st.error_message().find("randomness must be 32 bytes"), std::string::npos) << st.error_message();
        req.set_proof_kind(v1::PROOF_KIND_UNSPECIFIED);
        grpc::ClientContext uctx;
        st = stub->SubmitProof(&uctx, req, &r);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << code_and_message(st);
        EXPECT_NE(st.error_message().find("proof_kind"), std::string::npos) << st.error_message();
    }
    // A request over max_request_bytes is refused by gRPC itself.
    {
        v1::SubmitProofRequest req;
        req.set_proof_kind(v1::POREP_SEAL_COMMIT);
        req.set_vanilla_proof(std::string(2 << 20, 'x'));
        v1::SubmitProofResponse r;
        grpc::ClientContext ctx;
        auto st = stub->SubmitProof(&ctx, req, &r);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << code_and_message(st);
    }
    // Unknown job ids.
    {
        v1::AwaitBuiltinResponse r;
        grpc::Status st;
        r = await_builtin(*stub, "job-that-never-was", 0, &st);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::NOT_FOUND) << code_and_message(st);
        await_builtin(*stub, "", 0, &st);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << code_and_message(st);
        v1::CancelProofRequest creq;
        creq.set_job_id("job-that-never-was");
        v1::CancelProofResponse cr;
        grpc::ClientContext ctx;
        st = stub->CancelProof(&ctx, creq, &cr);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::NOT_FOUND) << code_and_message(st);
        EXPECT_NE(st.error_message().find("job-that-never-was"), std::string::npos);
    }
    // Garbage on the gRPC port (not HTTP/2) only costs that connection.
    {
        const size_t colon = d.tcp().rfind(':');
        const int fd = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(uint16_t(std::stoi(d.tcp().substr(colon + 1))));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
        static const char kJunk[] = "GET / HTTP/1.1\r\n\r\n\x00\xff\xfe garbage garbage";
        const std::string junk(kJunk, sizeof(kJunk) - 1);  // NUL included
        EXPECT_GT(send(fd, junk.data(), junk.size(), MSG_NOSIGNAL), 0);
        close(fd);
    }

    auto r = await_builtin(*stub, good);
    EXPECT_EQ(r.result().status(), v1::AwaitProofResponse::COMPLETED) << r.result().error_message();
    EXPECT_EQ(verify_locally(r), "");
    auto after = prove_builtin(*stub, builtin("random-dense", kDense));
    EXPECT_EQ(after.result().status(), v1::AwaitProofResponse::COMPLETED);
    expect_idle(d);
    EXPECT_EQ(d.stop(), 0) << d.log();
}

// ---- faults ---------------------------------------------------------------------------------

TEST(Daemon, ClientThatGoesAwayWhileAwaitingCostsNothing) {
    TempDir tmp;
    Daemon d(tmp.path());
    auto stub = d.stub();
    std::string job;
    // Long enough (12 partitions after a setup) that both awaiters below leave well before
    // it ends, even on a fast, idle machine (3 partitions once finished within 200 ms in CI).
    ASSERT_TRUE(submit_builtin(*stub, builtin("random-dense", kLong, 12), &job).ok());

    // An awaiter that gives up (deadline) and one that cancels its call midway.
    {
        v1::AwaitProofRequest req;
        req.set_job_id(job);
        v1::AwaitProofResponse r;
        grpc::ClientContext ctx;
        ctx.set_deadline(std::chrono::system_clock::now() + 50ms);
        auto st = stub->AwaitProof(&ctx, req, &r);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED) << code_and_message(st);
    }
    {
        v1::AwaitProofRequest req;
        req.set_job_id(job);
        v1::AwaitProofResponse r;
        grpc::ClientContext ctx;
        std::thread canceller([&] {
            std::this_thread::sleep_for(50ms);
            ctx.TryCancel();
        });
        auto st = stub->AwaitProof(&ctx, req, &r);
        canceller.join();
        EXPECT_EQ(st.error_code(), grpc::StatusCode::CANCELLED) << code_and_message(st);
    }
    // A whole channel that disappears mid-await.
    {
        auto gone = d.stub();
        std::thread t([&] {
            v1::AwaitProofRequest req;
            req.set_job_id(job);
            req.set_timeout_ms(50);
            v1::AwaitProofResponse r;
            grpc::ClientContext ctx;
            (void)gone->AwaitProof(&ctx, req, &r);
        });
        t.join();
    }
    // The job is not affected: it completes for whoever asks next.
    auto r = await_builtin(*stub, job);
    EXPECT_EQ(r.result().status(), v1::AwaitProofResponse::COMPLETED) << r.result().error_message();
    EXPECT_EQ(verify_locally(r), "");

    // A Prove whose client leaves: nobody else can name the job (no request_id), so the
    // daemon cancels it rather than prove for nobody.
    {
        grpc::ClientContext ctx;
        ctx.set_deadline(std::chrono::system_clock::now() + 300ms);
        v1::AwaitBuiltinResponse pr;
        auto st = stub->ProveBuiltin(&ctx, builtin("random-dense", kLong, 32), &pr);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::DEADLINE_EXCEEDED) << code_and_message(st);
    }
    nlohmann::json s;
    for (int i = 0; i < 300; ++i) {  // the daemon notices within its await slice
        s = d.status_json();
        if (s.at("jobs").at("cancelled").get<uint64_t>() >= 1) break;
        std::this_thread::sleep_for(20ms);
    }
    EXPECT_EQ(s.at("jobs").at("cancelled").get<uint64_t>(), 1u) << s.dump();
    expect_idle(d);
    auto after = prove_builtin(*stub, builtin("random-dense", kDense));
    EXPECT_EQ(after.result().status(), v1::AwaitProofResponse::COMPLETED);
    EXPECT_EQ(d.stop(), 0) << d.log();
}

TEST(Daemon, CancelDuringProvingStopsAtAPartitionBoundaryAndFreesMemory) {
    TempDir tmp;
    Daemon d(tmp.path());
    auto stub = d.stub();
    std::string job;
    ASSERT_TRUE(submit_builtin(*stub, builtin("random-dense", kLong, 16), &job).ok());
    // Wait until it is proving (a partition done), then cancel.
    v1::AwaitBuiltinResponse progress;
    for (int i = 0; i < 600; ++i) {
        progress = await_builtin(*stub, job, 50);
        if (progress.partitions_done() >= 1 || progress.result().status() != v1::AwaitProofResponse::TIMEOUT) break;
    }
    ASSERT_EQ(progress.result().status(), v1::AwaitProofResponse::TIMEOUT) << "the job ended before the cancel";
    ASSERT_GE(progress.partitions_done(), 1u);
    v1::CancelProofRequest creq;
    creq.set_job_id(job);
    v1::CancelProofResponse cr;
    {
        grpc::ClientContext ctx;
        auto st = stub->CancelProof(&ctx, creq, &cr);
        ASSERT_TRUE(st.ok()) << code_and_message(st);
    }
    EXPECT_TRUE(cr.was_running());
    auto r = await_builtin(*stub, job);
    EXPECT_EQ(r.result().status(), v1::AwaitProofResponse::CANCELLED);
    EXPECT_LT(r.partitions_done(), 16u);
    EXPECT_TRUE(r.result().proof().empty());
    expect_idle(d);
    // Cancelling a finished job is harmless.
    {
        grpc::ClientContext ctx;
        EXPECT_TRUE(stub->CancelProof(&ctx, creq, &cr).ok());
    }
    auto after = prove_builtin(*stub, builtin("random-dense", kDense));
    EXPECT_EQ(after.result().status(), v1::AwaitProofResponse::COMPLETED);
    EXPECT_EQ(d.stop(), 0) << d.log();
}

// SIGTERM with jobs queued and running, awaiters waiting: exit 0, every awaiter answered.
void sigterm_under_load(bool drain) {
    TempDir tmp;
    DaemonOptions o;
    o.daemon_toml = drain ? "drain_on_shutdown = true" : "drain_on_shutdown = false";
    Daemon d(tmp.path(), o);
    auto stub = d.stub();
    std::vector<std::string> jobs;
    for (int i = 0; i < 12; ++i) {
        std::string job;
        auto req = i == 0 ? builtin("sha256-chain", 1, 2) : builtin("random-dense", i % 3 ? kDense : kLong, 2);
        ASSERT_TRUE(submit_builtin(*stub, req, &job).ok());
        jobs.push_back(job);
    }
    std::vector<v1::AwaitBuiltinResponse> results(jobs.size());
    std::vector<grpc::Status> statuses(jobs.size());
    std::vector<std::thread> awaiters;
    for (size_t i = 0; i < jobs.size(); ++i)
        awaiters.emplace_back([&, i] { results[i] = await_builtin(*stub, jobs[i], 0, &statuses[i]); });
    std::this_thread::sleep_for(200ms);
    ::kill(d.pid(), SIGTERM);
    // Once the daemon has taken the signal, new work is refused (or the connection is
    // gone): UNAVAILABLE either way.
    for (int i = 0; i < 1000 && d.log().find("event=shutdown phase=stop_accepting") == std::string::npos; ++i)
        std::this_thread::sleep_for(10ms);
    std::string late;
    auto st = submit_builtin(*stub, builtin("random-dense", kDense), &late);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::UNAVAILABLE) << code_and_message(st);
    EXPECT_EQ(d.wait_exit(60s), 0) << d.log();
    for (auto& t : awaiters) t.join();
    size_t completed = 0;
    for (size_t i = 0; i < jobs.size(); ++i) {
        SCOPED_TRACE(jobs[i]);
        ASSERT_TRUE(statuses[i].ok()) << code_and_message(statuses[i]);
        const auto s = results[i].result().status();
        if (drain) {
            EXPECT_EQ(s, v1::AwaitProofResponse::COMPLETED) << results[i].result().error_message();
        }
        EXPECT_TRUE(s == v1::AwaitProofResponse::COMPLETED || s == v1::AwaitProofResponse::CANCELLED) << s;
        if (s == v1::AwaitProofResponse::COMPLETED) {
            EXPECT_EQ(verify_locally(results[i]), "");
            ++completed;
        }
    }
    if (!drain) {
        EXPECT_LT(completed, jobs.size()) << "nothing was cancelled: the test did not test a cancel";
    }
    const std::string log = d.log();
    EXPECT_NE(log.find("event=shutdown phase=done"), std::string::npos) << log;
    // After the engine stopped, nothing was reserved for work (harness.hpp,
    // work_bytes_reserved): the reservation is exactly the parameters and the idle pool.
    auto field = [&](const std::string& key) -> uint64_t {
        const size_t line = log.find("phase=engine_stopped");
        const size_t at = log.find(" " + key + "=", line);
        if (line == std::string::npos || at == std::string::npos) return ~uint64_t(0);
        return std::stoull(log.substr(at + key.size() + 2));
    };
    EXPECT_EQ(field("memory_reserved"), field("params_bytes") + field("pooled_bytes")) << log;
}

TEST(Daemon, SigtermUnderLoadCancelsAndExitsZero) { sigterm_under_load(false); }
TEST(Daemon, SigtermUnderLoadDrainsAndExitsZero) { sigterm_under_load(true); }

TEST(Daemon, Kill9AndRestartServesAFreshEngine) {
    TempDir tmp;
    DaemonOptions o;
    Daemon d(tmp.path(), o);
    auto stub = d.stub();
    std::string done_job, running_job;
    ASSERT_TRUE(submit_builtin(*stub, builtin("random-dense", kDense), &done_job).ok());
    EXPECT_EQ(await_builtin(*stub, done_job).result().status(), v1::AwaitProofResponse::COMPLETED);
    ASSERT_TRUE(submit_builtin(*stub, builtin("random-dense", kLong, 8), &running_job).ok());
    std::this_thread::sleep_for(100ms);
    EXPECT_EQ(d.stop(SIGKILL), 128 + SIGKILL);
    EXPECT_TRUE(fs::exists(d.socket_path())) << "kill -9 leaves the socket file behind";

    d.start();  // same config, same socket path: the stale socket is taken over
    EXPECT_NE(d.log().find("event=stale_socket_removed"), std::string::npos) << d.log();
    auto fresh = d.stub(d.unix_address());
    auto r = prove_builtin(*fresh, builtin("random-dense", kDense));
    EXPECT_EQ(r.result().status(), v1::AwaitProofResponse::COMPLETED);
    EXPECT_EQ(verify_locally(r), "");
    // Nothing of the killed process survives: its jobs are unknown, the counters fresh.
    grpc::Status st;
    await_builtin(*fresh, running_job, 0, &st);
    // Job ids never repeat across processes: the killed process's job is unknown here.
    EXPECT_NE(running_job, r.result().job_id());
    EXPECT_EQ(st.error_code(), grpc::StatusCode::NOT_FOUND) << code_and_message(st);
    auto s = d.status_json();
    EXPECT_EQ(s.at("jobs").at("completed").get<uint64_t>(), 1u) << s.dump();
    expect_idle(d);
    EXPECT_EQ(d.stop(), 0) << d.log();
}

TEST(Daemon, RefusesASocketAnotherDaemonServes) {
    TempDir tmp;
    Daemon first(tmp.path() / "a");
    DaemonOptions o;
    o.socket_path = first.socket_path();
    try {
        Daemon second(tmp.path() / "b", o);
        ADD_FAILURE() << "a second daemon started on " << first.socket_path();
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("another process is serving"), std::string::npos) << e.what();
    }
    auto r = prove_builtin(*first.stub(first.unix_address()), builtin("random-dense", kDense));
    EXPECT_EQ(r.result().status(), v1::AwaitProofResponse::COMPLETED);
    EXPECT_EQ(first.stop(), 0);
}

TEST(Daemon, BadConfigStopsTheDaemonNamingTheKey) {
    TempDir tmp;
    const fs::path cfg = tmp.path() / "bad.toml";
    std::ofstream(cfg) << "[engine]\nwitness_workers = -3\n";
    auto [rc, out] = run_program({CUZK_DAEMON_PATH, "--config", cfg.string()}, tmp.path());
    EXPECT_EQ(rc, 2) << out;
    EXPECT_NE(out.find("engine.witness_workers"), std::string::npos) << out;
    std::ofstream(cfg) << "[daemon]\nlisen = \"127.0.0.1:1\"\n";
    std::tie(rc, out) = run_program({CUZK_DAEMON_PATH, "--config", cfg.string()}, tmp.path());
    EXPECT_EQ(rc, 2) << out;
    EXPECT_NE(out.find("daemon.lisen: unknown key"), std::string::npos) << out;
    std::tie(rc, out) = run_program({CUZK_DAEMON_PATH, "--config", CUZK_EXAMPLE_CONFIG, "--check-config"}, tmp.path());
    EXPECT_EQ(rc, 0) << out;
}

// ---- the command line client ------------------------------------------------------------

TEST(Daemon, CliClientRoundTrip) {
    TempDir tmp;
    Daemon d(tmp.path());
    const fs::path proof = tmp.path() / "proof.bin", vk = tmp.path() / "vk";
    auto [rc, out] =
        run_program({CUZK_CLI_PATH, "client", "--address", d.unix_address(), "prove", "--circuit", "random-dense",
                     "--size", "64", "--partitions", "2", "--verify", "--out", proof.string(), "--vk", vk.string()},
                    tmp.path());
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("verified locally: 2 proof(s) valid"), std::string::npos) << out;
    // The files are what `cuzk verify` reads.
    std::tie(rc, out) = run_program({CUZK_CLI_PATH, "verify", "--vk", vk.string(), "--proof", proof.string(),
                                     "--public", proof.string() + ".public.json"},
                                    tmp.path());
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("0 invalid"), std::string::npos) << out;

    std::tie(rc, out) = run_program(
        {CUZK_CLI_PATH, "client", "--address", d.tcp(), "submit", "--circuit", "random-dense", "--size", "64"},
        tmp.path(), true);
    ASSERT_EQ(rc, 0) << out;
    const std::string job = out.substr(0, out.find('\n'));
    std::tie(rc, out) = run_program({CUZK_CLI_PATH, "client", "--address", d.tcp(), "await", job}, tmp.path());
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("completed"), std::string::npos) << out;
    std::tie(rc, out) = run_program({CUZK_CLI_PATH, "client", "--address", d.tcp(), "status"}, tmp.path());
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("proofs completed"), std::string::npos) << out;
    std::tie(rc, out) = run_program({CUZK_CLI_PATH, "client", "--address", d.tcp(), "metrics"}, tmp.path());
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("cuzk_daemon_rpc_total"), std::string::npos) << out;
    std::tie(rc, out) = run_program({CUZK_CLI_PATH, "client", "--address", d.tcp(), "cancel", "nope"}, tmp.path());
    EXPECT_EQ(rc, 1) << out;
    EXPECT_NE(out.find("NOT_FOUND"), std::string::npos) << out;
    std::tie(rc, out) = run_program(
        {CUZK_CLI_PATH, "client", "--address", d.tcp(), "submit", "--kind", "snap-deals-update"}, tmp.path());
    EXPECT_EQ(rc, 1) << out;
    EXPECT_NE(out.find("INVALID_ARGUMENT: comm_r_old: expected 32 bytes"), std::string::npos) << out;
    std::tie(rc, out) = run_program(
        {CUZK_CLI_PATH, "client", "--address", d.tcp(), "submit", "--kind", "porep-seal-commit"}, tmp.path());
    EXPECT_EQ(rc, 1) << out;
    EXPECT_NE(out.find("INVALID_ARGUMENT: porep-seal-commit needs the C1 output"), std::string::npos) << out;
    EXPECT_EQ(d.stop(), 0);
    // Nobody listening: a clear message, not a hang.
    std::tie(rc, out) = run_program({CUZK_CLI_PATH, "client", "--address", d.tcp(), "status"}, tmp.path());
    EXPECT_EQ(rc, 1) << out;
    EXPECT_NE(out.find("cannot reach cuzk-daemon at " + d.tcp()), std::string::npos) << out;
}

// ---- load ---------------------------------------------------------------------------------

// 200 small proofs from 16 concurrent clients (each its own channel): all complete and
// verify on the client side; no queue passes its bound; memory stays within the budget.
TEST(SlowDaemonLoad, TwoHundredProofsFromSixteenClients) {
    TempDir tmp;
    DaemonOptions o;
    o.engine_toml = "memory_budget = \"2GiB\"\nwitness_queue_bound = 4\nfinalize_queue_bound = 8";
    Daemon d(tmp.path(), o);
    constexpr int kClients = 16, kProofs = 200;
    std::atomic<int> next{0}, ok{0};
    std::mutex mu;
    std::vector<std::string> failures;
    std::set<std::string> ids;
    std::vector<std::thread> clients;
    const auto t0 = std::chrono::steady_clock::now();
    for (int c = 0; c < kClients; ++c) {
        clients.emplace_back([&, c] {
            auto stub = d.stub(c % 2 ? d.tcp() : d.unix_address());
            for (int i; (i = next++) < kProofs;) {
                // Two shapes interleaved so that two parameter sets are in use at once.
                auto req = builtin("random-dense", i % 4 == 0 ? 2 * kDense : kDense);
                req.set_priority(v1::Priority(1 + i % 4));
                grpc::Status st;
                v1::AwaitBuiltinResponse r;
                if (i % 2) {
                    r = prove_builtin(*stub, req, &st);
                } else {
                    std::string job;
                    st = submit_builtin(*stub, req, &job);
                    if (st.ok()) r = await_builtin(*stub, job, 0, &st);
                }
                std::string why =
                    !st.ok() ? code_and_message(st)
                    : r.result().status() != v1::AwaitProofResponse::COMPLETED
                        ? "status " + std::to_string(r.result().status()) + " " + r.result().error_message()
                        : verify_locally(r);
                std::lock_guard lock(mu);
                ids.insert(r.result().job_id());
                if (why.empty())
                    ++ok;
                else
                    failures.push_back("proof " + std::to_string(i) + ": " + why);
            }
        });
    }
    for (auto& t : clients) t.join();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("200 proofs from 16 clients in %.2f s\n", s);
    for (const auto& f : failures) ADD_FAILURE() << f;
    EXPECT_EQ(ok.load(), kProofs);
    EXPECT_EQ(ids.size(), size_t(kProofs)) << "job ids are unique";

    const auto st = d.status_json();
    EXPECT_LE(st.at("memory").at("high_water_bytes").get<uint64_t>(),
              st.at("memory").at("budget_bytes").get<uint64_t>())
        << st.dump();
    EXPECT_GT(st.at("memory").at("high_water_bytes").get<uint64_t>(), 0u) << "reservations were made";
    for (const auto& q : st.at("queues")) {
        EXPECT_LE(q.at("high_water").get<uint64_t>(), q.at("bound").get<uint64_t>()) << q.dump();
    }
    EXPECT_EQ(st.at("jobs").at("completed").get<uint64_t>(), uint64_t(kProofs)) << st.dump();
    expect_idle(d);
    EXPECT_EQ(d.stop(), 0) << d.log();
}

}  // namespace
}  // namespace cuzk::test
