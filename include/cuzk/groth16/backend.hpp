// The prover-backend interface: the heavy stages of one proof, each of which a backend
// (CPU here; CUDA next) may take over. The prover calls stages, the backend decides how.
// Every call names the query it works on, so a backend can keep that query's bases
// resident (on a device) between proofs, keyed by the span it was given.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ff/bls12_381.hpp"

namespace cuzk::groth16 {

enum class G1Query { H, L, A, BG1 };
const char* query_name(G1Query q);

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
    virtual std::vector<Fr> compute_h(std::vector<Fr>& a, std::vector<Fr>& b, std::vector<Fr>& c) = 0;
    // sum_i scalars[i] * bases[j(i)], where j runs over the set bits of density (bit i
    // of density[i/64]) or over every i when density is null.
    virtual G1Jacobian msm_g1(G1Query query, std::span<const G1Affine> bases, std::span<const Fr> scalars,
                              const uint64_t* density) = 0;
    virtual G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars,
                              const uint64_t* density) = 0;
    // The bases that start at `bases` are about to be freed (their parameters left host
    // memory): drop any resident copy keyed by that address, which a later allocation may
    // reuse. Backends that keep nothing ignore it.
    virtual void release(const void* bases) { (void)bases; }
};

// The multi-threaded CPU backend (ntt::compute_h, msm::msm).
std::unique_ptr<ProverBackend> make_cpu_backend();

}  // namespace cuzk::groth16
