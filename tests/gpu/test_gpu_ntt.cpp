// The device NTT and H computation equal the CPU's (cuzk::ntt) element for element.
// GPU tests are skipped (not passed) without CUDA or without a GPU; the plan tests run the
// device kernels' index arithmetic (gpu/ntt/ntt_plan.hpp) on the host and always run.
#include <gtest/gtest.h>
#if CUZK_HAVE_CUDA
#include <cuda_runtime.h>
#endif

#include <algorithm>
#include <array>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/gpu/device.hpp"
#include "cuzk/gpu/ntt.hpp"
#include "cuzk/gpu/testing.hpp"
#include "cuzk/ntt/domain.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "gpu/ntt/ntt_plan.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

namespace gntt = gpu::ntt;

std::vector<Fr> random_vector(size_t n, std::mt19937_64& rng) {
    std::vector<Fr> v(n);
    for (auto& x : v) x = Fr::random(rng);
    return v;
}

// --- host emulation of the device plan ------------------------------------------------

// Runs the register-blocked plan (Impl::kFast): bit reversal, passes of tiles, groups of
// <= kRegLog stages on each thread's 2^kRegLog elements, with the inverse's twiddles w^-j taken as
// -w^(n/2 - j) exactly as the kernel does. Returns the unscaled DFT (inverse: with w^-1).
// dif: the transposed passes on natural input (no bit reversal), giving bit-reversed output.
// gather: no bit-reversal pass; the first pass reads the input at plan::gather_source of
// each element, tiles in plan::gather_tile's order (checked: every tile run once, every
// input element read once), as the kernel does natural -> natural from 2^11 on.
std::vector<Fr> emulate_reg_transform(std::vector<Fr> a, bool inverse, bool dif = false, bool gather = false) {
    namespace plan = gntt::plan;
    const unsigned log_n = ntt::checked_log_size(a.size(), "emulate");
    const size_t n = a.size();
    EXPECT_GE(log_n, plan::kRegMinLogN);
    EXPECT_FALSE(dif && gather);
    const std::vector<Fr> input = a;  // what a gathering pass reads (out of place)
    // Where a gathering pass reads tile element gi, counted there.
    const auto remapped = [&](size_t gi, std::vector<unsigned>& count) {
        const size_t i = plan::gather_source(log_n, gi);
        EXPECT_LT(i, n);
        if (i < n) ++count[i];
        return i;
    };
    for (size_t i = 0; i < n && !dif && !gather; ++i) {
        size_t r = plan::reverse_bits(uint32_t(i), log_n);
        if (i < r) std::swap(a[i], a[r]);
    }
    std::vector<Fr> tw(n / 2);
    const Fr w = ntt::root_of_unity(log_n);
    Fr x = Fr::one();
    for (auto& t : tw) {
        t = x;
        x *= w;
    }
    plan::Pass passes[plan::kMaxPasses];
    const unsigned np = plan::make_passes(log_n, passes);
    for (unsigned k = 0; k < np; ++k) {
        const auto& p = passes[dif ? np - 1 - k : k];
        const unsigned L = plan::tile_log(p);
        EXPECT_GE(L, plan::kRegLog);
        const unsigned elems = 1u << L, threads = elems >> plan::kRegLog;
        // The shared-memory slots are a permutation of the tile.
        std::vector<bool> slot_used(elems, false);
        for (unsigned e = 0; e < elems; ++e) {
            const unsigned sl = plan::smem_slot(e);
            EXPECT_LT(sl, elems);
            if (sl >= elems) return {};
            EXPECT_FALSE(slot_used[sl]);
            slot_used[sl] = true;
        }
        unsigned stages = 0;
        for (unsigned g = 0; g < plan::group_count(p); ++g) {
            unsigned u0, r;
            plan::group_stages(p, g, u0, r);
            EXPECT_EQ(u0, stages);
            EXPECT_GE(r, 1u);
            EXPECT_LE(r, plan::kRegLog);
            stages += r;
        }
        EXPECT_EQ(stages, p.s);
        const bool gathering = gather && k == 0;
        if (gathering) {
            EXPECT_EQ(p.lh0, 0u);
            EXPECT_EQ(p.log_c, 0u);
        }
        std::vector<unsigned> tile_runs(plan::tile_count(log_n, p), 0), reads(gathering ? n : 0, 0);
        for (size_t v = 0; v < plan::tile_count(log_n, p); ++v) {
            const size_t tile = gathering ? plan::gather_tile(log_n, p, v) : v;
            EXPECT_LT(tile, tile_runs.size());
            if (tile >= tile_runs.size()) return {};
            ++tile_runs[tile];
            const size_t base = plan::tile_base(p, tile), r0 = plan::tile_r0(p, tile);
            std::vector<Fr> sh(elems);
            for (unsigned e = 0; e < elems; ++e) {
                const size_t gi = base + plan::tile_offset(p, e);
                if (!gathering) {
                    sh[e] = a[gi];
                    continue;
                }
                const size_t si = remapped(gi, reads);
                if (si >= n) return {};
                sh[e] = input[si];
            }
            const unsigned ng = plan::group_count(p);
            for (unsigned step = 0; step < ng; ++step) {
                const unsigned g = dif ? ng - 1 - step : step;
                const plan::RegBits rb = plan::group_bits(p, g);
                unsigned u0, r;
                plan::group_stages(p, g, u0, r);
                std::vector<bool> touched(elems, false);
                for (unsigned f = 0; f < threads; ++f) {
                    const unsigned e0 = plan::thread_base(p, rb, f);
                    Fr v[plan::kRegElems];
                    for (unsigned j = 0; j < plan::kRegElems; ++j) {
                        const unsigned e = plan::group_element(rb, e0, j);
                        EXPECT_LT(e, elems);
                        EXPECT_FALSE(touched[e]) << "element " << e << " in two threads";
                        touched[e] = true;
                        v[j] = sh[e];
                    }
                    for (unsigned ii = 0; ii < plan::kRegLog; ++ii) {
                        const unsigned i = dif ? plan::kRegLog - 1 - ii : ii;
                        const unsigned b = rb.pos[i];
                        if (b < p.log_c + u0 || b >= p.log_c + u0 + r) continue;
                        const unsigned u = b - p.log_c;
                        // As the kernel: one twiddle per value jl of j's bits below i, shared by
                        // the butterflies j = jl + (jh << (i + 1)); checked against each j's own.
                        for (unsigned jl = 0; jl < (1u << i); ++jl) {
                            const size_t t = plan::tile_twiddle(log_n, p, r0, u, plan::group_element(rb, e0, jl));
                            EXPECT_LT(t, n / 2);
                            EXPECT_EQ(plan::tile_twiddle<uint32_t>(log_n, p, uint32_t(r0), u,
                                                                   plan::group_element(rb, e0, jl)),
                                      t);  // the kernel's 32-bit indices
                            for (unsigned jh = 0; jh < (plan::kRegElems >> (i + 1)); ++jh) {
                                const unsigned j = jl | (jh << (i + 1));
                                EXPECT_EQ(plan::tile_twiddle(log_n, p, r0, u, plan::group_element(rb, e0, j)), t)
                                    << "log_n " << log_n << " stage " << u << " j " << j;
                                Fr& lo = v[j];
                                Fr& hi = v[j | (1u << i)];
                                if (dif) {  // (x, y) <- (x + y, w (x - y)), w^-j = -w^(n/2 - j)
                                    const Fr d = inverse && t != 0 ? hi - lo : lo - hi;
                                    lo = lo + hi;
                                    hi = t == 0 ? d : d * tw[inverse ? n / 2 - t : t];
                                    continue;
                                }
                                const Fr tt = t == 0 ? hi : hi * tw[inverse ? n / 2 - t : t];
                                const bool swap = inverse && t != 0;
                                const Fr s0 = lo + tt, s1 = lo - tt;
                                lo = swap ? s1 : s0;
                                hi = swap ? s0 : s1;
                            }
                        }
                    }
                    for (unsigned j = 0; j < plan::kRegElems; ++j) sh[plan::group_element(rb, e0, j)] = v[j];
                }
                for (unsigned e = 0; e < elems; ++e) EXPECT_TRUE(touched[e]) << "element " << e << " in no thread";
            }
            for (unsigned e = 0; e < elems; ++e) a[base + plan::tile_offset(p, e)] = sh[e];
        }
        for (size_t t = 0; t < tile_runs.size(); ++t) EXPECT_EQ(tile_runs[t], 1u) << "tile " << t << " pass " << k;
        for (size_t i = 0; i < reads.size(); ++i) EXPECT_EQ(reads[i], 1u) << "input element " << i;
    }
    return a;
}

