// Device field arithmetic throughput: the 32-bit PTX carry chains (cuzk/ff/mont_ptx.hpp,
// what Field uses on the device) against the portable 64-bit CIOS that the device used
// before, for Fp and Fr mul, square, add and sub. Each thread runs two interleaved
// dependent chains of `kIters` operations over values in registers (no memory traffic
// inside the loop); the grid fills the GPU several times over. Reported: operations per
// second (median of the repetitions, device events), and a summary table at the end.
// Also: four independent chains a thread ("x4 indep", the form of the sppark anchor), the
// modulus read from constant memory ("p cmem", "p0 cmem": its low limb only), and the
// rotating-accumulator multiply ("rot"), and Field's own operator* / square() ("Field":
// rot with p and -p^-1 read from constant memory, see field.hpp).
//   build/gpu/bench/cuzk_bench_gpu_field --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// H200 (G op/s, median of 15 launches; PTX / portable): Fp mul 27.1 / 17.2,
// Fp sqr 32.7 (mul(a, a): 27.0), Fp add 455 / 213, Fp sub 449 / 201; Fr mul 52.2 / 38.9,
// Fr sqr 59.2 (51.8), Fr add 673 / 349, Fr sub 698 / 326. SASS: the Fp mul is 277
// IMAD.WIDE.U32(.X) (one per 32x32 product pair of the chains) and ~60 other
// instructions; 27 G/s at 1.98 GHz is ~1240 cycles per warp-multiplication per
// scheduler, ~4.5 per wide multiply-add: the multiply pipe is the limit, as the model of
// shared/reference/gpu-msm-ntt.md section 5 assumes.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/shoup_ptx.hpp"
#include "gpu_timing.hpp"

