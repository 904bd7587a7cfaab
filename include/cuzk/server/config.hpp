// cuzk-daemon's configuration: a TOML file (toml++) whose every key is optional.
// `cuzk.example.toml` at the repository root lists every key with its default; keep the
// two in step (tests/server/test_config.cpp parses the example and checks it equals the
// defaults).
//
//   [daemon]  where to listen, request-size limit, HTTP address, admin token, logging, shutdown
//   [engine]  engine::EngineConfig, key for key
//   [cost]    what the machine costs, for the cost of a proof
//   [zkey.<name>]  a snarkjs .zkey the daemon loads once at start, proven by name (SubmitZkey)
//
// An unknown key, a value of the wrong type or out of range is an error that names the
// key ("cuzk.toml: engine.witness_workers: expected an integer >= 1, got -3").
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/engine/engine.hpp"
#include "cuzk/kinds/zkey.hpp"

namespace cuzk::server {

class ConfigError : public std::runtime_error {
 public:
    using std::runtime_error::runtime_error;
};

struct DaemonConfig {
    // gRPC listen addresses: "host:port" (TCP; port 0 picks a free one) or "unix:/path"
    // (also "unix:///path", as Curio writes it). Several at once are fine.
    std::vector<std::string> listen = {"127.0.0.1:9820"};
    // HTTP address "host:port" (the dashboard, GET /status, /metrics, /trace, /healthz,
    // /api/...); "" = off.
    std::string http_listen;
    // The token the HTTP requests that change state (the dashboard's preload and evict) must
    // carry ("Authorization: Bearer <token>"); "" = none is accepted: HTTP is read-only.
    // Environment CUZK_ADMIN_TOKEN replaces it (cuzk-daemon).
    std::string admin_token;
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
    // [cost] dollars_per_hour: what the machine costs an hour; 0 = unknown (the cost of a
    // proof is then reported as 0).
    double dollars_per_hour = 0;
    // [zkey.<name>] path = "...", r1cs = "..." (optional), check_subgroup = true: the snarkjs
    // keys loaded at start (kinds::ZkeySpec), in name order.
    std::vector<kinds::ZkeySpec> zkeys;
    // Where each key that is not at its default came from, by "section.key": "file:line"
    // for the configuration file, "command line" or "environment NAME" for overrides.
    std::map<std::string, std::string> sources;
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
// Checks an admin token (16 to 256 printable ASCII characters, no spaces); throws
// ConfigError naming `key` (never showing the token).
std::string check_admin_token(const std::string& token, const std::string& key);
// Every check the daemon's start makes before binding (what --check-config runs, on the
// configuration after the command line's overrides): something to listen on, every
// address well formed. Throws ConfigError.
void check_config(const DaemonConfig& config);
// The effective configuration as JSON for the dashboard: {"keys": [{"key": "daemon.listen",
// "value": ..., "source": "default" | "cuzk.toml:3" | "command line" | ...}, ...]}. The admin
// token's value is never shown, only whether one is set.
std::string config_json(const DaemonConfig& config);
// Parses a size: an integer (bytes) or a string "<n>[KiB|MiB|GiB|TiB|KB|MB|GB|TB|B]".
// nullopt when malformed.
std::optional<uint64_t> parse_bytes(std::string_view text);

}  // namespace cuzk::server
