#include "cuzk/msm/msm.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cuzk/common/parallel.hpp"
#include "cuzk/ec/psi.hpp"
#include "cuzk/ec/xyzz.hpp"

namespace cuzk {
namespace {

using Scalar = BigInt<4>;

bool density_bit(const uint64_t* d, size_t i) { return (d[i / 64] >> (i % 64)) & 1; }

size_t popcount_prefix(const uint64_t* d, size_t n) {
    size_t c = 0;
    for (size_t w = 0; w < n / 64; ++w) c += size_t(std::popcount(d[w]));
    if (n % 64) c += size_t(std::popcount(d[n / 64] & ((uint64_t(1) << (n % 64)) - 1)));
    return c;
}

// Scalars sorted into the three classes, with the index of each one's base.
struct Classified {
    std::vector<uint32_t> one_idx;
    std::vector<uint32_t> full_idx;
    std::vector<Scalar> full_k;
    size_t zeros = 0;
};

template <class F>
Classified classify(std::span<const F> scalars, const uint64_t* density) {
    const size_t n = scalars.size();
    const size_t chunk = 1 << 14;
    const size_t nchunks = (n + chunk - 1) / chunk;
    std::vector<size_t> base_start(nchunks + 1, 0);
    for (size_t c = 0; c < nchunks; ++c) base_start[c] = density ? popcount_prefix(density, c * chunk) : c * chunk;
    std::vector<Classified> parts(nchunks);
    parallel_for(0, nchunks, 1, [&](size_t cb, size_t ce) {
        for (size_t c = cb; c < ce; ++c) {
            Classified& out = parts[c];
            size_t j = base_start[c];
            const Scalar one = Scalar::from_u64(1);
            for (size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i) {
                if (density && !density_bit(density, i)) {
                    ++out.zeros;
                    continue;
                }
                Scalar k = scalars[i].to_bigint();
                if (k.is_zero()) {
                    ++out.zeros;
                } else if (k == one) {
                    out.one_idx.push_back(uint32_t(j));
                } else {
                    out.full_idx.push_back(uint32_t(j));
                    out.full_k.push_back(k);
                }
                ++j;
            }
        }
    });
    Classified all;
    for (auto& p : parts) {
        all.zeros += p.zeros;
        all.one_idx.insert(all.one_idx.end(), p.one_idx.begin(), p.one_idx.end());
        all.full_idx.insert(all.full_idx.end(), p.full_idx.begin(), p.full_idx.end());
        all.full_k.insert(all.full_k.end(), p.full_k.begin(), p.full_k.end());
    }
    return all;
}

// Pairwise batch-affine summation of pts (in place), reducing until few remain, then
// an XYZZ sum of the rest. One inversion per round (Montgomery's trick); per addition
// about 3M for the shared inversion, 1M for lambda, 1S + 1M for the result.
template <class Curve>
Jacobian<Curve> sum_affine_serial(std::vector<Affine<Curve>>& pts) {
    using F = typename Curve::Field;
    using A = Affine<Curve>;
    // Points at infinity contribute nothing.
    pts.erase(std::remove_if(pts.begin(), pts.end(), [](const A& p) { return p.infinity; }), pts.end());
    std::vector<F> denom, prefix;
    while (pts.size() > 32) {
        const size_t pairs = pts.size() / 2;
        denom.resize(pairs);
        // Denominators: x2 - x1, or 2y for a doubling; zero marks P + (-P) = O.
        for (size_t i = 0; i < pairs; ++i) {
            const A& p = pts[2 * i];
            const A& q = pts[2 * i + 1];
            if (p.x != q.x)
                denom[i] = q.x - p.x;
            else if (p.y == q.y)
                denom[i] = p.y.dbl();  // y != 0 in prime-order groups
            else
                denom[i] = F::zero();
        }
        batch_inverse<F>(denom);
        size_t out = 0;
        for (size_t i = 0; i < pairs; ++i) {
            const A p = pts[2 * i];
            const A q = pts[2 * i + 1];
            if (denom[i].is_zero()) continue;  // P + (-P)
            F lambda = (p.x != q.x) ? (q.y - p.y) * denom[i] : [&] {
                F x2 = p.x.square();
                return (x2.dbl() + x2) * denom[i];  // 3x^2 / 2y
            }();
            F x3 = lambda.square() - p.x - q.x;
            F y3 = lambda * (p.x - x3) - p.y;
            pts[out++] = A{x3, y3, false};
        }
        if (pts.size() % 2) pts[out++] = pts.back();
        pts.resize(out);
    }
    XYZZ<Curve> acc = XYZZ<Curve>::identity();
    for (const A& p : pts) acc += p;
    return acc.to_jacobian();
}

template <class Curve>
Jacobian<Curve> sum_ones(std::span<const Affine<Curve>> bases, const std::vector<uint32_t>& idx) {
    const size_t n = idx.size();
    if (n == 0) return Jacobian<Curve>::identity();
    const size_t threads = num_threads();
    const size_t chunks = std::max<size_t>(1, std::min(threads * 2, n / 256));
    std::vector<Jacobian<Curve>> partial(chunks, Jacobian<Curve>::identity());
    parallel_for(0, chunks, 1, [&](size_t cb, size_t ce) {
        for (size_t c = cb; c < ce; ++c) {
            size_t b = n * c / chunks, e = n * (c + 1) / chunks;
            std::vector<Affine<Curve>> pts;
            pts.reserve(e - b);
            for (size_t i = b; i < e; ++i) pts.push_back(bases[idx[i]]);
            partial[c] = sum_affine_serial<Curve>(pts);
        }
    });
    Jacobian<Curve> acc = Jacobian<Curve>::identity();
    for (const auto& p : partial) acc += p;
    return acc;
}

// --- GLV split --------------------------------------------------------------------
//
// With z = x^2 (x the BLS parameter), -z is a cube root of unity mod r, and the map
// (x, y) -> (beta x, y) with beta a cube root of unity in Fp acts on the order-r groups
// as [-z] for the right choice of beta (G1: ec_psi::beta(), ePrint 2021/1130 section 6;
// G2: beta^2, checked by tests/msm). Hence [z] P = (beta x, -y), and with
// k = hi z + lo (0 <= lo, hi < z ~ 0.67 * 2^128, because k < r < z^2):
//   [k] P = [lo] P + [hi] (beta x, -y).
// One 255-bit scalar becomes two 128-bit ones: the same number of bucket additions,
// half as many windows to reduce (Gallant, Lambert, Vanstone, CRYPTO 2001).

// Quotient of (hi:lo) by d, with hi < d (so the quotient fits 64 bits).
uint64_t div_2by1(uint64_t hi, uint64_t lo, uint64_t d, uint64_t& rem) {
#if defined(__x86_64__)
    uint64_t q;
    asm("divq %[d]" : "=a"(q), "=d"(rem) : "a"(lo), "d"(hi), [d] "rm"(d) : "cc");
    return q;
#else
    const unsigned __int128 n = (static_cast<unsigned __int128>(hi) << 64) | lo;
    rem = uint64_t(n % d);
    return uint64_t(n / d);
#endif
}

Scalar div_small(const Scalar& k, uint64_t d) {
    Scalar q;
    uint64_t rem = 0;
    for (size_t i = 4; i-- > 0;) q.l[i] = div_2by1(rem, k.l[i], d, rem);
    return q;
}

// The GLV split below is BLS12-381's (z = x^2).
template <class Curve>
inline constexpr bool kHasGlv = std::is_same_v<Curve, G1Curve> || std::is_same_v<Curve, G2Curve>;

template <class Curve>
typename Curve::Field glv_beta();
template <>
Fp glv_beta<G1Curve>() {
    return ec_psi::beta();
}
template <>
Fp2 glv_beta<G2Curve>() {
    const Fp b = ec_psi::beta();
    return {b.square(), Fp::zero()};
}

// --- Window plan ------------------------------------------------------------------

// Signed digits without a carry chain: with H = sum_j 2^(off_j + c_j - 1) (off_j the
// window's lowest bit, c_j its width), the digit d_j = window_j(k + H) - 2^(c_j - 1) lies
// in [-2^(c_j - 1), 2^(c_j - 1) - 1] and sum_j d_j 2^off_j = k, provided that k + H does
// not overflow the windows: kmax + H < 2^(sum c_j) (plan_fits).
BigInt<5> half_offsets(const std::vector<unsigned>& widths) {
    BigInt<5> h = BigInt<5>::zero();
    unsigned off = 0;
    for (unsigned c : widths) {
        const unsigned bit = off + c - 1;
        h.l[bit / 64] |= uint64_t(1) << (bit % 64);
        off += c;
    }
    return h;
}

// Widths for `windows` windows over `bits` bits, as even as possible, the wider ones
// on top (the top window's buckets are only partly used, see top_digit_max()).
std::vector<unsigned> split_bits(unsigned bits, unsigned windows) {
    std::vector<unsigned> w(windows, bits / windows);
    for (unsigned j = 0; j < bits % windows; ++j) ++w[windows - 1 - j];
    return w;
}

// Cost units: one batch-affine addition (~5M + 1S + 1/512 inversion). The reduction
// costs two of them a bucket (AffineBuckets::weighted_sum). Dev machine, 1 thread, min
// CPU time of 2-4 runs under load: 2^16 (131072 GLV points) 9 windows (15/14 bits) 417
// ms, 10 windows (13/12) 439 ms; 2^18: 8 windows (17/16) ~1510-1600 ms, 9 windows ~1620+
// (with XYZZ running sums, ~2.9 units a bucket, 9 windows won at both sizes).
constexpr double kBucketCost = 2.0;

double lpt_makespan(std::vector<double> tasks, size_t threads) {
    std::sort(tasks.begin(), tasks.end(), std::greater<>());
    std::vector<double> load(std::max<size_t>(1, threads), 0.0);
    for (double t : tasks) *std::min_element(load.begin(), load.end()) += t;
    return *std::max_element(load.begin(), load.end());
}

}  // namespace

namespace msm_detail {

const Scalar& glv_z() {
    static const Scalar z = [] {
        const unsigned __int128 zz = static_cast<unsigned __int128>(kBlsXAbs) * kBlsXAbs;
        Scalar r = Scalar::zero();
        r.l[0] = uint64_t(zz);
        r.l[1] = uint64_t(zz >> 64);
        return r;
    }();
    return z;
}

void glv_split(const Scalar& k, Scalar& lo, Scalar& hi) {
    // floor(k / z) = floor(floor(k / |x|) / |x|); lo = k - hi z (< z < 2^128, so the
    // low two limbs of the difference are exact).
    hi = div_small(div_small(k, kBlsXAbs), kBlsXAbs);
    const Scalar& z = glv_z();
    const unsigned __int128 p0 = static_cast<unsigned __int128>(hi.l[0]) * z.l[0];
    const unsigned __int128 p1 = static_cast<unsigned __int128>(hi.l[0]) * z.l[1] +
                                 static_cast<unsigned __int128>(hi.l[1]) * z.l[0] + uint64_t(p0 >> 64);
    const unsigned __int128 prod = (p1 << 64) | uint64_t(p0);
    const unsigned __int128 kk = (static_cast<unsigned __int128>(k.l[1]) << 64) | k.l[0];
    const unsigned __int128 d = kk - prod;
    lo = Scalar::zero();
    lo.l[0] = uint64_t(d);
    lo.l[1] = uint64_t(d >> 64);
}

bool plan_fits(const std::vector<unsigned>& widths, const Scalar& kmax) {
    unsigned bits = 0;
    for (unsigned c : widths) bits += c;
    if (bits > 5 * 64 - 1) return false;
    BigInt<5> k = BigInt<5>::zero(), s;
    for (size_t i = 0; i < 4; ++i) k.l[i] = kmax.l[i];
    BigInt<5>::add(s, k, half_offsets(widths));
    return s.num_bits() <= bits;
}

uint64_t top_digit_max(const std::vector<unsigned>& widths, const Scalar& kmax) {
    unsigned off = 0;
    for (size_t j = 0; j + 1 < widths.size(); ++j) off += widths[j];
    BigInt<5> k = BigInt<5>::zero(), s;
    for (size_t i = 0; i < 4; ++i) k.l[i] = kmax.l[i];
    BigInt<5>::add(s, k, half_offsets(widths));
    return s.bits(off, widths.back()) - (uint64_t(1) << (widths.back() - 1));
}

WindowPlan plan_windows(size_t points, const Scalar& kmax, unsigned max_width, size_t threads) {
    const unsigned min_bits = unsigned(kmax.num_bits()) + 1;
    max_width = max_width == 0 ? 0 : std::max(max_width, 2u);  // 1-bit windows never fit
    // The cheapest valid split into `windows` windows, none wider than `cap`.
    auto make = [&](unsigned windows, unsigned cap) -> std::optional<std::vector<unsigned>> {
        for (unsigned bits = min_bits; bits <= windows * cap; ++bits) {
            auto w = split_bits(bits, windows);
            if (plan_fits(w, kmax)) return w;
        }
        return std::nullopt;
    };
    WindowPlan best;
    double best_cost = 1e300;
    auto consider = [&](const std::vector<unsigned>& w, size_t chunks) {
        const uint64_t top = top_digit_max(w, kmax);
        std::vector<double> tasks;
        for (size_t j = 0; j < w.size(); ++j) {
            const double buckets = j + 1 == w.size() ? double(top) : double(uint64_t(1) << (w[j] - 1));
            for (size_t ch = 0; ch < chunks; ++ch)
                tasks.push_back(double(points) / double(chunks) + kBucketCost * buckets);
        }
        const double cost = lpt_makespan(tasks, threads);
        if (cost < best_cost) {
            best_cost = cost;
            best = WindowPlan{w, chunks, top};
        }
    };
    // Chunks beyond ~2 tasks a thread only add reductions.
    auto max_chunks = [&](size_t windows) { return threads > 1 ? (2 * threads + windows - 1) / windows : 1; };
    if (max_width != 0) {
        for (unsigned windows = (min_bits + max_width - 1) / max_width;; ++windows) {
            if (auto w = make(windows, max_width)) {
                for (size_t ch = 1; ch <= max_chunks(windows); ++ch) consider(*w, ch);
                break;
            }
        }
        return best;
    }
    // Widths 4..20 (wider buckets would not fit in memory comfortably).
    for (unsigned windows = (min_bits + 19) / 20; windows <= (min_bits + 3) / 4; ++windows) {
        if (auto w = make(windows, 20)) {
            for (size_t ch = 1; ch <= max_chunks(windows); ++ch) consider(*w, ch);
        }
    }
    return best;
}

}  // namespace msm_detail

namespace {

using msm_detail::WindowPlan;

// Affine point without an infinity flag (callers keep emptiness in a state byte).
template <class Curve>
struct AffineXY {
    typename Curve::Field x, y;
};

// State bits of a bucket or running sum.
enum : uint8_t { kSet = 1, kBusy = 2, kOverflow = 4 };

// Batch-affine additions a += (neg ? -p : p) for independent destinations a (Montgomery's
// trick over the batch: about 5M + 1S an addition plus 1/kBatch inversion, instead of
// the 8M + 2S of an XYZZ mixed addition). Each destination has a state byte: kSet is
// cleared when the sum is the identity, kBusy when the addition is done.
template <class Curve>
class BatchAdder {
 public:
    using F = typename Curve::Field;
    using Point = AffineXY<Curve>;
    // 512 rather than 256: 2^18 1 thread ~3% faster (inversions are ~2.8% of the time at
    // 256), 2^16 unchanged; the bucket and point lines of a batch still fit in L2.
    static constexpr size_t kBatch = 512;

