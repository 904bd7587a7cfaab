#include "cuzk/groth16/verifier.hpp"

#include <algorithm>
#include <random>

#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/ec/subgroup.hpp"

namespace cuzk::groth16 {
namespace {

// IC(x) = ic_0 + sum_i x_i ic_{i+1}; empty optional message when the count is right.
template <class G1C, class G2C>
std::string ic_combination(const VerifyingKeyT<G1C, G2C>& vk, std::span<const typename G1C::Scalar> x,
                           Jacobian<G1C>& out) {
    if (x.size() + 1 != vk.ic.size())
        return "wrong number of public inputs: got " + std::to_string(x.size()) + ", the key expects " +
               std::to_string(vk.ic.size() - 1);
    out = Jacobian<G1C>::from_affine(vk.ic[0]);
    for (size_t i = 0; i < x.size(); ++i) out += mul(vk.ic[i + 1], x[i]);
    return {};
}

template <class G1C, class G2C>
std::string check_points(const ProofT<G1C, G2C>& p) {
    if (!p.a.is_on_curve() || !is_in_subgroup(p.a)) return "proof point A is not in G1";
    if (!p.b.is_on_curve() || !is_in_subgroup(p.b)) return "proof point B is not in G2";
    if (!p.c.is_on_curve() || !is_in_subgroup(p.c)) return "proof point C is not in G1";
    return {};
}

// 128-bit random coefficient, non-zero, straight from the OS CSPRNG: a prover must
// not be able to predict it.
Fr random_coefficient(std::random_device& rng) {
    auto word = [&rng] { return (uint64_t(rng()) << 32) | uint64_t(rng()); };
    for (;;) {
        BigInt<4> k = BigInt<4>::zero();
        k.l[0] = word();
        k.l[1] = word();
        if (!k.is_zero()) return Fr::from_bigint_unchecked(k);
    }
}

}  // namespace

template <class G1C, class G2C>
PreparedVerifyingKeyT<G1C, G2C>::PreparedVerifyingKeyT(const VerifyingKeyT<G1C, G2C>& key)
    : vk(key), alpha_beta(pairing(key.alpha_g1, key.beta_g2)), neg_gamma(-key.gamma_g2), neg_delta(-key.delta_g2) {}

template <class G1C, class G2C>
VerifyResult verify(const PreparedVerifyingKeyT<G1C, G2C>& pvk, const ProofT<G1C, G2C>& proof,
                    std::span<const typename G1C::Scalar> public_inputs) {
    Jacobian<G1C> ic;
    if (auto e = ic_combination(pvk.vk, public_inputs, ic); !e.empty()) return {false, e};
    if (auto e = check_points(proof); !e.empty()) return {false, e};
    G2PreparedT<G2C> b(proof.b);
    const std::pair<Affine<G1C>, const G2PreparedT<G2C>*> pairs[] = {
        {proof.a, &b}, {ic.to_affine(), &pvk.neg_gamma}, {proof.c, &pvk.neg_delta}};
    if (final_exponentiation(multi_miller_loop(pairs)) != pvk.alpha_beta)
        return {false, "the pairing equation does not hold (wrong proof, key or public inputs)"};
    return {true, {}};
}

template struct PreparedVerifyingKeyT<G1Curve, G2Curve>;
template struct PreparedVerifyingKeyT<bn254::G1Curve, bn254::G2Curve>;
template VerifyResult verify(const PreparedVerifyingKeyT<G1Curve, G2Curve>&, const ProofT<G1Curve, G2Curve>&,
                             std::span<const Fr>);
template VerifyResult verify(const PreparedVerifyingKeyT<bn254::G1Curve, bn254::G2Curve>&,
                             const ProofT<bn254::G1Curve, bn254::G2Curve>&, std::span<const bn254::Fr>);

namespace {

// Checks proofs[idx...] together: prod e(r_i A_i, B_i) e(sum r_i IC_i, -gamma)
// e(sum r_i C_i, -delta) = e(alpha, beta)^(sum r_i).
bool batch_holds(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                 std::span<const std::vector<Fr>> inputs, std::span<const size_t> idx, std::random_device& rng) {
    std::vector<G2Prepared> bs;
    bs.reserve(idx.size());
    std::vector<std::pair<G1Affine, const G2Prepared*>> pairs;
    G1Jacobian ic_sum = G1Jacobian::identity(), c_sum = G1Jacobian::identity();
    Fr r_sum = Fr::zero();
    for (size_t i : idx) {
        Fr r = random_coefficient(rng);
        G1Jacobian ic;
        if (!ic_combination(pvk.vk, inputs[i], ic).empty()) return false;
        bs.emplace_back(proofs[i].b);
        pairs.emplace_back(mul(proofs[i].a, r).to_affine(), nullptr);
        ic_sum += mul(ic, r);
        c_sum += mul(proofs[i].c, r);
        r_sum += r;
    }
    for (size_t k = 0; k < idx.size(); ++k) pairs[k].second = &bs[k];
    pairs.emplace_back(ic_sum.to_affine(), &pvk.neg_gamma);
    pairs.emplace_back(c_sum.to_affine(), &pvk.neg_delta);
    return final_exponentiation(multi_miller_loop(pairs)) == pvk.alpha_beta.pow(r_sum.to_bigint());
}

void bisect(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs, std::span<const std::vector<Fr>> inputs,
            std::span<const size_t> idx, std::random_device& rng, std::vector<size_t>& bad) {
    if (idx.empty() || batch_holds(pvk, proofs, inputs, idx, rng)) return;
    if (idx.size() == 1) {
        bad.push_back(idx[0]);
        return;
    }
    const size_t half = idx.size() / 2;
    bisect(pvk, proofs, inputs, idx.first(half), rng, bad);
    bisect(pvk, proofs, inputs, idx.subspan(half), rng, bad);
}

}  // namespace

bool verify_batch(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                  std::span<const std::vector<Fr>> public_inputs, std::vector<size_t>* bad) {
    if (proofs.size() != public_inputs.size())
        throw std::invalid_argument("verify_batch: " + std::to_string(proofs.size()) + " proofs but " +
                                    std::to_string(public_inputs.size()) + " input vectors");
    std::vector<size_t> bad_local;
    std::vector<size_t> idx;
    // Points off the group fail on their own, before any pairing.
    for (size_t i = 0; i < proofs.size(); ++i) {
        G1Jacobian ic;
        if (!check_points(proofs[i]).empty() || !ic_combination(pvk.vk, public_inputs[i], ic).empty())
            bad_local.push_back(i);
        else
            idx.push_back(i);
    }
    std::random_device rng;
    bisect(pvk, proofs, public_inputs, idx, rng, bad_local);
    std::sort(bad_local.begin(), bad_local.end());
    const bool ok = bad_local.empty();
    if (bad) *bad = std::move(bad_local);
    return ok;
}

}  // namespace cuzk::groth16
