// Device NTT over Fr and Groth16's H (see include/cuzk/gpu/ntt.hpp).
//
// The field: this file is compiled twice, for BLS12-381's Fr (the transforms and Groth16's
// H) and, as ntt_bn254.cu (CUZK_NTT_BN254), for BN254's Fr (the transforms; the H
// functions, the twiddle lending and the process-wide settings are BLS12-381's alone). `Fr`
// below is that translation unit's field: the kernels, the __constant__ moduli and the
// per-device table caches are its own. Both are 4-limb fields with a spare top bit (BN254
// Fr has two), which the Shoup products and the lazy butterflies (values below 2p) need.
//
// Plan of one transform of n = 2^k (index arithmetic in ntt_plan.hpp), Impl::kFast:
//   1. bit-reversal permutation: from 2^11 on, the first pass of step 2 reads its input in
//      bit-reversed order (plan::gather_source) out of place into a pooled scratch buffer,
//      the last pass writing back; below that (one pass), without room for the buffer, or
//      for compute_h's quotient, in place (16 x 16 tiles through shared memory, tiles of
//      middle bits b and rev(b) swapped by one block). The coset shift a_i *= g^i of
//      coset_forward rides on whichever reads the input first. The gathering pass makes
//      forward 2^27 6% faster than a bit-reversal pass (H200). DIF passes that store to
//      bit-reversed positions instead were 4% slower (forward 2^27, H200).
//   2. the k radix-2 DIT stages in ceil(k/10) passes over memory (2^27: 9 + 9 + 9; the
//      shorter passes first: 2^24 6 + 9 + 9, plan::make_passes), each on tiles of up to
//      1024 elements: 8 elements per thread in registers, 3 stages per trip through shared
//      memory (reg_pass_kernel);
//   3. the inverses use the twiddles w^-j = -w^(n/2 - j) (same table, outputs swapped)
//      and scale by c s^i (c = n^-1, s = 1 or g^-1) as the last pass stores: no extra pass.
// compute_h keeps the coefficients in bit-reversed order between its iDFT and coset DFT
// (DIF passes natural -> bit-reversed, then DIT passes bit-reversed -> natural), so only
// its last coset iDFT has a bit-reversal pass, and that pass computes a b as it loads. Six
// transforms, not seven: c gets its iDFT alone, scaled by 1/Z and
// left bit-reversed by the DIF passes, and is subtracted from the coset iDFT of a b / Z by a
// tiled transposing pass (the coset iDFT is linear and undoes c's coset DFT;
// cuzk/ntt/domain.hpp).
// Impl::kReference runs the bit reversal with one pair per thread, then one kernel per
// stage, then for the inverses one pass that reverses a_j <-> a_{n-j} and scales: sum_j A_j
// w^(-ij) is forward(A) read at -i mod n, exactly as the CPU code does it. kFast takes this
// path too below 2^3, where a register pass has no room.
// Each butterfly of the register passes costs one Fr multiplication by Shoup's method
// (cuzk/ff/shoup_ptx.hpp: the twiddle's precomputed quotient, 72 against 60 G products/s
// for Montgomery's in the field bench) plus an addition and a subtraction, none in the
// transform's stage 0 (every twiddle w^0). The twiddle pairs w_n^j (j <= n/2) come from a
// per-size table in global memory, read through the L1 (bypassing it was 45% slower at
// 2^24: the tiles of a block and the blocks of an SM reuse the pairs).
// Powers s^i of the coset shifts are lo[i mod 1024] * hi[i / 1024] (two small tables per
// shift, 8 MiB in all), so a scaling costs 2 multiplications per element.
// Where the time goes: a 2^27 forward is 27 * 2^26 = 1.81e9 butterflies; loading and
// storing the elements is ~4% of it (a diagnostic build without them ran 2^27 in 28.8 ms
// against 30.1, H100), the rest the products, the butterflies' add/sub, the twiddle loads,
// the index arithmetic and the shared-memory exchanges, at 16 warps per SM (128 registers);
// the passes are bound by latency and issue as much as by the IMAD pipe (ncu). Measured
// (bench/RESULTS.md has the table): forward 2^24 3.32 ms, 2^27 29.5; coset_inverse 2^27
// 33.2; compute_h 2^27 207.6 (H100).
// Measured slower and not kept: the group of 3 stages as a loop on a constant-geometry
// register order (+8%), persistent passes with cp.async prefetches (+20%), the quotient on
// the FP64 pipe (+18%), the twiddle product as a __noinline__ call (+27%), L2 bulk prefetches
// of the next twiddles or inputs (+2%), tiles in column-major order (+3-5%).
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuzk/common/trace.hpp"
#include "cuzk/ff/shoup_ptx.hpp"
#include "cuzk/gpu/ntt.hpp"
#include "cuzk/gpu/testing.hpp"
#include "cuzk/ntt/domain.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "gpu/ntt/ntt_plan.hpp"

namespace cuzk::gpu::ntt {
namespace {

#ifdef CUZK_NTT_BN254
using Fr = bn254::Fr;
#else
using Fr = cuzk::Fr;
#endif
static_assert(Fr::N == 4 && Fr::kP.l[Fr::N - 1] < (uint64_t(1) << 63), "4 limbs, a spare top bit");

namespace cpu = cuzk::ntt;

constexpr unsigned kPowLoLog = 10;  // s^i = lo[i & 1023] * hi[i >> 10]
constexpr size_t kPowLo = size_t(1) << kPowLoLog;
constexpr size_t kPowHi = size_t(1) << (cpu::kMaxLogSize - kPowLoLog);
constexpr unsigned kThreads = 256;       // elementwise kernels
constexpr unsigned kMaxGrid = 1u << 20;  // grid-stride loops beyond this

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string("gpu::ntt: ") + what + ": " + cudaGetErrorString(e));
}
void check_launch(const char* kernel) { check(cudaGetLastError(), kernel); }

unsigned grid_for(size_t work, unsigned threads) {
    size_t g = (work + threads - 1) / threads;
    if (g == 0) g = 1;
    return unsigned(g < kMaxGrid ? g : kMaxGrid);
}

// --- kernels ------------------------------------------------------------------------

__device__ __forceinline__ void butterfly(Fr& x, Fr& y, const Fr& w) {
    const Fr t = y * w;
    y = x - t;
    x = x + t;
}

// The register passes' twiddle products: Shoup's multiplication by a constant with a
// precomputed quotient (cuzk/ff/shoup_ptx.hpp), from a table of pairs (w_j in standard
// form, w'_j = floor(w_j 2^256 / r)), 64 B a twiddle; forward 2^27 39.0 ms against 41.2 with
// Montgomery products from the 32-B table (H200). The reference path uses that table.

// r and 2^256 - r for shoup_mul, from constant memory (a compile-time modulus loses the
// fused multiply-adds, field.hpp's device_modulus says why).
constexpr cuzk::BigInt<Fr::N> neg_modulus() {
    cuzk::BigInt<Fr::N> r{};
    cuzk::BigInt<Fr::N>::sub(r, cuzk::BigInt<Fr::N>::zero(), Fr::kP);
    return r;
}
__constant__ cuzk::BigInt<Fr::N> shoup_p = Fr::kP;
__constant__ cuzk::BigInt<Fr::N> shoup_np = neg_modulus();

// The butterflies of the all-full register passes keep their values in [0, 2p) instead of
// [0, p) (shoup_ptx.hpp, the lazy butterflies): the product without its final subtraction,
// the sum and the difference modulo 2p (coset_inverse 2^27 35.0 ms against 36.2, H200).
// A lazy pass stores its values below 2p where the next pass of the same transform is lazy
// too, saving lazy_canonical's 17 instructions an element (forward 2^27 29.8 ms against
// 30.1, H100); the transform's last pass stores canonical values.
// 2p as immediates in the sums and differences (as Field's sums take p).
constexpr cuzk::BigInt<Fr::N> kTwiceModulus = Fr::kP2;

// Twiddle j of a register pass's table, loaded once for the butterflies that share it, and
// the product by it.
__device__ __forceinline__ Fr load_fr(const Fr* p);
struct Twiddle {
    Fr w;
    Fr wq;
};
__device__ __forceinline__ Twiddle load_twiddle(const Fr* __restrict__ tw, size_t j) {
    return Twiddle{load_fr(tw + 2 * j), load_fr(tw + 2 * j + 1)};
}
// The twiddles of a transform's stages 1 and 2 (in the group of stage 0: w_8^k, k = 1..3,
// the same field elements at every size) in the inverse DIT kernels, from constant memory
// filled from the first Shoup table a device builds (shoup_twiddles) instead of the table in
// global memory: coset_inverse 2^27 33.2 ms against 33.8 (H100). In the forward or DIF
// kernels ptxas spilled more with them and the forward transforms lost 0.3-0.8%.
__constant__ uint64_t first_group_pairs[3][2][Fr::N];  // w_8^k (standard form), w'
// Whether the kernels of this kind take them.
constexpr bool first_group_const(bool inverse, bool dif) { return inverse && !dif; }
// The pair of the forward twiddle w_8^k (the inverse's -w_8^-k = w_8^(4 - k), its outputs
// swapped as for any inverse twiddle: plan::tile_twiddle_position).
template <bool kInverse>
__device__ __forceinline__ Twiddle first_group_twiddle(unsigned k) {
    const unsigned at = (kInverse ? 4 - k : k) - 1;
    Twiddle t;
#pragma unroll
    for (unsigned l = 0; l < Fr::N; ++l) {
        t.w.l[l] = first_group_pairs[at][0][l];
        t.wq.l[l] = first_group_pairs[at][1][l];
    }
    return t;
}
// The Shoup products skip the row of q (2^256 - r) whose word is 0 (np_zero_words). Taking
// the row of np's word 0 (2^32 - 1) as (q << 32) - q (np_word0_ones) speeds the product alone
// but made forward 2^27 6% slower (more spills), so kOnes is off.
__device__ __forceinline__ Fr mul_twiddle(const Fr& y, const Twiddle& t) {
    ff_detail::ptx::DeviceIsa isa;
    Fr r;
    constexpr uint32_t kZero = ff_detail::ptx::np_zero_words<Fr::N>(Fr::kP);
    constexpr bool kOnes = false;
    ff_detail::ptx::shoup_mul<Fr::N, kZero, kOnes>(isa, r.l, y.l, t.w.l, t.wq.l, shoup_p.l, shoup_np.l);
    return r;
}

