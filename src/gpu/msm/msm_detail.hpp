// The per-element logic of the GPU MSM pipeline (src/gpu/msm/msm.cu), CUZK_HD so that the
// kernels and the host self-check (tests/gpu/test_gpu_msm.cpp emulates the whole pipeline on
// the CPU with these functions) run the same code. Private to the gpu layer and its tests.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/common/hd.hpp"
#include "cuzk/gpu/msm.hpp"

namespace cuzk::gpu::msm_detail {

// Marks a sorted entry whose digit is 0: it is carried through the sort but adds nothing.
inline constexpr uint32_t kSkip = 0xffffffffu;
// Bases are addressed by 31 bits; the top bit of an entry is the digit's sign.
inline constexpr uint64_t kMaxBases = (uint64_t(1) << 31) - 1;

// H = sum_j 2^(c-1) 2^(jc) over the W = num_windows(c, scalar_bits) windows; the j-th
// c-bit window of k + H minus 2^(c-1) is the signed digit d_j in [-2^(c-1), 2^(c-1) - 1],
// k = sum_j d_j 2^(jc).
inline BigInt<5> recode_offset(unsigned c, unsigned scalar_bits = 255) {
    BigInt<5> h = BigInt<5>::zero();
    for (unsigned j = 0; j < num_windows(c, scalar_bits); ++j) {
        size_t bit = size_t(j) * c + (c - 1);
        h.l[bit / 64] |= uint64_t(1) << (bit % 64);
    }
    return h;
}

// Signed digit of window w of the canonical scalar k.
CUZK_HD inline int32_t digit(const BigInt<4>& k, const BigInt<5>& h, unsigned w, unsigned c) {
    BigInt<5> kk, r;
    for (size_t i = 0; i < 4; ++i) kk.l[i] = k.l[i];
    kk.l[4] = 0;
    BigInt<5>::add(r, kk, h);
    return int32_t(r.bits(size_t(w) * c, c)) - int32_t(uint32_t(1) << (c - 1));
}

// The same digits, window w = 0, 1, ... in turn (next() is digit(k, h, w, c) for the next
// w), with k + h made once and shifted right c bits a window: every limb is read at a fixed
// index, so the device keeps the number in registers. BigInt::bits indexes its limbs at run
// time, which puts the number in local memory, and so did limbs picked by selects (nvcc
// turned them back into an indexed load). The table's sort in groups (src/gpu/msm/msm.cu)
// takes every window's digit twice.
struct DigitWalker {
    BigInt<5> r;
    unsigned c;
    CUZK_HD DigitWalker(const BigInt<4>& k, const BigInt<5>& h, unsigned window_bits) : c(window_bits) {
        BigInt<5> kk;
        for (size_t i = 0; i < 4; ++i) kk.l[i] = k.l[i];
        kk.l[4] = 0;
        BigInt<5>::add(r, kk, h);
    }
    CUZK_HD int32_t next() {  // 2 <= c <= 63
        const int32_t d = int32_t(uint32_t(r.l[0] & ((uint64_t(1) << c) - 1))) - int32_t(uint32_t(1) << (c - 1));
        CUZK_UNROLL
        for (unsigned i = 0; i < 4; ++i) r.l[i] = (r.l[i] >> c) | (r.l[i + 1] << (64 - c));
        r.l[4] >>= c;
        return d;
    }
};

// The signed base-B digits of a canonical scalar k < r, window 0 first (next()): |k| made
// at most (r - 1) / 2 by taking r - k with every digit's sign flipped, then per window
// d = k mod B, k = k div B, and d > B / 2 borrows B from the next window. Eight 32-bit
// limbs at fixed indices (registers, as DigitWalker); k div m by a multiply-high with
// ceil(2^64 / m), exact here: the numerators stay below m 2^32 < 2^40 and the error term
// below 2^-24 < 1 / m.
struct BaseDigitWalker {
    uint32_t k[8];
    uint32_t odd;
    unsigned shift;
    uint64_t inv;  // ceil(2^64 / m)
    bool negate;
    CUZK_HD BaseDigitWalker(const BigInt<4>& scalar, const BigInt<4>& r, uint32_t m, unsigned s)
        : odd(m), shift(s), inv(~uint64_t(0) / m + 1) {
        BigInt<4> half = r;  // (r - 1) / 2
        for (size_t i = 0; i < 4; ++i) half.l[i] = (r.l[i] >> 1) | (i + 1 < 4 ? r.l[i + 1] << 63 : 0);
        BigInt<4> v = scalar;
        negate = half < scalar;
        if (negate) BigInt<4>::sub(v, r, scalar);
        CUZK_UNROLL
        for (size_t i = 0; i < 4; ++i) {
            k[2 * i] = uint32_t(v.l[i]);
            k[2 * i + 1] = uint32_t(v.l[i] >> 32);
        }
    }
    CUZK_HD static uint64_t mulhi(uint64_t a, uint64_t b) {
#if CUZK_IN_DEVICE
        return __umul64hi(a, b);
#else
        return uint64_t(((unsigned __int128)a * b) >> 64);
#endif
    }
    CUZK_HD int32_t next() {
        // low s bits, then k >>= s (s <= 30)
        const uint32_t low = k[0] & ((1u << shift) - 1);
        CUZK_UNROLL
        for (unsigned i = 0; i < 7; ++i) k[i] = (k[i] >> shift) | (k[i + 1] << (32 - shift));
        k[7] >>= shift;
        // k div m, top limb first
        uint64_t rem = 0;
        CUZK_UNROLL
        for (unsigned i = 8; i-- > 0;) {
            const uint64_t cur = (rem << 32) | k[i];
            const uint64_t q = mulhi(cur, inv);
            rem = cur - q * odd;
            k[i] = uint32_t(q);
        }
        const uint32_t B = odd << shift;
        uint32_t d = (uint32_t(rem) << shift) | low;  // k mod B
        int32_t digit = int32_t(d);
        if (d > B / 2) {
            digit = int32_t(d) - int32_t(B);
            uint32_t carry = 1;  // k += 1
            CUZK_UNROLL
            for (unsigned i = 0; i < 8; ++i) {
                const uint32_t t = k[i] + carry;
                carry = carry && t == 0 ? 1u : 0u;
                k[i] = t;
            }
        }
        return negate ? -digit : digit;
    }
};

// Sort key and value of (window-in-group wl, digit d, base index): buckets are numbered
// |d| in 0..2^(c-1) within a window, (2^(c-1) + 1) per window, so one sort orders a whole
// group of windows; bucket |d| = 0 collects the skipped entries.
struct Entry {
    uint32_t key, val;
};
CUZK_HD inline Entry make_entry(unsigned wl, int32_t d, uint32_t base, unsigned c) {
    const uint32_t per_window = (uint32_t(1) << (c - 1)) + 1;
    if (d == 0) return {wl * per_window, kSkip};
    const uint32_t mag = uint32_t(d < 0 ? -d : d);
    return {wl * per_window + mag, base | (d < 0 ? 0x80000000u : 0u)};
}

// Index of the base of scalar i through a density bitmap, given the exclusive prefix
// popcounts of its 64-bit words.
CUZK_HD inline uint32_t base_index(const uint64_t* density, const uint32_t* word_prefix, size_t i) {
    const uint64_t below = density[i / 64] & ((uint64_t(1) << (i % 64)) - 1);
#if CUZK_IN_DEVICE
    return word_prefix[i / 64] + uint32_t(__popcll(below));
#else
    return word_prefix[i / 64] + uint32_t(__builtin_popcountll(below));
#endif
}

// Segments of equal length over `len` sorted entries: at least min_len long, about
// target_threads of them.
struct SegmentPlan {
    size_t seg_len = 1;
    size_t segments = 0;
};
inline SegmentPlan plan_segments(size_t len, size_t target_threads, size_t min_len) {
    SegmentPlan p;
    if (len == 0) return p;
    p.seg_len = (len + target_threads - 1) / target_threads;
    if (p.seg_len < min_len) p.seg_len = min_len;
    p.segments = (len + p.seg_len - 1) / p.seg_len;
    return p;
}

// Sums the runs of equal keys in the sorted entries [begin, end) of one segment. Runs
// strictly inside the segment belong to no other segment: their sum goes straight to
// buckets[key]. The first and the last run may continue in the neighbours: they go to
// carry slots 2s and 2s+1 (a segment of one run puts it first and the identity last,
// with the same key, so that the carry keys stay sorted). load(i) returns entry i's data
// (say, the base gathered from memory), apply(item, acc) adds it. Entry i + 1's load is
// issued before entry i's addition, so that its latency overlaps that addition instead
// of stalling the next one. store(acc) is what a finished run writes (KeepPoint: acc
// itself; an accumulator in a redundant form writes its canonical form).
struct KeepPoint {
    template <class P>
    CUZK_HD_INLINE const P& operator()(const P& p) const {
        return p;
    }
};
template <class P, class KeyAt, class Load, class Apply, class Store = KeepPoint>
CUZK_HD void accumulate_segment_pipelined(size_t begin, size_t end, size_t s, KeyAt key_at, Load load, Apply apply,
                                          P* buckets, uint32_t* carry_key, P* carry_pt, Store store = {}) {
    uint32_t cur = key_at(begin);
    P acc = P::identity();
    bool first = true;
    auto next = load(begin);
    uint32_t next_key = cur;
    for (size_t i = begin; i < end; ++i) {
        const auto item = next;
        const uint32_t k = next_key;
        if (i + 1 < end) {
            next = load(i + 1);
            next_key = key_at(i + 1);
        }
        if (k != cur) {
            if (first) {
                carry_key[2 * s] = cur;
                carry_pt[2 * s] = store(acc);
                first = false;
            } else {
                buckets[cur] = store(acc);
            }
            cur = k;
            acc = P::identity();
        }
        apply(item, acc);
    }
    if (first) {
        carry_key[2 * s] = cur;
        carry_pt[2 * s] = store(acc);
        carry_key[2 * s + 1] = cur;
        carry_pt[2 * s + 1] = P::identity();
    } else {
        carry_key[2 * s + 1] = cur;
        carry_pt[2 * s + 1] = store(acc);
    }
}

// The same where add(i, acc) loads and adds entry i in one step (the loaded item is the
// index). A functor, not a lambda: see accumulate_bases_kernel in src/gpu/msm/msm.cu.
struct IndexItem {
    CUZK_HD_INLINE size_t operator()(size_t i) const { return i; }
};
template <class P, class KeyAt, class Add, class Store = KeepPoint>
CUZK_HD void accumulate_segment(size_t begin, size_t end, size_t s, KeyAt key_at, Add add, P* buckets,
                                uint32_t* carry_key, P* carry_pt, Store store = {}) {
    accumulate_segment_pipelined<P>(begin, end, s, key_at, IndexItem{}, add, buckets, carry_key, carry_pt, store);
}

// Last combining step over few sorted carries: the first carry of each key sums its run.
template <class P>
CUZK_HD void combine_head(size_t t, size_t len, const uint32_t* key, const P* pt, P* buckets) {
    if (t > 0 && key[t - 1] == key[t]) return;
    P acc = pt[t];
    for (size_t u = t + 1; u < len && key[u] == key[t]; ++u) acc += pt[u];
    buckets[key[t]] = acc;
}

// k * p for a small k by double-and-add from the top bit. A call of its own on the
// device: inlined in reduce_range, its point and the caller's two running sums were live
// at once, which spilled inside the loops (G1 reduce_ranges: 312 B of spill stores ->
// none, the argument is written to local memory once instead).
#if defined(__CUDA_ARCH__)
#define CUZK_MSM_NOINLINE_ON_DEVICE __noinline__
#else
#define CUZK_MSM_NOINLINE_ON_DEVICE
#endif
template <class P>
CUZK_MSM_NOINLINE_ON_DEVICE CUZK_HD P mul_small(const P& p, uint64_t k) {
    P r = P::identity();
    for (int b = 63; b >= 0; --b) {
        r = r.dbl();
        if ((k >> b) & 1) r += p;
    }
    return r;
}

// sum_{i in [lo, hi)} i * b[i] for buckets b: running sums from the top give
// inner = sum_i (i - lo) b[i] and tot = sum_i b[i]; the range's share is then
// inner + lo * tot. 2 (hi - lo) full additions plus a small scalar multiplication.
// kRedundant: the running sums in the field's redundant form (XYZZ::add_redundant; the
// buckets are canonical), canonical again before mul_small and the result.
template <class P, bool kRedundant = false>
CUZK_HD P reduce_range(const P* b, size_t lo, size_t hi) {
    P running = P::identity(), inner = P::identity();
    for (size_t i = hi; i-- > lo + 1;) {
        if constexpr (kRedundant) {
            running = running.add_redundant(b[i]);
            inner = inner.add_redundant(running);
        } else {
            running += b[i];
            inner += running;
        }
    }
    if constexpr (kRedundant) {
        if (hi > lo) running = running.add_redundant(b[lo]);
        running = running.canonical();
        inner = inner.canonical();
    } else if (hi > lo) {
        running += b[lo];
    }
    if (lo == 0) return inner;
    return inner + mul_small(running, lo);
}

// ---- batch-affine pairing rounds ------------------------------------------------------
// One round halves a bucket-sorted list: slot j holds entries 2j and 2j+1; when their keys
// are equal they become one entry, their affine sum, otherwise both pass through (so the
// output, in slot order, is still sorted). The affine sums of a thread's slots share one
// inversion (Montgomery's trick): 5M + 1S a sum plus the inversion over the batch, against
// 8M + 2S for the XYZZ mixed addition the accumulation would otherwise make.

// Slots of a list of len entries.
CUZK_HD inline size_t pair_slots(size_t len) { return (len + 1) / 2; }
// 1 when slot j keeps both entries (different keys), 0 when it makes one.
CUZK_HD inline uint32_t slot_splits(const uint32_t* key, size_t len, size_t j) {
    return (2 * j + 1 < len && key[2 * j] != key[2 * j + 1]) ? 1u : 0u;
}

// What summing p and q needs: kNone when the sum needs no inversion (either is the
// identity, or q = -p), otherwise d, the value to invert (x_q - x_p, or 2 y_p to double).
enum class PairKind : uint8_t { kNone, kAdd, kDouble };
template <class Curve>
CUZK_HD_INLINE PairKind pair_kind(const Affine<Curve>& p, const Affine<Curve>& q, typename Curve::Field& d) {
    if (p.infinity || q.infinity) return PairKind::kNone;
    if (p.x != q.x) {
        d = q.x - p.x;
        return PairKind::kAdd;
    }
    if (p.y == q.y && !p.y.is_zero()) {
        d = p.y + p.y;
        return PairKind::kDouble;
    }
    return PairKind::kNone;  // q = -p (or a point of order 2 doubled): the identity
}

// One thread's slots first, first + stride, ... of a round over len sorted entries
// (strided, so that a warp's threads read neighbouring slots). pts(i): entry i's affine
// point; pts.x(i, x): only its x (returns whether it is the identity): the first pass
// needs no more. prefix(j): slot j's scratch cell (running products); splits_before[j]:
// exclusive prefix sum of slot_splits, so slot j writes at j + splits_before[j] (one or
// two entries). The first pass reads one slot ahead: it has one multiplication a slot to
// hide the latency of the next slot's reads behind.
template <class Curve, class Points, class Scratch>
CUZK_HD void pair_round(size_t first, size_t stride, size_t len, const uint32_t* key, Points pts, Scratch prefix,
                        const uint32_t* splits_before, uint32_t* out_key, Affine<Curve>* out_pt) {
    using F = typename Curve::Field;
    using A = Affine<Curve>;
    const size_t slots = pair_slots(len);
    F acc = F::one();
    {
        bool same = false, ia = false, ib = false;  // the slot ahead: keys equal, identities
        F xa, xb;
        auto fetch = [&](size_t j) {
            same = 2 * j + 1 < len && key[2 * j] == key[2 * j + 1];
            if (same) {
                ia = pts.x(2 * j, xa);
                ib = pts.x(2 * j + 1, xb);
            }
        };
        if (first < slots) fetch(first);
        for (size_t j = first; j < slots; j += stride) {
            const bool s = same, sa = ia, sb = ib;
            const F ca = xa, cb = xb;
            if (j + stride < slots) fetch(j + stride);
            if (!s || sa || sb) continue;
            F d;
            if (ca != cb) {
                d = cb - ca;
            } else if (pair_kind<Curve>(pts(2 * j), pts(2 * j + 1), d) == PairKind::kNone) {
                continue;
            }
            prefix(j) = acc;
            acc *= d;
        }
    }
    F inv = acc.inverse();  // of the product of every d of the batch (nonzero)
    if (first >= slots) return;
    const size_t last = first + (slots - 1 - first) / stride * stride;
    for (size_t j = last;; j -= stride) {
        const size_t o = j + splits_before[j];
        const uint32_t k0 = key[2 * j];
        if (2 * j + 1 >= len || k0 != key[2 * j + 1]) {
            out_key[o] = k0;
            out_pt[o] = pts(2 * j);
            if (2 * j + 1 < len) {
                out_key[o + 1] = key[2 * j + 1];
                out_pt[o + 1] = pts(2 * j + 1);
            }
        } else {
            const A p = pts(2 * j), q = pts(2 * j + 1);
            F d;
            const PairKind kind = pair_kind<Curve>(p, q, d);
            A r;
            if (kind == PairKind::kNone) {
                r = p.infinity ? q : q.infinity ? p : A::identity();
            } else {
                const F i = inv * prefix(j);  // 1 / d
                inv *= d;                     // now the inverse of the products before j
                F num;
                if (kind == PairKind::kAdd) {
                    num = q.y - p.y;
                } else {
                    const F xx = p.x.square();
                    num = xx + xx + xx;
                }
                const F lambda = num * i;
                r.x = lambda.square() - p.x - q.x;  // doubling: q.x = p.x
                r.y = lambda * (p.x - r.x) - p.y;
                r.infinity = false;
            }
            out_key[o] = k0;
            out_pt[o] = r;
        }
        if (j < first + stride) break;
    }
}
}  // namespace cuzk::gpu::msm_detail
