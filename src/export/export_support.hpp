// SPDX-License-Identifier: BSD-3-Clause
// What the format writers share: refusing a profile, the byte range a
// library sees for a rule's range, and the library's algorithm entry.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collectives/spec.hpp"
#include "config/catalog.hpp"
#include "tuning/profile.hpp"

namespace pico {

// A profile the format cannot carry as the library would act on it. The
// format's name and the profile's path are added by export_profile.
struct ExportRefusal : std::runtime_error {
  ExportRefusal(std::string message, std::string hint);
  std::string hint;
};

// How a library measures a collective's message, from pico's bytes (one
// rank's block, Case::bytes): the same (factor 1), times the comm size (the
// total), or not at all (barrier). nullopt: the library keys it otherwise
// (elements, not bytes) and the format cannot say it.
using SizeFactor = std::optional<std::uint64_t>;

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

// The rule's ranges start at 0, ascend without gaps or overlaps and end
// unbounded (what every format here needs: the libraries take the last or
// first matching rule and treat a gap as "not tuned" silently).
void require_covering(const ProfileRule& rule);

// The catalogue entry of the range's algorithm in the profile's library
// version, or ExportRefusal naming the algorithms that version has.
const AlgorithmEntry& catalogue_entry(const Catalog& catalog, const TunedProfile& profile, const ProfileRule& rule,
                                      const ProfileRange& range);

// ExportRefusal where the rule's placement (its comm size, nodes and ranks per
// node, where the profile knows them) breaks a constraint of the range's
// component or of its catalogue entry (han on one node or with one rank per
// node, MPICH's ch4_gamma on two nodes, a node-aware composition at ppn 1):
// the library would not run it there as itself, so no file should say it. A
// constraint on the call (count, operation) is left to the run.
void require_placement(const Catalog& catalog, const ProfileRule& rule, const ProfileRange& range,
                       const AlgorithmEntry& entry);

// Whether any range of the profile chooses an algorithm of another component
// than the catalogue's own (Open MPI's han, MPICH's ch4 compositions).
bool chooses_component(const TunedProfile& profile);

// "allreduce np 4 (1x4)" for messages.
std::string describe(const ProfileRule& rule);

// The rule's collective as a library's tuning input names it (a member of its
// descriptor's ToolNames, collectives/spec.hpp), or ExportRefusal
// "DESCRIBE: WHY for COLLECTIVE" where the library has no name for it.
std::string tool_name(const ProfileRule& rule, std::string_view ToolNames::*field, std::string_view why);

// Rules ordered by collective, then comm size ascending (libraries read blocks in order).
std::vector<const ProfileRule*> rules_by_collective(const TunedProfile& profile);

}  // namespace pico
