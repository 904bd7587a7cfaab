// The Groth16 prover (Groth, "On the Size of Pairing-based Non-interactive Arguments",
// EUROCRYPT 2016, section 3.2) in bellperson's arrangement:
//   A = alpha + sum_j z_j a_j(tau) + r delta                           (G1)
//   B = beta  + sum_j z_j b_j(tau) + s delta                           (G2, and in G1 for C)
//   C = sum_aux w_j l_j + sum_i h_i H_i + s A + r B_G1 - r s delta     (G1)
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "cuzk/groth16/backend.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/r1cs/shape.hpp"

namespace cuzk::groth16 {

// The blinding scalars; drawn from a CSPRNG unless a test injects them.
template <class F>
struct RandomnessT {
    F r, s;
};
using Randomness = RandomnessT<Fr>;
// From std::random_device (the OS CSPRNG); F is the scalar field (BN254's for snarkjs keys).
template <class F = Fr>
RandomnessT<F> random_randomness();

// Time spent in each stage of one proof, in milliseconds. The prover calls the backend's
// fused stages (cuzk/groth16/backend.hpp): h + msm_h is the time of h_msm, msm_h being
// the backend's "msm_h" span and h the rest (H and any copying to a device);
// msm_l + msm_a + msm_b_g1 + msm_b_g2 is the time of msm_z, msm_l, msm_b_g1 and msm_b_g2
// being the backend's spans and msm_a the rest (the A MSM and building or uploading z).
struct ProofTimings {
    double h = 0, msm_h = 0, msm_l = 0, msm_a = 0, msm_b_g1 = 0, msm_b_g2 = 0, assemble = 0;
    double total() const { return h + msm_h + msm_l + msm_a + msm_b_g1 + msm_b_g2 + assemble; }
};

// Thrown when the witness does not fit the parameters; what() names the mismatch.
class ProverError : public std::invalid_argument {
 public:
    using std::invalid_argument::invalid_argument;
};

// One proof. `density` is the circuit shape's (r1cs::Shape::density()); it says which
// aux variables have points in the a / b queries.
Proof prove(const Parameters& params, const r1cs::Density& density, const Witness& w, const Randomness& rs,
            ProverBackend& backend, ProofTimings* timings = nullptr);

// Several assignments of one circuit (partitions), each with its own randomness.
std::vector<Proof> prove_batch(const Parameters& params, const r1cs::Density& density,
                               std::span<const Witness> witnesses, std::span<const Randomness> rs,
                               ProverBackend& backend, std::vector<ProofTimings>* timings = nullptr);

// The fixed points and queries that the steps after H use: a Parameters' (prove()) or a
// snarkjs key's (cuzk/groth16/zkey.hpp), without copying them.
struct QueryView {
    G1Affine alpha_g1, beta_g1, delta_g1;
    G2Affine beta_g2, delta_g2;
    std::span<const G1Affine> l, a, b_g1;
    std::span<const G2Affine> b_g2;
};

// What prove() does once it has sum_i h_i H_i: the L, A and B MSMs over z = inputs || aux
// (ProverBackend::msm_z; zd: the A and B densities over z, a, b_g1, b_g2 their popcounts
// long; l one point per aux) and the assembly of A, B, C with rs. For provers whose H
// differs from bellperson's (snarkjs keys); t receives the msm_* and assemble times.
Proof prove_with_h_sum(const QueryView& q, const r1cs::ZDensity& zd, std::span<const Fr> inputs,
                       std::span<const Fr> aux, const G1Jacobian& h_sum, const Randomness& rs, ProverBackend& backend,
                       ProofTimings& t);

// The MSM sums of one proof: a = sum z_j A_j, b_g1 and b_g2 likewise over the B queries,
// c = sum_i h_i H_i + sum_aux w_j L_j.
template <class G1C, class G2C>
struct ProofSums {
    Jacobian<G1C> a, b_g1, c;
    Jacobian<G2C> b_g2;
};
// The assembly after the MSMs, for any curve: A = alpha + a + r delta, B = beta + b_g2 +
// s delta (G2), C = c + s A + r (beta + b_g1 + s delta) - r s delta (G1).
template <class G1C, class G2C>
ProofT<G1C, G2C> assemble_proof(const Affine<G1C>& alpha_g1, const Affine<G1C>& beta_g1, const Affine<G1C>& delta_g1,
                                const Affine<G2C>& beta_g2, const Affine<G2C>& delta_g2,
                                const ProofSums<G1C, G2C>& sums, const RandomnessT<typename G1C::Scalar>& rs);

// Called by the moving prove() once the witness's a, b, c are spent (after h_msm): the hook
// may take their storage (to recycle it) or free it, and give back memory it reserved.
// Without a hook the prover frees them.
// abc_ahead: the backend's copy_abc_ahead of this witness's a, b, c, made while an earlier
// proof ran (null: none); prove() hands it to h_msm.
struct ProveHooks {
    std::function<void()> abc_released;
    const AbcAhead* abc_ahead = nullptr;
};

// As prove(), but consumes the witness: a, b and c are the backend's H scratch and are
// released as soon as H and its MSM (h_msm) are done (they are 3/5 of a partition's memory).
Proof prove(const Parameters& params, const r1cs::Density& density, Witness&& w, const Randomness& rs,
            ProverBackend& backend, ProofTimings* timings = nullptr, const ProveHooks* hooks = nullptr);

}  // namespace cuzk::groth16
