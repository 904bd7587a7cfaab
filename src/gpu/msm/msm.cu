// Pippenger MSM on the device (see include/cuzk/gpu/msm.hpp for the pipeline).
//
// Shape of the work and why:
// - Scalars are classified once (0 / 1 / full) and compacted with CUB DeviceSelect, so a
//   mostly-0/1 Filecoin assignment pays Pippenger only for its few full scalars.
// - Digits: signed c-bit windows of k + H (no carry chain between windows; msm_detail::
//   digit). Window w's digit d goes to bucket |d| in 1..2^(c-1), its sign negates the base.
// - Buckets of a group of windows are filled from one radix sort of (bucket, base)
//   pairs: the sorted list is cut into equal-length segments (one thread each), so a
//   large bucket costs no more than its share of the list (load balance does not depend
//   on the scalar distribution). Runs inside a segment are written straight to their
//   bucket; the two boundary runs of each segment go to a carry list, itself sorted, that
//   is combined by the same segment walk (16x shorter each level) until a few remain.
// - Optional (MsmTuning::affine_rounds, G1, off by default): batch-affine pairing
//   rounds halve the sorted list before level 1, equal-key neighbours summed in affine
//   coordinates with one inversion per thread batch (Montgomery's trick; msm_detail::
//   pair_round), 5M + 1S a sum instead of the mixed addition's 8M + 2S. Measured on the
//   H200 (bench BM_GpuMsmG1Affine, side by side with them off): 2^24 128.6 vs
//   114.1 ms, 2^26 469.6 vs 424.9 ms: a round's sum costs 0.47 ns against 0.43 ns for an
//   XYZZ mixed addition (the pair phase runs at ~45% of the multiply rate: each sum reads
//   two points twice, a prefix cell, and writes a point, ~560 B, half of it gathered at
//   random in round 0). First version (one contiguous batch a thread): 0.67 ns.
// - Level 1 gathers entry i + 1's base before adding entry i (accumulate_segment_
//   pipelined; MsmTuning::level1_prefetch): H200, side by side, G1 2^22 /
//   2^24 / 2^26 31.97 / 105.14 / 391.56 -> 31.17 / 101.65 / 377.78 ms.
// - Precomputed table (Msm::precompute): copy w = 2^(c w) P of every base, so all windows
//   share one bucket set (one reduction, no Horner doublings, windows up to 26 bits):
//   G1 2^20 / 22 / 24 / 26 10.6 / 30.9 / 101.7 / 378.2 -> 9.1 / 25.9 / 89.4 / 322.5 ms
//   (c = 18 / 20 / 22 / 24; 2^26: 71.5 GiB of table, built in 5.3 s).
// - Bucket reduction sum_b b * B_b: T ranges of R buckets per window, each by running
//   sums (2R full additions) plus lo * total (a short double-and-add), then a tree of
//   plain sums. All windows at once, so the latency-bound tail is paid once.
// - Horner over the W window sums on the host (W * c doublings: microseconds there).
// - Classification counts the 1s and the full scalars as it goes; the compactions run only
//   where they remove something (H200, side by side: classify at 2^26 4.56 ->
//   1.54 ms, G1 2^26 with a table 322.2 -> 319.5 ms). A call of its own for reduce_range's
//   additions (ncu had put ~30% of its stalls on instruction fetch) changed nothing
//   (reduce at 2^26 11.22 vs 11.26 ms) and was dropped.
// The field arithmetic is Field's device path: 32-bit words with PTX carry chains
// (cuzk/ff/mont_ptx.hpp). Against the portable 64-bit CIOS it replaced, on the H200:
// G1 2^20/22/24/26 33.9/93.4/293/1069 -> 12.5/35.4/114/425 ms, G2 2^24 1533 -> 558 ms.
// Y3 = R (Q - X3) - Y1 PPP of the additions as one reduction of two products
// (Field::mul_sub_mul for Fp; 8M + 2S became 7M + 2S + one such pair), side by side:
// G1 2^20/22/24/26 11.9/34.4/113.2/422.2 -> 11.3/32.8/107.6/401.7 ms (the
// 2^26 accumulation 376 -> 356 ms).
// The runs of mixed additions keep their coordinates in the field's redundant form (below 2p:
// Field::mul_r, XYZZ::add_redundant; kRedundantMadd): no conditional subtraction after
// each product, canonical when a run is stored. H200, side by side: G1 with a
// table 2^24 / 2^26 88.6 / 320.2 -> 86.1 / 311.4 ms (accumulate 282.2 -> 274.7). G1 only:
// over G2 it lost in the prover (B_G2 2^26 665 -> 752 ms; at kRedundantMadd).
//
// Registers and local memory (ptxas -v, sm_90; "stack" is the frame, "spill" the bytes of
// spill stores / loads in the code, "func" a device function the kernel calls). Over Fp2
// most of the stack is not register spilling but the bucket accumulator (384 B) kept in
// local memory because nvcc made the addition a call that takes it by address.
//   kernel             before                           after
//   G1 accumulate_bases 188, 0                          188, 0
//   G1 reduce_ranges   255, 88 B, spill 312/272         252, 192 B (mul_small's argument,
//                                                       written once), no spill
//   G1 others          176-188, 0                       unchanged
//   G2 accumulate_bases 255, 584 B (accumulator and     255, 56 B, spill 8/0; func
//                      base in local memory), madd call accumulate_segment spill 74/96,
//                                                       the accumulator in registers
//   G2 reduce_ranges   255, 1352 B, spill 400/428       255, 1344 B, spill 384/400; func
//                                                       mul_small spill 12/24
//   G2 ones            255, 424 B, spill 72/56          unchanged (the madd kept as a call)
//   G2 carries         255, 464 B, spill 128/212        unchanged
//   G2 sum / combine   255, 448 / 400 B                 unchanged
// What changed: the mixed addition is forced inline and level 1 adds through functors
// (accumulate_bases_kernel), mul_small is a call on the device. Forcing the full
// addition inline as well kept cicc busy for more than 6 minutes on the G2 kernels and was
// dropped; reordering the XYZZ formulas for fewer live temporaries changed nothing or made
// it worse (ptxas schedules by itself); Fp2 multiplication as a __noinline__ call spilled
// 140-220 B per call. Run-time effect on the H200: not yet measured.
#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <future>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cuzk/common/trace.hpp"
#include "cuzk/gpu/msm.hpp"
#include "cuzk/gpu/testing.hpp"
#include "gpu/common/host_staging.hpp"
#include "gpu/msm/msm_detail.hpp"
#include "gpu/msm/msm_scratch.hpp"

namespace cuzk::gpu {
namespace {

// The choices a run makes (GpuMsmOptions::tuning, or the defaults).
const MsmTuning& tuning_of(const GpuMsmOptions& opt) {
    static const MsmTuning kDefaults;
    return opt.tuning ? *opt.tuning : kDefaults;
}

using namespace msm_detail;
using Scalar = BigInt<4>;

// The curves this file is instantiated for: BLS12-381 G1 / G2 and BN254 G1 / G2. "G1" is a
// curve over the base field (the G1-only choices below: gathering ahead, batch-affine
// rounds, the redundant form), "over Fp2" one over the quadratic extension.
template <class Curve>
constexpr bool kOverFp2 = std::is_same_v<Curve, G2Curve> || std::is_same_v<Curve, bn254::G2Curve>;
template <class Curve>
constexpr bool kG1 = !kOverFp2<Curve>;
// The bits of the curve's scalar field: the windows cover k + H for k below 2^bits
// (num_windows, recode_offset).
template <class Curve>
constexpr unsigned kScalarBits = unsigned(Curve::Scalar::kBits);

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string("gpu msm: ") + what + ": " + cudaGetErrorString(e));
}
void check_launch(const char* what) { check(cudaGetLastError(), what); }

constexpr unsigned kThreads = 128;
// Entries (window x full scalar) sorted at once; bounds the scratch memory at
// 2^28 x (key + value) x 2 (double buffer) = 4 GiB.
constexpr size_t kGroupEntries = kMaxSortEntries;  // memory_plan.hpp
// With batch-affine rounds: their lists (up to half of the group's entries, 104 B each
// over G1) and batch products (48 B a slot) bound the group to 2^26 entries (~5 GiB).
constexpr size_t kAffineGroupEntries = size_t(1) << 26;
// Carry lists at most this long are combined directly (one thread per run head).
constexpr size_t kCombineDirect = 64;
// Points summed by one thread in a plain-sum tree level.
constexpr size_t kSumPerThread = 16;

__device__ inline size_t min_sz(size_t a, size_t b) { return a < b ? a : b; }

unsigned blocks_for(size_t n) { return unsigned((n + kThreads - 1) / kThreads); }

// Reallocations of a buffer to grow it, on this thread (Impl::run counts its own). A
// growth frees the old buffer, and cudaFree waits for the whole device, copies on other
// streams included.
thread_local size_t t_growths = 0;

// A typed view of a device buffer that only grows (reallocations counted in t_growths):
// one of an MsmScratch's, or a DevBuf's own. `p` is this view's pointer as of its last
// reserve(): another Msm sharing the scratch may reallocate the buffer in between, so a run
// reserves every view it uses.
template <class T>
struct Scratch {
    MsmScratch::Buffer* b = nullptr;
    T* p = nullptr;
    size_t cap() const { return b->bytes / sizeof(T); }
    T* reserve(size_t n, const char* what) {
        const size_t bytes = std::max<size_t>(n, 1) * sizeof(T);
        if (b->p == nullptr || b->bytes < bytes) {
            if (b->p) {
                cudaFree(b->p);
                ++t_growths;
                b->p = nullptr;
                b->bytes = 0;
                p = nullptr;
            }
            check(cudaMalloc(&b->p, bytes), what);
            b->bytes = bytes;
        }
        p = static_cast<T*>(b->p);
        return p;
    }
};

// A device allocation of this object's own that only grows; freed on destruction.
template <class T>
struct DevBuf : Scratch<T> {
    MsmScratch::Buffer own;
    DevBuf() { this->b = &own; }
    DevBuf(const DevBuf&) = delete;
    DevBuf& operator=(const DevBuf&) = delete;
    ~DevBuf() { release(); }
    void release() {
        if (own.p) cudaFree(own.p);
        own = MsmScratch::Buffer{};
        this->p = nullptr;
    }
    // Takes over n elements at q (cudaMalloc'd).
    void adopt(T* q, size_t n) {
        release();
        own = MsmScratch::Buffer{q, n * sizeof(T)};
        this->p = q;
    }
};

// ---- kernels ------------------------------------------------------------------------

