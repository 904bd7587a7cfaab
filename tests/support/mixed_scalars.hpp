// Scalars for the device MSM tests: 0, 1, -1 (r - 1, the largest), small values, a repeated
// value (one large bucket in every window) and random full-size ones, over any scalar field.
#pragma once

#include <cstddef>
#include <random>
#include <vector>

namespace cuzk::test {

template <class F>
std::vector<F> mixed_scalars(size_t n, std::mt19937_64& rng) {
    std::vector<F> s(n);
    const F repeated = F::random(rng);
    for (auto& x : s) {
        switch (rng() % 8) {
            case 0:
                x = F::zero();
                break;
            case 1:
                x = F::one();
                break;
            case 2:
                x = -F::one();
                break;
            case 3:
                x = F::from_u64(rng() % 1000);
                break;
            case 4:
                x = repeated;
                break;
            default:
                x = F::random(rng);
        }
    }
    return s;
}

}  // namespace cuzk::test
