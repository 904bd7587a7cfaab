// Groth16 keys, witnesses and constraint systems of the circom/snarkjs world, and the
// prover that takes them (snarkjs 0.7.6 src/groth16_prove.js; the file formats are read by
// cuzk/formats/circom.hpp).
//
// A snarkjs key differs from bellperson's (cuzk/groth16/keys.hpp) in three ways:
//   - it holds the A and B matrices (the "coefficient" section), not the circuit: the
//     prover evaluates A·w and B·w per constraint and takes C·w = (A·w)∘(B·w), which holds
//     on the domain for a satisfied witness (the C part of the circuit lives in the C and
//     IC points only);
//   - its H points are [L_{2i+1}(tau)/delta]_1, the Lagrange polynomials of the odd points
//     of the 2n-th roots of unity, not tau^i Z(tau)/delta: the H scalars are A·B − C
//     evaluated on the coset w_2n·<w_n>, with no division by Z (docs/snarkjs-formats.md);
//   - its roots of unity are ffjavascript's, w_{2^k} = (5^t)^(2^(s−k)) with r − 1 = 2^s t,
//     not those of cuzk's NTT (generator 7): the prover maps between the two orders.
// The signals are w = (1, outputs, public inputs, private ones): the first n_public + 1 are
// the proof's public inputs (ONE included), the rest its aux variables.
//
// Everything is a template over a curve description (cuzk/groth16/curves.hpp: Bls12_381,
// Bn254), built for both. The MSMs of a BLS12-381 proof run on a ProverBackend (CPU or
// CUDA); those of a BN254 proof on a ZkeyMsm (below) that a ProverBackend gives
// (ProverBackend::bn254_msm: the CPU MSM or the device's).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/groth16/backend.hpp"
#include "cuzk/groth16/curves.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/r1cs/shape.hpp"

