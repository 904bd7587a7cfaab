// The daemon's HTTP routes: the status and metrics endpoints, the dashboard's pages
// (embedded, assets.hpp) and the JSON API they poll. Read-only but for the parameter
// buttons (POST /api/params/preload, /api/params/evict) and POST /api/zkeys/load (a snarkjs
// key read while the daemon runs), which need the admin token.
#pragma once

#include <httplib.h>

#include <string>

#include "cuzk/engine/engine.hpp"
#include "cuzk/server/config.hpp"
#include "cuzk/server/ops.hpp"
#include "service.hpp"

namespace cuzk::server {

struct HttpContext {
    engine::Engine* engine;
    ProvingService* service;
    const OpsMetrics* ops;
    const DaemonConfig* config;
};

void add_http_routes(httplib::Server& http, const HttpContext& ctx);

// Whether a request may change state: 0 when it carries "Authorization: Bearer <token>"
// with the configured token; else the HTTP status to refuse it with (401 without the
// header, 403 with a wrong token or when no token is configured) and `why` in words.
int refuse_unauthorized(const httplib::Request& req, const std::string& admin_token, std::string* why);

}  // namespace cuzk::server
