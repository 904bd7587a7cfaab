// Host/device annotations shared by every layer that also compiles under nvcc.
// One storage layout for host and device: plain uint64_t limbs, so buffers copy
// byte for byte; these macros are empty in a host-only compiler.
#pragma once

#if defined(__CUDACC__)
#define CUZK_HD __host__ __device__
#define CUZK_HD_INLINE __host__ __device__ __forceinline__
#define CUZK_DEVICE_CODE_PATH 1
#else
#define CUZK_HD
#define CUZK_HD_INLINE inline __attribute__((always_inline))
#endif

// True while compiling the device side of a CUDA translation unit.
#if defined(__CUDA_ARCH__)
#define CUZK_IN_DEVICE 1
#else
#define CUZK_IN_DEVICE 0
#endif

// Full unrolling of short fixed-trip loops (limb loops).
// (nvcc preprocesses the device and host passes separately: only the device pass sees
// `#pragma unroll`; the host compiler gets its own spelling.)
#if defined(__CUDA_ARCH__)
#define CUZK_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__)
#define CUZK_UNROLL  // host pass of a .cu file: neither cudafe nor gcc accept the other's pragma
#elif defined(__clang__)
#define CUZK_UNROLL _Pragma("clang loop unroll(full)")
#else
#define CUZK_UNROLL _Pragma("GCC unroll 16")
#endif
