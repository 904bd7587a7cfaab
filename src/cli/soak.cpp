#include "soak.hpp"

#if CUZK_HAVE_SERVER

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/server/client.hpp"
#include "cuzk/v1/proving.grpc.pb.h"

namespace cuzk::cli {
namespace {

namespace v1 = cuzk::v1;
using Clock = std::chrono::steady_clock;
using Code = grpc::StatusCode;

const char* code_name(Code c) {
    static const char* names[] = {
        "OK",        "CANCELLED",      "UNKNOWN",           "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
        "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
        "ABORTED",   "OUT_OF_RANGE",   "UNIMPLEMENTED",     "INTERNAL",           "UNAVAILABLE",
        "DATA_LOSS", "UNAUTHENTICATED"};
    return int(c) >= 0 && int(c) < 17 ? names[int(c)] : "?";
}

// Loopback TCP or a unix socket: the soak sends malformed requests at a rate and must
// not be pointed at another machine's daemon.
bool local_address(const std::string& a) {
    if (a.rfind("unix:", 0) == 0) return true;
    const std::string host = a.substr(0, a.rfind(':'));
    return host == "localhost" || host == "[::1]" || host.rfind("127.", 0) == 0;
}

struct Rss {
    uint64_t rss = 0, hwm = 0;
};
Rss read_rss(int pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    Rss r;
    for (std::string line; std::getline(in, line);) {
        uint64_t kib = 0;
        if (std::sscanf(line.c_str(), "VmRSS: %lu kB", &kib) == 1) r.rss = kib << 10;
        if (std::sscanf(line.c_str(), "VmHWM: %lu kB", &kib) == 1) r.hwm = kib << 10;
    }
    return r;
}

// "" when every partition's proof verifies against the daemon's key and public inputs.
std::string verify(const v1::AwaitBuiltinResponse& r) {
    try {
        const auto& vkb = r.verifying_key();
        const groth16::PreparedVerifyingKey pvk(formats::read_vk_from_bytes(
            {reinterpret_cast<const uint8_t*>(vkb.data()), vkb.size()}, {}, "verifying_key"));
        const auto& pb = r.result().proof();
        const auto proofs = formats::read_proofs_from_bytes({reinterpret_cast<const uint8_t*>(pb.data()), pb.size()},
                                                            size_t(r.public_inputs_size()), "proof");
        if (proofs.size() != r.partitions_total()) return "proof count differs from partitions_total";
        for (size_t k = 0; k < proofs.size(); ++k) {
            std::vector<Fr> x;
            for (const auto& v : r.public_inputs(int(k)).values()) {
                auto f = Fr::from_string(v);
                if (!f) return "public input '" + v + "' is not a field element";
                x.push_back(*f);
            }
            auto ok = groth16::verify(pvk, proofs[k], x);
            if (!ok) return "partition " + std::to_string(k) + ": " + ok.error;
        }
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

struct Tally {
    std::mutex mu;
    std::map<std::string, std::map<std::string, uint64_t>> by_class;  // class -> code -> n
    std::vector<std::string> problems;
    std::set<std::string> accepted, completed;
    uint64_t requests = 0;

    void add(const std::string& cls, Code c) {
        std::lock_guard lock(mu);
        ++by_class[cls][code_name(c)];
        ++requests;
    }
    void problem(const std::string& p) {
        std::lock_guard lock(mu);
        if (problems.size() < 50)
            problems.push_back(p);
        else if (problems.size() == 50)
            problems.push_back("(more problems not shown)");
    }
};

class Worker {
 public:
    Worker(const SoakOptions& o, Tally& t, uint64_t seed) : o_(o), t_(t), rng_(seed) {
        stub_ = v1::ProvingEngine::NewStub(server::make_channel(o.address));
    }

    // Request n is of class n mod 10 (a tenth each kind of malformed request, the quick ones
    // first, then two tenths valid proofs each way), so that any ten requests in a row send
    // every class, however short the soak or loaded the machine; what each holds is random.
    void one(uint64_t n) {
        switch (n % 10) {
            case 0:
                return bad_kind();
            case 1:
                return oversize();
            case 2:
                return garbage_vanilla();
            case 3:
                return bad_size();
            case 4:
                return unknown_job();
            case 5:
                return duplicate_request_id();
            case 6:
            case 7:
                return valid(true);
            default:
                return valid(false);
        }
    }

 private:
    void ctx_deadline(grpc::ClientContext& ctx) {
        ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(300));
    }
    // The request was answered with `want`; anything else is a problem.
    bool expect(const std::string& cls, const grpc::Status& st, Code want) {
        t_.add(cls, st.error_code());
        if (st.error_code() == want) return true;
        t_.problem(cls + ": expected " + code_name(want) + ", got " + code_name(st.error_code()) + ": " +
                   st.error_message().substr(0, 200));
        return false;
    }

    v1::SubmitBuiltinRequest small() {
        v1::SubmitBuiltinRequest r;
        if (std::uniform_int_distribution<int>(0, 3)(rng_) == 0) {
            r.set_circuit("sha256-chain");
            r.set_size(std::uniform_int_distribution<uint64_t>(1, 2)(rng_));
        } else {
            r.set_circuit("random-dense");
            r.set_size(64u << std::uniform_int_distribution<int>(0, 1)(rng_));
        }
        // random-dense's seed picks its shape (a setup each): two shapes, so the soak
        // measures serving, not setups; a SHA-256 chain's seed is only its witness.
        r.set_seed(r.circuit() == "random-dense" ? rng_() % 2 + 1 : rng_() % 1000 + 1);
        r.set_partitions(std::uniform_int_distribution<uint32_t>(1, 2)(rng_));
        return r;
    }

    void check_result(const std::string& cls, const v1::AwaitBuiltinResponse& r) {
        if (r.result().status() != v1::AwaitProofResponse::COMPLETED) {
            t_.problem(cls + ": job " + r.result().job_id() + " ended with status " +
                       std::to_string(int(r.result().status())) + ": " + r.result().error_message());
            return;
        }
        if (auto why = verify(r); !why.empty()) {
            t_.problem(cls + ": job " + r.result().job_id() + ": proof does not verify: " + why);
            return;
        }
        std::lock_guard lock(t_.mu);
        t_.completed.insert(r.result().job_id());
    }

    void valid(bool one_call) {
        const auto req = small();
        if (one_call) {
            grpc::ClientContext ctx;
            ctx_deadline(ctx);
            v1::AwaitBuiltinResponse r;
            if (!expect("valid-prove", stub_->ProveBuiltin(&ctx, req, &r), Code::OK)) return;
            {
                std::lock_guard lock(t_.mu);
                t_.accepted.insert(r.result().job_id());
            }
            return check_result("valid-prove", r);
        }
        std::string job;
        if (!submit("valid-submit", req, Code::OK, &job)) return;
        await_job("valid-submit", job);
    }

    bool submit(const std::string& cls, const v1::SubmitBuiltinRequest& req, Code want, std::string* job) {
        grpc::ClientContext ctx;
        ctx_deadline(ctx);
        v1::SubmitProofResponse r;
        if (!expect(cls, stub_->SubmitBuiltin(&ctx, req, &r), want)) return false;
        if (job) *job = r.job_id();
        if (want == Code::OK) {
            std::lock_guard lock(t_.mu);
            t_.accepted.insert(r.job_id());
        }
        return true;
    }

    void await_job(const std::string& cls, const std::string& job) {
        v1::AwaitProofRequest a;
        a.set_job_id(job);
        grpc::ClientContext ctx;
        ctx_deadline(ctx);
        v1::AwaitBuiltinResponse r;
        if (expect(cls + "/await", stub_->AwaitBuiltin(&ctx, a, &r), Code::OK)) check_result(cls, r);
    }

    void bad_kind() {
        v1::SubmitProofRequest req;
        req.set_proof_kind(v1::ProofKind(std::uniform_int_distribution<int>(50, 1000)(rng_)));
        grpc::ClientContext ctx;
        ctx_deadline(ctx);
        v1::SubmitProofResponse r;
        expect("bad-kind", stub_->SubmitProof(&ctx, req, &r), Code::INVALID_ARGUMENT);
    }

    void oversize() {
        auto req = small();
        const std::string big(std::uniform_int_distribution<size_t>(1000, 300000)(rng_), 'z');
        if (rng_() % 2)
            req.set_circuit(big + "\x01");
        else
            req.set_request_id(big);
        submit("oversize-string", req, Code::INVALID_ARGUMENT, nullptr);
    }

    void garbage_vanilla() {
        v1::SubmitProofRequest req;
        req.set_proof_kind(v1::POREP_SEAL_COMMIT);
        std::string junk(std::uniform_int_distribution<size_t>(0, 20000)(rng_), '\0');
        for (auto& c : junk) c = char(rng_());
        if (rng_() % 2) junk = "{\"registered_proof\": \"StackedDrg2KiBV1_1\", \"vanilla_proofs\": [" + junk;
        req.set_vanilla_proof(junk);
        grpc::ClientContext ctx;
        ctx_deadline(ctx);
        v1::SubmitProofResponse r;
        expect("garbage-vanilla", stub_->SubmitProof(&ctx, req, &r), Code::INVALID_ARGUMENT);
    }

    void bad_size() {
        auto req = small();
        switch (rng_() % 4) {
            case 0:
                req.set_size(0);
                break;
            case 1:
                req.set_size(uint64_t(1) << 60);
                break;
            case 2:
                req.set_partitions(0);
                break;
            default:
                req.set_circuit("random-dense");
                req.set_size(8);
                req.set_inputs(100);
        }
        submit("bad-size", req, Code::INVALID_ARGUMENT, nullptr);
    }

    void unknown_job() {
        v1::AwaitProofRequest a;
        a.set_job_id("job-soak-unknown-" + std::to_string(rng_()));
        grpc::ClientContext ctx;
        ctx_deadline(ctx);
        v1::AwaitProofResponse r;
        expect("unknown-job", stub_->AwaitProof(&ctx, a, &r), Code::NOT_FOUND);
    }

    void duplicate_request_id() {
        auto req = small();
        req.set_request_id("soak-" + std::to_string(rng_()));
        std::string j1, j2;
        if (!submit("duplicate-request-id", req, Code::OK, &j1)) return;
        if (submit("duplicate-request-id", req, Code::OK, &j2) && j1 != j2)
            t_.problem("duplicate-request-id: the same request got jobs " + j1 + " and " + j2);
        auto other = req;
        other.set_partitions(req.partitions() % 2 + 1);
        submit("duplicate-request-id", other, Code::ALREADY_EXISTS, nullptr);
        await_job("duplicate-request-id", j1);
    }

    const SoakOptions& o_;
    Tally& t_;
    std::mt19937_64 rng_;
    std::unique_ptr<v1::ProvingEngine::Stub> stub_;
};

}  // namespace

int run_soak(SoakOptions o) {
    if (!o.ready_file.empty()) {
        std::ifstream in(o.ready_file);
        if (!in) throw std::runtime_error(o.ready_file + ": cannot open");
        const auto j = nlohmann::json::parse(in, nullptr, false);
        if (j.is_discarded() || !j.contains("pid"))
            throw std::runtime_error(o.ready_file + ": not a daemon ready file");
        if (!o.pid) o.pid = j.at("pid").get<int>();
        if (o.address.empty()) o.address = j.at("grpc").at(0).get<std::string>();
    }
    if (o.address.empty()) o.address = "127.0.0.1:9820";
    if (!local_address(o.address))
        throw std::runtime_error("--address " + o.address + ": the soak runs against a daemon on this machine only");
    if (o.duration_s <= 0 || o.rate <= 0 || o.clients < 1 || o.clients > 64)
        throw std::runtime_error("--duration and --rate must be positive, --clients in [1, 64]");
    if (!o.seed) o.seed = uint64_t(std::chrono::system_clock::now().time_since_epoch().count());
    auto stub = v1::ProvingEngine::NewStub(server::make_channel(o.address));
    auto status = [&] {
        v1::GetStatusResponse s;
        grpc::ClientContext ctx;
        ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
        auto st = stub->GetStatus(&ctx, v1::GetStatusRequest{}, &s);
        if (!st.ok()) throw std::runtime_error(server::describe(st, o.address));
        return s;
    };
    const auto before = status();
    if (!o.rss_budget) o.rss_budget = before.pinned_memory_limit_bytes();
    std::printf("soak: %s for %.0f s, at most %llu requests at %.1f/s from %u clients, seed %llu\n", o.address.c_str(),
                o.duration_s, (unsigned long long)o.max_requests, o.rate, o.clients, (unsigned long long)o.seed);
    std::fflush(stdout);

    Tally tally;
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> sent{0};
    Rss peak;
    std::thread sampler([&] {
        while (!stop && o.pid) {
            const Rss r = read_rss(o.pid);
            peak.rss = std::max(peak.rss, r.rss);
            peak.hwm = std::max(peak.hwm, r.hwm);
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
    });
    const auto t0 = Clock::now();
    const auto end = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.duration_s));
    const auto interval = std::chrono::duration<double>(1.0 / o.rate);
    std::vector<std::thread> workers;
    for (unsigned c = 0; c < o.clients; ++c)
        workers.emplace_back([&, c] {
            Worker w(o, tally, o.seed + c);
            for (;;) {
                // Request n goes out no earlier than t0 + n / rate.
                const uint64_t n = sent++;
                if (n >= o.max_requests) return;
                const auto at = t0 + std::chrono::duration_cast<Clock::duration>(interval * double(n));
                if (at >= end || Clock::now() >= end) return;  // a client behind schedule stops too
                std::this_thread::sleep_until(at);
                w.one(n);
            }
        });
    for (auto& t : workers) t.join();
    stop = true;
    sampler.join();
    const double secs = std::chrono::duration<double>(Clock::now() - t0).count();

