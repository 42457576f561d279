// SPDX-License-Identifier: BSD-3-Clause
// What the format writers share: refusing a profile, the byte range a
// library sees for a rule's range and the rules' order (from the tuning
// layer, which resolves a loaded profile by the same facts:
// tuning/exported_choice.hpp), and the library's algorithm entry.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collectives/spec.hpp"
#include "config/catalog.hpp"
#include "tuning/export_refusal.hpp"
#include "tuning/exported_choice.hpp"
#include "tuning/library_range.hpp"
#include "tuning/profile.hpp"

namespace pico {

// How a library measures a collective's message, from pico's bytes (one
// rank's block, Case::bytes): the same (factor 1), times the comm size (the
// total), or not at all (barrier). nullopt: the library keys it otherwise
// (elements, not bytes) and the format cannot say it.
using SizeFactor = std::optional<std::uint64_t>;

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

// The rule's collective as a library's tuning input names it (a member of its
// descriptor's ToolNames, collectives/spec.hpp), or ExportRefusal
// "DESCRIBE: WHY for COLLECTIVE" where the library has no name for it.
std::string tool_name(const ProfileRule& rule, std::string_view ToolNames::*field, std::string_view why);

}  // namespace pico
