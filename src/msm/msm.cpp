#include "cuzk/msm/msm.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/common/parallel.hpp"
#include "cuzk/ec/xyzz.hpp"

namespace cuzk {
namespace {

using Scalar = BigInt<4>;
using Recoded = BigInt<5>;  // k + H for signed-digit recoding, one bit wider than Wc

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

Classified classify(std::span<const Fr> scalars, const uint64_t* density) {
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

// Number of c-bit windows so that k + H (k < 2^255) fits: W*c >= 257 (see recode()).
unsigned num_windows(unsigned c) { return (257 + c - 1) / c; }

// Signed-digit recoding without a carry chain: with H = sum_j 2^(c-1) 2^(jc), the j-th
// c-bit window of k + H, minus 2^(c-1), is a digit in [-2^(c-1), 2^(c-1) - 1], and the
// digits d_j satisfy k = sum_j d_j 2^(jc). Since k < 2^255 <= 2^(Wc-2) and
// H < 2^(Wc-1) (1 + 1/(2^c - 1)), k + H < 2^(Wc): W windows cover it exactly.
Recoded recode(const Scalar& k, unsigned c, unsigned windows) {
    Recoded h = Recoded::zero();
    for (unsigned j = 0; j < windows; ++j) {
        size_t bit = size_t(j) * c + (c - 1);
        h.l[bit / 64] |= uint64_t(1) << (bit % 64);
    }
    Recoded kk = Recoded::zero();
    for (size_t i = 0; i < 4; ++i) kk.l[i] = k.l[i];
    Recoded r;
    Recoded::add(r, kk, h);
    return r;
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

// Buckets for one window, filled mostly by batch-affine additions (Montgomery's trick
// over a batch of independent bucket updates: about 5M + 1S an addition instead of the
// 8M + 2S of an XYZZ mixed addition). A point whose bucket already has an addition in
// the current batch goes straight into that bucket's XYZZ overflow instead, so heavily
// shared buckets (the top window of the k + H recoding sends almost every point to one
// or two buckets) cost what they did before and never stall a batch.
template <class Curve>
class AffineBuckets {
 public:
    using F = typename Curve::Field;
    using A = Affine<Curve>;
    using P = XYZZ<Curve>;
    static constexpr size_t kBatch = 256;

    explicit AffineBuckets(size_t n) : acc_(n), overflow_(n), busy_(n, 0) {}
    void clear() {
        std::fill(acc_.begin(), acc_.end(), A::identity());
        std::fill(overflow_.begin(), overflow_.end(), P::identity());
    }
    // bucket k += p (p not at infinity).
    void add(size_t k, const A& p) {
        if (busy_[k]) {
            overflow_[k] += p;
            return;
        }
        if (acc_[k].infinity) {
            acc_[k] = p;
            return;
        }
        busy_[k] = 1;
        batch_.push_back({k, p});
        if (batch_.size() == kBatch) flush();
    }
    void finish() { flush(); }
    // running += bucket k (after finish()).
    void add_to(size_t k, P& running) const {
        running += acc_[k];
        if (!overflow_[k].is_identity()) running += overflow_[k];
    }

 private:
    struct Item {
        size_t k;
        A p;
    };
    void flush() {
        const size_t n = batch_.size();
        if (n == 0) return;
        den_.resize(n);
        pre_.resize(n);
        // Denominators x2 - x1, or 2y1 for a doubling; zero marks P + (-P) = O.
        F prod = F::one();
        for (size_t i = 0; i < n; ++i) {
            const A& a = acc_[batch_[i].k];
            const A& p = batch_[i].p;
            if (a.x != p.x)
                den_[i] = p.x - a.x;
            else if (a.y == p.y)
                den_[i] = a.y.dbl();
            else
                den_[i] = F::zero();
            pre_[i] = prod;
            if (!den_[i].is_zero()) prod *= den_[i];
        }
        F inv = prod.inverse();
        for (size_t i = n; i-- > 0;) {
            const size_t k = batch_[i].k;
            busy_[k] = 0;
            if (den_[i].is_zero()) {
                acc_[k] = A::identity();
                continue;
            }
            const F d_inv = inv * pre_[i];
            inv *= den_[i];
            A& a = acc_[k];
            const A& p = batch_[i].p;
            F lambda;
            if (a.x != p.x) {
                lambda = (p.y - a.y) * d_inv;
            } else {
                F x2 = a.x.square();
                lambda = (x2.dbl() + x2) * d_inv;  // 3x^2 / 2y
            }
            F x3 = lambda.square() - a.x - p.x;
            a.y = lambda * (a.x - x3) - a.y;
            a.x = x3;
        }
        batch_.clear();
    }
    std::vector<A> acc_;
    std::vector<P> overflow_;
    std::vector<uint8_t> busy_;
    std::vector<Item> batch_;
    std::vector<F> den_, pre_;
};

// Pippenger over the full scalars. Tasks are (window, chunk of points); each fills its
// own 2^(c-1) XYZZ buckets and reduces them by running sums, so tasks share nothing.
template <class Curve>
Jacobian<Curve> pippenger(std::span<const Affine<Curve>> bases, const std::vector<uint32_t>& idx,
                          const std::vector<Scalar>& ks, unsigned c, MsmStats* stats) {
    using P = XYZZ<Curve>;
    const size_t n = idx.size();
    if (n == 0) return Jacobian<Curve>::identity();
    const unsigned windows = num_windows(c);
    const size_t threads = num_threads();
    // Enough tasks to keep every thread busy, but chunks no smaller than the buckets.
    size_t chunks = std::max<size_t>(1, (2 * threads + windows - 1) / windows);
    chunks = std::max<size_t>(1, std::min(chunks, n >> (c - 1)));
    if (stats) {
        stats->window_bits = c;
        stats->windows = windows;
        stats->chunks = chunks;
    }
    std::vector<Recoded> rk(n);
    parallel_for(0, n, 4096, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) rk[i] = recode(ks[i], c, windows);
    });

    const size_t tasks = size_t(windows) * chunks;
    std::vector<Jacobian<Curve>> task_sum(tasks);
    const uint64_t half = uint64_t(1) << (c - 1);
    parallel_for(0, tasks, 1, [&](size_t tb, size_t te) {
        AffineBuckets<Curve> buckets(half);
        for (size_t t = tb; t < te; ++t) {
            const unsigned w = unsigned(t / chunks);
            const size_t ch = t % chunks;
            const size_t b = n * ch / chunks, e = n * (ch + 1) / chunks;
            buckets.clear();
            const size_t shift = size_t(w) * c;
            for (size_t i = b; i < e; ++i) {
                const Affine<Curve>& base = bases[idx[i]];
                if (base.infinity) continue;
                const int64_t d = int64_t(rk[i].bits(shift, c)) - int64_t(half);
                if (d > 0)
                    buckets.add(size_t(d) - 1, base);
                else if (d < 0)
                    buckets.add(size_t(-d) - 1, -base);
            }
            buckets.finish();
            // sum_b (b+1) * bucket[b] by running sums from the top bucket down (the
            // affine part of a bucket joins the running sum by a mixed addition).
            P running = P::identity(), sum = P::identity();
            for (size_t k = half; k-- > 0;) {
                buckets.add_to(k, running);
                sum += running;
            }
            task_sum[t] = sum.to_jacobian();
        }
    });
    // Horner over windows, top first: acc = acc * 2^c + window sum.
    Jacobian<Curve> acc = Jacobian<Curve>::identity();
    for (unsigned w = windows; w-- > 0;) {
        for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
        for (size_t ch = 0; ch < chunks; ++ch) acc += task_sum[size_t(w) * chunks + ch];
    }
    return acc;
}

}  // namespace

unsigned msm_window_bits(size_t n, size_t tasks_per_window) {
    if (n < 4) return 2;
    // Cost in mixed additions: W(c) * (n + tasks * 2^c * 1.4), a full XYZZ add being
    // ~1.4x a mixed one (12M+2S vs 8M+2S).
    unsigned best = 2;
    double best_cost = 1e300;
    for (unsigned c = 2; c <= 22; ++c) {
        double cost = double(num_windows(c)) * (double(n) + double(tasks_per_window) * double(1u << c) * 1.4);
        if (cost < best_cost) {
            best_cost = cost;
            best = c;
        }
    }
    return best;
}

template <class Curve>
Jacobian<Curve> sum_affine(std::span<const Affine<Curve>> points) {
    std::vector<uint32_t> idx(points.size());
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = uint32_t(i);
    return sum_ones<Curve>(points, idx);
}

template <class Curve>
Jacobian<Curve> msm(std::span<const Affine<Curve>> bases, std::span<const Fr> scalars, const MsmOptions& opt) {
    const size_t expect = opt.density ? popcount_prefix(opt.density, scalars.size()) : scalars.size();
    if (bases.size() != expect) {
        throw std::invalid_argument(std::string("msm: ") + std::to_string(bases.size()) + " bases for " +
                                    std::to_string(expect) + " scalars" +
                                    (opt.density ? " with a base (density)" : ""));
    }
    if (bases.size() >= (uint64_t(1) << 32)) throw std::invalid_argument("msm: more than 2^32 bases");
    Classified cl = classify(scalars, opt.density);
    unsigned c = opt.window_bits;
    if (c == 0) {
        const unsigned threads = unsigned(num_threads());
        c = msm_window_bits(cl.full_idx.size(), threads > 1 ? std::max(1u, 2 * threads / 16) : 1);
    }
    if (c < 2 || c > 24) throw std::invalid_argument("msm: window bits must be in [2, 24]");
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

}  // namespace cuzk
