#include "prove_demo.hpp"

#include <unistd.h>
#include <chrono>

#include <cstdio>

#include "cuzk/backend/backend.hpp"
#include "cuzk/circuits/builtin.hpp"
#include "cuzk/common/parallel.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"

namespace cuzk::cli {
namespace {
using Clock = std::chrono::steady_clock;
double ms(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }
void row(const char* phase, double t) { std::printf("  %-26s %10.1f ms\n", phase, t); }
}  // namespace

int run_prove_demo(const std::string& name, size_t size, size_t proofs, const std::string& backend_name) {
    using namespace groth16;
    auto built = circuits::make_builtin(name, size);
    std::printf("circuit %s, %zu thread(s)\n", built.circuit->name().c_str(), num_threads());

    auto t0 = Clock::now();
    r1cs::Shape shape = built.circuit->shape();
    row("shape (record A, B, C)", ms(t0));
    std::printf("  %llu constraints, %llu inputs, %llu aux\n", (unsigned long long)shape.num_constraints,
                (unsigned long long)shape.num_inputs, (unsigned long long)shape.num_aux);

    t0 = Clock::now();
    // Progress: a self-updating line on a terminal, a line per finished stage otherwise.
    const bool tty = isatty(2);
    int last_pct = -1;
    Parameters params = setup(shape, ToxicWaste::random(), [&](const char* stage, size_t done, size_t total) {
        int pct = int(100 * done / total);
        if (tty && (pct / 10 != last_pct / 10 || done == total))
            std::fprintf(stderr, "\r  setup: %-5s %3d%%", stage, pct);
        if (!tty && done == total) std::fprintf(stderr, "  setup: %s done (%zu points)\n", stage, total);
        last_pct = pct;
    });
    if (tty) std::fprintf(stderr, "\r%40s\r", "");
    row("setup (development keys)", ms(t0));

    std::string why;
    auto backend = gpu::select_backend(backend_name, &why);
    std::printf("backend %s\n", why.c_str());
    const r1cs::Density density = shape.density();
    PreparedVerifyingKey pvk(params.vk);
    int failures = 0;
    for (size_t i = 0; i < proofs; ++i) {
        std::printf("proof %zu\n", i + 1);
        t0 = Clock::now();
        Witness w = built.circuit->witness();
        row("witness (+ A·z, B·z, C·z)", ms(t0));
        ProofTimings t;
        Proof proof = prove(params, density, w, random_randomness(), *backend, &t);
        row("H (iNTT, coset NTT, divide)", t.h);
        row("MSM h", t.msm_h);
        row("MSM l", t.msm_l);
        row("MSM a", t.msm_a);
        row("MSM b_g1", t.msm_b_g1);
        row("MSM b_g2", t.msm_b_g2);
        row("assemble", t.assemble);
        row("prove total", t.total());
        t0 = Clock::now();
        auto ok = verify(pvk, proof, built.public_inputs);
        row("verify", ms(t0));
        auto wrong = built.public_inputs;
        wrong.back() += Fr::one();
        const bool rejected = !verify(pvk, proof, wrong);
        std::printf("  proof %s; with a wrong public input: %s\n", ok ? "VERIFIES" : ("FAILS: " + ok.error).c_str(),
                    rejected ? "rejected" : "ACCEPTED (bug)");
        failures += !ok || !rejected;
    }
    return failures == 0 ? 0 : 1;
}

}  // namespace cuzk::cli
