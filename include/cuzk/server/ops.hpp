// The operator's figures that the engine does not keep itself, in Curio's style (its
// harmonytask metrics: per task name, started/completed/failed counters and a duration
// histogram; GPU and RAM use): per proof kind the task duration and queue wait histograms,
// the counters, deadline risks and misses, proofs per hour and what a proof costs; per
// device the busy ratio over the last minute. Fed by the engine's job events
// (EngineConfig::on_job_event) and by samples of its status; docs/daemon.md ("Metrics")
// lists every name.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "cuzk/engine/engine.hpp"

namespace cuzk::server {

class OpsMetrics {
 public:
    using Clock = std::chrono::steady_clock;
    // Histogram buckets (seconds) of task duration and queue wait: from a small built-in
    // proof (milliseconds) to a 32 GiB PoRep on a slow host (tens of minutes).
    static constexpr double kBuckets[] = {0.01, 0.05, 0.1, 0.5, 1, 3, 6, 10, 20, 30, 45, 60, 120, 300, 600, 1800, 3600};
    static constexpr size_t kNumBuckets = sizeof(kBuckets) / sizeof(kBuckets[0]);
    // Proofs per hour and cost are taken over the last hour (or since start, at least a
    // minute, when younger); the busy ratio over the last minute.
    static constexpr std::chrono::seconds kRateWindow{3600}, kMinRateWindow{60}, kBusyWindow{60};

    explicit OpsMetrics(double dollars_per_hour = 0, Clock::time_point start = Clock::now());

    // EngineConfig::on_job_event (called under the engine's lock: only takes this one's).
    void on_job_event(const engine::JobEvent& e, Clock::time_point now = Clock::now());
    // A sample of the devices' busy time (the daemon takes one a second).
    void sample(const engine::EngineStatus& s, Clock::time_point now = Clock::now());

    struct KindFigures {
        std::string kind;
        uint64_t started = 0, completed = 0, failed = 0, cancelled = 0, deadline_risks = 0, deadlines_missed = 0;
        double duration_sum_s = 0;  // completed jobs, submit to result
        double queue_wait_sum_s = 0;
        // Over the rate window: completed proofs an hour, and the machine's cost (dollars_per_hour)
        // shared among the kinds by their prove-stage time, divided by the proofs (0 with no proof
        // in the window or no cost configured).
        double proofs_per_hour = 0, dollars_per_proof = 0;
    };
    std::vector<KindFigures> kinds(Clock::time_point now = Clock::now()) const;
    // Busy fraction of each device (by ordinal; -1 the CPU) over the busy window, in [0, 1].
    std::map<int, double> busy_ratios() const;
    double dollars_per_hour() const { return dollars_per_hour_; }

    // The Prometheus text of these figures, plus RAM (this process's resident set) and VRAM
    // use from `s`, and the queued/running jobs by kind and the oldest queued job's age from `jobs`.
    std::string prometheus(const engine::EngineStatus& s, const std::vector<engine::JobInfo>& jobs,
                           Clock::time_point now = Clock::now()) const;

 private:
    struct Hist {
        uint64_t count = 0;
        double sum = 0;
        uint64_t buckets[kNumBuckets] = {};
        void add(double seconds);
    };
    struct Kind {
        KindFigures f;
        Hist duration_ok, duration_failed, queue_wait;
    };
    struct Done {
        Clock::time_point at;
        std::string kind;
        double prove_ms = 0;
    };
    void trim_locked(Clock::time_point now) const;

    const double dollars_per_hour_;
    const Clock::time_point start_;
    mutable std::mutex mu_;
    std::map<std::string, Kind> kinds_;
    mutable std::deque<Done> done_;  // completions inside the rate window
    // (time, busy ms per device) samples inside the busy window
    std::deque<std::pair<Clock::time_point, std::map<int, double>>> busy_;
};

// This process's resident set (VmRSS of /proc/self/status) in bytes; 0 where unreadable.
uint64_t resident_bytes();

}  // namespace cuzk::server
