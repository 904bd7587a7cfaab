// The operator's view of a real cuzk-daemon (harness.hpp): Curio-style metrics per proof
// kind and the cost of a proof, deadlines over gRPC, the dashboard's pages and JSON API,
// and the admin token on the requests that change state.
#include <cmath>
#include <regex>
#include <set>

#include "harness.hpp"

namespace cuzk::test {
namespace {

constexpr uint64_t kDense = 64;  // random-dense constraints: ~10 ms a proof on the CPU
constexpr uint64_t kLong = 512;  // ~100 ms a partition on the CPU
const std::string kToken = "test-admin-token-0123456789";

// The value of the sample `name{labels}` (labels exactly as printed), or NaN.
double sample(const std::string& metrics, const std::string& series) {
    std::istringstream in(metrics);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(series + " ", 0) == 0) return std::stod(line.substr(series.size() + 1));
    return std::nan("");
}

std::string metrics(const Daemon& d) {
    auto r = d.http_get("/metrics");
    if (!r || r->first != 200) throw std::runtime_error("GET /metrics failed");
    return r->second;
}

nlohmann::json get_json(const Daemon& d, const std::string& path, int want_status = 200) {
    auto r = d.http_get(path);
    EXPECT_TRUE(r) << path;
    if (!r) return {};
    EXPECT_EQ(r->first, want_status) << path << ": " << r->second;
    return nlohmann::json::parse(r->second);
}

TEST(DaemonOps, MetricsPerKindInCurioStyleAndTheCostOfAProof) {
    TempDir dir;
    DaemonOptions o;
    o.engine_toml = "\n[cost]\ndollars_per_hour = 3.6\n";
    Daemon d(dir.path(), o);
    auto stub = d.stub();
    prove_builtin(*stub, builtin("random-dense", kDense, 2));
    prove_builtin(*stub, builtin("random-dense", kDense, 1, 7));
    const std::string m = metrics(d);
    EXPECT_EQ(sample(m, "cuzk_tasks_started_total{task_name=\"builtin\"}"), 2) << m;
    EXPECT_EQ(sample(m, "cuzk_tasks_completed_total{task_name=\"builtin\"}"), 2);
    EXPECT_EQ(sample(m, "cuzk_tasks_failed_total{task_name=\"builtin\"}"), 0);
    EXPECT_EQ(sample(m, "cuzk_task_duration_seconds_count{task_name=\"builtin\",success=\"true\"}"), 2);
    EXPECT_EQ(sample(m, "cuzk_task_duration_seconds_bucket{task_name=\"builtin\",success=\"true\",le=\"+Inf\"}"), 2);
    EXPECT_EQ(sample(m, "cuzk_task_queue_wait_seconds_count{task_name=\"builtin\"}"), 2);
    EXPECT_GT(sample(m, "cuzk_task_duration_seconds_sum{task_name=\"builtin\",success=\"true\"}"), 0);
    EXPECT_GT(sample(m, "cuzk_ram_used_bytes"), 1e6);
    EXPECT_GE(sample(m, "cuzk_gpu_busy_ratio{device=\"-1\"}"), 0);
    EXPECT_EQ(sample(m, "cuzk_cost_dollars_per_hour"), 3.6);
    // A daemon younger than a minute counts its proofs over one minute: 2 proofs are 120 an
    // hour, and the hour's 3.6 dollars over 120 proofs are 0.03 a proof.
    EXPECT_NEAR(sample(m, "cuzk_proofs_per_hour{task_name=\"builtin\"}"), 120, 1e-9);
    EXPECT_NEAR(sample(m, "cuzk_dollars_per_proof{task_name=\"builtin\"}"), 0.03, 1e-12);
    // The same figures in the JSON status and over GetMetrics.
    const auto s = d.status_json();
    ASSERT_EQ(s.at("kinds").size(), 1u) << s.dump();
    EXPECT_EQ(s.at("kinds")[0].at("kind"), "builtin");
    EXPECT_NEAR(s.at("kinds")[0].at("dollars_per_proof").get<double>(), 0.03, 1e-12);
    EXPECT_NEAR(s.at("kinds")[0].at("proofs_per_hour").get<double>(), 120, 1e-9);
    EXPECT_EQ(s.at("cost").at("dollars_per_hour"), 3.6);
    v1::GetMetricsResponse gm;
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub->GetMetrics(&ctx, v1::GetMetricsRequest(), &gm).ok());
    EXPECT_NE(gm.prometheus_text().find("cuzk_tasks_completed_total{task_name=\"builtin\"} 2"), std::string::npos);
}

