#include "cuzk/server/ops.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace cuzk::server {
namespace {

double seconds(OpsMetrics::Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// A label value as the exposition format wants it: \, " and newline escaped.
std::string label(const std::string& v) {
    std::string out;
    for (char c : v) {
        if (c == '\\' || c == '"') out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out;
}

std::string num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

}  // namespace

void OpsMetrics::Hist::add(double s) {
    ++count;
    sum += s;
    for (size_t i = 0; i < kNumBuckets; ++i)
        if (s <= kBuckets[i]) ++buckets[i];
}

OpsMetrics::OpsMetrics(double dollars_per_hour, Clock::time_point start)
    : dollars_per_hour_(dollars_per_hour), start_(start) {}

void OpsMetrics::on_job_event(const engine::JobEvent& e, Clock::time_point now) {
    std::lock_guard lock(mu_);
    Kind& k = kinds_[e.kind];
    k.f.kind = e.kind;
    switch (e.type) {
        case engine::JobEvent::Type::Started:
            ++k.f.started;
            k.f.queue_wait_sum_s += e.timings.queue_wait / 1000;
            k.queue_wait.add(e.timings.queue_wait / 1000);
            break;
        case engine::JobEvent::Type::DeadlineRisk:
            ++k.f.deadline_risks;
            break;
        case engine::JobEvent::Type::Ended:
            if (e.state == engine::JobState::Completed) {
                ++k.f.completed;
                k.f.duration_sum_s += e.timings.total / 1000;
                k.duration_ok.add(e.timings.total / 1000);
                done_.push_back({now, e.kind, e.timings.prove});
            } else if (e.state == engine::JobState::Failed) {
                ++k.f.failed;
                k.duration_failed.add(e.timings.total / 1000);
                if (e.deadline_missed) ++k.f.deadlines_missed;
            } else {
                ++k.f.cancelled;
            }
            trim_locked(now);
            break;
    }
}

void OpsMetrics::trim_locked(Clock::time_point now) const {
    while (!done_.empty() && now - done_.front().at > kRateWindow) done_.pop_front();
}

void OpsMetrics::sample(const engine::EngineStatus& s, Clock::time_point now) {
    std::map<int, double> busy;
    for (const auto& d : s.devices) busy[d.ordinal] = d.busy_ms;
    std::lock_guard lock(mu_);
    busy_.emplace_back(now, std::move(busy));
    // Keep one sample at or before the window's start, so that the ratio spans the window.
    while (busy_.size() > 2 && now - busy_[1].first >= kBusyWindow) busy_.pop_front();
}

std::map<int, double> OpsMetrics::busy_ratios() const {
    std::lock_guard lock(mu_);
    std::map<int, double> out;
    if (busy_.size() < 2) return out;
    const auto& [t0, b0] = busy_.front();
    const auto& [t1, b1] = busy_.back();
    const double wall_ms = seconds(t1 - t0) * 1000;
    if (wall_ms <= 0) return out;
    for (const auto& [dev, ms] : b1) {
        const auto it = b0.find(dev);
        const double was = it == b0.end() ? 0 : it->second;
        // Prove workers sharing the CPU backend run side by side: their sum may pass the wall time.
        out[dev] = std::clamp((ms - was) / wall_ms, 0.0, 1.0);
    }
    return out;
}

std::vector<OpsMetrics::KindFigures> OpsMetrics::kinds(Clock::time_point now) const {
    std::lock_guard lock(mu_);
    trim_locked(now);
    const double window_h = seconds(std::clamp<Clock::duration>(now - start_, kMinRateWindow, kRateWindow)) / 3600;
    std::map<std::string, std::pair<uint64_t, double>> in_window;  // proofs, prove ms
    double prove_ms_all = 0;
    for (const auto& d : done_) {
        auto& [n, ms] = in_window[d.kind];
        ++n;
        ms += d.prove_ms;
        prove_ms_all += d.prove_ms;
    }
    std::vector<KindFigures> out;
    for (const auto& [name, k] : kinds_) {
        KindFigures f = k.f;
        const auto it = in_window.find(name);
        if (it != in_window.end() && it->second.first > 0) {
            const auto [n, ms] = it->second;
            f.proofs_per_hour = double(n) / window_h;
            // The machine's cost over the window, shared by prove-stage time (all of it when
            // the kind is alone, or when no prove time was measured).
            const double share = prove_ms_all > 0 ? ms / prove_ms_all : double(n) / double(done_.size());
            f.dollars_per_proof = dollars_per_hour_ * window_h * share / double(n);
        }
        out.push_back(std::move(f));
    }
    return out;
}

std::string OpsMetrics::prometheus(const engine::EngineStatus& s, const std::vector<engine::JobInfo>& jobs,
                                   Clock::time_point now) const {
    std::ostringstream os;
    auto header = [&](const char* name, const char* help, const char* type) {
        os << "# HELP " << name << " " << help << "\n# TYPE " << name << " " << type << "\n";
    };
    auto hist = [&](const char* name, const std::string& labels, const Hist& h) {
        for (size_t i = 0; i < kNumBuckets; ++i)
            os << name << "_bucket{" << labels << ",le=\"" << kBuckets[i] << "\"} " << h.buckets[i] << "\n";
        os << name << "_bucket{" << labels << ",le=\"+Inf\"} " << h.count << "\n";
        os << name << "_sum{" << labels << "} " << num(h.sum) << "\n";
        os << name << "_count{" << labels << "} " << h.count << "\n";
    };
    const std::vector<KindFigures> figures = kinds(now);
    {
        std::lock_guard lock(mu_);
        auto counter = [&](const char* name, const char* help, uint64_t KindFigures::*field) {
            header(name, help, "counter");
            for (const auto& [kind, k] : kinds_)
                os << name << "{task_name=\"" << label(kind) << "\"} " << k.f.*field << "\n";
        };
        counter("cuzk_tasks_started_total", "Jobs whose first partition started, by proof kind", &KindFigures::started);
        counter("cuzk_tasks_completed_total", "Jobs completed, by proof kind", &KindFigures::completed);
        counter("cuzk_tasks_failed_total", "Jobs failed (deadline misses included), by proof kind",
                &KindFigures::failed);
        counter("cuzk_tasks_cancelled_total", "Jobs cancelled, by proof kind", &KindFigures::cancelled);
        counter("cuzk_deadline_risk_total", "Jobs found unable to meet their deadline, by proof kind",
                &KindFigures::deadline_risks);
        counter("cuzk_deadline_missed_total", "Jobs failed because their deadline passed, by proof kind",
                &KindFigures::deadlines_missed);
        header("cuzk_task_duration_seconds", "Submit-to-end time of ended jobs, by proof kind and success",
               "histogram");
        for (const auto& [kind, k] : kinds_) {
            hist("cuzk_task_duration_seconds", "task_name=\"" + label(kind) + "\",success=\"true\"", k.duration_ok);
            hist("cuzk_task_duration_seconds", "task_name=\"" + label(kind) + "\",success=\"false\"",
                 k.duration_failed);
        }
        header("cuzk_task_queue_wait_seconds", "Submit-to-start time of started jobs, by proof kind", "histogram");
        for (const auto& [kind, k] : kinds_)
            hist("cuzk_task_queue_wait_seconds", "task_name=\"" + label(kind) + "\"", k.queue_wait);
    }
    header("cuzk_proofs_per_hour", "Jobs completed per hour over the last hour (since start when younger), by kind",
           "gauge");
    for (const auto& f : figures)
        os << "cuzk_proofs_per_hour{task_name=\"" << label(f.kind) << "\"} " << num(f.proofs_per_hour) << "\n";
    header("cuzk_cost_dollars_per_hour", "The machine's cost ([cost] dollars_per_hour)", "gauge");
    os << "cuzk_cost_dollars_per_hour " << num(dollars_per_hour_) << "\n";
    header("cuzk_dollars_per_proof",
           "The machine's cost over the last hour, shared by prove time, per completed job, by kind", "gauge");
    for (const auto& f : figures)
        os << "cuzk_dollars_per_proof{task_name=\"" << label(f.kind) << "\"} " << num(f.dollars_per_proof) << "\n";

    // Jobs waiting and running, by kind and priority, and the oldest waiting one's age.
    std::map<std::pair<std::string, std::string>, std::pair<uint64_t, uint64_t>> by;  // queued, running
    double oldest_queued_s = 0;
    const auto wall_now = std::chrono::system_clock::now();
    for (const auto& j : jobs) {
        auto& [queued, running] = by[{j.kind, engine::priority_name(j.priority)}];
        if (j.state == engine::JobState::Queued) {
            ++queued;
            oldest_queued_s = std::max(oldest_queued_s, seconds(wall_now - j.submitted));
        } else if (j.state == engine::JobState::Running) {
            ++running;
        }
    }
    header("cuzk_tasks_queued", "Jobs waiting to start, by proof kind and priority", "gauge");
    for (const auto& [k, v] : by)
        os << "cuzk_tasks_queued{task_name=\"" << label(k.first) << "\",priority=\"" << k.second << "\"} " << v.first
           << "\n";
    header("cuzk_tasks_active", "Jobs running, by proof kind and priority", "gauge");
    for (const auto& [k, v] : by)
        os << "cuzk_tasks_active{task_name=\"" << label(k.first) << "\",priority=\"" << k.second << "\"} " << v.second
           << "\n";
    header("cuzk_queue_oldest_age_seconds", "Age of the oldest job still waiting to start (0: none waits)", "gauge");
    os << "cuzk_queue_oldest_age_seconds " << num(oldest_queued_s) << "\n";

    // Devices: busy ratio, VRAM; the host's RAM.
    const auto busy = busy_ratios();
    header("cuzk_gpu_busy_ratio", "Fraction of the last minute each prove target spent in device stages (-1: CPU)",
           "gauge");
    for (const auto& d : s.devices) {
        const auto it = busy.find(d.ordinal);
        os << "cuzk_gpu_busy_ratio{device=\"" << d.ordinal << "\"} " << num(it == busy.end() ? 0 : it->second) << "\n";
    }
    header("cuzk_gpu_up", "1 while a GPU answers (its memory can be read), 0 once it does not", "gauge");
    for (const auto& d : s.devices)
        if (d.ordinal >= 0) os << "cuzk_gpu_up{device=\"" << d.ordinal << "\"} " << (d.memory_total > 0) << "\n";
    header("cuzk_vram_used_bytes", "Device memory in use (all processes)", "gauge");
    for (const auto& d : s.devices)
        if (d.ordinal >= 0)
            os << "cuzk_vram_used_bytes{device=\"" << d.ordinal << "\"} " << (d.memory_total - d.memory_free) << "\n";
    header("cuzk_vram_total_bytes", "Device memory", "gauge");
    for (const auto& d : s.devices)
        if (d.ordinal >= 0) os << "cuzk_vram_total_bytes{device=\"" << d.ordinal << "\"} " << d.memory_total << "\n";
    header("cuzk_ram_used_bytes", "Resident memory of the daemon process", "gauge");
    os << "cuzk_ram_used_bytes " << resident_bytes() << "\n";
    return os.str();
}

uint64_t resident_bytes() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmRSS:", 0) == 0) {
            std::istringstream ls(line.substr(6));
            uint64_t kib = 0;
            ls >> kib;
            return kib * 1024;
        }
    return 0;
}

}  // namespace cuzk::server
