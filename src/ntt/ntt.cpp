// Radix-2 decimation-in-time NTT over a scalar field (BLS12-381 Fr, BN254 Fr; iterative
// Cooley-Tukey).
//
// Plan for n = 2^k elements:
//   1. bit-reversal permutation (natural order in);
//   2. "small" stages, half-size h = 1 .. B/2 with B = min(n, 2^kBlockLog): the array is
//      cut into n/B blocks that are independent size-B transforms, each run start to
//      finish while it sits in L2 (threads take whole blocks); their twiddles come from
//      one compact table shared by all sizes (w_{2h}^k at index h + k);
//   3. "large" stages h = B .. n/2, kGroupLog at a time: each group is cut into tiles
//      (a few consecutive columns of 2^kGroupLog rows spaced h0 apart) that run the
//      group's stages independently, so threads take tiles and memory is swept once
//      per group rather than once per stage; the twiddle w_{2h}^j = w_n^(j n/2h) is
//      read from the per-size table of w_n^j, j < n/2.
// Each butterfly is one Fr multiplication, one addition and one subtraction:
//   (x, y) <- (x + w y, x - w y).
// The inverse uses sum_j A_j w^(-ij) = A'_i with A' = forward(A) read at index -i mod n,
// so one table serves both directions.
#include "cuzk/ntt/ntt.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/common/parallel.hpp"

namespace cuzk::ntt {
namespace {

// 2^12 elements = 128 KiB of data plus 128 KiB of small twiddles: fits a 1-2 MiB L2.
constexpr unsigned kBlockLog = 12;
// Large stages run kGroupLog at a time on tiles of 2^kGroupLog rows x kTileCols
// columns (16 x 64 x 32 bytes = 32 KiB, in L1/L2), so a 2^27 transform makes
// ceil(15/4) = 4 passes over memory for its 15 large stages instead of 15.
// Measured: no difference yet on the 2-core dev box with the portable Fr multiply
// (2^22, 1 thread, best CPU time 2.64-2.71 s grouped vs 2.71-2.73 s one stage per
// pass), since ~60 ns of arithmetic per butterfly needs only ~2 GB/s; the grouping is
// for many-core hosts and the faster ADX multiply. Re-measure there before tuning.
constexpr unsigned kGroupLog = 4;
constexpr size_t kTileCols = 64;
static_assert(kTileCols < (size_t(1) << kBlockLog));
// Elements per chunk of the O(n) passes (permutation, scaling).
constexpr size_t kPassGrain = size_t(1) << 12;

// The primitive 2^s-th root g^((r-1)/2^s), s the two-adicity and g the multiplicative
// generator: 7^((r-1)/2^32) for BLS12-381 (bellperson's F::ROOT_OF_UNITY), 5^((r-1)/2^28)
// for BN254 (arkworks' TWO_ADIC_ROOT_OF_UNITY).
template <class F>
const F& root_2_s() {
    static const F w = F::from_u64(F::Params::kNonResidue).pow(F::kP.shr(F::kTwoAdicity));
    return w;
}

// w_{2h}^k at index h + k for h = 1, 2, .., 2^(kBlockLog-1); index 0 unused.
template <class F>
const std::vector<F>& small_twiddles() {
    static const std::vector<F> t = [] {
        std::vector<F> v(size_t(1) << kBlockLog, F::zero());
        for (unsigned s = 0; s < kBlockLog; ++s) {
            size_t h = size_t(1) << s;
            F w = root_of_unity<F>(s + 1);
            F x = F::one();
            for (size_t k = 0; k < h; ++k) {
                v[h + k] = x;
                x *= w;
            }
        }
        return v;
    }();
    return t;
}

// w_n^j for j < n/2, one table per log-size, built in parallel on first use.
template <class F>
struct TwiddleCache {
    std::mutex mu;
    std::array<std::shared_ptr<const std::vector<F>>, kMaxLogSize + 1> tables;
};
template <class F>
TwiddleCache<F>& twiddle_cache() {
    static TwiddleCache<F> c;
    return c;
}

// Built under the cache mutex: a second caller of the same size waits rather than
// building it twice (building is itself parallel).
template <class F>
std::shared_ptr<const std::vector<F>> large_twiddles(unsigned log_n) {
    TwiddleCache<F>& tc = twiddle_cache<F>();
    std::lock_guard lk(tc.mu);
    auto& cache = tc.tables;
    if (!cache[log_n]) {
        auto v = std::make_shared<std::vector<F>>(size_t(1) << (log_n - 1));
        const F w = root_of_unity<F>(log_n);
        parallel_for(0, v->size(), kPassGrain, [&](size_t b, size_t e) {
            F x = w.pow(uint64_t(b));
            for (size_t j = b; j < e; ++j) {
                (*v)[j] = x;
                x *= w;
            }
        });
        cache[log_n] = std::move(v);
    }
    return cache[log_n];
}

uint64_t reverse_bits(uint64_t x, unsigned bits) {
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
    x = __builtin_bswap64(x);
    return bits == 0 ? 0 : x >> (64 - bits);
}

template <class F>
void bit_reverse_permute(F* a, unsigned log_n) {
    const size_t n = size_t(1) << log_n;
    // Each pair {i, rev(i)} is swapped by its smaller index only, so chunks never conflict.
    parallel_for(0, n, kPassGrain, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) {
            size_t r = reverse_bits(i, log_n);
            if (i < r) std::swap(a[i], a[r]);
        }
    });
}

