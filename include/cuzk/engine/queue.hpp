// A bounded multi-producer multi-consumer queue joining two pipeline stages: push blocks
// while the queue is full (back-pressure on the stage before), pop blocks while it is
// empty; close() wakes everyone, after which push fails and pop drains what is left.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>

namespace cuzk::engine {

template <class T>
class BoundedQueue {
 public:
    explicit BoundedQueue(size_t bound) : bound_(bound ? bound : 1) {}

    // False (and `v` untouched) once closed.
    bool push(T&& v) {
        std::unique_lock<std::mutex> lock(mu_);
        not_full_.wait(lock, [&] { return closed_ || q_.size() < bound_; });
        if (closed_) return false;
        q_.push_back(std::move(v));
        high_water_ = std::max(high_water_, q_.size());
        not_empty_.notify_one();
        return true;
    }
    // nullopt once closed and empty.
    std::optional<T> pop() {
        std::unique_lock<std::mutex> lock(mu_);
        not_empty_.wait(lock, [&] { return closed_ || !q_.empty(); });
        if (q_.empty()) return std::nullopt;
        T v = std::move(q_.front());
        q_.pop_front();
        not_full_.notify_one();
        return v;
    }
    // f(front) under the queue's lock, when there is a front: a consumer may prepare the
    // next element (start its device copies) while it stays queued.
    template <class F>
    void visit_front(F&& f) {
        std::lock_guard<std::mutex> lock(mu_);
        if (!q_.empty()) f(q_.front());
    }
    void close() {
        std::lock_guard<std::mutex> lock(mu_);
        closed_ = true;
        not_full_.notify_all();
        not_empty_.notify_all();
    }
    size_t size() const {
        std::lock_guard<std::mutex> lock(mu_);
        return q_.size();
    }
    size_t high_water() const {
        std::lock_guard<std::mutex> lock(mu_);
        return high_water_;
    }
    size_t bound() const { return bound_; }

 private:
    const size_t bound_;
    mutable std::mutex mu_;
    std::condition_variable not_full_, not_empty_;
    std::deque<T> q_;
    size_t high_water_ = 0;
    bool closed_ = false;
};

}  // namespace cuzk::engine
