// Vanilla proofs (C1 outputs): sealing a sector in memory (pre-commit + commit phase 1) and
// synthetic generation (seal.hpp), then the full consistency check and the JSON writer.
// Each case runs in a forked child so that its peak memory (wait4's ru_maxrss) is its own;
// peak_pre_MiB is the peak before the JSON writer (making and checking only), peak_MiB the
// whole case's. make_s is per run (averaged over reps); check and JSON are timed once.
//
//   cuzk_bench_vanilla            all cases
//   cuzk_bench_vanilla seal-8MiB  one case (names as printed)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "cuzk/filecoin/c1.hpp"
#include "cuzk/filecoin/seal.hpp"

namespace {

using namespace cuzk::filecoin;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

struct Figures {
    double make_s = 0, check_s = 0, write_s = 0;
    long peak_before_json_kib = 0;  // ru_maxrss after make and check, before the JSON writer
    size_t json_bytes = 0;
    int reps = 1;
};

// Times `make` (repeated `reps` times, the figure is per run), then the check and the writer
// on its last output.
Figures measure(int reps, const std::function<SealCommitPhase1Output()>& make) {
    Figures f;
    f.reps = reps;
    SealCommitPhase1Output c1;
    auto t0 = Clock::now();
    for (int i = 0; i < reps; ++i) c1 = make();
    f.make_s = seconds_since(t0) / reps;
    t0 = Clock::now();
    check_c1_consistency(c1, "bench");
    f.check_s = seconds_since(t0);
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    f.peak_before_json_kib = ru.ru_maxrss;
    t0 = Clock::now();
    f.json_bytes = write_c1_output(c1).size();
    f.write_s = seconds_since(t0);
    return f;
}

Figures seal_case(RegisteredSealProof proof, int reps) {
    SealParams p;
    p.proof = proof;
    p.prover_id[0] = 1;
    p.sector_id = 1;
    Bytes32 seed{};
    seed[0] = 2;
    return measure(reps, [&] {
        return SealedSector::seal(p, pseudo_random_sector_data(porep_config(proof), 1)).commit_phase1(seed);
    });
}

struct Case {
    const char* name;
    std::function<Figures()> run;
};

const std::vector<Case>& cases() {
    static const std::vector<Case> c = {
        {"seal-2KiB", [] { return seal_case(RegisteredSealProof::StackedDrg2KiBV1_1, 20); }},
        {"seal-8MiB", [] { return seal_case(RegisteredSealProof::StackedDrg8MiBV1_1, 1); }},
        {"synthetic-2KiB",
         [] { return measure(20, [] { return synthetic_c1(RegisteredSealProof::StackedDrg2KiBV1_1, 1); }); }},
        {"synthetic-512MiB",
         [] { return measure(5, [] { return synthetic_c1(RegisteredSealProof::StackedDrg512MiBV1_1, 1); }); }},
        {"synthetic-32GiB",
         [] { return measure(1, [] { return synthetic_c1(RegisteredSealProof::StackedDrg32GiBV1_1, 1); }); }},
        {"synthetic-64GiB",
         [] { return measure(1, [] { return synthetic_c1(RegisteredSealProof::StackedDrg64GiBV1_1, 1); }); }},
    };
    return c;
}

// Runs one case in a child; prints its row.
bool run_forked(const Case& c) {
    int fds[2];
    if (pipe(fds) != 0) return false;
    const pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        close(fds[0]);
        int rc = 0;
        Figures f;
        try {
            f = c.run();
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s: %s\n", c.name, e.what());
            rc = 1;
        }
        if (write(fds[1], &f, sizeof f) != ssize_t(sizeof f)) rc = 1;
        _exit(rc);
    }
    close(fds[1]);
    Figures f;
    const bool got = read(fds[0], &f, sizeof f) == ssize_t(sizeof f);
    close(fds[0]);
    int status = 0;
    struct rusage ru {};
    wait4(pid, &status, 0, &ru);
    if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::printf("%-18s failed\n", c.name);
        return false;
    }
    std::printf("%-18s %10.4f %4d %10.4f %10.4f %12zu %13.1f %10.1f\n", c.name, f.make_s, f.reps, f.check_s, f.write_s,
                f.json_bytes, double(f.peak_before_json_kib) / 1024.0, double(ru.ru_maxrss) / 1024.0);
    std::fflush(stdout);
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> names, wanted;
    for (const Case& c : cases()) names.push_back(c.name);
    CLI::App app("Vanilla proofs: make, full check and JSON write of each case in a forked process.",
                 "cuzk_bench_vanilla");
    app.add_option("cases", wanted, "cases to run (default: all)")->check(CLI::IsMember(names));
    CLI11_PARSE(app, argc, argv);
    std::printf("%-18s %10s %4s %10s %10s %12s %13s %10s\n", "case", "make_s", "reps", "check_s", "json_s",
                "json_bytes", "peak_pre_MiB", "peak_MiB");
    std::fflush(stdout);
    bool ok = true;
    for (const Case& c : cases())
        if (wanted.empty() || std::find(wanted.begin(), wanted.end(), c.name) != wanted.end()) ok &= run_forked(c);
    return ok ? 0 : 1;
}
