#include "http_api.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "assets.hpp"
#include "cuzk/common/echo.hpp"
#include "log.hpp"
#include "views.hpp"

namespace cuzk::server {
namespace {

using json = nlohmann::json;
using engine::EngineError;

// Most spans /api/timeline and one job's detail return.
constexpr size_t kMaxSpans = 20000;
constexpr unsigned kMaxTimelineSeconds = 3600;

int64_t unix_ms(std::chrono::system_clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

double ms_after(trace::Clock::time_point origin, trace::Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(t - origin).count();
}

json timings_json(const engine::JobTimings& t) {
    return {{"queue_wait", t.queue_wait}, {"param_load", t.param_load}, {"witness", t.witness},
            {"prove", t.prove},           {"verify", t.verify},         {"total", t.total}};
}

json job_json(const engine::JobInfo& j) {
    return {{"job_id", j.job_id},
            {"number", j.number},
            {"kind", j.kind},
            {"circuit_id", j.circuit_id},
            {"priority", engine::priority_name(j.priority)},
            {"state", engine::job_state_name(j.state)},
            {"partitions_done", j.partitions_done},
            {"partitions_total", j.partitions_total},
            {"submitted_unix_ms", unix_ms(j.submitted)},
            {"deadline_unix_ms", j.deadline ? json(unix_ms(*j.deadline)) : json(nullptr)},
            {"deadline_at_risk", j.deadline_at_risk},
            {"deadline_missed", j.deadline_missed},
            {"error", j.error},
            {"backend", j.backend},
            {"timings_ms", timings_json(j.timings)}};
}

json span_json(const trace::Event& e, trace::Clock::time_point origin, const std::string& job_id) {
    return {{"job_id", job_id},
            {"partition", e.partition},
            {"device", e.device},
            {"name", e.name},
            {"layer", e.layer},
            {"start_ms", ms_after(origin, e.start)},
            {"end_ms", ms_after(origin, e.end)}};
}

void send_json(httplib::Response& res, const json& j, int status = 200) {
    res.status = status;
    res.set_header("Cache-Control", "no-store");
    res.set_content(j.dump(), "application/json");
}

void send_error(httplib::Response& res, int status, const std::string& message) {
    send_json(res, {{"error", message}}, status);
}

int http_status(EngineError::Code c) {
    switch (c) {
        case EngineError::Code::InvalidArgument:
            return 400;
        case EngineError::Code::NotFound:
            return 404;
        case EngineError::Code::AlreadyExists:
            return 409;
        case EngineError::Code::NotImplemented:
            return 501;
        case EngineError::Code::ResourceExhausted:
        case EngineError::Code::ShuttingDown:
            return 503;
    }
    return 500;
}

// Constant-time comparison: the time taken does not tell how much of a guess was right
// (only whether its length was).
bool same_token(std::string_view given, std::string_view want) {
    unsigned char diff = given.size() != want.size();
    const size_t n = std::min(given.size(), want.size());
    for (size_t i = 0; i < n; ++i) diff |= static_cast<unsigned char>(given[i] ^ want[i]);
    return diff == 0;
}

// Query parameter `name` as an unsigned integer in [lo, hi]; `dflt` when absent. Throws
// EngineError(InvalidArgument) naming the parameter.
unsigned query_uint(const httplib::Request& req, const char* name, unsigned dflt, unsigned lo, unsigned hi) {
    if (!req.has_param(name)) return dflt;
    const std::string v = req.get_param_value(name);
    unsigned n = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size() || n < lo || n > hi)
        throw EngineError(EngineError::Code::InvalidArgument, std::string("query parameter ") + name + "=\"" + echo(v) +
                                                                  "\": expected an integer in [" + std::to_string(lo) +
                                                                  ", " + std::to_string(hi) + "]");
    return n;
}

json jobs_json(const HttpContext& c, const httplib::Request& req) {
    const unsigned limit = query_uint(req, "limit", kDefaultJobsListed, 1, kMaxJobsListed);
    json out = json::array();
    for (const auto& j : select_jobs(*c.engine, req.get_param_value("kind"), req.get_param_value("state"), limit))
        out.push_back(job_json(j));
    return {{"jobs", out}};
}

json job_detail_json(const HttpContext& c, const std::string& id) {
    const auto jobs = c.engine->jobs();
    const auto it = std::find_if(jobs.begin(), jobs.end(), [&](const engine::JobInfo& j) { return j.job_id == id; });
    if (it == jobs.end()) throw EngineError(EngineError::Code::NotFound, "unknown job id '" + echo(id) + "'");
    json j = job_json(*it);
    const auto origin = c.engine->trace_origin();
    std::map<std::pair<std::string, std::string>, std::pair<uint64_t, double>> phases;  // (layer, name): count, ms
    json spans = json::array();
    const uint64_t number = it->number;
    for (const auto& e : c.engine->spans([number](const trace::Event& e) { return e.job == number; })) {
        auto& [n, ms] = phases[{e.layer, e.name}];
        ++n;
        ms += e.ms();
        if (spans.size() < kMaxSpans) spans.push_back(span_json(e, origin, id));
    }
    json ph = json::array();
    for (const auto& [k, v] : phases)
        ph.push_back({{"layer", k.first}, {"phase", k.second}, {"count", v.first}, {"total_ms", v.second}});
    j["phases"] = ph;
    j["spans"] = spans;
    return j;
}

json timeline_json(const HttpContext& c, const httplib::Request& req) {
    const unsigned seconds = query_uint(req, "seconds", 300, 1, kMaxTimelineSeconds);
    const auto origin = c.engine->trace_origin();
    const auto now = trace::Clock::now();
    const auto from = now - std::chrono::seconds(seconds);
    std::map<uint64_t, const engine::JobInfo*> by_number;
    const auto jobs = c.engine->jobs();
    for (const auto& j : jobs) by_number[j.number] = &j;
    const auto all = c.engine->spans([from](const trace::Event& e) { return e.job != 0 && e.end >= from; });
    std::vector<const trace::Event*> recent;  // the newest kMaxSpans
    for (auto it = all.rbegin(); it != all.rend() && recent.size() < kMaxSpans; ++it) recent.push_back(&*it);
    json spans = json::array();
    std::set<uint64_t> seen;
    for (auto it = recent.rbegin(); it != recent.rend(); ++it) {
        const trace::Event& e = **it;
        const auto j = by_number.find(e.job);
        // A job forgotten since (finished_jobs_kept) is shown by its number.
        std::string id = j == by_number.end() ? std::to_string(e.job) : j->second->job_id;
        if (j == by_number.end()) id.insert(id.begin(), '#');
        spans.push_back(span_json(e, origin, id));
        seen.insert(e.job);
    }
    json listed = json::array();
    for (uint64_t n : seen) {
        const auto j = by_number.find(n);
        if (j != by_number.end()) listed.push_back(job_json(*j->second));
    }
    return {{"now_ms", ms_after(origin, now)}, {"from_ms", ms_after(origin, from)}, {"spans", spans}, {"jobs", listed}};
}

json params_json(const HttpContext& c) {
    const auto s = c.engine->status();
    json out = json::array();
    for (const auto& p : s.params) {
        json devices = json::array();
        for (const auto& d : s.devices)
            if (std::find(d.circuits.begin(), d.circuits.end(), p.circuit_id) != d.circuits.end())
                devices.push_back(d.ordinal);
        out.push_back({{"circuit_id", p.circuit_id},
                       {"tier", p.tier == engine::ParamStatus::Tier::Hot    ? "HOT"
                                : p.tier == engine::ParamStatus::Tier::Warm ? "WARM"
                                                                            : "COLD"},
                       {"size_bytes", p.size_bytes},
                       {"ref_count", p.ref_count},
                       {"idle_ms", p.idle_ms},
                       {"devices", devices}});
    }
    return {{"params", out}, {"admin", !c.config->admin_token.empty()}};
}

// The circuit id of a preload/evict request: JSON {"circuit_id": "..."} or a form field.
std::string circuit_id_of(const httplib::Request& req) {
    if (req.has_param("circuit_id")) return req.get_param_value("circuit_id");
    const json body = json::parse(req.body, nullptr, false);
    if (body.is_discarded() || !body.is_object() || !body.contains("circuit_id") || !body["circuit_id"].is_string())
        throw EngineError(EngineError::Code::InvalidArgument,
                          "expected a JSON body {\"circuit_id\": \"...\"} (or a circuit_id form field)");
    return body["circuit_id"].get<std::string>();
}

// Runs a handler, answering an EngineError with its HTTP status and message as JSON.
template <class F>
httplib::Server::Handler api(F f) {
    return [f](const httplib::Request& req, httplib::Response& res) {
        try {
            f(req, res);
        } catch (const EngineError& e) {
            send_error(res, http_status(e.code()), e.what());
        }
    };
}

}  // namespace

int refuse_unauthorized(const httplib::Request& req, const std::string& admin_token, std::string* why) {
    if (admin_token.empty()) {
        *why =
            "the daemon has no admin_token ([daemon] admin_token or CUZK_ADMIN_TOKEN): its HTTP interface is "
            "read-only";
        return 403;
    }
    const std::string auth = req.get_header_value("Authorization");
    const std::string prefix = "Bearer ";
    if (auth.rfind(prefix, 0) != 0) {
        *why = "this request changes state: it needs the header \"Authorization: Bearer <admin token>\"";
        return 401;
    }
    if (!same_token(auth.substr(prefix.size()), admin_token)) {
        *why = "wrong admin token";
        return 403;
    }
    return 0;
}

void add_http_routes(httplib::Server& http, const HttpContext& ctx) {
    const HttpContext c = ctx;
    http.Get("/status",
             [c](const httplib::Request&, httplib::Response& res) { send_json(res, status_json(*c.engine, *c.ops)); });
    http.Get("/metrics", [c](const httplib::Request&, httplib::Response& res) {
        res.set_content(c.service->metrics_text(), "text/plain; version=0.0.4");
    });
    http.Get("/trace", [c](const httplib::Request&, httplib::Response& res) {
        res.set_content(c.engine->chrome_trace_json(), "application/json");
    });
    http.Get("/healthz", [c](const httplib::Request&, httplib::Response& res) {
        res.status = c.service->accepting() ? 200 : 503;
        res.set_content(c.service->accepting() ? "ok\n" : "shutting down\n", "text/plain");
    });

    // The dashboard: one page (index.html) whose script shows each view (#overview,
    // #timeline, #jobs, #job/<id>, #params, #config) from the JSON below.
    for (size_t i = 0; i < kDashboardAssetCount; ++i) {
        const Asset a = kDashboardAssets[i];
        auto serve = [a](const httplib::Request&, httplib::Response& res) {
            res.set_header("Cache-Control", "no-cache");
            res.set_content(reinterpret_cast<const char*>(a.data), a.size, a.content_type);
        };
        http.Get(a.path, serve);
        if (std::string(a.path) == "/index.html") {
            http.Get("/", serve);
            http.Get("/dashboard", serve);
        }
    }
    http.Get("/api/overview", api([c](const httplib::Request&, httplib::Response& res) {
                 json j = overview_json(*c.engine, *c.ops);
                 j["admin"] = !c.config->admin_token.empty();
                 send_json(res, j);
             }));
    http.Get("/api/jobs",
             api([c](const httplib::Request& req, httplib::Response& res) { send_json(res, jobs_json(c, req)); }));
    http.Get(R"(/api/jobs/([^/]+))", api([c](const httplib::Request& req, httplib::Response& res) {
                 send_json(res, job_detail_json(c, req.matches[1].str()));
             }));
    http.Get("/api/timeline",
             api([c](const httplib::Request& req, httplib::Response& res) { send_json(res, timeline_json(c, req)); }));
    http.Get("/api/params",
             api([c](const httplib::Request&, httplib::Response& res) { send_json(res, params_json(c)); }));
    http.Get("/api/config", api([c](const httplib::Request&, httplib::Response& res) {
                 res.set_header("Cache-Control", "no-store");
                 res.set_content(config_json(*c.config), "application/json");
             }));
    // The state-changing routes: the admin token first, then the same code as the RPCs.
    auto admin = [c](const char* what, auto body) {
        return api([c, what, body](const httplib::Request& req, httplib::Response& res) {
            std::string why;
            if (const int refused = refuse_unauthorized(req, c.config->admin_token, &why)) {
                spdlog::warn("event=http_refused path={} status={} reason={}", kv(req.path), refused, kv(why));
                if (refused == 401) res.set_header("WWW-Authenticate", "Bearer realm=\"cuzk-daemon\"");
                send_error(res, refused, std::string(what) + " refused: " + why);
                return;
            }
            body(req, res);
        });
    };
    http.Post("/api/params/preload", admin("preload", [c](const httplib::Request& req, httplib::Response& res) {
                  const auto p = c.service->preload(circuit_id_of(req), "http");
                  send_json(res, {{"already_loaded", p.already_loaded}, {"load_ms", p.load_ms}});
              }));
    // {"name": "...", "path": "<file>.zkey", "r1cs": "<file>.r1cs" (optional), "check_subgroup":
    // true (optional)}: a snarkjs key read into the zkey kind, as a [zkey.<name>] table is at start.
    http.Post("/api/zkeys/load", admin("zkey load", [c](const httplib::Request& req, httplib::Response& res) {
                  const json body = json::parse(req.body, nullptr, false);
                  auto field = [&](const char* key, bool required) -> std::string {
                      if (body.is_object() && body.contains(key) && body[key].is_string())
                          return body[key].get<std::string>();
                      if (required || (body.is_object() && body.contains(key)))
                          throw EngineError(EngineError::Code::InvalidArgument,
                                            std::string("expected a JSON body {\"name\": \"...\", \"path\": "
                                                        "\"<file>.zkey\"[, \"r1cs\": \"<file>.r1cs\"][, "
                                                        "\"check_subgroup\": true]}: ") +
                                                key + (required ? " is required and" : "") + " must be a string");
                      return {};
                  };
                  kinds::ZkeySpec spec;
                  spec.name = field("name", true);
                  spec.path = field("path", true);
                  spec.r1cs = field("r1cs", false);
                  if (body.contains("check_subgroup")) {
                      if (!body["check_subgroup"].is_boolean())
                          throw EngineError(EngineError::Code::InvalidArgument, "check_subgroup must be true or false");
                      spec.check_subgroup = body["check_subgroup"].get<bool>();
                  }
                  c.service->load_zkey(spec, "http");
                  send_json(res, {{"loaded", spec.name}, {"circuit_id", "zkey-" + spec.name}});
              }));
    http.Post("/api/params/evict", admin("evict", [c](const httplib::Request& req, httplib::Response& res) {
                  const auto e = c.service->evict(circuit_id_of(req), "http");
                  send_json(res, {{"was_loaded", e.was_loaded}, {"freed_bytes", e.freed_bytes}});
              }));
}

}  // namespace cuzk::server