// Scalar i: canonical value, base index through the density, and its class; counts[0] /
// counts[1] gather the numbers of 1s and full scalars (warp sums, one atomic a warp, the
// grid-stride loop keeping the warps few), so that the host can skip the compactions that
// would copy everything (all scalars full: the canonical values and base indices are used
// as they are).
template <class S>
__global__ void __launch_bounds__(kThreads)
    classify_kernel(const S* s, size_t n, const uint64_t* density, const uint32_t* word_prefix, Scalar* canon,
                    uint32_t* bidx, uint8_t* is_one, uint8_t* is_full, int* counts) {
    int ones = 0, full = 0;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        bool has = true;
        uint32_t b = uint32_t(i);
        if (density) {
            has = (density[i / 64] >> (i % 64)) & 1;
            b = base_index(density, word_prefix, i);
        }
        const Scalar k = s[i].to_bigint();
        const bool zero = !has || k.is_zero();
        const bool one = has && k == Scalar::from_u64(1);
        canon[i] = k;
        bidx[i] = b;
        is_one[i] = one ? 1 : 0;
        is_full[i] = (!zero && !one) ? 1 : 0;
        ones += one ? 1 : 0;
        full += (!zero && !one) ? 1 : 0;
    }
    for (int d = 16; d > 0; d /= 2) {
        ones += __shfl_down_sync(0xffffffffu, ones, d);
        full += __shfl_down_sync(0xffffffffu, full, d);
    }
    if ((threadIdx.x & 31) == 0) {
        if (ones) atomicAdd(&counts[0], ones);
        if (full) atomicAdd(&counts[1], full);
    }
}

// Entries of windows [w0, w0 + g) for full scalar j: keys[wl * m + j], vals[wl * m + j].
// With a precomputed table (table_stride = bases a copy, else 0) window w's digit goes to
// the one bucket set, against copy w of the base (2^(c w) P).
__global__ void __launch_bounds__(kThreads)
    entries_kernel(const Scalar* k, const uint32_t* base, size_t m, BigInt<5> h, unsigned c, unsigned w0, unsigned g,
                   uint32_t table_stride, uint32_t* keys, uint32_t* vals) {
    const size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (j >= m) return;
    DigitWalker digits(k[j], h, c);  // (no local memory, unlike digit())
    for (unsigned w = 0; w < w0; ++w) digits.next();
    const uint32_t bj = base[j];
    for (unsigned wl = 0; wl < g; ++wl) {
        const int32_t d = digits.next();
        const Entry e = table_stride ? make_entry(0, d, bj + (w0 + wl) * table_stride, c) : make_entry(wl, d, bj, c);
        keys[size_t(wl) * m + j] = e.key;
        vals[size_t(wl) * m + j] = e.val;
    }
}

// Entries of a table of base B = odd 2^shift (msm_detail::TableBase) for full scalar j:
// its W signed base-B digits (BaseDigitWalker), window w's against copy w (B^w P).
__global__ void __launch_bounds__(kThreads)
    base_entries_kernel(const Scalar* k, const uint32_t* base, size_t m, BigInt<4> r, uint32_t odd, unsigned shift,
                        unsigned W, uint32_t table_stride, uint32_t* keys, uint32_t* vals) {
    const size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (j >= m) return;
    BaseDigitWalker digits(k[j], r, odd, shift);
    const uint32_t bj = base[j];
    for (unsigned w = 0; w < W; ++w) {
        const Entry e = make_entry(0, digits.next(), bj + w * table_stride, shift);
        keys[size_t(w) * m + j] = e.key;
        vals[size_t(w) * m + j] = e.val;
    }
}

// The same entries split by key bit kPartitionBit (24): keys below 2^24 from the front of
// the list (cursors[0] counts them), the others from its end backwards (cursors[1]), so
// that each part sorts on 24 bits, three of CUB's 8-bit passes, where 25-bit keys (tables
// of more than 2^24 buckets: 45 2^20 at 2^26 bases) would take four. Within a block,
// window by window, the threads' entries of each part are contiguous, in thread order
// (ballots and one reservation a part per block), so the stores coalesce.
constexpr unsigned kPartitionBit = 24, kMaxBaseWindows = 16;
__global__ void __launch_bounds__(kThreads)
    partitioned_base_entries_kernel(const Scalar* k, const uint32_t* base, size_t m, BigInt<4> r, uint32_t odd,
                                    unsigned shift, unsigned W, uint32_t table_stride, unsigned* cursors,
                                    uint32_t* keys, uint32_t* vals) {
    constexpr unsigned kWarps = kThreads / 32;
    __shared__ unsigned lo_at[kMaxBaseWindows][kWarps], hi_at[kMaxBaseWindows][kWarps];
    const size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const bool live = j < m;
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const unsigned below = (1u << lane) - 1;
    BaseDigitWalker digits(live ? k[j] : Scalar{}, r, odd, shift);
    const uint32_t bj = live ? base[j] : 0;
    uint32_t key[kMaxBaseWindows], val[kMaxBaseWindows];
#pragma unroll
    for (unsigned w = 0; w < kMaxBaseWindows; ++w) {
        if (w >= W) break;
        const Entry e = make_entry(0, digits.next(), bj + w * table_stride, shift);
        key[w] = e.key;
        val[w] = e.val;
        const unsigned hi = __ballot_sync(0xffffffffu, live && (key[w] >> kPartitionBit) != 0);
        const unsigned lo = __ballot_sync(0xffffffffu, live) & ~hi;
        if (lane == 0) {
            lo_at[w][warp] = unsigned(__popc(lo));
            hi_at[w][warp] = unsigned(__popc(hi));
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) {  // counts -> offsets within the block's two ranges, then reserve them
        unsigned lo_sum = 0, hi_sum = 0;
        for (unsigned w = 0; w < W; ++w)
            for (unsigned v = 0; v < kWarps; ++v) {
                const unsigned l = lo_at[w][v], h = hi_at[w][v];
                lo_at[w][v] = lo_sum;
                hi_at[w][v] = hi_sum;
                lo_sum += l;
                hi_sum += h;
            }
        const unsigned lo_base = lo_sum ? atomicAdd(&cursors[0], lo_sum) : 0;
        const unsigned hi_base = hi_sum ? atomicAdd(&cursors[1], hi_sum) : 0;
        for (unsigned w = 0; w < W; ++w)
            for (unsigned v = 0; v < kWarps; ++v) {
                lo_at[w][v] += lo_base;
                hi_at[w][v] += hi_base;
            }
    }
    __syncthreads();
    const size_t end = size_t(W) * m - 1;  // the upper part's first slot, filled downwards
#pragma unroll
    for (unsigned w = 0; w < kMaxBaseWindows; ++w) {
        if (w >= W) break;
        const bool is_hi = (key[w] >> kPartitionBit) != 0;
        const unsigned hi = __ballot_sync(0xffffffffu, live && is_hi);
        const unsigned lo = __ballot_sync(0xffffffffu, live) & ~hi;
        if (!live) continue;
        const size_t at = is_hi ? end - (size_t(hi_at[w][warp]) + unsigned(__popc(hi & below)))
                                : size_t(lo_at[w][warp]) + unsigned(__popc(lo & below));
        keys[at] = key[w];
        vals[at] = val[w];
    }
}

// The runs of mixed additions (level 1 and the 1s) in the field's redundant form
// (XYZZ::add_redundant) over G1 only: G1 with a table 2^26 311.4 ms against 320.2 (H200).
// Over G2 the prover's B_G2 MSM lost with it (2^24 181 against 166 ms, and its times spread,
// for reasons not understood), so G2 keeps the canonical form.
template <class Curve>
constexpr bool kRedundantMadd = (Curve::Field::kRedundant && kG1<Curve>);
// acc += q in the form kRedundantMadd picks, and what a finished run stores.
template <class Curve>
__device__ __forceinline__ void add_mixed(XYZZ<Curve>& acc, const Affine<Curve>& q) {
    if constexpr (kRedundantMadd<Curve>)
        acc = acc.add_redundant(q);
    else
        acc += q;
}
template <class Curve>
struct StoreRun {
    __device__ __forceinline__ XYZZ<Curve> operator()(const XYZZ<Curve>& p) const {
        if constexpr (kRedundantMadd<Curve>)
            return p.canonical();
        else
            return p;
    }
};
// The bucket reduction's running sums (reduce_range) too, for G1 only: G1 reduce at 2^26
// 11.3 -> 10.8 ms; over G2 (the full addition a call, 1.4 KiB frames) 2^24 reduce 41.0 /
// 42.2 -> 52.9 / 53.0 ms (H200, side by side).
template <class Curve>
constexpr bool redundant_reduce() {
    if constexpr (kG1<Curve>) return kRedundantMadd<Curve>;
    return false;
}

// Level 1: segments of the sorted (bucket, signed base) list, mixed additions.
// Functors, not lambdas, so that they can be forced inline: over Fp2 nvcc made the
// adding lambda a call, and the bucket accumulator, passed to it by reference, then
// lived in local memory (see the table at the top).
struct KeyAt {
    const uint32_t* keys;
    __device__ __forceinline__ uint32_t operator()(size_t i) const { return keys[i]; }
};
template <class Curve>
struct AddBase {
    const uint32_t* vals;
    const Affine<Curve>* bases;
    __device__ __forceinline__ void operator()(size_t i, XYZZ<Curve>& acc) const {
        const uint32_t v = vals[i];
        if (v == kSkip) return;
        // Negated in place: selecting between p and -p kept both copies.
        Affine<Curve> p = bases[v & 0x7fffffffu];
        if (v >> 31) p.y = -p.y;  // (the addition ignores y of the point at infinity)
        add_mixed(acc, p);
    }
};
// The same split in two for accumulate_segment_pipelined: the gather, one entry ahead,
// and the addition.
template <class Curve>
struct LoadedBase {
    Affine<Curve> p;
    uint32_t v;
};
template <class Curve>
struct LoadBase {
    const uint32_t* vals;
    const Affine<Curve>* bases;
    __device__ __forceinline__ LoadedBase<Curve> operator()(size_t i) const {
        const uint32_t v = vals[i];
        return {bases[v == kSkip ? 0 : v & 0x7fffffffu], v};  // (a skipped entry reads base 0, unused)
    }
};
template <class Curve>
struct ApplyBase {
    __device__ __forceinline__ void operator()(LoadedBase<Curve> b, XYZZ<Curve>& acc) const {
        if (b.v == kSkip) return;
        if (b.v >> 31) b.p.y = -b.p.y;
        add_mixed(acc, b.p);
    }
};
// Launch bounds: G1 takes 188 registers (2 blocks of 128 a SM). Three blocks (168
// registers, 58/64 B spilled) was slower: 2^26 424.2 -> 452.8 ms, 2^24 114.2 -> 118.3
// (H200, side by side; ncu: 10.8 warps a SM but 71% SM throughput against 77%).
// Blocks of 64 or 32 threads (10 warps a SM at 188 registers instead of 8) changed nothing:
// G1 2^26 with a table 320.2 / 320.2 / 320.1 ms at 128 / 64 / 32 (accumulate 282.3-283.0).
// kPrefetch (G1 only): the next base is gathered during the current addition.
template <class Curve, bool kPrefetch>
__global__ void __launch_bounds__(kThreads)
    accumulate_bases_kernel(const uint32_t* keys, const uint32_t* vals, size_t len, size_t seg_len, size_t segs,
                            const Affine<Curve>* bases, XYZZ<Curve>* buckets, uint32_t* ck, XYZZ<Curve>* cp) {
    const size_t s = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (s >= segs) return;
    const size_t b = s * seg_len, e = min_sz(len, b + seg_len);
    if constexpr (kPrefetch) {
        accumulate_segment_pipelined<XYZZ<Curve>>(b, e, s, KeyAt{keys}, LoadBase<Curve>{vals, bases},
                                                  ApplyBase<Curve>{}, buckets, ck, cp, StoreRun<Curve>{});
    } else {
        accumulate_segment<XYZZ<Curve>>(b, e, s, KeyAt{keys}, AddBase<Curve>{vals, bases}, buckets, ck, cp,
                                        StoreRun<Curve>{});
    }
}

// Copy w of the precomputed table from copy w - 1: out[i] = odd 2^c in[i] for i in [0, n)
// (odd = 1 but for the tables of base odd 2^c), per_thread consecutive points a thread,
// the odd multiple by double-and-add, c Jacobian doublings, then back to affine
// with one inversion a thread (Montgomery's trick: zs holds each Z, prefix the product of
// the Zs before it). One-time work (2^26 bases, c = 24: 10 x 24 x 2^26 = 1.6e10 doublings).
template <class Curve>
__global__ void __launch_bounds__(kThreads)
    shift_bases_kernel(const Affine<Curve>* in, size_t n, uint32_t odd, unsigned c, size_t per_thread,
                       Affine<Curve>* out, typename Curve::Field* zs, typename Curve::Field* prefix) {
    using F = typename Curve::Field;
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const size_t b = t * per_thread;
    if (b >= n) return;
    const size_t e = min_sz(n, b + per_thread);
    F acc = F::one();
    for (size_t i = b; i < e; ++i) {
        const Jacobian<Curve> p = Jacobian<Curve>::from_affine(in[i]);
        Jacobian<Curve> q = p;
        for (int b = 30 - __clz(odd); b >= 0; --b) {  // bits of odd below its top one
            q = q.dbl();
            if ((odd >> b) & 1) q = q + p;
        }
        for (unsigned d = 0; d < c; ++d) q = q.dbl();
        zs[i] = q.Z;  // zero for the identity (the only point of order dividing odd 2^c here)
        prefix[i] = acc;
        out[i] = Affine<Curve>{q.X, q.Y, q.is_identity()};
        if (!q.is_identity()) acc *= q.Z;
    }
    F inv = acc.inverse();
    for (size_t i = e; i-- > b;) {
        if (zs[i].is_zero()) {
            out[i] = Affine<Curve>::identity();
            continue;
        }
        const F zi = inv * prefix[i];  // 1 / Z_i
        inv *= zs[i];
        const F zi2 = zi.square();
        out[i].x *= zi2;
        out[i].y *= zi2 * zi;
    }
}

// Batch-affine pairing rounds (msm_detail::pair_round). Round 0 reads the signed bases
// of the sorted entries, later rounds the points the previous round wrote.
template <class Curve>
struct BasePoint {
    const uint32_t* vals;
    const Affine<Curve>* bases;
    __device__ __forceinline__ Affine<Curve> operator()(size_t i) const {
        const uint32_t v = vals[i];
        if (v == kSkip) return Affine<Curve>::identity();  // digit 0: bucket 0, weight 0
        Affine<Curve> p = bases[v & 0x7fffffffu];
        if (v >> 31) p.y = -p.y;
        return p;
    }
    __device__ __forceinline__ bool x(size_t i, typename Curve::Field& x) const {
        const uint32_t v = vals[i];
        if (v == kSkip) return true;
        const Affine<Curve>* p = bases + (v & 0x7fffffffu);
        x = p->x;
        return p->infinity;
    }
};
template <class Curve>
struct ListPoint {
    const Affine<Curve>* pts;
    __device__ __forceinline__ Affine<Curve> operator()(size_t i) const { return pts[i]; }
    __device__ __forceinline__ bool x(size_t i, typename Curve::Field& x) const {
        x = pts[i].x;
        return pts[i].infinity;
    }
};
// Slot j's cell; threads take slots t, t + threads, ...: a warp touches consecutive cells.
template <class F>
struct ScratchAt {
    F* cells;
    __device__ __forceinline__ F& operator()(size_t j) const { return cells[j]; }
};

__global__ void __launch_bounds__(kThreads)
    split_flags_kernel(const uint32_t* key, size_t len, size_t slots, uint32_t* flags) {
    const size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (j < slots) flags[j] = slot_splits(key, len, j);
}

template <class Curve, class PointAt>
__global__ void __launch_bounds__(kThreads)
    pair_round_kernel(size_t len, size_t threads, const uint32_t* key, PointAt point, typename Curve::Field* scratch,
                      const uint32_t* splits_before, uint32_t* out_key, Affine<Curve>* out_pt) {
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    pair_round<Curve>(t, threads, len, key, point, ScratchAt<typename Curve::Field>{scratch}, splits_before, out_key,
                      out_pt);
}

// A sorted list of (key, stored point): the carry list of the level below (Stored =
// XYZZ, full additions; levels 2+), or the affine points the batch-affine rounds left
// (Stored = Affine, mixed additions; level 1 after them). Launched with Stored spelled out:
// deduced from Impl's private aliases, cudafe's stub names them and fails to compile.
template <class Curve, class Stored>
__global__ void __launch_bounds__(kThreads)
    accumulate_stored_kernel(const uint32_t* in_key, const Stored* in_pt, size_t len, size_t seg_len, size_t segs,
                             XYZZ<Curve>* buckets, uint32_t* ck, XYZZ<Curve>* cp) {
    const size_t s = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (s >= segs) return;
    const size_t b = s * seg_len, e = min_sz(len, b + seg_len);
    accumulate_segment<XYZZ<Curve>>(
        b, e, s, [&](size_t i) { return in_key[i]; }, [&](size_t i, XYZZ<Curve>& acc) { acc += in_pt[i]; }, buckets, ck,
        cp);
}

template <class Curve>
__global__ void __launch_bounds__(kThreads)
    combine_kernel(const uint32_t* key, const XYZZ<Curve>* pt, size_t len, XYZZ<Curve>* buckets) {
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t < len) combine_head(t, len, key, pt, buckets);
}

