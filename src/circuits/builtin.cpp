#include "cuzk/circuits/builtin.hpp"

#include <stdexcept>

#include "cuzk/r1cs/sha256_bytes.hpp"

namespace cuzk::circuits {

std::vector<Fr> Sha256Chain::public_inputs() const {
    std::array<uint8_t, 64> block = preimage;
    std::array<uint8_t, 32> digest{};
    for (size_t k = 0; k < blocks; ++k) {
        std::array<uint32_t, 8> st = kSha256Iv;
        sha256_compress(st, block.data());
        for (size_t w = 0; w < 8; ++w)
            for (size_t b = 0; b < 4; ++b) digest[4 * w + b] = uint8_t(st[w] >> (24 - 8 * b));
        std::copy(digest.begin(), digest.end(), block.begin());
        std::copy(digest.begin(), digest.end(), block.begin() + 32);
    }
    return gadgets::compute_multipacking(gadgets::bytes_to_bits(digest));
}

std::vector<Fr> RandomDense::public_inputs() const {
    std::mt19937_64 rng(seed);
    std::vector<Fr> x;
    for (size_t i = 0; i < inputs; ++i) x.push_back(Fr::random(rng));
    return x;
}

namespace {
// sha256-chain's sizes: base + blocks x per block (pinned by tests/circuits/test_builtin.cpp).
constexpr uint64_t kShaBaseAux = 512, kShaBlockAux = 25814;
constexpr uint64_t kShaBaseConstraints = 517, kShaBlockConstraints = 25840;
constexpr uint64_t kShaBaseNnz[3] = {1475, 514, 2}, kShaBlockNnz[3] = {59264, 25872, 56886};
constexpr uint64_t kShaCoeffs = 1024;  // powers of two and their negations: a few hundred
}  // namespace

size_t sha256_blocks_for(size_t constraints) { return std::max<size_t>(1, (constraints + 12800) / 25600); }

std::vector<std::string> builtin_names() { return {"sha256-chain", "random-dense"}; }

namespace {
void check_builtin(const std::string& name, size_t size) {
    if (size == 0 || size > (size_t(1) << 28))
        throw std::invalid_argument("circuit size must be in [1, 2^28], got " + std::to_string(size));
    for (const auto& n : builtin_names())
        if (n == name) return;
    std::string known;
    for (const auto& n : builtin_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown circuit '" + name + "' (known: " + known + ")");
}
}  // namespace

r1cs::ShapeCounts builtin_counts(const std::string& name, size_t size, size_t inputs) {
    check_builtin(name, size);
    const uint64_t n = size;
    r1cs::ShapeCounts c;
    if (name == "sha256-chain") {
        // Each block adds the same gadgets; the preimage bits and the packing are the base.
        c.num_inputs = 3;  // ONE and the two packed halves of the digest
        c.num_aux = kShaBaseAux + n * kShaBlockAux;
        c.num_constraints = kShaBaseConstraints + n * kShaBlockConstraints;
        c.nnz_a = kShaBaseNnz[0] + n * kShaBlockNnz[0];
        c.nnz_b = kShaBaseNnz[1] + n * kShaBlockNnz[1];
        c.nnz_c = kShaBaseNnz[2] + n * kShaBlockNnz[2];
        c.coeffs = kShaCoeffs;
        return c;
    }
    // random-dense: w_k = (c_k v_i + v_j)(v_l + d_k) for k < size, then input_i * 0 = 0.
    c.num_inputs = inputs + 1;
    c.num_aux = n + 1;
    c.num_constraints = n + inputs + 1;
    c.nnz_a = 2 * n + inputs + 1;
    c.nnz_b = 2 * n;
    c.nnz_c = n;
    c.coeffs = 2 * n + 2;  // c_k and d_k are drawn at random; 1 and -1
    return c;
}

BuiltinCircuit make_builtin(const std::string& name, size_t size, uint64_t seed, size_t inputs) {
    check_builtin(name, size);
    if (name == "sha256-chain") {
        Sha256Chain c;
        c.blocks = size;
        std::mt19937_64 rng(seed);
        for (auto& b : c.preimage) b = uint8_t(rng());
        auto x = c.public_inputs();
        return {groth16::make_circuit(c, "sha256-chain(" + std::to_string(size) + ")"), std::move(x)};
    }
    if (name == "random-dense") {
        RandomDense c;
        c.constraints = size;
        c.inputs = inputs;
        c.seed = seed;
        auto x = c.public_inputs();
        return {groth16::make_circuit(c, "random-dense(" + std::to_string(size) + ")"), std::move(x)};
    }
    std::string known;
    for (const auto& n : builtin_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown circuit '" + name + "' (known: " + known + ")");
}

}  // namespace cuzk::circuits
