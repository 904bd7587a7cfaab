// Radix-2 decimation-in-time NTT over Fr (iterative Cooley-Tukey).
//
// Plan for n = 2^k elements:
//   1. bit-reversal permutation (natural order in);
//   2. "small" stages, half-size h = 1 .. B/2 with B = min(n, 2^kBlockLog): the array is
//      cut into n/B blocks that are independent size-B transforms, each run start to
//      finish while it sits in L2 (threads take whole blocks); their twiddles come from
//      one compact table shared by all sizes (w_{2h}^k at index h + k);
//   3. "large" stages h = B .. n/2: threads split the n/2 butterflies of a stage; the
//      twiddle w_{2h}^j = w_n^(j n/2h) is read from the per-size table of w_n^j, j < n/2.
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
// Butterflies per parallel_for chunk in a large stage (~20 us of work).
constexpr size_t kStageGrain = size_t(1) << 11;
// Elements per chunk of the O(n) passes (permutation, scaling).
constexpr size_t kPassGrain = size_t(1) << 12;

// The primitive 2^32-th root 7^((r-1)/2^32) (bellperson's F::ROOT_OF_UNITY for Fr).
const Fr& root_2_32() {
    static const Fr w = Fr::from_u64(kCosetGenerator).pow(Fr::kP.shr(32));
    return w;
}