// out[k] = s^(k step) for k < count (one exponentiation per entry; tables only).
__global__ void powers_kernel(Fr* out, size_t count, Fr s, uint64_t step) {
    for (size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x; k < count; k += size_t(gridDim.x) * blockDim.x)
        out[k] = s.pow(uint64_t(k) * step);
}

// out[j] = lo[j mod 1024] * hi[j / 1024] * c (c folded in when given).
__global__ void combine_kernel(Fr* out, size_t count, const Fr* lo, const Fr* hi) {
    for (size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x; j < count; j += size_t(gridDim.x) * blockDim.x)
        out[j] = lo[j & (kPowLo - 1)] * hi[j >> kPowLoLog];
}

// out[2j] = w_j in standard form, out[2j+1] = w'_j = -w~_j r^-1 mod 2^256 (= floor(w_j 2^256 /
// r): shoup_ptx.hpp) from w~_j, w_j in Montgomery form.
// w~_j = lo[j mod 1024] * hi[j / 1024] made here: no Montgomery table beside the pairs (2 GiB
// at 2^27 while the table was built).
// Slot j's pair at plan::twiddle_position(j, log_n).
__global__ void shoup_table_kernel(Fr* out, const Fr* lo, const Fr* hi, size_t count, cuzk::BigInt<Fr::N> neg_inv,
                                   unsigned log_n) {
    for (size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x; j < count; j += size_t(gridDim.x) * blockDim.x) {
        const Fr w = lo[j & (kPowLo - 1)] * hi[j >> kPowLoLog];
        ff_detail::ptx::DeviceIsa isa;
        Fr wq;
        ff_detail::ptx::mul_low<Fr::N>(isa, wq.l, w.l, neg_inv.l);
        const size_t at = plan::twiddle_position(j, log_n);
        out[2 * at] = Fr::from_raw_montgomery(w.to_bigint());  // the standard form's limbs as they are
        out[2 * at + 1] = wq;
    }
}

__global__ void scale_table_kernel(Fr* out, const Fr* in, size_t count, Fr c) {
    for (size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x; j < count; j += size_t(gridDim.x) * blockDim.x)
        out[j] = in[j] * c;
}

// The factor c s^i of a scaling pass: lo/hi_c given (hi_c already multiplied by c), or
// the constant c alone (s = 1).
struct Scale {
    const Fr* lo;           // s^i, i < 1024; nullptr for s = 1
    const Fr* hi_c;         // c s^(1024 k)
    Fr c;                   // used when lo is nullptr
    bool none;              // no scaling at all
    unsigned rev_bits = 0;  // > 0: element i is scaled by c s^rev(i) (bit-reversed order of log n bits)
};
__device__ __forceinline__ Fr scaled(const Scale& sc, size_t i, const Fr& x) {
    if (sc.none) return x;
    if (sc.lo == nullptr) return x * sc.c;
    if (sc.rev_bits) i = plan::reverse_bits(uint32_t(i), sc.rev_bits);
    return x * sc.lo[i & (kPowLo - 1)] * sc.hi_c[i >> kPowLoLog];
}

// The register passes' scaling out of line: one copy called from the 16 load / store sites
// instead of 16 inlined copies of ~550 instructions (two thirds of the pass kernel's code,
// on no pass's butterfly path); with the all-full kernels it spills 12-24 B a thread in the
// DIT kernels instead of 20-160, and coset_forward 2^27 ran 35.6 ms against 37.5 (H200).
__device__ __noinline__ Fr scaled_call(Scale sc, size_t i, Fr x) { return scaled(sc, i, x); }
__device__ __forceinline__ Fr pass_scaled(const Scale& sc, size_t i, const Fr& x) {
    return sc.none ? x : scaled_call(sc, i, x);
}

// Fr through 16-byte accesses (device buffers are cudaMalloc'd, Fr 32-byte strided).
__device__ __forceinline__ Fr load_fr(const Fr* p) {
    const ulonglong2* q = reinterpret_cast<const ulonglong2*>(p);
    const ulonglong2 lo = q[0], hi = q[1];
    Fr x;
    x.l[0] = lo.x;
    x.l[1] = lo.y;
    x.l[2] = hi.x;
    x.l[3] = hi.y;
    return x;
}
__device__ __forceinline__ void store_fr(Fr* p, const Fr& x) {
    ulonglong2* q = reinterpret_cast<ulonglong2*>(p);
    q[0] = make_ulonglong2(x.l[0], x.l[1]);
    q[1] = make_ulonglong2(x.l[2], x.l[3]);
}

// The register passes store their elements with st.global.cs (evict first in L2), leaving
// more of the L2 to the twiddle pairs, which are reused (the elements are read once by the
// next pass): forward 2^20-2^24 1-4% faster, 2^27 0.5% (H100). Evict-first loads, loads
// that skip L1 and evict-last twiddle loads were flat or slower.
__device__ __forceinline__ void store_fr_pass(Fr* p, const Fr& x) {
    ulonglong2* q = reinterpret_cast<ulonglong2*>(p);
    __stcs(q, make_ulonglong2(x.l[0], x.l[1]));
    __stcs(q + 1, make_ulonglong2(x.l[2], x.l[3]));
}

// Bit-reversal permutation with an optional scaling by c s^i of the element that starts
// at index i (i.e. the coset shift happens before the permutation, as on the CPU).
__global__ void bitrev_kernel(Fr* a, unsigned log_n, Scale sc) {
    const size_t n = size_t(1) << log_n;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        const size_t r = plan::reverse_bits(uint32_t(i), log_n);
        if (i < r) {
            const Fr x = a[i], y = a[r];
            a[r] = scaled(sc, i, x);
            a[i] = scaled(sc, r, y);
        } else if (i == r) {
            a[i] = scaled(sc, i, a[i]);
        }
    }
}

// The same by 16 x 16 tiles (log n >= 8; plan::rev_tile_index): block b swaps the tiles of
// middle bits b and rev(b) (b <= rev(b); the others return at once), both read and
// written in runs of 16 consecutive elements through shared memory. The one-pair-a-thread
// kernel above reads a[rev(i)] scattered: ~0.85 ms at 2^24 on the H200, 1.2 TB/s.
// With ab_b (compute_h's quotient): a_i b_i is what gets moved, the product folded into the
// permutation's loads instead of a pass of its own over a and b (ab_kernel).
__global__ void __launch_bounds__(256) bitrev_tiled_kernel(Fr* a, unsigned log_n, Scale sc, const Fr* ab_b) {
    constexpr unsigned kSide = 1u << plan::kRevLog;
    __shared__ uint64_t sh[2][Fr::N][kSide][kSide + 1];  // +1: column reads spread over banks
    const unsigned m = log_n - 2 * plan::kRevLog;
    const size_t b = blockIdx.x;
    const size_t rb = plan::reverse_bits(uint32_t(b), m);
    if (rb < b) return;
    const size_t mid[2] = {b, rb};
    const unsigned tiles = rb == b ? 1 : 2, t = threadIdx.x;
    for (unsigned k = 0; k < tiles; ++k) {
        const size_t i = plan::rev_tile_index(log_n, mid[k], t);
        Fr x = load_fr(a + i);
        if (ab_b) x = x * load_fr(ab_b + i);
        x = scaled(sc, i, x);
#pragma unroll
        for (unsigned l = 0; l < Fr::N; ++l) sh[k][l][t >> plan::kRevLog][t & (kSide - 1)] = x.l[l];
    }
    __syncthreads();
    const unsigned src = plan::rev_tile_source(t);
    for (unsigned k = 0; k < tiles; ++k) {
        Fr y;
#pragma unroll
        for (unsigned l = 0; l < Fr::N; ++l) y.l[l] = sh[k][l][src >> plan::kRevLog][src & (kSide - 1)];
        store_fr(a + plan::rev_tile_index(log_n, mid[tiles - 1 - k], t), y);
    }
}

// a <- its bit reversal, pre-scaled; with b (log n >= 2 kRevLog) a_i b_i first.
void launch_bitrev(Fr* a, unsigned log_n, const Scale& pre, cudaStream_t stream, const Fr* b = nullptr) {
    if (log_n >= 2 * plan::kRevLog) {
        bitrev_tiled_kernel<<<1u << (log_n - 2 * plan::kRevLog), 1u << (2 * plan::kRevLog), 0, stream>>>(a, log_n, pre,
                                                                                                         b);
        check_launch("bitrev_tiled_kernel");
    } else {
        if (b) throw std::logic_error("gpu::ntt: a b needs the tiled bit reversal");  // internal use only
        bitrev_kernel<<<grid_for(size_t(1) << log_n, kThreads), kThreads, 0, stream>>>(a, log_n, pre);
        check_launch("bitrev_kernel");
    }
}

// a_j <-> a_{(n-j) mod n} (when `reverse`), then a_i *= c s^i.
__global__ void reverse_scale_kernel(Fr* a, size_t n, bool reverse, Scale sc) {
    const size_t work = reverse ? n / 2 + 1 : n;
    for (size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x; j < work; j += size_t(gridDim.x) * blockDim.x) {
        const size_t k = reverse ? (n - j) & (n - 1) : j;
        if (k == j) {
            a[j] = scaled(sc, j, a[j]);
        } else {
            const Fr x = a[j], y = a[k];
            a[j] = scaled(sc, j, y);
            a[k] = scaled(sc, k, x);
        }
    }
}

// One radix-2 DIT stage (the reference path): n/2 butterflies.
__global__ void stage_kernel(Fr* a, unsigned log_n, unsigned log_h, const Fr* __restrict__ tw) {
    const size_t half = size_t(1) << (log_n - 1);
    for (size_t q = size_t(blockIdx.x) * blockDim.x + threadIdx.x; q < half; q += size_t(gridDim.x) * blockDim.x) {
        size_t x, y, t;
        plan::stage_butterfly(log_n, log_h, q, x, y, t);
        butterfly(a[x], a[y], tw[t]);
    }
}

