// Shared by the Groth16 proving benches (gpu_groth16.cpp, porep_prove.cpp): TIMING-ONLY
// parameters of a circuit's shape, counts and densities without the matrices (DensityCS),
// page-locked witness buffers, per-phase timings and their medians, memory readings.
//
// TIMING-ONLY PARAMETERS: the parameters have the real shape of the circuit (query lengths
// from its counts and densities) but fake contents: every query holds the distinct points
// (i+1)·G (the same prefix in every query) and the verifying key is random. The MSMs' cost
// does not depend on the bases' values (distinct points keep every bucket addition on its
// general path), and H and the scalars come from the circuit's real witness, so the timings
// are those of a real proof. THE PROOFS DO NOT VERIFY.
#pragma once

#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/gpu/host_memory.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/ntt/domain.hpp"
#include "cuzk/r1cs/shape_cs.hpp"

namespace cuzk::bench {

// The options every timing-key bench takes (--reps, --backend, --device, --pinned, --out,
// --max-seconds, --seed); a bench's own Args derive from it.
struct RunArgs {
    int reps = 3;
    std::string backend = "cuda";
    int device = 0;
    bool pinned = true;  // page-lock the witness buffers, as the engine's buffer pool does
    std::string out;
    double max_seconds = 0;  // 0: no bound
    uint64_t seed = 1;
};

// "a,b,,c" -> {"a", "b", "c"}.
inline std::vector<std::string> split_list(const std::string& s) {
    std::vector<std::string> v;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');)
        if (!item.empty()) v.push_back(item);
    return v;
}

// A 0|1 option, as the benches have always spelled their switches (--pinned 1).
inline CLI::Option* add_flag01(CLI::App& app, const std::string& name, bool& value, const std::string& what) {
    return app
        .add_option_function<std::string>(
            name, [&value](const std::string& v) { value = v == "1"; }, what)
        ->check(CLI::IsMember({"0", "1"}));
}

// RunArgs' options on a CLI11 parser.
inline void add_run_options(CLI::App& app, RunArgs& a) {
    app.add_option("--reps", a.reps, "proofs timed after the first")
        ->check(CLI::Range(0, 1000000))
        ->capture_default_str();
    app.add_option("--backend", a.backend, "prover backend")
        ->check(CLI::IsMember({"cuda", "cpu"}))
        ->capture_default_str();
    app.add_option("--device", a.device, "GPU ordinal")->capture_default_str();
    add_flag01(app, "--pinned", a.pinned, "page-lock the witness buffers, as the engine's pool does (default 1)");
    app.add_option("--out", a.out, "JSON results file, rewritten after each size");
    app.add_option("--max-seconds", a.max_seconds, "start nothing new past this many seconds (0: no bound)");
    app.add_option("--seed", a.seed, "random seed")->capture_default_str();
}

using Clock = std::chrono::steady_clock;
inline double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// True once --max-seconds (if set) have passed since t_start.
inline bool time_spent(const RunArgs& a, Clock::time_point t_start) {
    return a.max_seconds > 0 && std::chrono::duration<double>(Clock::now() - t_start).count() > a.max_seconds;
}
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// printf that reaches the log at once (the lead reads it live, and a timeout kill loses nothing).
template <class... A>
void say(const char* fmt, A... a) {
    if constexpr (sizeof...(A) == 0)
        std::fputs(fmt, stdout);  // no format arguments: not a format (-Wformat-security)
    else
        std::printf(fmt, a...);
    std::fflush(stdout);
}

// The distinct points (start+i)·G for i < n, on every core: each thread starts at its first
// multiple with one scalar multiplication and walks on by mixed additions (madd, 7M+4S),
// converting blocks of 4096 with one inversion each (generator_multiples() is single-threaded,
// about 1 us a point). Measured: the 2^20 random-dense keys (1.05M G1 + 0.52M G2 points) in
// 3.9 s on the dev machine's 2 shared, loaded cores.
template <class Curve>
void fill_multiples(std::vector<Affine<Curve>>& out, uint64_t start) {
    const size_t n = out.size();
    const size_t threads = std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), n / 4096 + 1));
    const Affine<Curve> g = Affine<Curve>::generator();
    auto work = [&](size_t lo, size_t hi) {
        constexpr size_t kBlock = 4096;
        std::vector<Jacobian<Curve>> js(kBlock);
        Jacobian<Curve> acc = mul_u64(Jacobian<Curve>::generator(), start + lo);
        for (size_t b = lo; b < hi; b += kBlock) {
            const size_t len = std::min(kBlock, hi - b);
            for (size_t i = 0; i < len; ++i) {
                js[i] = acc;
                acc = acc.add(g);
            }
            batch_to_affine<Curve>(std::span<const Jacobian<Curve>>(js.data(), len),
                                   std::span<Affine<Curve>>(out.data() + b, len));
        }
    };
    std::vector<std::thread> pool;
    const size_t per = (n + threads - 1) / threads;
    for (size_t t = 0; t < threads; ++t) {
        const size_t lo = t * per, hi = std::min(n, lo + per);
        if (lo < hi) pool.emplace_back(work, lo, hi);
    }
    for (auto& th : pool) th.join();
}

