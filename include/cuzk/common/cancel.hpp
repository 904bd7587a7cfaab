// Cooperative cancellation for long work (shape recording, setup, synthesis): the work
// calls a CancelCheck now and then and, when it turns true, throws Cancelled, so that its
// memory is freed on the way out and the caller sees why it stopped.
#pragma once

#include <exception>
#include <functional>
#include <stdexcept>
#include <string>

namespace cuzk {

// True when the work should stop. An empty function never cancels.
using CancelCheck = std::function<bool()>;

class Cancelled : public std::runtime_error {
 public:
    using std::runtime_error::runtime_error;
};

// Never throws while an exception unwinds the stack: gadgets enforce constraints from
// destructors (gadgets::MultiEq), and a second exception there would terminate.
inline void throw_if_cancelled(const CancelCheck& cancel, const char* what) {
    if (cancel && std::uncaught_exceptions() == 0 && cancel()) throw Cancelled(std::string(what) + " cancelled");
}

}  // namespace cuzk
