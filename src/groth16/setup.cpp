#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/zkey.hpp"

#include <atomic>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>

#include "cuzk/common/parallel.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/ntt/domain.hpp"
#include "cuzk/ntt/ntt.hpp"

namespace cuzk::groth16 {
namespace {

// Fixed-base scalar multiplication k*G with 8-bit windows: table[w][d-1] = d 2^(8w) G,
// so k*G is at most 32 mixed additions and no doublings.
template <class Curve>
class FixedBase {
 public:
    static constexpr unsigned kWindowBits = 8;
    static constexpr unsigned kWindows = 256 / kWindowBits;
    static constexpr unsigned kEntries = (1u << kWindowBits) - 1;

    explicit FixedBase(const Affine<Curve>& g) {
        std::vector<Jacobian<Curve>> t(size_t(kWindows) * kEntries);
        Jacobian<Curve> base = Jacobian<Curve>::from_affine(g);
        for (unsigned w = 0; w < kWindows; ++w) {
            Jacobian<Curve> acc = base;
            for (unsigned d = 0; d < kEntries; ++d) {
                t[size_t(w) * kEntries + d] = acc;
                acc += base;
            }
            base = acc;  // 2^8 * base
        }
        table_ = batch_to_affine<Curve>(std::span<const Jacobian<Curve>>(t));
    }
    Jacobian<Curve> mul(const typename Curve::Scalar& k) const {
        const BigInt<4> e = k.to_bigint();
        Jacobian<Curve> acc = Jacobian<Curve>::identity();
        for (unsigned w = 0; w < kWindows; ++w) {
            unsigned d = unsigned(e.bits(size_t(w) * kWindowBits, kWindowBits));
            if (d) acc += table_[size_t(w) * kEntries + d - 1];
        }
        return acc;
    }
    // out[i] = scalars[i] * G, in parallel, converted to affine in chunks.
    std::vector<Affine<Curve>> mul_all(std::span<const typename Curve::Scalar> scalars, const char* stage,
                                       const SetupProgress& progress) const {
        std::vector<Affine<Curve>> out(scalars.size());
        const size_t chunk = 2048;
        std::atomic<size_t> done{0};
        std::mutex progress_mutex;
        parallel_for(0, (scalars.size() + chunk - 1) / chunk, 1, [&](size_t cb, size_t ce) {
            std::vector<Jacobian<Curve>> tmp;
            for (size_t c = cb; c < ce; ++c) {
                size_t b = c * chunk, e = std::min(scalars.size(), b + chunk);
                tmp.resize(e - b);
                for (size_t i = b; i < e; ++i) tmp[i - b] = mul(scalars[i]);
                batch_to_affine<Curve>(std::span<const Jacobian<Curve>>(tmp),
                                       std::span<Affine<Curve>>(out.data() + b, e - b));
                size_t now = done += e - b;
                if (progress) {
                    std::lock_guard<std::mutex> lock(progress_mutex);
                    progress(stage, now, scalars.size());
                }
            }
        });
        return out;
    }