// Shape mode without the matrices: ShapeCS's variables and linear combinations, but
// enforce() only merges A and B and sets the density bits, exactly as ShapeCS::record does,
// and counts. The full shape is the slow part of a run (measured, 2 shared cores: about
// 5 us a constraint, most of it the CSR rows and the coefficient dictionary); the benches
// only need counts and densities. Checked against the full shape up to 2^18 constraints
// (gpu_groth16) and on the 2 KiB PoRep partition (porep_prove --check-density 1).
class DensityCS : public r1cs::ShapeCS {
 public:
    template <class N>
    void enforce(N&&, LC a, LC b, LC) {
        a.normalize();
        b.normalize();
        for (const r1cs::Term& t : a.terms())
            if (t.var.is_aux()) set_bit(a_aux_, t.var.index());
        for (const r1cs::Term& t : b.terms()) set_bit(t.var.is_aux() ? b_aux_ : b_input_, t.var.index());
        ++constraints_;
    }
    size_t num_constraints() const { return constraints_; }
    r1cs::Density density() const {
        return {to_bitvec(a_aux_, num_aux()), to_bitvec(b_input_, num_inputs()), to_bitvec(b_aux_, num_aux())};
    }

 private:
    static void set_bit(std::vector<uint64_t>& bits, uint32_t i) {
        if (i / 64 >= bits.size()) bits.resize(std::max<size_t>(i / 64 + 1, 2 * bits.size()), 0);
        bits[i / 64] |= uint64_t(1) << (i % 64);
    }
    static r1cs::BitVec to_bitvec(const std::vector<uint64_t>& bits, size_t n) {
        r1cs::BitVec v(n);
        for (size_t i = 0; i < n; ++i)
            if (i / 64 < bits.size() && ((bits[i / 64] >> (i % 64)) & 1)) v.set(i);
        return v;
    }
    size_t constraints_ = 0;
    std::vector<uint64_t> a_aux_, b_input_, b_aux_;
};

// What a proof needs of its circuit's shape, and the query lengths that follow.
struct ShapeInfo {
    size_t inputs = 0, aux = 0, constraints = 0, domain = 0;
    size_t len_h = 0, len_l = 0, len_a = 0, len_b = 0;
    r1cs::Density density;
    bool full_shape = false;  // counted with r1cs::Shape rather than DensityCS

    // Sets domain and the query lengths from the counts and densities.
    void derive_lengths() {
        domain = ntt::EvaluationDomain::size_for(constraints);
        len_h = domain - 1;
        len_l = aux;
        len_a = inputs + density.a_aux.count();
        len_b = density.b_input.count() + density.b_aux.count();
    }
    double params_gib() const {
        return ((len_h + len_l + len_a + len_b) * sizeof(G1Affine) + len_b * sizeof(G2Affine)) / kGiB;
    }
};

