// cuzk command line: the demo, self-check and benchmark, setup / prove / verify, PoRep
// sealing, and the daemon's client commands.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>

#include "cli_util.hpp"
#include "client.hpp"
#include "commands.hpp"
#include "cuzk/backend/backend.hpp"
#include "cuzk/circuits/builtin.hpp"
#include "cuzk/common/parallel.hpp"
#include "cuzk/ff/mont_x86_adx.hpp"
#include "cuzk/gpu/device.hpp"
#include "porep_commands.hpp"
#include "post_commands.hpp"
#include "prove_demo.hpp"
#include "seal_commands.hpp"
#include "selfcheck.hpp"
#include "zkey_commands.hpp"
#include "snap_commands.hpp"

namespace {

void print_info() {
    std::string why;
    int gpus = cuzk::gpu::device_count(&why);
    std::printf("cuzk %s\n", CUZK_VERSION);
    std::printf("  field multiply: %s\n", CUZK_FF_HAVE_ADX ? "x86-64 MULX/ADCX/ADOX" : "portable CIOS");
    std::printf("  CUDA backend:   %s\n", cuzk::gpu::built_with_cuda() ? "built" : "not built");
    std::printf("  GPUs:           %d%s%s\n", gpus, gpus ? "" : " (", gpus ? "" : (why + ")").c_str());
}

// CUZK_THREADS is read when the thread pool starts: a bad value is refused here, before
// any work, and the pool is started now so that its warning (a count above the cores)
// comes first too.
bool check_threads_env() {
    if (const char* env = std::getenv("CUZK_THREADS"); env && *env) {  // empty: unset, as for the pool
        try {
            cuzk::parse_thread_count(env, std::max(1u, std::thread::hardware_concurrency()));
        } catch (const std::invalid_argument& e) {
            std::fprintf(stderr, "cuzk: %s\n", e.what());
            return false;
        }
    }
    (void)cuzk::num_threads();
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    // Called as rapidsnark (a link the build makes): `rapidsnark <zkey> <wtns> <proof> <public>`
    // is `cuzk prove-zkey ...`.
    std::vector<char*> args(argv, argv + argc);
    static char prove_zkey[] = "prove-zkey";
    if (argc > 0 && std::filesystem::path(argv[0]).filename() == cuzk::cli::kRapidsnarkAlias)
        args.insert(args.begin() + 1, prove_zkey);
    argc = int(args.size());
    argv = args.data();
    CLI::App app{"cuzk: a Groth16 proving engine for BLS12-381"};
    app.require_subcommand(0, 1);
    double bench_seconds = 0.3;

    auto* info = app.add_subcommand("info", "Show how this binary was built and which devices it sees");
    auto* selfcheck = app.add_subcommand("selfcheck", "Known-answer checks of the field, curve and pairing arithmetic");
    auto* bench = app.add_subcommand("bench", "Short single-thread benchmark of the arithmetic");
    bench->add_option("--seconds", bench_seconds, "Time spent on each operation")->check(cuzk::cli::positive_seconds());
    std::string demo_circuit = "sha256-chain";
    size_t demo_size = 1, demo_proofs = 2;
    auto* demo = app.add_subcommand(
        "demo", "The default job: info, self-check, a short benchmark, then setup -> prove -> verify");
    demo->add_option("--seconds", bench_seconds, "Time spent on each benchmarked operation")
        ->check(cuzk::cli::positive_seconds());
    demo->add_option("--circuit", demo_circuit, "Built-in circuit: sha256-chain or random-dense");
    demo->add_option("--size", demo_size,
                     "Circuit size: SHA-256 blocks, or random-dense's constraint count (its 4 inputs included)")
        ->check(cuzk::cli::in_range(1, cuzk::circuits::kMaxBuiltinSize));
    demo->add_option("--proofs", demo_proofs, "Number of proofs to make")->check(cuzk::cli::in_range(1, 1 << 16));
    std::string demo_backend = "auto";
    demo->add_option("--backend", demo_backend, "cpu, cuda or auto")->capture_default_str();

    std::vector<std::pair<CLI::App*, std::function<int()>>> commands;
    cuzk::cli::add_proving_commands(app, commands);
    cuzk::cli::add_client_commands(app, commands);
    cuzk::cli::add_seal_commands(app, commands);
    cuzk::cli::add_porep_commands(app, commands);
    cuzk::cli::add_post_commands(app, commands);
    cuzk::cli::add_zkey_commands(app, commands);
    cuzk::cli::add_snap_commands(app, commands);

    CLI11_PARSE(app, argc, argv);
    if (!check_threads_env()) return 2;

    for (auto& [cmd, run] : commands) {
        if (!*cmd) continue;
        try {
            return run();
        } catch (const std::exception& e) {
            // "cuzk prove porep: ..." for a nested subcommand.
            std::string name = cmd->get_name();
            if (cmd->get_parent() && cmd->get_parent() != &app) name = cmd->get_parent()->get_name() + " " + name;
            std::fprintf(stderr, "cuzk %s: %s\n", name.c_str(), e.what());
            return 1;
        }
    }

    if (*info) {
        print_info();
        return 0;
    }
    if (*selfcheck) return cuzk::cli::run_selfcheck() == 0 ? 0 : 1;
    if (*bench) {
        cuzk::cli::run_arith_bench(bench_seconds);
        return 0;
    }
    // demo, also the default with no subcommand: its arguments are checked before any work.
    (void)demo;
    try {
        cuzk::circuits::check_builtin(demo_circuit, demo_size);
        cuzk::gpu::check_backend_name(demo_backend);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cuzk demo: %s\n", e.what());
        return 2;
    }
    print_info();
    std::printf("\nself-check\n");
    int failed = cuzk::cli::run_selfcheck();
    if (failed) {
        std::fprintf(stderr, "cuzk: %d self-check(s) failed\n", failed);
        return 1;
    }
    std::printf("\nbenchmark (one thread)\n");
    cuzk::cli::run_arith_bench(bench_seconds);
    std::printf("\nGroth16: setup -> prove -> verify\n");
    try {
        return cuzk::cli::run_prove_demo(demo_circuit, demo_size, demo_proofs, demo_backend);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cuzk demo: %s\n", e.what());
        return 1;
    }
}