// Same for the reference path (one radix-2 stage at a time).
std::vector<Fr> emulate_reference_forward(std::vector<Fr> a) {
    const unsigned log_n = ntt::checked_log_size(a.size(), "emulate");
    const size_t n = a.size();
    if (log_n == 0) return a;
    for (size_t i = 0; i < n; ++i) {
        size_t r = gntt::plan::reverse_bits(uint32_t(i), log_n);
        if (i < r) std::swap(a[i], a[r]);
    }
    const Fr w = ntt::root_of_unity(log_n);
    for (unsigned lh = 0; lh < log_n; ++lh)
        for (size_t q = 0; q < n / 2; ++q) {
            size_t x, y, t;
            gntt::plan::stage_butterfly(log_n, lh, q, x, y, t);
            const Fr tt = a[y] * w.pow(uint64_t(t));
            a[y] = a[x] - tt;
            a[x] = a[x] + tt;
        }
    return a;
}

TEST(GpuNttPlan, PassesCoverEveryStage) {
    for (unsigned log_n = 0; log_n <= ntt::kMaxLogSize; ++log_n) {
        gntt::plan::Pass p[gntt::plan::kMaxPasses];
        const unsigned np = gntt::plan::make_passes(log_n, p);
        unsigned total = 0;
        for (unsigned i = 0; i < np; ++i) {
            EXPECT_EQ(p[i].lh0, total) << "log_n=" << log_n;
            EXPECT_GE(p[i].s, 1u);
            EXPECT_LE(p[i].s + p[i].log_c, gntt::plan::kTileLog);
            EXPECT_LE(p[i].log_c, p[i].lh0);
            total += p[i].s;
        }
        EXPECT_EQ(total, log_n);
    }
    gntt::plan::Pass p[gntt::plan::kMaxPasses];
    ASSERT_EQ(gntt::plan::make_passes(27, p), 3u);
    EXPECT_EQ(p[2].s, 9u);
    EXPECT_EQ(p[2].log_c, 1u);
    // Whole register groups where log_n is a multiple of 3: 2^24 as 6 + 9 + 9, not 8 + 8 + 8;
    // 2^22 as 7 + 7 + 8: the shorter passes first.
    const auto ordered = [](unsigned longer, unsigned shorter, bool one_longer) {
        std::array<unsigned, 3> s{longer, one_longer ? shorter : longer, shorter};
        std::reverse(s.begin(), s.end());
        return s;
    };
    ASSERT_EQ(gntt::plan::make_passes(24, p), 3u);
    const auto want24 = ordered(9, 6, false);
    for (unsigned i = 0; i < 3; ++i) {
        EXPECT_EQ(p[i].s, want24[i]) << "2^24, pass " << i;
        EXPECT_EQ(p[i].log_c, std::min(p[i].lh0, gntt::plan::kTileLog - want24[i])) << "2^24, pass " << i;
    }
    ASSERT_EQ(gntt::plan::make_passes(22, p), 3u);
    const auto want22 = ordered(8, 7, true);
    for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(p[i].s, want22[i]) << "2^22, pass " << i;
}

TEST(GpuNttPlan, RegisterPlanMatchesCpu) {
    std::mt19937_64 rng(test::seed());
    for (unsigned k : {3u, 4u, 5u, 6u, 7u, 9u, 10u, 11u, 12u, 13u, 14u, 15u, 16u, 19u}) {
        const auto a = random_vector(size_t(1) << k, rng);
        auto want = a;
        ntt::forward(want);
        ASSERT_EQ(emulate_reg_transform(a, false), want) << "forward, k=" << k;
        want = a;
        ntt::inverse(want);
        auto got = emulate_reg_transform(a, true);
        const Fr n_inv = Fr::from_u64(uint64_t(1) << k).inverse();
        for (auto& v : got) v *= n_inv;
        ASSERT_EQ(got, want) << "inverse, k=" << k;
        // DIF: natural in, bit-reversed out.
        auto bitrev = [k](std::vector<Fr> v) {
            for (size_t i = 0; i < v.size(); ++i) {
                const size_t r = gntt::plan::reverse_bits(uint32_t(i), k);
                if (i < r) std::swap(v[i], v[r]);
            }
            return v;
        };
        want = a;
        ntt::forward(want);
        ASSERT_EQ(emulate_reg_transform(a, false, true), bitrev(want)) << "DIF forward, k=" << k;
        want = a;
        ntt::inverse(want);
        got = emulate_reg_transform(a, true, true);
        for (auto& v : got) v *= n_inv;
        ASSERT_EQ(got, bitrev(want)) << "DIF inverse, k=" << k;
        if (k <= gntt::plan::kTileLog) continue;  // one pass: no gathering pass
        want = a;
        ntt::forward(want);
        ASSERT_EQ(emulate_reg_transform(a, false, false, true), want) << "gathering forward, k=" << k;
        want = a;
        ntt::inverse(want);
        got = emulate_reg_transform(a, true, false, true);
        for (auto& v : got) v *= n_inv;
        ASSERT_EQ(got, want) << "gathering inverse, k=" << k;
    }
}