// Counts and densities of a circuit (a type with `template <class CS> void synthesize(CS&)`)
// with the input constraints appended, as groth16::CircuitOf::shape() does.
template <class C>
ShapeInfo density_shape(const C& circuit) {
    DensityCS cs;
    circuit.synthesize(cs);
    r1cs::enforce_inputs_times_zero(cs);
    ShapeInfo s;
    s.inputs = cs.num_inputs();
    s.aux = cs.num_aux();
    s.constraints = cs.num_constraints();
    s.density = cs.density();
    s.derive_lengths();
    return s;
}

// Counts and densities of a circuit made of a header and n units that allocate and constrain
// the same way (a PoRep partition's challenges, a PoSt partition's sectors), from a circuit of
// 1 and one of 2 units (resize(copy, k) keeps the first k): in shape mode values are never
// read, so unit k's density bits are unit 0's shifted by k times a unit's variables. Checked
// here: the 2-unit circuit begins with the 1-unit one's bits (nothing follows the units) and
// its second unit repeats its first; std::logic_error otherwise. The input constraints
// (input_i in A only) add no bits.
template <class C, class Resize>
ShapeInfo replicated_shape(const C& c, size_t n, Resize resize) {
    if (n < 2) return density_shape(c);
    struct Raw {
        size_t inputs, aux, constraints;
        r1cs::Density d;
    };
    auto raw = [&](size_t k) {
        C ck = c;
        resize(ck, k);
        DensityCS cs;
        ck.synthesize(cs);
        return Raw{cs.num_inputs(), cs.num_aux(), cs.num_constraints(), cs.density()};
    };
    const Raw one = raw(1), two = raw(2);
    const size_t per_in = two.inputs - one.inputs, per_aux = two.aux - one.aux;
    const size_t per_con = two.constraints - one.constraints;
    const size_t head_in = one.inputs - per_in, head_aux = one.aux - per_aux;
    const size_t head_con = one.constraints - per_con;
    // b1: the 1-challenge bits (head + per); b2: the 2-challenge bits (head + 2 per).
    auto replicate = [n](const r1cs::BitVec& b1, const r1cs::BitVec& b2, size_t head, size_t per) {
        bool same = true;
        for (size_t i = 0; i < head + per; ++i) same = same && b2.test(i) == b1.test(i);
        for (size_t i = 0; i < per; ++i) same = same && b2.test(head + per + i) == b1.test(head + i);
        if (!same) throw std::logic_error("replicated_shape: the units' densities are not shift-invariant");
        r1cs::BitVec out(head + n * per);
        for (size_t i = 0; i < head + per; ++i)
            if (b1.test(i)) out.set(i);
        for (size_t k = 1; k < n; ++k)
            for (size_t i = 0; i < per; ++i)
                if (b1.test(head + i)) out.set(head + k * per + i);
        return out;
    };
    ShapeInfo s;
    s.inputs = head_in + n * per_in;
    s.aux = head_aux + n * per_aux;
    s.constraints = head_con + n * per_con + s.inputs;  // + the input constraints
    s.density = {replicate(one.d.a_aux, two.d.a_aux, head_aux, per_aux),
                 replicate(one.d.b_input, two.d.b_input, head_in, per_in),
                 replicate(one.d.b_aux, two.d.b_aux, head_aux, per_aux)};
    s.derive_lengths();
    return s;
}

// Timing-only parameters of the shape (see the top of the file): NOT a valid key. The
// longest G1 query is filled in place and the others copied from its prefix, so the peak is
// the parameters themselves.
inline groth16::Parameters fake_parameters(const ShapeInfo& s, uint64_t seed) {
    groth16::Parameters p;
    std::mt19937_64 rng(seed);
    auto g1 = [&] { return mul(G1Affine::generator(), Fr::random(rng)).to_affine(); };
    auto g2 = [&] { return mul(G2Affine::generator(), Fr::random(rng)).to_affine(); };
    p.vk.alpha_g1 = g1();
    p.vk.beta_g1 = g1();
    p.vk.beta_g2 = g2();
    p.vk.gamma_g2 = g2();
    p.vk.delta_g1 = g1();
    p.vk.delta_g2 = g2();
    for (size_t i = 0; i < s.inputs; ++i) p.vk.ic.push_back(g1());
    std::vector<G1Affine>* queries[] = {&p.h, &p.l, &p.a, &p.b_g1};
    const size_t lens[] = {s.len_h, s.len_l, s.len_a, s.len_b};
    const size_t longest = size_t(std::max_element(std::begin(lens), std::end(lens)) - std::begin(lens));
    queries[longest]->resize(lens[longest]);
    fill_multiples<G1Curve>(*queries[longest], 1);
    const std::vector<G1Affine>& full = *queries[longest];
    for (size_t q = 0; q < 4; ++q)
        if (q != longest) queries[q]->assign(full.begin(), full.begin() + ptrdiff_t(lens[q]));
    p.b_g2.resize(s.len_b);
    fill_multiples<G2Curve>(p.b_g2, 1);
    return p;
}

