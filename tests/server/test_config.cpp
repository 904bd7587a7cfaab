// cuzk-daemon's TOML configuration: the example file is the defaults, every key is
// optional, and a bad key or value is an error that names it.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "cuzk/server/config.hpp"

namespace cuzk::server {
namespace {

std::string error_of(const std::string& toml) {
    try {
        parse_config(toml, "t.toml");
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "";
}

TEST(DaemonConfig, ExampleFileIsExactlyTheDefaults) {
    const DaemonConfig ex = load_config(CUZK_EXAMPLE_CONFIG);
    const DaemonConfig def;
    EXPECT_EQ(ex.listen, def.listen);
    EXPECT_EQ(ex.http_listen, def.http_listen);
    EXPECT_EQ(ex.max_request_bytes, def.max_request_bytes);
    EXPECT_EQ(ex.max_rpc_threads, def.max_rpc_threads);
    EXPECT_EQ(ex.log_level, def.log_level);
    EXPECT_EQ(ex.shutdown_grace_ms, def.shutdown_grace_ms);
    const engine::EngineConfig &e = ex.engine, &d = def.engine;
    EXPECT_EQ(e.memory_budget, d.memory_budget);
    EXPECT_EQ(e.safety_margin, d.safety_margin);
    EXPECT_EQ(e.witness_workers, d.witness_workers);
    EXPECT_EQ(e.prove_workers_per_device, d.prove_workers_per_device);
    EXPECT_EQ(e.cpu_prove_workers, d.cpu_prove_workers);
    EXPECT_EQ(e.witness_queue_bound, d.witness_queue_bound);
    EXPECT_EQ(e.finalize_queue_bound, d.finalize_queue_bound);
    EXPECT_EQ(e.backend, d.backend);
    EXPECT_EQ(e.devices, d.devices);
    EXPECT_EQ(e.verify_proofs, d.verify_proofs);
    EXPECT_EQ(e.param_cache, d.param_cache);
    EXPECT_EQ(e.setup_seed, d.setup_seed);
    EXPECT_EQ(e.eviction_min_idle, d.eviction_min_idle);
    EXPECT_EQ(e.finished_jobs_kept, d.finished_jobs_kept);
    EXPECT_EQ(e.max_partitions, d.max_partitions);
    EXPECT_EQ(e.max_constraints, d.max_constraints);
    EXPECT_EQ(e.drain_on_shutdown, d.drain_on_shutdown);
    EXPECT_EQ(e.trace_capacity, d.trace_capacity);
    EXPECT_EQ(e.log_spans, d.log_spans);
    EXPECT_EQ(ex.admin_token, def.admin_token);
    EXPECT_EQ(ex.dollars_per_hour, def.dollars_per_hour);
    EXPECT_TRUE(ex.zkeys.empty());
}

// [zkey.<name>] tables: the keys the daemon loads, by name; each key of a table checked.
TEST(DaemonConfig, ZkeyTables) {
    const DaemonConfig c = parse_config(
        "[zkey.chain8]\npath = \"/k/chain8.zkey\"\nr1cs = \"/k/chain8.r1cs\"\n"
        "[zkey.\"big-1.v2\"]\npath = \"/k/big.zkey\"\ncheck_subgroup = false\n",
        "z.toml");
    ASSERT_EQ(c.zkeys.size(), 2u);
    EXPECT_EQ(c.zkeys[0].name, "big-1.v2");
    EXPECT_EQ(c.zkeys[0].path, "/k/big.zkey");
    EXPECT_TRUE(c.zkeys[0].r1cs.empty());
    EXPECT_FALSE(c.zkeys[0].check_subgroup);
    EXPECT_EQ(c.zkeys[1].name, "chain8");
    EXPECT_EQ(c.zkeys[1].r1cs, "/k/chain8.r1cs");
    EXPECT_TRUE(c.zkeys[1].check_subgroup);
    EXPECT_EQ(c.sources.at("zkey.chain8.path"), "z.toml:2");
    EXPECT_NE(config_json(c).find("zkey.chain8.r1cs"), std::string::npos);
    EXPECT_NE(error_of("[zkey.a]\nr1cs = \"/x\"").find("zkey.a.path: required"), std::string::npos);
    EXPECT_NE(error_of("[zkey.a]\npath = 3").find("zkey.a.path: expected a string"), std::string::npos);
    EXPECT_NE(error_of("[zkey.a]\npath = \"/x\"\nprime = \"bn128\"").find("zkey.a.prime: unknown key"),
              std::string::npos);
    EXPECT_NE(error_of("[zkey.\"a b\"]\npath = \"/x\"").find("zkey.a b: a key name is 1 to 64"), std::string::npos);
    EXPECT_NE(error_of("[zkey]\na = 1").find("zkey.a: expected a table"), std::string::npos);
}

TEST(DaemonConfig, CostAdminTokenAndWhereEachKeyCameFrom) {
    const DaemonConfig c = parse_config(
        "[daemon]\nadmin_token = \"0123456789abcdef\"\n[engine]\nwitness_workers = 3\n[cost]\n"
        "dollars_per_hour = 2.5\n",
        "ops.toml");
    EXPECT_EQ(c.dollars_per_hour, 2.5);
    EXPECT_EQ(c.admin_token, "0123456789abcdef");
    EXPECT_EQ(parse_config("[cost]\ndollars_per_hour = 3\n").dollars_per_hour, 3.0);  // an integer is a number
    EXPECT_EQ(c.sources.at("daemon.admin_token"), "ops.toml:2");
    EXPECT_EQ(c.sources.at("engine.witness_workers"), "ops.toml:4");
    EXPECT_EQ(c.sources.at("cost.dollars_per_hour"), "ops.toml:6");
    EXPECT_EQ(c.sources.count("daemon.listen"), 0u);
    // The effective values with their sources; the token itself is never shown.
    const auto j = nlohmann::json::parse(config_json(c));
    std::map<std::string, nlohmann::json> by_key;
    for (const auto& k : j.at("keys")) by_key[k.at("key").get<std::string>()] = k;
    EXPECT_EQ(by_key.at("cost.dollars_per_hour").at("value"), 2.5);
    EXPECT_EQ(by_key.at("cost.dollars_per_hour").at("source"), "ops.toml:6");
    EXPECT_EQ(by_key.at("engine.witness_workers").at("value"), 3);
    EXPECT_EQ(by_key.at("daemon.listen").at("source"), "default");
    EXPECT_EQ(by_key.at("daemon.admin_token").at("value"), "(set)");
    EXPECT_EQ(config_json(c).find("0123456789abcdef"), std::string::npos);
}

TEST(DaemonConfig, BadCostAndAdminTokenNameTheKey) {
    EXPECT_EQ(error_of("[cost]\ndollars_per_hour = -1\n"),
              "t.toml:2: cost.dollars_per_hour: expected a number in [0, 1e+06], got -1");
    EXPECT_NE(error_of("[cost]\ndollars_per_hour = \"3\"\n").find("cost.dollars_per_hour: expected a number"),
              std::string::npos);
    EXPECT_NE(error_of("[cost]\neuros = 1\n").find("cost.euros: unknown key"), std::string::npos);
    const std::string short_token = error_of("[daemon]\nadmin_token = \"secret\"\n");
    EXPECT_NE(short_token.find("t.toml:2: daemon.admin_token: expected 16 to 256 printable"), std::string::npos)
        << short_token;
    EXPECT_EQ(short_token.find("secret"), std::string::npos) << short_token;  // the token is not echoed
    EXPECT_NE(error_of("[daemon]\nadmin_token = \"0123456789 abcdef\"\n").find("without spaces"), std::string::npos);
    EXPECT_NE(error_of("[money]\nx = 1\n").find("the sections are [daemon], [engine], [cost] and [zkey.<name>]"),
              std::string::npos);
}

TEST(DaemonConfig, EmptyFileIsTheDefaults) {
    const DaemonConfig c = parse_config("");
    EXPECT_EQ(c.listen, std::vector<std::string>{"127.0.0.1:9820"});
    EXPECT_EQ(c.engine.witness_workers, engine::EngineConfig{}.witness_workers);
}

TEST(DaemonConfig, ValuesAreRead) {
    const DaemonConfig c = parse_config(R"(
[daemon]
listen = ["0.0.0.0:1234", "unix:///run/curio/cuzk.sock", "unix:/tmp/x.sock", ""]
http_listen = "[::1]:0"
max_request_bytes = "2MiB"
log_level = "debug"
drain_on_shutdown = true
[engine]
memory_budget = "64GiB"
safety_margin = 1000
witness_workers = 7
backend = "cpu"
devices = [0, 3]
verify_proofs = false
param_cache = "/var/cache/cuzk"
eviction_min_idle_ms = 2500
)");
    EXPECT_EQ(c.listen, (std::vector<std::string>{"0.0.0.0:1234", "unix:/run/curio/cuzk.sock", "unix:/tmp/x.sock"}));
    EXPECT_EQ(c.http_listen, "[::1]:0");
    EXPECT_EQ(c.max_request_bytes, 2u << 20);
    EXPECT_EQ(c.log_level, "debug");
    EXPECT_TRUE(c.engine.drain_on_shutdown);
    EXPECT_EQ(c.engine.memory_budget, uint64_t(64) << 30);
    EXPECT_EQ(c.engine.safety_margin, 1000u);
    EXPECT_EQ(c.engine.witness_workers, 7u);
    EXPECT_EQ(c.engine.backend, "cpu");
    EXPECT_EQ(c.engine.devices, (std::vector<int>{0, 3}));
    EXPECT_FALSE(c.engine.verify_proofs);
    EXPECT_EQ(c.engine.param_cache, "/var/cache/cuzk");
    EXPECT_EQ(c.engine.eviction_min_idle.count(), 2500);
    EXPECT_EQ(parse_config("[daemon]\nlisten = \"unix:/a\"").listen, std::vector<std::string>{"unix:/a"});
}

TEST(DaemonConfig, ErrorsNameTheKey) {
    struct Case {
        std::string toml;
        const char* needle;
    };
    const Case cases[] = {
        {"[daemon]\nlisten = 5", "daemon.listen: expected a string or an array of strings, got 5"},
        {"[daemon]\nlisten = [\"nohost\"]", "daemon.listen: \"nohost\": expected \"host:port\""},
        {"[daemon]\nlisten = \"127.0.0.1:70000\"", "daemon.listen"},
        {"[daemon]\nlisten = \"unix:\"", "empty unix socket path"},
        {"[daemon]\nlisten = \"unix:/" + std::string(200, 'a') + "\"", "longer than"},
        {"[daemon]\nhttp_listen = \"unix:/x\"", "daemon.http_listen"},
        {"[daemon]\nmax_request_bytes = \"12 parsecs\"", "daemon.max_request_bytes: expected a size in bytes"},
        {"[daemon]\nmax_request_bytes = 10", "daemon.max_request_bytes"},
        {"[daemon]\nlog_level = \"loud\"", "daemon.log_level: expected one of"},
        {"[daemon]\ndrain_on_shutdown = \"yes\"", "daemon.drain_on_shutdown: expected true or false"},
        {"[daemon]\nport = 1", "daemon.port: unknown key"},
        {"[engine]\nwitness_workers = 0", "engine.witness_workers: expected an integer in [1,"},
        {"[engine]\nwitness_workers = -3", "engine.witness_workers"},
        {"[engine]\nwitness_workers = 2.5", "engine.witness_workers"},
        {"[engine]\nbackend = \"tpu\"", "engine.backend: expected one of \"auto\", \"cpu\", \"cuda\""},
        {"[engine]\ndevices = [0, -1]", "engine.devices"},
        {"[engine]\ndevices = 0", "engine.devices: expected an array of integers"},
        {"[engine]\nmemory_budget = -1", "engine.memory_budget"},
        {"[engine]\nmax_partitions = 0", "engine.max_partitions"},
        {"[engine]\nverify = true", "engine.verify: unknown key"},
        {"[server]\nlisten = \"a:1\"", "server: unknown key"},
        {"listen = \"a:1\"", "listen: unknown key"},
        {"daemon = 3", "daemon: expected a table"},
        {"[daemon\nlisten = 1", "t.toml:1"},  // TOML syntax error, with its line
    };
    for (const auto& c : cases) {
        const std::string err = error_of(c.toml);
        EXPECT_NE(err.find(c.needle), std::string::npos) << "config:\n" << c.toml << "\nerror: " << err;
    }
    // The line of the offending key is given.
    EXPECT_NE(error_of("[daemon]\n\n\nlog_level = \"x\"").find("t.toml:4:"), std::string::npos);
}

TEST(DaemonConfig, ByteSizes) {
    EXPECT_EQ(parse_bytes("0"), 0u);
    EXPECT_EQ(parse_bytes("1234"), 1234u);
    EXPECT_EQ(parse_bytes("5GiB"), uint64_t(5) << 30);
    EXPECT_EQ(parse_bytes("5 GiB"), uint64_t(5) << 30);
    EXPECT_EQ(parse_bytes("3MB"), 3000000u);
    EXPECT_EQ(parse_bytes("7B"), 7u);
    EXPECT_EQ(parse_bytes("2TiB"), uint64_t(2) << 40);
    EXPECT_FALSE(parse_bytes(""));
    EXPECT_FALSE(parse_bytes("GiB"));
    EXPECT_FALSE(parse_bytes("-1"));
    EXPECT_FALSE(parse_bytes("5gb"));
    EXPECT_FALSE(parse_bytes("99999999999TiB"));  // overflow
}

TEST(DaemonConfig, ListenAddresses) {
    EXPECT_EQ(check_listen_address("127.0.0.1:0", "k"), "127.0.0.1:0");
    EXPECT_EQ(check_listen_address("[::1]:9820", "k"), "[::1]:9820");
    EXPECT_EQ(check_listen_address("unix:///run/x.sock", "k"), "unix:/run/x.sock");
    EXPECT_EQ(check_listen_address("unix:rel.sock", "k"), "unix:rel.sock");
    EXPECT_THROW(check_listen_address(":9820", "k"), ConfigError);
    EXPECT_THROW(check_listen_address("host:", "k"), ConfigError);
    EXPECT_THROW(check_listen_address("host:12x", "k"), ConfigError);
}

}  // namespace
// Ports are parsed without exceptions: out of range (even past 64 bits) and non-numeric
// ports are ConfigErrors naming the key; the HTTP listener takes no unix socket.
TEST(DaemonConfig, PortsAndHttpAddresses) {
    for (const char* bad : {"h:65536", "h:99999999999", "h:99999999999999999999999", "h:-1", "h:+1", "h:1 "}) {
        SCOPED_TRACE(bad);
        EXPECT_THROW(check_listen_address(bad, "k"), ConfigError);
        EXPECT_THROW(check_http_address(bad, "k"), ConfigError);
    }
    const HostPort hp = parse_host_port("[::1]:65535", "k");
    EXPECT_EQ(hp.host, "::1");
    EXPECT_EQ(hp.port, 65535);
    try {
        check_http_address("unix:/run/h.sock", "--http");
        ADD_FAILURE() << "a unix socket HTTP address was accepted";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("--http"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parse_config("[daemon]\nhttp_listen = \"unix:/run/h.sock\"\n"), ConfigError);
    DaemonConfig c;
    c.listen.clear();
    EXPECT_THROW(check_config(c), ConfigError);
    c.http_listen = "127.0.0.1:0";
    EXPECT_NO_THROW(check_config(c));
}

}  // namespace cuzk::server
