// SPDX-License-Identifier: BSD-3-Clause
// Whether a file a user named can be read whole: pico reads its inputs into
// memory, so a FIFO or device (which never ends, or blocks) and a file larger
// than the caller's bound are refused by their metadata, before reading.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace pico {

inline constexpr std::uintmax_t kMiB = std::uintmax_t{1} << 20;

// Why path cannot be read whole within max_bytes ("is a directory, not a
// file", "is a FIFO, device or socket, not a regular file", "is 20 MiB, more
// than the 16 MiB limit"), or nullopt when it can, or when it does not exist
// (opening it then says so, as before).
std::optional<std::string> whole_file_problem(const std::filesystem::path& path, std::uintmax_t max_bytes);

// The one reader of a file a user names (by argument, in YAML, in an
// environment variable): its bytes, or InputError naming the path, what it
// should be (`what`: "the count matrix file") and whole_file_problem's reason
// (with `problem_hint`, or `hint` when that is empty), or "cannot open" with
// `hint`. Never waits on a FIFO or reads a device.
std::string read_whole_file(const std::filesystem::path& path, std::uintmax_t max_bytes, std::string_view what,
                            std::string_view hint, std::string_view problem_hint = {});

}  // namespace pico