    // No job lost: every accepted job completed and verified, and the daemon counted them.
    const auto after = status();
    std::vector<std::string> lost;
    for (const auto& j : tally.accepted)
        if (!tally.completed.count(j)) lost.push_back(j);
    const uint64_t counted = after.total_proofs_completed() - before.total_proofs_completed();
    if (counted < tally.completed.size())
        tally.problem("the daemon counts " + std::to_string(counted) + " completed proofs, the soak received " +
                      std::to_string(tally.completed.size()));
    for (const auto& j : lost) tally.problem("job " + j + " was accepted but never completed");
    if (o.pid && peak.hwm > o.rss_budget && o.rss_budget)
        tally.problem("peak RSS (VmHWM) " + std::to_string(peak.hwm >> 20) + " MiB over the budget " +
                      std::to_string(o.rss_budget >> 20) + " MiB");

    std::printf("soak: %llu requests in %.1f s; %zu jobs accepted, %zu completed and verified\n",
                (unsigned long long)tally.requests, secs, tally.accepted.size(), tally.completed.size());
    for (const auto& [cls, codes] : tally.by_class) {
        std::printf("  %-28s", cls.c_str());
        for (const auto& [code, n] : codes) std::printf(" %s %llu", code.c_str(), (unsigned long long)n);
        std::printf("\n");
    }
    if (o.pid)
        std::printf("  daemon pid %d: peak VmRSS %.1f MiB, VmHWM %.1f MiB, budget %.1f MiB\n", o.pid,
                    double(peak.rss) / 1048576, double(peak.hwm) / 1048576, double(o.rss_budget) / 1048576);
    else
        std::printf("  no --pid or --ready-file: RSS not sampled\n");
    for (const auto& p : tally.problems) std::printf("  PROBLEM: %s\n", p.c_str());
    std::printf("soak: %s\n", tally.problems.empty() ? "ok" : "FAILED");
    return tally.problems.empty() ? 0 : 1;
}

}  // namespace cuzk::cli

#endif
