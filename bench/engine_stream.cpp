// A stream of proving jobs through the engine, to measure how busy it keeps the prove
// target (the GPU, or the CPU backend) in steady state, read from the engine's spans.
//
//   cuzk_bench_engine_stream [--backend auto|cpu|cuda] [--circuit sha256-chain] [--size 10]
//       [--jobs 8] [--partitions 4] [--witness-workers N] [--prove-workers 2]
//       [--devices 0,1] [--param-cache DIR] [--trace out.json]
//
// --devices picks the GPUs (default: every GPU); with several, busy is reported per
// device and throughput is what multi-GPU scaling is measured by (run once with one
// device and once with all, same arguments otherwise).
//
// Steady state: from the start of the W-th device span to the end of the (n-W)-th, where
// W is a tenth of the partitions (at least 2), so parameter loading, the first upload of
// the bases and the drain at the end are left out. Busy = union of the device spans
// (layer "gpu", or "cpu" for the CPU backend) inside that window over its length. The
// line "witness keeps up" compares witness capacity (workers / witness time) with the
// device's rate (1 / device time per partition).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/engine/engine.hpp"

using namespace cuzk;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    engine::EngineConfig cfg;
    engine::JobSpec spec;
    spec.circuit = "sha256-chain";
    spec.size = 10;
    spec.partitions = 4;
    unsigned jobs = 8;
    std::string trace_file;
    cfg.witness_workers = std::max(2u, std::thread::hardware_concurrency() / 2);
    cfg.witness_queue_bound = 4;
    cfg.log = [](int level, const std::string& line) {
        if (level >= 1) std::fprintf(stderr, "%s\n", line.c_str());
    };
    CLI::App app("A stream of proving jobs through the engine: steady-state device busy time and throughput.",
                 "cuzk_bench_engine_stream");
    app.add_option("--backend", cfg.backend, "auto, cpu or cuda")->capture_default_str();
    app.add_option("--circuit", spec.circuit, "built-in circuit")->capture_default_str();
    app.add_option("--size", spec.size, "circuit size parameter")->capture_default_str();
    app.add_option("--jobs", jobs, "jobs in the stream")->check(CLI::Range(1u, 1000000u))->capture_default_str();
    app.add_option("--partitions", spec.partitions, "partitions a job")->capture_default_str();
    app.add_option("--witness-workers", cfg.witness_workers, "witness threads")->capture_default_str();
    app.add_option_function<unsigned>(
        "--prove-workers", [&cfg](unsigned n) { cfg.prove_workers_per_device = cfg.cpu_prove_workers = n; },
        "prove workers a device (and on the CPU)");
    app.add_option("--devices", cfg.devices, "comma-separated GPU ordinals (default: every GPU)")
        ->delimiter(',')
        ->type_name("LIST");
    app.add_option("--param-cache", cfg.param_cache, "parameter cache folder");
    app.add_option("--trace", trace_file, "Chrome trace JSON output");
    CLI11_PARSE(app, argc, argv);

    try {
        engine::Engine e(cfg);
        // Load (or generate) the parameters outside the measurement.
        auto t0 = Clock::now();
        e.preload(engine::Engine::circuit_id(spec));
        const double load_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        auto start = Clock::now();
        std::vector<std::string> ids;
        for (unsigned j = 0; j < jobs; ++j) {
            spec.seed = 1 + j * spec.partitions;
            ids.push_back(e.submit(spec).job_id);
        }
        unsigned ok = 0;
        std::vector<double> witness, prove;
        for (const auto& id : ids) {
            auto r = e.await(id);
            if (r && r->state == engine::JobState::Completed)
                ++ok;
            else
                std::fprintf(stderr, "job %s: %s\n", id.c_str(), r ? r->error.c_str() : "?");
            if (r) {
                witness.push_back(r->timings.witness / spec.partitions);
                prove.push_back(r->timings.prove / spec.partitions);
            }
        }
        const double wall = std::chrono::duration<double>(Clock::now() - start).count();
        const auto st = e.status();

        // Device spans from the trace.
        auto trace = nlohmann::json::parse(e.chrome_trace_json());
        const std::string layer = st.backend == "cpu" ? "cpu" : "gpu";
        std::map<int, std::vector<std::pair<double, double>>> spans;  // per device
        std::map<std::pair<uint64_t, unsigned>, double> device_per_item;
        std::map<std::pair<uint64_t, unsigned>, std::pair<double, double>> bounds;
        for (const auto& ev : trace["traceEvents"]) {
            if (ev["ph"] != "X") continue;
            // The prove target's stages (device_h_msm, device_msm_z); spans nested in them
            // (copies, kernels) are inside and left out of the sums.
            if (ev["cat"] != layer || ev["name"].get<std::string>().rfind("device_", 0) != 0) continue;
            const double ts = ev["ts"].get<double>(), end = ts + ev["dur"].get<double>();
            auto key = std::make_pair(ev["args"]["job"].get<uint64_t>(), ev["args"]["partition"].get<unsigned>());
            spans[ev["args"]["device"].get<int>()].push_back({ts, end});
            device_per_item[key] += end - ts;
            // Each work item's first device start and last device end.
            auto it = bounds.find(key);
            if (it == bounds.end())
                bounds[key] = {ts, end};
            else
                it->second = {std::min(it->second.first, ts), std::max(it->second.second, end)};
        }
        std::vector<std::pair<double, double>> items;
        for (auto& [k, b] : bounds) items.push_back(b);
        std::sort(items.begin(), items.end());
        const size_t n = items.size();
        const size_t w = std::max<size_t>(2, n / 10);
        // Steady state: from the start of the w-th item to the end of the (n-w)-th.
        std::map<int, double> busy_frac;
        double window_ms = 0;
        if (n > 2 * w) {
            const double lo = items[w].first;
            std::vector<double> ends;
            for (auto& it : items) ends.push_back(it.second);
            std::sort(ends.begin(), ends.end());
            const double hi = ends[n - w - 1];
            window_ms = (hi - lo) / 1000;
            for (auto& [device, sp] : spans) {
                std::sort(sp.begin(), sp.end());
                double busy = 0, cur_s = -1, cur_e = -1;
                for (auto [s0, e0] : sp) {
                    s0 = std::max(s0, lo);
                    e0 = std::min(e0, hi);
                    if (e0 <= s0) continue;
                    if (s0 > cur_e) {
                        if (cur_e > cur_s) busy += cur_e - cur_s;
                        cur_s = s0;
                        cur_e = e0;
                    } else {
                        cur_e = std::max(cur_e, e0);
                    }
                }
                if (cur_e > cur_s) busy += cur_e - cur_s;
                busy_frac[device] = busy / (hi - lo);
            }
        }
        std::vector<double> dev;
        for (auto& [k, v] : device_per_item) dev.push_back(v / 1000);
        const double dev_ms = median(dev), wit_ms = median(witness);
        const double total_parts = double(jobs) * spec.partitions;
        const double n_dev = double(std::max<size_t>(1, st.devices.size()));
        std::printf(
            "engine stream: backend %s, circuit %s, %u jobs x %u partitions, %u witness workers, %u prove "
            "workers per device\n",
            st.backend.c_str(), engine::Engine::circuit_id(spec).c_str(), jobs, spec.partitions, cfg.witness_workers,
            cfg.prove_workers_per_device);
        std::printf("  parameters ready in %.0f ms (generated or read, outside the stream)\n", load_ms);
        std::printf("  %u/%u jobs completed and verified in %.2f s: %.2f partitions/s\n", ok, jobs, wall,
                    total_parts / wall);
        std::printf("  per partition (medians): witness %.1f ms, prove %.1f ms, device stages %.1f ms\n", wit_ms,
                    median(prove), dev_ms);
        std::printf("  witness keeps up: %s (capacity %.1f partitions/s vs devices %.1f partitions/s)\n",
                    wit_ms > 0 && cfg.witness_workers / wit_ms >= n_dev / dev_ms ? "yes" : "no",
                    wit_ms > 0 ? 1000.0 * cfg.witness_workers / wit_ms : 0.0,
                    dev_ms > 0 ? 1000.0 * n_dev / dev_ms : 0.0);
        if (window_ms > 0)
            std::printf(
                "  steady-state throughput: %.2f partitions/s (%zu partitions' device work in a %.0f ms window)\n",
                double(n - 2 * w) / (window_ms / 1000), n - 2 * w, window_ms);
        for (const auto& d : st.devices)
            std::printf(
                "  device %d (%s): %llu partitions, busy %.1f%% of a %.0f ms steady-state window (%zu of %zu "
                "partitions)\n",
                d.ordinal, d.name.c_str(), (unsigned long long)d.partitions_proven,
                100 * (busy_frac.count(d.ordinal) ? busy_frac[d.ordinal] : 0.0), window_ms, n > 2 * w ? n - 2 * w : 0,
                n);
        for (const auto& d : st.devices)
            if (d.ordinal >= 0)
                std::printf("  device %d: copies ahead (CUDA backend): a and c %llu, z %llu of its partitions\n",
                            d.ordinal, (unsigned long long)d.abc_copied_ahead, (unsigned long long)d.z_copied_ahead);
        std::printf("  proofs verified before return; recomputed on the CPU after a failed check: %llu\n",
                    (unsigned long long)st.cpu_recomputes);
        std::printf("  memory high water %.1f MiB of a %.1f MiB budget; queue high water prove %u/%u\n",
                    st.memory_high_water / 1048576.0, st.memory_budget / 1048576.0, st.queues[1].high_water,
                    st.queues[1].bound);
        if (!trace_file.empty()) {
            std::ofstream(trace_file) << e.chrome_trace_json();
            std::printf("  Chrome trace written to %s\n", trace_file.c_str());
        }
        return ok == jobs ? 0 : 1;
    } catch (const std::exception& ex) {
        std::fprintf(stderr, "cuzk_bench_engine_stream: %s\n", ex.what());
        return 1;
    }
}
