// Number-theoretic transforms over Fr and Groth16's quotient H on a CUDA device; the
// transforms also over BN254's Fr (the bn254::Fr overloads below; coset shift 5, sizes up
// to 2^28, its two-adicity), as the CPU layer has them.
//
// Same semantics as the CPU layer (cuzk/ntt/ntt.hpp, cuzk/ntt/domain.hpp), element for
// element: n = 2^k elements (0 <= k <= ntt::kMaxLogSize), natural order in and out (unless
// asked otherwise: Order below), Montgomery-form Fr limbs exactly as on the host, so
// buffers copy byte for byte.
//
// Two entry points per operation:
//   - device pointers + a CUDA stream: the data stays on the device; the call enqueues
//     work on the stream and returns (it may block briefly the first time a size is seen,
//     while it builds that size's twiddle table on the current device);
//   - host vectors: copies in, runs on the current device, copies out (for tests, tools).
// Every call checks its arguments (size a power of two, non-null pointers) and throws
// std::invalid_argument naming the problem; a failing CUDA call throws
// std::runtime_error naming the call. Without the CUDA backend every entry point throws
// std::runtime_error("cuzk was built without CUDA").
//
// Device memory: one twiddle table per log-size and device (w^j for j < n/2 with Shoup's
// quotients, 64 B a twiddle: 4 GiB at 2^27), plus 2 x 8 MiB of coset powers; kept until
// clear_twiddle_cache() (or release_twiddles, one size). Natural-order forward / inverse / coset transforms of n >=
// 2^11 also take n x 32 B of scratch (4 GiB at 2^27) from a stream-ordered pool per device, kept for the next call
// until clear_twiddle_cache().
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"

struct CUstream_st;  // cudaStream_t is CUstream_st*; this header needs no CUDA headers
struct CUevent_st;   // cudaEvent_t

