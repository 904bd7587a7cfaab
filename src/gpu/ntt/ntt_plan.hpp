// Index arithmetic of the device NTT (src/gpu/ntt/ntt.cu), kept apart from the kernels so
// that host code (tests/gpu/test_gpu_ntt.cpp) can run the same plan in plain C++.
//
// The transform is radix-2 decimation in time (Cooley-Tukey) after a bit-reversal
// permutation. Stage u' (half-size h = 2^u') pairs elements x and x + h, x mod 2h < h,
// with twiddle w_{2h}^(x mod h) = w_n^((x mod h) n/2h): (x, y) <- (x + w y, x - w y).
//
// Stages are grouped into passes. A pass runs s consecutive stages starting at
// h0 = 2^lh0; viewed as rows of h0 elements, a block of h0 2^s elements holds 2^s rows,
// and the pass's stages only mix elements of the same column r (0 <= r < h0) of one
// block. A tile is C = 2^log_c adjacent columns of one block (2^s C <= 2^kTileLog
// elements); it is loaded into shared memory, run through its s stages and stored back.
// Inside the tile, element (t, c) (row t, column c) sits at index t C + c, and stage u
// (h = h0 2^u) pairs rows t and t + 2^u (t mod 2^(u+1) < 2^u) with twiddle index
//   ((r0 + c) + h0 (t mod 2^u)) * n/(2h)   into the table w_n^j, j < n/2.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/common/hd.hpp"

