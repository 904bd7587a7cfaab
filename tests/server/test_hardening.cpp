// cuzk-daemon against hostile or careless clients and operators: busy ports, job ids
// across restarts, oversized and unprintable strings, raw HTTP, metric names.
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <atomic>
#include <regex>

#include "cuzk/common/echo.hpp"
#include "harness.hpp"

namespace cuzk::test {
namespace {

int port_of(const std::string& address) { return std::stoi(address.substr(address.rfind(':') + 1)); }

// A TCP connection to 127.0.0.1:port; -1 when refused.
int connect_local(int port) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(uint16_t(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

// Sends raw bytes to the HTTP port and reads the answer until the server closes or
// `timeout` passes; the answer and the seconds until its first byte.
std::pair<std::string, double> raw_http(int port, const std::string& bytes, std::chrono::milliseconds timeout = 3s) {
    const int fd = connect_local(port);
    if (fd < 0) return {"", 0};
    const auto t0 = std::chrono::steady_clock::now();
    (void)send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    std::string out;
    double first = -1;
    for (;;) {
        const auto left =
            timeout - std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
        pollfd p{fd, POLLIN, 0};
        if (left.count() <= 0 || poll(&p, 1, int(left.count())) <= 0) break;
        char buf[4096];
        const ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        if (first < 0) first = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        out.append(buf, size_t(n));
        if (out.find("\r\n\r\n") != std::string::npos) break;  // the status line and headers are enough
    }
    close(fd);
    return {out, first};
}

grpc::Status submit(v1::ProvingEngine::Stub& stub, const v1::SubmitBuiltinRequest& req, std::string* job = nullptr) {
    v1::SubmitProofResponse r;
    grpc::ClientContext ctx;
    auto st = stub.SubmitBuiltin(&ctx, req, &r);
    if (job) *job = r.job_id();
    return st;
}

std::string metrics_text(const Daemon& d) {
    v1::GetMetricsResponse gm;
    grpc::ClientContext ctx;
    EXPECT_TRUE(d.stub()->GetMetrics(&ctx, v1::GetMetricsRequest{}, &gm).ok());
    return gm.prometheus_text();
}

// A second daemon on a busy TCP port (gRPC or HTTP) must fail at start naming the port,
// not share the port with the first and take half of its clients.
TEST(DaemonHardening, SecondDaemonOnABusyPortFailsNamingThePort) {
    TempDir tmp;
    Daemon first(tmp.path() / "a");
    for (const bool grpc_port : {true, false}) {
        SCOPED_TRACE(grpc_port ? "gRPC port" : "HTTP port");
        const std::string busy = grpc_port ? first.tcp() : first.http();
        const fs::path cfg = tmp.path() / "second.toml";
        std::ofstream(cfg) << "[daemon]\nlisten = [\"" << (grpc_port ? busy : "127.0.0.1:0") << "\"]\nhttp_listen = \""
                           << (grpc_port ? "" : busy) << "\"\n[engine]\nbackend = \"cpu\"\nparam_cache = \""
                           << (tmp.path() / "params").string() << "\"\n";
        // A second daemon that binds would serve until killed: `timeout` ends it (124).
        auto [rc, out] = run_program({"timeout", "10", CUZK_DAEMON_PATH, "--config", cfg.string()}, tmp.path());
        EXPECT_EQ(rc, 1) << out;
        EXPECT_NE(out.find(busy), std::string::npos) << out;
        EXPECT_NE(out.find("in use"), std::string::npos) << out;
    }
    // The first one still serves every connection.
    for (int i = 0; i < 8; ++i) {
        v1::GetStatusResponse st;
        grpc::ClientContext ctx;
        EXPECT_TRUE(first.stub()->GetStatus(&ctx, v1::GetStatusRequest{}, &st).ok());
        auto h = first.http_get("/healthz");
        ASSERT_TRUE(h);
        EXPECT_EQ(h->first, 200);
    }
    EXPECT_EQ(first.stop(), 0) << first.log();
}

// Job ids never repeat across restarts: an id from before is NOT_FOUND for every RPC that
// takes one, never another job's proof.
TEST(DaemonHardening, JobIdsDoNotRepeatAcrossRestarts) {
    TempDir tmp;
    Daemon d(tmp.path());
    std::string before;
    ASSERT_TRUE(submit(*d.stub(), builtin("random-dense", 64), &before).ok());
    EXPECT_LE(before.size(), 32u) << before;
    EXPECT_TRUE(printable(before)) << before;
    EXPECT_EQ(d.stop(SIGKILL), 128 + SIGKILL);
    d.start();
    auto stub = d.stub();
    std::string after;
    ASSERT_TRUE(submit(*stub, builtin("random-dense", 64), &after).ok());
    EXPECT_NE(before, after);
    {
        v1::AwaitProofRequest req;
        req.set_job_id(before);
        v1::AwaitProofResponse r;
        grpc::ClientContext ctx;
        auto st = stub->AwaitProof(&ctx, req, &r);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::NOT_FOUND) << code_and_message(st);
        EXPECT_NE(st.error_message().find(before), std::string::npos) << st.error_message();
    }
    {
        v1::AwaitProofRequest req;
        req.set_job_id(before);
        req.set_timeout_ms(10);
        v1::AwaitBuiltinResponse r;
        grpc::ClientContext ctx;
        auto st = stub->AwaitBuiltin(&ctx, req, &r);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::NOT_FOUND) << code_and_message(st);
    }
    {
        v1::CancelProofRequest req;
        req.set_job_id(before);
        v1::CancelProofResponse r;
        grpc::ClientContext ctx;
        auto st = stub->CancelProof(&ctx, req, &r);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::NOT_FOUND) << code_and_message(st);
    }
    EXPECT_EQ(d.stop(), 0) << d.log();
}

// PreloadSRS takes the circuit ids submit would prove with, refused the same way.
TEST(DaemonHardening, PreloadRefusesWhatSubmitRefuses) {
    TempDir tmp;
    Daemon d(tmp.path());
    auto stub = d.stub();
    struct Case {
        std::string id;
        v1::SubmitBuiltinRequest submit;
    };
    auto dense = builtin("random-dense", 5);
    dense.set_inputs(99999);
    const std::vector<Case> cases = {{"sha256-chain-999999999", builtin("sha256-chain", 999999999)},
                                     {"random-dense-5-99999-1", dense}};
    for (const auto& c : cases) {
        SCOPED_TRACE(c.id);
        v1::PreloadSrsRequest req;
        req.set_circuit_id(c.id);
        v1::PreloadSrsResponse r;
        grpc::ClientContext ctx;
        const auto t0 = std::chrono::steady_clock::now();
        auto st = stub->PreloadSRS(&ctx, req, &r);
        EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s) << "refused before any work";
        auto sub = submit(*stub, c.submit);
        EXPECT_EQ(sub.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << code_and_message(sub);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << code_and_message(st);
        EXPECT_EQ(st.error_message(), sub.error_message());
    }
    EXPECT_EQ(d.stop(), 0) << d.log();
}

// Strings from requests reach errors and logs bounded and printable; submit refuses an
// oversized or unprintable request_id.
TEST(DaemonHardening, RequestStringsAreBoundedInErrorsAndLogs) {
    TempDir tmp;
    Daemon d(tmp.path());
    auto stub = d.stub();
    const std::string huge = std::string(1000000, 'x') + "\x01\n";
    const std::string marker = "(1000002 bytes)";
    auto short_and_marked = [&](const grpc::Status& st) {
        EXPECT_LT(st.error_message().size(), 600u);
        EXPECT_NE(st.error_message().find(marker), std::string::npos) << st.error_message();
        EXPECT_TRUE(printable(st.error_message())) << st.error_message();
    };
    {
        auto st = submit(*stub, builtin(huge, 1));
        EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << code_and_message(st).substr(0, 300);
        short_and_marked(st);
    }
    {
        v1::SubmitProofRequest req;
        req.set_proof_kind(v1::POREP_SEAL_COMMIT);
        req.set_vanilla_proof("{}");
        req.set_request_id(huge);
        v1::SubmitProofResponse r;
        grpc::ClientContext ctx;
        auto st = stub->SubmitProof(&ctx, req, &r);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << code_and_message(st).substr(0, 300);
        short_and_marked(st);
        EXPECT_NE(st.error_message().find("request_id"), std::string::npos) << st.error_message();
    }
    for (const std::string& id : {std::string(129, 'r'), std::string("line\nbreak"), std::string("nul\0x", 5)}) {
        auto req = builtin("random-dense", 64);
        req.set_request_id(id);
        auto st = submit(*stub, req);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << code_and_message(st);
        EXPECT_NE(st.error_message().find("request_id"), std::string::npos) << st.error_message();
    }
    {
        auto req = builtin("random-dense", 64);
        req.set_request_id(std::string(128, 'r'));
        EXPECT_TRUE(submit(*stub, req).ok()) << "128 printable characters are a valid request_id";
    }
    {
        v1::AwaitProofRequest req;
        req.set_job_id(huge);
        v1::AwaitProofResponse r;
        grpc::ClientContext ctx;
        auto st = stub->AwaitProof(&ctx, req, &r);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::NOT_FOUND);
        short_and_marked(st);
        v1::CancelProofRequest creq;
        creq.set_job_id(huge);
        v1::CancelProofResponse cr;
        grpc::ClientContext cctx;
        st = stub->CancelProof(&cctx, creq, &cr);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::NOT_FOUND);
        short_and_marked(st);
    }
    for (const bool preload : {true, false}) {
        grpc::ClientContext ctx;
        grpc::Status st;
        if (preload) {
            v1::PreloadSrsRequest req;
            req.set_circuit_id(huge);
            v1::PreloadSrsResponse r;
            st = stub->PreloadSRS(&ctx, req, &r);
            EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
            short_and_marked(st);
        } else {
            v1::EvictSrsRequest req;
            req.set_circuit_id(huge);
            v1::EvictSrsResponse r;
            st = stub->EvictSRS(&ctx, req, &r);
            EXPECT_TRUE(st.ok()) << code_and_message(st).substr(0, 300);
        }
    }
    auto h = d.http_get("/" + std::string(4000, 'p') + "%01");
    ASSERT_TRUE(h);
    EXPECT_EQ(h->first, 404);
    EXPECT_EQ(d.stop(), 0) << d.log().substr(0, 2000);
    std::istringstream log(d.log());
    size_t longest = 0;
    for (std::string line; std::getline(log, line);) {
        longest = std::max(longest, line.size());
        EXPECT_TRUE(printable(line)) << line.substr(0, 300);
    }
    EXPECT_LT(longest, 4096u) << "a request string was written into the log unbounded";
}