// /proc/meminfo's MemAvailable in bytes; 0 when unknown.
inline size_t mem_available_bytes() {
    std::ifstream f("/proc/meminfo");
    std::string key, unit;
    size_t kb = 0;
    while (f >> key >> kb >> unit)
        if (key == "MemAvailable:") return kb * 1024;
    return 0;
}

// A field of /proc/self/status in bytes ("VmRSS:", "VmHWM:"); 0 when unknown.
inline size_t proc_status_bytes(const std::string& field) {
    std::ifstream f("/proc/self/status");
    std::string key;
    while (f >> key) {
        if (key == field) {
            size_t kb = 0;
            f >> kb;
            return kb * 1024;
        }
        std::getline(f, key);
    }
    return 0;
}

// The process's peak resident set. getrusage's ru_maxrss is the peak since the process
// started; a pass's own peak needs the kernel's high-water mark reset before it (writing 5
// to /proc/self/clear_refs resets VmHWM to the current RSS, Linux >= 4.0).
class PeakRss {
 public:
    // Resets the high-water mark; false if the kernel does not allow it (then peak() is the
    // process's lifetime peak).
    bool reset() {
        start_rss_ = proc_status_bytes("VmRSS:");
        std::ofstream f("/proc/self/clear_refs");
        f << "5";
        f.flush();
        resettable_ = bool(f);
        return resettable_;
    }
    size_t start_rss() const { return start_rss_; }
    size_t peak() const {
        const size_t hwm = proc_status_bytes("VmHWM:");
        if (hwm) return hwm;
        rusage u{};
        getrusage(RUSAGE_SELF, &u);
        return size_t(u.ru_maxrss) * 1024;
    }
    bool resettable() const { return resettable_; }

 private:
    size_t start_rss_ = 0;
    bool resettable_ = false;
};

// CPU seconds (user + system) the process has used so far, all its threads: on a shared
// machine the difference around a pass is its work, whatever share of the cores it got.
inline double process_cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto sec = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
    return sec(u.ru_utime) + sec(u.ru_stime);
}

inline size_t rusage_max_rss_bytes() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return size_t(u.ru_maxrss) * 1024;
}

// A pass's time and memory: ms, the process's RSS before it and its peak during it.
struct Pass {
    double ms = 0;
    size_t rss_before = 0, peak = 0;
    bool peak_is_pass = false;  // false: the peak is the process's lifetime peak (VmHWM not resettable)
    double growth_gib() const { return peak > rss_before ? (peak - rss_before) / kGiB : 0; }
};

template <class F>
Pass timed_pass(F&& f) {
    PeakRss rss;
    Pass p;
    p.peak_is_pass = rss.reset();
    p.rss_before = rss.start_rss();
    const auto t0 = Clock::now();
    f();
    p.ms = ms_since(t0);
    p.peak = rss.peak();
    return p;
}

// Bytes as MiB below 1 GiB, else GiB.
std::string mem_text(double bytes) {
    char buf[32];
    if (bytes < kGiB)
        std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / (1024.0 * 1024.0));
    else
        std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / kGiB);
    return buf;
}

std::string pass_text(const Pass& p) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%.1f ms, peak RSS %s (+%s over the %s before%s)", p.ms,
                  mem_text(double(p.peak)).c_str(), mem_text(p.growth_gib() * kGiB).c_str(),
                  mem_text(double(p.rss_before)).c_str(),
                  p.peak_is_pass ? "" : "; lifetime peak, VmHWM not resettable");
    return buf;
}

