# CUZK_CUDA=AUTO|ON|OFF -> CUZK_HAVE_CUDA. Compiles for sm_90 (H100/H200) unless
# CMAKE_CUDA_ARCHITECTURES says otherwise.
#
# CUZK_CUDA_CHECK_ONLY=ON (scripts/test on a machine without a GPU, i.e. CI): every CUDA
# source still goes through nvcc's front end and device code generation, but to PTX only
# (compute_90, no sm_90 assembly) and with NVVM's optimizer off (-Xcicc -O0), for
# binaries whose device code never runs there. Measured on the 2-core dev machine:
# msm_g2.cu 285 -> 50 s, msm.cu 114 -> 24 s, most of the CUDA part of the
# CI build. The inline PTX (cuzk/ff/mont_ptx.hpp's DeviceIsa: every asm statement of the
# project) is still assembled by ptxas for sm_90 through bench/gpu_field.cu, which uses
# each instruction and keeps the full pipeline (cuzk_cuda_check_only_target below).
option(CUZK_CUDA_CHECK_ONLY "Compile CUDA device code to unoptimised PTX only (CI without a GPU)" OFF)
set(CUZK_HAVE_CUDA OFF)
if(NOT CUZK_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      if(CUZK_CUDA_CHECK_ONLY)
        set(CMAKE_CUDA_ARCHITECTURES 90-virtual)
      else()
        set(CMAKE_CUDA_ARCHITECTURES 90)
      endif()
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    # CMake 3.25 does not know nvcc 13's C++20 flags (generation fails with "does not
    # support CUDA20"), so they are named here.
    if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} --expt-relaxed-constexpr")
    set(CUZK_HAVE_CUDA ON)
    message(STATUS "cuzk: CUDA backend ON (${CMAKE_CUDA_COMPILER}, arch ${CMAKE_CUDA_ARCHITECTURES})")
  elseif(CUZK_CUDA STREQUAL "ON")
    message(FATAL_ERROR "CUZK_CUDA=ON but no CUDA compiler (nvcc) was found")
  else()
    message(STATUS "cuzk: CUDA backend OFF (no nvcc found)")
  endif()
else()
  message(STATUS "cuzk: CUDA backend OFF (CUZK_CUDA=OFF)")
endif()

# Per target, with CUZK_CUDA_CHECK_ONLY: NVVM's optimizer off for the CUDA sources, except
# the field bench, which is assembled for sm_90 as in a normal build (see above).
function(cuzk_cuda_check_only_target target)
  if(NOT CUZK_HAVE_CUDA OR NOT CUZK_CUDA_CHECK_ONLY)
    return()
  endif()
  if(target STREQUAL "cuzk_bench_gpu_field")
    set_property(TARGET ${target} PROPERTY CUDA_ARCHITECTURES 90)
  else()
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcicc=-O0>)
  endif()
endfunction()