// The same request_id is the same job only for the same request.
TEST(DaemonHardening, RequestIdWithADifferentRequestIsRefused) {
    TempDir tmp;
    Daemon d(tmp.path());
    auto stub = d.stub();
    auto a = builtin("random-dense", 64, 1, 3);
    a.set_request_id("sector-42-c2");
    std::string j1, j2, j3;
    ASSERT_TRUE(submit(*stub, a, &j1).ok());
    ASSERT_TRUE(submit(*stub, a, &j2).ok());
    EXPECT_EQ(j1, j2) << "an exact retry is the same job";
    for (auto change :
         {+[](v1::SubmitBuiltinRequest& r) { r.set_seed(4); }, +[](v1::SubmitBuiltinRequest& r) { r.set_size(65); },
          +[](v1::SubmitBuiltinRequest& r) { r.set_partitions(2); }}) {
        auto b = a;
        change(b);
        auto st = submit(*stub, b, &j3);
        EXPECT_EQ(st.error_code(), grpc::StatusCode::ALREADY_EXISTS) << code_and_message(st);
        EXPECT_NE(st.error_message().find("sector-42-c2"), std::string::npos) << st.error_message();
        EXPECT_NE(st.error_message().find(j1), std::string::npos) << st.error_message();
        v1::AwaitBuiltinResponse r;
        grpc::ClientContext ctx;
        auto pst = stub->ProveBuiltin(&ctx, b, &r);
        EXPECT_EQ(pst.error_code(), grpc::StatusCode::ALREADY_EXISTS) << code_and_message(pst);
    }
    EXPECT_EQ(d.stop(), 0) << d.log();
}

