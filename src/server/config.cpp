#include "cuzk/server/config.hpp"

#include <sys/un.h>

#include <toml++/toml.h>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cuzk/common/echo.hpp"

namespace cuzk::server {
namespace {

std::string where(const std::string& source, const toml::node* n) {
    if (n && n->source().begin.line) return source + ":" + std::to_string(n->source().begin.line);
    return source;
}

std::string type_name(const toml::node& n) {
    switch (n.type()) {
        case toml::node_type::string:
            return "a string";
        case toml::node_type::integer:
            return "an integer";
        case toml::node_type::floating_point:
            return "a float";
        case toml::node_type::boolean:
            return "a boolean";
        case toml::node_type::array:
            return "an array";
        case toml::node_type::table:
            return "a table";
        default:
            return "a date or time";
    }
}

std::string shown(const toml::node& n) {
    std::ostringstream os;
    if (auto s = n.as_string()) {
        os << '"' << s->get() << '"';
    } else if (n.is_integer() || n.is_floating_point() || n.is_boolean()) {
        n.visit([&](auto&& v) { os << v; });
    } else {
        os << type_name(n);
    }
    return os.str();
}

// One [section]: reads keys by name, remembers which were read, and fails on the rest.
class Section {
 public:
    Section(const toml::table* t, std::string name, const std::string& source,
            std::map<std::string, std::string>* sources)
        : t_(t), name_(std::move(name)), source_(source), sources_(sources) {}

    [[noreturn]] void fail(const toml::node* n, const std::string& key, const std::string& what) const {
        throw ConfigError(where(source_, n) + ": " + name_ + "." + key + ": " + what);
    }

    const toml::node* get(const std::string& key) {
        known_.insert(key);
        const toml::node* n = t_ ? t_->get(key) : nullptr;
        if (n && sources_) (*sources_)[name_ + "." + key] = where(source_, n);
        return n;
    }

    void integer(const std::string& key, uint64_t& out, uint64_t min = 0,
                 uint64_t max = uint64_t(std::numeric_limits<int64_t>::max())) {
        const toml::node* n = get(key);
        if (!n) return;
        auto v = n->value_exact<int64_t>();
        if (!v || *v < 0 || uint64_t(*v) < min || uint64_t(*v) > max)
            fail(n, key,
                 "expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "], got " + shown(*n));
        out = uint64_t(*v);
    }
    void integer(const std::string& key, unsigned& out, unsigned min = 0, unsigned max = 1u << 20) {
        uint64_t v = out;
        integer(key, v, min, max);
        out = unsigned(v);
    }
    void size_t_integer(const std::string& key, size_t& out, uint64_t min = 0) {
        uint64_t v = out;
        integer(key, v, min);
        out = size_t(v);
    }
    // An integer or a float in [min, max].
    void number(const std::string& key, double& out, double min, double max) {
        const toml::node* n = get(key);
        if (!n) return;
        std::optional<double> v;
        if (auto i = n->value_exact<int64_t>()) v = double(*i);
        if (auto f = n->value_exact<double>()) v = *f;
        if (!v || !std::isfinite(*v) || *v < min || *v > max) {
            std::ostringstream range;
            range << "expected a number in [" << min << ", " << max << "], got ";
            fail(n, key, range.str() + shown(*n));
        }
        out = *v;
    }
    void boolean(const std::string& key, bool& out) {
        const toml::node* n = get(key);
        if (!n) return;
        auto v = n->value_exact<bool>();
        if (!v) fail(n, key, "expected true or false, got " + shown(*n));
        out = *v;
    }
    void string(const std::string& key, std::string& out, const std::vector<std::string>& allowed = {}) {
        const toml::node* n = get(key);
        if (!n) return;
        auto v = n->value_exact<std::string>();
        if (!v) fail(n, key, "expected a string, got " + shown(*n));
        if (!allowed.empty()) {
            bool ok = false;
            std::string list;
            for (const auto& a : allowed) {
                ok |= a == *v;
                list += (list.empty() ? "" : ", ") + ('"' + a + '"');
            }
            if (!ok) fail(n, key, "expected one of " + list + ", got \"" + *v + "\"");
        }
        out = *v;
    }
    // An integer number of bytes or a string with a unit ("64GiB").
    void bytes(const std::string& key, uint64_t& out) {
        const toml::node* n = get(key);
        if (!n) return;
        std::optional<uint64_t> v;
        if (auto i = n->value_exact<int64_t>(); i && *i >= 0) v = uint64_t(*i);
        if (auto s = n->value_exact<std::string>()) v = parse_bytes(*s);
        if (!v) fail(n, key, "expected a size in bytes (an integer, or a string such as \"64GiB\"), got " + shown(*n));
        out = *v;
    }
    // A string or an array of strings.
    std::optional<std::vector<std::string>> strings(const std::string& key) {
        const toml::node* n = get(key);
        if (!n) return std::nullopt;
        std::vector<std::string> out;
        if (auto s = n->value_exact<std::string>()) {
            out.push_back(*s);
            return out;
        }
        const toml::array* a = n->as_array();
        if (!a) fail(n, key, "expected a string or an array of strings, got " + shown(*n));
        for (const auto& e : *a) {
            auto s = e.value_exact<std::string>();
            if (!s) fail(&e, key, "expected an array of strings, found " + shown(e));
            out.push_back(*s);
        }
        return out;
    }
    std::optional<std::vector<int>> integers(const std::string& key, int min, int max) {
        const toml::node* n = get(key);
        if (!n) return std::nullopt;
        const toml::array* a = n->as_array();
        if (!a) fail(n, key, "expected an array of integers, got " + shown(*n));
        std::vector<int> out;
        for (const auto& e : *a) {
            auto v = e.value_exact<int64_t>();
            if (!v || *v < min || *v > max)
                fail(&e, key,
                     "expected integers in [" + std::to_string(min) + ", " + std::to_string(max) + "], found " +
                         shown(e));
            out.push_back(int(*v));
        }
        return out;
    }

