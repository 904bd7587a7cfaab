// A CPU prover backend for the engine tests whose H stage can be held shut (Gate), recording
// which job reached it in what order; optionally corrupting the MSM results (a "device"
// that computes wrong proofs).
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "cuzk/common/trace.hpp"
#include "cuzk/groth16/backend.hpp"

namespace cuzk::test {

// Holds the H stage shut while closed; records the job of every partition that reaches it.
struct Gate {
    std::mutex mu;
    std::condition_variable cv;
    bool open = true;
    int waiting = 0;
    std::vector<uint64_t> order;
    void close() {
        std::lock_guard<std::mutex> l(mu);
        open = false;
    }
    void release() {
        {
            std::lock_guard<std::mutex> l(mu);
            open = true;
        }
        cv.notify_all();
    }
    bool wait_for_waiters(int n) {
        for (int i = 0; i < 2000; ++i) {
            {
                std::lock_guard<std::mutex> l(mu);
                if (waiting >= n) return true;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        return false;
    }
};

class TestBackend final : public groth16::ProverBackend {
 public:
    TestBackend(Gate* gate, bool corrupt) : inner_(groth16::make_cpu_backend()), gate_(gate), corrupt_(corrupt) {}
    std::string name() const override { return corrupt_ ? "faulty" : "gated-cpu"; }
    r1cs::WitnessVector compute_h(r1cs::WitnessVector& a, r1cs::WitnessVector& b, r1cs::WitnessVector& c) override {
        if (gate_) {
            std::unique_lock<std::mutex> l(gate_->mu);
            gate_->order.push_back(trace::current().job);
            ++gate_->waiting;
            gate_->cv.wait(l, [&] { return gate_->open; });
            --gate_->waiting;
        }
        return inner_->compute_h(a, b, c);
    }
    G1Jacobian msm_g1(groth16::G1Query q, std::span<const G1Affine> bases, std::span<const Fr> s,
                      const uint64_t* d) override {
        G1Jacobian r = inner_->msm_g1(q, bases, s, d);
        if (corrupt_) r = r + G1Affine::generator();
        return r;
    }
    G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> s, const uint64_t* d) override {
        return inner_->msm_g2(bases, s, d);
    }

 private:
    std::unique_ptr<groth16::ProverBackend> inner_;
    Gate* gate_;
    bool corrupt_;
};

}  // namespace cuzk::test
