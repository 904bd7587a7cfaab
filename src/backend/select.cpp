// Backend selection, built in every configuration (the CUDA backend itself is in
// backend/cuda/cuda_backend.cu, or a stub that says "built without CUDA").
#include <cstdlib>
#include <stdexcept>

#include "cuzk/backend/backend.hpp"
#include "cuzk/gpu/device.hpp"

namespace cuzk::gpu {

void check_backend_name(const std::string& name) {
    if (name != "cpu" && name != "cuda" && name != "auto")
        throw std::invalid_argument("unknown backend '" + name + "' (cpu, cuda or auto)");
}

std::unique_ptr<groth16::ProverBackend> select_backend(const std::string& name, std::string* why) {
    auto say = [why](std::string s) {
        if (why) *why = std::move(s);
    };
    if (name == "cpu") {
        say("cpu: asked for");
        return groth16::make_cpu_backend();
    }
    check_backend_name(name);
    std::string reason;
    if (const char* off = std::getenv("CUZK_NO_GPU"); off && *off && std::string(off) != "0") {
        reason = "CUZK_NO_GPU is set";
    } else if (!built_with_cuda()) {
        reason = "built without CUDA";
    } else if (device_count(&reason) > 0) {
        say("cuda: device 0");
        return make_cuda_backend(0);
    }
    if (name == "cuda") throw std::runtime_error("backend cuda unavailable: " + reason);
    say("cpu: fallback from auto (" + reason + ")");
    return groth16::make_cpu_backend();
}

}  // namespace cuzk::gpu