// Every metric the daemon exports is in docs/daemon.md's table, and every name there is exported.
TEST(DaemonOps, EveryMetricIsDocumented) {
    TempDir dir;
    Daemon d(dir.path());
    prove_builtin(*d.stub(), builtin("random-dense", kDense));
    const std::string m = metrics(d);
    const std::string doc = read_text(fs::path(CUZK_EXAMPLE_CONFIG).parent_path() / "docs" / "daemon.md");
    std::set<std::string> exported;
    const std::regex type_line(R"(# TYPE (\S+) )");
    for (std::sregex_iterator it(m.begin(), m.end(), type_line), end; it != end; ++it) exported.insert((*it)[1]);
    ASSERT_GT(exported.size(), 20u);
    for (const auto& name : exported) EXPECT_NE(doc.find("`" + name + "`"), std::string::npos) << name;
    const std::regex doc_row(R"(\n\| `(cuzk_[a-z0-9_]+)`)");
    size_t documented = 0;
    for (std::sregex_iterator it(doc.begin(), doc.end(), doc_row), end; it != end; ++it, ++documented)
        EXPECT_TRUE(exported.count((*it)[1])) << (*it)[1] << " is documented but not exported";
    EXPECT_EQ(documented, exported.size());
}

TEST(DaemonOps, AJobPastItsDeadlineEndsInTimeoutAndIsCounted) {
    TempDir dir;
    DaemonOptions o;
    o.engine_toml = "witness_workers = 1\ncpu_prove_workers = 1\n";
    Daemon d(dir.path(), o);
    auto stub = d.stub();
    const auto now_ms = uint64_t(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count());
    // 32 partitions of ~100 ms each (one witness worker, one prover) cannot be done in 300 ms.
    auto req = builtin("random-dense", kLong, 32);
    req.set_deadline_unix_ms(now_ms + 300);
    std::string job;
    ASSERT_TRUE(submit_builtin(*stub, req, &job).ok());
    grpc::Status st;
    auto r = await_builtin(*stub, job, 0, &st);
    ASSERT_TRUE(st.ok()) << code_and_message(st);
    EXPECT_EQ(r.result().status(), v1::AwaitProofResponse::TIMEOUT);
    EXPECT_NE(r.result().error_message().find("deadline passed"), std::string::npos) << r.result().error_message();
    const std::string m = metrics(d);
    EXPECT_EQ(sample(m, "cuzk_deadline_risk_total{task_name=\"builtin\"}"), 1) << m;
    EXPECT_EQ(sample(m, "cuzk_deadline_missed_total{task_name=\"builtin\"}"), 1);
    EXPECT_EQ(sample(m, "cuzk_tasks_failed_total{task_name=\"builtin\"}"), 1);
    EXPECT_NE(d.log().find("event=deadline_risk job=" + job), std::string::npos);
    const auto listed = get_json(d, "/api/jobs/" + job);
    EXPECT_EQ(listed.at("deadline_missed"), true);
    EXPECT_EQ(listed.at("deadline_unix_ms"), now_ms + 300);
    // A deadline already passed, or past 2100, is refused naming it.
    req.set_deadline_unix_ms(now_ms - 1000);
    st = submit_builtin(*stub, req, nullptr);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(st.error_message().find("deadline has already passed"), std::string::npos) << st.error_message();
    req.set_deadline_unix_ms(uint64_t(1) << 62);
    st = submit_builtin(*stub, req, nullptr);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(st.error_message().find("deadline_unix_ms"), std::string::npos) << st.error_message();
    // A job with a deadline it meets completes as any other.
    auto ok = builtin("random-dense", kDense);
    ok.set_deadline_unix_ms(now_ms + 600000);
    auto done = prove_builtin(*stub, ok);
    EXPECT_EQ(done.result().status(), v1::AwaitProofResponse::COMPLETED);
}

