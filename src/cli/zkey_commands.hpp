// `cuzk prove-zkey | verify-zkey`: circom/snarkjs Groth16 proving with rapidsnark's
// arguments (circuit.zkey witness.wtns proof.json public.json), and snarkjs' verification
// (verification_key.json public.json proof.json). `cuzk inspect` describes the circom
// files too (commands.cpp, through describe_circom).
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <functional>

namespace cuzk::cli {
// Adds the subcommands to app; each returns a callable that runs it (exit status).
void add_zkey_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands);
// The name under which the binary acts as rapidsnark's prover (argv[0]'s base name; the
// build installs it as a link to cuzk): `rapidsnark circuit.zkey witness.wtns proof.json
// public.json` is `cuzk prove-zkey ...`.
inline constexpr const char* kRapidsnarkAlias = "rapidsnark";
}  // namespace cuzk::cli