namespace cuzk::gpu::ntt::plan {

// The register passes' largest tile: 2^10 elements (1024 Fr = 32 KiB of shared memory).
// Larger tiles mean fewer passes over memory and wider column runs in the later passes, but
// fewer, wider blocks a SM: 2^12 made forward 2^27 34.5 ms against 30.2 (H100).
inline constexpr unsigned kTileLog = 10;
inline constexpr unsigned kMaxPasses = 8;

struct Pass {
    unsigned lh0;    // log2 of the first stage's half-size
    unsigned s;      // stages in this pass (>= 1)
    unsigned log_c;  // log2 of the columns per tile
};

// Splits the log_n stages into ceil(log_n / tile_log) passes of near-equal length
// (2^27 at 2^10: 9 + 9 + 9, so later passes still get C = 2 columns). Returns the pass
// count.
// Where log_n is a multiple of 3 and the passes can take whole register groups (3 stages
// each), pass lengths are multiples of 3: 2^24 6 + 9 + 9 instead of 8 + 8 + 8, 8 groups
// instead of 9, every group on the full-group path (compute_h 2^24 25.3 ms against 26.0,
// H200). The shorter passes come first, so that the last pass, whose twiddles are nearly
// all distinct (one 64-B pair an element, from DRAM), has 9 stages of products to hide
// them behind instead of 6: forward 2^24 3.54 ms against 3.79 with the shorter pass last
// (H100).
CUZK_HD inline unsigned make_passes(unsigned log_n, Pass* out, unsigned tile_log = kTileLog) {
    if (log_n == 0) return 0;
    const unsigned np = (log_n + tile_log - 1) / tile_log;
    const bool whole = log_n % 3 == 0 && np * (tile_log / 3) * 3 >= log_n;
    const unsigned units = whole ? log_n / 3 : log_n, unit = whole ? 3 : 1;
    unsigned lh0 = 0;
    for (unsigned i = 0; i < np; ++i) {
        // Pass i takes the k-th length of the longer-first order: the shorter passes first.
        const unsigned k = np - 1 - i;
        const bool longer = k < units % np;
        const unsigned s = unit * (units / np + (longer ? 1 : 0));
        const unsigned room = tile_log - s;
        out[i] = Pass{lh0, s, lh0 < room ? lh0 : room};
        lh0 += s;
    }
    return np;
}

// Tiles in a pass: n / (2^s C).
CUZK_HD inline size_t tile_count(unsigned log_n, const Pass& p) { return size_t(1) << (log_n - p.s - p.log_c); }

// First column r0 of a tile and the global index of its element (row 0, column 0).
CUZK_HD inline size_t tile_r0(const Pass& p, size_t tile) {
    const unsigned groups_log = p.lh0 - p.log_c;  // tiles per block = h0 / C
    return (tile & ((size_t(1) << groups_log) - 1)) << p.log_c;
}
CUZK_HD inline size_t tile_base(const Pass& p, size_t tile) {
    const unsigned groups_log = p.lh0 - p.log_c;
    return ((tile >> groups_log) << (p.lh0 + p.s)) + tile_r0(p, tile);
}

// Global index (relative to tile_base) of the tile's element e = t C + c.
CUZK_HD inline size_t tile_offset(const Pass& p, unsigned e) {
    const unsigned t = e >> p.log_c;
    const unsigned c = e & ((1u << p.log_c) - 1);
    return (size_t(t) << p.lh0) + c;
}

// --- register-blocked passes (Impl::kFast) -----------------------------------------
// The block of a tile has 2^(L-3) threads (L = s + log_c, the tile's log size) and each
// thread holds 8 tile elements in registers. The pass's s stages are split into ceil(s/3)
// groups of <= 3 consecutive stages; in a group a thread's 8 elements are those whose tile
// index e varies in 3 bits (the group's stage bits log_c + u, plus the lowest other bits
// when the group has fewer than 3 stages), the other L - 3 bits of e being the thread
// number's bits in ascending order. So each group is 3 stages of 4 butterflies per thread
// on registers, and the tile goes through shared memory only between groups (2 exchanges
// per 9-stage pass instead of 9): global -> registers -> [shared -> registers] -> global.
// 2^kRegLog = 8 elements a thread: 4 was 15% slower at 2^27 (one more trip through shared
// memory per 9 stages); 16 (208-216 registers, 8 warps a SM) 2.4x slower (H200).
inline constexpr unsigned kRegLog = 3;
inline constexpr unsigned kRegElems = 1u << kRegLog;
inline constexpr unsigned kRegMinLogN = kRegLog > 3 ? kRegLog : 3;  // every pass then has s >= kRegLog
static_assert(kRegLog >= 1 && kRegLog <= kRegMinLogN, "a thread's elements fit in the smallest tile");

CUZK_HD inline unsigned tile_log(const Pass& p) { return p.s + p.log_c; }
CUZK_HD inline unsigned group_count(const Pass& p) { return (p.s + kRegLog - 1) / kRegLog; }

// Stages [u0, u0 + r) of group g (near-equal sizes, larger first).
CUZK_HD inline void group_stages(const Pass& p, unsigned g, unsigned& u0, unsigned& r) {
    const unsigned ng = group_count(p);
    u0 = 0;
    for (unsigned i = 0; i < g; ++i) u0 += p.s / ng + (i < p.s % ng ? 1 : 0);
    r = p.s / ng + (g < p.s % ng ? 1 : 0);
}

// The 3 tile-index bits that a thread's elements span in group g, ascending, and their
// mask. Needs tile_log(p) >= 3.
struct RegBits {
    unsigned pos[kRegLog];
    unsigned mask;
};
CUZK_HD inline RegBits group_bits(const Pass& p, unsigned g) {
    unsigned u0, r;
    group_stages(p, g, u0, r);
    const unsigned lo = p.log_c + u0;
    unsigned mask = ((1u << r) - 1) << lo;
    unsigned count = r;
    for (unsigned b = 0; count < kRegLog; ++b)
        if (!((mask >> b) & 1)) {
            mask |= 1u << b;
            ++count;
        }
    RegBits rb{{}, mask};
    unsigned k = 0;
    for (unsigned b = 0; b < kTileLog; ++b)
        if ((mask >> b) & 1) rb.pos[k++] = b;
    return rb;
}

// The low bits of x placed, in order, at the set bits of mask (bits < kTileLog).
CUZK_HD inline unsigned deposit_bits(unsigned x, unsigned mask) {
    unsigned out = 0, k = 0;
    for (unsigned b = 0; b < kTileLog; ++b)
        if ((mask >> b) & 1) out |= ((x >> k++) & 1u) << b;
    return out;
}

// Tile index of element j (0 <= j < kRegElems) of thread f in the group with bits rb.
CUZK_HD inline unsigned thread_base(const Pass& p, const RegBits& rb, unsigned f) {
    return deposit_bits(f, ~rb.mask & ((1u << tile_log(p)) - 1));
}
CUZK_HD inline unsigned group_element(const RegBits& rb, unsigned base, unsigned j) {
    unsigned e = base;
    for (unsigned i = 0; i < kRegLog; ++i) e |= ((j >> i) & 1u) << rb.pos[i];
    return e;
}

// Twiddle index (table w_n^j, j < n/2) of the stage-u butterfly whose first element has
// tile index e. I = uint32_t is exact for log_n <= 32
// (every partial value is below 2^(log_n - 1); Fr's two-adicity is 32).
// tile_twiddle_bits: the index before its shift, (r0 + c) + (t mod 2^u) h0 (below h = h0 2^u).
template <class I = size_t>
CUZK_HD inline I tile_twiddle_bits(const Pass& p, I r0, unsigned u, unsigned e) {
    const unsigned c = e & ((1u << p.log_c) - 1);
    const unsigned m = (e >> p.log_c) & ((1u << u) - 1);
    return (r0 + c) + (I(m) << p.lh0);
}
template <class I = size_t>
CUZK_HD inline I tile_twiddle(unsigned log_n, const Pass& p, I r0, unsigned u, unsigned e) {
    return tile_twiddle_bits<I>(p, r0, u, e) << (log_n - 1 - (p.lh0 + u));
}

// Shared-memory slot of tile element e: its low 4 bits XOR the next 4 (a bijection on any
// tile), so that the 16 threads of a half warp, which differ in the lowest free bits of e,
// mostly hit distinct 8-byte banks (limb-major layout, one 64-bit limb per access).
// Still 2-way in the stores of each later pass's first group (stage bits {1, 2, 3}). A
// swizzle with no conflict in any exchange of 2^12 and up (bits 4, 5, 6 of e flipping
// slot bits {0, 1}, {0, 2}, {2, 3}; tile key 9) was measured slower. ptxas spilled more
// with it (forward all-full DIT kernel 76 -> 92 B a thread), and forward 2^27 was 1.5%
// slower (H100).
CUZK_HD inline unsigned smem_slot(unsigned e) { return e ^ ((e >> 4) & 15u); }

// Tiles that share a block (launch_reg_pass in src/gpu/ntt/ntt.cu): 2^tiles_log tiles of
// 2^threads_log threads each. block_thread gives block thread tid's tile and its thread f
// in that tile.
//   Natural order: tile = tid >> threads_log.
//   Interleaved (the all-full gathering kernel; tiles of 16 to
//   64 threads): f's low 3 bits are tid's low 3 bits, then come tiles_log bits of tile, then
//   the rest of f. (Tiles of 128 threads, 2^20's first pass, stay natural: with the key
//   below their exchanges would have more 2-way bank conflicts, not fewer.)
// Why interleave: each warp then holds runs of 8 threads from 2 or 4 tiles. For each tile
// element, a gathering pass reads the block's tiles from consecutive addresses
// (plan::gather_tile), so a warp's load covers 8 rows of 64 or 128 B. Without it, the
// warp's 32 threads sit in one tile and the load covers 32 rows of 32 B (2^27's first
// pass).
// Tiles of 8 threads come out interleaved either way.
CUZK_HD inline bool interleaved_tiles(unsigned threads_log, unsigned tiles_log, bool interleave) {
    return interleave && threads_log > 3 && threads_log <= 6 && tiles_log > 0;
}
CUZK_HD inline void block_thread(unsigned tid, unsigned threads_log, unsigned tiles_log, bool interleave,
                                 unsigned& tile, unsigned& f) {
    if (!interleaved_tiles(threads_log, tiles_log, interleave)) {
        tile = tid >> threads_log;
        f = tid & ((1u << threads_log) - 1);
        return;
    }
    tile = (tid >> 3) & ((1u << tiles_log) - 1);
    f = (tid & 7u) | ((tid >> (3 + tiles_log)) << 3);
}
// The XOR key applied to a tile's shared-memory slots (smem_slot(e) ^ key, a permutation
// of its 2^(threads_log + 3) >= 64 slots).
// Where it matters: when a half warp holds 8 threads of each of two tiles (tiles of 8
// threads, or interleaved ones), both tiles' regions start on bank 0. Within a tile, the
// 8 threads' slots then leave one slot bit fixed: bit 2 in a group of stage bits {0, 1,
// 2}, bit 3 in groups of higher stage bits. So the two tiles hit the same 8 of the 16
// 8-byte banks, a 2-way conflict on every access.
// Key 12 (slot bits 2 and 3) for the odd tile moves it onto the other 8 banks.
// GpuNttPlan.SharedTilesSpreadOverTheBanks counts the conflicts.
CUZK_HD inline unsigned smem_tile_key(unsigned tile, unsigned threads_log, unsigned tiles_log, bool interleave) {
    const bool pairs = (tiles_log > 0 && threads_log == 3) || interleaved_tiles(threads_log, tiles_log, interleave);
    return pairs && (tile & 1u) ? 12u : 0u;
}

// Plain radix-2 stage (the reference kernel): butterfly q < n/2 of stage log_h.
CUZK_HD inline void stage_butterfly(unsigned log_n, unsigned log_h, size_t q, size_t& x, size_t& y, size_t& tw) {
    const size_t k = q & ((size_t(1) << log_h) - 1);
    x = ((q >> log_h) << (log_h + 1)) + k;
    y = x + (size_t(1) << log_h);
    tw = k << (log_n - 1 - log_h);
}

// The low `bits` bits of x in reverse order (bits <= 32).
CUZK_HD inline uint32_t reverse_bits(uint32_t x, unsigned bits) {
    if (bits == 0) return 0;
#if CUZK_IN_DEVICE
    return __brev(x) >> (32 - bits);
#else
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = __builtin_bswap32(x);
    return x >> (32 - bits);
#endif
}

// Where the register passes' Shoup table (src/gpu/ntt/ntt.cu) keeps the pair of slot j
// (w_n^j, j <= n/2; slot n/2 is -1, the inverse's twiddle for w^0): at j, or with
// kBitrev (the layout of the table) at rev(j) over log n - 1 bits for j < n/2 (slot n/2
// stays; the plain layout is the tests' reference). Why the bit reversal: a stage of half-size h reads slots j n/(2h),
// j < h, which it puts at the positions [0, h), so a later pass's stage below the top reads whole 128-B lines (both
// pairs of a line by one tile, but in a pass's first stage) instead of one pair a line at a stride of 128 B or more,
// the other pair fetched for nothing (the L2 fetches 128 B a miss): in the last pass of 2^24, ~1.5 GB of twiddle reads
// from DRAM of which ~1 GB used. Forward 2^27 31.0 ms against 32.3 in the plain layout, compute_h 2^27 211.7 against
// 218.1 (H100).
template <bool kBitrev = true>
CUZK_HD inline size_t twiddle_position(size_t j, unsigned log_n) {
    if (!kBitrev || log_n < 2 || j >= (size_t(1) << (log_n - 1))) return j;
    return reverse_bits(uint32_t(j), log_n - 1);
}
// The table position of the twiddle of the stage-u butterfly whose first element has tile
// index e: twiddle_position of tile_twiddle's slot, or for the inverse (kInverse) of slot
// n/2 - tile_twiddle (w^-j = -w^(n/2 - j); n/2 for j = 0). With kBitrev straight from the
// slot's unshifted bits v (tile_twiddle_bits): the slot is v n/(2h), h = h0 2^u, so its
// position is rev(v) over log h bits (the inverse's: rev(h - v), or n/2 for v = 0).
template <bool kInverse, bool kBitrev = true, class I = size_t>
CUZK_HD inline I tile_twiddle_position(unsigned log_n, const Pass& p, I r0, unsigned u, unsigned e) {
    if constexpr (!kBitrev) {
        const I w = tile_twiddle<I>(log_n, p, r0, u, e);
        return kInverse ? (I(1) << (log_n - 1)) - w : w;
    } else {
        const uint32_t v = uint32_t(tile_twiddle_bits<I>(p, r0, u, e));
        const unsigned bits = p.lh0 + u;  // log h
        if constexpr (kInverse) return v == 0 ? I(1) << (log_n - 1) : I(reverse_bits(0u - v, bits));
        return I(reverse_bits(v, bits));
    }
}

// Gathering first pass (natural -> natural transforms, src/gpu/ntt/ntt.cu): instead of a
// bit-reversal pass, the first DIT pass (lh0 = 0, log_c = 0: tile t holds the permuted
// elements t 2^s .. t 2^s + 2^s - 1) loads permuted element g from input index
// gather_source(g) = rev(g) and stores it out of place. Tiles are taken in bit-reversed
// order: block-local tile v is tile rev(v) (log2 of the tile count bits), so that the
// tiles of one block, v consecutive, read consecutive input elements for each tile
// element e (rev(t 2^s + e) = rev_s(e) 2^(log n - s) + rev(t)): runs of 128-256 B instead
// of lone 32-B elements.
CUZK_HD inline size_t gather_tile(unsigned log_n, const Pass& p, size_t v) {
    return reverse_bits(uint32_t(v), log_n - tile_log(p));
}
CUZK_HD inline size_t gather_source(unsigned log_n, size_t g) { return reverse_bits(uint32_t(g), log_n); }

// Tiled bit reversal (log n >= 2 kRevLog). Index i = (hi, mid, lo) with hi and lo of
// kRevLog bits; rev(i) = (rev lo, rev mid, rev hi). The elements of middle bits `mid`
// form a 16 x 16 tile, row hi, column lo: element t (row t >> 4, column t & 15) is at
// rev_tile_index(log_n, mid, t), so 16 consecutive t are 16 consecutive elements. The
// tile of middle bits rev(mid) is written from this one: its element t comes from row
// rev(lo), column rev(hi) of this tile, slot rev_tile_source(t).
inline constexpr unsigned kRevLog = 4;
CUZK_HD inline size_t rev_tile_index(unsigned log_n, size_t mid, unsigned t) {
    return (size_t(t >> kRevLog) << (log_n - kRevLog)) | (mid << kRevLog) | (t & ((1u << kRevLog) - 1));
}
CUZK_HD inline unsigned rev_tile_source(unsigned t) {
    const unsigned row = reverse_bits(t & ((1u << kRevLog) - 1), kRevLog);
    const unsigned col = reverse_bits(t >> kRevLog, kRevLog);
    return (row << kRevLog) | col;
}

}  // namespace cuzk::gpu::ntt::plan
