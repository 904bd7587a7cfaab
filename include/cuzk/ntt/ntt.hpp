// Radix-2 number-theoretic transforms over the BLS12-381 scalar field Fr, on the CPU; the
// same for BN254's Fr (two-adicity 28, generator 5) through the bn254::Fr overloads.
//
// All transforms work in place on 2^k elements (0 <= k <= kMaxLogSize), natural order
// in and natural order out, and are multi-threaded through cuzk::parallel_for. With
// w = root_of_unity(k) and n = 2^k:
//   forward:        A_j = sum_i a_i w^(i j)
//   inverse:        a_i = n^-1 sum_j A_j w^(-i j)
//   coset_forward:  A_j = sum_i a_i g^i w^(i j)  = a(g w^j) for a polynomial a, g = 7
//   coset_inverse:  the inverse of coset_forward
// These are bellperson's EvaluationDomain fft / ifft / coset_fft / icoset_fft
// (src/domain.rs), so outputs agree element by element.
//
// The transforms keep one twiddle table per log-size they have seen (n/2 elements of
// 32 bytes, i.e. 16 bytes per transformed element: 2 GiB at 2^27); clear_twiddle_cache()
// frees them.
#pragma once

#include <cstddef>
#include <span>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"

namespace cuzk::ntt {

inline constexpr unsigned kMaxLogSize = 28;     // the largest supported transform is 2^28
inline constexpr uint64_t kCosetGenerator = 7;  // Fr's multiplicative generator (bellperson, ff)

// A primitive 2^log_n-th root of unity: w_32 = 7^((r-1)/2^32), squared 32-log_n times
// (BN254: w_28 = 5^((r-1)/2^28)). Throws std::invalid_argument above the two-adicity.
template <class F = Fr>
F root_of_unity(unsigned log_n);

// The coset shift g (the field's multiplicative generator: 7, BN254 5) and its inverse.
template <class F = Fr>
F coset_generator();
template <class F = Fr>
F coset_generator_inverse();

// log2 of a.size(); throws std::invalid_argument naming `what` when the size is zero,
// not a power of two, or above 2^kMaxLogSize.
unsigned checked_log_size(size_t size, const char* what);

void forward(std::span<Fr> a);
void inverse(std::span<Fr> a);
void coset_forward(std::span<Fr> a);
void coset_inverse(std::span<Fr> a);
void forward(std::span<bn254::Fr> a);
void inverse(std::span<bn254::Fr> a);
void coset_forward(std::span<bn254::Fr> a);
void coset_inverse(std::span<bn254::Fr> a);

// a_i <-> a_rev(i), rev reversing the log2(a.size()) bits of the index (multi-threaded):
// a vector in natural order to bit-reversed and back. Size checked as the transforms do.
void bit_reverse(std::span<Fr> a);
void bit_reverse(std::span<bn254::Fr> a);

// a_i *= c * s^i for every i (multi-threaded); the building block of the coset shifts.
void distribute_powers(std::span<Fr> a, const Fr& c, const Fr& s);
void distribute_powers(std::span<bn254::Fr> a, const bn254::Fr& c, const bn254::Fr& s);

// Frees every cached twiddle table (they are rebuilt on demand). Safe to call at any
// time: a transform in flight keeps the table it uses alive.
void clear_twiddle_cache();

namespace detail {
// Building blocks shared with the evaluation domain (domain.cpp) to fuse passes.
// The unscaled inverse DFT: forward(), then index reversal j <-> n-j. Multiply by
// n^-1 afterwards to get inverse().
void inverse_unscaled(std::span<Fr> a);
void inverse_unscaled(std::span<bn254::Fr> a);
}  // namespace detail

}  // namespace cuzk::ntt