TEST(DaemonDashboard, PagesAndTheirJsonAreServed) {
    TempDir dir;
    DaemonOptions o;
    o.engine_toml = "\n[cost]\ndollars_per_hour = 1.5\n";
    Daemon d(dir.path(), o);
    for (const char* page : {"/", "/index.html", "/app.js", "/app.css"}) {
        auto r = d.http_get(page);
        ASSERT_TRUE(r) << page;
        EXPECT_EQ(r->first, 200) << page;
        EXPECT_GT(r->second.size(), 500u) << page;
    }
    EXPECT_NE(d.http_get("/")->second.find("<script src=\"/app.js\">"), std::string::npos);
    auto stub = d.stub();
    auto done = prove_builtin(*stub, builtin("random-dense", kDense, 2));
    const std::string job = done.result().job_id();

    const auto jobs = get_json(d, "/api/jobs?kind=builtin&state=completed");
    ASSERT_EQ(jobs.at("jobs").size(), 1u) << jobs.dump();
    EXPECT_EQ(jobs.at("jobs")[0].at("job_id"), job);
    EXPECT_EQ(get_json(d, "/api/jobs?state=running").at("jobs").size(), 0u);
    EXPECT_EQ(get_json(d, "/api/jobs?kind=window-post").at("jobs").size(), 0u);
    EXPECT_NE(get_json(d, "/api/jobs?state=done", 400)
                  .at("error")
                  .get<std::string>()
                  .find("state \"done\": expected queued, running, active"),
              std::string::npos);
    EXPECT_NE(get_json(d, "/api/jobs?limit=0", 400).at("error").get<std::string>().find("limit"), std::string::npos);

    const auto detail = get_json(d, "/api/jobs/" + job);
    EXPECT_EQ(detail.at("state"), "COMPLETED");
    EXPECT_EQ(detail.at("partitions_done"), 2);
    std::set<std::string> phases;
    for (const auto& p : detail.at("phases")) phases.insert(p.at("phase").get<std::string>());
    for (const char* p : {"queue_wait", "witness", "prove", "msm_h", "verify"}) EXPECT_TRUE(phases.count(p)) << p;
    EXPECT_NE(get_json(d, "/api/jobs/job-0-1", 404).at("error").get<std::string>().find("unknown job id"),
              std::string::npos);

    const auto tl = get_json(d, "/api/timeline?seconds=60");
    std::set<uint64_t> partitions;
    for (const auto& s : tl.at("spans"))
        if (s.at("job_id") == job) partitions.insert(s.at("partition").get<uint64_t>());
    EXPECT_EQ(partitions, (std::set<uint64_t>{0, 1})) << tl.dump().substr(0, 2000);
    get_json(d, "/api/timeline?seconds=99999", 400);

    const auto ov = get_json(d, "/api/overview");
    EXPECT_EQ(ov.at("jobs").at("completed"), 1);
    EXPECT_EQ(ov.at("admin"), false);
    EXPECT_EQ(ov.at("cost").at("dollars_per_hour"), 1.5);
    EXPECT_TRUE(ov.at("devices")[0].contains("busy_ratio"));

    const auto params = get_json(d, "/api/params");
    ASSERT_EQ(params.at("params").size(), 1u);
    EXPECT_EQ(params.at("params")[0].at("circuit_id"), "random-dense-64-4-1");

    const auto cfg = get_json(d, "/api/config");
    bool cost_seen = false;
    for (const auto& k : cfg.at("keys"))
        if (k.at("key") == "cost.dollars_per_hour") {
            cost_seen = true;
            EXPECT_EQ(k.at("value"), 1.5);
            EXPECT_NE(k.at("source").get<std::string>().find("cuzk.toml:"), std::string::npos) << k.dump();
        }
    EXPECT_TRUE(cost_seen);
}

TEST(DaemonDashboard, StateChangingRequestsNeedTheAdminToken) {
    TempDir dir;
    DaemonOptions o;
    o.daemon_toml = "admin_token = \"" + kToken + "\"";
    Daemon d(dir.path(), o);
    const std::string id = "random-dense-64-4-1";
    const std::string body = "{\"circuit_id\": \"" + id + "\"}";
    // No token: 401 with a challenge; a wrong one: 403. Nothing was loaded.
    auto r = d.http_post("/api/params/preload", body);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 401) << r->body;
    EXPECT_EQ(r->www_authenticate, "Bearer realm=\"cuzk-daemon\"");
    EXPECT_NE(r->body.find("Authorization: Bearer"), std::string::npos) << r->body;
    r = d.http_post("/api/params/preload", body, "wrong-token-0123456789");
    EXPECT_EQ(r->status, 403) << r->body;
    EXPECT_EQ(get_json(d, "/api/params").at("params").size(), 0u);
    EXPECT_NE(d.log().find("event=http_refused"), std::string::npos);
    // With it: the same code as PreloadSRS and EvictSRS.
    r = d.http_post("/api/params/preload", body, kToken);
    EXPECT_EQ(r->status, 200) << r->body;
    EXPECT_EQ(nlohmann::json::parse(r->body).at("already_loaded"), false);
    EXPECT_EQ(get_json(d, "/api/params").at("params")[0].at("circuit_id"), id);
    EXPECT_NE(d.log().find("event=preload circuit=" + id + " already_loaded=false"), std::string::npos);
    r = d.http_post("/api/params/evict", body, "");
    EXPECT_EQ(r->status, 401);
    EXPECT_EQ(get_json(d, "/api/params").at("params").size(), 1u);
    r = d.http_post("/api/params/evict", body, kToken);
    EXPECT_EQ(r->status, 200) << r->body;
    EXPECT_EQ(nlohmann::json::parse(r->body).at("was_loaded"), true);
    EXPECT_EQ(get_json(d, "/api/params").at("params").size(), 0u);
    // A bad request with the token is refused as the RPC refuses it.
    r = d.http_post("/api/params/preload", "{\"circuit_id\": \"no-such-circuit\"}", kToken);
    EXPECT_EQ(r->status, 400) << r->body;
    r = d.http_post("/api/params/preload", "not json", kToken);
    EXPECT_EQ(r->status, 400) << r->body;
    EXPECT_NE(r->body.find("circuit_id"), std::string::npos) << r->body;
}