// out[w * T + r] = sum_{i in range r} i * buckets[w][i], ranges of R of the nb buckets.
template <class Curve>
__global__ void __launch_bounds__(kThreads)
    reduce_ranges_kernel(const XYZZ<Curve>* buckets, size_t nb, size_t windows, size_t R, size_t T, XYZZ<Curve>* out) {
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= windows * T) return;
    const size_t w = t / T, r = t % T;
    const size_t lo = r * R, hi = min_sz(nb, lo + R);
    out[t] = reduce_range<XYZZ<Curve>, redundant_reduce<Curve>()>(buckets + w * nb, lo, hi);
}

// out[sg * len2 + k] = sum of in[sg * len + k * pt .. + pt), len2 = ceil(len / pt).
template <class Curve>
__global__ void __launch_bounds__(kThreads)
    sum_kernel(const XYZZ<Curve>* in, size_t segs, size_t len, size_t pt, size_t len2, XYZZ<Curve>* out) {
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= segs * len2) return;
    const size_t sg = t / len2, k = t % len2;
    const size_t b = k * pt, e = min_sz(len, b + pt);
    XYZZ<Curve> acc = XYZZ<Curve>::identity();
    for (size_t i = b; i < e; ++i) acc += in[sg * len + i];
    out[t] = acc;
}

// acc += q as a call. Over Fp2 the loop of ones_kernel spilled ~500 B with the mixed
// addition inlined (the accumulate_segment loop of level 1 only 74 B, for reasons of
// ptxas), so there it stays the call it was before the addition was forced inline.
template <class Curve>
__device__ __noinline__ void add_call(XYZZ<Curve>& acc, const Affine<Curve>& q) {
    add_mixed(acc, q);
}

// Scalars equal to 1: thread t sums the bases of ones [t L, (t+1) L) (mixed additions).
template <class Curve>
__global__ void __launch_bounds__(kThreads) ones_kernel(const uint32_t* idx, size_t n1, size_t L, size_t threads,
                                                        const Affine<Curve>* bases, XYZZ<Curve>* out) {
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    const size_t b = t * L, e = min_sz(n1, b + L);
    XYZZ<Curve> acc = XYZZ<Curve>::identity();
    for (size_t i = b; i < e; ++i) {
        if constexpr (kOverFp2<Curve>)
            add_call(acc, bases[idx[i]]);
        else
            add_mixed(acc, bases[idx[i]]);
    }
    out[t] = StoreRun<Curve>{}(acc);
}

// Entries sorted at once: kGroupEntries, or less under a cap.
size_t group_entries(const MsmScratchLimits& limits) {
    return limits.sort_entries ? std::min(limits.sort_entries, kGroupEntries) : kGroupEntries;
}

// Window bits c, or fewer (down to kMinCappedWindowBits) until the W(c) bucket sets fit
// limits.bucket_bytes.
template <class Curve>
unsigned capped_window_bits(unsigned c, const MsmScratchLimits& limits) {
    const auto need = [](unsigned b) {
        return size_t(num_windows(b, kScalarBits<Curve>)) * ((size_t(1) << (b - 1)) + 1) * sizeof(XYZZ<Curve>);
    };
    if (limits.bucket_bytes)
        while (c > kMinCappedWindowBits && need(c) > limits.bucket_bytes) --c;
    return c;
}

}  // namespace

// Estimated from run_core's sizing rules, on the high side: the classification (scalars,
// canonical values, base indices, flags, the 1s' indices), the sort's keys and values
// (double-buffered) and as much again for CUB's scratch, the buckets, and the carries and
// sums at 2048 threads a multiprocessor.
template <class Curve>
size_t msm_run_scratch_bytes(size_t n, int sms, unsigned table_window_bits, const MsmScratchLimits& limits,
                             size_t scalars) {
    const unsigned c = table_window_bits
                           ? table_window_bits
                           : capped_window_bits<Curve>(gpu_msm_window_bits(n, kScalarBits<Curve>), limits);
    const size_t W = num_windows(c, kScalarBits<Curve>), nb = (size_t(1) << (c - 1)) + 1;
    const size_t entries = table_window_bits ? W * n : std::max(std::min(group_entries(limits), W * n), n);
    const size_t sets = table_window_bits ? 1 : W;
    const size_t point = sizeof(XYZZ<Curve>) + sizeof(uint32_t);
    const size_t classify =
        std::max(n, scalars) * (sizeof(typename Curve::Scalar) + sizeof(BigInt<4>) + 2 * sizeof(uint32_t) + 2);
    const size_t sort = entries * 6 * sizeof(uint32_t);
    const size_t sums = size_t(std::max(sms, 1)) * (2048 * 10 + 512) * point;
    return classify + sort + sets * nb * sizeof(XYZZ<Curve>) + sums;
}

// ---- the resident-bases object ---------------------------------------------------------

