// Helpers shared by the engine tests: a random-dense job spec, the refusal of a submit,
// and the check that a completed job's proofs verify against the key and public inputs it
// returned while a changed public input is rejected.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "cuzk/engine/engine.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/verifier.hpp"

namespace cuzk::test {

inline engine::JobSpec dense(uint64_t constraints = 64, uint32_t partitions = 1,
                             engine::Priority p = engine::Priority::Normal, uint64_t seed = 1) {
    engine::JobSpec s;
    s.circuit = "random-dense";
    s.size = constraints;
    s.inputs = 2;
    s.seed = seed;
    s.partitions = partitions;
    s.priority = p;
    return s;
}

// The code and message a submit is refused with (a test failure if it is accepted).
inline std::pair<engine::EngineError::Code, std::string> refusal(engine::Engine& e, const engine::JobSpec& s) {
    try {
        e.submit(s);
    } catch (const engine::EngineError& err) {
        return {err.code(), err.what()};
    }
    ADD_FAILURE() << "accepted";
    return {};
}

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