// w_{2h}^k at index h + k for h = 1, 2, .., 2^(kBlockLog-1); index 0 unused.
const std::vector<Fr>& small_twiddles() {
    static const std::vector<Fr> t = [] {
        std::vector<Fr> v(size_t(1) << kBlockLog, Fr::zero());
        for (unsigned s = 0; s < kBlockLog; ++s) {
            size_t h = size_t(1) << s;
            Fr w = root_of_unity(s + 1);
            Fr x = Fr::one();
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
struct TwiddleCache {
    std::mutex mu;
    std::array<std::shared_ptr<const std::vector<Fr>>, kMaxLogSize + 1> tables;
};
TwiddleCache& twiddle_cache() {
    static TwiddleCache c;
    return c;
}

// Built under the cache mutex: a second caller of the same size waits rather than
// building it twice (building is itself parallel).
std::shared_ptr<const std::vector<Fr>> large_twiddles(unsigned log_n) {
    TwiddleCache& tc = twiddle_cache();
    std::lock_guard lk(tc.mu);
    auto& cache = tc.tables;
    if (!cache[log_n]) {
        auto v = std::make_shared<std::vector<Fr>>(size_t(1) << (log_n - 1));
        const Fr w = root_of_unity(log_n);
        parallel_for(0, v->size(), kPassGrain, [&](size_t b, size_t e) {
            Fr x = w.pow(uint64_t(b));
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

void bit_reverse_permute(Fr* a, unsigned log_n) {
    const size_t n = size_t(1) << log_n;
    // Each pair {i, rev(i)} is swapped by its smaller index only, so chunks never conflict.
    parallel_for(0, n, kPassGrain, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) {
            size_t r = reverse_bits(i, log_n);
            if (i < r) std::swap(a[i], a[r]);
        }
    });
}

CUZK_HD_INLINE void butterfly(Fr& x, Fr& y, const Fr& w) {
    Fr t = y * w;
    y = x - t;
    x = x + t;
}

// Stages h = 1 .. B/2 on one block of B = 2^log_b elements.
void small_stages(Fr* a, unsigned log_b, const Fr* tw) {
    const size_t bsize = size_t(1) << log_b;
    for (size_t h = 1; h < bsize; h <<= 1) {
        const Fr* th = tw + h;
        for (size_t g = 0; g < bsize; g += 2 * h) {
            Fr* x = a + g;
            Fr* y = a + g + h;
            // k = 0 has twiddle 1.
            Fr t = y[0];
            y[0] = x[0] - t;
            x[0] = x[0] + t;
            for (size_t k = 1; k < h; ++k) butterfly(x[k], y[k], th[k]);
        }
    }
}

// One large stage (half-size h >= B): butterflies j in [jb, je) of n/2.
void large_stage_range(Fr* a, size_t h, size_t stride, const Fr* tw, size_t jb, size_t je) {
    const unsigned log_h = unsigned(__builtin_ctzll(h));
    size_t j = jb;
    while (j < je) {
        size_t g = j >> log_h;   // group
        size_t k = j & (h - 1);  // position inside the group
        size_t stop = std::min(je, (g + 1) << log_h);
        Fr* x = a + (g << (log_h + 1));
        Fr* y = x + h;
        for (; j < stop; ++j, ++k) butterfly(x[k], y[k], tw[k * stride]);
    }
}

void forward_unchecked(std::span<Fr> data, unsigned log_n) {
    if (log_n == 0) return;
    Fr* a = data.data();
    const size_t n = data.size();
    bit_reverse_permute(a, log_n);

    const unsigned log_b = std::min(log_n, kBlockLog);
    const size_t bsize = size_t(1) << log_b;
    const Fr* stw = small_twiddles().data();
    parallel_for(0, n / bsize, 1, [&](size_t b, size_t e) {
        for (size_t blk = b; blk < e; ++blk) small_stages(a + blk * bsize, log_b, stw);
    });
    if (log_n == log_b) return;

    auto table = large_twiddles(log_n);
    const Fr* tw = table->data();
    for (size_t h = bsize; h < n; h <<= 1) {
        const size_t stride = n / (2 * h);
        parallel_for(0, n / 2, kStageGrain, [&](size_t jb, size_t je) { large_stage_range(a, h, stride, tw, jb, je); });
    }
}

// a_j <-> a_{n-j} for 1 <= j < n/2.
void reverse_tail(std::span<Fr> a) {
    const size_t n = a.size();
    if (n <= 2) return;
    parallel_for(1, n / 2, kPassGrain, [&](size_t b, size_t e) {
        for (size_t j = b; j < e; ++j) std::swap(a[j], a[n - j]);
    });
}

}  // namespace

Fr root_of_unity(unsigned log_n) {
    if (log_n > 32)
        throw std::invalid_argument("root_of_unity: Fr has no 2^" + std::to_string(log_n) +
                                    "-th root of unity (its two-adicity is 32)");
    Fr w = root_2_32();
    for (unsigned i = log_n; i < 32; ++i) w = w.square();
    return w;
}

Fr coset_generator() { return Fr::from_u64(kCosetGenerator); }

Fr coset_generator_inverse() {
    static const Fr gi = coset_generator().inverse();
    return gi;
}

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

void distribute_powers(std::span<Fr> a, const Fr& c, const Fr& s) {
    parallel_for(0, a.size(), kPassGrain, [&](size_t b, size_t e) {
        Fr x = c * s.pow(uint64_t(b));
        for (size_t i = b; i < e; ++i) {
            a[i] *= x;
            x *= s;
        }
    });
}

void forward(std::span<Fr> a) { forward_unchecked(a, checked_log_size(a.size(), "ntt::forward")); }

void inverse(std::span<Fr> a) {
    unsigned log_n = checked_log_size(a.size(), "ntt::inverse");
    forward_unchecked(a, log_n);
    reverse_tail(a);
    Fr ninv = Fr::from_u64(a.size()).inverse();
    distribute_powers(a, ninv, Fr::one());
}

void coset_forward(std::span<Fr> a) {
    unsigned log_n = checked_log_size(a.size(), "ntt::coset_forward");
    distribute_powers(a, Fr::one(), coset_generator());
    forward_unchecked(a, log_n);
}

void coset_inverse(std::span<Fr> a) {
    unsigned log_n = checked_log_size(a.size(), "ntt::coset_inverse");
    forward_unchecked(a, log_n);
    reverse_tail(a);
    // a_i <- n^-1 g^-i a_i: the scaling of the inverse and the coset unshift in one pass.
    distribute_powers(a, Fr::from_u64(a.size()).inverse(), coset_generator_inverse());
}

void clear_twiddle_cache() {
    TwiddleCache& tc = twiddle_cache();
    std::lock_guard lk(tc.mu);
    for (auto& t : tc.tables) t.reset();
}

namespace detail {
void inverse_unscaled(std::span<Fr> a) {
    unsigned log_n = checked_log_size(a.size(), "ntt::inverse");
    forward_unchecked(a, log_n);
    reverse_tail(a);
}
}  // namespace detail

}  // namespace cuzk::ntt
