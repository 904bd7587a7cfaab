// cuzk-daemon's configuration: a TOML file (toml++) whose every key is optional.
// `cuzk.example.toml` at the repository root lists every key with its default; keep the
// two in step (tests/server/test_config.cpp parses the example and checks it equals the
// defaults).
//
//   [daemon]  where to listen, request-size limit, HTTP status address, logging, shutdown
//   [engine]  engine::EngineConfig, key for key
//
// An unknown key, a value of the wrong type or out of range is an error that names the
// key ("cuzk.toml: engine.witness_workers: expected an integer >= 1, got -3").
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/engine/engine.hpp"

namespace cuzk::server {

class ConfigError : public std::runtime_error {
 public:
    using std::runtime_error::runtime_error;
};

struct DaemonConfig {
    // gRPC listen addresses: "host:port" (TCP; port 0 picks a free one) or "unix:/path"
    // (also "unix:///path", as Curio writes it). Several at once are fine.
    std::vector<std::string> listen = {"127.0.0.1:9820"};
    // HTTP status address "host:port" (GET /status, /metrics, /trace, /healthz); "" = off.
    std::string http_listen;
    // Largest gRPC request accepted (bytes); larger ones get RESOURCE_EXHAUSTED. Curio's
    // PoRep C1 output is about 50 MB.
    uint64_t max_request_bytes = uint64_t(64) << 20;
    // Most RPCs served at once (each waiting AwaitProof holds one).
    unsigned max_rpc_threads = 256;
    // "trace" | "debug" | "info" | "warn" | "error" | "off".
    std::string log_level = "info";
    // After the engine has finished or cancelled its jobs on shutdown, how long in-flight
    // RPCs get to return before the gRPC server cancels them.
    uint64_t shutdown_grace_ms = 5000;
    // The engine; [daemon].drain_on_shutdown is engine.drain_on_shutdown.
    engine::EngineConfig engine;
};

// Parses TOML text; `source` names it in errors (a file name). Throws ConfigError.
DaemonConfig parse_config(std::string_view toml, const std::string& source = "<config>");
DaemonConfig load_config(const std::filesystem::path& file);

// Checks one listen address and returns its canonical form ("unix:///p" -> "unix:/p");
// throws ConfigError naming `key` for a malformed one.
std::string check_listen_address(const std::string& address, const std::string& key);
// A TCP address "host:port" split (brackets of "[::1]" removed); throws ConfigError
// naming `key` for a malformed address or a port outside 0..65535.
struct HostPort {
    std::string host;
    uint16_t port = 0;
};
HostPort parse_host_port(const std::string& address, const std::string& key);
// Checks the HTTP status address: "host:port" only; throws ConfigError naming `key`.
std::string check_http_address(const std::string& address, const std::string& key);
// Every check the daemon's start makes before binding (what --check-config runs, on the
// configuration after the command line's overrides): something to listen on, every
// address well formed. Throws ConfigError.
void check_config(const DaemonConfig& config);
// Parses a size: an integer (bytes) or a string "<n>[KiB|MiB|GiB|TiB|KB|MB|GB|TB|B]".
// nullopt when malformed.
std::optional<uint64_t> parse_bytes(std::string_view text);

}  // namespace cuzk::server