template <class F>
CUZK_HD_INLINE void butterfly(F& x, F& y, const F& w) {
    F t = y * w;
    y = x - t;
    x = x + t;
}

// Stages h = 1 .. B/2 on one block of B = 2^log_b elements.
template <class F>
void small_stages(F* a, unsigned log_b, const F* tw) {
    const size_t bsize = size_t(1) << log_b;
    for (size_t h = 1; h < bsize; h <<= 1) {
        const F* th = tw + h;
        for (size_t g = 0; g < bsize; g += 2 * h) {
            F* x = a + g;
            F* y = a + g + h;
            // k = 0 has twiddle 1.
            F t = y[0];
            y[0] = x[0] - t;
            x[0] = x[0] + t;
            for (size_t k = 1; k < h; ++k) butterfly(x[k], y[k], th[k]);
        }
    }
}

// Large stages h0, 2 h0, .., h0 2^(s-1) on one tile. Seen as rows of h0 elements, a
// block of h0 2^s elements holds 2^s rows, and those stages pair rows t and t + 2^u
// column by column; a tile is the columns [r0, r1) of every row of block `blk`, so it
// runs the s stages on its own, in cache. Element x = r + h0 t of the block meets
// x + h (h = h0 2^u) with twiddle w_{2h}^(x mod 2h), x mod 2h = r + h0 (t mod 2^u).
template <class F>
void large_stages_tile(F* a, size_t n, size_t h0, unsigned s, const F* tw, size_t blk, size_t r0, size_t r1) {
    F* base = a + blk * (h0 << s);
    const size_t rows = size_t(1) << s;
    for (unsigned u = 0; u < s; ++u) {
        const size_t h = h0 << u;
        const size_t stride = n / (2 * h);  // w_{2h}^k = w_n^(k n/2h)
        const size_t bit = size_t(1) << u;
        for (size_t t = 0; t < rows; ++t) {
            if (t & bit) continue;
            F* x = base + t * h0;
            F* y = x + h;
            const size_t k0 = h0 * (t & (bit - 1));
            for (size_t r = r0; r < r1; ++r) butterfly(x[r], y[r], tw[(k0 + r) * stride]);
        }
    }
}

template <class F>
void forward_unchecked(std::span<F> data, unsigned log_n) {
    if (log_n == 0) return;
    F* a = data.data();
    const size_t n = data.size();
    bit_reverse_permute(a, log_n);

    const unsigned log_b = std::min(log_n, kBlockLog);
    const size_t bsize = size_t(1) << log_b;
    const F* stw = small_twiddles<F>().data();
    parallel_for(0, n / bsize, 1, [&](size_t b, size_t e) {
        for (size_t blk = b; blk < e; ++blk) small_stages(a + blk * bsize, log_b, stw);
    });
    if (log_n == log_b) return;

    auto table = large_twiddles<F>(log_n);
    const F* tw = table->data();
    // Groups of up to kGroupLog large stages, one pass over memory per group.
    for (unsigned lh0 = log_b; lh0 < log_n;) {
        const unsigned st = std::min(kGroupLog, log_n - lh0);
        const size_t h0 = size_t(1) << lh0;
        const size_t tiles_per_block = h0 / kTileCols;  // h0 >= 2^kBlockLog > kTileCols
        const size_t nblocks = n >> (lh0 + st);
        parallel_for(0, nblocks * tiles_per_block, 1, [&](size_t tb, size_t te) {
            for (size_t tile = tb; tile < te; ++tile) {
                size_t r0 = (tile % tiles_per_block) * kTileCols;
                large_stages_tile(a, n, h0, st, tw, tile / tiles_per_block, r0, r0 + kTileCols);
            }
        });
        lh0 += st;
    }
}

// a_j <-> a_{n-j} for 1 <= j < n/2.
template <class F>
void reverse_tail(std::span<F> a) {
    const size_t n = a.size();
    if (n <= 2) return;
    parallel_for(1, n / 2, kPassGrain, [&](size_t b, size_t e) {
        for (size_t j = b; j < e; ++j) std::swap(a[j], a[n - j]);
    });
}