 private:
    std::vector<Affine<Curve>> table_;
};

// Evaluates every column of a matrix at tau: out[j] = sum_rows coeff * L_row(tau).
std::vector<Fr> evaluate_columns(const r1cs::Shape& shape, r1cs::Matrix m, std::span<const Fr> lagrange,
                                 const CancelCheck& cancel) {
    const r1cs::ColumnMatrix cols = shape.transpose(m);
    const size_t n = shape.num_inputs + shape.num_aux;
    std::vector<Fr> out(n, Fr::zero());
    parallel_for(0, n, 1024, [&](size_t b, size_t e) {
        for (size_t j = b; j < e; ++j) {
            if ((j - b) % 4096 == 0) throw_if_cancelled(cancel, "setup");
            Fr acc = Fr::zero();
            for (uint64_t k = cols.col_ptr[j]; k < cols.col_ptr[j + 1]; ++k)
                acc += shape.coeffs[cols.coeff[k]] * lagrange[cols.row[k]];
            out[j] = acc;
        }
    });
    return out;
}

}  // namespace

template <class F>
ToxicWasteT<F> ToxicWasteT<F>::random() {
    std::random_device rd;
    auto next = [&rd] { return (uint64_t(rd()) << 32) | uint64_t(rd()); };
    return {F::random(next), F::random(next), F::random(next), F::random(next), F::random(next)};
}

template <class F>
ToxicWasteT<F> ToxicWasteT<F>::from_seed(uint64_t seed) {
    std::mt19937_64 rng(seed);
    return {F::random(rng), F::random(rng), F::random(rng), F::random(rng), F::random(rng)};
}
template struct ToxicWasteT<Fr>;
template struct ToxicWasteT<bn254::Fr>;

Parameters setup(const r1cs::Shape& shape, const ToxicWaste& tw, const SetupProgress& user_progress,
                 const CancelCheck& cancel) {
    // The fixed-base multiplications report every 2,048 points: the cancellation is checked there.
    const SetupProgress progress = [&](const char* stage, size_t done, size_t total) {
        throw_if_cancelled(cancel, "setup");
        if (user_progress) user_progress(stage, done, total);
    };
    const size_t ni = shape.num_inputs, na = shape.num_aux;
    if (ni == 0) throw std::invalid_argument("setup: the shape has no inputs (ONE is missing)");
    if (shape.num_constraints < ni)
        throw std::invalid_argument("setup: the shape lacks the input*0=0 constraints (" +
                                    std::to_string(shape.num_constraints) + " constraints for " + std::to_string(ni) +
                                    " inputs)");
    if (tw.gamma.is_zero() || tw.delta.is_zero())
        throw std::invalid_argument("setup: gamma and delta must be non-zero");
    const size_t m = ntt::EvaluationDomain::size_for(size_t(shape.num_constraints));
    const unsigned log_m = ntt::checked_log_size(m, "setup domain");
    (void)log_m;

    // Lagrange coefficients L_i(tau) = iFFT(1, tau, ..., tau^(m-1)).
    std::vector<Fr> powers(m);
    parallel_for(0, m, 4096, [&](size_t b, size_t e) {
        Fr p = tw.tau.pow(uint64_t(b));
        for (size_t i = b; i < e; ++i) {
            powers[i] = p;
            p *= tw.tau;
        }
    });
    const Fr z_tau = powers[m - 1] * tw.tau - Fr::one();  // Z(tau) = tau^m - 1
    if (z_tau.is_zero()) throw std::invalid_argument("setup: tau is a root of unity of the domain");
    throw_if_cancelled(cancel, "setup");
    std::vector<Fr> lagrange = powers;
    ntt::inverse(lagrange);
    throw_if_cancelled(cancel, "setup");

    const Fr gamma_inv = tw.gamma.inverse(), delta_inv = tw.delta.inverse();
    // h_i = tau^i Z(tau) / delta, i < m-1.
    std::vector<Fr> h_scalars(m - 1);
    const Fr zd = z_tau * delta_inv;
    parallel_for(0, m - 1, 4096, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) h_scalars[i] = powers[i] * zd;
    });
    powers = {};

    throw_if_cancelled(cancel, "setup");
    const auto at = evaluate_columns(shape, r1cs::Matrix::A, lagrange, cancel);
    const auto bt = evaluate_columns(shape, r1cs::Matrix::B, lagrange, cancel);
    const auto ct = evaluate_columns(shape, r1cs::Matrix::C, lagrange, cancel);
    lagrange = {};

    throw_if_cancelled(cancel, "setup");
    const r1cs::Density density = shape.density();
    std::vector<Fr> ic_s(ni), l_s(na), a_s, b_s;
    for (size_t j = 0; j < ni + na; ++j) {
        Fr v = tw.beta * at[j] + tw.alpha * bt[j] + ct[j];
        if (j < ni)
            ic_s[j] = v * gamma_inv;
        else
            l_s[j - ni] = v * delta_inv;
        const bool in_a = j < ni || density.a_aux.test(j - ni);
        const bool in_b = j < ni ? density.b_input.test(j) : density.b_aux.test(j - ni);
        // A dense column that vanishes at tau would become a point at infinity, which
        // bellperson's format cannot hold; that happens with probability ~ n / r.
        if (in_a) {
            if (at[j].is_zero()) throw std::runtime_error("setup: unlucky tau (an A column vanishes); retry");
            a_s.push_back(at[j]);
        }
        if (in_b) {
            if (bt[j].is_zero()) throw std::runtime_error("setup: unlucky tau (a B column vanishes); retry");
            b_s.push_back(bt[j]);
        }
    }

    const FixedBase<G1Curve> g1(G1Affine::generator());
    const FixedBase<G2Curve> g2(G2Affine::generator());
    Parameters p;
    p.vk.alpha_g1 = g1.mul(tw.alpha).to_affine();
    p.vk.beta_g1 = g1.mul(tw.beta).to_affine();
    p.vk.beta_g2 = g2.mul(tw.beta).to_affine();
    p.vk.gamma_g2 = g2.mul(tw.gamma).to_affine();
    p.vk.delta_g1 = g1.mul(tw.delta).to_affine();
    p.vk.delta_g2 = g2.mul(tw.delta).to_affine();
    p.vk.ic = g1.mul_all(ic_s, "ic", progress);
    p.h = g1.mul_all(h_scalars, "h", progress);
    p.l = g1.mul_all(l_s, "l", progress);
    p.a = g1.mul_all(a_s, "a", progress);
    p.b_g1 = g1.mul_all(b_s, "b_g1", progress);
    p.b_g2 = g2.mul_all(b_s, "b_g2", progress);
    return p;
}

}  // namespace cuzk::groth16

