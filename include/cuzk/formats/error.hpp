// The one error type of the formats layer: what file, which part of it, where, and what
// is wrong. what() reads "<file>: <section> at byte <offset>: <problem>", e.g.
//   "v28-porep.params: h[12] at byte 1188: point is not on the curve (y^2 != x^3 + b)".
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace cuzk::formats {

class FormatError : public std::runtime_error {
 public:
    // offset = kNoOffset when the problem has no position (e.g. the file cannot be opened).
    static constexpr uint64_t kNoOffset = ~uint64_t(0);

    FormatError(std::string file, std::string section, uint64_t offset, std::string problem)
        : std::runtime_error(compose(file, section, offset, problem)),
          file_(std::move(file)),
          section_(std::move(section)),
          offset_(offset),
          problem_(std::move(problem)) {}

    const std::string& file() const { return file_; }
    const std::string& section() const { return section_; }
    uint64_t offset() const { return offset_; }
    const std::string& problem() const { return problem_; }

 private:
    static std::string compose(const std::string& file, const std::string& section, uint64_t offset,
                               const std::string& problem) {
        std::string s = file;
        if (!section.empty()) s += ": " + section;
        if (offset != kNoOffset) s += " at byte " + std::to_string(offset);
        return s + ": " + problem;
    }

    std::string file_, section_;
    uint64_t offset_;
    std::string problem_;
};

}  // namespace cuzk::formats
