// cuzk's built-in circuits, for tests, benchmarks and the command line's default job.
//
//   sha256-chain  N SHA-256 compressions: a private 64-byte preimage x_0, then
//                 d_1 = compress(IV, x_0) and d_{k+1} = compress(IV, d_k || d_k); the
//                 final digest is packed into 2 public inputs (multipack). Scalars are
//                 mostly 0/1, like Filecoin's SHA-256 and Merkle circuits. ~25.6k
//                 constraints a block.
//   random-dense  N constraints w_k = (c_k v_i + v_j) (v_l + d_k) over full-size random
//                 values, M public inputs: every MSM scalar is full-size.
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
    size_t constraints = 1;
    size_t inputs = 1;  // public inputs, ONE excluded
    uint64_t seed = 1;
    std::vector<Fr> public_inputs() const;
    template <class CS>
    void synthesize(CS& cs) const;
};

// A built-in circuit by name with its size parameter and seed; the public inputs come
// with it. Throws std::invalid_argument naming the known circuits for an unknown name,
// and for a size out of range.
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
