// Helpers shared by the cuzk subcommands: option validators whose messages state the range
// readably, and the check that an output can be written, made before any work.
#pragma once

#include <CLI/CLI.hpp>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace cuzk::cli {

// A bound as a user reads it: 2^k for a large power of two, else decimal.
inline std::string bound_text(uint64_t v) {
    if (v >= 1024 && std::has_single_bit(v)) return "2^" + std::to_string(std::countr_zero(v));
    return std::to_string(v);
}

// An integer option in [lo, hi]. CLI11's PositiveNumber would print the largest double in
// full (hundreds of digits) as the bound.
inline CLI::Validator in_range(uint64_t lo, uint64_t hi) {
    const std::string range = "[" + bound_text(lo) + ", " + bound_text(hi) + "]";
    return CLI::Validator(
        [lo, hi, range](std::string& s) -> std::string {
            uint64_t v = 0;
            const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
            if (ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi)
                return "must be an integer in " + range + ", got '" + s + "'";
            return "";
        },
        "INT in " + range);
}

// A number of seconds above 0 (and at most a day).
inline CLI::Validator positive_seconds() {
    return CLI::Validator(
        [](std::string& s) -> std::string {
            double v = 0;
            const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
            if (ec != std::errc() || end != s.data() + s.size() || !(v > 0) || v > 86400)
                return "must be a number of seconds in (0, 86400], got '" + s + "'";
            return "";
        },
        "SECONDS");
}

// Fails now, naming the file and the reason, when `file` cannot be written: the writers
// create "<file>.tmp" beside it and rename it over the file, so that is what is tried
// (then removed). Called before minutes of setup or proving, not after.
inline void check_writable(const std::filesystem::path& file) {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec))
        throw std::runtime_error(file.string() + ": cannot write the output there: it is a directory");
    std::filesystem::path tmp = file;
    tmp += ".tmp";
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f)
        throw std::runtime_error(file.string() + ": cannot write the output there: cannot create " + tmp.string() +
                                 ": " + std::strerror(errno));
    std::fclose(f);
    std::filesystem::remove(tmp, ec);
}

// Creates the output directory `dir` (and its parents) and checks that a file can be
// written in it, naming the directory when not.
inline void check_writable_dir(const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw std::runtime_error(dir.string() + ": cannot create the output directory: " + ec.message());
    check_writable(dir / ".cuzk-write-check");
}

}  // namespace cuzk::cli