// Every group of every pass up to 2^27: 3 distinct bits, the group's stage bits among them,
// and a butterfly's twiddle depends on the group bits below its stage bit only.
TEST(GpuNttPlan, RegisterGroupsSpanTheirStages) {
    namespace plan = gntt::plan;
    for (unsigned log_n = plan::kRegMinLogN; log_n <= ntt::kMaxLogSize; ++log_n) {
        plan::Pass passes[plan::kMaxPasses];
        const unsigned np = plan::make_passes(log_n, passes);
        for (unsigned i = 0; i < np; ++i) {
            const auto& p = passes[i];
            ASSERT_GE(plan::tile_log(p), plan::kRegLog) << "log_n=" << log_n;
            for (unsigned g = 0; g < plan::group_count(p); ++g) {
                const plan::RegBits rb = plan::group_bits(p, g);
                unsigned u0, r;
                plan::group_stages(p, g, u0, r);
                EXPECT_EQ(__builtin_popcount(rb.mask), int(plan::kRegLog));
                EXPECT_LT(rb.mask, 1u << plan::tile_log(p));
                EXPECT_LT(rb.pos[0], rb.pos[1]);
                EXPECT_LT(rb.pos[1], rb.pos[2]);
                for (unsigned u = u0; u < u0 + r; ++u) EXPECT_TRUE((rb.mask >> (p.log_c + u)) & 1);
                // A thread's butterfly at group bit k (a stage bit) has the twiddle of its
                // element's bits below k only (reg_pass_kernel loads it once for them all):
                // first, last and a middle thread of the first and last tile.
                const unsigned threads = 1u << (plan::tile_log(p) - plan::kRegLog);
                const size_t last_tile = plan::tile_count(log_n, p) - 1;
                for (size_t tile : {size_t(0), last_tile})
                    for (unsigned f : {0u, threads / 2, threads - 1}) {
                        const unsigned e0 = plan::thread_base(p, rb, f);
                        const size_t r0 = plan::tile_r0(p, tile);
                        for (unsigned k = 0; k < plan::kRegLog; ++k) {
                            const unsigned b = rb.pos[k];
                            if (b < p.log_c + u0 || b >= p.log_c + u0 + r) continue;
                            for (unsigned j = 0; j < plan::kRegElems; ++j) {
                                // The kernel's 32-bit index arithmetic is exact.
                                ASSERT_EQ(plan::tile_twiddle<uint32_t>(log_n, p, uint32_t(r0), b - p.log_c,
                                                                       plan::group_element(rb, e0, j)),
                                          plan::tile_twiddle(log_n, p, r0, b - p.log_c, plan::group_element(rb, e0, j)))
                                    << "log_n " << log_n << " pass " << i << " group " << g << " bit " << k;
                                ASSERT_EQ(plan::tile_twiddle(log_n, p, r0, b - p.log_c, plan::group_element(rb, e0, j)),
                                          plan::tile_twiddle(log_n, p, r0, b - p.log_c,
                                                             plan::group_element(rb, e0, j & ((1u << k) - 1))))
                                    << "log_n " << log_n << " pass " << i << " group " << g << " bit " << k << " j "
                                    << j;
                            }
                        }
                    }
            }
        }
    }
}

// The twiddle table's two layouts (plan::twiddle_position: bit-reversed, and the plain reference): each a
// bijection on the n/2 + 1 slots, and tile_twiddle_position (the kernels' index, computed
// without the slot's shift in the bit-reversed layout) the position of the slot of
// tile_twiddle (the inverse's n/2 - slot) in either, for every pass, group, thread and
// stage up to 2^16 and every thread of the first and last tiles above. In the bit-reversed
// layout a stage of half-size h reads only the positions [0, h) (and n/2).
template <bool kBitrev>
void check_twiddle_positions() {
    namespace plan = gntt::plan;
    for (unsigned log_n = plan::kRegMinLogN; log_n <= 20; ++log_n) {
        const size_t n = size_t(1) << log_n;
        std::vector<bool> seen(n / 2 + 1, false);
        for (size_t j = 0; j <= n / 2; ++j) {
            const size_t at = plan::twiddle_position<kBitrev>(j, log_n);
            ASSERT_LE(at, n / 2) << "log_n " << log_n << " slot " << j;
            ASSERT_FALSE(seen[at]) << "log_n " << log_n << " slot " << j << " shares position " << at;
            seen[at] = true;
        }
        EXPECT_EQ(plan::twiddle_position<kBitrev>(n / 2, log_n), n / 2);
        plan::Pass passes[plan::kMaxPasses];
        const unsigned np = plan::make_passes(log_n, passes);
        for (unsigned k = 0; k < np; ++k) {
            const plan::Pass& p = passes[k];
            const unsigned threads = 1u << (plan::tile_log(p) - plan::kRegLog);
            const size_t tiles = plan::tile_count(log_n, p);
            for (size_t tile = 0; tile < tiles; tile += (log_n <= 16 || tile + 1 == tiles) ? 1 : tiles - 1) {
                const uint32_t r0 = uint32_t(plan::tile_r0(p, tile));
                for (unsigned g = 0; g < plan::group_count(p); ++g) {
                    const plan::RegBits rb = plan::group_bits(p, g);
                    unsigned u0, r;
                    plan::group_stages(p, g, u0, r);
                    for (unsigned f = 0; f < threads; ++f)
                        for (unsigned u = u0; u < u0 + r; ++u)
                            for (unsigned j = 0; j < plan::kRegElems; ++j) {
                                const unsigned e = plan::group_element(rb, plan::thread_base(p, rb, f), j);
                                const size_t t = plan::tile_twiddle<size_t>(log_n, p, r0, u, e);
                                const size_t fwd =
                                    plan::tile_twiddle_position<false, kBitrev, uint32_t>(log_n, p, r0, u, e);
                                const size_t inv =
                                    plan::tile_twiddle_position<true, kBitrev, uint32_t>(log_n, p, r0, u, e);
                                ASSERT_EQ(fwd, plan::twiddle_position<kBitrev>(t, log_n))
                                    << "log_n " << log_n << " pass " << k << " stage " << u << " e " << e;
                                ASSERT_EQ(inv, plan::twiddle_position<kBitrev>(n / 2 - t, log_n))
                                    << "log_n " << log_n << " pass " << k << " stage " << u << " e " << e;
                                if (kBitrev) {
                                    const size_t h = size_t(1) << (p.lh0 + u);
                                    EXPECT_LT(fwd, h);
                                    if (t != 0) {
                                        EXPECT_LT(inv, h);
                                    }
                                }
                            }
                }
            }
        }
    }
}