template <class Curve>
struct Msm<Curve>::Impl {
    using P = XYZZ<Curve>;
    using A = Affine<Curve>;
    int device = 0;
    size_t n_bases = 0;
    int sms = 132;
    // Threads of one full wave of resident blocks (occupancy API) of the level-1
    // accumulation (over the bases, and with the base gathered ahead: registers, and so the
    // wave, may differ) and of the range reduction.
    size_t level1_wave = 132 * 256, level1_prefetch_wave = 132 * 256, reduce_wave = 132 * 256;
    cudaStream_t stream = nullptr;
    // The bases, or (after precompute) the table whose copy 0 they are; `bases` is then
    // freed.
    DevBuf<A> bases, table;
    unsigned table_c = 0;
    // Its base (msm_detail::TableBase): odd 1 for the power-of-two tables of window bits
    // table_c (then windows = num_windows(table_c)), else base odd 2^table_c.
    TableBase table_base{};
    DevBuf<unsigned> part_cursors;  // partitioned_base_entries_kernel's two cursors
    // Streamed bases (Msm(Streamed, ...)): host_bases stay in host memory and pass through
    // chunk[0] / chunk[1] (chunk_cap bases each, copied on copy_stream); `active` is the
    // chunk the pipeline reads during a streamed run (active_n bases), null otherwise.
    const A* host_bases = nullptr;
    size_t chunk_cap = 0;
    Scratch<A> chunk[2];  // views of the scratch's kChunk0 / kChunk1, reserved by each run
    cudaStream_t copy_stream = nullptr;
    // Pageable host bases go through two page-locked staging buffers (detail::HostStaging,
    // filled by 4 threads), the host copy into one overlapping the DMA of the other: the driver's
    // own path for pageable memory moved ~6 GB/s on the H200 host (2^26 G1 bases, 6 GiB,
    // in ~1 s against ~0.13 s page-locked).
    bool host_pinned = false;
    bool registered = false;  // host_bases page-locked by this object (Streamed's page_lock)
    detail::HostStaging staging{4};
    const A* active = nullptr;
    size_t active_n = 0;
    const A* base_ptr() const { return active ? active : table_c ? table.p : bases.p; }
    // Per-run scratch, grown on demand and kept for the next run: views of `scratch`'s
    // buffers (this object's own, or shared with other Msm objects: use_scratch).
    std::shared_ptr<MsmScratch> scratch;
    Scratch<ScalarField> scalars;
    DevBuf<uint64_t> density;  // these two stay with the object (density_on_device)
    DevBuf<uint32_t> word_prefix;
    // The density words on the device now (with their set-bit count), as the host gave
    // them: a run with the same words copies nothing. Every proof of a circuit passes the
    // same density, and its copy from pageable memory waited behind the next proof's a and c
    // copied ahead (src/backend/cuda/cuda_backend.cu): a 32 GiB partition's A MSM 57 -> 151 ms.
    std::vector<uint64_t> density_on_device;
    size_t density_n = 0, density_count = 0;  // the scalar count it was for; its set bits below it
    Scratch<Scalar> canon, full_k;            // full_k, full_b: without compact_in_place
    Scratch<uint32_t> bidx, ones_idx, full_b;
    Scratch<uint8_t> is_one, is_full;
    Scratch<int> counts, selected;  // classify's counts; the selections' own (unused)
    Scratch<uint32_t> keys[2], vals[2];
    Scratch<P> buckets, carry_pt[2], ranges[2];
    Scratch<uint32_t> carry_key[2];
    Scratch<unsigned char> temp;
    // Batch-affine rounds: split flags and their prefix sums, the lists they write, the
    // running products of the batches.
    Scratch<uint32_t> split_flags, splits_before, round_keys[2];
    Scratch<A> round_pts[2];
    Scratch<typename Curve::Field> products;

    // Points every view at its buffer of s (the device's: checked by use_scratch).
    void bind(std::shared_ptr<MsmScratch> s) {
        scratch = std::move(s);
        scratch->device = device;
        MsmScratch& m = *scratch;
        const auto at = [&m](auto& view, MsmScratch::Slot slot) {
            view.b = &m.buf[slot];
            view.p = nullptr;
        };
        at(scalars, MsmScratch::kScalars);
        at(canon, MsmScratch::kCanon);
        at(full_k, MsmScratch::kFullK);
        at(full_b, MsmScratch::kFullB);
        at(bidx, MsmScratch::kBidx);
        at(ones_idx, MsmScratch::kOnesIdx);
        at(is_one, MsmScratch::kIsOne);
        at(is_full, MsmScratch::kIsFull);
        at(counts, MsmScratch::kCounts);
        at(selected, MsmScratch::kSelected);
        at(keys[0], MsmScratch::kKeys0);
        at(keys[1], MsmScratch::kKeys1);
        at(vals[0], MsmScratch::kVals0);
        at(vals[1], MsmScratch::kVals1);
        at(buckets, MsmScratch::kBuckets);
        at(carry_pt[0], MsmScratch::kCarryPt0);
        at(carry_pt[1], MsmScratch::kCarryPt1);
        at(carry_key[0], MsmScratch::kCarryKey0);
        at(carry_key[1], MsmScratch::kCarryKey1);
        at(ranges[0], MsmScratch::kRanges0);
        at(ranges[1], MsmScratch::kRanges1);
        at(temp, MsmScratch::kTemp);
        at(split_flags, MsmScratch::kSplitFlags);
        at(splits_before, MsmScratch::kSplitsBefore);
        at(round_keys[0], MsmScratch::kRoundKeys0);
        at(round_keys[1], MsmScratch::kRoundKeys1);
        at(round_pts[0], MsmScratch::kRoundPts0);
        at(round_pts[1], MsmScratch::kRoundPts1);
        at(products, MsmScratch::kProducts);
        at(chunk[0], MsmScratch::kChunk0);
        at(chunk[1], MsmScratch::kChunk1);
    }
    // Phase timing (GpuMsmOptions::phases): events recorded on the stream at the end of
    // each phase; interval i (event i to event i + 1) is credited to phase_of[i + 1].
    // Created on first use and kept; nothing is recorded when `timing` is false.
    bool timing = false;
    std::vector<cudaEvent_t> events;
    std::vector<float GpuMsmPhases::*> phase_of;
    size_t marks = 0;