namespace {

using cuzk::Fp;
using cuzk::Fr;
namespace ptx = cuzk::ff_detail::ptx;

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

constexpr int kIters = 256;
enum Op {
    kMulPtx,
    kMulPortable,
    kSqrPtx,
    kSqrAsMulPtx,
    kAddPtx,
    kAddPortable,
    kSubPtx,
    kSubPortable,
    kMulPtxConstMem,
    kMulPtxConstMemLimb0,
    kMulPtxRot,
    kMulField,
    kSqrField,
    kMulSubMulField,
    kMulShoup,      // Fr, x4 indep only: x_k <- x_k w_k by shoup_mul (the NTT's twiddle product)
    kWideImad,      // Fr-sized full products (no reduction), x4 indep: 32-bit IMAD (mul_words)
    kWideFp64,      // the same on the FP64 pipe (5 limbs of 52 bits, wide_fp64 below)
    kWideMixed,     // two chains of each in one thread: do the two pipes add up?
    kMulFp64,       // Field::mul_fp64: the Montgomery multiply on the FP64 pipe (mont_fp64.hpp)
    kMulMixed22,    // x4 indep only: chains 0-1 Field's multiply (IMAD), 2-3 mul_fp64
    kMulMixed31,    // x4 indep only: chains 0-2 IMAD, 3 FP64
    kMulShoupNp0,   // kMulShoup without the row of q (2^256 - r) whose word is 0 (np_zero_words)
    kMulShoupNp01,  // ... and the row of word 0 (2^32 - 1) as (q << 32) - q (np_word0_ones)
    kOps
};
const char* op_name(int op) {
    static const char* names[kOps] = {
        "mul ptx",   "mul portable",      "sqr ptx",          "sqr as mul ptx",  "add ptx",        "add portable",
        "sub ptx",   "sub portable",      "mul ptx p cmem",   "mul ptx p0 cmem", "mul ptx rot",    "mul Field",
        "sqr Field", "mul_sub_mul Field", "mul shoup",        "wide imad",       "wide fp64",      "wide imad+fp64",
        "mul fp64",  "mul imad2+fp64 2",  "mul imad3+fp64 1", "mul shoup np0",   "mul shoup np0+1"};
    return names[op];
}

// The modulus in constant memory, so that ptxas cannot fold its words into immediates:
// the Fr multiplication with immediates compiled its m p products to unfused IMAD.X +
// IMAD.HI.U32.X pairs (p's low limb is 2^32 (2^32 - 1) + 1), the Fp one to IMAD.WIDE.
__constant__ uint64_t c_fp_p[Fp::N] = {Fp::kP.l[0], Fp::kP.l[1], Fp::kP.l[2], Fp::kP.l[3], Fp::kP.l[4], Fp::kP.l[5]};
__constant__ uint64_t c_fr_p[Fr::N] = {Fr::kP.l[0], Fr::kP.l[1], Fr::kP.l[2], Fr::kP.l[3]};
template <class F>
__device__ __forceinline__ const uint64_t* const_modulus() {
    if constexpr (F::kBits == 381)
        return c_fp_p;
    else
        return c_fr_p;
}

template <class F, int OP>
__device__ __forceinline__ F apply(const F& x, const F& y) {
    constexpr typename F::Big p = F::kP;
    F r;
    if constexpr (OP == kMulPtx) {
        ptx::DeviceIsa isa;
        ptx::mont_mul<F::N>(isa, r.l, x.l, y.l, p.l, F::kInv);
    } else if constexpr (OP == kMulPtxConstMem) {
        ptx::DeviceIsa isa;
        ptx::mont_mul<F::N>(isa, r.l, x.l, y.l, const_modulus<F>(), F::kInv);
    } else if constexpr (OP == kMulPtxConstMemLimb0) {
        ptx::DeviceIsa isa;
        uint64_t q[F::N];
        q[0] = const_modulus<F>()[0];
#pragma unroll
        for (size_t i = 1; i < F::N; ++i) q[i] = p.l[i];
        ptx::mont_mul<F::N>(isa, r.l, x.l, y.l, q, F::kInv);
    } else if constexpr (OP == kMulPtxRot) {
        ptx::DeviceIsa isa;
        ptx::mont_mul_rot<F::N>(isa, r.l, x.l, y.l, p.l, F::kInv);
    } else if constexpr (OP == kMulField) {
        r = x * y;
    } else if constexpr (OP == kMulFp64) {
        r = F::mul_fp64(x, y);
    } else if constexpr (OP == kSqrField) {
        r = x.square();
    } else if constexpr (OP == kMulSubMulField) {  // x y - y y, one reduction for Fp (Field::mul_sub_mul)
        r = F::mul_sub_mul(x, y, y, y);
    } else if constexpr (OP == kMulPortable) {
        F::mul_portable(r, x, y);
    } else if constexpr (OP == kSqrPtx) {
        ptx::DeviceIsa isa;
        ptx::mont_sqr<F::N>(isa, r.l, x.l, p.l, F::kInv);
    } else if constexpr (OP == kSqrAsMulPtx) {
        ptx::DeviceIsa isa;
        ptx::mont_mul<F::N>(isa, r.l, x.l, x.l, p.l, F::kInv);
    } else if constexpr (OP == kAddPtx) {
        ptx::DeviceIsa isa;
        ptx::mod_add<F::N>(isa, r.l, x.l, y.l, p.l);
    } else if constexpr (OP == kAddPortable) {
        cuzk::ff_detail::mod_add<F::N>(r.l, x.l, y.l, p.l);
    } else if constexpr (OP == kSubPtx) {
        ptx::DeviceIsa isa;
        ptx::mod_sub<F::N>(isa, r.l, x.l, y.l, p.l);
    } else {
        cuzk::ff_detail::mod_sub<F::N>(r.l, x.l, y.l, p.l);
    }
    return r;
}

// Two chains per thread: x <- op(x, y), y <- op(y, x'), so neither can be skipped.
template <class F, int OP>
__global__ void __launch_bounds__(128) chain_kernel(F* v, size_t threads) {
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    F x = v[2 * t], y = v[2 * t + 1];
    for (int i = 0; i < kIters; ++i) {
        x = apply<F, OP>(x, y);
        y = apply<F, OP>(y, x);
    }
    v[2 * t] = x;
    v[2 * t + 1] = y;
}

// Four independent chains per thread, x_k <- x_k * y_k (the form of the sppark anchor,
// shared/reference/anchors-measured.md): the chain kernel above is one dependent chain (y
// waits for the new x), so it measures the multiply with no instruction-level parallelism
// inside a thread; this one shows what the scheduler gets from four.
template <class F, int OP>
__global__ void __launch_bounds__(128) independent_kernel(F* v, size_t threads) {
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    F x[4], y[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        x[k] = v[2 * t + (k & 1)];
        y[k] = v[2 * t + 1 - (k & 1)];
    }
    for (int i = 0; i < kIters; ++i) {
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            if constexpr (OP == kMulMixed22 || OP == kMulMixed31)
                x[k] = k < (OP == kMulMixed22 ? 2 : 3) ? x[k] * y[k] : F::mul_fp64(x[k], y[k]);
            else
                x[k] = apply<F, OP>(x[k], y[k]);
        }
    }
    v[2 * t] = (x[0] + x[1]) + (x[2] + x[3]);
}

