#include "client.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#if CUZK_HAVE_SERVER

#include <google/protobuf/util/json_util.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include <unistd.h>

#include "cli_util.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/filecoin/post.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/server/client.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "soak.hpp"

namespace cuzk::cli {
namespace {

namespace fs = std::filesystem;
namespace v1 = cuzk::v1;

struct Options {
    std::string address = "127.0.0.1:9820";
    // Job description (submit, prove).
    std::string kind = "builtin", circuit = "sha256-chain", priority = "normal", request_id, vanilla;
    // zkey: the loaded key's name and the witness file (.wtns).
    std::string zkey, wtns;
    uint64_t size = 1, seed = 1;
    uint32_t inputs = 4, partitions = 1;
    // Results (await, prove).
    std::string job_id, out, public_out, vk_out, proof_json, public_json;
    uint64_t timeout_ms = 0;
    bool verify = false, json = false;
    std::string circuit_id;
    // jobs: filters; watch: refresh period and frames (0 = until interrupted).
    std::string job_kind, job_state;
    uint32_t limit = 50;
    uint64_t interval_ms = 1000, frames = 0;
};

// A failed RPC: the message says what happened, in words (server::describe).
struct RpcFailed : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void check(const grpc::Status& s, const Options& o) {
    if (!s.ok()) throw RpcFailed(server::describe(s, o.address));
}

std::unique_ptr<v1::ProvingEngine::Stub> stub(const Options& o) {
    return v1::ProvingEngine::NewStub(server::make_channel(o.address));
}

v1::Priority priority(const std::string& name) {
    auto p = engine::parse_priority(name);
    if (!p) throw std::runtime_error("--priority '" + name + "': expected low, normal, high or critical");
    return v1::Priority(int(*p));
}

v1::SubmitBuiltinRequest builtin_request(const Options& o) {
    v1::SubmitBuiltinRequest r;
    r.set_circuit(o.circuit);
    r.set_size(o.size);
    r.set_inputs(o.inputs);
    r.set_seed(o.seed);
    r.set_partitions(o.partitions);
    r.set_priority(priority(o.priority));
    r.set_request_id(o.request_id);
    return r;
}

std::string read_whole(const std::string& file, const char* what) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error(std::string(what) + " " + file + ": cannot open: " + std::strerror(errno));
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

v1::SubmitZkeyRequest zkey_request(const Options& o) {
    if (o.zkey.empty()) throw std::runtime_error("--kind zkey needs --key (the name of a key the daemon loaded)");
    if (o.wtns.empty()) throw std::runtime_error("--kind zkey needs --wtns (a witness file, snarkjs wtns calculate)");
    v1::SubmitZkeyRequest r;
    r.set_key(o.zkey);
    r.set_witness(read_whole(o.wtns, "--wtns"));
    r.set_priority(priority(o.priority));
    r.set_request_id(o.request_id);
    return r;
}

void write_bytes(const std::string& file, const std::string& bytes) {
    formats::write_file_atomically(file, {reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
}

// The files save_and_verify writes, checked before the job is submitted or awaited.
void check_outputs(const Options& o) {
    if (!o.out.empty()) check_writable(o.out);
    if (!o.out.empty() && o.public_out.empty()) check_writable(o.out + ".public.json");
    if (!o.public_out.empty()) check_writable(o.public_out);
    if (!o.vk_out.empty()) check_writable(o.vk_out);
    if (!o.proof_json.empty()) check_writable(o.proof_json);
    if (!o.public_json.empty()) check_writable(o.public_json);
}

const char* status_name(v1::AwaitProofResponse::Status s) {
    switch (s) {
        case v1::AwaitProofResponse::COMPLETED:
            return "completed";
        case v1::AwaitProofResponse::FAILED:
            return "failed";
        case v1::AwaitProofResponse::CANCELLED:
            return "cancelled";
        case v1::AwaitProofResponse::TIMEOUT:
            return "timeout (still running)";
        default:
            return "unknown";
    }
}

// Prints the outcome; exit status 0 completed, 2 timeout, 1 otherwise.
int report(const v1::AwaitProofResponse& r) {
    std::printf("job %s: %s\n", r.job_id().c_str(), status_name(r.status()));
    if (!r.error_message().empty()) std::printf("  error: %s\n", r.error_message().c_str());
    if (r.status() == v1::AwaitProofResponse::COMPLETED)
        std::printf("  proof %zu bytes; ms: queue %llu, params %llu, witness %llu, prove %llu, total %llu\n",
                    r.proof().size(), (unsigned long long)r.queue_wait_ms(), (unsigned long long)r.srs_load_ms(),
                    (unsigned long long)r.synthesis_ms(), (unsigned long long)r.gpu_compute_ms(),
                    (unsigned long long)r.total_ms());
    return r.status() == v1::AwaitProofResponse::COMPLETED ? 0 : r.status() == v1::AwaitProofResponse::TIMEOUT ? 2 : 1;
}

// Writes what was asked for and verifies locally with cuzk's verifier against the
// daemon's verifying key and public inputs. Returns false when a proof is invalid.
bool save_and_verify(const v1::AwaitBuiltinResponse& r, const Options& o) {
    const auto& res = r.result();
    if (res.status() != v1::AwaitProofResponse::COMPLETED) return true;
    std::printf(
        "  circuit %s, %u partition(s), backend %s, verified by the daemon in %llu ms%s\n", r.circuit_id().c_str(),
        r.partitions_total(), r.backend().c_str(), (unsigned long long)r.verify_ms(),
        r.cpu_recomputes() ? (", " + std::to_string(r.cpu_recomputes()) + " recomputed on the CPU").c_str() : "");
    nlohmann::json pub = nlohmann::json::array();
    for (const auto& p : r.public_inputs())
        pub.push_back(std::vector<std::string>(p.values().begin(), p.values().end()));
    if (!o.out.empty()) {
        write_bytes(o.out, res.proof());
        const std::string pub_file = o.public_out.empty() ? o.out + ".public.json" : o.public_out;
        write_bytes(pub_file, pub.dump(1) + "\n");
        std::printf("  wrote %s and %s\n", o.out.c_str(), pub_file.c_str());
    } else if (!o.public_out.empty()) {
        write_bytes(o.public_out, pub.dump(1) + "\n");
    }
    if (!o.vk_out.empty()) {
        write_bytes(o.vk_out, r.verifying_key());
        std::printf("  wrote %s (verifying key)\n", o.vk_out.c_str());
    }
    // snarkjs' files, which a zkey job's answer carries.
    for (const auto& [file, doc] : {std::pair{o.proof_json, "proof.json"}, std::pair{o.public_json, "public.json"}}) {
        if (file.empty()) continue;
        const auto it = r.documents().find(doc);
        if (it == r.documents().end())
            throw std::runtime_error(std::string("the job's answer has no ") + doc + " (only a zkey job's has)");
        write_bytes(file, it->second);
        std::printf("  wrote %s (snarkjs %s)\n", file.c_str(), doc);
    }
    if (!o.verify) return true;
    const auto t0 = std::chrono::steady_clock::now();
    const std::string& vkb = r.verifying_key();
    const groth16::PreparedVerifyingKey pvk(
        formats::read_vk_from_bytes({reinterpret_cast<const uint8_t*>(vkb.data()), vkb.size()}, {}, "verifying_key"));
    // An expected count of 0 would mean any number of proofs, each then indexed into the
    // (empty) public inputs.
    if (r.public_inputs_size() == 0)
        throw std::runtime_error("the daemon's answer has a proof but no public inputs to verify it against");
    const std::string& pb = res.proof();
    const auto proofs = formats::read_proofs_from_bytes({reinterpret_cast<const uint8_t*>(pb.data()), pb.size()},
                                                        size_t(r.public_inputs_size()), "proof");
    bool all = true;
    for (size_t k = 0; k < proofs.size(); ++k) {
        std::vector<Fr> x;
        for (const auto& v : r.public_inputs(int(k)).values()) {
            auto f = Fr::from_string(v);
            if (!f)
                throw std::runtime_error("public input '" + v + "' of partition " + std::to_string(k) +
                                         " is not a decimal integer below r");
            x.push_back(*f);
        }
        auto ok = groth16::verify(pvk, proofs[k], x);
        if (!ok) std::printf("  proof %zu: INVALID: %s\n", k, ok.error.c_str());
        all &= bool(ok);
    }
    std::printf("  verified locally: %zu proof(s) %s (%.1f ms)\n", proofs.size(), all ? "valid" : "NOT all valid",
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    return all;
}

bool wants_details(const Options& o) {
    return o.verify || !o.out.empty() || !o.public_out.empty() || !o.vk_out.empty() || !o.proof_json.empty() ||
           !o.public_json.empty();
}

int run_submit(const Options& o) {
    auto s = stub(o);
    grpc::ClientContext ctx;
    v1::SubmitProofResponse resp;
    if (o.kind == "builtin") {
        check(s->SubmitBuiltin(&ctx, builtin_request(o), &resp), o);
    } else if (o.kind == "zkey") {
        check(s->SubmitZkey(&ctx, zkey_request(o), &resp), o);
    } else {
        static const std::pair<const char*, v1::ProofKind> kinds[] = {{"porep-seal-commit", v1::POREP_SEAL_COMMIT},
                                                                      {"snap-deals-update", v1::SNAP_DEALS_UPDATE},
                                                                      {"window-post", v1::WINDOW_POST_PARTITION},
                                                                      {"winning-post", v1::WINNING_POST}};
        v1::SubmitProofRequest req;
        for (const auto& [name, k] : kinds)
            if (o.kind == name) req.set_proof_kind(k);
        if (req.proof_kind() == v1::PROOF_KIND_UNSPECIFIED)
            throw std::runtime_error("--kind '" + o.kind +
                                     "': expected builtin, zkey, porep-seal-commit, snap-deals-update, window-post "
                                     "or winning-post");
        req.set_priority(priority(o.priority));
        req.set_request_id(o.request_id);
        if (req.proof_kind() == v1::WINDOW_POST_PARTITION || req.proof_kind() == v1::WINNING_POST) {
            // A PoSt request file (cuzk gen-vanilla --kind ...): every field Curio sets.
            if (o.vanilla.empty())
                throw std::runtime_error("--kind " + o.kind + " needs --vanilla (a PoSt request file)");
            filecoin::PoStRequestFile f = filecoin::read_post_request_file(o.vanilla);
            const filecoin::PoStConfig& cfg = filecoin::post_config(f.proof);
            if ((cfg.type == filecoin::PoStType::Window) != (req.proof_kind() == v1::WINDOW_POST_PARTITION))
                throw std::runtime_error(o.vanilla + ": registered_proof " + std::string(cfg.name) + " is not a " +
                                         o.kind + " proof");
            req.set_registered_proof(uint64_t(f.proof));
            req.set_sector_size(cfg.sector_size);
            req.set_randomness(std::string(f.randomness.begin(), f.randomness.end()));
            req.set_miner_id(f.miner_id);
            req.set_partition_index(f.partition_index);
            for (const auto& v : f.vanilla_proofs) req.add_vanilla_proofs(std::string(v.begin(), v.end()));
        } else if (!o.vanilla.empty()) {
            std::ifstream in(o.vanilla, std::ios::binary);
            if (!in) throw std::runtime_error(o.vanilla + ": cannot open: " + std::strerror(errno));
            std::ostringstream ss;
            ss << in.rdbuf();
            req.set_vanilla_proof(ss.str());
        }
        check(s->SubmitProof(&ctx, req, &resp), o);
    }
    std::printf("%s\n", resp.job_id().c_str());
    std::fprintf(stderr, "queued: job %s, position %u\n", resp.job_id().c_str(), resp.queue_position());
    return 0;
}

int run_await(const Options& o) {
    check_outputs(o);
    auto s = stub(o);
    v1::AwaitProofRequest req;
    req.set_job_id(o.job_id);
    req.set_timeout_ms(o.timeout_ms);
    grpc::ClientContext ctx;
    if (!wants_details(o)) {
        v1::AwaitProofResponse resp;
        check(s->AwaitProof(&ctx, req, &resp), o);
        return report(resp);
    }
    v1::AwaitBuiltinResponse resp;
    check(s->AwaitBuiltin(&ctx, req, &resp), o);
    int rc = report(resp.result());
    return save_and_verify(resp, o) ? rc : 1;
}

int run_prove(const Options& o) {
    check_outputs(o);
    auto s = stub(o);
    v1::SubmitProofResponse sub;
    {
        grpc::ClientContext ctx;
        if (o.kind == "zkey")
            check(s->SubmitZkey(&ctx, zkey_request(o), &sub), o);
        else if (o.kind == "builtin")
            check(s->SubmitBuiltin(&ctx, builtin_request(o), &sub), o);
        else
            throw std::runtime_error("--kind '" + o.kind + "': prove takes builtin or zkey (others: submit, await)");
    }
    // Before the wait: an operator whose client is killed can still await or cancel it.
    std::fprintf(stderr, "submitted: job %s\n", sub.job_id().c_str());
    Options a = o;
    a.job_id = sub.job_id();
    return run_await(a);
}

int run_cancel(const Options& o) {
    auto s = stub(o);
    v1::CancelProofRequest req;
    req.set_job_id(o.job_id);
    v1::CancelProofResponse resp;
    grpc::ClientContext ctx;
    check(s->CancelProof(&ctx, req, &resp), o);
    std::printf("job %s cancelled%s\n", o.job_id.c_str(),
                resp.was_running() ? " (it was running: it stops at its next partition boundary)" : "");
    return 0;
}

int run_status(const Options& o) {
    auto s = stub(o);
    v1::GetStatusResponse r;
    grpc::ClientContext ctx;
    check(s->GetStatus(&ctx, v1::GetStatusRequest{}, &r), o);
    if (o.json) {
        std::string text;
        google::protobuf::util::JsonPrintOptions opt;
        opt.add_whitespace = true;
        opt.always_print_primitive_fields = true;
        (void)google::protobuf::util::MessageToJsonString(r, &text, opt);
        std::printf("%s", text.c_str());
        return 0;
    }
    std::printf("cuzk-daemon at %s: up %llu s, %llu proofs completed, %llu failed\n", o.address.c_str(),
                (unsigned long long)r.uptime_seconds(), (unsigned long long)r.total_proofs_completed(),
                (unsigned long long)r.total_proofs_failed());
    std::printf("  memory budget %.1f MiB, pooled buffers %.1f MiB\n", double(r.pinned_memory_limit_bytes()) / 1048576,
                double(r.pinned_memory_bytes()) / 1048576);
    const auto gib = [](uint64_t b) { return double(b) / double(1u << 30); };
    for (const auto& g : r.gpus()) {
        std::printf("  gpu %u %s: %.1f / %.1f GiB free%s%s\n", g.ordinal(), g.name().c_str(), gib(g.vram_free_bytes()),
                    gib(g.vram_total_bytes()), g.current_job_id().empty() ? "" : ", running ",
                    g.current_job_id().c_str());
        std::printf(
            "    %llu partitions proven (%u placed), busy %.1f s; base sets %u resident (%.1f GiB), %u streamed "
            "(%.1f GiB)",
            (unsigned long long)g.partitions_proven(), g.partitions_placed(), double(g.busy_ms()) / 1e3,
            g.base_sets_resident(), gib(g.base_bytes_resident()), g.base_sets_streamed(), gib(g.base_bytes_streamed()));
        if (g.h_step_vectors() != 0) std::printf("; H step keeps %u of a, b, c", g.h_step_vectors());
        if (g.twiddles_lent_bytes() != 0) std::printf("; NTT twiddles lent (%.1f GiB)", gib(g.twiddles_lent_bytes()));
        std::printf("\n");
    }
    for (const auto& q : r.queues())
        std::printf("  queue %-9s pending %u, in progress %u\n", q.proof_kind().c_str(), q.pending(), q.in_progress());
    static const char* tiers[] = {"hot", "warm", "cold"};
    for (const auto& p : r.loaded_srs())
        std::printf("  params %s: %s, %.1f MiB, in use by %u\n", p.circuit_id().c_str(),
                    p.tier() >= 0 && p.tier() <= 2 ? tiers[p.tier()] : "?", double(p.size_bytes()) / 1048576,
                    p.ref_count());
    return 0;
}

int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string ago(uint64_t unix_ms) {
    const double s = double(now_ms() - int64_t(unix_ms)) / 1000;
    char buf[32];
    if (s < 120)
        std::snprintf(buf, sizeof buf, "%.0fs", s);
    else if (s < 7200)
        std::snprintf(buf, sizeof buf, "%.0fm", s / 60);
    else
        std::snprintf(buf, sizeof buf, "%.1fh", s / 3600);
    return buf;
}

std::string duration_ms(double ms) {
    char buf[32];
    if (ms < 1000)
        std::snprintf(buf, sizeof buf, "%.0fms", ms);
    else if (ms < 120000)
        std::snprintf(buf, sizeof buf, "%.1fs", ms / 1000);
    else
        std::snprintf(buf, sizeof buf, "%.1fm", ms / 60000);
    return buf;
}

int run_jobs(const Options& o) {
    auto s = stub(o);
    v1::ListJobsRequest req;
    req.set_kind(o.job_kind);
    req.set_state(o.job_state);
    req.set_limit(o.limit);
    v1::ListJobsResponse r;
    grpc::ClientContext ctx;
    check(s->ListJobs(&ctx, req, &r), o);
    if (o.json) {
        std::string text;
        google::protobuf::util::JsonPrintOptions opt;
        opt.add_whitespace = true;
        opt.always_print_primitive_fields = true;
        (void)google::protobuf::util::MessageToJsonString(r, &text, opt);
        std::printf("%s", text.c_str());
        return 0;
    }
    std::printf("%-24s %-18s %-26s %-9s %-10s %7s %6s %8s %s\n", "JOB", "KIND", "CIRCUIT", "PRIORITY", "STATE", "PARTS",
                "AGE", "TIME", "DEADLINE");
    for (const auto& j : r.jobs()) {
        std::string deadline = "-";
        if (j.deadline_unix_ms()) deadline = "in " + duration_ms(double(j.deadline_unix_ms()) - double(now_ms()));
        if (j.deadline_missed())
            deadline = "missed";
        else if (j.deadline_at_risk())
            deadline += " AT RISK";
        const std::string parts = std::to_string(j.partitions_done()) + "/" + std::to_string(j.partitions_total());
        std::printf("%-24s %-18s %-26s %-9s %-10s %7s %6s %8s %s\n", j.job_id().c_str(), j.kind().c_str(),
                    j.circuit_id().c_str(), v1::Priority_Name(j.priority()).c_str(), j.state().c_str(), parts.c_str(),
                    ago(j.submitted_unix_ms()).c_str(), duration_ms(double(j.total_ms())).c_str(), deadline.c_str());
        if (!j.error().empty()) std::printf("    error: %s\n", j.error().c_str());
    }
    if (r.jobs().empty()) std::printf("(no jobs%s)\n", o.job_kind.empty() && o.job_state.empty() ? "" : " match");
    return 0;
}

// One frame of `watch`: the overview (the dashboard's first page) in text.
std::string overview_text(const nlohmann::json& ov, const std::string& address) {
    std::ostringstream os;
    const auto& j = ov.at("jobs");
    char buf[512];
    std::snprintf(buf, sizeof buf, "cuzk-daemon %s  backend %s  up %s%s\n", address.c_str(),
                  ov.at("backend").get<std::string>().c_str(),
                  duration_ms(ov.at("uptime_seconds").get<double>() * 1000).c_str(),
                  ov.at("accepting").get<bool>() ? "" : "  SHUTTING DOWN");
    os << buf;
    std::snprintf(
        buf, sizeof buf,
        "jobs: %llu queued, %llu running, %llu completed, %llu failed, %llu cancelled; deadlines: %llu at "
        "risk, %llu missed\n",
        (unsigned long long)j.at("queued").get<uint64_t>(), (unsigned long long)j.at("running").get<uint64_t>(),
        (unsigned long long)j.at("completed").get<uint64_t>(), (unsigned long long)j.at("failed").get<uint64_t>(),
        (unsigned long long)j.at("cancelled").get<uint64_t>(),
        (unsigned long long)j.at("deadline_risks").get<uint64_t>(),
        (unsigned long long)j.at("deadlines_missed").get<uint64_t>());
    os << buf;
    const auto& m = ov.at("memory");
    const auto gib = [](const nlohmann::json& v) { return v.get<double>() / double(1u << 30); };
    std::snprintf(buf, sizeof buf, "memory: %.2f of %.2f GiB reserved (most %.2f), resident %.2f GiB\n\n",
                  gib(m.at("reserved_bytes")), gib(m.at("budget_bytes")), gib(m.at("high_water_bytes")),
                  gib(m.at("rss_bytes")));
    os << buf;
    os << "DEVICE   BUSY  VRAM USED         PROVEN  CURRENT JOB\n";
    for (const auto& d : ov.at("devices")) {
        const int ord = d.at("ordinal").get<int>();
        const double total = d.at("memory_total_bytes").get<double>(), free = d.at("memory_free_bytes").get<double>();
        std::string vram = total > 0 ? std::to_string(int((total - free) / double(1u << 20))) + "/" +
                                           std::to_string(int(total / double(1u << 20))) + " MiB"
                                     : "-";
        std::snprintf(buf, sizeof buf, "%-7s %4.0f%%  %-16s %7llu  %s\n",
                      ord < 0 ? "cpu" : ("gpu " + std::to_string(ord)).c_str(), 100 * d.at("busy_ratio").get<double>(),
                      vram.c_str(), (unsigned long long)d.at("partitions_proven").get<uint64_t>(),
                      d.at("current_job_id").get<std::string>().empty()
                          ? "idle"
                          : d.at("current_job_id").get<std::string>().c_str());
        os << buf;
    }
    os << "\nQUEUE KIND          PRIORITY  QUEUED RUNNING\n";
    for (const auto& q : ov.at("queue")) {
        std::snprintf(buf, sizeof buf, "%-19s %-9s %6llu %7llu\n", q.at("kind").get<std::string>().c_str(),
                      q.at("priority").get<std::string>().c_str(), (unsigned long long)q.at("queued").get<uint64_t>(),
                      (unsigned long long)q.at("running").get<uint64_t>());
        os << buf;
    }
    if (ov.at("queue").empty()) os << "(nothing queued or running)\n";
    const double dph = ov.at("cost").at("dollars_per_hour").get<double>();
    os << "\nKIND                DONE FAILED  MEAN TIME  PROOFS/H  $/PROOF\n";
    for (const auto& k : ov.at("kinds")) {
        std::string cost = "-";
        if (dph > 0) {
            char c[32];
            std::snprintf(c, sizeof c, "%.4f", k.at("dollars_per_proof").get<double>());
            cost = c;
        }
        std::snprintf(buf, sizeof buf, "%-19s %5llu %6llu %10s %9.1f  %s\n", k.at("kind").get<std::string>().c_str(),
                      (unsigned long long)k.at("completed").get<uint64_t>(),
                      (unsigned long long)k.at("failed").get<uint64_t>(),
                      duration_ms(k.at("mean_duration_s").get<double>() * 1000).c_str(),
                      k.at("proofs_per_hour").get<double>(), cost.c_str());
        os << buf;
    }
    return os.str();
}

int run_watch(const Options& o) {
    auto s = stub(o);
    const bool tty = isatty(STDOUT_FILENO);
    for (uint64_t frame = 0; o.frames == 0 || frame < o.frames; ++frame) {
        if (frame) std::this_thread::sleep_for(std::chrono::milliseconds(o.interval_ms));
        v1::GetOverviewResponse r;
        grpc::ClientContext ctx;
        ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
        check(s->GetOverview(&ctx, v1::GetOverviewRequest{}, &r), o);
        const std::string text = overview_text(nlohmann::json::parse(r.overview_json()), o.address);
        // On a terminal each frame replaces the last; piped, frames follow each other.
        std::printf("%s%s", tty ? "\033[H\033[2J" : (frame ? "\n" : ""), text.c_str());
        std::fflush(stdout);
    }
    return 0;
}

int run_metrics(const Options& o) {
    auto s = stub(o);
    v1::GetMetricsResponse r;
    grpc::ClientContext ctx;
    check(s->GetMetrics(&ctx, v1::GetMetricsRequest{}, &r), o);
    std::printf("%s", r.prometheus_text().c_str());
    return 0;
}

int run_preload(const Options& o) {
    auto s = stub(o);
    v1::PreloadSrsRequest req;
    req.set_circuit_id(o.circuit_id);
    v1::PreloadSrsResponse r;
    grpc::ClientContext ctx;
    check(s->PreloadSRS(&ctx, req, &r), o);
    std::printf("%s: %s (%llu ms)\n", o.circuit_id.c_str(), r.already_loaded() ? "already loaded" : "loaded",
                (unsigned long long)r.load_time_ms());
    return 0;
}

int run_evict(const Options& o) {
    auto s = stub(o);
    v1::EvictSrsRequest req;
    req.set_circuit_id(o.circuit_id);
    v1::EvictSrsResponse r;
    grpc::ClientContext ctx;
    check(s->EvictSRS(&ctx, req, &r), o);
    std::printf(
        "%s: %s\n", o.circuit_id.c_str(),
        r.was_loaded() ? ("evicted, " + std::to_string(r.freed_bytes()) + " bytes freed").c_str() : "was not loaded");
    return 0;
}

void job_options(CLI::App* c, Options& o) {
    c->add_option("--circuit", o.circuit, "Built-in circuit: sha256-chain or random-dense")->capture_default_str();
    c->add_option("--size", o.size, "SHA-256 blocks, or random-dense's constraint count (inputs included)")
        ->capture_default_str();
    c->add_option("--inputs", o.inputs, "Public inputs of random-dense")->capture_default_str();
    c->add_option("--seed", o.seed, "Witness seed (sha256-chain partition k uses seed + k)")->capture_default_str();
    c->add_option("--partitions", o.partitions, "Partitions (proofs) of the job")->capture_default_str();
    c->add_option("--priority", o.priority, "low, normal, high or critical")->capture_default_str();
    c->add_option("--request-id", o.request_id, "Idempotency key: resubmitting it returns the same job");
    c->add_option("--key", o.zkey, "zkey: the name of a .zkey the daemon loaded ([zkey.<name>] of its configuration)");
    c->add_option("--wtns", o.wtns, "zkey: the witness (.wtns, snarkjs wtns calculate)");
}

void result_options(CLI::App* c, Options& o) {
    c->add_option("--out", o.out, "Write the proof (192 bytes a partition) here, and <out>.public.json");
    c->add_option("--public", o.public_out, "Write the public inputs (JSON) here");
    c->add_option("--vk", o.vk_out, "Write the verifying key (bellperson .vk) here");
    c->add_option("--proof-json", o.proof_json, "zkey: write snarkjs' proof.json here");
    c->add_option("--public-json", o.public_json, "zkey: write snarkjs' public.json here");
    c->add_flag("--verify", o.verify, "Verify the proof locally against the daemon's verifying key and inputs");
}

}  // namespace

void add_client_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands) {
    static Options o;
    auto* client = app.add_subcommand("client", "Talk to cuzk-daemon (gRPC cuzk.v1.ProvingEngine)");
    client->require_subcommand(1);
    client->add_option("--address", o.address, "host:port, or unix:/path")->capture_default_str();
    auto add = [&](CLI::App* c, int (*run)(const Options&)) {
        commands.push_back({c, [c, run] {
                                try {
                                    return run(o);
                                } catch (const std::exception& e) {
                                    std::fprintf(stderr, "cuzk client %s: %s\n", c->get_name().c_str(), e.what());
                                    return 1;
                                }
                            }});
    };

    auto* submit = client->add_subcommand("submit", "Queue a job; prints its id");
    job_options(submit, o);
    submit
        ->add_option("--kind", o.kind,
                     "builtin, zkey (--key, --wtns), or a Filecoin kind: porep-seal-commit, snap-deals-update, "
                     "window-post, winning-post")
        ->capture_default_str();
    submit->add_option("--vanilla", o.vanilla,
                       "Filecoin kinds: the vanilla proofs (porep-seal-commit: the C1 output JSON; window-post, "
                       "winning-post: a PoSt request file from cuzk gen-vanilla)");
    add(submit, run_submit);

    auto* await = client->add_subcommand("await", "Wait for a job and print (and save) its result");
    await->add_option("job", o.job_id, "Job id")->required();
    await->add_option("--timeout-ms", o.timeout_ms, "Give up after this long (0 = wait until it ends)");
    result_options(await, o);
    add(await, run_await);

    auto* prove = client->add_subcommand("prove", "Submit a built-in circuit's or a zkey job and wait for its proof");
    job_options(prove, o);
    prove->add_option("--kind", o.kind, "builtin, or zkey (--key, --wtns)")->capture_default_str();
    result_options(prove, o);
    add(prove, run_prove);

    auto* cancel = client->add_subcommand("cancel", "Cancel a queued or running job");
    cancel->add_option("job", o.job_id, "Job id")->required();
    add(cancel, run_cancel);

    auto* status = client->add_subcommand("status", "Devices, queues, parameters, counters");
    status->add_flag("--json", o.json, "Print the GetStatus response as JSON");
    add(status, run_status);

    auto* jobs = client->add_subcommand("jobs", "The jobs the daemon keeps, newest first (filter by kind, state)");
    jobs->add_option("--kind", o.job_kind,
                     "Only this kind: builtin, porep-seal-commit, window-post, winning-post, ...");
    jobs->add_option("--state", o.job_state,
                     "Only this state: queued, running, active (queued or running), completed, failed, cancelled");
    jobs->add_option("--limit", o.limit, "At most this many (1..1000)")->capture_default_str();
    jobs->add_flag("--json", o.json, "Print the ListJobs response as JSON");
    add(jobs, run_jobs);

    auto* watch = client->add_subcommand("watch", "Live view of the daemon: devices, memory, queue, proof kinds, cost");
    watch->add_option("--interval-ms", o.interval_ms, "Refresh period")
        ->capture_default_str()
        ->check(CLI::Range(uint64_t(100), uint64_t(3600000)));
    watch->add_option("--frames", o.frames, "Stop after this many frames (0 = until interrupted)")
        ->capture_default_str();
    add(watch, run_watch);

    auto* metrics = client->add_subcommand("metrics", "Metrics (Prometheus text format)");
    add(metrics, run_metrics);

    auto* preload = client->add_subcommand("preload", "Load (or generate) a circuit's parameters ahead of use");
    preload->add_option("circuit_id", o.circuit_id, "e.g. sha256-chain-4")->required();
    add(preload, run_preload);

    auto* evict = client->add_subcommand("evict", "Drop a circuit's parameters from memory");
    evict->add_option("circuit_id", o.circuit_id, "e.g. sha256-chain-4")->required();
    add(evict, run_evict);

    static SoakOptions so;
    auto* soak = client->add_subcommand(
        "soak", "Bounded mixed load (valid small proofs and malformed requests) against a daemon on this machine");
    soak->add_option("--duration", so.duration_s, "Seconds to send for")->capture_default_str();
    soak->add_option("--max-requests", so.max_requests, "Stop after this many requests")->capture_default_str();
    soak->add_option("--rate", so.rate, "Requests a second, all clients together")->capture_default_str();
    soak->add_option("--clients", so.clients, "Concurrent clients")->capture_default_str();
    soak->add_option("--pid", so.pid, "The daemon's pid, for RSS samples from /proc/<pid>/status");
    soak->add_option("--ready-file", so.ready_file, "cuzk-daemon's --ready-file: pid, and address unless --address");
    soak->add_option("--rss-budget", so.rss_budget, "Peak RSS allowed, bytes (default: the daemon's memory budget)");
    soak->add_option("--seed", so.seed, "Random seed (default: from the clock; printed)");
    commands.push_back({soak, [client, soak] {
                            try {
                                SoakOptions run = so;
                                run.address = client->count("--address") || so.ready_file.empty() ? o.address : "";
                                return run_soak(run);
                            } catch (const std::exception& e) {
                                std::fprintf(stderr, "cuzk client %s: %s\n", soak->get_name().c_str(), e.what());
                                return 1;
                            }
                        }});
}

}  // namespace cuzk::cli

#else  // !CUZK_HAVE_SERVER

namespace cuzk::cli {

void add_client_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands) {
    auto* client = app.add_subcommand("client", "Talk to cuzk-daemon (not in this build)");
    client->allow_extras();
    client->prefix_command();
    commands.push_back({client, [] {
                            std::fprintf(stderr,
                                         "cuzk client: this cuzk was built without the daemon (CUZK_SERVER=OFF, or "
                                         "gRPC, toml++, cpp-httplib or spdlog missing at configure time)\n");
                            return 1;
                        }});
}

}  // namespace cuzk::cli

#endif