    // chunk_bases 0: n bases resident (uploaded by the caller into `bases`); otherwise
    // streamed from host_src in chunks of that many.
    Impl(int dev, size_t n, const A* host_src = nullptr, size_t chunk_bases = 0, bool page_lock = false)
        : device(dev), n_bases(n) {
        if (n > kMaxBases)
            throw std::invalid_argument("gpu msm: " + std::to_string(n) + " bases; at most 2^31 - 2 supported");
        check(cudaSetDevice(device), "cudaSetDevice");
        check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
        check(cudaStreamCreate(&stream), "cudaStreamCreate");
        level1_wave = wave_threads(accumulate_bases_kernel<Curve, false>);
        if constexpr (kG1<Curve>)  // (no gather-ahead kernel over Fp2)
            level1_prefetch_wave = wave_threads(accumulate_bases_kernel<Curve, true>);
        else
            level1_prefetch_wave = level1_wave;
        reduce_wave = wave_threads(reduce_ranges_kernel<Curve>);
        bind(std::make_shared<MsmScratch>());
        if (chunk_bases == 0) {
            bases.reserve(n, "cudaMalloc bases");
        } else {
            host_bases = host_src;
            chunk_cap = chunk_bases;
            check(cudaStreamCreateWithFlags(&copy_stream, cudaStreamNonBlocking), "cudaStreamCreate");
            host_pinned = n == 0 || detail::is_page_locked(host_src, n * sizeof(A));
            for (auto& c : chunk) c.reserve(std::min(n, chunk_cap), "cudaMalloc base chunk");
            // Last: nothing after it may throw (the destructor, which undoes it, would not run).
            if (!host_pinned && page_lock) {
                // Read-only registration for memory the process cannot write (a read-only
                // mapping of a parameter file); refused both ways, the staging buffers serve.
                void* p = const_cast<A*>(host_src);
                for (unsigned flags : {cudaHostRegisterDefault, cudaHostRegisterReadOnly}) {
                    if (cudaHostRegister(p, n * sizeof(A), flags) == cudaSuccess) {
                        registered = host_pinned = true;
                        break;
                    }
                    cudaGetLastError();
                }
            }
        }
    }
    template <class Kernel>
    size_t wave_threads(Kernel kernel) const {
        int blocks = 0;
        check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, kThreads, 0),
              "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
        return size_t(sms) * size_t(std::max(blocks, 1)) * kThreads;
    }
    ~Impl() {
        for (cudaEvent_t e : events) cudaEventDestroy(e);
        if (stream) cudaStreamDestroy(stream);
        if (copy_stream) {
            cudaStreamSynchronize(copy_stream);
            cudaStreamDestroy(copy_stream);
        }
        if (registered) cudaHostUnregister(const_cast<A*>(host_bases));
    }

    // Ends the current phase (the work queued since the previous mark) as `phase`;
    // nullptr for the first mark, which only starts the clock.
    void mark(float GpuMsmPhases::*phase) {
        if (!timing) return;
        if (marks == events.size()) {
            cudaEvent_t e = nullptr;
            check(cudaEventCreate(&e), "cudaEventCreate");
            events.push_back(e);
            phase_of.push_back(nullptr);
        }
        check(cudaEventRecord(events[marks], stream), "cudaEventRecord");
        phase_of[marks++] = phase;
    }
    // Waits for the last mark and sums the intervals into *out.
    void read_phases(GpuMsmPhases* out) {
        *out = GpuMsmPhases{};
        if (marks < 2) return;
        check(cudaEventSynchronize(events[marks - 1]), "cudaEventSynchronize");
        for (size_t i = 1; i < marks; ++i) {
            float t = 0;
            check(cudaEventElapsedTime(&t, events[i - 1], events[i]), "cudaEventElapsedTime");
            out->*phase_of[i] += t;
            out->total += t;
        }
    }

    void precompute(unsigned c, uint32_t odd = 1) {
        check(cudaSetDevice(device), "cudaSetDevice");
        if (chunk_cap)
            throw std::invalid_argument("gpu msm: streamed bases stay in host memory and take no precomputed table");
        if (c == 0 && odd == 1) {
            const TableBase pick = gpu_msm_precomputed_table(n_bases, true, ScalarField::kP);
            c = pick.shift;
            odd = pick.odd;
        }
        unsigned W = 0;
        if (odd == 1) {
            if (c < 4 || c > 26) throw std::invalid_argument("gpu msm: precomputed window bits must be in [4, 26]");
            W = num_windows(c, kScalarBits<Curve>);
        } else {
            W = base_windows(odd, c, ScalarField::kP);
            if (W == 0 || c < 4)
                throw std::invalid_argument(
                    "gpu msm: a table base must be m 2^s with m odd in [3, 255], s >= 4 and "
                    "m 2^s < 2^31, not " +
                    std::to_string(odd) + " 2^" + std::to_string(c));
        }
        if (uint64_t(W) * n_bases > kMaxBases) {
            throw std::invalid_argument("gpu msm: a table of " + std::to_string(W) + " x " + std::to_string(n_bases) +
                                        " bases exceeds the 2^31 - 1 that entries address");
        }
        if (table_c) drop();
        const size_t n = n_bases, bytes = size_t(W) * n * sizeof(A);
        trace::Span span("precompute_bases", "gpu");
        A* t = nullptr;
        if (cudaMalloc(&t, std::max<size_t>(bytes, 1)) != cudaSuccess) {
            cudaGetLastError();  // clear the error state the failed allocation left
            size_t free_b = 0, total_b = 0;
            cudaMemGetInfo(&free_b, &total_b);
            throw std::runtime_error("gpu msm: the precomputed table (" + std::to_string(W) + " copies of " +
                                     std::to_string(n) + " bases, " + std::to_string(bytes >> 20) +
                                     " MiB) does not fit in device memory (" + std::to_string(free_b >> 20) +
                                     " MiB free)");
        }
        table.adopt(t, size_t(W) * n);
        try {
            fill_table(odd, c, W);
        } catch (...) {
            table.release();
            throw;
        }
        bases.release();
        table_c = c;
        table_base = TableBase{odd, c, W};
    }
    // Copies 1..W-1 of the table from copy 0 (the bases).
    void fill_table(uint32_t odd, unsigned c, unsigned W) {
        const size_t n = n_bases;
        A* t = table.p;
        if (n > 0) {
            check(cudaMemcpyAsync(t, bases.p, n * sizeof(A), cudaMemcpyDeviceToDevice, stream), "cudaMemcpy table");
            using F = typename Curve::Field;
            constexpr size_t kChunk = size_t(1) << 22, kPerThread = 32;
            DevBuf<F> zs, prefix;
            zs.reserve(std::min(n, kChunk), "cudaMalloc table scratch");
            prefix.reserve(std::min(n, kChunk), "cudaMalloc table scratch");
            for (unsigned w = 1; w < W; ++w) {
                for (size_t off = 0; off < n; off += kChunk) {
                    const size_t len = std::min(kChunk, n - off);
                    const size_t threads = (len + kPerThread - 1) / kPerThread;
                    shift_bases_kernel<Curve><<<blocks_for(threads), kThreads, 0, stream>>>(
                        t + size_t(w - 1) * n + off, len, odd, c, kPerThread, t + size_t(w) * n + off, zs.p, prefix.p);
                    check_launch("shift_bases_kernel");
                }
            }
            check(cudaStreamSynchronize(stream), "precompute bases");
        }
    }
    // Back to the bases alone: copy 0 of the table.
    void drop() {
        if (!table_c) return;
        check(cudaSetDevice(device), "cudaSetDevice");
        bases.reserve(n_bases, "cudaMalloc bases");
        if (n_bases > 0)
            check(cudaMemcpy(bases.p, table.p, n_bases * sizeof(A), cudaMemcpyDeviceToDevice), "cudaMemcpy bases");
        table.release();
        table_c = 0;
        table_base = TableBase{};
    }

    void* temp_for(size_t bytes) { return temp.reserve(bytes, "cudaMalloc CUB temp"); }

    // gpu_msm_window_bits(m), held to 20 bits where its wider windows' buckets (W x 2^(c-1)
    // points: 4.8 GB of G1 at 22 bits against 1.3 GB at 20) would take more than a quarter
    // of the free device memory (a 16 GB card at 2^26 keeps 20; the H200 takes 22).
    // Under a bucket cap (MsmScratchLimits), fewer bits until the buckets fit it.
    unsigned rule_window_bits(size_t m) const {
        const unsigned c = capped_window_bits<Curve>(gpu_msm_window_bits(m, kScalarBits<Curve>), scratch->limits);
        if (c <= 20) return c;
        const size_t need = size_t(num_windows(c, kScalarBits<Curve>)) * ((size_t(1) << (c - 1)) + 1) * sizeof(P);
        if (buckets.b && need <= buckets.cap() * sizeof(P)) return c;  // already held
        size_t free_b = 0, total_b = 0;
        if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
            cudaGetLastError();
            return 20;
        }
        return need <= free_b / 4 ? c : 20;
    }

    // Sum of `len` XYZZ points per segment (segs segments, contiguous) down to one each,
    // starting in ranges[from]; returns the buffer index holding the result. Each level's
    // buffer is sized for len_cap >= len points a segment (a bound that does not depend on
    // the run's scalars, so that later runs do not grow it).
    int sum_tree(int from, size_t segs, size_t len, size_t len_cap) {
        while (len > 1) {
            const size_t len2 = (len + kSumPerThread - 1) / kSumPerThread;
            len_cap = std::max((len_cap + kSumPerThread - 1) / kSumPerThread, len2);
            P* out = ranges[1 - from].reserve(segs * len_cap, "cudaMalloc sums");
            sum_kernel<Curve>
                <<<blocks_for(segs * len2), kThreads, 0, stream>>>(ranges[from].p, segs, len, kSumPerThread, len2, out);
            check_launch("sum_kernel");
            from = 1 - from;
            len = len2;
        }
        return from;
    }

    // Pairs per thread of a round over `slots` slots (0: the round does not pay).
    size_t affine_batch(const GpuMsmOptions& opt, size_t slots) const {
        if (tuning_of(opt).affine_batch) return tuning_of(opt).affine_batch;
        const size_t threads = size_t(sms) * std::max(1u, tuning_of(opt).affine_threads_per_sm);
        const size_t k = std::min(kMaxAffineBatch, (slots + threads - 1) / threads);
        return (tuning_of(opt).affine_rounds > 0 || k >= kMinAffineBatch) ? std::max<size_t>(k, 1) : 0;
    }
    // Whether the window groups of m full scalars start with batch-affine rounds (G1).
    bool use_affine(const GpuMsmOptions& opt, size_t m, unsigned W) const {
        if (!kG1<Curve> || tuning_of(opt).affine_rounds == 0) return false;
        const size_t len = std::clamp<size_t>(kAffineGroupEntries / m, 1, W) * m;
        return affine_batch(opt, pair_slots(len)) > 0;
    }

    // Batch-affine rounds over the sorted list (keys, signed base indices `vals`) of llen
    // entries; on return keys/pts/llen describe the shortened list (pts null if no round
    // ran). Stops when a round would not pay (auto) or shrinks the list by less than 1/4.
    // G1 only (use_affine): a template, so that `template class Msm<G2Curve>` does not
    // compile the G2 rounds nobody runs (msm_g2.cu: cicc 220 -> 190 s on the dev machine).
    template <class C = Curve>
    requires kG1<C>
    void pair_rounds(const GpuMsmOptions& opt, const uint32_t* vals, const uint32_t*& keys, const A*& pts,
                     size_t& llen) {
        using F = typename Curve::Field;
        for (int r = 0; tuning_of(opt).affine_rounds < 0 || r < tuning_of(opt).affine_rounds; ++r) {
            const size_t slots = pair_slots(llen);
            const size_t K = llen >= 2 ? affine_batch(opt, slots) : 0;
            if (K == 0) break;
            const size_t threads = (slots + K - 1) / K;
            uint32_t* flags = split_flags.reserve(slots, "cudaMalloc split flags");
            uint32_t* before = splits_before.reserve(slots, "cudaMalloc split prefix");
            split_flags_kernel<<<blocks_for(slots), kThreads, 0, stream>>>(keys, llen, slots, flags);
            check_launch("split_flags_kernel");
            size_t need = 0;
            check(cub::DeviceScan::ExclusiveSum(nullptr, need, flags, before, int(slots), stream), "cub scan size");
            check(cub::DeviceScan::ExclusiveSum(temp_for(need), need, flags, before, int(slots), stream), "cub scan");
            uint32_t last[2] = {0, 0};
            check(cudaMemcpyAsync(&last[0], before + slots - 1, 4, cudaMemcpyDeviceToHost, stream), "cudaMemcpy");
            check(cudaMemcpyAsync(&last[1], flags + slots - 1, 4, cudaMemcpyDeviceToHost, stream), "cudaMemcpy");
            check(cudaStreamSynchronize(stream), "split prefix");
            const size_t out_len = slots + last[0] + last[1];
            const int b = r % 2;
            uint32_t* ok = round_keys[b].reserve(out_len, "cudaMalloc round keys");
            A* op = round_pts[b].reserve(out_len, "cudaMalloc round points");
            F* cells = products.reserve(slots, "cudaMalloc batch products");
            if (r == 0) {
                pair_round_kernel<Curve><<<blocks_for(threads), kThreads, 0, stream>>>(
                    llen, threads, keys, BasePoint<Curve>{vals, base_ptr()}, cells, before, ok, op);
            } else {
                pair_round_kernel<Curve><<<blocks_for(threads), kThreads, 0, stream>>>(
                    llen, threads, keys, ListPoint<Curve>{pts}, cells, before, ok, op);
            }
            check_launch("pair_round_kernel");
            const bool poor = out_len * 4 > llen * 3;
            keys = ok;
            pts = op;
            llen = out_len;
            if (tuning_of(opt).affine_rounds < 0 && poor) break;
        }
    }

    size_t last_growths = 0;  // buffer growths (t_growths) in the last run: scratch_growths()

    // A streamed run: chunk k's bases are copied (copy_stream, on a thread of its own so
    // that a pageable copy does not hold this one) while chunk k - 1's pipeline runs; the
    // chunks' sums, stats and phase times add up.
    Jacobian<Curve> run_streamed(const ScalarField* d_scalars, size_t n, const GpuMsmOptions& opt) {
        check(cudaSetDevice(device), "cudaSetDevice");
        if (n > size_t(INT32_MAX)) throw std::invalid_argument("gpu msm: more than 2^31 - 1 scalars");
        // Pieces: scalars [s0, s1) whose bases are [b0, b1), at most chunk_cap of them; with a
        // density, pieces end on words, so that a piece's density is a slice of the words.
        // About equal in size (ceil(bases / chunk_cap) of them) rather than full chunks and a
        // short last one: each piece is an MSM of its own, and its fixed costs (sort passes,
        // bucket reduction) do not shrink with it.
        struct Piece {
            size_t s0, s1, b0, b1;
        };
        std::vector<Piece> pieces;
        const size_t words = opt.density ? (n + 63) / 64 : 0;
        const auto word_bits = [&](size_t w) {
            uint64_t word = opt.density[w];
            if (w == words - 1 && n % 64) word &= (uint64_t(1) << (n % 64)) - 1;
            return size_t(std::popcount(word));
        };
        size_t with_base = n;
        if (opt.density) {
            with_base = 0;
            for (size_t w = 0; w < words; ++w) with_base += word_bits(w);
        }
        const size_t count = std::max<size_t>(1, (with_base + chunk_cap - 1) / chunk_cap);
        const size_t target = std::max((with_base + count - 1) / count, Msm<Curve>::kMinChunkBases);  // <= chunk_cap
        if (!opt.density) {
            for (size_t s = 0; s < n; s += target) {
                const size_t e = std::min(n, s + target);
                pieces.push_back({s, e, s, e});
            }
        } else {
            size_t s0 = 0, b0 = 0, seen = 0;  // seen: bases of the words before w
            for (size_t w = 0; w < words; ++w) {
                const size_t pc = word_bits(w);
                if (seen + pc - b0 > target) {  // never for a piece's first word: pc <= 64 <= target
                    pieces.push_back({s0, w * 64, b0, seen});
                    s0 = w * 64;
                    b0 = seen;
                }
                seen += pc;
            }
            if (n > 0) pieces.push_back({s0, n, b0, seen});
        }
        if (with_base > n_bases) {
            throw std::invalid_argument("gpu msm: " + std::to_string(with_base) + " scalars" +
                                        (opt.density ? " with a base (density)" : "") + " but only " +
                                        std::to_string(n_bases) + " bases");
        }
        if (opt.stats) *opt.stats = MsmStats{};
        if (opt.phases) *opt.phases = GpuMsmPhases{};
        const auto upload = [this, &pieces](size_t k) {
            const Piece& p = pieces[k];
            A* to = chunk[k % 2].p;
            const A* from = host_bases + p.b0;
            const size_t count = p.b1 - p.b0;
            return std::async(std::launch::async, [this, to, from, count] {
                check(cudaSetDevice(device), "cudaSetDevice");
                if (count == 0) return;
                trace::Span span("h2d_base_chunk", "gpu");
                if (host_pinned)
                    check(cudaMemcpyAsync(to, from, count * sizeof(A), cudaMemcpyHostToDevice, copy_stream),
                          "cudaMemcpy base chunk");
                else
                    staging.copy(to, from, count * sizeof(A), copy_stream);
                check(cudaStreamSynchronize(copy_stream), "cudaMemcpy base chunk");
            });
        };
        struct Unset {
            const A*& a;
            ~Unset() { a = nullptr; }
        } unset{active};
        // Shared with other streamed sets (use_scratch), which may have resized them since.
        for (auto& c : chunk) c.reserve(std::min(n_bases, chunk_cap), "cudaMalloc base chunk");
        Jacobian<Curve> sum = Jacobian<Curve>::identity();
        std::future<void> next = pieces.empty() ? std::future<void>() : upload(0);
        for (size_t k = 0; k < pieces.size(); ++k) {
            next.get();  // chunk k is on the device
            // Into the other buffer: its last reader, chunk k - 1's pipeline, has finished
            // (run_core returns after its stream is idle).
            if (k + 1 < pieces.size()) next = upload(k + 1);
            const Piece& p = pieces[k];
            GpuMsmOptions o = opt;
            o.density = opt.density ? opt.density + p.s0 / 64 : nullptr;
            MsmStats st;
            GpuMsmPhases ph;
            o.stats = opt.stats ? &st : nullptr;
            o.phases = opt.phases ? &ph : nullptr;
            active = chunk[k % 2].p;
            active_n = p.b1 - p.b0;
            sum += run_core(d_scalars + p.s0, p.s1 - p.s0, o);
            if (opt.stats) {
                opt.stats->zeros += st.zeros;
                opt.stats->ones += st.ones;
                opt.stats->full += st.full;
                opt.stats->window_bits = std::max(opt.stats->window_bits, st.window_bits);
                opt.stats->windows = std::max(opt.stats->windows, st.windows);
                opt.stats->chunks += st.chunks;
            }
            if (opt.phases) {
                GpuMsmPhases& to = *opt.phases;
                to.classify += ph.classify;
                to.ones += ph.ones;
                to.sort += ph.sort;
                to.pair += ph.pair;
                to.accumulate += ph.accumulate;
                to.carries += ph.carries;
                to.reduce += ph.reduce;
                to.total += ph.total;
            }
        }
        return sum;
    }

    Jacobian<Curve> run(const ScalarField* d_scalars, size_t n, const GpuMsmOptions& opt) {
        return chunk_cap ? run_streamed(d_scalars, n, opt) : run_core(d_scalars, n, opt);
    }

    Jacobian<Curve> run_core(const ScalarField* d_scalars, size_t n, const GpuMsmOptions& opt) {
        struct CountGrowths {
            size_t& out;
            size_t start = t_growths;
            ~CountGrowths() { out = t_growths - start; }
        } count_growths{last_growths};
        check(cudaSetDevice(device), "cudaSetDevice");
        if (n > size_t(INT32_MAX)) throw std::invalid_argument("gpu msm: more than 2^31 - 1 scalars");
        // Density: prefix popcounts on the host (n / 64 words), which also checks the length,
        // unless the device holds these very words already.
        size_t expect = n;
        std::vector<uint32_t> prefix;
        const size_t words = opt.density ? (n + 63) / 64 : 0;
        const bool density_resident = opt.density && density_on_device.size() == words && density_n == n &&
                                      std::memcmp(density_on_device.data(), opt.density, words * sizeof(uint64_t)) == 0;
        if (density_resident) {
            expect = density_count;
        } else if (opt.density) {
            prefix.resize(words);
            size_t c = 0;
            for (size_t w = 0; w < words; ++w) {
                prefix[w] = uint32_t(c);
                uint64_t word = opt.density[w];
                if (w == words - 1 && n % 64) word &= (uint64_t(1) << (n % 64)) - 1;
                c += size_t(std::popcount(word));
            }
            expect = c;
        }
        const size_t have = active ? active_n : n_bases;
        if (expect > have) {
            throw std::invalid_argument("gpu msm: " + std::to_string(expect) + " scalars" +
                                        (opt.density ? " with a base (density)" : "") + " but only " +
                                        std::to_string(have) + (active ? " bases in the chunk" : " resident bases"));
        }
        unsigned c = opt.window_bits;
        if (table_c) {
            if (c != 0 && c != table_c) {
                throw std::invalid_argument("gpu msm: window bits " + std::to_string(c) +
                                            " asked for, but the precomputed table has " + std::to_string(table_c));
            }
            c = table_c;
        } else if (c != 0 && (c < 2 || c > kMaxWindowBits)) {
            throw std::invalid_argument("gpu msm: window bits must be in [2, " + std::to_string(kMaxWindowBits) + "]");
        }
        if (opt.stats) *opt.stats = MsmStats{};
        if (opt.phases) *opt.phases = GpuMsmPhases{};
        if (n == 0) return Jacobian<Curve>::identity();
        timing = opt.phases != nullptr;
        marks = 0;
        mark(nullptr);

        const uint64_t* d_density = nullptr;
        const uint32_t* d_prefix = nullptr;
        if (opt.density && !density_resident) {
            density_on_device.clear();  // until both copies are in
            check(cudaMemcpyAsync(density.reserve(words, "cudaMalloc density"), opt.density, words * 8,
                                  cudaMemcpyHostToDevice, stream),
                  "cudaMemcpy density");
            check(cudaMemcpyAsync(word_prefix.reserve(words, "cudaMalloc prefix"), prefix.data(), words * 4,
                                  cudaMemcpyHostToDevice, stream),
                  "cudaMemcpy prefix");
            density_on_device.assign(opt.density, opt.density + words);
            density_n = n;
            density_count = expect;
        }
        if (opt.density) {
            d_density = density.p;
            d_prefix = word_prefix.p;
        }

        // 1. Classify and compact.
        canon.reserve(n, "cudaMalloc canon");
        bidx.reserve(n, "cudaMalloc bidx");
        is_one.reserve(n, "cudaMalloc flags");
        is_full.reserve(n, "cudaMalloc flags");
        ones_idx.reserve(n, "cudaMalloc ones");
        counts.reserve(2, "cudaMalloc counts");
        selected.reserve(1, "cudaMalloc selection count");
        check(cudaMemsetAsync(counts.p, 0, 2 * sizeof(int), stream), "cudaMemset counts");
        classify_kernel<<<unsigned(std::min<size_t>(blocks_for(n), size_t(sms) * 16)), kThreads, 0, stream>>>(
            d_scalars, n, d_density, d_prefix, canon.p, bidx.p, is_one.p, is_full.p, counts.p);
        check_launch("classify_kernel");
        int host_counts[2] = {0, 0};
        check(cudaMemcpyAsync(host_counts, counts.p, sizeof(host_counts), cudaMemcpyDeviceToHost, stream),
              "cudaMemcpy counts");
        check(cudaStreamSynchronize(stream), "classify");
        const size_t n1 = size_t(host_counts[0]), m = size_t(host_counts[1]);
        // Compaction, only where it removes something: with every scalar full the
        // canonical values and base indices are the full lists already (2^26: 4.6 ms of
        // classify with the three selections). The full ones are compacted in place
        // (MsmTuning::compact_in_place), after the 1s' base indices are taken out of
        // bidx: no second n-entry copy.
        const Scalar* full_scalars = canon.p;
        const uint32_t* full_bases = bidx.p;
        const bool in_place = tuning_of(opt).compact_in_place;
        if (!in_place) {
            full_k.reserve(n, "cudaMalloc full_k");
            full_b.reserve(n, "cudaMalloc full_b");
        }
        const int ni = int(n);
        const int64_t n64 = int64_t(n);
        size_t bytes = 0, need = 0;
        check(cub::DeviceSelect::Flagged(nullptr, need, bidx.p, is_one.p, ones_idx.p, selected.p, ni, stream),
              "cub Flagged size");
        bytes = std::max(bytes, need);
        if (in_place) {
            check(cub::DeviceSelect::Flagged(nullptr, need, canon.p, is_full.p, selected.p, n64, stream),
                  "cub Flagged size");
            bytes = std::max(bytes, need);
            check(cub::DeviceSelect::Flagged(nullptr, need, bidx.p, is_full.p, selected.p, n64, stream),
                  "cub Flagged size");
        } else {
            check(cub::DeviceSelect::Flagged(nullptr, need, canon.p, is_full.p, full_k.p, selected.p, ni, stream),
                  "cub Flagged size");
        }
        bytes = std::max(bytes, need);
        void* tmp = temp_for(bytes);
        if (n1 > 0) {
            check(cub::DeviceSelect::Flagged(tmp, bytes, bidx.p, is_one.p, ones_idx.p, selected.p, ni, stream),
                  "cub Flagged ones");
        }
        if (m > 0 && m < n && in_place) {
            check(cub::DeviceSelect::Flagged(tmp, bytes, canon.p, is_full.p, selected.p, n64, stream),
                  "cub Flagged full scalars");
            check(cub::DeviceSelect::Flagged(tmp, bytes, bidx.p, is_full.p, selected.p, n64, stream),
                  "cub Flagged full bases");
        } else if (m > 0 && m < n) {
            check(cub::DeviceSelect::Flagged(tmp, bytes, canon.p, is_full.p, full_k.p, selected.p, ni, stream),
                  "cub Flagged full scalars");
            check(cub::DeviceSelect::Flagged(tmp, bytes, bidx.p, is_full.p, full_b.p, selected.p, ni, stream),
                  "cub Flagged full bases");
            full_scalars = full_k.p;
            full_bases = full_b.p;
        }
        mark(&GpuMsmPhases::classify);
        if (c == 0) c = rule_window_bits(m);
        const bool base_table = table_c != 0 && table_base.odd != 1;
        const unsigned W = base_table ? table_base.windows : num_windows(c, kScalarBits<Curve>);
        if (opt.stats) {
            opt.stats->ones = n1;
            opt.stats->full = m;
            opt.stats->zeros = n - n1 - m;
            opt.stats->window_bits = c;
            opt.stats->windows = W;
        }

        // 2. The 1s: per-thread chunks of mixed additions, then a tree of sums. At most
        // ones_most segments whatever n1 (plan_segments); their buffers are sized for that
        // in every run, 1s or not, as the sort's buffers below are (and why).
        const size_t ones_most = size_t(sms) * 512;
        ranges[0].reserve(ones_most, "cudaMalloc ones partials");
        ranges[1].reserve((ones_most + kSumPerThread - 1) / kSumPerThread, "cudaMalloc sums");
        Jacobian<Curve> ones_sum = Jacobian<Curve>::identity();
        P ones_host = P::identity();
        if (n1 > 0) {
            const SegmentPlan sp = plan_segments(n1, ones_most, 1);
            ones_kernel<Curve><<<blocks_for(sp.segments), kThreads, 0, stream>>>(ones_idx.p, n1, sp.seg_len,
                                                                                 sp.segments, base_ptr(), ranges[0].p);
            check_launch("ones_kernel");
            const int r = sum_tree(0, 1, sp.segments, ones_most);
            check(cudaMemcpyAsync(&ones_host, ranges[r].p, sizeof(P), cudaMemcpyDeviceToHost, stream),
                  "cudaMemcpy ones sum");
            mark(&GpuMsmPhases::ones);
        }

        // 3. Pippenger over the m full scalars, windows in groups. With the precomputed
        // table every window fills one bucket set (sets = 1) in one group.
        const bool pre = table_c != 0;
        const size_t sets = pre ? 1 : W;
        std::vector<P> window_sums(sets, P::identity());
        if (m > 0) {
            // buckets per set, |d| = 0..2^(c-1) (0..B/2 with a table of base B)
            const size_t nb = base_table ? table_base.buckets() : (size_t(1) << (c - 1)) + 1;
            check(cudaMemsetAsync(buckets.reserve(sets * nb, "cudaMalloc buckets"), 0, sets * nb * sizeof(P), stream),
                  "cudaMemset buckets");  // all zero = ZZ 0 = the identity
            const BigInt<5> h = recode_offset(c, kScalarBits<Curve>);
            const bool affine = !pre && use_affine(opt, m, W);
            const size_t group_cap =
                affine ? std::min(kAffineGroupEntries, group_entries(scratch->limits)) : group_entries(scratch->limits);
            const unsigned G = pre ? W : unsigned(std::clamp<size_t>(group_cap / m, 1, W));
            // The sort's buffers and CUB's scratch are sized for the most entries a run over
            // these bases can have (at most `expect` full scalars), not for this run's: a
            // later run with more full scalars would grow them, and the cudaFree of a growth
            // waits for the whole device. In a PoRep sector that was the next partition's a
            // and c copied ahead under this proof's MSMs: msm_l / msm_a / msm_b_g1 took
            // 50-146 ms more at the partitions whose full-scalar count set a new high (H200;
            // ~0.6 s a process).
            const size_t max_entries =
                pre ? size_t(W) * expect : std::max(std::min(group_cap, size_t(W) * expect), expect);
            for (int i = 0; i < 2; ++i) {
                keys[i].reserve(max_entries, "cudaMalloc keys");
                vals[i].reserve(max_entries, "cudaMalloc vals");
            }
            {
                cub::DoubleBuffer<uint32_t> dk(keys[0].p, keys[1].p), dv(vals[0].p, vals[1].p);
                const int most_bits = std::bit_width(uint64_t(pre ? 1 : W) * nb - 1);
                const int most = int(std::min<size_t>(max_entries, size_t(INT32_MAX)));
                check(cub::DeviceRadixSort::SortPairs(nullptr, need, dk, dv, most, 0, most_bits, stream),
                      "cub SortPairs size");
                temp_for(need);
            }
            // The carry lists (two a level-1 segment) are sized for the most segments, as the
            // sort's buffers are (and why).
            const size_t most_carries = 4 * std::max(level1_wave, level1_prefetch_wave);
            for (int i = 0; i < 2; ++i) {
                carry_key[i].reserve(most_carries, "cudaMalloc carries");
                carry_pt[i].reserve(most_carries, "cudaMalloc carries");
            }
            // Level 1 of one sorted list (lkeys, lvals; or the batch-affine rounds' lpts) into
            // group_buckets; returns how many carries (two a segment) it wrote.
            const auto level1 = [&](const uint32_t* lkeys, const uint32_t* lvals, const A* lpts, size_t llen,
                                    P* group_buckets) -> size_t {
                // Level 1: segments of the sorted list, two full waves of the kernel that runs.
                const bool prefetch = !lpts && kG1<Curve> && tuning_of(opt).level1_prefetch;
                SegmentPlan sp = plan_segments(llen, 2 * (prefetch ? level1_prefetch_wave : level1_wave), 4);
                if (opt.stats) opt.stats->chunks = sp.segments;
                uint32_t* ck = carry_key[0].p;
                P* cp = carry_pt[0].p;
                if (lpts) {
                    if constexpr (kG1<Curve>) {
                        accumulate_stored_kernel<Curve, Affine<Curve>>
                            <<<blocks_for(sp.segments), kThreads, 0, stream>>>(lkeys, lpts, llen, sp.seg_len,
                                                                               sp.segments, group_buckets, ck, cp);
                        check_launch("accumulate_stored_kernel (affine)");
                    }
                } else if (prefetch) {
                    accumulate_bases_kernel<Curve, kG1<Curve>><<<blocks_for(sp.segments), kThreads, 0, stream>>>(
                        lkeys, lvals, llen, sp.seg_len, sp.segments, base_ptr(), group_buckets, ck, cp);
                    check_launch("accumulate_bases_kernel (prefetch)");
                } else {
                    accumulate_bases_kernel<Curve, false><<<blocks_for(sp.segments), kThreads, 0, stream>>>(
                        lkeys, lvals, llen, sp.seg_len, sp.segments, base_ptr(), group_buckets, ck, cp);
                    check_launch("accumulate_bases_kernel");
                }
                mark(&GpuMsmPhases::accumulate);
                return 2 * sp.segments;
            };
            // Levels 2+ over the carry list (clen carries, sorted by bucket): it shrinks ~16x a
            // level; then the last few are added to their buckets.
            const auto carries = [&](P* group_buckets, size_t clen) {
                int cur = 0;
                while (clen > kCombineDirect) {
                    const SegmentPlan cp = plan_segments(clen, size_t(sms) * 512, 32);
                    accumulate_stored_kernel<Curve, XYZZ<Curve>><<<blocks_for(cp.segments), kThreads, 0, stream>>>(
                        carry_key[cur].p, carry_pt[cur].p, clen, cp.seg_len, cp.segments, group_buckets,
                        carry_key[1 - cur].p, carry_pt[1 - cur].p);
                    check_launch("accumulate_stored_kernel (carries)");
                    cur = 1 - cur;
                    clen = 2 * cp.segments;
                }
                combine_kernel<Curve>
                    <<<blocks_for(clen), kThreads, 0, stream>>>(carry_key[cur].p, carry_pt[cur].p, clen, group_buckets);
                check_launch("combine_kernel");
                mark(&GpuMsmPhases::carries);
            };
            for (unsigned w0 = 0; w0 < W; w0 += G) {
                const unsigned g = std::min(G, W - w0);
                const size_t len = size_t(g) * m;
                const int key_bits = std::bit_width(uint64_t(pre ? 1 : g) * nb - 1);
                cub::DoubleBuffer<uint32_t> dk(keys[0].p, keys[1].p), dv(vals[0].p, vals[1].p);
                if (base_table && key_bits == int(kPartitionBit) + 1 && W <= kMaxBaseWindows &&
                    tuning_of(opt).partition_sort) {
                    // Two parts by key bit 24, each sorted on 24 bits (partitioned_base_entries_kernel).
                    check(
                        cudaMemsetAsync(part_cursors.reserve(2, "cudaMalloc cursors"), 0, 2 * sizeof(unsigned), stream),
                        "cudaMemset cursors");
                    partitioned_base_entries_kernel<<<blocks_for(m), kThreads, 0, stream>>>(
                        full_scalars, full_bases, m, ScalarField::kP, table_base.odd, c, W, uint32_t(n_bases),
                        part_cursors.p, keys[0].p, vals[0].p);
                    check_launch("partitioned_base_entries_kernel");
                    unsigned counts[2] = {};
                    check(cudaMemcpyAsync(counts, part_cursors.p, sizeof(counts), cudaMemcpyDeviceToHost, stream),
                          "cudaMemcpy cursors");
                    check(cudaStreamSynchronize(stream), "partition counts");
                    if (size_t(counts[0]) + counts[1] != len)
                        throw std::logic_error(
                            "gpu msm: the partitioned entries do not add up to the windows' entries");
                    const int bits = int(kPartitionBit);
                    check(cub::DeviceRadixSort::SortPairs(nullptr, need, dk, dv, int(len), 0, bits, stream),
                          "cub SortPairs size");
                    if (counts[0] > 0)
                        check(cub::DeviceRadixSort::SortPairs(temp_for(need), need, dk, dv, int(counts[0]), 0, bits,
                                                              stream),
                              "cub SortPairs");
                    cub::DoubleBuffer<uint32_t> hk(keys[0].p + counts[0], keys[1].p + counts[0]),
                        hv(vals[0].p + counts[0], vals[1].p + counts[0]);
                    if (counts[1] > 0)
                        check(cub::DeviceRadixSort::SortPairs(temp_for(need), need, hk, hv, int(counts[1]), 0, bits,
                                                              stream),
                              "cub SortPairs");
                    if (hk.selector != dk.selector) {  // the upper part beside the lower one
                        check(cudaMemcpyAsync(dk.Current() + counts[0], hk.Current(), counts[1] * sizeof(uint32_t),
                                              cudaMemcpyDeviceToDevice, stream),
                              "cudaMemcpy keys");
                        check(cudaMemcpyAsync(dv.Current() + counts[0], hv.Current(), counts[1] * sizeof(uint32_t),
                                              cudaMemcpyDeviceToDevice, stream),
                              "cudaMemcpy vals");
                    }
                } else {
                    if (base_table) {
                        base_entries_kernel<<<blocks_for(m), kThreads, 0, stream>>>(
                            full_scalars, full_bases, m, ScalarField::kP, table_base.odd, c, W, uint32_t(n_bases),
                            keys[0].p, vals[0].p);
                        check_launch("base_entries_kernel");
                    } else {
                        entries_kernel<<<blocks_for(m), kThreads, 0, stream>>>(full_scalars, full_bases, m, h, c, w0, g,
                                                                               pre ? uint32_t(n_bases) : 0u, keys[0].p,
                                                                               vals[0].p);
                        check_launch("entries_kernel");
                    }
                    check(cub::DeviceRadixSort::SortPairs(nullptr, need, dk, dv, int(len), 0, key_bits, stream),
                          "cub SortPairs size");
                    check(cub::DeviceRadixSort::SortPairs(temp_for(need), need, dk, dv, int(len), 0, key_bits, stream),
                          "cub SortPairs");
                }
                mark(&GpuMsmPhases::sort);
                P* group_buckets = buckets.p + (pre ? 0 : size_t(w0) * nb);
                // Batch-affine rounds shorten the list first (none: lpts stays null).
                const uint32_t* lkeys = dk.Current();
                const A* lpts = nullptr;
                size_t llen = len;
                if constexpr (kG1<Curve>) {
                    if (affine) {
                        pair_rounds(opt, dv.Current(), lkeys, lpts, llen);
                        mark(&GpuMsmPhases::pair);
                    }
                }
                carries(group_buckets, level1(lkeys, dv.Current(), lpts, llen, group_buckets));
            }
            // 4. Bucket reduction, all windows at once: ranges, then a tree of sums.
            // One full wave: each thread pays a small scalar multiplication on top of its
            // range, so a second, mostly empty wave (2^20: 38.9K threads for 33.8K slots)
            // costs more than longer ranges.
            const size_t target = reduce_wave;
            size_t R = std::max<size_t>(4, (sets * nb + target - 1) / target);
            const size_t T = (nb + R - 1) / R;
            ranges[0].reserve(sets * T, "cudaMalloc ranges");
            reduce_ranges_kernel<Curve>
                <<<blocks_for(sets * T), kThreads, 0, stream>>>(buckets.p, nb, sets, R, T, ranges[0].p);
            check_launch("reduce_ranges_kernel");
            const int r = sum_tree(0, sets, T, T);
            check(cudaMemcpyAsync(window_sums.data(), ranges[r].p, sets * sizeof(P), cudaMemcpyDeviceToHost, stream),
                  "cudaMemcpy window sums");
            mark(&GpuMsmPhases::reduce);
        }
        check(cudaStreamSynchronize(stream), "msm kernels");
        if (timing) read_phases(opt.phases);
        ones_sum = ones_host.to_jacobian();

        // 5. Horner over windows, top first: acc = acc * 2^c + window sum (the table's
        // one set already holds the weights).
        if (pre) return window_sums[0].to_jacobian() + ones_sum;
        Jacobian<Curve> acc = Jacobian<Curve>::identity();
        for (unsigned w = W; w-- > 0;) {
            for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
            acc += window_sums[w].to_jacobian();
        }
        return acc + ones_sum;
    }
};

