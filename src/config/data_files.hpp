// SPDX-License-Identifier: BSD-3-Clause
// Reading pico's own data and the user's config files.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "support/whole_file.hpp"

namespace pico {

// The largest experiment, platform or catalogue file pico reads. The biggest
// real ones are a few KiB; the bound stops `pico validate /dev/zero` or a
// mistaken path from filling memory.
inline constexpr std::uintmax_t kMaxConfigFileBytes = 16 * kMiB;

// The whole file; a missing or unreadable file, one that is not a regular
// file or one over kMaxConfigFileBytes is a InputError naming what it is
// ("the experiment file") and, for a missing one, what to do (hint).
std::string read_config_file(const std::string& path, std::string_view what, std::string_view hint);

// Where pico looks for its data (platforms/, configs/catalog/), most specific
// first: the current directory, then PREFIX/share/pico beside an installed
// PREFIX/bin/pico, then the source tree pico was built from.
// Candidates for a path relative to those roots, duplicates removed.
// include_cwd false leaves the current directory out (catalogues: a
// working directory's copy is read only when asked, config/catalog.hpp).
std::vector<std::filesystem::path> data_file_candidates(const std::filesystem::path& relative,
                                                        bool include_cwd = true);

}  // namespace pico