TEST(GpuNttPlan, TwiddlePositionsInEitherLayout) {
    check_twiddle_positions<false>();
    check_twiddle_positions<true>();
}

// The shared-memory layout of the register passes' tiles, as reg_pass_kernel lays them out
// (plan::block_thread, plan::smem_slot, plan::smem_tile_key), for blocks of 128 and 256
// threads (launch_reg_pass: 2^7 narrow, 2^8 wide):
// - every block thread is one thread of one tile;
// - the keyed slots are a permutation of the tile;
// - the worst bank conflict of an exchange is no worse than with the natural order and no
//   key. An exchange is one 64-bit limb of element j by every thread of a half warp, on 16
//   banks of 8 bytes.
// The sizes (the first passes of 2^24 and 2^27, gathering) have none at all.
unsigned worst_bank_conflict(const gntt::plan::Pass& p, unsigned tiles_log, bool interleave, bool keyed) {
    namespace plan = gntt::plan;
    const unsigned threads_log = plan::tile_log(p) - plan::kRegLog;
    const unsigned elems = 1u << plan::tile_log(p), block = 1u << (threads_log + tiles_log);
    unsigned worst = 1;
    for (unsigned g = 0; g < plan::group_count(p); ++g) {
        const plan::RegBits rb = plan::group_bits(p, g);
        for (unsigned j = 0; j < plan::kRegElems; ++j)
            for (unsigned half = 0; half < std::max(1u, block / 16); ++half) {
                std::vector<std::vector<unsigned>> on_bank(16);
                for (unsigned tid = half * 16; tid < std::min(block, half * 16 + 16); ++tid) {
                    unsigned tile = 0, f = 0;
                    plan::block_thread(tid, threads_log, tiles_log, interleave, tile, f);
                    const unsigned e = plan::group_element(rb, plan::thread_base(p, rb, f), j);
                    const unsigned key = keyed ? plan::smem_tile_key(tile, threads_log, tiles_log, interleave) : 0;
                    const unsigned word = tile * Fr::N * elems + (plan::smem_slot(e) ^ key);
                    auto& b = on_bank[word % 16];
                    if (std::find(b.begin(), b.end(), word) == b.end()) b.push_back(word);
                }
                for (const auto& b : on_bank) worst = std::max(worst, unsigned(b.size()));
            }
    }
    return worst;
}

TEST(GpuNttPlan, SharedTilesSpreadOverTheBanks) {
    namespace plan = gntt::plan;
    for (unsigned log_n = plan::kRegMinLogN; log_n <= 27; ++log_n) {
        plan::Pass passes[plan::kMaxPasses];
        const unsigned np = plan::make_passes(log_n, passes);
        for (unsigned k = 0; k < np; ++k) {
            const plan::Pass& p = passes[k];
            const unsigned threads_log = plan::tile_log(p) - plan::kRegLog;
            const unsigned elems = 1u << plan::tile_log(p);
            const unsigned tiles_max_log = log_n - plan::tile_log(p);
            for (unsigned block_log : {7u, 8u}) {
                const unsigned tiles_log =
                    std::min(tiles_max_log, block_log > threads_log ? block_log - threads_log : 0);
                for (bool interleave : {false, true}) {
                    if (interleave && k != 0) continue;  // only a first pass gathers
                    const std::string at = "log_n " + std::to_string(log_n) + " pass " + std::to_string(k) +
                                           " block 2^" + std::to_string(block_log) + (interleave ? " interleaved" : "");
                    std::vector<unsigned> seen(size_t(1) << (threads_log + tiles_log), 0);
                    for (unsigned tid = 0; tid < seen.size(); ++tid) {
                        unsigned tile = 0, f = 0;
                        plan::block_thread(tid, threads_log, tiles_log, interleave, tile, f);
                        ASSERT_LT(tile, 1u << tiles_log) << at;
                        ASSERT_LT(f, 1u << threads_log) << at;
                        ++seen[(size_t(tile) << threads_log) | f];
                    }
                    for (size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i], 1u) << at << " tile thread " << i;
                    for (unsigned tile = 0; tile < (1u << tiles_log); ++tile) {
                        std::vector<bool> used(elems, false);
                        const unsigned key = plan::smem_tile_key(tile, threads_log, tiles_log, interleave);
                        for (unsigned e = 0; e < elems; ++e) {
                            const unsigned slot = plan::smem_slot(e) ^ key;
                            ASSERT_LT(slot, elems) << at;
                            ASSERT_FALSE(used[slot]) << at << " slot " << slot;
                            used[slot] = true;
                        }
                    }
                    const unsigned before = worst_bank_conflict(p, tiles_log, false, false);
                    const unsigned now = worst_bank_conflict(p, tiles_log, interleave, true);
                    EXPECT_LE(now, before) << at;
                    if (k == 0 && interleave && (log_n == 24 || log_n == 27)) {
                        EXPECT_EQ(now, 1u) << at;
                    }
                }
            }
        }
    }
    // What the key is for: 2^24's first pass (tiles of 8 threads) had a 2-way conflict.
    plan::Pass passes[plan::kMaxPasses];
    plan::make_passes(24, passes);
    EXPECT_EQ(worst_bank_conflict(passes[0], 4, false, false), 2u);
}

TEST(GpuNttPlan, ReverseBits) {
    EXPECT_EQ(gntt::plan::reverse_bits(1, 1), 1u);
    EXPECT_EQ(gntt::plan::reverse_bits(1, 3), 4u);
    EXPECT_EQ(gntt::plan::reverse_bits(6, 3), 3u);
    EXPECT_EQ(gntt::plan::reverse_bits(1, 28), 1u << 27);
    EXPECT_EQ(gntt::plan::reverse_bits(0x0abcdef, 28), 0xf7b3d50u);
}