// DIT butterfly with twiddle w_n^j (kInverse: w_n^-j), j < n/2 from the table; `one`: w = 1,
// no multiplication. The inverse needs no second table: w^-j = w^(n/2) w^(n/2 - j) =
// -w^(n/2 - j) for 0 < j < n/2, and negating w just swaps the two outputs (the table
// position of w_n^j or -w_n^-j: plan::tile_twiddle_position).
// The lazy butterflies (values in [0, 2p): shoup_ptx.hpp): DIT, or Gentleman-Sande with kDif.
template <bool kInverse, bool kDif>
__device__ __forceinline__ void lazy_butterfly(Fr& x, Fr& y, bool one, const Twiddle& w) {
    constexpr uint32_t kZero = ff_detail::ptx::np_zero_words<Fr::N>(Fr::kP);
    constexpr bool kOnes = false;
    constexpr cuzk::BigInt<Fr::N> p2 = kTwiceModulus;
    ff_detail::ptx::DeviceIsa isa;
    if constexpr (kDif)
        ff_detail::ptx::lazy_dif_butterfly<Fr::N, kZero, kOnes>(isa, x.l, y.l, one, kInverse, w.w.l, w.wq.l, shoup_p.l,
                                                                shoup_np.l, p2.l);
    else
        ff_detail::ptx::lazy_dit_butterfly<Fr::N, kZero, kOnes>(isa, x.l, y.l, one, kInverse, w.w.l, w.wq.l, shoup_p.l,
                                                                shoup_np.l, p2.l);
}
template <bool kInverse, bool kLazy = false>
__device__ __forceinline__ void butterfly_j(Fr& x, Fr& y, bool one, const Twiddle& w) {
    if constexpr (kLazy) return lazy_butterfly<kInverse, false>(x, y, one, w);
    if (one) {
        const Fr t = y;
        y = x - t;
        x = x + t;
        return;
    }
    const Fr t = mul_twiddle(y, w);
    if (kInverse) {
        y = x + t;
        x = x - t;
    } else {
        y = x - t;
        x = x + t;
    }
}

// Its transpose (Gentleman-Sande): (x, y) <- (x + y, w (x - y)), for the DIF order.
template <bool kInverse, bool kLazy = false>
__device__ __forceinline__ void butterfly_gs_j(Fr& x, Fr& y, bool one, const Twiddle& w) {
    if constexpr (kLazy) return lazy_butterfly<kInverse, true>(x, y, one, w);
    const Fr d = kInverse && !one ? y - x : x - y;  // w^-j = -w^(n/2 - j)
    x = x + y;
    y = one ? d : mul_twiddle(d, w);
}

// One pass of the register-blocked path (ntt_plan.hpp, "register-blocked passes"): one
// block of 2^(L-3) threads per tile of 2^L elements, 8 elements per thread, groups of
// <= 3 stages in registers, limb-major shared memory between groups.
// kDif: the transposed pass (groups and stages in reverse order, Gentleman-Sande
// butterflies with the same twiddles). The DFT matrix is symmetric, so with F = S_{k-1}..
// S_0 P (DIT after the bit reversal P), F = F^T = P S_0^T .. S_{k-1}^T: running the
// transposed stages from the last to the first takes natural order to bit-reversed.
// `pre` scales the inputs as they are loaded, `post` the outputs as they are stored (i:
// global index, or its bit reversal when the Scale says so); callers pass them to the
// first / last pass only.
// The register passes' twiddle indices in 32-bit arithmetic (exact for n <= 2^32,
// plan::tile_twiddle): the passes are close to issue-bound (ncu: 276 warp instructions a
// warp-butterfly, 108 of them multiplies), and size_t indices made forward 2^27 0.5% slower.
using TwiddleIndex = uint32_t;
// Only the transform's stage 0 (every twiddle w^0, a uniform branch) skips its products; the
// other butterflies multiply, by the table's slot 0 (1) or n/2 (-1) where their twiddle is
// w^0, so a stage's butterflies are straight-line code that ptxas interleaves (two products
// in flight a thread), at ~1/log n more products; branching on each twiddle index instead was
// 3-5% slower (forward 2^24 3.83 against 4.01 ms, H200).
// A group of 3 stages (its register bits are its stage bits, in order) takes a straight-line
// path of its own (full_group), chosen by a uniform branch: no per-stage "is this a stage bit"
// test or stage-0 branch, so the group is one basic block and ptxas may issue a stage's
// twiddle loads during the stage before. The group holding the transform's stage 0 (first
// pass, lh0 = 0) skips stage 0's products and those of stages 1 and 2 whose twiddle is w^0
// (the jl = 0 butterflies), 3 of a thread's 8 products there. With the whole-group plan
// (ntt_plan.hpp) compute_h 2^27 ran 221.5 ms against 229.9 on the generic path (H200).
// Passes whose groups are all full (s a multiple of 3: 2^24's 6 + 9 + 9, 2^27's 9 + 9 + 9)
// run kernels compiled without the generic group path (kAllFull): ptxas spills less there
// (forward 2^24 3.66 ms against 3.79, H200), and they run the lazy butterflies (values below
// 2p; in the generic kernels ptxas spilled 250-1200 B a thread with them).
// In those kernels the DIT stage 0 (w^0 everywhere) runs on the elements just loaded, which
// are canonical (below p: the transform's input, or its scaling), so its sums and differences
// go to [0, 2p) without a comparison (ff_detail::ptx::canonical_one_dit_butterfly): ~27
// instructions fewer a butterfly; forward 2^27 29.5 ms against 29.7 (H100).
// The butterflies of register bit i that share one twiddle t: the kRegElems / 2^(i+1) pairs
// (j, j + 2^i) whose bits of j below i are jl (DIT, or Gentleman-Sande with kDif).
template <bool kInverse, bool kDif, bool kLazy = false>
__device__ __forceinline__ void twiddle_butterflies(Fr (&x)[plan::kRegElems], unsigned i, unsigned jl, bool one,
                                                    const Twiddle& t) {
#pragma unroll
    for (unsigned jh = 0; jh < (plan::kRegElems >> (i + 1)); ++jh) {
        const unsigned j = jl | (jh << (i + 1));
        if (kDif)
            butterfly_gs_j<kInverse, kLazy>(x[j], x[j | (1u << i)], one, t);
        else
            butterfly_j<kInverse, kLazy>(x[j], x[j | (1u << i)], one, t);
    }
}

// The twiddle of stage u (register bit i) for the elements whose bits below i are jl; in the
// group of stage 0 (kFirst: u = i) w_n^(jl n / 2^(i+1)) = w_8^(jl 2^(2-i)), from constant
// memory in the inverse DIT kernels (first_group_const).
template <bool kInverse, bool kDif, bool kFirst>
__device__ __forceinline__ Twiddle group_twiddle(const Fr* __restrict__ tw, unsigned log_n, const plan::Pass& p,
                                                 TwiddleIndex r0, unsigned u, unsigned i, unsigned jl,
                                                 const plan::RegBits& rb, unsigned e0) {
    if constexpr (kFirst && first_group_const(kInverse, kDif)) return first_group_twiddle<kInverse>(jl << (2 - i));
    (void)i;
    return load_twiddle(tw, plan::tile_twiddle_position<kInverse>(log_n, p, r0, u, plan::group_element(rb, e0, jl)));
}

// The 3 stages u0, u0 + 1, u0 + 2 of a full group on a thread's 8 elements (register bit
// i = stage u0 + i); kFirst: u0 = 0 in the first pass (lh0 = log_c = 0, r0 = 0), where
// stage 0 and the jl = 0 butterflies of stages 1 and 2 have twiddle w^0.
template <bool kInverse, bool kDif, bool kFirst, bool kLazy = false>
__device__ __forceinline__ void full_group(Fr (&x)[plan::kRegElems], unsigned log_n, const plan::Pass& p,
                                           TwiddleIndex r0, unsigned u0, const plan::RegBits& rb, unsigned e0,
                                           const Fr* __restrict__ tw) {
#pragma unroll
    for (unsigned ii = 0; ii < plan::kRegLog; ++ii) {
        const unsigned i = kDif ? plan::kRegLog - 1 - ii : ii;
        const unsigned u = u0 + i;
        // Stage 0 of a DIT pass comes first, on the loaded (canonical) elements.
        if (kFirst && kLazy && !kDif && i == 0) {
            constexpr cuzk::BigInt<Fr::N> kp = Fr::kP;
            ff_detail::ptx::DeviceIsa isa;
#pragma unroll
            for (unsigned j = 0; j < plan::kRegElems; j += 2)
                ff_detail::ptx::canonical_one_dit_butterfly<Fr::N>(isa, x[j].l, x[j + 1].l, kp.l);
            continue;
        }
#pragma unroll
        for (unsigned jl = 0; jl < (1u << i); ++jl) {
            const bool one = kFirst && (i == 0 || jl == 0);  // compile-time: w^0
            Twiddle t{};
            if (!one) t = group_twiddle<kInverse, kDif, kFirst>(tw, log_n, p, r0, u, i, jl, rb, e0);
            twiddle_butterflies<kInverse, kDif, kLazy>(x, i, jl, one, t);
        }
    }
}