std::string json_pass(const Pass& p) {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "{\"ms\": %.3f, \"rss_before_gib\": %.4f, \"peak_rss_gib\": %.4f, \"growth_gib\": %.4f, "
                  "\"peak_is_pass\": %s}",
                  p.ms, p.rss_before / kGiB, p.peak / kGiB, p.growth_gib(), p.peak_is_pass ? "true" : "false");
    return buf;
}

// One proof's phases, ms.
struct Phases {
    double h = 0, msm_h = 0, msm_l = 0, msm_a = 0, msm_b_g1 = 0, msm_b_g2 = 0, assemble = 0;
    double sum = 0;   // ProofTimings::total()
    double wall = 0;  // the whole prove() call: also the shape checks and z / density vectors
};

inline Phases phases_from(const groth16::ProofTimings& t, double wall) {
    return {t.h, t.msm_h, t.msm_l, t.msm_a, t.msm_b_g1, t.msm_b_g2, t.assemble, t.total(), wall};
}

inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

inline Phases median_of(const std::vector<Phases>& ps) {
    auto med = [&](double Phases::*f) {
        std::vector<double> v;
        for (auto& p : ps) v.push_back(p.*f);
        return median(v);
    };
    return {med(&Phases::h),        med(&Phases::msm_h),    med(&Phases::msm_l),
            med(&Phases::msm_a),    med(&Phases::msm_b_g1), med(&Phases::msm_b_g2),
            med(&Phases::assemble), med(&Phases::sum),      med(&Phases::wall)};
}

inline std::string json_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '"' || c == '\\') {
            o += '\\';
            o += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            o += buf;
        } else {
            o += c;
        }
    }
    return o;
}

inline std::string json_phases(const Phases& p) {
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "{\"h\": %.3f, \"msm_h\": %.3f, \"msm_l\": %.3f, \"msm_a\": %.3f, \"msm_b_g1\": %.3f, "
                  "\"msm_b_g2\": %.3f, \"assemble\": %.3f, \"sum\": %.3f, \"prove_wall\": %.3f}",
                  p.h, p.msm_h, p.msm_l, p.msm_a, p.msm_b_g1, p.msm_b_g2, p.assemble, p.sum, p.wall);
    return buf;
}

inline void print_phases_header() {
    say("    %-9s %9s %9s %9s %9s %9s %9s %8s %9s %9s   (ms)\n", "proof", "H", "msm_h", "msm_l", "msm_a", "msm_b_g1",
        "msm_b_g2", "assemble", "sum", "prove");
}

inline void print_phases_row(const char* label, const Phases& p, double target) {
    say("    %-9s %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %8.1f %9.1f %9.1f", label, p.h, p.msm_h, p.msm_l, p.msm_a,
        p.msm_b_g1, p.msm_b_g2, p.assemble, p.sum, p.wall);
    if (target > 0) say("   target <= %.0f: %s", target, p.wall <= target ? "MET" : "MISSED");
    say("\n");
}

// The proofs of one bench case: a first proof (bases uploaded, tables built), then `reps`
// timed ones, each row printed; `status` says why it stopped early.
struct ProofSeries {
    bool have_first = false;
    Phases first;
    std::vector<Phases> reps;
    Phases med;
    std::string status = "ok";  // or the error / skip reason
};

// Witness buffers <-> a synthesized witness, the storage moved, never copied: a page-locked
// buffer stays the same allocation (and registered) as it passes between them.
inline r1cs::WitnessBuffers take_buffers(groth16::Witness& w) {
    return {std::move(w.aux), std::move(w.a), std::move(w.b), std::move(w.c)};
}
inline void give_buffers(r1cs::WitnessBuffers&& b, groth16::Witness& w) {
    w.aux = std::move(b.aux);
    w.a = std::move(b.a);
    w.b = std::move(b.b);
    w.c = std::move(b.c);
}

