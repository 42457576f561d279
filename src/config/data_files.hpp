// Reading pico's own data and the user's config files.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace pico {

// The whole file; a missing or unreadable file is a ConfigError naming what
// it is ("the experiment file") and what to do (hint).
std::string read_config_file(const std::string& path, std::string_view what, std::string_view hint);

// Where pico looks for its data (platforms/, configs/catalog/), most specific
// first: the current directory, then PREFIX/share/pico beside an installed
// PREFIX/bin/pico, then the source tree pico was built from.
// Candidates for a path relative to those roots, duplicates removed.
std::vector<std::filesystem::path> data_file_candidates(const std::filesystem::path& relative);

}  // namespace pico
