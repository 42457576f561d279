// SPDX-License-Identifier: BSD-3-Clause
#include "support/whole_file.hpp"

#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "support/input_error.hpp"

namespace pico {
namespace fs = std::filesystem;

namespace {

// Sizes in the unit the limit is written in, rounded up, so that a file just
// over the limit never reads as equal to it.
std::string mebibytes(std::uintmax_t bytes) { return fmt::format("{} MiB", (bytes + kMiB - 1) / kMiB); }

}  // namespace

std::optional<std::string> whole_file_problem(const fs::path& path, std::uintmax_t max_bytes) {
  std::error_code ec;
  // status follows symbolic links, so a link to a FIFO is refused like the FIFO.
  const fs::file_status status = fs::status(path, ec);
  if (ec || status.type() == fs::file_type::not_found) return std::nullopt;
  if (status.type() == fs::file_type::directory) return "is a directory, not a file";
  if (status.type() != fs::file_type::regular) return "is a FIFO, device or socket, not a regular file";
  const std::uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > max_bytes)
    return fmt::format("is {} ({} bytes), more than the {} limit", mebibytes(size), size, mebibytes(max_bytes));
  return std::nullopt;
}

std::string read_whole_file(const fs::path& path, std::uintmax_t max_bytes, std::string_view what,
                            std::string_view hint, std::string_view problem_hint) {
  if (const auto problem = whole_file_problem(path, max_bytes))
    throw InputError(path.string(), fmt::format("{} {}", what, *problem),
                     std::string(problem_hint.empty() ? hint : problem_hint));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string(), fmt::format("cannot open {}", what), std::string(hint));
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace pico