    BatchAdder() {
        items_.reserve(kBatch);
        den_.resize(kBatch);
        pre_.resize(kBatch);
    }
    size_t size() const { return items_.size(); }
    // Queues a += (neg ? -(px, py) : (px, py)); a is set, the source stays alive and
    // unchanged until the flush. Flushes when the batch is full.
    void push(Point* a, uint8_t* state, const F* px, const F* py, bool neg) {
        items_.push_back({a, state, px, py, neg});
        if (items_.size() == kBatch) flush();
    }
    // The items are applied last to first, so a destination that is also the source of
    // a later item must be queued before it (it is then read before it changes).
    void flush() {
        const size_t n = items_.size();
        if (n == 0) return;
        // Denominators x2 - x1, or 2y1 for a doubling; P + (-P) = O takes no inverse.
        F prod = F::one();
        for (size_t i = 0; i < n; ++i) {
            const Item& it = items_[i];
            pre_[i] = prod;
            if (it.a->x != *it.px) {
                den_[i] = *it.px - it.a->x;
                kind_[i] = kAdd;
            } else if ((it.a->y == *it.py) != it.neg) {
                den_[i] = it.a->y.dbl();  // y != 0 in prime-order groups
                kind_[i] = kDouble;
            } else {
                kind_[i] = kCancel;
                continue;
            }
            prod *= den_[i];
        }
        F inv = prod.inverse();
        for (size_t i = n; i-- > 0;) {
            const Item& it = items_[i];
            *it.state &= uint8_t(~kBusy);
            if (kind_[i] == kCancel) {
                *it.state &= uint8_t(~kSet);
                continue;
            }
            const F d_inv = inv * pre_[i];
            inv *= den_[i];
            Point& a = *it.a;
            if (kind_[i] == kAdd) {
                // lambda = (y2 - y1) / (x2 - x1) with y2 = +-py. For -py, use
                // lambda' = -lambda = (py + y1) d_inv and y3 = lambda' (x3 - x1) - y1.
                if (!it.neg) {
                    const F lambda = (*it.py - a.y) * d_inv;
                    const F x3 = lambda.square() - a.x - *it.px;
                    a.y = lambda * (a.x - x3) - a.y;
                    a.x = x3;
                } else {
                    const F lambda = (*it.py + a.y) * d_inv;
                    const F x3 = lambda.square() - a.x - *it.px;
                    a.y = lambda * (x3 - a.x) - a.y;
                    a.x = x3;
                }
            } else {
                F x2 = a.x.square();
                const F lambda = (x2.dbl() + x2) * d_inv;  // 3x^2 / 2y
                const F x3 = lambda.square() - a.x.dbl();
                a.y = lambda * (a.x - x3) - a.y;
                a.x = x3;
            }
        }
        items_.clear();
    }