// Four independent chains x_k <- x_k w_k with Shoup's product by a constant (shoup_ptx.hpp;
// w_k in standard form with w'_k = -w~_k r^-1 mod 2^256, made once a thread): against
// "Fr mul Field x4 indep", the same chains as Montgomery products.
__constant__ uint64_t c_fr_np[Fr::N];
template <uint32_t kNpZeroWords, bool kNpWord0Ones = false>
__global__ void __launch_bounds__(128) shoup_kernel(Fr* v, size_t threads, cuzk::BigInt<Fr::N> neg_inv) {
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    ptx::DeviceIsa isa;
    Fr x[4];
    cuzk::BigInt<Fr::N> w[4], wq[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        x[k] = v[2 * t + (k & 1)];
        const Fr y = v[2 * t + 1 - (k & 1)];
        w[k] = y.to_bigint();
        ptx::mul_low<Fr::N>(isa, wq[k].l, y.l, neg_inv.l);
    }
    for (int i = 0; i < kIters; ++i) {
#pragma unroll
        for (int k = 0; k < 4; ++k)
            ptx::shoup_mul<Fr::N, kNpZeroWords, kNpWord0Ones>(isa, x[k].l, x[k].l, w[k].l, wq[k].l, c_fr_p, c_fr_np);
    }
    v[2 * t] = (x[0] + x[1]) + (x[2] + x[3]);
}

// Full products of 255-bit numbers (no reduction) on the FP64 pipe against the IMAD one:
// on sm_90 both run 64 lanes a clock a SM on paper, so a multiplier that puts some
// partial products on the FP64 pipe might beat the IMAD rate. H200 (G/s):
// IMAD 113.1, FP64 114.6, two chains of each 121.1: the pipes barely add up (the
// Montgomery forms: "mul fp64" below and cuzk/ff/mont_fp64.hpp).
// Limbs of 52 bits held as doubles, split and summed as in cuzk/ff/mont_fp64.hpp (the
// two-FMA split of a limb product, bit patterns gathered with 64-bit integer adds and the
// constants taken off once per column).
namespace fp64 = cuzk::ff_detail::fp64;
struct F52 {
    double l[5];
};
// x < 2^256 in 4 64-bit words -> 5 limbs of 52 bits (the top one 48).
__device__ __forceinline__ F52 to_f52(const uint64_t* x) {
    F52 f;
#pragma unroll
    for (int k = 0; k < 5; ++k) f.l[k] = fp64::limb_to_double(fp64::bits_at<64, 4>(x, 52 * k, 52));
    return f;
}
// r = a b in 10 limbs of 52 bits (a, b < 2^260).
__device__ __forceinline__ void wide_fp64(uint64_t* r, const F52& a, const F52& b) {
    uint64_t col[10];
#pragma unroll
    for (int k = 0; k < 10; ++k) col[k] = 0;
#pragma unroll
    for (int i = 0; i < 5; ++i) {
#pragma unroll
        for (int j = 0; j < 5; ++j) {
            uint64_t hi, lo;
            fp64::product(a.l[i], b.l[j], hi, lo);
            col[i + j] += lo;
            col[i + j + 1] += hi;
        }
    }
    uint64_t carry = 0;
#pragma unroll
    for (int k = 0; k < 10; ++k) {
        const uint64_t n_lo = k <= 8 ? uint64_t(k <= 4 ? k + 1 : 9 - k) : 0;                   // products at column k
        const uint64_t n_hi = k >= 1 ? uint64_t(k - 1 <= 4 ? k : 10 - k) : 0;                  // ... at column k - 1
        const uint64_t v = col[k] - n_lo * fp64::kBits2p52 - n_hi * fp64::kBits2p104 + carry;  // mod 2^64: v < 2^57
        r[k] = v & fp64::kMask52;
        carry = v >> 52;
    }
}
// The next operand of a chain: the product's low 5 limbs xor its high 5 (below 2^260), so
// that every partial product is live (with the low half alone the compiler dropped the
// products above it: the first run, measured 36 of the 64 IMAD products).
__device__ __forceinline__ F52 fold_f52(const uint64_t* r) {
    F52 f;
#pragma unroll
    for (int k = 0; k < 5; ++k) f.l[k] = fp64::limb_to_double(r[k] ^ r[k + 5]);
    return f;
}

