// One device of the engine's status as the gRPC GPUStatus: Curio's fields (1-6) and cuzk's
// per-device state after them (7 on: partitions, residency of the base sets, the H step's
// vectors, lent NTT twiddles), the same figures as the status JSON's "devices".
#pragma once

#include "cuzk/engine/engine.hpp"
#include "cuzk/v1/proving.pb.h"

namespace cuzk::server {

void fill_gpu_status(const engine::DeviceStatus& d, v1::GPUStatus* g);

}  // namespace cuzk::server