 private:
    enum : uint8_t { kAdd, kDouble, kCancel };
    struct Item {
        Point* a;
        uint8_t* state;
        const F* px;
        const F* py;
        bool neg;
    };
    std::vector<Item> items_;
    std::vector<F> den_, pre_;
    uint8_t kind_[kBatch];
};

// Buckets for one window, filled mostly by batch-affine additions. A point whose bucket
// already has an addition in the current batch goes straight into that bucket's XYZZ
// overflow instead, so heavily shared buckets (equal scalars) cost what XYZZ buckets
// cost and never stall a batch. A state byte a bucket keeps the hot checks off the
// bucket's own cache lines, which are prefetched when an update is queued.
template <class Curve>
class AffineBuckets {
 public:
    using F = typename Curve::Field;
    using A = Affine<Curve>;
    using P = XYZZ<Curve>;
    using Point = AffineXY<Curve>;

    explicit AffineBuckets(size_t capacity) : acc_(capacity), overflow_(capacity), state_(capacity, 0) {}
    // Empties buckets [0, n).
    void reset(size_t n) {
        std::fill_n(state_.begin(), n, uint8_t(0));
        used_ = n;
        overflowed_.clear();
    }
    // bucket k += (neg ? -p : p), p not at infinity and alive until finish().
    void add(size_t k, const A& p, bool neg) {
        const uint8_t s = state_[k];
        if (s & kBusy) {
            const A q = neg ? -p : p;
            if (s & kOverflow) {
                overflow_[k] += q;
            } else {
                overflow_[k] = P::from_affine(q);
                state_[k] = s | kOverflow;
                overflowed_.push_back(uint32_t(k));
            }
            return;
        }
        if (!(s & kSet)) {
            acc_[k] = {p.x, neg ? -p.y : p.y};
            state_[k] = s | kSet;
            return;
        }
        // The flush reads the bucket and the point (so far only its address is known).
        const char* line = reinterpret_cast<const char*>(&acc_[k]);
        __builtin_prefetch(line, 1);
        __builtin_prefetch(line + sizeof(Point) - 1, 1);
        const char* pl = reinterpret_cast<const char*>(&p);
        __builtin_prefetch(pl);
        __builtin_prefetch(pl + 2 * sizeof(F) - 1);
        state_[k] = s | kBusy;
        adder_.push(&acc_[k], &state_[k], &p.x, &p.y, neg);
    }
    // Completes the queued additions and folds the overflows into the affine buckets
    // (one batch inversion for their ZZZ, then batch-affine additions).
    void finish() {
        adder_.flush();
        if (overflowed_.empty()) return;
        std::vector<F> zzz;
        std::vector<uint32_t> ks;
        for (uint32_t k : overflowed_) {
            state_[k] &= uint8_t(~kOverflow);
            if (overflow_[k].is_identity()) continue;
            ks.push_back(k);
            zzz.push_back(overflow_[k].ZZZ);
        }
        batch_inverse<F>(zzz);
        std::vector<Point> pts(ks.size());
        for (size_t i = 0; i < ks.size(); ++i) {
            // x = X / ZZ = X (ZZ / ZZZ)^2 / ZZ... with 1/ZZ = (ZZ / ZZZ)^2 as ZZ^3 = ZZZ^2.
            const P& o = overflow_[ks[i]];
            const F izz = (zzz[i] * o.ZZ).square();
            pts[i] = {o.X * izz, o.Y * zzz[i]};
        }
        for (size_t i = 0; i < ks.size(); ++i) {
            const uint32_t k = ks[i];
            if (state_[k] & kSet) {
                adder_.push(&acc_[k], &state_[k], &pts[i].x, &pts[i].y, false);
            } else {
                acc_[k] = pts[i];
                state_[k] |= kSet;
            }
        }
        adder_.flush();
        overflowed_.clear();
    }