template <class Curve>
Msm<Curve>::Msm(std::span<const AffinePoint> b, int device) : impl_(std::make_unique<Impl>(device, b.size())) {
    trace::Span span("h2d_bases", "gpu");
    if (!b.empty())
        check(cudaMemcpy(impl_->bases.p, b.data(), b.size() * sizeof(AffinePoint), cudaMemcpyHostToDevice),
              "cudaMemcpy bases");
}

template <class Curve>
Msm<Curve>::Msm(FromDevice, const AffinePoint* device_bases, size_t n, int device)
    : impl_(std::make_unique<Impl>(device, n)) {
    if (n > 0)
        check(cudaMemcpy(impl_->bases.p, device_bases, n * sizeof(AffinePoint), cudaMemcpyDeviceToDevice),
              "cudaMemcpy bases (device to device)");
}

template <class Curve>
Msm<Curve>::Msm(Streamed, std::span<const AffinePoint> host_bases, size_t chunk_bases, int device, bool page_lock) {
    if (chunk_bases < kMinChunkBases) {
        throw std::invalid_argument("gpu msm: streamed bases need chunks of at least " +
                                    std::to_string(kMinChunkBases) + " bases (one density word's), got " +
                                    std::to_string(chunk_bases));
    }
    impl_ = std::make_unique<Impl>(device, host_bases.size(), host_bases.data(), chunk_bases, page_lock);
}