// The transforms of one field.
template <class F>
void distribute_powers_t(std::span<F> a, const F& c, const F& s) {
    parallel_for(0, a.size(), kPassGrain, [&](size_t b, size_t e) {
        F x = c * s.pow(uint64_t(b));
        for (size_t i = b; i < e; ++i) {
            a[i] *= x;
            x *= s;
        }
    });
}
template <class F>
void bit_reverse_t(std::span<F> a) {
    bit_reverse_permute(a.data(), checked_log_size(a.size(), "ntt::bit_reverse"));
}
template <class F>
void forward_t(std::span<F> a) {
    forward_unchecked(a, checked_log_size(a.size(), "ntt::forward"));
}
template <class F>
void inverse_t(std::span<F> a) {
    unsigned log_n = checked_log_size(a.size(), "ntt::inverse");
    forward_unchecked(a, log_n);
    reverse_tail(a);
    F ninv = F::from_u64(a.size()).inverse();
    distribute_powers_t(a, ninv, F::one());
}
template <class F>
void coset_forward_t(std::span<F> a) {
    unsigned log_n = checked_log_size(a.size(), "ntt::coset_forward");
    distribute_powers_t(a, F::one(), coset_generator<F>());
    forward_unchecked(a, log_n);
}
template <class F>
void coset_inverse_t(std::span<F> a) {
    unsigned log_n = checked_log_size(a.size(), "ntt::coset_inverse");
    forward_unchecked(a, log_n);
    reverse_tail(a);
    // a_i <- n^-1 g^-i a_i: the scaling of the inverse and the coset unshift in one pass.
    distribute_powers_t(a, F::from_u64(a.size()).inverse(), coset_generator_inverse<F>());
}
template <class F>
void inverse_unscaled_t(std::span<F> a) {
    unsigned log_n = checked_log_size(a.size(), "ntt::inverse");
    forward_unchecked(a, log_n);
    reverse_tail(a);
}

}  // namespace

template <class F>
F root_of_unity(unsigned log_n) {
    if (log_n > F::kTwoAdicity)
        throw std::invalid_argument(std::string("root_of_unity: ") + F::Params::kName + " has no 2^" +
                                    std::to_string(log_n) + "-th root of unity (its two-adicity is " +
                                    std::to_string(F::kTwoAdicity) + ")");
    F w = root_2_s<F>();
    for (unsigned i = log_n; i < F::kTwoAdicity; ++i) w = w.square();
    return w;
}

template <class F>
F coset_generator() {
    return F::from_u64(F::Params::kNonResidue);
}

template <class F>
F coset_generator_inverse() {
    static const F gi = coset_generator<F>().inverse();
    return gi;
}

template Fr root_of_unity<Fr>(unsigned);
template Fr coset_generator<Fr>();
template Fr coset_generator_inverse<Fr>();
template bn254::Fr root_of_unity<bn254::Fr>(unsigned);
template bn254::Fr coset_generator<bn254::Fr>();
template bn254::Fr coset_generator_inverse<bn254::Fr>();
static_assert(FrTraits::kNonResidue == kCosetGenerator);

unsigned checked_log_size(size_t size, const char* what) {
    if (size == 0) throw std::invalid_argument(std::string(what) + ": size 0 (need a power of two >= 1)");
    if (size & (size - 1))
        throw std::invalid_argument(std::string(what) + ": size " + std::to_string(size) + " is not a power of two");
    unsigned log_n = unsigned(__builtin_ctzll(size));
    if (log_n > kMaxLogSize)
        throw std::invalid_argument(std::string(what) + ": size 2^" + std::to_string(log_n) +
                                    " exceeds the largest supported NTT, 2^" + std::to_string(kMaxLogSize));
    return log_n;
}

void distribute_powers(std::span<Fr> a, const Fr& c, const Fr& s) { distribute_powers_t(a, c, s); }
void bit_reverse(std::span<Fr> a) { bit_reverse_t(a); }
void forward(std::span<Fr> a) { forward_t(a); }
void inverse(std::span<Fr> a) { inverse_t(a); }
void coset_forward(std::span<Fr> a) { coset_forward_t(a); }
void coset_inverse(std::span<Fr> a) { coset_inverse_t(a); }

void distribute_powers(std::span<bn254::Fr> a, const bn254::Fr& c, const bn254::Fr& s) { distribute_powers_t(a, c, s); }
void bit_reverse(std::span<bn254::Fr> a) { bit_reverse_t(a); }
void forward(std::span<bn254::Fr> a) { forward_t(a); }
void inverse(std::span<bn254::Fr> a) { inverse_t(a); }
void coset_forward(std::span<bn254::Fr> a) { coset_forward_t(a); }
void coset_inverse(std::span<bn254::Fr> a) { coset_inverse_t(a); }

void clear_twiddle_cache() {
    auto clear = [](auto& tc) {
        std::lock_guard lk(tc.mu);
        for (auto& t : tc.tables) t.reset();
    };
    clear(twiddle_cache<Fr>());
    clear(twiddle_cache<bn254::Fr>());
}

namespace detail {
void inverse_unscaled(std::span<Fr> a) { inverse_unscaled_t(a); }
void inverse_unscaled(std::span<bn254::Fr> a) { inverse_unscaled_t(a); }
}  // namespace detail

}  // namespace cuzk::ntt