// Four independent chains a thread, x_k <- low half ^ high half of x_k y_k (kWideImad: 8 words; kWideFp64:
// 5 limbs; kWideMixed: chains 0-1 on IMAD, 2-3 on FP64).
template <int OP>
__global__ void __launch_bounds__(128) wide_kernel(Fr* v, size_t threads) {
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    ptx::DeviceIsa isa;
    uint32_t X[4][8], Y[4][8];
    F52 fx[4], fy[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const Fr x = v[2 * t + (k & 1)], y = v[2 * t + 1 - (k & 1)];
        ptx::split<Fr::N>(X[k], x.l);
        ptx::split<Fr::N>(Y[k], y.l);
        fx[k] = to_f52(x.l);
        fy[k] = to_f52(y.l);
    }
    constexpr int kImadChains = OP == kWideImad ? 4 : OP == kWideMixed ? 2 : 0;
    for (int i = 0; i < kIters; ++i) {
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            if (k < kImadChains) {
                uint32_t z[16];
                ptx::mul_words<8>(isa, z, X[k], Y[k]);
#pragma unroll
                for (int w = 0; w < 8; ++w) X[k][w] = z[w] ^ z[w + 8];  // both halves live
            } else {
                uint64_t r[10];
                wide_fp64(r, fx[k], fy[k]);
                fx[k] = fold_f52(r);
            }
        }
    }
    uint64_t fold = 0;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        if (k < kImadChains) {
#pragma unroll
            for (int w = 0; w < 8; ++w) fold ^= uint64_t(X[k][w]) << (32 * (w & 1));
        } else {
#pragma unroll
            for (int w = 0; w < 5; ++w) fold ^= uint64_t(__double_as_longlong(fx[k].l[w]));
        }
    }
    v[2 * t].l[0] = fold;
}

// Both products of pairs (v[2i], v[2i + 1]) for the check: 16 IMAD words, 10 FP64 limbs.
__global__ void wide_check_kernel(const Fr* v, size_t pairs, uint32_t* imad, uint64_t* fp64) {
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= pairs) return;
    ptx::DeviceIsa isa;
    uint32_t a[8], b[8];
    ptx::split<Fr::N>(a, v[2 * i].l);
    ptx::split<Fr::N>(b, v[2 * i + 1].l);
    ptx::mul_words<8>(isa, imad + 16 * i, a, b);
    wide_fp64(fp64 + 10 * i, to_f52(v[2 * i].l), to_f52(v[2 * i + 1].l));
}