namespace cuzk::gpu::ntt {

using Stream = CUstream_st*;  // nullptr: the legacy default stream

// Which kernels run the butterfly stages. kFast: passes of up to 10 stages on tiles of up to
// 1024 elements, 3 stages at a time on 8 elements per thread in registers, with the
// inverse's twiddles and the output scaling of the inverses fused in (sizes below 2^3 use
// kReference); kReference: one plain radix-2 kernel per stage (slow, obviously correct; the
// tests compare the two, and the NTT benchmark checks kFast against it).
enum class Impl { kFast, kReference };

// Transforms in place on d_data[0 .. n) in device memory (see cuzk/ntt/ntt.hpp for the
// formulas): forward DFT, inverse, and the coset versions with shift g = 7.
void forward(Fr* d_data, size_t n, Stream stream, Impl impl = Impl::kFast);
void inverse(Fr* d_data, size_t n, Stream stream, Impl impl = Impl::kFast);
void coset_forward(Fr* d_data, size_t n, Stream stream, Impl impl = Impl::kFast);
void coset_inverse(Fr* d_data, size_t n, Stream stream, Impl impl = Impl::kFast);

// Host-vector versions: copy to the current device, transform, copy back (synchronous).
void forward(std::span<Fr> a, Impl impl = Impl::kFast);
void inverse(std::span<Fr> a, Impl impl = Impl::kFast);
void coset_forward(std::span<Fr> a, Impl impl = Impl::kFast);
void coset_inverse(std::span<Fr> a, Impl impl = Impl::kFast);

// The same transforms with the input and the output each in natural or bit-reversed order
// (element i of a bit-reversed vector stored at rev(i)): the result is the natural-order
// transform's, read and written through the bit reversal where asked. The coset shifts
// scale each element by the power of its own index, whatever the order it is stored in.
// Natural -> bit-reversed (kFast, n >= 2^3) runs the DIF passes alone and bit-reversed ->
// natural the DIT passes alone: no reordering at all, which is what Groth16's H needs
// between its transforms and what sppark's NTT figures time ("NR": natural in,
// bit-reversed out; bench/gpu_ntt.cpp times the same orders). Every other combination and
// path reorders in a pass of its own. An order other than the two throws
// std::invalid_argument.
enum class Order { kNatural, kBitReversed };
void forward(Fr* d_data, size_t n, Stream stream, Order in, Order out, Impl impl = Impl::kFast);
void inverse(Fr* d_data, size_t n, Stream stream, Order in, Order out, Impl impl = Impl::kFast);
void coset_forward(Fr* d_data, size_t n, Stream stream, Order in, Order out, Impl impl = Impl::kFast);
void coset_inverse(Fr* d_data, size_t n, Stream stream, Order in, Order out, Impl impl = Impl::kFast);
void forward(std::span<Fr> a, Order in, Order out, Impl impl = Impl::kFast);
void inverse(std::span<Fr> a, Order in, Order out, Impl impl = Impl::kFast);
void coset_forward(std::span<Fr> a, Order in, Order out, Impl impl = Impl::kFast);
void coset_inverse(std::span<Fr> a, Order in, Order out, Impl impl = Impl::kFast);

// The same transforms over BN254's Fr (cuzk::ntt's bn254::Fr overloads on the CPU: coset
// shift g = 5), with their own twiddle tables (clear_twiddle_cache frees them too).
void forward(bn254::Fr* d_data, size_t n, Stream stream, Impl impl = Impl::kFast);
void inverse(bn254::Fr* d_data, size_t n, Stream stream, Impl impl = Impl::kFast);
void coset_forward(bn254::Fr* d_data, size_t n, Stream stream, Impl impl = Impl::kFast);
void coset_inverse(bn254::Fr* d_data, size_t n, Stream stream, Impl impl = Impl::kFast);
void forward(std::span<bn254::Fr> a, Impl impl = Impl::kFast);
void inverse(std::span<bn254::Fr> a, Impl impl = Impl::kFast);
void coset_forward(std::span<bn254::Fr> a, Impl impl = Impl::kFast);
void coset_inverse(std::span<bn254::Fr> a, Impl impl = Impl::kFast);
void forward(bn254::Fr* d_data, size_t n, Stream stream, Order in, Order out, Impl impl = Impl::kFast);
void inverse(bn254::Fr* d_data, size_t n, Stream stream, Order in, Order out, Impl impl = Impl::kFast);
void coset_forward(bn254::Fr* d_data, size_t n, Stream stream, Order in, Order out, Impl impl = Impl::kFast);
void coset_inverse(bn254::Fr* d_data, size_t n, Stream stream, Order in, Order out, Impl impl = Impl::kFast);
void forward(std::span<bn254::Fr> a, Order in, Order out, Impl impl = Impl::kFast);
void inverse(std::span<bn254::Fr> a, Order in, Order out, Impl impl = Impl::kFast);
void coset_forward(std::span<bn254::Fr> a, Order in, Order out, Impl impl = Impl::kFast);
void coset_inverse(std::span<bn254::Fr> a, Order in, Order out, Impl impl = Impl::kFast);

// Groth16's H exactly as cuzk::ntt::compute_h: for n evaluations a, b, c on the domain of
// m = EvaluationDomain::size_for(n) points, a, b <- iNTT, coset NTT; h = coset iNTT(a b /
// Z) - iNTT(c) / Z, in six transforms: c gets its iNTT alone, as the coset iDFT is linear
// and undoes c's coset DFT (cuzk/ntt/domain.hpp). d_a, d_b, d_c each hold m elements of device memory, the first n
// being the evaluations ([n, m) is zeroed here). On return d_a holds the m coefficients of h (left on the device for
// the H MSM); d_b and d_c are clobbered. It is prepare_h_input(k) on d_a, d_b, d_c (k = 0, 1, 2), then
// quotient_and_coset_inverse.
void compute_h_device(Fr* d_a, Fr* d_b, Fr* d_c, size_t n, Stream stream, Impl impl = Impl::kFast);

// The per-vector step of compute_h_device, so that a caller can transform one vector
// while the next is still being copied in: d holds m = EvaluationDomain::size_for(n)
// elements, the first n being evaluations on the domain of m points; [n, m) is zeroed,
// then d <- coset NTT(iNTT(d)): the evaluations of the same polynomial on the coset gH.
void to_coset_evals(Fr* d, size_t n, Stream stream, Impl impl = Impl::kFast);

// c's step: [n, m) zeroed, then d <- iNTT(d) / Z (Z = g^m - 1), the
// coefficients in bit-reversed order when h_coefficients_bit_reversed(impl, m) (the
// register passes' DIF order: no bit-reversal pass), else in natural order.
void to_scaled_coefficients(Fr* d, size_t n, Stream stream, Impl impl = Impl::kFast);
bool h_coefficients_bit_reversed(Impl impl, size_t m);

// Step k of compute_h_device (0, 1, 2: a, b, c): to_coset_evals for a and b,
// to_scaled_coefficients for c.
void prepare_h_input(unsigned k, Fr* d, size_t n, Stream stream, Impl impl = Impl::kFast);

// The last step of compute_h_device: with d_a, d_b, d_c from prepare_h_input (m elements
// each, m a power of two, the domain size; the same impl), d_a <- the m coefficients of h.
// d_b and d_c are only read.
void quotient_and_coset_inverse(Fr* d_a, const Fr* d_b, const Fr* d_c, size_t m, Stream stream,
                                Impl impl = Impl::kFast);

// quotient_and_coset_inverse in two steps, for a caller that keeps two
// of a, b, c on the device at once (c copied in over b after the quotient has read b):
// quotient_coset_inverse: d_a <- coset iNTT(a b / Z), d_b only read, by the first kernel
// enqueued; `b_read`, when given, is recorded on `stream` right after that kernel (from
// then on d_b may be overwritten). subtract_scaled_c: d_a <- d_a - c, for c from
// prepare_h_input(2) (the same impl), d_c only read.
void quotient_coset_inverse(Fr* d_a, const Fr* d_b, size_t m, Stream stream, Impl impl = Impl::kFast,
                            CUevent_st* b_read = nullptr);
void subtract_scaled_c(Fr* d_a, const Fr* d_c, size_t m, Stream stream, Impl impl = Impl::kFast);

// Host-vector version: a, b, c of equal length n; returns the m coefficients of h.
std::vector<Fr> compute_h(std::span<const Fr> a, std::span<const Fr> b, std::span<const Fr> c, Impl impl = Impl::kFast);

// Frees the cached twiddle and coset-power tables (both fields') of every device and trims
// the scratch pool. Call it only while no transform is in flight.
void clear_twiddle_cache();
// The register passes' twiddle table of size n (a power of two from 2 to 2^kMaxLogSize) on the
// current device, managed one size at a time: prepare_twiddles builds it now on `stream`
// (synchronously: a caller about to start copies builds it first, so that the build does not
// wait for them), release_twiddles frees it after the work enqueued on `stream` and returns
// its memory to the device (no device-wide synchronisation; 0 when it was not built), and
// twiddle_table_bytes(n) is what it takes (32 B x n + 64 with Shoup's quotients: 4 GiB at 2^27).
// The CUDA backend lends those bytes to its MSMs between H steps on a small budget
// (cuzk/gpu/memory_plan.hpp's lend_twiddles). A transform that finds its table released
// builds it again.
void prepare_twiddles(size_t n, Stream stream);
size_t release_twiddles(size_t n, Stream stream);
size_t twiddle_table_bytes(size_t n);

}  // namespace cuzk::gpu::ntt