// The tiled bit reversal's index plan, run in place on the host as the kernel's blocks
// run it (each reads its one or two tiles, then writes them): the bit reversal of every
// size it serves, each element written once.
TEST(GpuNttPlan, TiledBitReversalIsTheBitReversal) {
    namespace plan = gntt::plan;
    for (unsigned log_n = 2 * plan::kRevLog; log_n <= 14; ++log_n) {
        const size_t n = size_t(1) << log_n;
        const unsigned m = log_n - 2 * plan::kRevLog, side2 = 1u << (2 * plan::kRevLog);
        std::vector<uint32_t> a(n), writes(n, 0);
        std::iota(a.begin(), a.end(), 0u);
        for (size_t b = 0; b < (size_t(1) << m); ++b) {
            const size_t rb = plan::reverse_bits(uint32_t(b), m);
            if (rb < b) continue;
            const size_t mid[2] = {b, rb};
            const unsigned tiles = rb == b ? 1 : 2;
            std::vector<uint32_t> sh[2];
            for (unsigned k = 0; k < tiles; ++k)
                for (unsigned t = 0; t < side2; ++t) sh[k].push_back(a[plan::rev_tile_index(log_n, mid[k], t)]);
            for (unsigned k = 0; k < tiles; ++k)
                for (unsigned t = 0; t < side2; ++t) {
                    const size_t o = plan::rev_tile_index(log_n, mid[tiles - 1 - k], t);
                    a[o] = sh[k][plan::rev_tile_source(t)];
                    ++writes[o];
                }
        }
        for (size_t i = 0; i < n; ++i) {
            ASSERT_EQ(a[i], plan::reverse_bits(uint32_t(i), log_n)) << "log_n=" << log_n << " i=" << i;
            ASSERT_EQ(writes[i], 1u) << "log_n=" << log_n << " i=" << i;
        }
    }
}

TEST(GpuNttPlan, HostEmulationMatchesCpu) {
    std::mt19937_64 rng(test::seed());
    for (unsigned k : {0u, 1u, 2u, 3u, 5u, 9u, 10u, 11u, 12u, 13u, 15u, 17u}) {
        auto a = random_vector(size_t(1) << k, rng);
        auto want = a;
        ntt::forward(want);
        if (k <= 10) {
            ASSERT_EQ(emulate_reference_forward(a), want) << "reference plan, k=" << k;
        }
    }
}

// --- on the device ------------------------------------------------------------------

#define SKIP_WITHOUT_GPU()                                                   \
    do {                                                                     \
        std::string why;                                                     \
        if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why; \
    } while (0)

struct Transform {
    const char* name;
    void (*cpu)(std::span<Fr>);
    void (*gpu)(std::span<Fr>, gntt::Impl);
};
const Transform kTransforms[] = {
    {"forward", ntt::forward, gntt::forward},
    {"inverse", ntt::inverse, gntt::inverse},
    {"coset_forward", ntt::coset_forward, gntt::coset_forward},
    {"coset_inverse", ntt::coset_inverse, gntt::coset_inverse},
};

void check_transforms(unsigned k, std::mt19937_64& rng) {
    const auto input = random_vector(size_t(1) << k, rng);
    for (const Transform& t : kTransforms) {
        auto want = input;
        t.cpu(want);
        for (auto impl : {gntt::Impl::kFast, gntt::Impl::kReference}) {
            auto got = input;
            t.gpu(got, impl);
            ASSERT_EQ(got.size(), want.size());
            for (size_t i = 0; i < got.size(); ++i)
                ASSERT_EQ(got[i], want[i]) << t.name << " impl=" << int(impl) << " k=" << k << " i=" << i;
        }
    }
}

TEST(GpuNtt, MatchesCpuSizes2To0Through12) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    for (unsigned k = 0; k <= 12; ++k) check_transforms(k, rng);
}

TEST(GpuNtt, MatchesCpu2To16) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    check_transforms(16, rng);
}

TEST(SlowGpuNtt, MatchesCpu2To20) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    check_transforms(20, rng);
}

// Every transform of `input` (2^k elements) by the fast path equals the reference path's.
void check_fast_matches_reference(const std::vector<Fr>& input, unsigned k) {
    for (const Transform& t : kTransforms) {
        auto fast = input, reference = input;
        t.gpu(fast, gntt::Impl::kFast);
        t.gpu(reference, gntt::Impl::kReference);
        ASSERT_TRUE(fast == reference) << t.name << " k=" << k;
    }
}

// Sizes where the CPU is slow: the fast path equals the reference path for every transform,
// and the inverses undo the forwards.
TEST(GpuNtt, FastMatchesReferenceAndRoundTrips2To22And23) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    for (unsigned k : {22u, 23u}) {
        const auto input = random_vector(size_t(1) << k, rng);
        ASSERT_NO_FATAL_FAILURE(check_fast_matches_reference(input, k));
        auto v = input;
        gntt::forward(v);
        gntt::inverse(v);
        ASSERT_TRUE(v == input) << "inverse(forward(x)) k=" << k;
        gntt::coset_forward(v);
        gntt::coset_inverse(v);
        ASSERT_TRUE(v == input) << "coset_inverse(coset_forward(x)) k=" << k;
    }
}

// A size of the plan's 8 + 9 + 9 passes (the generic group path in the first): every
// transform and compute_h at 2^26 equal the reference path's.
TEST(SlowGpuNtt, FastMatchesReference2To26) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    const unsigned k = 26;
    const auto input = random_vector(size_t(1) << k, rng);
    ASSERT_NO_FATAL_FAILURE(check_fast_matches_reference(input, k));
    const size_t n = (size_t(1) << k) - 3;  // a domain of 2^26
    const std::vector<Fr> a(input.begin(), input.begin() + n), b(input.rbegin(), input.rbegin() + n);
    const auto c = random_vector(n, rng);
    ASSERT_TRUE(gntt::compute_h(a, b, c, gntt::Impl::kFast) == gntt::compute_h(a, b, c, gntt::Impl::kReference));
}

