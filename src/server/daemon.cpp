#include "cuzk/server/daemon.hpp"

#include <errno.h>
#include <grpcpp/grpcpp.h>
#include <httplib.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <thread>

#include "cuzk/common/echo.hpp"
#include "http_api.hpp"
#include "log.hpp"
#include "service.hpp"

namespace cuzk::server {
namespace {

using Clock = std::chrono::steady_clock;

// The HTTP routes are GETs: no body is needed, 64 KiB is room for any a client adds.
constexpr size_t kHttpMaxBody = size_t(64) << 10;
constexpr size_t kHttpThreads = 32;

std::string unix_path(const std::string& address) { return address.substr(5); }  // after "unix:"

// A socket file left by a daemon that died (kill -9) makes bind() fail. Remove it when
// nobody answers on it; refuse to start when another daemon does.
void prepare_unix_socket(const std::string& path) {
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent);
    struct stat st;
    if (lstat(path.c_str(), &st) != 0) return;
    if (!S_ISSOCK(st.st_mode)) throw std::runtime_error(path + ": exists and is not a unix socket");
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw std::runtime_error(std::string("socket(AF_UNIX): ") + std::strerror(errno));
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
    const int rc = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
    const int err = errno;
    close(fd);
    if (rc == 0) throw std::runtime_error(path + ": another process is serving on this unix socket");
    if (err != ECONNREFUSED)
        throw std::runtime_error(path + ": cannot check the existing socket: " + std::strerror(err));
    if (unlink(path.c_str()) != 0)
        throw std::runtime_error(path + ": cannot remove stale socket: " + std::strerror(errno));
    spdlog::warn("event=stale_socket_removed path={}", kv(path));
}

// httplib's default socket options set SO_REUSEPORT, with which a second daemon binds the
// same port and the kernel splits the clients between the two; SO_REUSEADDR alone lets a
// restart bind over connections in TIME_WAIT and still refuses a port someone listens on.
void http_socket_options(int fd) {
    const int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
}

}  // namespace

struct Daemon::Impl {
    DaemonConfig config;
    std::unique_ptr<OpsMetrics> ops;
    std::shared_ptr<kinds::ZkeyStore> zkeys;
    std::unique_ptr<engine::Engine> engine;
    std::unique_ptr<ProvingService> service;
    std::unique_ptr<grpc::Server> server;
    std::vector<std::string> grpc_addresses, unix_paths;
    std::unique_ptr<httplib::Server> http;
    std::thread http_thread;
    std::string http_address;
    std::mutex shutdown_mu;
    bool shut_down = false;
    // Samples the devices' busy time once a second for OpsMetrics' busy ratios.
    std::thread sampler;
    std::mutex sampler_mu;
    std::condition_variable sampler_cv;
    bool sampler_stop = false;

    void start_grpc();
    void start_http();
    void stop_sampler();
};

void Daemon::Impl::start_grpc() {
    if (config.listen.empty()) return;
    grpc::ServerBuilder builder;
    builder.SetMaxReceiveMessageSize(int(config.max_request_bytes));
    grpc::ResourceQuota quota("cuzk-daemon");
    quota.SetMaxThreads(int(config.max_rpc_threads));
    builder.SetResourceQuota(quota);
    // An AwaitProof of a PoRep waits minutes: let clients keep the connection alive with
    // pings (gRPC otherwise answers frequent pings with GOAWAY "too_many_pings").
    builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
    builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, 10000);
    // gRPC sets SO_REUSEPORT by default: a second daemon would bind the same port and
    // take half of the connections. Without it the second bind fails and is reported.
    builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    std::vector<int> ports(config.listen.size(), -1);
    for (size_t i = 0; i < config.listen.size(); ++i) {
        const std::string& a = config.listen[i];
        if (a.rfind("unix:", 0) == 0) {
            prepare_unix_socket(unix_path(a));
            builder.AddListeningPort(a, grpc::InsecureServerCredentials());
        } else {
            builder.AddListeningPort(a, grpc::InsecureServerCredentials(), &ports[i]);
        }
    }
    builder.RegisterService(service.get());
    std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
    interceptors.push_back(service->stats().interceptor());
    builder.experimental().SetInterceptorCreators(std::move(interceptors));
    server = builder.BuildAndStart();
    for (size_t i = 0; i < config.listen.size(); ++i) {
        const std::string& a = config.listen[i];
        if (a.rfind("unix:", 0) == 0) {
            if (server) unix_paths.push_back(unix_path(a));
            grpc_addresses.push_back(a);
        } else {
            // gRPC binds in order and gives up at the first failure, whose port stays 0.
            if (ports[i] <= 0)
                throw std::runtime_error("cannot listen on " + a + " (port " + a.substr(a.rfind(':') + 1) +
                                         " in use by another process, or the address is not local)");
            const size_t colon = a.rfind(':');
            grpc_addresses.push_back(a.substr(0, colon + 1) + std::to_string(ports[i]));
        }
    }
    if (!server) {
        std::string all;
        for (const auto& a : config.listen) all += (all.empty() ? "" : ", ") + a;
        throw std::runtime_error("cannot start the gRPC server on " + all);
    }
    for (const auto& a : grpc_addresses) spdlog::info("event=listening protocol=grpc address={}", kv(a));
}