TEST(DaemonDashboard, WithoutAnAdminTokenHttpIsReadOnly) {
    TempDir dir;
    Daemon d(dir.path());
    const std::string body = "{\"circuit_id\": \"random-dense-64-4-1\"}";
    for (const std::string token : {"", "anything-at-all-0123456789"}) {
        auto r = d.http_post("/api/params/preload", body, token);
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 403) << r->body;
        EXPECT_NE(r->body.find("read-only"), std::string::npos) << r->body;
    }
    EXPECT_EQ(get_json(d, "/api/params").at("params").size(), 0u);
    EXPECT_EQ(get_json(d, "/api/overview").at("admin"), false);
}

}  // namespace
}  // namespace cuzk::test

namespace cuzk::test {
namespace {

TEST(DaemonOps, ListJobsAndTheCliJobsAndWatchCommands) {
    TempDir dir;
    Daemon d(dir.path());
    auto stub = d.stub();
    const std::string first = prove_builtin(*stub, builtin("random-dense", kDense)).result().job_id();
    const std::string second = prove_builtin(*stub, builtin("random-dense", kDense, 2, 3)).result().job_id();
    auto list = [&](const std::string& kind, const std::string& state, uint32_t limit, grpc::Status* st = nullptr) {
        v1::ListJobsRequest req;
        req.set_kind(kind);
        req.set_state(state);
        req.set_limit(limit);
        v1::ListJobsResponse r;
        grpc::ClientContext ctx;
        const grpc::Status s = stub->ListJobs(&ctx, req, &r);
        if (st) *st = s;
        return r;
    };
    auto r = list("", "completed", 0);
    ASSERT_EQ(r.jobs_size(), 2);
    EXPECT_EQ(r.jobs(0).job_id(), second);  // newest first
    EXPECT_EQ(r.jobs(1).job_id(), first);
    EXPECT_EQ(r.jobs(0).kind(), "builtin");
    EXPECT_EQ(r.jobs(0).state(), "COMPLETED");
    EXPECT_EQ(r.jobs(0).partitions_done(), 2u);
    EXPECT_EQ(r.jobs(0).priority(), v1::NORMAL);
    EXPECT_GT(r.jobs(0).submitted_unix_ms(), 0u);
    EXPECT_EQ(list("", "", 1).jobs_size(), 1);
    EXPECT_EQ(list("window-post", "", 0).jobs_size(), 0);
    EXPECT_EQ(list("", "ACTIVE", 0).jobs_size(), 0);
    grpc::Status st;
    list("", "finished", 0, &st);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_NE(st.error_message().find("state \"finished\""), std::string::npos) << st.error_message();
    list("", "", 5000, &st);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);

    auto [rc, out] =
        run_program({CUZK_CLI_PATH, "client", "--address", d.tcp(), "jobs", "--state", "completed"}, dir.path());
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find(first), std::string::npos) << out;
    EXPECT_NE(out.find(second), std::string::npos) << out;
    EXPECT_NE(out.find("random-dense-64-4-1"), std::string::npos) << out;
    std::tie(rc, out) =
        run_program({CUZK_CLI_PATH, "client", "--address", d.tcp(), "jobs", "--state", "nope"}, dir.path());
    EXPECT_EQ(rc, 1) << out;
    EXPECT_NE(out.find("state \"nope\""), std::string::npos) << out;

    std::tie(rc, out) = run_program(
        {CUZK_CLI_PATH, "client", "--address", d.tcp(), "watch", "--frames", "2", "--interval-ms", "100"}, dir.path());
    EXPECT_EQ(rc, 0) << out;
    size_t frames = 0;
    for (size_t at = out.find("DEVICE"); at != std::string::npos; at = out.find("DEVICE", at + 1)) ++frames;
    EXPECT_EQ(frames, 2u) << out;
    EXPECT_NE(out.find("2 completed"), std::string::npos) << out;
    EXPECT_NE(out.find("builtin"), std::string::npos) << out;
}

}  // namespace
}  // namespace cuzk::test