    // sum_k (k + 1) bucket[k] over k < used (after finish()).
    P weighted_sum() {
        // Few buckets: XYZZ running sums from the top bucket down.
        if (used_ < kMinBatchReduce) {
            P running = P::identity(), sum = P::identity();
            for (size_t k = used_; k-- > 0;) {
                if (state_[k] & kSet) running += A{acc_[k].x, acc_[k].y, false};
                sum += running;
            }
            return sum;
        }
        // Segments of L = 2^l buckets, T = ceil(used / L) <= kSegments of them, reduced
        // side by side so that each step is one batch of independent affine additions.
        // Segment t (buckets tL + i, i < L) keeps a running sum R_t (of the buckets
        // i' >= i) and S_t = sum_i i B_{tL+i}: at step i, S_t += R_t (the old R_t, the
        // sum over i' > i) and R_t += B_{tL+i}. Then
        //   sum_k (k + 1) B_k = sum_t (S_t + R_t) + L sum_t t R_t,
        // the last sum by XYZZ running sums over t and l doublings.
        unsigned l = 0;
        while (((used_ + (size_t(1) << l) - 1) >> l) > kSegments) ++l;
        const size_t L = size_t(1) << l, T = (used_ + L - 1) / L;
        run_.resize(T);
        sum_.resize(T);
        run_state_.assign(T, 0);
        sum_state_.assign(T, 0);
        copy_.clear();
        for (size_t i = L; i-- > 0;) {
            // Run additions first: applied last to first, the sum additions queued after
            // them read the old R_t.
            for (size_t t = 0; t < T; ++t) {
                const size_t k = t * L + i;
                if (k >= used_ || !(state_[k] & kSet)) continue;
                if (run_state_[t] & kSet)
                    adder_.push(&run_[t], &run_state_[t], &acc_[k].x, &acc_[k].y, false);
                else
                    copy_.push_back(uint32_t(t));
            }
            for (size_t t = 0; t < T; ++t) {
                if (!(run_state_[t] & kSet)) continue;
                if (sum_state_[t] & kSet) {
                    adder_.push(&sum_[t], &sum_state_[t], &run_[t].x, &run_[t].y, false);
                } else {
                    sum_[t] = run_[t];
                    sum_state_[t] = kSet;
                }
            }
            adder_.flush();
            for (uint32_t t : copy_) {
                run_[t] = acc_[t * L + i];
                run_state_[t] = kSet;
            }
            copy_.clear();
        }
        P total = P::identity(), running = P::identity(), weighted = P::identity();
        for (size_t t = T; t-- > 0;) {
            if (sum_state_[t] & kSet) total += A{sum_[t].x, sum_[t].y, false};
            if (run_state_[t] & kSet) {
                const A r{run_[t].x, run_[t].y, false};
                total += r;
                running += r;
            }
            if (t > 0) weighted += running;
        }
        for (unsigned j = 0; j < l; ++j) weighted = weighted.dbl();
        return total + weighted;
    }