namespace cuzk::groth16 {
namespace {

// L_i(tau) for the points x_i of a domain of size n (roots of x^n = 1):
// (tau^n - 1) x_i / (n (tau - x_i)), for the given points.
template <class Fr>
std::vector<Fr> lagrange_at(const Fr& tau, size_t n, const Fr& first, const Fr& step, size_t count) {
    const Fr zn = tau.pow(uint64_t(n)) - Fr::one();
    if (zn.is_zero()) throw std::invalid_argument("setup-zkey: tau is a root of unity of the domain");
    const Fr scale = zn * Fr::from_u64(n).inverse();
    std::vector<Fr> out(count), x(count);
    parallel_for(0, count, 4096, [&](size_t b, size_t e) {
        Fr xi = first * step.pow(uint64_t(b));
        for (size_t i = b; i < e; ++i, xi *= step) {
            x[i] = xi;
            out[i] = tau - xi;
        }
    });
    batch_inverse(std::span<Fr>(out));
    parallel_for(0, count, 4096, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) out[i] *= scale * x[i];
    });
    return out;
}

}  // namespace

template <class E>
ZkeyContents<E> setup_zkey(const CircomR1cs<E>& r, const ToxicWasteT<typename E::Fr>& tw) {
    using Fr = typename E::Fr;
    const size_t m = r.n_constraints(), vars = r.n_wires, pub = r.n_public();
    const size_t need = m + pub + 1;
    if (need > (size_t(1) << ntt::kMaxLogSize))
        throw std::invalid_argument("setup-zkey: " + std::to_string(m) + " constraints and " + std::to_string(pub + 1) +
                                    " input rows exceed the largest domain, 2^" + std::to_string(ntt::kMaxLogSize));
    size_t n = 1;
    unsigned k = 0;
    while (n < need) n <<= 1, ++k;
    if (tw.delta.is_zero()) throw std::invalid_argument("setup-zkey: delta must be non-zero");
    ZkeyContents<E> z;
    z.n_vars = uint32_t(vars);
    z.n_public = uint32_t(pub);
    z.domain_size = uint32_t(n);
    // The coefficient section: the .r1cs's A and B rows, then row m + j puts signal j
    // (j <= nPublic) into A, so that every public signal's A polynomial is independent.
    z.a_rows = r.a;
    z.b_rows = r.b;
    for (size_t j = 0; j <= pub; ++j) {
        z.a_rows.signal.push_back(uint32_t(j));
        z.a_rows.coeff.push_back(Fr::one());
        z.a_rows.row_ptr.push_back(z.a_rows.signal.size());
    }
    while (z.a_rows.rows() < n) z.a_rows.row_ptr.push_back(z.a_rows.signal.size());
    while (z.b_rows.rows() < n) z.b_rows.row_ptr.push_back(z.b_rows.signal.size());

    const Fr wn = snarkjs_root_of_unity<E>(k), w2n = snarkjs_root_of_unity<E>(k + 1);
    const std::vector<Fr> lagrange = lagrange_at(tw.tau, n, Fr::one(), wn, n);
    // u, v, w: every signal's A, B, C polynomial at tau.
    std::vector<Fr> u(vars, Fr::zero()), v(vars, Fr::zero()), w(vars, Fr::zero());
    auto columns = [&](const SparseRows<Fr>& rows, std::vector<Fr>& out) {
        for (size_t i = 0; i < rows.rows(); ++i)
            for (uint64_t t = rows.row_ptr[i]; t < rows.row_ptr[i + 1]; ++t)
                out[rows.signal[t]] += rows.coeff[t] * lagrange[i];
    };
    columns(z.a_rows, u);
    columns(z.b_rows, v);
    columns(r.c, w);
    std::vector<Fr> ic_s(pub + 1), c_s(vars - pub - 1);
    const Fr delta_inv = tw.delta.inverse();
    for (size_t j = 0; j < vars; ++j) {
        const Fr x = tw.beta * u[j] + tw.alpha * v[j] + w[j];
        if (j <= pub)
            ic_s[j] = x;  // gamma = 1
        else
            c_s[j - pub - 1] = x * delta_inv;
    }
    // H: the odd points of the 2n domain, w_2n w_n^i, over delta.
    std::vector<Fr> h_s = lagrange_at(tw.tau, 2 * n, w2n, wn, n);
    for (Fr& x : h_s) x *= delta_inv;

    const FixedBase<typename E::G1> g1(Affine<typename E::G1>::generator());
    const FixedBase<typename E::G2> g2(Affine<typename E::G2>::generator());
    z.alpha_1 = g1.mul(tw.alpha).to_affine();
    z.beta_1 = g1.mul(tw.beta).to_affine();
    z.beta_2 = g2.mul(tw.beta).to_affine();
    z.gamma_2 = Affine<typename E::G2>::generator();
    z.delta_1 = g1.mul(tw.delta).to_affine();
    z.delta_2 = g2.mul(tw.delta).to_affine();
    z.ic = g1.mul_all(ic_s, "ic", {});
    z.a = g1.mul_all(u, "a", {});
    z.b1 = g1.mul_all(v, "b1", {});
    z.b2 = g2.mul_all(v, "b2", {});
    z.c = g1.mul_all(c_s, "c", {});
    z.h = g1.mul_all(h_s, "h", {});
    return z;
}
template ZkeyContents<Bls12_381> setup_zkey(const CircomR1cs<Bls12_381>&, const ToxicWaste&);
template ZkeyContents<Bn254> setup_zkey(const CircomR1cs<Bn254>&, const ToxicWasteT<bn254::Fr>&);

}  // namespace cuzk::groth16
