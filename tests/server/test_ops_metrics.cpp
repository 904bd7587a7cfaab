// OpsMetrics on its own, with the clock given: the per-kind counters and histograms, proofs
// per hour and the cost of a proof over the rate window, the busy ratio over the last minute.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "cuzk/server/ops.hpp"

namespace cuzk::server {
namespace {

using namespace std::chrono_literals;
using engine::JobEvent;
using engine::JobState;

JobEvent ended(const std::string& kind, JobState state, double total_ms, double prove_ms, bool missed = false) {
    JobEvent e;
    e.type = JobEvent::Type::Ended;
    e.kind = kind;
    e.state = state;
    e.deadline_missed = missed;
    e.timings.total = total_ms;
    e.timings.prove = prove_ms;
    return e;
}

JobEvent started(const std::string& kind, double queue_wait_ms) {
    JobEvent e;
    e.type = JobEvent::Type::Started;
    e.kind = kind;
    e.timings.queue_wait = queue_wait_ms;
    return e;
}

const OpsMetrics::KindFigures& find(const std::vector<OpsMetrics::KindFigures>& v, const std::string& kind) {
    for (const auto& f : v)
        if (f.kind == kind) return f;
    throw std::runtime_error("no kind " + kind);
}

TEST(OpsMetrics, CostIsSharedByProveTimeOverTheLastHour) {
    const auto t0 = OpsMetrics::Clock::time_point{} + 1000h;
    OpsMetrics ops(10.0, t0);
    const auto t = t0 + 2h;  // older than the window: the rate window is one hour
    // PoRep: 2 proofs with 300 s of prove time; WindowPoSt: 4 proofs with 100 s.
    for (int i = 0; i < 2; ++i) ops.on_job_event(ended("porep-seal-commit", JobState::Completed, 600e3, 150e3), t);
    for (int i = 0; i < 4; ++i) ops.on_job_event(ended("window-post", JobState::Completed, 60e3, 25e3), t);
    ops.on_job_event(ended("window-post", JobState::Failed, 10e3, 5e3, true), t);
    ops.on_job_event(ended("window-post", JobState::Cancelled, 1e3, 0), t);
    const auto k = ops.kinds(t);
    const auto& porep = find(k, "porep-seal-commit");
    const auto& post = find(k, "window-post");
    EXPECT_DOUBLE_EQ(porep.proofs_per_hour, 2);
    EXPECT_DOUBLE_EQ(post.proofs_per_hour, 4);
    // 10 dollars for the hour: 3/4 of the prove time was PoRep's -> 7.5 over 2 proofs.
    EXPECT_DOUBLE_EQ(porep.dollars_per_proof, 3.75);
    EXPECT_DOUBLE_EQ(post.dollars_per_proof, 2.5 / 4);
    EXPECT_EQ(post.completed, 4u);
    EXPECT_EQ(post.failed, 1u);
    EXPECT_EQ(post.deadlines_missed, 1u);
    EXPECT_EQ(post.cancelled, 1u);
    // An hour and a bit later the proofs have left the window; the counters stay.
    const auto later = ops.kinds(t + 61min);
    EXPECT_EQ(find(later, "porep-seal-commit").proofs_per_hour, 0);
    EXPECT_EQ(find(later, "porep-seal-commit").dollars_per_proof, 0);
    EXPECT_EQ(find(later, "porep-seal-commit").completed, 2u);
}

TEST(OpsMetrics, AYoungDaemonCountsOverAtLeastAMinuteAndNoCostIsZero) {
    const auto t0 = OpsMetrics::Clock::time_point{} + 1000h;
    OpsMetrics ops(0, t0);
    ops.on_job_event(ended("builtin", JobState::Completed, 10, 5), t0 + 1s);
    const auto kinds_1 = ops.kinds(t0 + 2s);
    const auto& f = find(kinds_1, "builtin");
    EXPECT_DOUBLE_EQ(f.proofs_per_hour, 60);  // 1 proof over the minimum minute
    EXPECT_EQ(f.dollars_per_proof, 0);
    const auto kinds_2 = ops.kinds(t0 + 30min);
    const auto& g = find(kinds_2, "builtin");
    EXPECT_DOUBLE_EQ(g.proofs_per_hour, 2);  // 1 proof over half an hour
}

TEST(OpsMetrics, HistogramsAndBusyRatio) {
    const auto t0 = OpsMetrics::Clock::time_point{} + 1000h;
    OpsMetrics ops(0, t0);
    ops.on_job_event(started("builtin", 20), t0);    // 0.02 s: bucket 0.05 and up
    ops.on_job_event(started("builtin", 2000), t0);  // 2 s: bucket 3 and up
    ops.on_job_event(ended("builtin", JobState::Completed, 4000, 1000), t0);
    engine::EngineStatus s;
    s.devices.resize(1);
    s.devices[0].ordinal = 0;
    s.devices[0].memory_total = 80;
    s.devices[0].memory_free = 30;
    for (int i = 0; i <= 90; ++i) {  // busy 250 ms a second for 90 s
        s.devices[0].busy_ms = 250.0 * i;
        ops.sample(s, t0 + std::chrono::seconds(i));
    }
    EXPECT_NEAR(ops.busy_ratios().at(0), 0.25, 1e-9);
    const std::string m = ops.prometheus(s, {}, t0 + 90s);
    auto has = [&](const std::string& line) { return m.find(line + "\n") != std::string::npos; };
    EXPECT_TRUE(has("cuzk_task_queue_wait_seconds_bucket{task_name=\"builtin\",le=\"0.01\"} 0")) << m;
    EXPECT_TRUE(has("cuzk_task_queue_wait_seconds_bucket{task_name=\"builtin\",le=\"0.05\"} 1"));
    EXPECT_TRUE(has("cuzk_task_queue_wait_seconds_bucket{task_name=\"builtin\",le=\"3\"} 2"));
    EXPECT_TRUE(has("cuzk_task_queue_wait_seconds_count{task_name=\"builtin\"} 2"));
    EXPECT_TRUE(has("cuzk_task_duration_seconds_bucket{task_name=\"builtin\",success=\"true\",le=\"3\"} 0"));
    EXPECT_TRUE(has("cuzk_task_duration_seconds_bucket{task_name=\"builtin\",success=\"true\",le=\"6\"} 1"));
    EXPECT_TRUE(has("cuzk_gpu_busy_ratio{device=\"0\"} 0.25"));
    EXPECT_TRUE(has("cuzk_gpu_up{device=\"0\"} 1"));
    EXPECT_TRUE(has("cuzk_vram_used_bytes{device=\"0\"} 50"));
    EXPECT_TRUE(has("cuzk_vram_total_bytes{device=\"0\"} 80"));
    s.devices[0].memory_total = 0;  // the device no longer answers
    EXPECT_NE(ops.prometheus(s, {}, t0 + 90s).find("cuzk_gpu_up{device=\"0\"} 0\n"), std::string::npos);
}

TEST(OpsMetrics, QueuedJobsByKindAndTheOldestAge) {
    OpsMetrics ops;
    std::vector<engine::JobInfo> jobs(3);
    const auto now = std::chrono::system_clock::now();
    jobs[0].kind = "winning-post", jobs[0].priority = engine::Priority::Critical;
    jobs[0].state = JobState::Running, jobs[0].submitted = now - 5s;
    jobs[1].kind = "porep-seal-commit", jobs[1].priority = engine::Priority::Normal;
    jobs[1].state = JobState::Queued, jobs[1].submitted = now - 120s;
    jobs[2].kind = "porep-seal-commit", jobs[2].priority = engine::Priority::Normal;
    jobs[2].state = JobState::Queued, jobs[2].submitted = now - 10s;
    const std::string m = ops.prometheus({}, jobs);
    EXPECT_NE(m.find("cuzk_tasks_queued{task_name=\"porep-seal-commit\",priority=\"NORMAL\"} 2\n"), std::string::npos)
        << m;
    EXPECT_NE(m.find("cuzk_tasks_active{task_name=\"winning-post\",priority=\"CRITICAL\"} 1\n"), std::string::npos);
    const std::string series = "\ncuzk_queue_oldest_age_seconds ";
    const size_t at = m.find(series);
    ASSERT_NE(at, std::string::npos);
    const double age = std::stod(m.substr(at + series.size()));
    EXPECT_GE(age, 120);
    EXPECT_LT(age, 130);
}

}  // namespace
}  // namespace cuzk::server
