// `cuzk client submit|await|prove|cancel|status|metrics|preload|evict|soak`: talks to
// cuzk-daemon over gRPC. Without the daemon in the build (CUZK_SERVER), `cuzk client`
// says so and fails.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace cuzk::cli {
void add_client_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands);
}  // namespace cuzk::cli
