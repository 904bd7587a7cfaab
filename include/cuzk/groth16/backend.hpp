// The prover-backend interface: the heavy stages of one proof, each of which a backend
// (CPU here; CUDA next) may take over. The prover calls stages, the backend decides how.
// Every call names the query it works on, so a backend can keep that query's bases
// resident (on a device) between proofs, keyed by the span it was given.
//
// The prover calls the two fused stages h_msm and msm_z (which also sums L). Their
// default implementations are written in terms of compute_h / msm_g1 / msm_g2, so a
// backend that implements only those (the CPU backend, test fakes) works unchanged; a
// device backend overrides them to keep h and z on the device and copy each input once.
// Every implementation of h_msm and msm_z marks its parts with trace spans of layer
// "groth16": "h" and "msm_h" inside h_msm, "msm_l", "msm_a", "msm_b_g1" and "msm_b_g2"
// inside msm_z; the prover reads them back for ProofTimings (cuzk/groth16/prover.hpp).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/r1cs/witness_vector.hpp"

namespace cuzk::groth16 {
struct Bn254;
template <class E>
class ZkeyMsm;
}  // namespace cuzk::groth16

namespace cuzk::groth16 {

enum class G1Query { H, L, A, BG1 };
const char* query_name(G1Query q);

// z = inputs || aux of one proof, as msm_z takes it, and the bases msm_z will take; h_msm is
// told them ahead: a device backend copies z while H's MSM runs, and chooses which base sets
// to keep resident with all five of the proof in view (not first come). Empty spans: not
// known.
struct ZInputs {
    std::span<const Fr> inputs, aux;
    std::span<const G1Affine> l_bases = {}, a_bases = {}, b_g1_bases = {};
    std::span<const G2Affine> b_g2_bases = {};
};

// A later proof's a, b, c on their way to a device (ProverBackend::copy_abc_ahead). Dropping
// it waits for its copies; drop it before the backend that made it.
class AbcAhead {
 public:
    virtual ~AbcAhead() = default;
};

// The sums of msm_z: L over aux, and three over z = inputs || aux.
struct ZSums {
    G1Jacobian l;     // sum_j aux_j L_j (every aux variable has an L base)
    G1Jacobian a;     // sum_i z_i A_i over the A density
    G1Jacobian b_g1;  // sum_i z_i B_i in G1 over the B density
    G2Jacobian b_g2;  // the same in G2
};

class ProverBackend {
 public:
    virtual ~ProverBackend() = default;
    virtual std::string name() const = 0;
    // Coefficients of h = (a·b − c) / Z, from the evaluations of A·z, B·z, C·z on the
    // domain (padded with zeros to the domain size m): iNTT, coset NTT, pointwise,
    // division by Z on the coset, coset iNTT. Returns m values; the last is zero.
    // a, b, c are inputs and scratch: on return their contents are unspecified and what
    // storage they still hold is the caller's to reuse (the CPU backend takes it over and
    // frees b and c early; a device backend copies and leaves it).
    virtual r1cs::WitnessVector compute_h(r1cs::WitnessVector& a, r1cs::WitnessVector& b, r1cs::WitnessVector& c) = 0;
    // sum_i scalars[i] * bases[j(i)], where j runs over the set bits of density (bit i
    // of density[i/64]) or over every i when density is null.
    virtual G1Jacobian msm_g1(G1Query query, std::span<const G1Affine> bases, std::span<const Fr> scalars,
                              const uint64_t* density) = 0;
    virtual G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars,
                              const uint64_t* density) = 0;

    // sum_i h_i H_i for the h of compute_h(a, b, c) and the h_bases.size() bases of the
    // H query (m - 1 of them: h's last coefficient is zero). a, b, c as for compute_h.
    // next_z: the z of the same proof, which the next msm_z call will be given (the
    // prover passes it): a backend may copy it now, under the H MSM, and skip that copy
    // in msm_z when it gets the same spans, whose contents must not change in between;
    // with the bases that msm_z call will take (a hint: msm_z's own arguments rule).
    // abc_ahead: from this backend's copy_abc_ahead(a, b, c) for these very vectors, or
    // null; h_msm then starts on the copies already made.
    // Default: compute_h, then msm_g1(G1Query::H, ...); next_z and abc_ahead unused.
    virtual G1Jacobian h_msm(r1cs::WitnessVector& a, r1cs::WitnessVector& b, r1cs::WitnessVector& c,
                             std::span<const G1Affine> h_bases, ZInputs next_z, const AbcAhead* abc_ahead);
    // Starts copying a later proof's a, b, c (as its h_msm will get them; a device backend
    // may copy part of them) to the device while this backend's current proof goes on: a
    // pipeline calls it for proof k + 1 once proof k's h_msm is done
    // (ProveHooks::abc_released), so that the copies run under proof k's other MSMs. The
    // vectors must stay allocated and unchanged until the handle is dropped. nullptr when
    // nothing was started (no device, memory not page-locked, a stage of another proof
    // running, a copy ahead already pending). Default: nullptr.
    virtual std::shared_ptr<AbcAhead> copy_abc_ahead(std::span<const Fr> a, std::span<const Fr> b,
                                                     std::span<const Fr> c) {
        (void)a, (void)b, (void)c;
        return nullptr;
    }
    // The L sum over aux (l_bases: one per aux variable), then the A, B_G1 and B_G2 sums
    // over z = inputs || aux (concatenated); a_density and b_density are bitmaps over z
    // (see msm_g1). One stage so that a device backend copies aux once. Default:
    // msm_g1(L), builds z on the host, then msm_g1(A), msm_g1(BG1), msm_g2.
    virtual ZSums msm_z(std::span<const Fr> inputs, std::span<const Fr> aux, std::span<const G1Affine> l_bases,
                        std::span<const G1Affine> a_bases, std::span<const G1Affine> b_g1_bases,
                        std::span<const G2Affine> b_g2_bases, const uint64_t* a_density, const uint64_t* b_density);
    // The bases that start at `bases` are about to be freed (their parameters left host
    // memory): drop any resident copy keyed by that address, which a later allocation may
    // reuse. Backends that keep nothing ignore it.
    virtual void release(const void* bases) { (void)bases; }
    // The MSMs of a BN254 (snarkjs bn128) proof where this backend runs its own: a circom
    // key on BN254 has no ProverBackend of its own (cuzk/groth16/zkey.hpp). Default: the
    // CPU MSM; the CUDA backend's runs on its device.
    virtual std::unique_ptr<ZkeyMsm<Bn254>> bn254_msm();
};

// The multi-threaded CPU backend (ntt::compute_h, msm::msm).
std::unique_ptr<ProverBackend> make_cpu_backend();

}  // namespace cuzk::groth16
