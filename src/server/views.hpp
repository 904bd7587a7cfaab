// The daemon's views of the engine shared by HTTP and gRPC: the status with the per-kind
// figures (GET /status), the dashboard's overview (GET /api/overview, GetOverview) and the
// jobs list (GET /api/jobs, ListJobs).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "cuzk/engine/engine.hpp"
#include "cuzk/server/ops.hpp"

namespace cuzk::server {

inline constexpr unsigned kDefaultJobsListed = 200, kMaxJobsListed = 1000;

// The engine's status JSON plus "kinds" (OpsMetrics::kinds) and "cost".
nlohmann::json status_json(const engine::Engine& engine, const OpsMetrics& ops);
// status_json plus each device's "busy_ratio", "queue" (jobs queued and running by kind and
// priority), memory.rss_bytes and now_unix_ms.
nlohmann::json overview_json(const engine::Engine& engine, const OpsMetrics& ops);
// The jobs of `kind` ("" = any) in `state` ("" = any; queued, running, active = queued or
// running, completed, failed, cancelled; any case), newest first, at most `limit`. Throws
// EngineError(InvalidArgument) naming a bad state.
std::vector<engine::JobInfo> select_jobs(const engine::Engine& engine, const std::string& kind,
                                         const std::string& state, unsigned limit);

}  // namespace cuzk::server