template <class Curve>
Msm<Curve>::~Msm() = default;
template <class Curve>
Msm<Curve>::Msm(Msm&&) noexcept = default;
template <class Curve>
Msm<Curve>& Msm<Curve>::operator=(Msm&&) noexcept = default;

template <class Curve>
size_t Msm<Curve>::size() const {
    return impl_->n_bases;
}
template <class Curve>
int Msm<Curve>::device() const {
    return impl_->device;
}
template <class Curve>
size_t Msm<Curve>::chunk_bases() const {
    return impl_->chunk_cap;
}
template <class Curve>
bool Msm<Curve>::host_page_locked() const {
    return impl_->host_pinned;
}

template <class Curve>
size_t Msm<Curve>::scratch_growths() const {
    return impl_->last_growths;
}

template <class Curve>
void Msm<Curve>::use_scratch(std::shared_ptr<MsmScratch> scratch) {
    if (!scratch) throw std::invalid_argument("gpu msm: use_scratch needs a scratch (make_msm_scratch)");
    if (scratch->device >= 0 && scratch->device != impl_->device) {
        throw std::invalid_argument("gpu msm: a scratch of device " + std::to_string(scratch->device) +
                                    " for bases on device " + std::to_string(impl_->device));
    }
    impl_->bind(std::move(scratch));
}

