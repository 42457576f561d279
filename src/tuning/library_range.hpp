// SPDX-License-Identifier: BSD-3-Clause
// The byte range a library sees for a profile range: the writers key their
// rules on it (src/export), and which communicator sizes a rule can drive in
// Open MPI's classic file depends on it (tuning/ompi_comm_size_blocks.hpp).
#pragma once

#include <cstdint>
#include <optional>

#include "tuning/profile.hpp"

namespace pico {

struct LibraryRange {
  std::uint64_t min = 0;
  std::optional<std::uint64_t> max;  // inclusive; nullopt = unbounded
};
// The largest message size any library's reader takes (2^63-1: Open MPI's
// fscanf("%li"), JSON's int64); each format may bound it further.
inline constexpr std::uint64_t kMaxLibraryBytes = (std::uint64_t{1} << 63) - 1;

// [min_bytes, max_bytes] of pico's bytes as the library's inclusive range:
// the library key of every block size the range holds, and nothing more.
// factor 0 (no size): [0, 0]. ExportRefusal when a key would pass
// kMaxLibraryBytes (an allgather's 2^62 x 4 would otherwise wrap to 0).
LibraryRange library_range(const ProfileRule& rule, const ProfileRange& range, std::uint64_t factor);
// The same, nullopt where a key would pass kMaxLibraryBytes.
std::optional<LibraryRange> library_range_within(const ProfileRange& range, std::uint64_t factor);

}  // namespace pico