// The gathering first pass (natural -> natural from 2^11 on) against the in-place
// bit-reversal pass it replaces, every transform, at a size of each pass count and block
// width (2^11 and 2^17: two passes; 2^21, 2^24 and 2^27's plans: three; 2^25: three, wide
// blocks), and against the CPU's result where it is quick.
TEST(GpuNtt, EveryReorderGivesTheSameTransform) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    const gntt::Reorder before = gntt::reorder();
    struct Restore {
        gntt::Reorder how;
        ~Restore() { gntt::set_reorder(how); }
    } restore{before};
    using R = gntt::Reorder;
    for (unsigned k : {11u, 17u, 21u, 24u, 25u}) {
        const auto input = random_vector(size_t(1) << k, rng);
        for (const Transform& t : kTransforms) {
            std::vector<Fr> out[2];
            const R methods[2] = {R::kBitReversalPass, R::kGatheringFirstPass};
            for (unsigned m = 0; m < 2; ++m) {
                gntt::set_reorder(methods[m]);
                ASSERT_EQ(gntt::reorder(), methods[m]);
                out[m] = input;
                t.gpu(out[m], gntt::Impl::kFast);
            }
            ASSERT_FALSE(out[0] == input) << t.name << " k=" << k;
            ASSERT_TRUE(out[1] == out[0]) << t.name << " k=" << k << ": gathering first pass";
            if (k <= 17) {
                auto want = input;
                t.cpu(want);
                ASSERT_TRUE(out[1] == want) << t.name << " k=" << k << ": gathering first pass against the CPU";
            }
        }
    }
}

// The transforms with their input and output in every combination of orders.
struct OrderedTransform {
    const char* name;
    void (*cpu)(std::span<Fr>);
    void (*gpu)(std::span<Fr>, gntt::Order, gntt::Order, gntt::Impl);
};
const OrderedTransform kOrderedTransforms[] = {
    {"forward", ntt::forward, gntt::forward},
    {"inverse", ntt::inverse, gntt::inverse},
    {"coset_forward", ntt::coset_forward, gntt::coset_forward},
    {"coset_inverse", ntt::coset_inverse, gntt::coset_inverse},
};
constexpr gntt::Order kOrders[] = {gntt::Order::kNatural, gntt::Order::kBitReversed};

// v stored in `order`: element i at rev(i) when bit-reversed (the CPU's permutation,
// independent of the device's bit-reversal kernels).
std::vector<Fr> in_order(std::vector<Fr> v, gntt::Order order) {
    if (order == gntt::Order::kBitReversed) ntt::bit_reverse(v);
    return v;
}

std::string order_name(gntt::Order in, gntt::Order out) {
    const auto c = [](gntt::Order o) { return o == gntt::Order::kNatural ? 'N' : 'R'; };
    return {c(in), c(out)};
}

// Every transform in every pair of orders and every Impl equals the CPU's natural-order
// result, reordered: sizes below, at and above the register passes' smallest (2^3) and the
// passes' counts 1-2 (2^10-2^12, 2^16).
TEST(GpuNtt, EveryOrderMatchesCpu) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    for (unsigned k : {0u, 1u, 2u, 3u, 4u, 7u, 8u, 10u, 11u, 12u, 16u}) {
        const auto input = random_vector(size_t(1) << k, rng);
        for (const OrderedTransform& t : kOrderedTransforms) {
            auto natural = input;
            t.cpu(natural);
            for (auto in : kOrders)
                for (auto out : kOrders) {
                    const auto want = in_order(natural, out);
                    for (auto impl : {gntt::Impl::kFast, gntt::Impl::kReference}) {
                        auto got = in_order(input, in);
                        t.gpu(got, in, out, impl);
                        ASSERT_TRUE(got == want)
                            << t.name << " " << order_name(in, out) << " impl=" << int(impl) << " k=" << k;
                    }
                }
        }
    }
}

// Where the CPU is slow: the fast path's orders against its own natural-order transform
// reordered on the host (2^21, 2^24: three passes). 2^25 took 100 s here (host copies and
// permutations of 1 GiB), so the wide blocks are left to the natural-order tests.
TEST(GpuNtt, EveryOrderMatchesNaturalOrder2To21And24) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    for (unsigned k : {21u, 24u}) {
        const auto input = random_vector(size_t(1) << k, rng);
        const std::vector<Fr> inputs[2] = {input, in_order(input, gntt::Order::kBitReversed)};
        for (const OrderedTransform& t : kOrderedTransforms) {
            auto natural = input;
            t.gpu(natural, gntt::Order::kNatural, gntt::Order::kNatural, gntt::Impl::kFast);
            ASSERT_FALSE(natural == input) << t.name << " k=" << k;
            const std::vector<Fr> wants[2] = {natural, in_order(natural, gntt::Order::kBitReversed)};
            for (auto in : kOrders)
                for (auto out : kOrders) {
                    auto got = inputs[int(in)];
                    t.gpu(got, in, out, gntt::Impl::kFast);
                    ASSERT_TRUE(got == wants[int(out)]) << t.name << " " << order_name(in, out) << " k=" << k;
                }
        }
    }
}

TEST(GpuNtt, RejectsUnknownOrder) {
    SKIP_WITHOUT_GPU();
    std::vector<Fr> v(16, Fr::one());
    const auto bad = static_cast<gntt::Order>(7);
    for (const OrderedTransform& t : kOrderedTransforms) {
        try {
            t.gpu(v, bad, gntt::Order::kNatural, gntt::Impl::kFast);
            FAIL() << t.name << ": no exception";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("element order 7"), std::string::npos) << e.what();
        }
        EXPECT_THROW(t.gpu(v, gntt::Order::kNatural, bad, gntt::Impl::kReference), std::invalid_argument) << t.name;
    }
    EXPECT_EQ(v, std::vector<Fr>(16, Fr::one())) << "a refused call changed its input";
}

TEST(GpuNtt, EdgeValues) {
    SKIP_WITHOUT_GPU();
    for (const Transform& t : kTransforms) {
        std::vector<Fr> zeros(1024, Fr::zero()), ones(1024, Fr::one()), minus(1024, -Fr::one());
        for (auto* v : {&zeros, &ones, &minus}) {
            auto want = *v, got = *v;
            t.cpu(want);
            t.gpu(got, gntt::Impl::kFast);
            ASSERT_EQ(got, want) << t.name;
        }
    }
}