// Block shapes. A tile of 2^L elements has 2^(L-3) threads (8 elements each: 4 a thread
// was 15% slower at 2^27, 16 a thread 2.4x slower, H200). Small tiles share a block
// (launch_reg_pass) up to the 1024-element tile's block, 2^kSharedBlockLog = 128 threads;
// wide blocks, 2^kWideBlockLog = 256 threads (two 1024-element tiles, four of 512, ...), from
// 2^kWideBlocksFromLog on, and in the gathering passes that scale nothing as they load (the
// forward, the inverse and coset inverse, whose scaling is on the last pass): their tiles'
// neighbouring elements then come in 128-byte runs, one L2 line (forward 2^27 32.3 ms
// against 32.7 with narrow blocks, H100). 256 threads at every size were slower (forward
// 2^27 33.6 ms against 34.4 narrow, H200), 512 slower still.
constexpr unsigned kSharedBlockLog = plan::kTileLog - plan::kRegLog;
constexpr unsigned kWideBlockLog = kSharedBlockLog + 1;
constexpr unsigned kWideBlocksFromLog = 28;
constexpr unsigned kRegPassThreadsLog = kWideBlockLog;
static_assert(kRegPassThreadsLog <= 9, "512 threads a block at most (128 registers a thread)");
// Launch bounds: 2 blocks of 2^kRegPassThreadsLog threads a SM, i.e. ptxas capped at 128
// registers (16 warps a SM; the branch-free butterflies spill 8-24 B a thread under it).
// Without the cap ptxas took 166 registers and forward 2^27 ran 46.8 ms against 34.4 (H200);
// 5 or 6 blocks a SM (96 / 80 registers) were 2-12% slower.
#define CUZK_REG_PASS_BOUNDS __launch_bounds__(1u << kRegPassThreadsLog, 2)
// How a pass maps its tiles' elements to memory: in place, or for the natural -> natural
// transforms without a bit-reversal pass, through the bit reversal as it loads.
//   kGather: the first DIT pass loads permuted element g from src[rev(g)]
//     (plan::gather_source), `pre` scaling by that source index. The tiles run in the
//     order of plan::gather_tile (the runs of consecutive addresses span a block's tiles)
//     and dst must not overlap src.
enum class Remap { kNone, kGather };

// src, dst: where the pass loads and stores (the same buffer except around a gathering
// pass; Remap above).
// kAllFull: every group of the pass is full (launch_reg_pass checks it), so the kernel has
// no generic path and runs the lazy butterflies.
template <bool kInverse, bool kDif, Remap kRemap = Remap::kNone, bool kAllFull = false>
__global__ void CUZK_REG_PASS_BOUNDS reg_pass_kernel(const Fr* src, Fr* dst, unsigned log_n, plan::Pass p,
                                                     const Fr* __restrict__ tw, Scale pre, Scale post, bool lazy_out) {
    constexpr bool kGather = kRemap == Remap::kGather;
    // The lazy butterflies in the kernels without the generic group path only: in the
    // generic ones ptxas spilled 250-1200 B a thread with them (against 12-36 B).
    constexpr bool kLazy = kAllFull;
    static_assert(!(kGather && kDif), "the gathering pass is the first DIT pass");
    // Limb-major tile, sized by the launch to this pass's tile (elems x 32 B): a first pass
    // of 256-element tiles with a fixed 32 KiB ran 6 warps a SM (shared-memory bound).
    extern __shared__ uint64_t shared_tiles[];
    const unsigned elems = 1u << plan::tile_log(p);
    // Tiles under 1024 elements come several to a block (launch_reg_pass), thread f of
    // tile k being thread f + k 2^(tile_log - 3) of the block (but where interleaved, below),
    // each tile in its own part of shared memory.
    // The DIT kernels key their tiles' slots (plan::smem_tile_key: where a half warp spans
    // two tiles, the odd tile's slots XORed with 12 against a 2-way bank conflict on every
    // exchange) and, in the all-full gathering kernel, interleave their threads over its
    // tiles (plan::block_thread: a warp's gather loads then cover 8 rows of 2 or 4 tiles'
    // consecutive elements instead of 32 rows of one tile's); together forward 2^27 30.3 ms
    // against 31.0 (H100). Not in the generic gathering kernel, where ptxas then spilled 116 B
    // a thread instead of 20. The DIF kernels keep the plain layout: with the key, ptxas
    // spilled 212 instead of 136 B a thread in the inverse all-full DIF kernel, and compute_h
    // 2^27 lost 0.7% (H100).
    constexpr bool kInterleave = kGather && kAllFull;
    const unsigned threads_log = plan::tile_log(p) - plan::kRegLog;
    const unsigned tiles_log = unsigned(__ffs(int(blockDim.x))) - 1 - threads_log;
    unsigned f, tile_in_block;
    plan::block_thread(threadIdx.x, threads_log, tiles_log, kInterleave, tile_in_block, f);
    const unsigned key = !kDif ? plan::smem_tile_key(tile_in_block, threads_log, tiles_log, kInterleave) : 0;
    const size_t v = (size_t(blockIdx.x) << tiles_log) + tile_in_block;
    const size_t tile = kRemap != Remap::kNone ? plan::gather_tile(log_n, p, v) : v;
    uint64_t* sh = shared_tiles + size_t(tile_in_block) * Fr::N * elems;
    const size_t base = plan::tile_base(p, tile);
    const size_t r0 = plan::tile_r0(p, tile);
    const unsigned ng = plan::group_count(p);
    Fr x[plan::kRegElems];
    for (unsigned step = 0; step < ng; ++step) {
        const unsigned g = kDif ? ng - 1 - step : step;
        const plan::RegBits rb = plan::group_bits(p, g);
        const unsigned e0 = plan::thread_base(p, rb, f);
        if (step == 0) {
#pragma unroll
            for (unsigned j = 0; j < plan::kRegElems; ++j) {
                const size_t gi = base + plan::tile_offset(p, plan::group_element(rb, e0, j));
                const size_t si = kGather ? plan::gather_source(log_n, gi) : gi;
                x[j] = pass_scaled(pre, si, load_fr(src + si));
            }
        } else {
            __syncthreads();  // the previous group's stores are visible
#pragma unroll
            for (unsigned j = 0; j < plan::kRegElems; ++j) {
                const unsigned slot = plan::smem_slot(plan::group_element(rb, e0, j)) ^ key;
#pragma unroll
                for (unsigned l = 0; l < Fr::N; ++l) x[j].l[l] = sh[l * elems + slot];
            }
        }
        unsigned u0, r;
        plan::group_stages(p, g, u0, r);
        const bool full = kAllFull || r == plan::kRegLog;  // uniform
        if (full) {
            if (p.lh0 + u0 == 0)
                full_group<kInverse, kDif, true, kLazy>(x, log_n, p, TwiddleIndex(r0), u0, rb, e0, tw);
            else
                full_group<kInverse, kDif, false, kLazy>(x, log_n, p, TwiddleIndex(r0), u0, rb, e0, tw);
        }
        if (!kAllFull && !full) {
#pragma unroll
            for (unsigned ii = 0; ii < plan::kRegLog; ++ii) {
                const unsigned i = kDif ? plan::kRegLog - 1 - ii : ii;
                const unsigned b = rb.pos[i];
                if (b < p.log_c + u0 || b >= p.log_c + u0 + r) continue;  // not a stage bit
                const unsigned u = b - p.log_c;
                // A butterfly's twiddle depends only on the tile-index bits below its stage bit
                // b (tile_twiddle), i.e. on the bits of j below i: one load per value jl of
                // those, shared by the kRegElems / 2^(i+1) butterflies that have it (a group of
                // 3 stages loads 1 + 2 + 4 twiddles for its 12 butterflies).
                if (p.lh0 + u == 0) {  // the transform's stage 0: every twiddle is w^0 (uniform branch)
#pragma unroll
                    for (unsigned j = 0; j < plan::kRegElems; ++j) {
                        if (j & (1u << i)) continue;
                        if (kDif)
                            butterfly_gs_j<kInverse>(x[j], x[j | (1u << i)], true, Twiddle{});
                        else
                            butterfly_j<kInverse>(x[j], x[j | (1u << i)], true, Twiddle{});
                    }
                    continue;
                }
#pragma unroll
                for (unsigned jl = 0; jl < (1u << i); ++jl) {
                    const unsigned e = plan::group_element(rb, e0, jl);
                    // w^0 multiplies too: by slot 0 (1), or for the inverse by slot n/2 (w^(n/2) =
                    // -1, its outputs swapped), so no butterfly branches on its data.
                    const Twiddle t =
                        load_twiddle(tw, plan::tile_twiddle_position<kInverse>(log_n, p, TwiddleIndex(r0), u, e));
                    twiddle_butterflies<kInverse, kDif>(x, i, jl, false, t);
                }
            }
        }
        if (step + 1 == ng) {
#pragma unroll
            for (unsigned j = 0; j < plan::kRegElems; ++j) {
                const size_t gi = base + plan::tile_offset(p, plan::group_element(rb, e0, j));
                // Canonical unless the next pass is lazy too (lazy_out, uniform; launch_reg_pass).
                if (kLazy && !lazy_out) {
                    ff_detail::ptx::DeviceIsa isa;
                    constexpr cuzk::BigInt<Fr::N> p = Fr::kP;
                    ff_detail::ptx::lazy_canonical<Fr::N>(isa, x[j].l, x[j].l, p.l);
                }
                store_fr_pass(dst + gi, pass_scaled(post, gi, x[j]));
            }
        } else {
            if (step > 0) __syncthreads();  // every thread has read this group's values
#pragma unroll
            for (unsigned j = 0; j < plan::kRegElems; ++j) {
                const unsigned slot = plan::smem_slot(plan::group_element(rb, e0, j)) ^ key;
#pragma unroll
                for (unsigned l = 0; l < Fr::N; ++l) sh[l * elems + slot] = x[j].l[l];
            }
        }
    }
}

// a_i <- a_i b_i.
__global__ void ab_kernel(Fr* a, const Fr* b, size_t n) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        a[i] = a[i] * b[i];
}

// a_i <- a_i - c_j with j = i, or j = rev(i) (log n bits) when rev_bits > 0.
__global__ void subtract_kernel(Fr* a, const Fr* c, size_t n, unsigned rev_bits) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        a[i] = a[i] - c[rev_bits ? plan::reverse_bits(uint32_t(i), rev_bits) : i];
}

