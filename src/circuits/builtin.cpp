#include "cuzk/circuits/builtin.hpp"

#include <algorithm>
#include <stdexcept>

#include "cuzk/hash/sha256.hpp"

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

size_t random_dense_min_size(size_t inputs) { return inputs + 1 + (inputs + 3) / 3; }

void check_builtin(const std::string& name, size_t size, size_t inputs) {
    const auto names = builtin_names();
    if (std::find(names.begin(), names.end(), name) == names.end()) {
        std::string known;
        for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
        throw std::invalid_argument("unknown circuit '" + name + "' (known: " + known + ")");
    }
    if (size == 0 || size > kMaxBuiltinSize)
        throw std::invalid_argument(name + " size must be in [1, 2^28], got " + std::to_string(size));
    if (name == "random-dense" && (inputs >= size || size < random_dense_min_size(inputs))) {
        // The input count is bounded by the size: nothing is allocated for it before here.
        throw std::invalid_argument("random-dense with " + std::to_string(inputs) +
                                    " public inputs needs a size (constraint count) of at "
                                    "least " +
                                    std::to_string(random_dense_min_size(inputs)) + ", got " + std::to_string(size) +
                                    ": " + std::to_string(inputs + 1) +
                                    " input constraints, and products that read every input once");
    }
}

r1cs::ShapeCounts builtin_counts(const std::string& name, size_t size, size_t inputs) {
    check_builtin(name, size, inputs);
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
    // random-dense: p = size - inputs - 1 products w_k = (c_k v_i + v_j)(v_l + d_k), then
    // input_i * 0 = 0 for ONE and each input.
    const uint64_t p = n - inputs - 1;
    c.num_inputs = inputs + 1;
    c.num_aux = p + 1;
    c.num_constraints = n;
    c.nnz_a = 2 * p + inputs + 1;
    c.nnz_b = 2 * p;
    c.nnz_c = p;
    c.coeffs = 2 * p + 2;  // c_k and d_k are drawn at random; 1 and -1
    return c;
}

BuiltinCircuit make_builtin(const std::string& name, size_t size, uint64_t seed, size_t inputs) {
    check_builtin(name, size, inputs);
    if (name == "sha256-chain") {
        Sha256Chain c;
        c.blocks = size;
        std::mt19937_64 rng(seed);
        for (auto& b : c.preimage) b = uint8_t(rng());
        auto x = c.public_inputs();
        return {groth16::make_circuit(c, "sha256-chain(" + std::to_string(size) + ")"), std::move(x)};
    }
    RandomDense c;
    c.constraints = size;
    c.inputs = inputs;
    c.seed = seed;
    auto x = c.public_inputs();
    return {groth16::make_circuit(c, "random-dense(" + std::to_string(size) + ")"), std::move(x)};
}

}  // namespace cuzk::circuits
