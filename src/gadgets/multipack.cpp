#include "cuzk/gadgets/multipack.hpp"

namespace cuzk::gadgets {

std::vector<Fr> compute_multipacking(const std::vector<bool>& bits) {
    std::vector<Fr> out;
    for (size_t i = 0; i < bits.size(); i += kFrCapacity) {
        Fr cur = Fr::zero();
        for (size_t j = 0; j < kFrCapacity && i + j < bits.size(); ++j)
            if (bits[i + j]) cur += r1cs::pow2(j);
        out.push_back(cur);
    }
    return out;
}

std::vector<bool> bytes_to_bits(std::span<const uint8_t> bytes) {
    std::vector<bool> out;
    out.reserve(bytes.size() * 8);
    for (uint8_t b : bytes)
        for (int i = 7; i >= 0; --i) out.push_back((b >> i) & 1);
    return out;
}

std::vector<bool> bytes_to_bits_le(std::span<const uint8_t> bytes) {
    std::vector<bool> out;
    out.reserve(bytes.size() * 8);
    for (uint8_t b : bytes)
        for (int i = 0; i < 8; ++i) out.push_back((b >> i) & 1);
    return out;
}

}  // namespace cuzk::gadgets