// The same with j = rev(i) by 16 x 16 tiles (log n >= 2 kRevLog; the tiles of
// bitrev_tiled_kernel): block b reads c's tile of middle bits b in runs of 16 and
// subtracts it, transposed through shared memory, from a's tile of middle bits rev(b),
// also in runs of 16, instead of reading c[rev(i)] 32 B at a time across the buffer.
__global__ void __launch_bounds__(256) subtract_bitrev_tiled_kernel(Fr* a, const Fr* c, unsigned log_n) {
    constexpr unsigned kSide = 1u << plan::kRevLog;
    __shared__ uint64_t sh[Fr::N][kSide][kSide + 1];  // +1: column reads spread over banks
    const unsigned m = log_n - 2 * plan::kRevLog;
    const size_t b = blockIdx.x;
    const unsigned t = threadIdx.x;
    const Fr x = load_fr(c + plan::rev_tile_index(log_n, b, t));
#pragma unroll
    for (unsigned l = 0; l < Fr::N; ++l) sh[l][t >> plan::kRevLog][t & (kSide - 1)] = x.l[l];
    __syncthreads();
    const unsigned src = plan::rev_tile_source(t);
    Fr y;
#pragma unroll
    for (unsigned l = 0; l < Fr::N; ++l) y.l[l] = sh[l][src >> plan::kRevLog][src & (kSide - 1)];
    Fr* out = a + plan::rev_tile_index(log_n, plan::reverse_bits(uint32_t(b), m), t);
    store_fr(out, load_fr(out) - y);
}

// --- cached tables ------------------------------------------------------------------

struct PowTable {
    Fr* lo = nullptr;  // s^i, i < 1024
    Fr* hi = nullptr;  // s^(1024 k), k < 2^(kMaxLogSize - 10)
};

struct DeviceTables {
    std::mutex mu;
    std::array<Fr*, cpu::kMaxLogSize + 1> twiddles{};  // w_n^j, j < n/2, per log n >= 1
    std::array<Fr*, cpu::kMaxLogSize + 1> shoup{};     // (w_n^j standard, w'), j < n/2
    PowTable g, g_inv;
    cudaMemPool_t scratch = nullptr;  // gathering passes' buffers (scratch_pool)
    cudaMemPool_t tables = nullptr;   // twiddles and shoup (table_pool)
    bool first_group_pairs = false;   // its constants set on this device
};

std::mutex& registry_mutex() {
    static std::mutex m;
    return m;
}
std::map<int, DeviceTables>& registry() {
    static std::map<int, DeviceTables> r;
    return r;
}

// The L2's fetch granularity on a miss (cudaLimitMaxL2FetchGranularity, a hint of 0 to 128
// bytes; the driver's default is 64), set for the device when its tables are first used:
// the later passes read 32-byte elements and 64-byte twiddle pairs in short column runs,
// neighbouring tiles' in neighbouring blocks, and 128 made coset_inverse 2^27 3% faster
// than 64 (H200). CUZK_L2_FETCH_BYTES overrides it (README.md).
constexpr size_t kL2FetchBytes = 128;
void set_l2_fetch_granularity() {
    size_t bytes = kL2FetchBytes;
    if (const char* v = std::getenv("CUZK_L2_FETCH_BYTES"); v != nullptr && *v != 0) {
        char* end = nullptr;
        const unsigned long b = std::strtoul(v, &end, 10);
        if (*end != 0 || b > 128)
            throw std::invalid_argument(std::string("gpu::ntt: CUZK_L2_FETCH_BYTES must be 0 to 128, got '") + v + "'");
        bytes = b;
    }
    // Only a hint: where the device refuses it, the transforms are as correct as before.
    if (cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, bytes) != cudaSuccess) (void)cudaGetLastError();
}

DeviceTables& tables_of_current_device() {
    int dev = 0;
    check(cudaGetDevice(&dev), "cudaGetDevice");
    std::lock_guard lk(registry_mutex());
    auto it = registry().find(dev);
    if (it == registry().end()) {
        set_l2_fetch_granularity();              // before the entry exists: a bad setting fails every call
        it = registry().try_emplace(dev).first;  // std::map: references stay valid
    }
    return it->second;
}

// RAII device allocation for the tables (cudaMalloc, synchronous free).
struct DeviceBuffer {
    Fr* ptr = nullptr;
    explicit DeviceBuffer(size_t n) {
        if (n) check(cudaMalloc(&ptr, n * sizeof(Fr)), "cudaMalloc");
    }
    ~DeviceBuffer() {
        if (ptr) cudaFree(ptr);
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    Fr* release() {
        Fr* p = ptr;
        ptr = nullptr;
        return p;
    }
};

// Stream-ordered scratch (cudaMallocAsync / cudaFreeAsync): freed after the work
// enqueued before its destruction, without blocking the host.
struct StreamScratch {
    Fr* ptr = nullptr;
    cudaStream_t stream;
    explicit StreamScratch(cudaStream_t s) : stream(s) {}
    void allocate(size_t n) {
        check(cudaMallocAsync(reinterpret_cast<void**>(&ptr), n * sizeof(Fr), stream), "cudaMallocAsync");
    }
    // From `pool` instead; false (nothing allocated) when the device has no room for it.
    bool try_allocate(size_t n, cudaMemPool_t pool) {
        const cudaError_t e = cudaMallocFromPoolAsync(reinterpret_cast<void**>(&ptr), n * sizeof(Fr), pool, stream);
        if (e == cudaErrorMemoryAllocation) {
            (void)cudaGetLastError();  // not sticky: clear it
            ptr = nullptr;
            return false;
        }
        check(e, "cudaMallocFromPoolAsync");
        return true;
    }
    ~StreamScratch() {
        if (ptr) cudaFreeAsync(ptr, stream);
    }
    StreamScratch(const StreamScratch&) = delete;
    StreamScratch& operator=(const StreamScratch&) = delete;
};

// A new stream-ordered memory pool on the current device (release threshold 0 until set).
cudaMemPool_t new_device_pool() {
    int dev = 0;
    check(cudaGetDevice(&dev), "cudaGetDevice");
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = dev;
    cudaMemPool_t pool = nullptr;
    check(cudaMemPoolCreate(&pool, &props), "cudaMemPoolCreate");
    return pool;
}

// The pool of the gathering passes' buffers on the current device: stream-ordered, kept
// (release threshold: never) so that repeated transforms reuse one buffer instead of
// mapping n x 32 B each call; clear_twiddle_cache() trims it.
cudaMemPool_t scratch_pool() {
    DeviceTables& t = tables_of_current_device();
    std::lock_guard lk(t.mu);
    if (!t.scratch) {
        cudaMemPool_t pool = new_device_pool();
        uint64_t keep = UINT64_MAX;
        check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), "cudaMemPoolSetAttribute");
        t.scratch = pool;
    }
    return t.scratch;
}

// The pool of the twiddle tables on the current device (called with t.mu held): stream-
// ordered, release threshold 0, so that release_twiddles hands a table's memory back to the
// device without the device-wide synchronisation of cudaFree (which would wait for copies
// running beside the transforms).
cudaMemPool_t table_pool(DeviceTables& t) {
    if (!t.tables) t.tables = new_device_pool();
    return t.tables;
}

// n elements from the table pool on `stream`, freed stream-ordered unless released.
struct PoolBuffer {
    Fr* ptr = nullptr;
    cudaStream_t stream;
    PoolBuffer(size_t n, cudaMemPool_t pool, cudaStream_t s) : stream(s) {
        check(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&ptr), n * sizeof(Fr), pool, stream),
              "cudaMallocFromPoolAsync (twiddles)");
    }
    ~PoolBuffer() {
        if (ptr) cudaFreeAsync(ptr, stream);
    }
    PoolBuffer(const PoolBuffer&) = delete;
    PoolBuffer& operator=(const PoolBuffer&) = delete;
    Fr* release() { return std::exchange(ptr, nullptr); }
};

#ifndef CUZK_NTT_BN254
// The natural -> natural transforms' Reorder (set_reorder; read through reorder() by both
// fields' transforms).
std::atomic<Reorder> reorder_setting{Reorder::kGatheringFirstPass};
#endif

// lo = s^i (i < 1024), hi = s^(1024 k) (k < hi_count); synchronous on `stream`.
void build_pow(Fr* lo, Fr* hi, size_t hi_count, const Fr& s, cudaStream_t stream) {
    powers_kernel<<<grid_for(kPowLo, kThreads), kThreads, 0, stream>>>(lo, kPowLo, s, 1);
    check_launch("powers_kernel (lo)");
    powers_kernel<<<grid_for(hi_count, kThreads), kThreads, 0, stream>>>(hi, hi_count, s, kPowLo);
    check_launch("powers_kernel (hi)");
}

// table[j] = w_n^j (Montgomery form), j < n/2; synchronous on `stream`.
void build_twiddles(Fr* table, unsigned log_n, cudaStream_t stream) {
    const size_t count = size_t(1) << (log_n - 1);
    const size_t hi_count = (count + kPowLo - 1) / kPowLo;
    DeviceBuffer lo(kPowLo), hi(hi_count);
    build_pow(lo.ptr, hi.ptr, hi_count, cpu::root_of_unity<Fr>(log_n), stream);
    combine_kernel<<<grid_for(count, kThreads), kThreads, 0, stream>>>(table, count, lo.ptr, hi.ptr);
    check_launch("combine_kernel");
    check(cudaStreamSynchronize(stream), "building the twiddle table");
}

const Fr* twiddles(unsigned log_n, cudaStream_t stream) {
    DeviceTables& t = tables_of_current_device();
    std::lock_guard lk(t.mu);
    if (!t.twiddles[log_n]) {
        PoolBuffer table(size_t(1) << (log_n - 1), table_pool(t), stream);
        build_twiddles(table.ptr, log_n, stream);
        t.twiddles[log_n] = table.release();
    }
    return t.twiddles[log_n];
}

// Twiddle pairs in the Shoup table of size n: slots j <= n/2, w^(n/2) = -1 being the
// inverse's twiddle for j = 0 (plan::tile_twiddle_position). Sizes the table and
// twiddle_table_bytes.
constexpr size_t shoup_pair_count(size_t n) { return n / 2 + 1; }

