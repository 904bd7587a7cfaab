// `cuzk client soak`: a bounded mixed load against a running cuzk-daemon on this machine
// (loopback or unix socket only): valid small built-in proofs and malformed requests from
// several clients, the daemon's resident memory sampled from /proc/<pid>/status. Every
// request must be answered with the status its class expects, every accepted job must
// complete with a proof that verifies; prints a summary, exit status 0 when all held.
#pragma once

#include <cstdint>
#include <string>

namespace cuzk::cli {

struct SoakOptions {
    std::string address = "127.0.0.1:9820";
    double duration_s = 600;        // stop sending after this long
    uint64_t max_requests = 20000;  // and after this many requests
    double rate = 20;               // requests a second, all clients together
    unsigned clients = 4;           // concurrent clients, each its own channel
    int pid = 0;                    // the daemon's pid for RSS samples (0: from --ready-file, else none)
    std::string ready_file;         // cuzk-daemon --ready-file: its pid (and address when --address is unset)
    uint64_t rss_budget = 0;        // bytes; 0 = the daemon's memory budget (GetStatus)
    uint64_t seed = 0;              // 0 = from the clock (printed)
};

int run_soak(SoakOptions o);

}  // namespace cuzk::cli