void Daemon::Impl::start_http() {
    if (config.http_listen.empty()) return;
    http = std::make_unique<httplib::Server>();
    http->set_socket_options(http_socket_options);
    // Every route is a GET: a request body is refused with 413 from its Content-Length
    // (or once a chunked one passes the limit), never buffered whole.
    http->set_payload_max_length(kHttpMaxBody);
    // An idle keep-alive connection holds one of the pool's threads until it times out:
    // enough threads, and a short timeout, that idle clients cannot starve /healthz
    // (httplib's defaults, 8 threads on this 2-core machine and 5 s, left it waiting 4 s
    // behind ten idle connections).
    http->new_task_queue = [] { return new httplib::ThreadPool(kHttpThreads); };
    http->set_keep_alive_timeout(1);
    http->set_read_timeout(5);
    // Before the routes (and before httplib reads a body): a Content-Length that is no
    // decimal number is a malformed request (400); one past the limit is refused at once
    // (413) and the connection closed rather than the body read and dropped.
    http->set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
        const auto it = req.headers.find("Content-Length");
        if (it == req.headers.end()) return httplib::Server::HandlerResponse::Unhandled;
        const std::string& v = it->second;
        uint64_t n = 0;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
        if (v.empty() || ec != std::errc() || end != v.data() + v.size()) {
            res.status = 400;
            res.set_content("malformed Content-Length\n", "text/plain");
        } else if (n > kHttpMaxBody) {
            res.status = 413;
            res.set_content("request body over " + std::to_string(kHttpMaxBody) + " bytes\n", "text/plain");
        } else {
            return httplib::Server::HandlerResponse::Unhandled;
        }
        res.set_header("Connection", "close");
        return httplib::Server::HandlerResponse::Handled;
    });
    add_http_routes(*http, {engine.get(), service.get(), ops.get(), &config});
    http->set_exception_handler([](const httplib::Request& req, httplib::Response& res, std::exception_ptr ep) {
        std::string what = "unknown error";
        try {
            std::rethrow_exception(ep);
        } catch (const std::exception& e) {
            what = e.what();
        } catch (...) {
        }
        spdlog::warn("event=http_error path={} error={}", kv(echo(req.path)), kv(what));
        res.status = 500;
        res.set_content(what + "\n", "text/plain");
    });
    const HostPort hp = parse_host_port(config.http_listen, "http_listen");
    int port = hp.port;
    if (port == 0) {
        port = http->bind_to_any_port(hp.host);
        if (port < 0) throw std::runtime_error("cannot listen on http_listen " + config.http_listen);
    } else if (!http->bind_to_port(hp.host, port)) {
        throw std::runtime_error("cannot listen on http_listen " + config.http_listen + " (port " +
                                 std::to_string(port) + " in use by another process, or the address is not local)");
    }
    http_address = config.http_listen.substr(0, config.http_listen.rfind(':') + 1) + std::to_string(port);
    http_thread = std::thread([srv = http.get()] { srv->listen_after_bind(); });
    spdlog::info("event=listening protocol=http address={}", kv(http_address));
}