// The register passes' table: pairs only, so a size that only runs Impl::kFast holds 64 B
// a twiddle, not 96. The power tables come from the pool too: no
// cudaFree (a device-wide wait) in the build.
const Fr* shoup_twiddles(unsigned log_n, cudaStream_t stream) {
    DeviceTables& t = tables_of_current_device();
    std::lock_guard lk(t.mu);
    if (!t.shoup[log_n]) {
        const size_t count = shoup_pair_count(size_t(1) << log_n);
        const size_t hi_count = (count + kPowLo - 1) / kPowLo;
        PoolBuffer table(2 * count, table_pool(t), stream);
        {
            PoolBuffer lo(kPowLo, table_pool(t), stream), hi(hi_count, table_pool(t), stream);
            build_pow(lo.ptr, hi.ptr, hi_count, cpu::root_of_unity<Fr>(log_n), stream);
            static const cuzk::BigInt<Fr::N> neg_inv = ff_detail::ptx::neg_inverse_mod_word_power<Fr::N>(Fr::kP);
            shoup_table_kernel<<<grid_for(count, kThreads), kThreads, 0, stream>>>(table.ptr, lo.ptr, hi.ptr, count,
                                                                                   neg_inv, log_n);
            check_launch("shoup_table_kernel");
        }
        if (log_n >= 3 && !t.first_group_pairs) {  // slots k n/8 hold w_8^k
            for (size_t k = 1; k <= 3; ++k)
                check(cudaMemcpyToSymbolAsync(
                          first_group_pairs, table.ptr + 2 * plan::twiddle_position(k << (log_n - 3), log_n),
                          2 * sizeof(Fr), (k - 1) * 2 * sizeof(Fr), cudaMemcpyDeviceToDevice, stream),
                      "setting the first group's twiddles");
            t.first_group_pairs = true;
        }
        check(cudaStreamSynchronize(stream), "building the twiddle table");
        t.shoup[log_n] = table.release();
    }
    return t.shoup[log_n];
}

// The table the register passes read.
const Fr* register_pass_twiddles(unsigned log_n, cudaStream_t stream) { return shoup_twiddles(log_n, stream); }

const PowTable& coset_powers(bool inverse_shift, cudaStream_t stream) {
    DeviceTables& t = tables_of_current_device();
    std::lock_guard lk(t.mu);
    PowTable& pt = inverse_shift ? t.g_inv : t.g;
    if (!pt.lo) {
        DeviceBuffer lo(kPowLo), hi(kPowHi);
        build_pow(lo.ptr, hi.ptr, kPowHi,
                  inverse_shift ? cpu::coset_generator_inverse<Fr>() : cpu::coset_generator<Fr>(), stream);
        check(cudaStreamSynchronize(stream), "building the coset powers");
        pt.hi = hi.release();
        pt.lo = lo.release();
    }
    return pt;
}

// --- transform pieces ---------------------------------------------------------------

unsigned checked(Fr* d, size_t n, const char* what) {
    const unsigned log_n = cpu::checked_log_size(n, what);  // invalid_argument on a bad size
    if (d == nullptr) throw std::invalid_argument(std::string(what) + ": null device pointer");
    return log_n;
}

Scale no_scale() { return Scale{nullptr, nullptr, Fr::one(), true, 0}; }
Scale const_scale(const Fr& c) { return Scale{nullptr, nullptr, c, false, 0}; }

// The factor c s^i with s = g or g^-1 for i < n. When c != 1 the hi table is multiplied
// by c into `scratch` (n/1024 entries, enqueued on the stream), from the kept scratch pool:
// from the default pool (release threshold 0) each call mapped its buffer again after the
// last synchronisation, with the device idle meanwhile (coset_inverse 2^20 0.310 ms against
// 0.378, H100).
Scale coset_scale(bool inverse_shift, const Fr& c, size_t n, StreamScratch& scratch, cudaStream_t stream) {
    const PowTable& pt = coset_powers(inverse_shift, stream);
    if (c == Fr::one()) return Scale{pt.lo, pt.hi, c, false, 0};
    const size_t hi_count = (n + kPowLo - 1) / kPowLo;
    if (!scratch.try_allocate(hi_count, scratch_pool())) scratch.allocate(hi_count);
    scale_table_kernel<<<grid_for(hi_count, kThreads), kThreads, 0, stream>>>(scratch.ptr, pt.hi, hi_count, c);
    check_launch("scale_table_kernel");
    return Scale{pt.lo, scratch.ptr, c, false, 0};
}

void reverse_scale(Fr* a, size_t n, bool reverse, const Scale& sc, cudaStream_t stream) {
    reverse_scale_kernel<<<grid_for(reverse ? n / 2 + 1 : n, kThreads), kThreads, 0, stream>>>(a, n, reverse, sc);
    check_launch("reverse_scale_kernel");
}

// Whether every group of the pass is full (s / 3 groups of 3 stages): such a pass runs the
// all-full kernel, whose butterflies are lazy, so its inputs may be below 2p and it may store
// such values.
constexpr bool all_full_pass(const plan::Pass& p) { return p.s % plan::kRegLog == 0; }

// Launches the reg_pass_kernel of this kind: the all-full one where the pass's groups are
// all full.
template <bool kInverse, bool kDif, Remap kRemap, class Launch>
void launch_kind(bool all_full, const Launch& launch) {
    if (all_full) return launch(reg_pass_kernel<kInverse, kDif, kRemap, true>);
    launch(reg_pass_kernel<kInverse, kDif, kRemap>);
}

// One register pass from src to dst (the same buffer, or with a Remap the first DIT pass of
// a natural -> natural transform between two buffers; reg_pass_kernel).
// lazy_out: the pass may leave its values below 2p (the next pass is lazy; ignored by the
// kernels that are not).
void launch_reg_pass(const Fr* src, Fr* dst, unsigned log_n, const plan::Pass& p, const Fr* tw, bool inverse, bool dif,
                     Remap remap, const Scale& pre, const Scale& post, bool lazy_out, cudaStream_t stream) {
    if (remap != Remap::kNone && (dif || p.lh0 != 0 || p.log_c != 0 || src == dst))
        throw std::logic_error("gpu::ntt: a gathering pass is the first DIT pass, out of place");  // internal use
    const size_t tiles = plan::tile_count(log_n, p);
    const unsigned tile_threads = 1u << (plan::tile_log(p) - plan::kRegLog);
    // Small tiles (a first pass of 256 or 512 elements: 1 or 2 warps) several to a block,
    // up to the 1024-element tile's block: ncu showed such a pass stalled on instruction
    // fetch (~25% of the cycles between a warp's instructions at 2^24 against ~7% in the
    // passes of 1024-element tiles), its independent one-warp blocks running far apart in
    // the kernel's long unrolled code; the barriers of a wider block keep its warps
    // together. From 2^kWideBlocksFromLog on, blocks twice as wide (kWideBlockLog), and an
    // unscaled gathering pass's blocks at every size (kWideBlocksFromLog says why).
    const bool wide = log_n >= kWideBlocksFromLog || (remap != Remap::kNone && pre.none);
    const unsigned block_log = wide ? kWideBlockLog : kSharedBlockLog;
    const size_t share = std::max<size_t>(1, (size_t(1) << block_log) / tile_threads);
    const size_t per_block = std::min<size_t>(tiles, share);
    const unsigned threads = unsigned(per_block) * tile_threads;
    if (tiles / per_block > 0x7fffffffu) throw std::invalid_argument("gpu::ntt: too many tiles");
    const unsigned grid = unsigned(tiles / per_block);  // powers of two: per_block divides tiles
    const size_t smem = per_block * ((size_t(Fr::N) * sizeof(uint64_t)) << plan::tile_log(p));
    const auto launch = [&](auto kernel) {
        // Over 48 KiB of dynamic shared memory (wide blocks, tiles of 2^11 or 2^12) must be
        // asked for.
        if (smem > 48 * 1024)
            check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)),
                  "cudaFuncSetAttribute (reg_pass_kernel shared memory)");
        kernel<<<grid, threads, smem, stream>>>(src, dst, log_n, p, tw, pre, post, lazy_out);
        check_launch("reg_pass_kernel");
    };
    const bool all_full = all_full_pass(p);
    if (remap == Remap::kGather && inverse)
        launch_kind<true, false, Remap::kGather>(all_full, launch);
    else if (remap == Remap::kGather)
        launch_kind<false, false, Remap::kGather>(all_full, launch);
    else if (inverse && dif)
        launch_kind<true, true, Remap::kNone>(all_full, launch);
    else if (inverse)
        launch_kind<true, false, Remap::kNone>(all_full, launch);
    else if (dif)
        launch_kind<false, true, Remap::kNone>(all_full, launch);
    else
        launch_kind<false, false, Remap::kNone>(all_full, launch);
}

