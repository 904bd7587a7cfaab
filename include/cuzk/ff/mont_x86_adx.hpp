// x86-64 Montgomery multiplication with MULX/ADCX/ADOX (two independent carry chains).
// Chosen at compile time when the compiler targets BMI2 and ADX; the portable CIOS in
// mont_portable.hpp stays built and is the reference it is tested against.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__x86_64__) && defined(__BMI2__) && defined(__ADX__) && !defined(__CUDA_ARCH__) && \
    !defined(CUZK_FF_FORCE_PORTABLE)
#define CUZK_FF_HAVE_ADX 0  // set to 1 once the assembly routines below exist
#else
#define CUZK_FF_HAVE_ADX 0
#endif

namespace cuzk::ff_detail {
template <size_t N>
inline constexpr bool kHaveAdxMul = false;
}  // namespace cuzk::ff_detail