 private:
    // Below this many buckets the XYZZ reduction is used; segments <= BatchAdder's batch
    // of 256 / 2, so each step's run and sum additions flush together.
    static constexpr size_t kMinBatchReduce = 512;
    static constexpr size_t kSegments = BatchAdder<Curve>::kBatch / 2;

    std::vector<Point> acc_;
    std::vector<P> overflow_;
    std::vector<uint8_t> state_;
    std::vector<uint32_t> overflowed_;
    size_t used_ = 0;
    BatchAdder<Curve> adder_;
    std::vector<Point> run_, sum_;
    std::vector<uint8_t> run_state_, sum_state_;
    std::vector<uint32_t> copy_;
};

// Pippenger over the full scalars, after the GLV split: 2n points with 128-bit scalars.
// Windows have the widths of the plan; digits are signed (k + H recoding). Tasks are
// (window, chunk of points); each fills its own buckets and reduces them by running
// sums, so tasks share nothing; threads claim tasks widest first.
// BN254 has no GLV split here (its endomorphism's scalar needs a lattice decomposition):
// one point per scalar over the full 254 bits.
template <class Curve>
Jacobian<Curve> pippenger(std::span<const Affine<Curve>> bases, const std::vector<uint32_t>& idx,
                          const std::vector<Scalar>& ks, unsigned max_width, MsmStats* stats) {
    using A = Affine<Curve>;
    constexpr bool kGlv = kHasGlv<Curve>;
    constexpr size_t kPer = kGlv ? 2 : 1;  // recoded scalars a base
    // GLV: lo + H or hi + H, < 2^(sum of widths) <= 2^192; otherwise k + H < 2^320.
    using Recoded = std::conditional_t<kGlv, BigInt<3>, BigInt<5>>;
    constexpr size_t kRecodedLimbs = Recoded::kLimbs;
    const size_t n = idx.size();
    if (n == 0) return Jacobian<Curve>::identity();
    // Nested in another parallel_for, ours runs inline: plan for one thread.
    const size_t threads = in_parallel_region() ? 1 : num_threads();
    const Scalar kmax = [] {
        Scalar top = kGlv ? msm_detail::glv_z() : Curve::Scalar::kP, one = Scalar::from_u64(1), r;
        Scalar::sub(r, top, one);
        return r;
    }();
    const WindowPlan plan = msm_detail::plan_windows(kPer * n, kmax, max_width, threads);
    const size_t windows = plan.widths.size(), chunks = plan.chunks;
    std::vector<unsigned> offset(windows, 0);
    for (size_t j = 1; j < windows; ++j) offset[j] = offset[j - 1] + plan.widths[j - 1];
    if (stats) {
        stats->window_bits = *std::max_element(plan.widths.begin(), plan.widths.end());
        stats->windows = unsigned(windows);
        stats->chunks = chunks;
    }

    // Recoded scalars (GLV: lo, hi interleaved) and the endomorphism images of the bases.
    const BigInt<5> h5 = half_offsets(plan.widths);
    Recoded h;
    for (size_t i = 0; i < kRecodedLimbs; ++i) h.l[i] = h5.l[i];
    std::vector<Recoded> rk(kPer * n);
    std::vector<A> endo(kGlv ? n : 0);
    parallel_for(0, n, 2048, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) {
            if constexpr (kGlv) {
                const typename Curve::Field beta = glv_beta<Curve>();
                Scalar lo, hi;
                msm_detail::glv_split(ks[i], lo, hi);
                Recoded l3 = {{lo.l[0], lo.l[1], 0}}, h3 = {{hi.l[0], hi.l[1], 0}};
                Recoded::add(rk[2 * i], l3, h);
                Recoded::add(rk[2 * i + 1], h3, h);
                const A& p = bases[idx[i]];
                endo[i] = p.infinity ? p : A{p.x * beta, -p.y, false};
            } else {
                Recoded k5 = Recoded::zero();
                for (size_t j = 0; j < 4; ++j) k5.l[j] = ks[i].l[j];
                Recoded::add(rk[i], k5, h);
            }
        }
    });