// out_i = post_i sum_j (pre_j a_j) w^(+-ij): the unscaled forward DFT (inverse: with w^-1)
// of the pre-scaled input, post-scaled (pre_j, post_i: factors c s^j of the element's
// own index, whatever the order it is stored in).
// Orders: natural -> natural is the bit reversal (with pre fused in) then the DIT passes;
// natural -> bit-reversed is the DIF passes alone; bit-reversed -> natural the DIT passes
// alone (only kFast with log n >= 3 does the last two). kFast fuses w^-1 and the scalings
// into its passes; the other paths run the forward DFT, then reverse a_j <-> a_{n-j} and
// post-scale in one more pass (as the CPU code does).
// With ab_b the input is a_i b_i (compute_h's quotient): folded into the tiled bit reversal
// where there is one, a pass of its own otherwise. `ab_read`, when given (with ab_b), is
// recorded on the stream right after the kernel that reads ab_b.
void transform(Fr* a, unsigned log_n, bool inverse, Scale pre, Scale post, Impl impl, cudaStream_t stream,
               Order in = Order::kNatural, Order out = Order::kNatural, const Fr* ab_b = nullptr,
               cudaEvent_t ab_read = nullptr) {
    const size_t n = size_t(1) << log_n;
    const bool reg = impl == Impl::kFast && log_n >= plan::kRegMinLogN;
    if ((in != Order::kNatural || out != Order::kNatural) && (!reg || in == out))
        throw std::logic_error("gpu::ntt: unsupported order");  // internal use only
    if (ab_read && !ab_b) throw std::logic_error("gpu::ntt: an ab_read event without ab_b");
    if (ab_b && !(reg && in == Order::kNatural && out == Order::kNatural && log_n >= 2 * plan::kRevLog)) {
        ab_kernel<<<grid_for(n, kThreads), kThreads, 0, stream>>>(a, ab_b, n);
        check_launch("ab_kernel");
        if (ab_read) check(cudaEventRecord(ab_read, stream), "cudaEventRecord");
        ab_b = nullptr;
    }
    if (log_n == 0) {
        if (!pre.none) reverse_scale(a, 1, false, pre, stream);
        if (!post.none) reverse_scale(a, 1, false, post, stream);
        return;
    }
    if (reg) {
        plan::Pass passes[plan::kMaxPasses];
        const unsigned np = plan::make_passes(log_n, passes);
        if (in == Order::kBitReversed) pre.rev_bits = log_n;
        if (out == Order::kBitReversed) post.rev_bits = log_n;
        const Fr* tw = register_pass_twiddles(log_n, stream);
        // Natural -> natural: the first pass reads a through the bit reversal and writes a
        // scratch buffer, the last reads it and writes a (Reorder::kGatheringFirstPass, the
        // default). Else (set_reorder), or without room for the buffer, a bit-reversal pass
        // in place, then the DIT passes.
        Fr* work = a;
        Remap remap = Remap::kNone;
        StreamScratch scratch(stream);
        if (in == Order::kNatural && out == Order::kNatural) {
            const Reorder how = reorder();
            if (!ab_b && np >= 2 && how != Reorder::kBitReversalPass && scratch.try_allocate(n, scratch_pool())) {
                work = scratch.ptr;
                remap = Remap::kGather;
            }
            if (work == a) {
                launch_bitrev(a, log_n, pre, stream, ab_b);
                if (ab_b && ab_read) check(cudaEventRecord(ab_read, stream), "cudaEventRecord");
                pre = no_scale();
            }
        }
        const bool dif = out == Order::kBitReversed;
        for (unsigned k = 0; k < np; ++k) {
            const plan::Pass& p = passes[dif ? np - 1 - k : k];
            const bool first = k == 0, last = k + 1 == np;
            const Remap r = first ? remap : Remap::kNone;
            const bool lazy_out = !last && all_full_pass(p) && all_full_pass(passes[dif ? np - 2 - k : k + 1]);
            launch_reg_pass(first ? a : work, last ? a : work, log_n, p, tw, inverse, dif, r, first ? pre : no_scale(),
                            last ? post : no_scale(), lazy_out, stream);
        }
        return;
    }
    const Fr* tw = twiddles(log_n, stream);
    bitrev_kernel<<<grid_for(n, kThreads), kThreads, 0, stream>>>(a, log_n, pre);
    check_launch("bitrev_kernel");
    for (unsigned lh = 0; lh < log_n; ++lh) {
        stage_kernel<<<grid_for(n / 2, kThreads), kThreads, 0, stream>>>(a, log_n, lh, tw);
        check_launch("stage_kernel");
    }
    if (inverse || !post.none) reverse_scale(a, n, inverse, post, stream);
}

// 2^k and (2^k)^-1, built without Field::from_u64 (whose host-device body reads the
// modulus constant, which device code may not; the .cu file would instantiate it).
Fr pow2(unsigned k) { return (Fr::one() + Fr::one()).pow(uint64_t(k)); }
Fr inverse_of_size(size_t n) { return pow2(unsigned(__builtin_ctzll(n))).inverse(); }

