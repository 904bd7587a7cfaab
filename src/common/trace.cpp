#include "cuzk/common/trace.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>

namespace cuzk::trace {
namespace {
thread_local Context tl_context;
std::atomic<uint32_t> g_next_thread{1};
thread_local uint32_t tl_thread = 0;

void append_escaped(std::string& out, const char* s) {
    for (; *s; ++s) {
        const char c = *s;
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
            out += buf;
        } else {
            out += c;
        }
    }
}
}  // namespace

Context current() { return tl_context; }

uint32_t thread_number() {
    if (tl_thread == 0) tl_thread = g_next_thread.fetch_add(1, std::memory_order_relaxed);
    return tl_thread;
}

ScopedContext::ScopedContext(const Context& c) : saved_(tl_context) { tl_context = c; }
ScopedContext::~ScopedContext() { tl_context = saved_; }

Span::Span(const char* name, const char* layer) : name_(name), layer_(layer), start_(Clock::now()) {}

void Span::end() {
    if (!open_) return;
    open_ = false;
    const Context& c = tl_context;
    if (!c.sink) return;
    c.sink->record(Event{name_, layer_, start_, Clock::now(), c.job, c.partition, c.device, thread_number()});
}

Recorder::Recorder(size_t capacity, Clock::time_point origin)
    : capacity_(std::max<size_t>(1, capacity)), origin_(origin) {}

void Recorder::record(const Event& e) {
    std::lock_guard<std::mutex> lock(mu_);
    if (ring_.size() < capacity_) {
        ring_.push_back(e);
    } else {
        ring_[next_] = e;
        next_ = (next_ + 1) % capacity_;
    }
    ++total_;
}

std::vector<Event> Recorder::events() const {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<Event> out;
    out.reserve(ring_.size());
    for (size_t i = 0; i < ring_.size(); ++i) out.push_back(ring_[(next_ + i) % ring_.size()]);
    return out;
}

std::vector<Event> Recorder::events(const std::function<bool(const Event&)>& keep) const {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<Event> out;
    for (size_t i = 0; i < ring_.size(); ++i) {
        const Event& e = ring_[(next_ + i) % ring_.size()];
        if (keep(e)) out.push_back(e);
    }
    return out;
}

uint64_t Recorder::dropped() const {
    std::lock_guard<std::mutex> lock(mu_);
    return total_ - ring_.size();
}

std::string Recorder::chrome_json() const {
    const auto evs = events();
    std::string out = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[";
    auto us = [this](Clock::time_point t) { return std::chrono::duration<double, std::micro>(t - origin_).count(); };
    bool first = true;
    // Name the processes: pid 0 is the CPU, pid d+1 is GPU d.
    std::vector<int> devices;
    for (const auto& e : evs)
        if (std::find(devices.begin(), devices.end(), e.device) == devices.end()) devices.push_back(e.device);
    for (int d : devices) {
        char buf[160];
        std::snprintf(buf, sizeof buf,
                      "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":0,\"args\":{\"name\":\"%s%d\"}}",
                      first ? "" : ",", d + 1, d < 0 ? "cpu" : "gpu", d < 0 ? 0 : d);
        out += buf;
        first = false;
    }
    for (const auto& e : evs) {
        out += first ? "{\"name\":\"" : ",{\"name\":\"";
        first = false;
        append_escaped(out, e.name);
        out += "\",\"cat\":\"";
        append_escaped(out, e.layer);
        char buf[256];
        std::snprintf(buf, sizeof buf,
                      "\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":%d,\"tid\":%u,\"args\":{\"job\":%llu,"
                      "\"partition\":%u,\"device\":%d}}",
                      us(e.start), std::max(0.0, us(e.end) - us(e.start)), e.device + 1, e.thread,
                      (unsigned long long)e.job, e.partition, e.device);
        out += buf;
    }
    out += "]}";
    return out;
}

double union_ms(std::vector<std::pair<Clock::time_point, Clock::time_point>> iv) {
    std::sort(iv.begin(), iv.end());
    double total = 0;
    size_t i = 0;
    while (i < iv.size()) {
        auto s = iv[i].first, e = iv[i].second;
        for (++i; i < iv.size() && iv[i].first <= e; ++i) e = std::max(e, iv[i].second);
        if (e > s) total += std::chrono::duration<double, std::milli>(e - s).count();
    }
    return total;
}

}  // namespace cuzk::trace