TEST(GpuNtt, RejectsBadSizes) {
    SKIP_WITHOUT_GPU();
    for (size_t n : {size_t(0), size_t(3), size_t(1000), size_t(1) << 29}) {
        std::vector<Fr> v(n < 2000 ? n : 0);
        if (n < 2000) {
            EXPECT_THROW(gntt::forward(v), std::invalid_argument) << "n=" << n;
        }
        // The size is checked before the pointer is touched (a null Fr*: the transforms
        // are overloaded on the field).
        Fr* const null = nullptr;
        EXPECT_THROW(gntt::forward(null, n, nullptr), std::invalid_argument) << "n=" << n;
        EXPECT_THROW(gntt::coset_inverse(null, n, nullptr), std::invalid_argument) << "n=" << n;
    }
    Fr* const null = nullptr;
    EXPECT_THROW(gntt::inverse(null, 16, nullptr), std::invalid_argument);
    try {
        std::vector<Fr> v(12);
        gntt::coset_forward(v);
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("not a power of two"), std::string::npos) << e.what();
    }
}

// A released table is gone (a second release frees nothing) and built again by the next
// transform or prepare_twiddles; the transforms around it equal the CPU's.
TEST(GpuNtt, TwiddlesReleasedAndBuiltAgain) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    // Shoup pairs of 64 B for slots j <= n/2: 32 B x n and one pair more.
    EXPECT_EQ(gntt::twiddle_table_bytes(size_t(1) << 27), (size_t(4) << 30) + 64);
    for (unsigned k : {11u, 18u}) {  // sizes the register passes run (n < 2^8 reads no such table)
        SCOPED_TRACE(k);
        const size_t n = size_t(1) << k;
        const auto input = random_vector(n, rng);
        auto want = input;
        ntt::forward(want);
        gntt::prepare_twiddles(n, nullptr);
        EXPECT_EQ(gntt::release_twiddles(n, nullptr), gntt::twiddle_table_bytes(n));
        EXPECT_EQ(gntt::release_twiddles(n, nullptr), 0u) << "released twice";
        auto got = input;
        gntt::forward(got, gntt::Impl::kFast);  // builds the table again
        ASSERT_EQ(got, want);
        EXPECT_EQ(gntt::release_twiddles(n, nullptr), gntt::twiddle_table_bytes(n));
        gntt::prepare_twiddles(n, nullptr);
        got = input;
        gntt::forward(got, gntt::Impl::kFast);
        ASSERT_EQ(got, want);
    }
    for (size_t bad : {size_t(0), size_t(1), size_t(12), size_t(2) << ntt::kMaxLogSize}) {
        EXPECT_THROW(gntt::prepare_twiddles(bad, nullptr), std::invalid_argument) << bad;
        EXPECT_THROW(gntt::release_twiddles(bad, nullptr), std::invalid_argument) << bad;
    }
}

void check_h(size_t n, std::mt19937_64& rng) {
    const auto a = random_vector(n, rng), b = random_vector(n, rng), c = random_vector(n, rng);
    const auto want = ntt::compute_h(a, b, c);
    for (auto impl : {gntt::Impl::kFast, gntt::Impl::kReference}) {
        const auto got = gntt::compute_h(a, b, c, impl);
        ASSERT_EQ(got.size(), want.size()) << "n=" << n;
        for (size_t i = 0; i < got.size(); ++i)
            ASSERT_EQ(got[i], want[i]) << "n=" << n << " impl=" << int(impl) << " i=" << i;
    }
}

TEST(GpuComputeH, MatchesCpu2To10) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    for (size_t n : {size_t(1), size_t(2), size_t(5), size_t(1000), size_t(1023), size_t(1024)}) check_h(n, rng);
}

TEST(GpuComputeH, FastMatchesReference2To21) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    const size_t n = (size_t(1) << 21) - 3;
    const auto a = random_vector(n, rng), b = random_vector(n, rng), c = random_vector(n, rng);
    ASSERT_TRUE(gntt::compute_h(a, b, c, gntt::Impl::kFast) == gntt::compute_h(a, b, c, gntt::Impl::kReference));
}

TEST(SlowGpuComputeH, MatchesCpu2To18) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    check_h((size_t(1) << 18) - 5, rng);
}

// A satisfied "circuit": a_i b_i = c_i on H, so (AB - C) vanishes on H, Z divides it and
// h has degree < m - 1: its top coefficient is zero.
TEST(GpuComputeH, SatisfiedConstraintsGiveZeroTopCoefficient) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    const size_t n = 4096;
    auto a = random_vector(n, rng), b = random_vector(n, rng);
    std::vector<Fr> c(n);
    for (size_t i = 0; i < n; ++i) c[i] = a[i] * b[i];
    const auto h = gntt::compute_h(a, b, c);
    ASSERT_EQ(h.size(), n);
    EXPECT_TRUE(h[n - 1].is_zero());
    EXPECT_EQ(h, ntt::compute_h(a, b, c));
}

TEST(GpuComputeH, RejectsBadInput) {
    SKIP_WITHOUT_GPU();
    std::vector<Fr> a(8), b(8), c(7), none;
    EXPECT_THROW(gntt::compute_h(a, b, c), std::invalid_argument);
    EXPECT_THROW(gntt::compute_h(none, none, none), std::invalid_argument);
    EXPECT_THROW(gntt::compute_h_device(nullptr, nullptr, nullptr, 8, nullptr), std::invalid_argument);
}