// Host-vector wrapper: copy in, run f on the default stream, copy out.
template <class F>
void on_host_vector(std::span<Fr> a, const char* what, F&& f) {
    cpu::checked_log_size(a.size(), what);
    DeviceBuffer d(a.size());
    check(cudaMemcpy(d.ptr, a.data(), a.size_bytes(), cudaMemcpyHostToDevice), "cudaMemcpy to device");
    f(d.ptr, a.size());
    check(cudaStreamSynchronize(nullptr), what);
    check(cudaMemcpy(a.data(), d.ptr, a.size_bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy to host");
}

}  // namespace

namespace {
// A transform with its input and output in the orders asked (ntt.hpp): natural ->
// bit-reversed and back on the register passes alone, the rest through bit-reversal passes
// (in place, unscaled: pre and post scale by the element's own index, so they apply to the
// natural-order vector in between).
// The orders' check comes first in each entry point, before any work is enqueued.
void check_orders(Order in, Order out, const char* what) {
    for (Order o : {in, out})
        if (o != Order::kNatural && o != Order::kBitReversed)
            throw std::invalid_argument(std::string(what) + ": element order " + std::to_string(int(o)) +
                                        " is neither natural nor bit-reversed");
}
void transform_in_orders(Fr* a, unsigned log_n, bool inverse, const Scale& pre, const Scale& post, Impl impl,
                         cudaStream_t stream, Order in, Order out) {
    const bool reg = impl == Impl::kFast && log_n >= plan::kRegMinLogN;
    if (reg && in != out) return transform(a, log_n, inverse, pre, post, impl, stream, in, out);
    if (in == Order::kBitReversed && log_n > 0) launch_bitrev(a, log_n, no_scale(), stream);
    if (reg && out == Order::kBitReversed)  // both bit-reversed: natural now, then the DIF passes
        return transform(a, log_n, inverse, pre, post, impl, stream, Order::kNatural, Order::kBitReversed);
    transform(a, log_n, inverse, pre, post, impl, stream);
    if (out == Order::kBitReversed && log_n > 0) launch_bitrev(a, log_n, no_scale(), stream);
}
}  // namespace

void forward(Fr* d, size_t n, Stream stream, Order in, Order out, Impl impl) {
    const unsigned log_n = checked(d, n, "gpu::ntt::forward");
    check_orders(in, out, "gpu::ntt::forward");
    transform_in_orders(d, log_n, false, no_scale(), no_scale(), impl, stream, in, out);
}

void inverse(Fr* d, size_t n, Stream stream, Order in, Order out, Impl impl) {
    const unsigned log_n = checked(d, n, "gpu::ntt::inverse");
    check_orders(in, out, "gpu::ntt::inverse");
    transform_in_orders(d, log_n, true, no_scale(), const_scale(inverse_of_size(n)), impl, stream, in, out);
}

void coset_forward(Fr* d, size_t n, Stream stream, Order in, Order out, Impl impl) {
    const unsigned log_n = checked(d, n, "gpu::ntt::coset_forward");
    check_orders(in, out, "gpu::ntt::coset_forward");
    StreamScratch scratch(stream);  // unused: c = 1 needs no scaled table
    transform_in_orders(d, log_n, false, coset_scale(false, Fr::one(), n, scratch, stream), no_scale(), impl, stream,
                        in, out);
}

void coset_inverse(Fr* d, size_t n, Stream stream, Order in, Order out, Impl impl) {
    const unsigned log_n = checked(d, n, "gpu::ntt::coset_inverse");
    check_orders(in, out, "gpu::ntt::coset_inverse");
    StreamScratch scratch(stream);
    transform_in_orders(d, log_n, true, no_scale(), coset_scale(true, inverse_of_size(n), n, scratch, stream), impl,
                        stream, in, out);
}

constexpr Order kN = Order::kNatural;
void forward(Fr* d, size_t n, Stream stream, Impl impl) { forward(d, n, stream, kN, kN, impl); }
void inverse(Fr* d, size_t n, Stream stream, Impl impl) { inverse(d, n, stream, kN, kN, impl); }
void coset_forward(Fr* d, size_t n, Stream stream, Impl impl) { coset_forward(d, n, stream, kN, kN, impl); }
void coset_inverse(Fr* d, size_t n, Stream stream, Impl impl) { coset_inverse(d, n, stream, kN, kN, impl); }

void forward(std::span<Fr> a, Order in, Order out, Impl impl) {
    on_host_vector(a, "gpu::ntt::forward", [&](Fr* d, size_t n) { forward(d, n, nullptr, in, out, impl); });
}
void inverse(std::span<Fr> a, Order in, Order out, Impl impl) {
    on_host_vector(a, "gpu::ntt::inverse", [&](Fr* d, size_t n) { inverse(d, n, nullptr, in, out, impl); });
}
void coset_forward(std::span<Fr> a, Order in, Order out, Impl impl) {
    on_host_vector(a, "gpu::ntt::coset_forward", [&](Fr* d, size_t n) { coset_forward(d, n, nullptr, in, out, impl); });
}
void coset_inverse(std::span<Fr> a, Order in, Order out, Impl impl) {
    on_host_vector(a, "gpu::ntt::coset_inverse", [&](Fr* d, size_t n) { coset_inverse(d, n, nullptr, in, out, impl); });
}
void forward(std::span<Fr> a, Impl impl) { forward(a, kN, kN, impl); }
void inverse(std::span<Fr> a, Impl impl) { inverse(a, kN, kN, impl); }
void coset_forward(std::span<Fr> a, Impl impl) { coset_forward(a, kN, kN, impl); }
void coset_inverse(std::span<Fr> a, Impl impl) { coset_inverse(a, kN, kN, impl); }

#ifndef CUZK_NTT_BN254  // Groth16's H, the twiddle lending and the settings: BLS12-381's alone
void to_coset_evals(Fr* d, size_t n, Stream stream, Impl impl) {
    const size_t m = cpu::EvaluationDomain::size_for(n);  // invalid_argument for 0 or too many
    if (!d) throw std::invalid_argument("gpu::ntt::to_coset_evals: null device pointer");
    const unsigned log_m = unsigned(__builtin_ctzll(m));
    // Zero padding of [n, m): the all-zero limbs are Fr zero in Montgomery form too.
    if (m > n) check(cudaMemsetAsync(d + n, 0, (m - n) * sizeof(Fr), stream), "cudaMemsetAsync");
    // Evaluations on H -> evaluations on gH: the unscaled iDFT, a_i *= m^-1 g^i, the DFT.
    StreamScratch scratch(stream);
    const Scale to_coset = coset_scale(false, inverse_of_size(m), m, scratch, stream);
    // kFast keeps the coefficients in bit-reversed order in between (DIF iDFT, DIT DFT):
    // no bit-reversal pass, and the coset scaling rides on the iDFT's last stores.
    if (impl == Impl::kFast && log_m >= plan::kRegMinLogN) {
        transform(d, log_m, true, no_scale(), to_coset, impl, stream, Order::kNatural, Order::kBitReversed);
        transform(d, log_m, false, no_scale(), no_scale(), impl, stream, Order::kBitReversed, Order::kNatural);
    } else {
        transform(d, log_m, true, no_scale(), no_scale(), impl, stream);
        transform(d, log_m, false, to_coset, no_scale(), impl, stream);
    }
}

bool h_coefficients_bit_reversed(Impl impl, size_t m) {
    return impl == Impl::kFast && unsigned(__builtin_ctzll(m)) >= plan::kRegMinLogN;
}

namespace {
// Z = g^m - 1, the vanishing polynomial on the coset gH (one value there).
Fr vanishing_on_coset(size_t m) { return cpu::coset_generator().pow(uint64_t(m)) - Fr::one(); }
}  // namespace

void to_scaled_coefficients(Fr* d, size_t n, Stream stream, Impl impl) {
    const size_t m = cpu::EvaluationDomain::size_for(n);  // invalid_argument for 0 or too many
    if (!d) throw std::invalid_argument("gpu::ntt::to_scaled_coefficients: null device pointer");
    const unsigned log_m = unsigned(__builtin_ctzll(m));
    if (m > n) check(cudaMemsetAsync(d + n, 0, (m - n) * sizeof(Fr), stream), "cudaMemsetAsync");
    // The iDFT's 1/m and 1/Z in one constant on its last stores; kFast's DIF passes leave the
    // coefficients bit-reversed, as quotient_and_coset_inverse then reads them.
    const Scale post = const_scale((pow2(log_m) * vanishing_on_coset(m)).inverse());
    const Order out = h_coefficients_bit_reversed(impl, m) ? Order::kBitReversed : Order::kNatural;
    transform(d, log_m, true, no_scale(), post, impl, stream, Order::kNatural, out);
}

void prepare_h_input(unsigned k, Fr* d, size_t n, Stream stream, Impl impl) {
    if (k > 2) throw std::invalid_argument("gpu::ntt::prepare_h_input: k must be 0, 1 or 2 (a, b, c)");
    if (k == 2)
        to_scaled_coefficients(d, n, stream, impl);
    else
        to_coset_evals(d, n, stream, impl);
}

void quotient_and_coset_inverse(Fr* d_a, const Fr* d_b, const Fr* d_c, size_t m, Stream stream, Impl impl) {
    checked(d_a, m, "gpu::ntt::quotient_and_coset_inverse");
    if (!d_b || !d_c) throw std::invalid_argument("gpu::ntt::quotient_and_coset_inverse: null device pointer");
    // The coset iDFT with 1/Z folded in: h_i = (m Z)^-1 g^-i iDFT_unscaled(a b)_i, then h_i -=
    // c_i (c is iNTT(c) / Z already). The product rides on the iDFT's bit reversal (kFast).
    quotient_coset_inverse(d_a, d_b, m, stream, impl);
    subtract_scaled_c(d_a, d_c, m, stream, impl);
}

void quotient_coset_inverse(Fr* d_a, const Fr* d_b, size_t m, Stream stream, Impl impl, CUevent_st* b_read) {
    const unsigned log_m = checked(d_a, m, "gpu::ntt::quotient_coset_inverse");
    if (!d_b) throw std::invalid_argument("gpu::ntt::quotient_coset_inverse: null device pointer");
    StreamScratch scratch(stream);
    const Scale from_coset = coset_scale(true, (pow2(log_m) * vanishing_on_coset(m)).inverse(), m, scratch, stream);
    transform(d_a, log_m, true, no_scale(), from_coset, impl, stream, Order::kNatural, Order::kNatural, d_b, b_read);
}

void subtract_scaled_c(Fr* d_a, const Fr* d_c, size_t m, Stream stream, Impl impl) {
    const unsigned log_m = checked(d_a, m, "gpu::ntt::subtract_scaled_c");
    if (!d_c) throw std::invalid_argument("gpu::ntt::subtract_scaled_c: null device pointer");
    if (h_coefficients_bit_reversed(impl, m) && log_m >= 2 * plan::kRevLog) {
        subtract_bitrev_tiled_kernel<<<1u << (log_m - 2 * plan::kRevLog), 1u << (2 * plan::kRevLog), 0, stream>>>(
            d_a, d_c, log_m);
        check_launch("subtract_bitrev_tiled_kernel");
    } else {
        subtract_kernel<<<grid_for(m, kThreads), kThreads, 0, stream>>>(
            d_a, d_c, m, h_coefficients_bit_reversed(impl, m) ? log_m : 0);
        check_launch("subtract_kernel");
    }
}

void compute_h_device(Fr* d_a, Fr* d_b, Fr* d_c, size_t n, Stream stream, Impl impl) {
    const size_t m = cpu::EvaluationDomain::size_for(n);  // invalid_argument for 0 or too many
    if (!d_a || !d_b || !d_c) throw std::invalid_argument("gpu::ntt::compute_h_device: null device pointer");
    Fr* const d[3] = {d_a, d_b, d_c};
    for (unsigned k = 0; k < 3; ++k) prepare_h_input(k, d[k], n, stream, impl);
    quotient_and_coset_inverse(d_a, d_b, d_c, m, stream, impl);
}

std::vector<Fr> compute_h(std::span<const Fr> a, std::span<const Fr> b, std::span<const Fr> c, Impl impl) {
    if (a.size() != b.size() || a.size() != c.size())
        throw std::invalid_argument("gpu::ntt::compute_h: a, b, c must have one value per constraint each (got " +
                                    std::to_string(a.size()) + ", " + std::to_string(b.size()) + ", " +
                                    std::to_string(c.size()) + ")");
    const size_t n = a.size();
    const size_t m = cpu::EvaluationDomain::size_for(n);
    DeviceBuffer da(m), db(m), dc(m);
    {
        trace::Span span("h2d_abc", "gpu");
        check(cudaMemcpy(da.ptr, a.data(), n * sizeof(Fr), cudaMemcpyHostToDevice), "cudaMemcpy a");
        check(cudaMemcpy(db.ptr, b.data(), n * sizeof(Fr), cudaMemcpyHostToDevice), "cudaMemcpy b");
        check(cudaMemcpy(dc.ptr, c.data(), n * sizeof(Fr), cudaMemcpyHostToDevice), "cudaMemcpy c");
    }
    {
        trace::Span span("h_kernels", "gpu");
        compute_h_device(da.ptr, db.ptr, dc.ptr, n, nullptr, impl);
        check(cudaStreamSynchronize(nullptr), "gpu::ntt::compute_h");
    }
    trace::Span span("d2h_h", "gpu");
    std::vector<Fr> h(m);
    check(cudaMemcpy(h.data(), da.ptr, m * sizeof(Fr), cudaMemcpyDeviceToHost), "cudaMemcpy h");
    return h;
}

void set_reorder(Reorder how) { reorder_setting.store(how, std::memory_order_relaxed); }
Reorder reorder() { return reorder_setting.load(std::memory_order_relaxed); }

namespace {
unsigned table_log_size(size_t n, const char* what) {
    if (n < 2 || !std::has_single_bit(n) || n > (size_t(1) << cpu::kMaxLogSize))
        throw std::invalid_argument(std::string("gpu::ntt::") + what + ": size " + std::to_string(n) +
                                    " is not a power of two from 2 to 2^" + std::to_string(cpu::kMaxLogSize));
    return unsigned(std::countr_zero(n));
}
}  // namespace

size_t twiddle_table_bytes(size_t n) { return 2 * shoup_pair_count(n) * sizeof(Fr); }

void prepare_twiddles(size_t n, Stream stream) {
    register_pass_twiddles(table_log_size(n, "prepare_twiddles"), stream);
}

size_t release_twiddles(size_t n, Stream stream) {
    const unsigned log_n = table_log_size(n, "release_twiddles");
    DeviceTables& t = tables_of_current_device();
    std::lock_guard lk(t.mu);
    Fr*& p = t.shoup[log_n];
    if (!p) return 0;
    check(cudaFreeAsync(p, stream), "cudaFreeAsync (twiddles)");
    p = nullptr;
    // The free completes in stream order; once it has, trimming hands the memory back.
    check(cudaStreamSynchronize(stream), "release_twiddles");
    check(cudaMemPoolTrimTo(t.tables, 0), "cudaMemPoolTrimTo");
    return twiddle_table_bytes(n);
}

#endif

namespace {
// Frees this translation unit's (this field's) tables on every device.
void clear_field_tables() {
    std::lock_guard lk(registry_mutex());
    int current = 0;
    check(cudaGetDevice(&current), "cudaGetDevice");
    for (auto& [dev, t] : registry()) {
        std::lock_guard tl(t.mu);
        check(cudaSetDevice(dev), "cudaSetDevice");
        check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
        for (auto* tables : {&t.twiddles, &t.shoup})
            for (Fr*& p : *tables) {
                if (p) cudaFreeAsync(p, nullptr);  // pool memory (table_pool)
                p = nullptr;
            }
        check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
        if (t.tables) check(cudaMemPoolTrimTo(t.tables, 0), "cudaMemPoolTrimTo");
        for (PowTable* pt : {&t.g, &t.g_inv}) {
            if (pt->lo) cudaFree(pt->lo);
            if (pt->hi) cudaFree(pt->hi);
            *pt = PowTable{};
        }
        if (t.scratch) check(cudaMemPoolTrimTo(t.scratch, 0), "cudaMemPoolTrimTo");
    }
    check(cudaSetDevice(current), "cudaSetDevice");
}
}  // namespace

// One entry point for both fields: BLS12-381's clear_twiddle_cache clears BN254's tables too.
namespace detail {
void clear_bn254_twiddle_cache();
}
#ifdef CUZK_NTT_BN254
void detail::clear_bn254_twiddle_cache() { clear_field_tables(); }
#else
void clear_twiddle_cache() {
    clear_field_tables();
    detail::clear_bn254_twiddle_cache();
}
#endif

}  // namespace cuzk::gpu::ntt
