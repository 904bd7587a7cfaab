// cuzk-daemon: serves cuzk.v1.ProvingEngine (daemon.hpp) until SIGTERM or SIGINT.
//
//   cuzk-daemon --config cuzk.toml [--listen ADDR]... [--http ADDR] [--log-level L]
//
// The first SIGTERM/SIGINT shuts down in order (stop accepting, finish or cancel the jobs
// as configured, stop the servers) and exits 0; a second one while that runs exits at
// once with status 1.
#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cuzk/server/daemon.hpp"
#include "log.hpp"

namespace {

// Written once every listener is up, so that a supervisor (or a test) knows the ports
// chosen for port 0: {"pid": ..., "grpc": ["127.0.0.1:43121", "unix:/p"], "http": "..."}.
void write_ready_file(const std::string& file, const cuzk::server::Daemon& d) {
    nlohmann::json j = {{"pid", getpid()}, {"grpc", d.grpc_addresses()}, {"http", d.http_address()}};
    const std::string tmp = file + ".tmp";
    {
        std::ofstream out(tmp);
        out << j.dump() << "\n";
        if (!out) throw std::runtime_error(tmp + ": cannot write");
    }
    if (std::rename(tmp.c_str(), file.c_str()) != 0) throw std::runtime_error(file + ": cannot write");
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"cuzk-daemon: the cuzk proving engine as a gRPC service (cuzk.v1.ProvingEngine)"};
    std::string config_file, http, log_level, ready_file;
    std::vector<std::string> listen;
    bool check_only = false;
    app.add_option("--config", config_file, "TOML configuration (every key optional; see cuzk.example.toml)")
        ->check(CLI::ExistingFile);
    app.add_option("--listen", listen, "gRPC address, repeatable: host:port or unix:/path (replaces [daemon].listen)");
    app.add_option("--http", http, "HTTP status address host:port (replaces [daemon].http_listen; \"\" = off)");
    app.add_option("--log-level", log_level, "trace, debug, info, warn, error or off (replaces [daemon].log_level)");
    app.add_option("--ready-file", ready_file, "Write the bound addresses (JSON) here once serving");
    app.add_flag("--check-config", check_only, "Check the configuration and exit");
    CLI11_PARSE(app, argc, argv);

    cuzk::server::DaemonConfig config;
    try {
        if (!config_file.empty()) config = cuzk::server::load_config(config_file);
        if (!listen.empty()) {
            config.listen.clear();
            for (const auto& a : listen) config.listen.push_back(cuzk::server::check_listen_address(a, "--listen"));
            config.sources["daemon.listen"] = "command line";
        }
        if (app.count("--http")) {
            if (!http.empty()) cuzk::server::check_http_address(http, "--http");
            config.http_listen = http;
            config.sources["daemon.http_listen"] = "command line";
        }
        if (!log_level.empty()) {
            config.log_level = log_level;
            config.sources["daemon.log_level"] = "command line";
        }
        // The admin token from the environment (a systemd EnvironmentFile readable by root
        // only), so that it need not sit in the configuration file.
        if (const char* token = std::getenv("CUZK_ADMIN_TOKEN"); token && *token) {
            config.admin_token = cuzk::server::check_admin_token(token, "environment CUZK_ADMIN_TOKEN");
            config.sources["daemon.admin_token"] = "environment CUZK_ADMIN_TOKEN";
        }
        cuzk::server::check_config(config);
        cuzk::server::setup_logging(config.log_level);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cuzk-daemon: %s\n", e.what());
        return 2;
    }
    if (check_only) {
        std::printf("cuzk-daemon: configuration ok\n");
        return 0;
    }

    // Signals are taken by sigwait below, never by a handler: block them before any
    // thread starts so that every thread inherits the mask.
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGINT);
    pthread_sigmask(SIG_BLOCK, &sigs, nullptr);
    signal(SIGPIPE, SIG_IGN);

    std::unique_ptr<cuzk::server::Daemon> daemon;
    try {
        daemon = std::make_unique<cuzk::server::Daemon>(config);
        if (!ready_file.empty()) write_ready_file(ready_file, *daemon);
    } catch (const std::exception& e) {
        spdlog::error("event=startup_failed error={}", cuzk::server::kv(e.what()));
        return 1;
    }

    int sig = 0;
    sigwait(&sigs, &sig);
    spdlog::info("event=signal signal={}", sig == SIGTERM ? "SIGTERM" : "SIGINT");
    std::atomic<bool> done{false};
    std::thread stopper([&] {
        daemon->shutdown();
        done = true;
    });
    const timespec tick{0, 50 * 1000 * 1000};
    while (!done) {
        if (sigtimedwait(&sigs, nullptr, &tick) > 0) {
            spdlog::warn("event=signal phase=second action=exit_now");
            std::_Exit(1);
        }
    }
    stopper.join();
    daemon.reset();
    return 0;
}
