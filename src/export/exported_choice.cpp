// SPDX-License-Identifier: BSD-3-Clause
#include "export/exported_choice.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "config/catalog.hpp"
#include "export/export_support.hpp"
#include "export/ompi_sizes.hpp"

namespace pico {

namespace {

// Whether the profile loads through coll/tuned's classic rules file (Open MPI before 6.0: ompi-rules).
bool reads_classic_rules(const TunedProfile& profile) {
  return profile.library.name == "openmpi" &&
         (profile.library.version.empty() || !version_in_range(profile.library.version, ">=6.0"));
}

std::string sizes_text(const std::vector<const ProfileRule*>& rules) {
  std::string out;
  for (const ProfileRule* r : rules) out += fmt::format("{}{}", out.empty() ? "" : ", ", r->comm_size);
  return out;
}

ExportedRule classic_rules(const std::vector<const ProfileRule*>& rules, int np) {
  const std::vector<OmpiCommSizeBlock> blocks = ompi_comm_size_blocks(rules);
  const OmpiCommSizeBlock* block = ompi_block_at(blocks, np);
  if (block->rule != nullptr) return {block->rule, ""};
  if (np < rules.front()->comm_size)
    return {nullptr, fmt::format("np {} is below its smallest rule (np {}): ompi-rules writes a default block there, "
                                 "so Open MPI's own decision runs",
                                 np, rules.front()->comm_size)};
  const ProfileRule* last = nullptr;  // the rule whose reach np passed
  for (const ProfileRule* r : rules)
    if (r->comm_size <= np) last = r;
  return {nullptr, fmt::format("np {} is past the reach of its rule for np {} (Open MPI scales that rule's sizes by "
                               "the communicator size, so ompi-rules drives it only up to np {}): Open MPI's own "
                               "decision runs",
                               np, last->comm_size, block->comm_size - 1)};
}

}  // namespace

ExportedRule exported_rule(const TunedProfile& profile, Collective collective, int np, int nodes) {
  std::vector<const ProfileRule*> rules;
  const bool loaded_by_pico = profile.library.name == "openmpi" || profile.library.name == "mpich";
  if (loaded_by_pico) {
    for (const ProfileRule* r : rules_by_collective(profile))  // refuses two placements of one size, as the export
      if (r->collective == collective) rules.push_back(r);
  } else {
    for (const ProfileRule& r : profile.rules)
      if (r.collective == collective) rules.push_back(&r);
    std::stable_sort(rules.begin(), rules.end(),
                     [](const ProfileRule* a, const ProfileRule* b) { return a->comm_size < b->comm_size; });
  }
  if (rules.empty()) return {nullptr, "it has no rule for this collective"};
  if (reads_classic_rules(profile)) return classic_rules(rules, np);
  const ProfileRule* exact = nullptr;
  for (const ProfileRule* r : rules)
    if (r->comm_size == np && (exact == nullptr || (nodes != 0 && r->nodes == nodes && exact->nodes != nodes)))
      exact = r;
  if (exact != nullptr) return {exact, ""};
  return {nullptr, fmt::format("it has rules for np {} only, and its export keys each on its communicator size "
                               "alone: {}'s own decision runs at np {}",
                               sizes_text(rules), profile.library.name, np)};
}

}  // namespace pico
