// `cuzk selfcheck` and `cuzk bench`: known-answer checks of the arithmetic and a short
// single-thread benchmark, run by the README's main command.
#pragma once

namespace cuzk::cli {
// Prints one line per check; returns the number of failed checks.
int run_selfcheck();
// Prints ns/op of the core operations, each timed for about `seconds_per_op`.
void run_arith_bench(double seconds_per_op);
}  // namespace cuzk::cli
