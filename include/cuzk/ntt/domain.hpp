// Evaluation domain with bellperson's semantics (filecoin-project/bellperson,
// src/domain.rs, EvaluationDomain), and the Groth16 quotient H.
//
// A domain holds m = 2^k values, where m is the least power of two >= the number of
// values given (the caller has already appended one `input * 0 = 0` constraint per
// public input); missing values are zeros. H = {w^i} for w = root_of_unity(k), and the
// coset is g*H with g = 7. Z(X) = X^m - 1 vanishes on H and equals the constant
// g^m - 1 on the whole coset, so dividing by Z there is one multiplication.
//
// Sizes: 1 .. 2^28 values (bellperson allows up to 2^31; cuzk's NTT stops at 2^28,
// twice the 2^27 of a 32 GiB PoRep partition). Zero values is an error here (bellperson
// would silently make a domain of size 1): every Groth16 circuit has at least the
// `one * 0 = 0` constraint of its ONE input, so an empty a/b/c means a caller bug.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "cuzk/common/default_init_allocator.hpp"
#include "cuzk/ff/bls12_381.hpp"

namespace cuzk::ntt {

class EvaluationDomain {
 public:
    // The domain size for n values: the least power of two >= n. Throws
    // std::invalid_argument for n == 0 or n > 2^kMaxLogSize.
    static size_t size_for(size_t n);

    // Takes the values and pads them with zeros to size_for(values.size()).
    explicit EvaluationDomain(std::vector<Fr> values);

    size_t size() const { return values_.size(); }
    unsigned log_size() const { return log_m_; }
    std::span<Fr> values() { return values_; }
    std::span<const Fr> values() const { return values_; }
    // Hands the values back (the domain is empty afterwards).
    std::vector<Fr> take() && { return std::move(values_); }

    void fft();         // coefficients -> evaluations on H
    void ifft();        // evaluations on H -> coefficients
    void coset_fft();   // coefficients -> evaluations on g*H
    void icoset_fft();  // evaluations on g*H -> coefficients
    // Pointwise division by Z = g^m - 1 (valid for values on the coset g*H).
    void divide_by_z_on_coset();
    // Pointwise product / difference; throws std::invalid_argument on a size mismatch.
    void mul_assign(const EvaluationDomain& other);
    void sub_assign(const EvaluationDomain& other);

    // Z(tau) = tau^m - 1.
    Fr z(const Fr& tau) const;

 private:
    std::vector<Fr> values_;
    unsigned log_m_;
};

// Groth16's quotient H = (A B - C) / Z for the evaluations a, b, c of the circuit's
// A, B, C polynomials on H (one value per constraint, equal lengths): the same field
// elements as bellperson's prover (groth16/prover: execute_fft),
//   a, b, c <- ifft; coset_fft; h = (a b - c) / Z on the coset; h <- icoset_fft,
// with six transforms instead of seven: by linearity icoset_fft(coset_fft(ifft(c))) is
// ifft(c), so h = icoset_fft(a b / Z) - ifft(c) / Z and c skips its coset_fft.
// Returns the m coefficients of h; the top one is zero for a satisfied circuit and the
// first m-1 are the scalars of the H query. The inputs' buffers are reused (pass them
// with std::move to avoid copies). Throws std::invalid_argument for unequal lengths or
// a size that size_for() rejects. Passes are fused where it changes no result:
// ifft's 1/m scaling rides with the coset shift, and 1/Z and - ifft(c) with the final
// pass.
std::vector<Fr> compute_h(std::vector<Fr> a, std::vector<Fr> b, std::vector<Fr> c);
// The same on the witness's storage (r1cs::WitnessVector, as the prover's backends get it);
// h comes back in a's.
DefaultInitVector<Fr> compute_h(DefaultInitVector<Fr> a, DefaultInitVector<Fr> b, DefaultInitVector<Fr> c);

}  // namespace cuzk::ntt
