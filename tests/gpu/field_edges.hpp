// Field values at the edges of the word arithmetic, shared by the device field tests:
// 0, 1, 2, p-1, p-2, (p-1)/2, and raw Montgomery limbs near the top of the range
// (p-1; all ones below bit 380 / 254, i.e. just under 2^381 / 2^255 at the word level;
// 0xffffffff in every low 32-bit half). Every one is a valid (fully reduced) element.
#pragma once

#include <vector>

#include "cuzk/ff/bls12_381.hpp"

namespace cuzk::test {

template <class F>
std::vector<F> field_edge_values() {
    const F two = F::one() + F::one();
    std::vector<F> v = {F::zero(), F::one(), two, -F::one(), -two};
    const typename F::Big half = F::kP.shr(1);
    v.push_back(F::from_bigint_unchecked(half));
    v.push_back(F::from_raw_montgomery(half));
    typename F::Big top = F::kP;
    top.l[0] -= 1;  // p is odd: no borrow
    v.push_back(F::from_raw_montgomery(top));
    typename F::Big ones = F::Big::zero();
    for (size_t i = 0; i < F::N; ++i) ones.l[i] = ~uint64_t(0);
    ones.l[F::N - 1] = (uint64_t(1) << ((F::kBits - 1) % 64)) - 1;
    v.push_back(F::from_raw_montgomery(ones));
    typename F::Big low_halves = F::Big::zero();
    for (size_t i = 0; i < F::N; ++i) low_halves.l[i] = 0xffffffffULL;
    v.push_back(F::from_raw_montgomery(low_halves));
    // Word 0 zero and raw 1: with them a reduction step meets E_0 = 0 (m = 0), the special
    // case of the sparse-low-words reduction (mont_ptx.hpp, SparseLowWords).
    typename F::Big word0_zero = F::Big::zero();
    word0_zero.l[0] = 0xffffffff00000000ULL;
    v.push_back(F::from_raw_montgomery(word0_zero));
    v.push_back(F::from_raw_montgomery(F::Big::from_u64(1)));
    return v;
}

}  // namespace cuzk::test
