#include "views.hpp"

#include <map>
#include <set>

#include "cuzk/common/echo.hpp"

namespace cuzk::server {

using json = nlohmann::json;

json status_json(const engine::Engine& engine, const OpsMetrics& ops) {
    json j = json::parse(engine.status_json());
    json kinds = json::array();
    for (const auto& f : ops.kinds())
        kinds.push_back({{"kind", f.kind},
                         {"started", f.started},
                         {"completed", f.completed},
                         {"failed", f.failed},
                         {"cancelled", f.cancelled},
                         {"deadline_risks", f.deadline_risks},
                         {"deadlines_missed", f.deadlines_missed},
                         {"mean_duration_s", f.completed ? f.duration_sum_s / double(f.completed) : 0.0},
                         {"mean_queue_wait_s", f.started ? f.queue_wait_sum_s / double(f.started) : 0.0},
                         {"proofs_per_hour", f.proofs_per_hour},
                         {"dollars_per_proof", f.dollars_per_proof}});
    j["kinds"] = kinds;
    j["cost"] = {{"dollars_per_hour", ops.dollars_per_hour()}};
    return j;
}

json overview_json(const engine::Engine& engine, const OpsMetrics& ops) {
    json j = status_json(engine, ops);
    const auto busy = ops.busy_ratios();
    for (auto& d : j["devices"]) {
        const auto it = busy.find(d["ordinal"].get<int>());
        d["busy_ratio"] = it == busy.end() ? 0.0 : it->second;
    }
    std::map<std::pair<std::string, std::string>, std::pair<uint64_t, uint64_t>> by;
    for (const auto& job : engine.jobs()) {
        if (job.state != engine::JobState::Queued && job.state != engine::JobState::Running) continue;
        auto& [queued, running] = by[{job.kind, engine::priority_name(job.priority)}];
        ++(job.state == engine::JobState::Queued ? queued : running);
    }
    json queue = json::array();
    for (const auto& [k, v] : by)
        queue.push_back({{"kind", k.first}, {"priority", k.second}, {"queued", v.first}, {"running", v.second}});
    j["queue"] = queue;
    j["memory"]["rss_bytes"] = resident_bytes();
    j["now_unix_ms"] =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    return j;
}

std::vector<engine::JobInfo> select_jobs(const engine::Engine& engine, const std::string& kind,
                                         const std::string& state_in, unsigned limit) {
    std::string state = state_in;
    for (char& c : state) c = char(std::tolower(static_cast<unsigned char>(c)));
    static const std::set<std::string> states = {"", "queued", "running", "completed", "failed", "cancelled", "active"};
    if (!states.count(state))
        throw engine::EngineError(engine::EngineError::Code::InvalidArgument,
                                  "state \"" + echo(state_in) +
                                      "\": expected queued, running, active (queued or running), completed, failed or "
                                      "cancelled");
    auto jobs = engine.jobs();
    std::vector<engine::JobInfo> out;
    for (auto it = jobs.rbegin(); it != jobs.rend() && out.size() < limit; ++it) {  // newest first
        if (!kind.empty() && it->kind != kind) continue;
        const bool active = it->state == engine::JobState::Queued || it->state == engine::JobState::Running;
        std::string s = engine::job_state_name(it->state);
        for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
        if (state == "active" ? !active : (!state.empty() && s != state)) continue;
        out.push_back(std::move(*it));
    }
    return out;
}

}  // namespace cuzk::server
