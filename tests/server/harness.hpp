// A real cuzk-daemon process for the server tests: started with a temporary config on a
// free TCP port (port 0, read back from --ready-file), a unix socket and an HTTP status
// port, talked to through the generated gRPC stub, and stopped with a signal.
#pragma once

#include <gtest/gtest.h>
#include <httplib.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/server/client.hpp"
#include "cuzk/v1/proving.grpc.pb.h"

extern char** environ;

namespace cuzk::test {

namespace fs = std::filesystem;
namespace v1 = cuzk::v1;
using namespace std::chrono_literals;

inline std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// A fresh directory under the system temp dir, removed at the end of the test.
class TempDir {
 public:
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "cuzk-srv-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    const fs::path& path() const { return path_; }

 private:
    fs::path path_;
};

// Runs a program, waits for it; returns (exit status, stdout + stderr, or only stdout).
inline std::pair<int, std::string> run_program(const std::vector<std::string>& args, const fs::path& dir,
                                               bool only_stdout = false) {
    const fs::path out = dir / ("run-" + std::to_string(::getpid()) + ".out");
    std::string cmd;
    for (const auto& a : args) cmd += "'" + a + "' ";
    cmd += "> '" + out.string() + (only_stdout ? "' 2>/dev/null" : "' 2>&1");
    const int rc = std::system(cmd.c_str());
    return {WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, read_text(out)};
}

struct DaemonOptions {
    std::string tcp = "127.0.0.1:0";   // the gRPC TCP address
    std::string http = "127.0.0.1:0";  // http_listen
    std::string daemon_toml;           // extra lines of [daemon]
    std::string engine_toml;           // extra lines of [engine]
    std::string sections_toml;         // sections after [engine] ([zkey.<name>] ...)
    bool unix_socket = true;
    std::optional<fs::path> socket_path;  // default: <dir>/cuzk.sock
    std::optional<fs::path> param_cache;  // default: <dir>/params
};

class Daemon {
 public:
    explicit Daemon(const fs::path& dir, DaemonOptions o = {}) : dir_(dir), opt_(std::move(o)) {
        fs::create_directories(dir_);
        socket_ = opt_.socket_path.value_or(dir_ / "cuzk.sock");
        config_ = dir_ / "cuzk.toml";
        std::ofstream cfg(config_);
        cfg << "[daemon]\nlisten = [\"" << opt_.tcp << "\""
            << (opt_.unix_socket ? ", \"unix:" + socket_.string() + "\"" : "") << "]\nhttp_listen = \"" << opt_.http
            << "\"\nlog_level = \"debug\"\n"
            << opt_.daemon_toml << "\n[engine]\nbackend = \"cpu\"\nparam_cache = \""
            << opt_.param_cache.value_or(dir_ / "params").string() << "\"\n"
            << opt_.engine_toml << "\n"
            << opt_.sections_toml << "\n";
        cfg.close();
        start();
    }
    ~Daemon() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
    }

    void start() {
        const fs::path ready = dir_ / "ready.json";
        fs::remove(ready);
        log_ = dir_ / ("daemon-" + std::to_string(++starts_) + ".log");
        const std::string ready_s = ready.string(), config_s = config_.string();
        std::vector<std::string> args = {CUZK_DAEMON_PATH, "--config", config_s, "--ready-file", ready_s};
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 1, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_adddup2(&fa, 1, 2);
        const int rc = posix_spawn(&pid_, CUZK_DAEMON_PATH, &fa, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&fa);
        if (rc != 0) throw std::runtime_error("cannot start " + std::string(CUZK_DAEMON_PATH));
        const auto t0 = std::chrono::steady_clock::now();
        while (!fs::exists(ready)) {
            int st = 0;
            if (::waitpid(pid_, &st, WNOHANG) == pid_) {
                pid_ = -1;
                throw std::runtime_error("cuzk-daemon exited at start:\n" + log());
            }
            if (std::chrono::steady_clock::now() - t0 > 60s)
                throw std::runtime_error("cuzk-daemon not ready:\n" + log());
            std::this_thread::sleep_for(10ms);
        }
        auto j = nlohmann::json::parse(read_text(ready));
        tcp_ = j.at("grpc").at(0).get<std::string>();
        http_ = j.at("http").get<std::string>();
    }

    std::string log() const { return read_text(log_); }
    pid_t pid() const { return pid_; }
    const std::string& tcp() const { return tcp_; }
    std::string unix_address() const { return "unix:" + socket_.string(); }
    const fs::path& socket_path() const { return socket_; }
    const fs::path& dir() const { return dir_; }
    const std::string& http() const { return http_; }
    const fs::path& config_path() const { return config_; }