// Raw HTTP: bodies refused from their Content-Length, malformed requests answered 400,
// idle connections do not hold /healthz back.
TEST(DaemonHardening, HttpRefusesBodiesAndMalformedRequestsAndServesHealthzPastIdleClients) {
    TempDir tmp;
    Daemon d(tmp.path());
    const int port = port_of(d.http());
    for (const char* path : {"/healthz", "/status", "/metrics", "/trace", "/nope"}) {
        SCOPED_TRACE(path);
        auto [out, first] =
            raw_http(port, std::string("POST ") + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n");
        EXPECT_EQ(out.substr(0, 12), "HTTP/1.1 413") << out;
        EXPECT_LT(first, 1.0) << "refused from the Content-Length, without waiting for the body";
    }
    for (const std::string& junk :
         {std::string("garbage\r\n\r\n"), std::string("\x00\xff\xfe garbage\r\n\r\n", 16),
          std::string("GET /healthz\r\n\r\n"), std::string("GET /healthz HTTP/1.1\r\nContent-Length: abc\r\n\r\n"),
          std::string("GET /healthz HTTP/1.1\r\nContent-Length: -5\r\n\r\n")}) {
        SCOPED_TRACE(junk);
        auto [out, first] = raw_http(port, junk);
        EXPECT_EQ(out.substr(0, 12), "HTTP/1.1 400") << out;
    }
    // Idle clients: connected, nothing sent.
    std::vector<int> idle;
    for (int i = 0; i < 12; ++i) idle.push_back(connect_local(port));
    std::this_thread::sleep_for(100ms);
    const auto t0 = std::chrono::steady_clock::now();
    auto [out, first] = raw_http(port, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(out.substr(0, 12), "HTTP/1.1 200") << out;
    EXPECT_LT(s, 0.5) << "/healthz waited behind idle connections";
    for (int fd : idle) close(fd);
    EXPECT_EQ(d.stop(), 0) << d.log();
}

// Every RPC outcome is counted by method and code, refusals included: those the handlers
// make and those gRPC makes before a handler runs (every RPC thread taken).
TEST(DaemonHardening, RefusedRpcsAreCounted) {
    TempDir tmp;
    DaemonOptions o;
    o.daemon_toml = "max_rpc_threads = 4";
    Daemon d(tmp.path(), o);
    auto stub = d.stub();
    EXPECT_EQ(submit(*stub, builtin("nope", 1)).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    {
        v1::CancelProofRequest req;
        req.set_job_id("job-nope");
        v1::CancelProofResponse r;
        grpc::ClientContext ctx;
        EXPECT_EQ(stub->CancelProof(&ctx, req, &r).error_code(), grpc::StatusCode::NOT_FOUND);
    }
    // More waiting awaits than RPC threads: gRPC refuses the rest itself.
    std::string job;
    ASSERT_TRUE(submit(*stub, builtin("random-dense", 512, 8), &job).ok());
    std::vector<std::thread> awaiters;
    std::atomic<int> refused{0};
    for (int i = 0; i < 12; ++i)
        awaiters.emplace_back([&] {
            v1::AwaitProofRequest req;
            req.set_job_id(job);
            req.set_timeout_ms(300);
            v1::AwaitProofResponse r;
            grpc::ClientContext ctx;
            if (!d.stub()->AwaitProof(&ctx, req, &r).ok()) ++refused;
        });
    for (auto& t : awaiters) t.join();
    const std::string m = metrics_text(d);
    for (const char* want : {"cuzk_daemon_rpc_total{method=\"SubmitBuiltin\",code=\"INVALID_ARGUMENT\"} 1",
                             "cuzk_daemon_rpc_total{method=\"CancelProof\",code=\"NOT_FOUND\"} 1"})
        EXPECT_NE(m.find(want), std::string::npos) << want << "\n" << m;
    std::printf("%d of 12 awaits refused\n%s", refused.load(), m.substr(m.find("cuzk_daemon_rpc_total")).c_str());
    EXPECT_GT(refused.load(), 0);
    EXPECT_NE(m.find("cuzk_daemon_rpc_total{method=\"AwaitProof\",code=\"RESOURCE_EXHAUSTED\"} " +
                     std::to_string(refused.load())),
              std::string::npos)
        << m;
    EXPECT_EQ(d.stop(), 0) << d.log();
}

// Prometheus naming: counters end in _total, gauges and histograms do not, histograms
// carry a unit; promtool (Debian package prometheus) checks the text when installed.
TEST(DaemonHardening, MetricNamesFollowPrometheusConventions) {
    TempDir tmp;
    Daemon d(tmp.path());
    auto stub = d.stub();
    v1::AwaitBuiltinResponse r;
    grpc::ClientContext ctx;
    ASSERT_TRUE(stub->ProveBuiltin(&ctx, builtin("random-dense", 64), &r).ok());
    auto http = d.http_get("/metrics");
    ASSERT_TRUE(http);
    for (const std::string& text : {http->second, metrics_text(d)}) {
        std::istringstream in(text);
        const std::regex type_line("# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary)");
        size_t counters = 0;
        for (std::string line; std::getline(in, line);) {
            std::smatch m;
            if (line.rfind("# TYPE", 0) != 0) continue;
            ASSERT_TRUE(std::regex_match(line, m, type_line)) << line;
            const std::string name = m[1], type = m[2];
            const bool total = name.size() > 6 && name.substr(name.size() - 6) == "_total";
            if (type == "counter") {
                ++counters;
                EXPECT_TRUE(total) << name << ": a counter's name ends in _total";
            } else {
                EXPECT_FALSE(total) << name << ": only counters end in _total";
            }
            if (type == "histogram" || type == "summary") {
                EXPECT_TRUE(name.find("_seconds") != std::string::npos || name.find("_bytes") != std::string::npos)
                    << name << ": a histogram names its unit";
            }
        }
        EXPECT_GE(counters, 5u);
    }
    if (std::system("command -v promtool > /dev/null 2>&1") == 0) {
        const fs::path f = tmp.path() / "metrics.txt";
        std::ofstream(f) << http->second;
        auto [rc, out] = run_program({"sh", "-c", "promtool check metrics < '" + f.string() + "'"}, tmp.path());
        EXPECT_EQ(rc, 0) << out;
    } else {
        std::printf("promtool not installed (Debian: apt-get install prometheus): its check is skipped\n");
    }
    EXPECT_EQ(d.stop(), 0) << d.log();
}

// --check-config runs the checks start runs, on the configuration after the overrides.
TEST(DaemonHardening, CheckConfigRefusesWhatStartRefuses) {
    TempDir tmp;
    const fs::path cfg = tmp.path() / "c.toml";
    struct Case {
        std::string toml;
        std::vector<std::string> args;
        std::string needle;
    };
    const std::vector<Case> cases = {
        {"[daemon]\nlisten = []\n", {}, "nothing to listen on"},
        {"", {"--listen", "127.0.0.1:99999999999"}, "127.0.0.1:99999999999"},
        {"", {"--listen", "127.0.0.1:65536"}, "127.0.0.1:65536"},
        {"", {"--listen", "127.0.0.1:x1"}, "127.0.0.1:x1"},
        {"", {"--http", "unix:" + (tmp.path() / "h.sock").string()}, "no unix sockets"},
        {"", {"--http", "127.0.0.1:99999999999"}, "127.0.0.1:99999999999"},
        {"[daemon]\nhttp_listen = \"127.0.0.1:-1\"\n", {}, "daemon.http_listen"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.toml + (c.args.empty() ? "" : c.args.back()));
        std::ofstream(cfg) << c.toml;
        for (const bool check : {true, false}) {
            // A start that wrongly succeeds would serve until killed: `timeout` ends it.
            std::vector<std::string> args = {"timeout", "10", CUZK_DAEMON_PATH, "--config", cfg.string()};
            args.insert(args.end(), c.args.begin(), c.args.end());
            if (check) args.push_back("--check-config");
            auto [rc, out] = run_program(args, tmp.path());
            EXPECT_EQ(rc, 2) << (check ? "--check-config: " : "start: ") << out;
            EXPECT_NE(out.find(c.needle), std::string::npos) << out;
        }
    }
}

// A killed `cuzk client prove` has printed its job id before it waited.
TEST(DaemonHardening, CliProvePrintsTheJobIdBeforeWaiting) {
    TempDir tmp;
    Daemon d(tmp.path());
    const fs::path out = tmp.path() / "prove.out";
    const std::string cmd = std::string("'") + CUZK_CLI_PATH + "' client --address " + d.tcp() +
                            " prove --circuit random-dense --size 512 --partitions 40 > '" + out.string() +
                            "' 2>&1 & echo $!";
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    int pid = 0;
    ASSERT_EQ(fscanf(p, "%d", &pid), 1);
    pclose(p);
    std::smatch m;
    const std::regex line("submitted: job (\\S+)\n");
    std::string text;
    for (int i = 0; i < 500 && !std::regex_search(text = read_text(out), m, line); ++i)
        std::this_thread::sleep_for(10ms);
    ::kill(pid, SIGKILL);
    ASSERT_TRUE(std::regex_search(text, m, line)) << text;
    const std::string job = m[1];
    auto [rc, cancel] = run_program({CUZK_CLI_PATH, "client", "--address", d.tcp(), "cancel", job}, tmp.path());
    EXPECT_EQ(rc, 0) << cancel;
    EXPECT_NE(cancel.find("job " + job + " cancelled"), std::string::npos) << cancel;
    EXPECT_EQ(d.stop(), 0) << d.log();
}

// A short `cuzk client soak`: every request answered as its class expects, every accepted
// job completed and verified, the daemon's peak RSS within its budget.
TEST(DaemonHardening, ShortSoak) {
    TempDir tmp;
    DaemonOptions o;
    o.engine_toml = "memory_budget = \"4GiB\"";
    Daemon d(tmp.path(), o);
    auto [rc, out] = run_program({CUZK_CLI_PATH, "client", "--address", d.tcp(), "soak", "--duration", "15", "--rate",
                                  "15", "--clients", "4", "--pid", std::to_string(d.pid())},
                                 tmp.path());
    std::printf("%s", out.c_str());
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("soak: ok"), std::string::npos) << out;
    for (const char* cls : {"valid-prove", "valid-submit", "bad-kind", "oversize-string", "garbage-vanilla", "bad-size",
                            "unknown-job", "duplicate-request-id"})
        EXPECT_NE(out.find(cls), std::string::npos) << cls << " not sent\n" << out;
    EXPECT_NE(out.find("peak VmRSS"), std::string::npos) << out;
    // Pointed elsewhere than this machine, it refuses.
    std::tie(rc, out) = run_program({CUZK_CLI_PATH, "client", "--address", "10.1.2.3:9820", "soak"}, tmp.path());
    EXPECT_EQ(rc, 1) << out;
    EXPECT_NE(out.find("this machine only"), std::string::npos) << out;
    EXPECT_EQ(d.stop(), 0) << d.log();
}

}  // namespace
}  // namespace cuzk::test
