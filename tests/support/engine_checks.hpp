// Checks shared by the engine tests: a completed job's proofs verify against the key and
// public inputs it returned, and a changed public input is rejected.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "cuzk/engine/engine.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/verifier.hpp"

namespace cuzk::test {

inline void expect_verifies(const engine::JobResult& r) {
    ASSERT_EQ(r.state, engine::JobState::Completed) << r.error;
    ASSERT_EQ(r.proof.size(), 192u * r.partitions_total);
    auto vk = formats::read_vk_from_bytes(r.verifying_key);
    groth16::PreparedVerifyingKey pvk(vk);
    auto proofs = formats::read_proofs_from_bytes(r.proof, r.partitions_total);
    ASSERT_EQ(r.public_inputs.size(), proofs.size());
    for (size_t k = 0; k < proofs.size(); ++k) {
        std::vector<Fr> x;
        for (const auto& s : r.public_inputs[k]) x.push_back(*Fr::from_string(s));
        EXPECT_TRUE(groth16::verify(pvk, proofs[k], x)) << "partition " << k;
        x.back() += Fr::one();
        EXPECT_FALSE(groth16::verify(pvk, proofs[k], x)) << "partition " << k;
    }
}

}  // namespace cuzk::test