// Runs wide_check_kernel on the first `pairs` pairs of d and throws unless the FP64
// products, reassembled from their 52-bit limbs, equal the IMAD ones.
void check_wide_products(const Fr* d, size_t pairs) {
    uint32_t* imad = nullptr;
    uint64_t* fp64 = nullptr;
    check(cudaMalloc(&imad, pairs * 16 * sizeof(uint32_t)), "cudaMalloc");
    check(cudaMalloc(&fp64, pairs * 10 * sizeof(uint64_t)), "cudaMalloc");
    wide_check_kernel<<<unsigned((pairs + 127) / 128), 128>>>(d, pairs, imad, fp64);
    check(cudaGetLastError(), "wide_check_kernel");
    std::vector<uint32_t> hi(pairs * 16);
    std::vector<uint64_t> hf(pairs * 10);
    check(cudaMemcpy(hi.data(), imad, hi.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost), "cudaMemcpy");
    check(cudaMemcpy(hf.data(), fp64, hf.size() * sizeof(uint64_t), cudaMemcpyDeviceToHost), "cudaMemcpy");
    cudaFree(imad);
    cudaFree(fp64);
    for (size_t i = 0; i < pairs; ++i) {
        uint32_t words[17] = {};  // the 520 bits of the limbs, 32 at a time
        for (int k = 0; k < 10; ++k)
            for (int b = 0; b < 52; ++b)
                if ((hf[10 * i + k] >> b) & 1) words[(52 * k + b) / 32] |= uint32_t(1) << ((52 * k + b) % 32);
        for (int w = 0; w < 16; ++w)
            if (words[w] != hi[16 * i + w])
                throw std::runtime_error("wide fp64 product differs from the IMAD one at pair " + std::to_string(i) +
                                         ", word " + std::to_string(w));
        if (words[16] != 0) throw std::runtime_error("wide fp64 product has bits above 2^512");
    }
    std::printf("check: %zu FP64 products equal the IMAD ones\n", pairs);
}

// Counts the pairs (v[2i], v[2i + 1]) where mul_fp64 differs from Field's multiply.
template <class F>
__global__ void mul_fp64_check_kernel(const F* v, size_t pairs, unsigned* bad) {
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < pairs && F::mul_fp64(v[2 * i], v[2 * i + 1]) != v[2 * i] * v[2 * i + 1]) atomicAdd(bad, 1u);
}
template <class F>
void check_mul_fp64(const F* d, size_t pairs) {
    unsigned* bad = nullptr;
    check(cudaMalloc(&bad, sizeof(unsigned)), "cudaMalloc");
    check(cudaMemset(bad, 0, sizeof(unsigned)), "cudaMemset");
    mul_fp64_check_kernel<F><<<unsigned((pairs + 127) / 128), 128>>>(d, pairs, bad);
    check(cudaGetLastError(), "mul_fp64_check_kernel");
    unsigned h = 0;
    check(cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost), "cudaMemcpy");
    cudaFree(bad);
    if (h != 0) throw std::runtime_error("mul_fp64 differs from Field's multiply on " + std::to_string(h) + " pairs");
    std::printf("check: %zu mul_fp64 products equal Field's\n", pairs);
}

std::map<std::string, std::vector<double>>& samples() {
    static std::map<std::string, std::vector<double>> s;
    return s;
}

// count operands on the device: 4096 random ones (seed 1) repeated. The caller frees them.
template <class F>
F* upload_operands(size_t count) {
    std::mt19937_64 rng(1);
    std::vector<F> h(count);
    for (size_t i = 0; i < std::min<size_t>(h.size(), 4096); ++i) h[i] = F::random(rng);
    for (size_t i = 4096; i < h.size(); ++i) h[i] = h[i % 4096];
    F* d = nullptr;
    check(cudaMalloc(&d, h.size() * sizeof(F)), "cudaMalloc");
    check(cudaMemcpy(d, h.data(), h.size() * sizeof(F), cudaMemcpyHostToDevice), "cudaMemcpy");
    return d;
}

// shoup_kernel's constants: 2^256 - r into c_fr_np; returns -r^-1 mod 2^256 (its neg_inv).
cuzk::BigInt<Fr::N> shoup_constants() {
    cuzk::BigInt<Fr::N> np{};
    cuzk::BigInt<Fr::N>::sub(np, cuzk::BigInt<Fr::N>::zero(), Fr::kP);
    check(cudaMemcpyToSymbol(c_fr_np, np.l, sizeof(np.l)), "cudaMemcpyToSymbol");
    return ptx::neg_inverse_mod_word_power<Fr::N>(Fr::kP);
}