// One proof of w; prove() consumes A·z, B·z, C·z, whose storage is handed back to w after
// it (ProveHooks::abc_released), also on a throw: page-locked storage must outlive its
// registration. abc_ahead: the backend's copy_abc_ahead of w's a, b, c, or null; after_h
// runs once H and its MSM are done (a pipeline starts the next proof's copies there).
// Returns the wall time of the prove() call, ms.
inline double prove_keeping_storage(const groth16::Parameters& params, const r1cs::Density& density,
                                    groth16::Witness& w, const groth16::Randomness& rs, groth16::ProverBackend& backend,
                                    groth16::ProofTimings* t, const groth16::AbcAhead* abc_ahead = nullptr,
                                    const std::function<void()>& after_h = {}) {
    r1cs::WitnessVector keep_a, keep_b, keep_c;
    groth16::ProveHooks hooks;
    hooks.abc_ahead = abc_ahead;
    hooks.abc_released = [&] {
        keep_a = std::move(w.a);
        keep_b = std::move(w.b);
        keep_c = std::move(w.c);
        if (after_h) after_h();
    };
    auto give_back = [&] {
        w.a = std::move(keep_a);
        w.b = std::move(keep_b);
        w.c = std::move(keep_c);
    };
    const auto t0 = Clock::now();
    try {
        (void)groth16::prove(params, density, std::move(w), rs, backend, t, &hooks);
    } catch (...) {
        give_back();
        throw;
    }
    const double ms = ms_since(t0);
    give_back();
    return ms;
}

// Proves `reps` + 1 times with w (prove_keeping_storage): refill(w) restores A·z, B·z, C·z
// before each proof (outside the timed region), after(w) may check it afterwards (throws),
// stop() is asked before each proof (a time bound).
template <class Refill, class After, class Stop>
void run_proofs(const groth16::Parameters& params, const r1cs::Density& density, groth16::Witness& w,
                groth16::ProverBackend& backend, int reps, uint64_t seed, double target_ms, Refill refill, After after,
                Stop stop, ProofSeries& out) {
    std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
    print_phases_header();
    for (int rep = 0; rep <= reps; ++rep) {
        if (stop()) {
            out.status = rep == 0 ? std::string("stopped before the first proof (--max-seconds)")
                                  : "stopped after " + std::to_string(rep - 1) + " of " + std::to_string(reps) +
                                        " timed proofs (--max-seconds)";
            say("  %s\n", out.status.c_str());
            break;
        }
        refill(w);
        const groth16::Randomness rs{Fr::random(rng), Fr::random(rng)};
        groth16::ProofTimings t;
        const double wall = prove_keeping_storage(params, density, w, rs, backend, &t);
        const Phases p = phases_from(t, wall);
        after(w);
        if (rep == 0) {
            out.first = p;
            out.have_first = true;
            print_phases_row("first", p, 0);
        } else {
            out.reps.push_back(p);
            char label[16];  // not "#" + std::to_string(): GCC 12's -Wrestrict misfires on it at -O3
            std::snprintf(label, sizeof label, "#%d", rep);
            print_phases_row(label, p, 0);
        }
    }
    if (!out.reps.empty()) {
        out.med = median_of(out.reps);
        print_phases_row("median", out.med, target_ms);
    }
}

// Page-locked witness buffers (gpu::host_register), unregistered before they are freed:
// the engine's buffer pool registers the a, b, c and aux vectors it recycles, so its
// proofs copy them to the device by DMA. Declare it after the vectors it registers.
class PinnedBuffers {
 public:
    PinnedBuffers(std::initializer_list<r1cs::WitnessVector*> vs, bool on) {
        if (!on) return;
        for (r1cs::WitnessVector* v : vs)
            if (v->capacity() && gpu::host_register(v->data(), v->capacity() * sizeof(Fr))) {
                pinned_.push_back(v->data());
                bytes_ += v->capacity() * sizeof(Fr);
            }
    }
    ~PinnedBuffers() {
        for (void* p : pinned_) gpu::host_unregister(p);
    }
    PinnedBuffers(const PinnedBuffers&) = delete;
    PinnedBuffers& operator=(const PinnedBuffers&) = delete;
    size_t buffers() const { return pinned_.size(); }
    size_t bytes() const { return bytes_; }

 private:
    std::vector<void*> pinned_;
    size_t bytes_ = 0;
};

}  // namespace cuzk::bench