#if CUZK_HAVE_CUDA
// The split steps of compute_h_device (what CudaBackend::h_msm pipelines with its copies)
// against the CPU: to_coset_evals of each vector equals pad, iNTT, coset NTT on the host
// (with garbage in the padding, which it must zero); c's step of the six-transform method
// equals pad, iNTT, times 1/Z (bit-reversed where h_coefficients_bit_reversed says so);
// and quotient_and_coset_inverse of the three equals ntt::compute_h.
// Odd and power-of-two sizes, every Impl.
TEST(GpuComputeH, SplitStepsMatchCpu) {
    SKIP_WITHOUT_GPU();
    auto ok = [](cudaError_t e) { ASSERT_EQ(e, cudaSuccess) << cudaGetErrorString(e); };
    std::mt19937_64 rng(test::seed());
    for (size_t n : {size_t(1), size_t(5), size_t(7), size_t(200), size_t(1000), size_t(1024), size_t(4099),
                     (size_t(1) << 16) - 7}) {
        const size_t m = ntt::EvaluationDomain::size_for(n);
        const unsigned log_m = unsigned(__builtin_ctzll(m));
        const std::vector<Fr> in[3] = {random_vector(n, rng), random_vector(n, rng), random_vector(n, rng)};
        const auto want_h = ntt::compute_h(in[0], in[1], in[2]);
        std::vector<Fr> want_evals[3];
        for (int k = 0; k < 3; ++k) {
            want_evals[k] = in[k];
            want_evals[k].resize(m, Fr::zero());
            ntt::inverse(want_evals[k]);
            ntt::coset_forward(want_evals[k]);
        }
        std::vector<Fr> want_c = in[2];
        want_c.resize(m, Fr::zero());
        ntt::inverse(want_c);
        const Fr z_inv = (ntt::coset_generator().pow(uint64_t(m)) - Fr::one()).inverse();
        for (Fr& x : want_c) x *= z_inv;
        for (auto impl : {gntt::Impl::kFast, gntt::Impl::kReference}) {
            const std::string what = "n=" + std::to_string(n) + " impl=" + std::to_string(int(impl));
            Fr* d[3] = {};
            for (auto*& p : d) {
                ok(cudaMalloc(&p, m * sizeof(Fr)));
                ok(cudaMemset(p, 0xab, m * sizeof(Fr)));  // the padding must come out zero
            }
            for (unsigned k = 0; k < 3; ++k) {
                ok(cudaMemcpy(d[k], in[k].data(), n * sizeof(Fr), cudaMemcpyHostToDevice));
                gntt::prepare_h_input(k, d[k], n, nullptr, impl);
                std::vector<Fr> got(m);
                ok(cudaMemcpy(got.data(), d[k], m * sizeof(Fr), cudaMemcpyDeviceToHost));
                if (k == 2) {
                    if (gntt::h_coefficients_bit_reversed(impl, m)) {
                        std::vector<Fr> natural(m);
                        for (size_t i = 0; i < m; ++i) natural[gntt::plan::reverse_bits(uint32_t(i), log_m)] = got[i];
                        got = natural;
                    }
                    EXPECT_EQ(got, want_c) << "c's step, " << what;
                } else {
                    EXPECT_EQ(got, want_evals[k]) << "to_coset_evals k=" << k << ", " << what;
                }
            }
            // Two vectors at once, as CudaBackend::h_msm on a small budget: the
            // quotient of d[0] and d[1], then, once b_read says d[1] was read, c
            // copied over it by another stream (garbage first, which a b_read
            // recorded too early would let into the quotient), its step, the
            // subtraction. The prepared c in d[2] is kept for the one-call check.
            Fr *ta = nullptr, *tb = nullptr;
            ok(cudaMalloc(&ta, m * sizeof(Fr)));
            ok(cudaMalloc(&tb, m * sizeof(Fr)));
            ok(cudaMemcpy(ta, d[0], m * sizeof(Fr), cudaMemcpyDeviceToDevice));
            ok(cudaMemcpy(tb, d[1], m * sizeof(Fr), cudaMemcpyDeviceToDevice));
            cudaStream_t copies = nullptr;
            cudaEvent_t b_read = nullptr, c_in = nullptr;
            ok(cudaStreamCreateWithFlags(&copies, cudaStreamNonBlocking));
            ok(cudaEventCreateWithFlags(&b_read, cudaEventDisableTiming));
            ok(cudaEventCreateWithFlags(&c_in, cudaEventDisableTiming));
            gntt::quotient_coset_inverse(ta, tb, m, nullptr, impl, b_read);
            ok(cudaStreamWaitEvent(copies, b_read, 0));
            ok(cudaMemsetAsync(tb, 0xcd, m * sizeof(Fr), copies));
            ok(cudaMemcpyAsync(tb, in[2].data(), n * sizeof(Fr), cudaMemcpyHostToDevice, copies));
            ok(cudaEventRecord(c_in, copies));
            ok(cudaStreamWaitEvent(nullptr, c_in, 0));
            gntt::prepare_h_input(2, tb, n, nullptr, impl);
            gntt::subtract_scaled_c(ta, tb, m, nullptr, impl);
            std::vector<Fr> got(m);
            ok(cudaMemcpy(got.data(), ta, m * sizeof(Fr), cudaMemcpyDeviceToHost));
            EXPECT_EQ(got, want_h) << "two vectors (c over b after the quotient), " << what;
            ok(cudaStreamDestroy(copies));
            ok(cudaEventDestroy(b_read));
            ok(cudaEventDestroy(c_in));
            ok(cudaFree(ta));
            ok(cudaFree(tb));
            gntt::quotient_and_coset_inverse(d[0], d[1], d[2], m, nullptr, impl);
            ok(cudaMemcpy(got.data(), d[0], m * sizeof(Fr), cudaMemcpyDeviceToHost));
            EXPECT_EQ(got, want_h) << "quotient_and_coset_inverse, " << what;
            for (auto* p : d) ok(cudaFree(p));
        }
        // kFast leaves c bit-reversed from 2^kRegMinLogN on, the others never.
        EXPECT_EQ(gntt::h_coefficients_bit_reversed(gntt::Impl::kFast, m), log_m >= gntt::plan::kRegMinLogN);
        EXPECT_FALSE(gntt::h_coefficients_bit_reversed(gntt::Impl::kReference, m));
    }
    EXPECT_THROW(gntt::prepare_h_input(3, nullptr, 8, nullptr), std::invalid_argument);
    EXPECT_THROW(gntt::to_scaled_coefficients(nullptr, 8, nullptr), std::invalid_argument);
    EXPECT_THROW(gntt::to_coset_evals(nullptr, 8, nullptr), std::invalid_argument);
    EXPECT_THROW(gntt::quotient_and_coset_inverse(nullptr, nullptr, nullptr, 8, nullptr), std::invalid_argument);
    Fr* d = nullptr;
    ok(cudaMalloc(&d, 8 * sizeof(Fr)));
    EXPECT_THROW(gntt::quotient_and_coset_inverse(d, d, d, 6, nullptr), std::invalid_argument);  // not 2^k
    EXPECT_THROW(gntt::quotient_coset_inverse(d, nullptr, 8, nullptr), std::invalid_argument);
    EXPECT_THROW(gntt::quotient_coset_inverse(d, d, 6, nullptr), std::invalid_argument);
    EXPECT_THROW(gntt::subtract_scaled_c(nullptr, d, 8, nullptr), std::invalid_argument);
    EXPECT_THROW(gntt::subtract_scaled_c(d, nullptr, 8, nullptr), std::invalid_argument);
    EXPECT_THROW(gntt::to_coset_evals(d, 0, nullptr), std::invalid_argument);
    ok(cudaFree(d));
}
#endif

}  // namespace
}  // namespace cuzk