    // Tasks widest window first, claimed in that order (longest-processing-time first).
    std::vector<size_t> order(windows * chunks);
    for (size_t t = 0; t < order.size(); ++t) order[t] = t;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return plan.widths[a / chunks] > plan.widths[b / chunks]; });
    std::vector<Jacobian<Curve>> task_sum(order.size(), Jacobian<Curve>::identity());
    std::atomic<size_t> next{0};
    const size_t capacity = size_t(1) << (*std::max_element(plan.widths.begin(), plan.widths.end()) - 1);
    parallel_for(0, std::min(threads, order.size()), 1, [&](size_t, size_t) {
        AffineBuckets<Curve> buckets(capacity);
        for (size_t o; (o = next.fetch_add(1)) < order.size();) {
            const size_t t = order[o];
            const size_t w = t / chunks, ch = t % chunks;
            const size_t b = n * ch / chunks, e = n * (ch + 1) / chunks;
            const unsigned c = plan.widths[w], shift = offset[w];
            const int64_t half = int64_t(1) << (c - 1);
            const size_t used = w + 1 == windows ? size_t(plan.top_digit_max) : size_t(half);
            buckets.reset(used);
            for (size_t i = b; i < e; ++i) {
                const A& base = bases[idx[i]];
                if (base.infinity) continue;
                const int64_t d0 = int64_t(rk[kPer * i].bits(shift, c)) - half;
                if (d0 != 0) buckets.add(size_t(d0 > 0 ? d0 : -d0) - 1, base, d0 < 0);
                if constexpr (kGlv) {
                    const int64_t d1 = int64_t(rk[2 * i + 1].bits(shift, c)) - half;
                    if (d1 != 0) buckets.add(size_t(d1 > 0 ? d1 : -d1) - 1, endo[i], d1 < 0);
                }
            }
            buckets.finish();
            task_sum[t] = buckets.weighted_sum().to_jacobian();
        }
    });
    // Horner over windows, top first: acc = acc * 2^(c_j) + window sum j.
    Jacobian<Curve> acc = Jacobian<Curve>::identity();
    for (size_t w = windows; w-- > 0;) {
        for (unsigned i = 0; i < plan.widths[w]; ++i) acc = acc.dbl();
        for (size_t ch = 0; ch < chunks; ++ch) acc += task_sum[w * chunks + ch];
    }
    return acc;
}

}  // namespace

