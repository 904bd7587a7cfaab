// cuzk-daemon: the engine behind the gRPC service cuzk.v1.ProvingEngine (on TCP and/or
// unix sockets) and an HTTP status endpoint. A thin layer: every request is one call
// into engine::Engine; what the engine refuses comes back as a gRPC status
// (InvalidArgument -> INVALID_ARGUMENT, NotImplemented -> UNIMPLEMENTED,
// ResourceExhausted -> RESOURCE_EXHAUSTED, ShuttingDown -> UNAVAILABLE,
// NotFound -> NOT_FOUND).
//
// HTTP (config.http_listen, src/server/http_api.hpp): the dashboard (GET /), /status
// (engine status JSON with the per-kind figures), /metrics (Prometheus text: the engine's
// metrics, the per-kind ones of OpsMetrics and the daemon's RPC counters), /trace (Chrome
// trace JSON, open in Perfetto), /healthz ("ok", or 503 while shutting down), the
// dashboard's JSON under /api/ (its two POSTs need config.admin_token).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cuzk/engine/engine.hpp"
#include "cuzk/server/config.hpp"

namespace cuzk::server {

class Daemon {
 public:
    // Starts the engine and every listener. Throws std::runtime_error naming the
    // address that cannot be bound (or the socket another daemon serves).
    explicit Daemon(const DaemonConfig& config);
    ~Daemon();  // shutdown() if not yet done
    Daemon(const Daemon&) = delete;
    Daemon& operator=(const Daemon&) = delete;

    // The addresses actually bound (a TCP port 0 replaced by the chosen port).
    const std::vector<std::string>& grpc_addresses() const;
    const std::string& http_address() const;  // "" when off

    // Stops accepting (new submissions get UNAVAILABLE), lets the engine finish or
    // cancel its jobs (config drain_on_shutdown), lets in-flight RPCs return (at most
    // shutdown_grace_ms), then stops the servers and removes the unix sockets.
    // Idempotent; blocks until done.
    void shutdown();

    engine::Engine& engine();

    struct Impl;

 private:
    std::unique_ptr<Impl> impl_;
};

// spdlog's default logger as cuzk-daemon writes it: one line per event on stderr,
// "<time> <level> event=<name> key=value ...". Throws ConfigError for a bad level.
void setup_logging(const std::string& level);

}  // namespace cuzk::server