    std::unique_ptr<v1::ProvingEngine::Stub> stub(const std::string& address = "") const {
        return v1::ProvingEngine::NewStub(server::make_channel(address.empty() ? tcp_ : address));
    }

    // GET on the HTTP status port; nullopt when it cannot be reached.
    std::optional<std::pair<int, std::string>> http_get(const std::string& path) const {
        const size_t colon = http_.rfind(':');
        httplib::Client c(http_.substr(0, colon), std::stoi(http_.substr(colon + 1)));
        c.set_connection_timeout(5);
        auto r = c.Get(path.c_str());
        if (!r) return std::nullopt;
        return std::make_pair(r->status, r->body);
    }
    // POST of a JSON body, with "Authorization: Bearer <token>" unless token is empty;
    // (status, body, WWW-Authenticate header), nullopt when it cannot be reached.
    struct PostResult {
        int status = 0;
        std::string body, www_authenticate;
    };
    std::optional<PostResult> http_post(const std::string& path, const std::string& body,
                                        const std::string& token = "") const {
        const size_t colon = http_.rfind(':');
        httplib::Client c(http_.substr(0, colon), std::stoi(http_.substr(colon + 1)));
        c.set_connection_timeout(5);
        httplib::Headers headers;
        if (!token.empty()) headers.emplace("Authorization", "Bearer " + token);
        auto r = c.Post(path.c_str(), headers, body, "application/json");
        if (!r) return std::nullopt;
        return PostResult{r->status, r->body, r->get_header_value("WWW-Authenticate")};
    }
    nlohmann::json status_json() const {
        auto r = http_get("/status");
        if (!r || r->first != 200) throw std::runtime_error("GET /status failed");
        return nlohmann::json::parse(r->second);
    }

    // Sends `sig` and waits (at most `timeout`) for the exit; the exit status, or -1 for
    // a timeout, or 128 + signal for a death by signal.
    int stop(int sig = SIGTERM, std::chrono::milliseconds timeout = 60s) {
        ::kill(pid_, sig);
        return wait_exit(timeout);
    }
    // Waits (at most `timeout`) for the process to exit; as stop().
    int wait_exit(std::chrono::milliseconds timeout = 60s) {
        const auto t0 = std::chrono::steady_clock::now();
        for (;;) {
            int st = 0;
            if (::waitpid(pid_, &st, WNOHANG) == pid_) {
                pid_ = -1;
                return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            }
            if (std::chrono::steady_clock::now() - t0 > timeout) return -1;
            std::this_thread::sleep_for(5ms);
        }
    }

 private:
    fs::path dir_, config_, log_, socket_;
    DaemonOptions opt_;
    pid_t pid_ = -1;
    int starts_ = 0;
    std::string tcp_, http_;
};

inline v1::SubmitBuiltinRequest builtin(const std::string& circuit, uint64_t size, uint32_t partitions = 1,
                                        uint64_t seed = 1) {
    v1::SubmitBuiltinRequest r;
    r.set_circuit(circuit);
    r.set_size(size);
    r.set_partitions(partitions);
    r.set_seed(seed);
    return r;
}

// gRPC calls of the built-in circuits: a failed status is a test failure unless the
// caller takes it (`status`).
inline std::string code_and_message(const grpc::Status& s) {
    return std::to_string(int(s.error_code())) + " " + s.error_message();
}

inline v1::AwaitBuiltinResponse prove_builtin(v1::ProvingEngine::Stub& stub, const v1::SubmitBuiltinRequest& req,
                                              grpc::Status* status = nullptr) {
    v1::AwaitBuiltinResponse r;
    grpc::ClientContext ctx;
    grpc::Status st = stub.ProveBuiltin(&ctx, req, &r);
    if (status) {
        *status = st;
    } else {
        EXPECT_TRUE(st.ok()) << code_and_message(st);
    }
    return r;
}

inline grpc::Status submit_builtin(v1::ProvingEngine::Stub& stub, const v1::SubmitBuiltinRequest& req,
                                   std::string* job) {
    v1::SubmitProofResponse r;
    grpc::ClientContext ctx;
    grpc::Status st = stub.SubmitBuiltin(&ctx, req, &r);
    if (job) *job = r.job_id();
    return st;
}

inline v1::AwaitBuiltinResponse await_builtin(v1::ProvingEngine::Stub& stub, const std::string& job,
                                              uint64_t timeout_ms = 0, grpc::Status* status = nullptr) {
    v1::AwaitProofRequest req;
    req.set_job_id(job);
    req.set_timeout_ms(timeout_ms);
    v1::AwaitBuiltinResponse r;
    grpc::ClientContext ctx;
    grpc::Status st = stub.AwaitBuiltin(&ctx, req, &r);
    if (status) {
        *status = st;
    } else {
        EXPECT_TRUE(st.ok()) << code_and_message(st);
    }
    return r;
}