template <class Curve>
const std::shared_ptr<MsmScratch>& Msm<Curve>::scratch() const {
    return impl_->scratch;
}

template <class Curve>
void Msm<Curve>::precompute(unsigned window_bits) {
    impl_->precompute(window_bits);
}
template <class Curve>
void Msm<Curve>::precompute_base(uint32_t odd, unsigned shift) {
    if (odd == 1)
        throw std::invalid_argument("gpu msm: precompute_base takes an odd factor >= 3; precompute(s) for 2^s");
    impl_->precompute(shift, odd);
}
template <class Curve>
unsigned Msm<Curve>::precomputed_window_bits() const {
    return impl_->table_c;
}
template <class Curve>
msm_detail::TableBase Msm<Curve>::precomputed_base() const {
    return impl_->table_base;
}
template <class Curve>
size_t Msm<Curve>::device_base_bytes() const {
    const Impl& im = *impl_;
    if (im.chunk_cap) return 2 * std::min(im.n_bases, im.chunk_cap) * sizeof(AffinePoint);
    return (im.table_c ? size_t(im.table_base.windows) : 1) * im.n_bases * sizeof(AffinePoint);
}
template <class Curve>
void Msm<Curve>::drop_precomputed() {
    impl_->drop();
}

template <class Curve>
Jacobian<Curve> Msm<Curve>::run(std::span<const ScalarField> scalars, const GpuMsmOptions& opt) {
    Impl& im = *impl_;
    check(cudaSetDevice(im.device), "cudaSetDevice");
    ScalarField* d = im.scalars.reserve(scalars.size(), "cudaMalloc scalars");
    if (!scalars.empty()) {
        // Synchronised so that the span is the copy's time (the kernels wait for it anyway).
        trace::Span span("h2d_scalars", "gpu");
        check(
            cudaMemcpyAsync(d, scalars.data(), scalars.size() * sizeof(ScalarField), cudaMemcpyHostToDevice, im.stream),
            "cudaMemcpy scalars");
        check(cudaStreamSynchronize(im.stream), "cudaMemcpy scalars");
    }
    trace::Span span("msm_kernels", "gpu");
    return im.run(d, scalars.size(), opt);
}

template <class Curve>
Jacobian<Curve> Msm<Curve>::run_device(const ScalarField* device_scalars, size_t n, const GpuMsmOptions& opt) {
    return impl_->run(device_scalars, n, opt);
}

// One instantiation a translation unit: BLS12-381 G1 here, G2 in msm_g2.cu (this file with
// CUZK_MSM_G2), BN254 G1 in msm_bn254.cu (CUZK_MSM_BN254) and G2 in msm_bn254_g2.cu (both):
// they are the slow part of the CUDA build and compile side by side in a parallel build.
#if !defined(CUZK_MSM_G2) && !defined(CUZK_MSM_BN254)
MsmScratch::~MsmScratch() {
    for (Buffer& b : buf)
        if (b.p) cudaFree(b.p);
}
std::shared_ptr<MsmScratch> make_msm_scratch() { return std::make_shared<MsmScratch>(); }

template class Msm<G1Curve>;
template size_t msm_run_scratch_bytes<G1Curve>(size_t, int, unsigned, const MsmScratchLimits&, size_t);
void set_msm_scratch_limits(MsmScratch& scratch, const MsmScratchLimits& limits) { scratch.limits = limits; }
MsmScratchLimits msm_scratch_limits(const MsmScratch& scratch) { return scratch.limits; }
size_t msm_scratch_bytes(const MsmScratch& scratch) {
    size_t bytes = 0;
    for (const MsmScratch::Buffer& b : scratch.buf) bytes += b.bytes;
    return bytes;
}
size_t release_msm_scratch(MsmScratch& scratch) {
    size_t bytes = 0;
    for (MsmScratch::Buffer& b : scratch.buf) {
        if (b.p) cudaFree(b.p);
        bytes += b.bytes;
        b = MsmScratch::Buffer{};
    }
    return bytes;
}
G1Jacobian msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars, const GpuMsmOptions& opt) {
    MsmG1 m(bases);
    return m.run(scalars, opt);
}
#elif !defined(CUZK_MSM_BN254)
template class Msm<G2Curve>;
template size_t msm_run_scratch_bytes<G2Curve>(size_t, int, unsigned, const MsmScratchLimits&, size_t);
G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars, const GpuMsmOptions& opt) {
    MsmG2 m(bases);
    return m.run(scalars, opt);
}
#elif !defined(CUZK_MSM_G2)
template class Msm<bn254::G1Curve>;
template size_t msm_run_scratch_bytes<bn254::G1Curve>(size_t, int, unsigned, const MsmScratchLimits&, size_t);
bn254::G1Jacobian msm_g1(std::span<const bn254::G1Affine> bases, std::span<const bn254::Fr> scalars,
                         const GpuMsmOptions& opt) {
    MsmBn254G1 m(bases);
    return m.run(scalars, opt);
}
#else
template class Msm<bn254::G2Curve>;
template size_t msm_run_scratch_bytes<bn254::G2Curve>(size_t, int, unsigned, const MsmScratchLimits&, size_t);
bn254::G2Jacobian msm_g2(std::span<const bn254::G2Affine> bases, std::span<const bn254::Fr> scalars,
                         const GpuMsmOptions& opt) {
    MsmBn254G2 m(bases);
    return m.run(scalars, opt);
}
#endif

}  // namespace cuzk::gpu