template <class Curve>
Jacobian<Curve> sum_affine(std::span<const Affine<Curve>> points) {
    std::vector<uint32_t> idx(points.size());
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = uint32_t(i);
    return sum_ones<Curve>(points, idx);
}

template <class Curve>
Jacobian<Curve> msm(std::span<const Affine<Curve>> bases, std::span<const typename Curve::Scalar> scalars,
                    const MsmOptions& opt) {
    const size_t expect = opt.density ? popcount_prefix(opt.density, scalars.size()) : scalars.size();
    if (bases.size() != expect) {
        throw std::invalid_argument(std::string("msm: ") + std::to_string(bases.size()) + " bases for " +
                                    std::to_string(expect) + " scalars" +
                                    (opt.density ? " with a base (density)" : ""));
    }
    if (bases.size() >= (uint64_t(1) << 32)) throw std::invalid_argument("msm: more than 2^32 bases");
    const unsigned c = opt.window_bits;
    if (c != 0 && (c < 2 || c > 24)) throw std::invalid_argument("msm: window bits must be 0 or in [2, 24]");
    Classified cl = classify<typename Curve::Scalar>(scalars, opt.density);
    if (opt.stats) {
        *opt.stats = MsmStats{};
        opt.stats->zeros = cl.zeros;
        opt.stats->ones = cl.one_idx.size();
        opt.stats->full = cl.full_idx.size();
    }
    Jacobian<Curve> ones = sum_ones<Curve>(bases, cl.one_idx);
    Jacobian<Curve> rest = pippenger<Curve>(bases, cl.full_idx, cl.full_k, c, opt.stats);
    return ones + rest;
}

template Jacobian<G1Curve> msm<G1Curve>(std::span<const G1Affine>, std::span<const Fr>, const MsmOptions&);
template Jacobian<G2Curve> msm<G2Curve>(std::span<const G2Affine>, std::span<const Fr>, const MsmOptions&);
template Jacobian<G1Curve> sum_affine<G1Curve>(std::span<const G1Affine>);
template Jacobian<G2Curve> sum_affine<G2Curve>(std::span<const G2Affine>);
template Jacobian<bn254::G1Curve> msm<bn254::G1Curve>(std::span<const bn254::G1Affine>, std::span<const bn254::Fr>,
                                                      const MsmOptions&);
template Jacobian<bn254::G2Curve> msm<bn254::G2Curve>(std::span<const bn254::G2Affine>, std::span<const bn254::Fr>,
                                                      const MsmOptions&);
template Jacobian<bn254::G1Curve> sum_affine<bn254::G1Curve>(std::span<const bn254::G1Affine>);
template Jacobian<bn254::G2Curve> sum_affine<bn254::G2Curve>(std::span<const bn254::G2Affine>);

}  // namespace cuzk