// Checks every partition's proof with cuzk's verifier against the daemon's verifying key
// and public inputs; "" when all are valid, else what is wrong.
inline std::string verify_locally(const v1::AwaitBuiltinResponse& r) {
    const auto& vkb = r.verifying_key();
    const auto& pb = r.result().proof();
    try {
        const groth16::PreparedVerifyingKey pvk(
            formats::read_vk_from_bytes({reinterpret_cast<const uint8_t*>(vkb.data()), vkb.size()}));
        const auto proofs = formats::read_proofs_from_bytes({reinterpret_cast<const uint8_t*>(pb.data()), pb.size()},
                                                            size_t(r.public_inputs_size()));
        for (size_t k = 0; k < proofs.size(); ++k) {
            std::vector<Fr> x;
            for (const auto& v : r.public_inputs(int(k)).values()) x.push_back(Fr::from_string(v).value());
            auto ok = groth16::verify(pvk, proofs[k], x);
            if (!ok) return "partition " + std::to_string(k) + ": " + ok.error;
        }
        if (proofs.size() != r.partitions_total()) return "proof count differs from partitions_total";
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

// Bytes reserved on the engine's budget beyond what it holds on purpose when idle.
// The budget counts resident parameters and idle pooled buffers too (engine/memory.hpp),
// so "nothing leaked" is reserved == sum of the parameters' sizes + pooled bytes: every
// work item's reservation was given back.
inline int64_t work_bytes_reserved(const nlohmann::json& s) {
    int64_t held = s.at("memory").at("pooled_bytes").get<int64_t>();
    for (const auto& p : s.at("params")) held += p.at("size_bytes").get<int64_t>();
    return s.at("memory").at("reserved_bytes").get<int64_t>() - held;
}

// The engine is idle and holds nothing for work: no work item's memory reserved (and,
// once every parameter set is evicted, nothing but the idle pool), every queue empty.
inline void expect_idle(const Daemon& d) {
    auto idle = [](const nlohmann::json& s) {
        bool ok = work_bytes_reserved(s) == 0 && s.at("jobs").at("running") == 0 && s.at("jobs").at("queued") == 0;
        for (const auto& q : s.at("queues")) ok &= q.at("pending") == 0 && q.at("in_progress") == 0;
        // A job's result is published a moment before its last work item lets go of the
        // parameters: wait for that too, or the eviction below finds them in use.
        for (const auto& p : s.at("params")) ok &= p.at("ref_count") == 0;
        return ok;
    };
    // Reservations are returned as the last buffers are freed, just after the result
    // (large frees happen off the hot path): allow a moment.
    nlohmann::json s;
    for (int i = 0; i < 300 && !idle(s = d.status_json()); ++i) std::this_thread::sleep_for(10ms);
    EXPECT_EQ(work_bytes_reserved(s), 0) << s.dump();
    EXPECT_EQ(s.at("jobs").at("running"), 0) << s.dump();
    EXPECT_EQ(s.at("jobs").at("queued"), 0) << s.dump();
    for (const auto& q : s.at("queues")) {
        EXPECT_EQ(q.at("pending").get<uint64_t>(), 0u) << q.dump();
        EXPECT_EQ(q.at("in_progress").get<uint64_t>(), 0u) << q.dump();
    }
    for (const auto& p : s.at("params")) EXPECT_EQ(p.at("ref_count").get<uint64_t>(), 0u) << p.dump();
    v1::GetStatusResponse st;
    {
        grpc::ClientContext ctx;
        ASSERT_TRUE(d.stub()->GetStatus(&ctx, v1::GetStatusRequest{}, &st).ok());
    }
    for (const auto& q : st.queues()) {
        EXPECT_EQ(q.pending(), 0u) << q.proof_kind();
        EXPECT_EQ(q.in_progress(), 0u) << q.proof_kind();
    }
    // Evict every parameter set: then only idle pooled buffers may remain reserved.
    for (const auto& p : st.loaded_srs()) {
        v1::EvictSrsRequest req;
        req.set_circuit_id(p.circuit_id());
        v1::EvictSrsResponse r;
        grpc::ClientContext ctx;
        EXPECT_TRUE(d.stub()->EvictSRS(&ctx, req, &r).ok());
    }
    s = d.status_json();
    EXPECT_TRUE(s.at("params").empty()) << s.dump();
    EXPECT_EQ(s.at("memory").at("reserved_bytes"), s.at("memory").at("pooled_bytes")) << s.dump();
}

}  // namespace cuzk::test