template <class F, int OP, bool kIndependent = false>
void BM_Chain(benchmark::State& state) {
    try {
        int sms = 0;
        check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
        const size_t threads = size_t(sms) * 128 * 32;  // many waves: the tail does not matter
        F* d = upload_operands<F>(2 * threads);
        cuzk::bench_gpu::EventTimer timer;
        const unsigned blocks = unsigned(threads / 128);
        cuzk::BigInt<Fr::N> neg_inv{};
        if constexpr (OP == kMulShoup || OP == kMulShoupNp0 || OP == kMulShoupNp01) neg_inv = shoup_constants();
        const auto launch = [&] {
            if constexpr (OP == kMulShoup)
                shoup_kernel<0><<<blocks, 128>>>(reinterpret_cast<Fr*>(d), threads, neg_inv);
            else if constexpr (OP == kMulShoupNp0)
                shoup_kernel<ptx::np_zero_words<Fr::N>(Fr::kP)>
                    <<<blocks, 128>>>(reinterpret_cast<Fr*>(d), threads, neg_inv);
            else if constexpr (OP == kMulShoupNp01)
                shoup_kernel<ptx::np_zero_words<Fr::N>(Fr::kP), true>
                    <<<blocks, 128>>>(reinterpret_cast<Fr*>(d), threads, neg_inv);
            else if constexpr (OP >= kWideImad && OP <= kWideMixed)
                wide_kernel<OP><<<blocks, 128>>>(reinterpret_cast<Fr*>(d), threads);
            else if constexpr (kIndependent)
                independent_kernel<F, OP><<<blocks, 128>>>(d, threads);
            else
                chain_kernel<F, OP><<<blocks, 128>>>(d, threads);
        };
        if constexpr (OP == kWideFp64) check_wide_products(reinterpret_cast<const Fr*>(d), 4096);
        if constexpr (OP == kMulFp64) check_mul_fp64(d, 4096);
        const double ops_per_thread = kIndependent ? 4.0 * kIters : 2.0 * kIters;
        launch();  // warm-up
        check(cudaGetLastError(), "launch");
        check(cudaDeviceSynchronize(), "warm-up");
        const std::string key =
            std::string(F::kBits == 381 ? "Fp " : "Fr ") + op_name(OP) + (kIndependent ? " x4 indep" : "");
        for (auto _ : state) {
            const float ms = timer.ms(launch);
            state.SetIterationTime(ms / 1e3);
            samples()[key].push_back(double(threads) * ops_per_thread / (ms * 1e-3) / 1e9);
        }
        state.counters["ops"] = benchmark::Counter(double(threads) * ops_per_thread * double(state.iterations()),
                                                   benchmark::Counter::kIsRate);
        cudaFree(d);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}

#define CUZK_FIELD_BENCH(F, OP) \
    BENCHMARK(BM_Chain<F, OP>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond)
CUZK_FIELD_BENCH(Fp, kMulPtx);
CUZK_FIELD_BENCH(Fp, kMulPortable);
CUZK_FIELD_BENCH(Fp, kSqrPtx);
CUZK_FIELD_BENCH(Fp, kSqrAsMulPtx);
CUZK_FIELD_BENCH(Fp, kAddPtx);
CUZK_FIELD_BENCH(Fp, kAddPortable);
CUZK_FIELD_BENCH(Fp, kSubPtx);
CUZK_FIELD_BENCH(Fp, kSubPortable);
CUZK_FIELD_BENCH(Fr, kMulPtx);
CUZK_FIELD_BENCH(Fr, kMulPortable);
CUZK_FIELD_BENCH(Fr, kSqrPtx);
CUZK_FIELD_BENCH(Fr, kSqrAsMulPtx);
CUZK_FIELD_BENCH(Fr, kAddPtx);
CUZK_FIELD_BENCH(Fr, kAddPortable);
CUZK_FIELD_BENCH(Fr, kSubPtx);
CUZK_FIELD_BENCH(Fr, kSubPortable);
CUZK_FIELD_BENCH(Fp, kMulPtxConstMem);
CUZK_FIELD_BENCH(Fp, kMulPtxConstMemLimb0);
CUZK_FIELD_BENCH(Fr, kMulPtxConstMem);
CUZK_FIELD_BENCH(Fr, kMulPtxConstMemLimb0);
BENCHMARK(BM_Chain<Fp, kMulPtx, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fr, kMulPtx, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
CUZK_FIELD_BENCH(Fp, kMulPtxRot);
CUZK_FIELD_BENCH(Fr, kMulPtxRot);
CUZK_FIELD_BENCH(Fp, kMulField);
CUZK_FIELD_BENCH(Fr, kMulField);
CUZK_FIELD_BENCH(Fp, kSqrField);
CUZK_FIELD_BENCH(Fr, kSqrField);
CUZK_FIELD_BENCH(Fp, kMulSubMulField);
BENCHMARK(BM_Chain<Fr, kMulField, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fp, kMulField, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fp, kMulPtxRot, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fr, kMulPtxRot, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fr, kMulPtxConstMem, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fr, kMulShoup, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fr, kMulShoupNp0, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fr, kMulShoupNp01, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fr, kWideImad, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fr, kWideFp64, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fr, kWideMixed, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fp, kMulFp64, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fp, kMulMixed22, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fp, kMulMixed31, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fr, kMulFp64, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fr, kMulMixed22, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fr, kMulMixed31, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);

// The NTT's twiddle product at the NTT passes' occupancy: "Fr mul Shoup np0 x4 indep" with
// the resident blocks of 128 threads a SM limited to state.range(0) by dynamic shared
// memory (the register passes run 4 such blocks, 16 warps, at 128 registers a thread). If
// the rate at 4 falls well below the rate at 16, the passes' products are bound by their
// latency (too few warps to hide it), not by the multiply pipe.
void BM_ShoupAtOccupancy(benchmark::State& state) {
    try {
        const int per_sm = int(state.range(0));
        int sms = 0, smem_sm = 0;
        check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
        check(cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0),
              "cudaDeviceGetAttribute");
        constexpr uint32_t kZero = ptx::np_zero_words<Fr::N>(Fr::kP);
        // A block's share of the SM's shared memory, less the 1 KiB the runtime reserves a block.
        const int smem = smem_sm / per_sm - 1024;
        check(cudaFuncSetAttribute(shoup_kernel<kZero>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem),
              "cudaFuncSetAttribute");
        int resident = 0;
        check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, shoup_kernel<kZero>, 128, size_t(smem)),
              "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
        const size_t threads = size_t(sms) * 128 * 32;
        Fr* d = upload_operands<Fr>(2 * threads);
        const cuzk::BigInt<Fr::N> neg_inv = shoup_constants();
        const auto launch = [&] { shoup_kernel<kZero><<<unsigned(threads / 128), 128, smem>>>(d, threads, neg_inv); };
        launch();
        check(cudaGetLastError(), "launch");
        check(cudaDeviceSynchronize(), "warm-up");
        cuzk::bench_gpu::EventTimer timer;
        const std::string key = "Fr Shoup np0 x4, " + std::to_string(resident * 4) + " warps/SM";
        for (auto _ : state) {
            const float ms = timer.ms(launch);
            state.SetIterationTime(ms / 1e3);
            samples()[key].push_back(double(threads) * 4.0 * kIters / (ms * 1e-3) / 1e9);
        }
        state.counters["warps_per_sm"] = double(resident * 4);
        cudaFree(d);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}
// shoup_kernel's registers allow 3 blocks a SM at most (12 warps): 2 and 16 are the two
// distinct points (8 and 12 warps; H200: 74.4 and 76.1 G/s).
BENCHMARK(BM_ShoupAtOccupancy)->Arg(2)->Arg(16)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::printf("\n%-22s %12s %12s %6s\n", "gpu_field op", "median G/s", "max G/s", "runs");
    for (auto& [key, v] : samples()) {
        const auto sum = cuzk::bench_gpu::summarize(v);
        std::printf("%-22s %12.2f %12.2f %6zu\n", key.c_str(), sum.median, sum.max, sum.runs);
    }
    return 0;
}
