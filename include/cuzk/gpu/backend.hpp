// The CUDA prover backend and backend selection.
//
// make_cuda_backend: H on the device (gpu::ntt::compute_h) and every MSM on the device
// (gpu::Msm), with each query's bases uploaded once and kept resident, keyed by the
// span the prover passes (the Parameters' vectors), so a second proof with the same
// parameters uploads nothing but scalars.
//
// select_backend("cpu" | "cuda" | "auto"): "auto" takes CUDA when the build has it, a
// GPU is present and CUZK_NO_GPU is unset, else the CPU; `why` says which and why (the
// reason for a fallback), for the caller to log. "cuda" without a usable GPU throws.
#pragma once

#include <memory>
#include <string>

#include "cuzk/groth16/backend.hpp"

namespace cuzk::gpu {

std::unique_ptr<groth16::ProverBackend> make_cuda_backend(int device = 0);

std::unique_ptr<groth16::ProverBackend> select_backend(const std::string& name, std::string* why = nullptr);

}  // namespace cuzk::gpu