namespace cuzk::groth16 {

// One sparse matrix of a snarkjs key or a circom .r1cs, by rows (constraints): the terms of
// row i are [row_ptr[i], row_ptr[i + 1]), each a signal and its coefficient (normal form).
template <class F>
struct SparseRows {
    std::vector<uint64_t> row_ptr{0};
    std::vector<uint32_t> signal;
    std::vector<F> coeff;
    size_t rows() const { return row_ptr.size() - 1; }
    size_t terms() const { return signal.size(); }
};

// A snarkjs Groth16 .zkey, decoded. a, b1 and b2 hold only the points that are not at
// infinity, in signal order; z_density says which signals they belong to (bit i of a[i/64]:
// signal i has a point in a), in the layout the prover's backends take (r1cs::ZDensity).
template <class E>
struct Zkey {
    using G1A = Affine<typename E::G1>;
    using G2A = Affine<typename E::G2>;
    uint32_t n_vars = 0;       // signals, ONE included
    uint32_t n_public = 0;     // outputs + public inputs (ONE excluded)
    uint32_t domain_size = 0;  // n, a power of two
    G1A alpha_1, beta_1, delta_1;
    G2A beta_2, gamma_2, delta_2;
    std::vector<G1A> ic;                        // n_public + 1
    SparseRows<typename E::Fr> a_rows, b_rows;  // domain_size rows each
    std::vector<G1A> a, b1;                     // non-infinity points of sections 5 and 6
    std::vector<G2A> b2;                        // of section 7
    std::vector<G1A> c;                         // n_vars - n_public - 1 (section 8, one per aux signal)
    std::vector<G1A> h;                         // domain_size (section 9)
    r1cs::ZDensity z_density;                   // over the n_vars signals: a (sections 5), b (6 and 7)
};

// A .zkey's contents before compaction, as a writer takes them (formats::circom::
// zkey_to_bytes): a, b1, b2 one point per signal, at infinity where a signal has none.
template <class E>
struct ZkeyContents {
    uint32_t n_vars = 0, n_public = 0, domain_size = 0;
    Affine<typename E::G1> alpha_1, beta_1, delta_1;
    Affine<typename E::G2> beta_2, gamma_2, delta_2;
    std::vector<Affine<typename E::G1>> ic, a, b1, c, h;
    std::vector<Affine<typename E::G2>> b2;
    SparseRows<typename E::Fr> a_rows, b_rows;
};

// A snarkjs .wtns: the values of every signal, ONE first.
template <class E>
struct Wtns {
    std::vector<typename E::Fr> values;
};

// A circom .r1cs: constraints A·w ∘ B·w = C·w over the wires (wire 0 is ONE).
template <class E>
struct CircomR1cs {
    uint32_t n_wires = 0, n_pub_out = 0, n_pub_in = 0, n_prv_in = 0;
    uint64_t n_labels = 0;
    SparseRows<typename E::Fr> a, b, c;   // n_constraints rows each
    std::vector<uint64_t> wire_to_label;  // n_wires (empty when the file has no map section)
    size_t n_constraints() const { return a.rows(); }
    uint32_t n_public() const { return n_pub_out + n_pub_in; }
};

// ffjavascript's primitive 2^log_n-th root of unity of Fr (generator 5; see the header).
template <class E>
typename E::Fr snarkjs_root_of_unity(unsigned log_n);

// Why a witness cannot be proven with a key: nullopt when its length, ONE and (with an
// .r1cs) its constraints are right; otherwise what is wrong, naming the first failing
// constraint ("constraint 17 of 65000 (A·w)(B·w) != C·w: ...").
template <class E>
std::optional<std::string> check_witness(const Zkey<E>& key, std::span<const typename E::Fr> w,
                                         const CircomR1cs<E>* r1cs = nullptr);
// The .r1cs against the key: counts agree and every A and B row matches the key's
// coefficient section. nullopt when they agree.
template <class E>
std::optional<std::string> check_r1cs_matches(const Zkey<E>& key, const CircomR1cs<E>& r1cs);

// The H scalars of snarkjs' prover for the witness w: A·B − C on the odd coset, in the
// order of the key's H points (domain_size values). Exposed for tests.
template <class E>
std::vector<typename E::Fr> zkey_h_scalars(const Zkey<E>& key, std::span<const typename E::Fr> w);

// The MSMs of a proof on a curve without a ProverBackend (BN254): where a GPU MSM for the
// curve plugs in. Each returns sum_i scalars[i] bases[i] (the spans have one length).
template <class E>
class ZkeyMsm {
 public:
    virtual ~ZkeyMsm() = default;
    virtual std::string name() const = 0;
    virtual Jacobian<typename E::G1> msm_g1(std::span<const Affine<typename E::G1>> bases,
                                            std::span<const typename E::Fr> scalars) = 0;
    virtual Jacobian<typename E::G2> msm_g2(std::span<const Affine<typename E::G2>> bases,
                                            std::span<const typename E::Fr> scalars) = 0;
};
// The CPU MSMs of a BN254 proof for a --backend name: "cpu" and "auto" the CPU MSM
// (cuzk/msm/msm.hpp); "cuda" throws std::invalid_argument: the device's BN254 MSM is a
// CUDA ProverBackend's bn254_msm() (cuzk/backend/backend.hpp), above this layer.
std::unique_ptr<ZkeyMsm<Bn254>> select_zkey_msm(const std::string& backend);

// The proof of w under key, blinded by rs, its MSMs on backend: refused (ProverError)
// before any MSM when check_witness fails. public_signals() gives what snarkjs writes to
// public.json.
Proof prove_zkey(const Zkey<Bls12_381>& key, std::span<const Fr> w, const Randomness& rs, ProverBackend& backend,
                 const CircomR1cs<Bls12_381>* r1cs = nullptr, ProofTimings* timings = nullptr);
ProofOn<Bn254> prove_zkey(const Zkey<Bn254>& key, std::span<const bn254::Fr> w, const RandomnessT<bn254::Fr>& rs,
                          ZkeyMsm<Bn254>& msm, const CircomR1cs<Bn254>* r1cs = nullptr,
                          ProofTimings* timings = nullptr);
template <class E>
std::span<const typename E::Fr> public_signals(const Zkey<E>& key, std::span<const typename E::Fr> w) {
    return w.subspan(1, key.n_public);
}

// Development keys for a circom circuit, as `snarkjs groth16 setup` lays them out
// (snarkjs 0.7.6 src/zkey_new.js) but from toxic waste that this process knows: NOT a
// trusted setup. gamma is 1 (the G2 generator), as in every snarkjs key; tw.gamma is
// unused. The domain is the least power of two >= constraints + public signals + 1.
// Throws std::invalid_argument when that exceeds 2^28 or tau is on the domain.
template <class E>
ZkeyContents<E> setup_zkey(const CircomR1cs<E>& r1cs, const ToxicWasteT<typename E::Fr>& tw);

// The key's verifying key (beta_1 and delta_1 included, which snarkjs' vk JSON lacks).
template <class E>
VerifyingKeyOn<E> verifying_key(const Zkey<E>& key);

}  // namespace cuzk::groth16
