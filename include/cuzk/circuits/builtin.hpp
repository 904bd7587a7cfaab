// cuzk's built-in circuits, for tests, benchmarks and the command line's default job.
//
//   sha256-chain  N SHA-256 compressions: a private 64-byte preimage x_0, then
//                 d_1 = compress(IV, x_0) and d_{k+1} = compress(IV, d_k || d_k); the
//                 final digest is packed into 2 public inputs (multipack). Scalars are
//                 mostly 0/1, like Filecoin's SHA-256 and Merkle circuits. ~25.6k
//                 constraints a block.
//   random-dense  N constraints in all: the M + 1 input constraints (M public inputs and
//                 ONE) and N - M - 1 products w_k = (c_k v_i + v_j) (v_l + d_k) over
//                 full-size random values: every MSM scalar is full-size. The first
//                 products read the inputs and the first private value in turn (the
//                 other reads are random), so that every variable is in some constraint:
//                 a variable in none has the identity as its L or IC point, which no key
//                 file may hold.
// Both are deterministic in their seed, so the shape and the witness always agree.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuzk/groth16/circuit.hpp"

namespace cuzk::circuits {

struct Sha256Chain {
    size_t blocks = 1;
    std::array<uint8_t, 64> preimage{};
    // The public inputs (ONE excluded) a valid proof is checked against.
    std::vector<Fr> public_inputs() const;
    template <class CS>
    void synthesize(CS& cs) const;
};

struct RandomDense {
    size_t constraints = 3;  // input constraints included: at least random_dense_min_size(inputs)
    size_t inputs = 1;       // public inputs, ONE excluded
    uint64_t seed = 1;
    std::vector<Fr> public_inputs() const;
    template <class CS>
    void synthesize(CS& cs) const;
};

// The fewest constraints of a random-dense circuit with `inputs` public inputs: the
// inputs + 1 input constraints and enough products (3 reads each) to read every input and
// the first private value.
size_t random_dense_min_size(size_t inputs);

// Checks a built-in circuit's name, size and (random-dense) inputs before any work;
// throws std::invalid_argument naming the known circuits for an unknown name, and the
// allowed range for a size or input count out of range.
inline constexpr size_t kMaxBuiltinSize = size_t(1) << 28;
void check_builtin(const std::string& name, size_t size, size_t inputs = 4);

// A built-in circuit by name with its size parameter and seed; the public inputs come
// with it. Throws as check_builtin does.
struct BuiltinCircuit {
    std::unique_ptr<groth16::Circuit> circuit;
    std::vector<Fr> public_inputs;
};
BuiltinCircuit make_builtin(const std::string& name, size_t size, uint64_t seed = 1, size_t inputs = 4);
std::vector<std::string> builtin_names();

// The R1CS sizes of a built-in circuit (input constraints included) in closed form, without
// synthesizing it: the counts are exact and the non-zeros upper bounds (tests/circuits
// checks them against the recorded shapes). Throws as make_builtin for a bad name or size.
r1cs::ShapeCounts builtin_counts(const std::string& name, size_t size, size_t inputs = 4);

// Number of SHA-256 blocks whose chain has about `constraints` constraints.
size_t sha256_blocks_for(size_t constraints);

}  // namespace cuzk::circuits

#include "cuzk/circuits/builtin_impl.hpp"