Daemon::Daemon(const DaemonConfig& config) : impl_(std::make_unique<Impl>()) {
    check_config(config);
    Impl& d = *impl_;
    d.config = config;
    engine::EngineConfig ec = config.engine;
    if (!ec.log) {
        // The engine's structured lines (job_submit, job_end, spans, ...) join ours.
        ec.log = [](int level, const std::string& line) {
            static const spdlog::level::level_enum levels[] = {spdlog::level::debug, spdlog::level::info,
                                                               spdlog::level::warn, spdlog::level::err};
            spdlog::log(levels[std::clamp(level, 0, 3)], "{}", line);
        };
    }
    d.ops = std::make_unique<OpsMetrics>(config.dollars_per_hour);
    ec.on_job_event = [ops = d.ops.get(), next = ec.on_job_event](const engine::JobEvent& e) {
        ops->on_job_event(e);
        if (next) next(e);
    };
    // The zkey kind beside the standard ones, over the snarkjs keys loaded below.
    d.zkeys = std::make_shared<kinds::ZkeyStore>();
    if (!ec.kinds) {
        auto kinds = kinds::Registry::standard();
        kinds->add(kinds::make_zkey_kind(d.zkeys));
        ec.kinds = std::move(kinds);
    }
    d.engine = std::make_unique<engine::Engine>(ec);
    d.service = std::make_unique<ProvingService>(*d.engine, d.ops.get(), d.zkeys.get());
    for (const auto& z : config.zkeys) {
        try {
            d.service->load_zkey(z, "config");
        } catch (const std::exception& e) {
            throw std::runtime_error("zkey." + z.name + ": " + e.what());
        }
    }
    d.sampler = std::thread([&d] {
        std::unique_lock lock(d.sampler_mu);
        do {
            lock.unlock();
            d.ops->sample(d.engine->status());
            lock.lock();
        } while (!d.sampler_cv.wait_for(lock, std::chrono::seconds(1), [&] { return d.sampler_stop; }));
    });
    try {
        d.start_grpc();
        d.start_http();
    } catch (...) {
        shutdown();
        throw;
    }
    spdlog::info("event=daemon_ready drain_on_shutdown={} max_request_bytes={}", config.engine.drain_on_shutdown,
                 config.max_request_bytes);
}

Daemon::~Daemon() { shutdown(); }

void Daemon::Impl::stop_sampler() {
    {
        std::lock_guard lock(sampler_mu);
        sampler_stop = true;
    }
    sampler_cv.notify_all();
    if (sampler.joinable()) sampler.join();
}

const std::vector<std::string>& Daemon::grpc_addresses() const { return impl_->grpc_addresses; }
const std::string& Daemon::http_address() const { return impl_->http_address; }
engine::Engine& Daemon::engine() { return *impl_->engine; }

void Daemon::shutdown() {
    Impl& d = *impl_;
    std::lock_guard lock(d.shutdown_mu);
    if (d.shut_down) return;
    d.shut_down = true;
    const bool drain = d.config.engine.drain_on_shutdown;
    spdlog::info("event=shutdown phase=stop_accepting drain={}", drain);
    d.service->stop_accepting();
    // Jobs end (finished or cancelled), so every waiting AwaitProof returns.
    d.engine->shutdown(drain);
    d.stop_sampler();
    const auto s = d.engine->status();
    uint64_t params_bytes = 0;
    for (const auto& p : s.params) params_bytes += p.size_bytes;
    // Nothing is left reserved for work: memory_reserved = params_bytes + pooled_bytes.
    spdlog::info(
        "event=shutdown phase=engine_stopped completed={} failed={} cancelled={} memory_reserved={} params_bytes={} "
        "pooled_bytes={}",
        s.proofs_completed, s.proofs_failed, s.proofs_cancelled, s.memory_reserved, params_bytes, s.pooled_bytes);
    if (d.server) {
        // Every job has ended, so every await is returning: let the handlers finish (at
        // most shutdown_grace_ms). Then shut down with a short deadline for the last
        // responses to go out: gRPC waits out the whole deadline while any client keeps
        // a connection open (Curio does), even an idle one (measured: 5 s with 5 s).
        const auto grace = Clock::now() + std::chrono::milliseconds(d.config.shutdown_grace_ms);
        while (d.service->in_flight() > 0 && Clock::now() < grace)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        d.server->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(100));
        d.server->Wait();
        spdlog::info("event=shutdown phase=grpc_stopped");
    }
    if (d.http) {
        d.http->stop();
        if (d.http_thread.joinable()) d.http_thread.join();
    }
    for (const auto& p : d.unix_paths) unlink(p.c_str());
    spdlog::info("event=shutdown phase=done");
}

void setup_logging(const std::string& level) {
    const auto lv = spdlog::level::from_str(level);
    if (lv == spdlog::level::off && level != "off")
        throw ConfigError("log level \"" + level + "\": expected trace, debug, info, warn, error or off");
    auto logger = std::make_shared<spdlog::logger>("cuzk-daemon", std::make_shared<spdlog::sinks::stderr_sink_mt>());
    logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e%z %l %v");
    logger->set_level(lv);
    logger->flush_on(spdlog::level::trace);  // line by line: logs are read live
    spdlog::set_default_logger(logger);
}

}  // namespace cuzk::server
