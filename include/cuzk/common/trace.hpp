// Timing spans, tagged with the job, partition and device they belong to.
//
// A thread says what it is working on with a ScopedContext (the engine's workers do);
// code anywhere below opens a Span around a phase. Closed spans go to the context's
// sink; with no sink installed a Span costs two clock reads and nothing else, so the
// layers can mark their phases unconditionally.
//
//   trace::ScopedContext ctx({&recorder, job_id, partition, device});
//   { trace::Span s("msm_h", "groth16"); ... }
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace cuzk::trace {

using Clock = std::chrono::steady_clock;

struct Event {
    const char* name;   // static string: the phase ("witness", "msm_h", "h2d", ...)
    const char* layer;  // static string: "engine", "groth16", "gpu", ...
    Clock::time_point start, end;
    uint64_t job = 0;  // engine job number (0: none)
    uint32_t partition = 0;
    int device = -1;      // GPU ordinal, -1 for the CPU
    uint32_t thread = 0;  // small per-thread number, for the trace viewer's rows
    double ms() const { return std::chrono::duration<double, std::milli>(end - start).count(); }
};

class Sink {
 public:
    virtual ~Sink() = default;
    virtual void record(const Event& e) = 0;
};

struct Context {
    Sink* sink = nullptr;
    uint64_t job = 0;
    uint32_t partition = 0;
    int device = -1;
};

// The calling thread's context (a copy).
Context current();
// A small number for the calling thread, stable for its lifetime.
uint32_t thread_number();

class ScopedContext {
 public:
    explicit ScopedContext(const Context& c);
    ~ScopedContext();
    ScopedContext(const ScopedContext&) = delete;
    ScopedContext& operator=(const ScopedContext&) = delete;

 private:
    Context saved_;
};

// Records [construction, destruction) under the thread's context; `name` and `layer`
// must be string literals (or otherwise outlive every sink).
class Span {
 public:
    Span(const char* name, const char* layer);
    ~Span() { end(); }
    void end();  // closes early; later calls do nothing
    Span(const Span&) = delete;
    Span& operator=(const Span&) = delete;

 private:
    const char* name_;
    const char* layer_;
    Clock::time_point start_;
    bool open_ = true;
};

// A bounded in-memory sink: keeps the last `capacity` events, thread-safe.
class Recorder final : public Sink {
 public:
    explicit Recorder(size_t capacity = 1 << 20, Clock::time_point origin = Clock::now());
    void record(const Event& e) override;
    std::vector<Event> events() const;  // oldest first
    // The events `keep` accepts, oldest first: only those are copied (a dashboard's poll
    // wants a few of a ring of a million).
    std::vector<Event> events(const std::function<bool(const Event&)>& keep) const;
    uint64_t dropped() const;
    Clock::time_point origin() const { return origin_; }
    // Trace Event Format (the JSON that chrome://tracing and Perfetto read): one complete
    // ("X") event per span, pid = device + 1 (0 = CPU), tid = thread number.
    std::string chrome_json() const;

 private:
    mutable std::mutex mu_;
    size_t capacity_;
    std::vector<Event> ring_;
    size_t next_ = 0;
    uint64_t total_ = 0;
    Clock::time_point origin_;
};

// Sum of the lengths of the union of [start, end) intervals: busy time of a device
// whose spans may overlap (two workers), in milliseconds.
double union_ms(std::vector<std::pair<Clock::time_point, Clock::time_point>> intervals);

}  // namespace cuzk::trace