    // Every key not read is unknown: name it and the known ones.
    void finish() const {
        if (!t_) return;
        for (auto&& [k, v] : *t_) {
            const std::string key(k.str());
            if (known_.count(key)) continue;
            std::string list;
            for (const auto& kk : known_) list += (list.empty() ? "" : ", ") + kk;
            fail(&v, key, "unknown key (the keys of [" + name_ + "] are: " + list + ")");
        }
    }

 private:
    const toml::table* t_;
    std::string name_;
    const std::string& source_;
    std::map<std::string, std::string>* sources_;
    std::set<std::string> known_;
};

}  // namespace

std::optional<uint64_t> parse_bytes(std::string_view text) {
    uint64_t n = 0;
    const char* end = text.data() + text.size();
    auto [p, ec] = std::from_chars(text.data(), end, n);
    if (ec != std::errc() || p == text.data()) return std::nullopt;
    std::string_view unit(p, size_t(end - p));
    while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
    static const std::pair<std::string_view, uint64_t> units[] = {{"", 1},
                                                                  {"B", 1},
                                                                  {"KiB", 1ull << 10},
                                                                  {"MiB", 1ull << 20},
                                                                  {"GiB", 1ull << 30},
                                                                  {"TiB", 1ull << 40},
                                                                  {"KB", 1000ull},
                                                                  {"MB", 1000000ull},
                                                                  {"GB", 1000000000ull},
                                                                  {"TB", 1000000000000ull}};
    for (const auto& [name, mult] : units) {
        if (unit != name) continue;
        if (n > std::numeric_limits<uint64_t>::max() / mult) return std::nullopt;
        return n * mult;
    }
    return std::nullopt;
}

std::string check_listen_address(const std::string& address, const std::string& key) {
    if (address.rfind("unix:", 0) == 0) {
        std::string path = address.substr(5);
        if (path.rfind("//", 0) == 0) path = path.substr(2);  // unix:///abs (Curio's form)
        if (path.empty()) throw ConfigError(key + ": \"" + address + "\": empty unix socket path");
        if (path.size() >= sizeof(sockaddr_un::sun_path))
            throw ConfigError(key + ": \"" + address + "\": unix socket path longer than " +
                              std::to_string(sizeof(sockaddr_un::sun_path) - 1) + " bytes");
        return "unix:" + path;
    }
    parse_host_port(address, key);
    return address;
}

HostPort parse_host_port(const std::string& address, const std::string& key) {
    const size_t colon = address.rfind(':');
    unsigned port = 0;
    const char* pb = address.data() + (colon == std::string::npos ? address.size() : colon + 1);
    const char* pe = address.data() + address.size();
    const auto [pend, ec] = std::from_chars(pb, pe, port);
    if (colon == std::string::npos || colon == 0 || pb == pe || ec != std::errc() || pend != pe || port > 65535)
        throw ConfigError(key + ": \"" + address +
                          "\": expected \"host:port\" (port 0..65535; 0 picks a free one) or \"unix:/path\"");
    std::string host = address.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    return {host, uint16_t(port)};
}

std::string check_http_address(const std::string& address, const std::string& key) {
    if (address.rfind("unix:", 0) == 0)
        throw ConfigError(key + ": \"" + address +
                          "\": the HTTP status listener takes \"host:port\" (no unix sockets)");
    parse_host_port(address, key);
    return address;
}

std::string check_admin_token(const std::string& token, const std::string& key) {
    if (token.size() < 16 || token.size() > 256 || !printable(token) || token.find(' ') != std::string::npos)
        throw ConfigError(key + ": expected 16 to 256 printable ASCII characters without spaces, got " +
                          std::to_string(token.size()) + " bytes" + (printable(token) ? "" : " (not printable)"));
    return token;
}

void check_config(const DaemonConfig& c) {
    if (c.listen.empty() && c.http_listen.empty())
        throw ConfigError("nothing to listen on: daemon.listen and daemon.http_listen are both empty");
    for (const auto& a : c.listen) check_listen_address(a, "daemon.listen");
    if (!c.http_listen.empty()) check_http_address(c.http_listen, "daemon.http_listen");
}

DaemonConfig parse_config(std::string_view text, const std::string& source) {
    toml::table root;
    try {
        root = toml::parse(text, source);
    } catch (const toml::parse_error& e) {
        throw ConfigError(source + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
    }
    DaemonConfig c;
    for (auto&& [k, v] : root) {
        if (k.str() != "daemon" && k.str() != "engine" && k.str() != "cost" && k.str() != "zkey")
            throw ConfigError(where(source, &v) + ": " + std::string(k.str()) +
                              ": unknown key (the sections are [daemon], [engine], [cost] and [zkey.<name>])");
        if (!v.is_table())
            throw ConfigError(where(source, &v) + ": " + std::string(k.str()) + ": expected a table ([" +
                              std::string(k.str()) + "])");
    }

    Section d(root["daemon"].as_table(), "daemon", source, &c.sources);
    if (auto l = d.strings("listen")) {
        c.listen.clear();
        for (const auto& a : *l) {
            if (a.empty()) continue;  // "" = no gRPC listener from this entry
            try {
                c.listen.push_back(check_listen_address(a, "daemon.listen"));
            } catch (const ConfigError& e) {
                throw ConfigError(where(source, d.get("listen")) + ": " + e.what());
            }
        }
    }
    d.string("http_listen", c.http_listen);
    if (!c.http_listen.empty()) {
        try {
            check_http_address(c.http_listen, "daemon.http_listen");
        } catch (const ConfigError& e) {
            throw ConfigError(where(source, d.get("http_listen")) + ": " + e.what());
        }
    }
    d.bytes("max_request_bytes", c.max_request_bytes);
    if (c.max_request_bytes < 1024 || c.max_request_bytes > (uint64_t(2) << 30) - 1)
        d.fail(d.get("max_request_bytes"), "max_request_bytes", "expected 1KiB .. 2GiB - 1 (gRPC's limit)");
    d.integer("max_rpc_threads", c.max_rpc_threads, 4, 65536);
    d.string("log_level", c.log_level, {"trace", "debug", "info", "warn", "error", "off"});
    d.boolean("drain_on_shutdown", c.engine.drain_on_shutdown);
    d.integer("shutdown_grace_ms", c.shutdown_grace_ms, 0, uint64_t(24) * 3600 * 1000);
    d.string("admin_token", c.admin_token);
    if (!c.admin_token.empty()) {
        try {
            check_admin_token(c.admin_token, "daemon.admin_token");
        } catch (const ConfigError& e) {
            throw ConfigError(where(source, d.get("admin_token")) + ": " + e.what());
        }
    }
    d.finish();

    engine::EngineConfig& e = c.engine;
    Section s(root["engine"].as_table(), "engine", source, &c.sources);
    s.bytes("memory_budget", e.memory_budget);
    s.bytes("safety_margin", e.safety_margin);
    s.integer("witness_workers", e.witness_workers, 1, 4096);
    s.integer("prove_workers_per_device", e.prove_workers_per_device, 1, 64);
    s.integer("cpu_prove_workers", e.cpu_prove_workers, 1, 4096);
    s.integer("witness_queue_bound", e.witness_queue_bound, 1, 1u << 20);
    s.integer("finalize_queue_bound", e.finalize_queue_bound, 1, 1u << 20);
    s.string("backend", e.backend, {"auto", "cpu", "cuda"});
    if (auto dev = s.integers("devices", 0, 1023)) e.devices = *dev;
    uint64_t upload_cost = uint64_t(e.placement_upload_cost);
    s.integer("placement_upload_cost", upload_cost, 0, 1000);
    e.placement_upload_cost = double(upload_cost);
    s.boolean("verify_proofs", e.verify_proofs);
    std::string cache = e.param_cache.string();
    s.string("param_cache", cache);
    e.param_cache = cache;
    s.integer("setup_seed", e.setup_seed);
    std::string fil_dir = e.filecoin_param_dir.string();
    s.string("filecoin_param_dir", fil_dir);
    e.filecoin_param_dir = fil_dir;
    s.boolean("allow_dev_params", e.allow_dev_params);
    s.boolean("check_c1", e.check_c1);
    uint64_t idle_ms = uint64_t(e.eviction_min_idle.count());
    s.integer("eviction_min_idle_ms", idle_ms);
    e.eviction_min_idle = std::chrono::milliseconds(idle_ms);
    s.size_t_integer("finished_jobs_kept", e.finished_jobs_kept, 1);
    s.integer("max_partitions", e.max_partitions, 1, 1u << 20);
    s.integer("max_constraints", e.max_constraints, 1);
    s.size_t_integer("trace_capacity", e.trace_capacity);
    s.boolean("log_spans", e.log_spans);
    s.finish();

    Section cost(root["cost"].as_table(), "cost", source, &c.sources);
    cost.number("dollars_per_hour", c.dollars_per_hour, 0, 1e6);
    cost.finish();

    // [zkey.<name>]: one table a key.
    if (const toml::table* zt = root["zkey"].as_table()) {
        for (auto&& [k, v] : *zt) {
            const std::string name(k.str());
            if (!kinds::valid_zkey_name(name))
                throw ConfigError(where(source, &v) + ": zkey." + name +
                                  ": a key name is 1 to 64 letters, digits, '_', '-' or '.'");
            if (!v.is_table())
                throw ConfigError(where(source, &v) + ": zkey." + name + ": expected a table ([zkey." + name +
                                  "] with path = \"<file>.zkey\")");
            Section z(v.as_table(), "zkey." + name, source, &c.sources);
            kinds::ZkeySpec spec;
            spec.name = name;
            std::string path, r1cs;
            z.string("path", path);
            z.string("r1cs", r1cs);
            z.boolean("check_subgroup", spec.check_subgroup);
            z.finish();
            if (path.empty()) z.fail(v.as_table(), "path", "required: the .zkey file to load");
            spec.path = path;
            spec.r1cs = r1cs;
            c.zkeys.push_back(std::move(spec));
        }
    }
    return c;
}

std::string config_json(const DaemonConfig& c) {
    const engine::EngineConfig& e = c.engine;
    nlohmann::json keys = nlohmann::json::array();
    auto add = [&](const std::string& key, nlohmann::json value) {
        const auto it = c.sources.find(key);
        keys.push_back(
            {{"key", key}, {"value", std::move(value)}, {"source", it == c.sources.end() ? "default" : it->second}});
    };
    add("daemon.listen", c.listen);
    add("daemon.http_listen", c.http_listen);
    add("daemon.admin_token", c.admin_token.empty() ? "(not set: read-only)" : "(set)");
    add("daemon.max_request_bytes", c.max_request_bytes);
    add("daemon.max_rpc_threads", c.max_rpc_threads);
    add("daemon.log_level", c.log_level);
    add("daemon.drain_on_shutdown", e.drain_on_shutdown);
    add("daemon.shutdown_grace_ms", c.shutdown_grace_ms);
    add("engine.memory_budget", e.memory_budget);
    add("engine.safety_margin", e.safety_margin);
    add("engine.witness_workers", e.witness_workers);
    add("engine.prove_workers_per_device", e.prove_workers_per_device);
    add("engine.cpu_prove_workers", e.cpu_prove_workers);
    add("engine.witness_queue_bound", e.witness_queue_bound);
    add("engine.finalize_queue_bound", e.finalize_queue_bound);
    add("engine.backend", e.backend);
    add("engine.devices", e.devices);
    add("engine.placement_upload_cost", e.placement_upload_cost);
    add("engine.verify_proofs", e.verify_proofs);
    add("engine.param_cache", e.param_cache.string());
    add("engine.setup_seed", e.setup_seed);
    add("engine.filecoin_param_dir", e.filecoin_param_dir.string());
    add("engine.allow_dev_params", e.allow_dev_params);
    add("engine.check_c1", e.check_c1);
    add("engine.eviction_min_idle_ms", uint64_t(e.eviction_min_idle.count()));
    add("engine.finished_jobs_kept", e.finished_jobs_kept);
    add("engine.max_partitions", e.max_partitions);
    add("engine.max_constraints", e.max_constraints);
    add("engine.trace_capacity", e.trace_capacity);
    add("engine.log_spans", e.log_spans);
    add("cost.dollars_per_hour", c.dollars_per_hour);
    for (const auto& z : c.zkeys) {
        add("zkey." + z.name + ".path", z.path.string());
        add("zkey." + z.name + ".r1cs", z.r1cs.string());
        add("zkey." + z.name + ".check_subgroup", z.check_subgroup);
    }
    return nlohmann::json{{"keys", keys}}.dump();
}

DaemonConfig load_config(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw ConfigError(file.string() + ": cannot open");
    std::ostringstream ss;
    ss << in.rdbuf();
    return parse_config(ss.str(), file.string());
}

}  // namespace cuzk::server
