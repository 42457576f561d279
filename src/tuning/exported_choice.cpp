// SPDX-License-Identifier: BSD-3-Clause
#include "tuning/exported_choice.hpp"

#include <algorithm>
#include <climits>

#include <fmt/format.h>

#include "config/catalog.hpp"
#include "support/input_error.hpp"
#include "tuning/export_refusal.hpp"
#include "tuning/ompi_comm_size_blocks.hpp"
#include "tuning/ompi_rank_distribution.hpp"

namespace pico {

namespace {

// Whether the profile loads through coll/tuned's classic rules file (Open MPI before 6.0: ompi-rules).
bool reads_classic_rules(const TunedProfile& profile) {
  return profile.library.name == "openmpi" &&
         (profile.library.version.empty() || !version_in_range(profile.library.version, ">=6.0"));
}

// Whether it loads through coll/tuned's JSON rules (Open MPI 6.0: ompi-json), which key each block on the
// ranks' placement too (tuning/ompi_rank_distribution.hpp).
bool reads_json_rules(const TunedProfile& profile) {
  return profile.library.name == "openmpi" && !reads_classic_rules(profile);
}

// The collective's rules by ascending comm size, as the library's export reads them.
std::vector<const ProfileRule*> collective_rules(const TunedProfile& profile, Collective collective) {
  std::vector<const ProfileRule*> rules;
  const bool loaded_by_pico = profile.library.name == "openmpi" || profile.library.name == "mpich";
  if (loaded_by_pico) {
    for (const ProfileRule* r : rules_by_collective(profile))  // refuses two placements of one size, as the export
      if (r->collective == collective) rules.push_back(r);
    return rules;
  }
  for (const ProfileRule& r : profile.rules)
    if (r.collective == collective) rules.push_back(&r);
  std::stable_sort(rules.begin(), rules.end(),
                   [](const ProfileRule* a, const ProfileRule* b) { return a->comm_size < b->comm_size; });
  return rules;
}

void add(std::vector<AppliedCommSizes>& out, int from, std::optional<int> to, const ProfileRule* rule) {
  if (!out.empty() && out.back().rule == rule) {
    out.back().to = to;
    return;
  }
  out.push_back({from, to, rule});
}

// The classic file's blocks: Open MPI applies the last block at or below a communicator's size, so each serves
// from its size to the next's, and the first every smaller size too.
std::vector<AppliedCommSizes> classic_sizes(const std::vector<const ProfileRule*>& rules) {
  const std::vector<OmpiCommSizeBlock> blocks = ompi_comm_size_blocks(rules);
  std::vector<AppliedCommSizes> out;
  for (std::size_t k = 0; k < blocks.size(); ++k)
    add(out, k == 0 ? 1 : blocks[k].comm_size,
        k + 1 < blocks.size() ? std::optional<int>(blocks[k + 1].comm_size) : std::nullopt, blocks[k].rule);
  return out;
}

// A rule per communicator size it names; the library's own decision between them.
std::vector<AppliedCommSizes> exact_sizes(const std::vector<const ProfileRule*>& rules) {
  std::vector<AppliedCommSizes> out;
  int next = 1;  // the first size not yet covered
  for (const ProfileRule* r : rules) {
    if (!out.empty() && out.back().rule != nullptr && out.back().rule->comm_size == r->comm_size) continue;
    if (r->comm_size > next) add(out, next, r->comm_size, nullptr);
    if (r->comm_size == INT_MAX) {
      add(out, r->comm_size, std::nullopt, r);
      return out;
    }
    out.push_back({r->comm_size, r->comm_size + 1, r});
    next = r->comm_size + 1;
  }
  add(out, next, std::nullopt, nullptr);
  return out;
}

std::vector<AppliedCommSizes> sizes_of(const TunedProfile& profile, const std::vector<const ProfileRule*>& rules) {
  if (rules.empty()) return {};
  return reads_classic_rules(profile) ? classic_sizes(rules) : exact_sizes(rules);
}

std::string sizes_text(const std::vector<const ProfileRule*>& rules) {
  std::string out;
  for (const ProfileRule* r : rules) out += fmt::format("{}{}", out.empty() ? "" : ", ", r->comm_size);
  return out;
}

// Why no rule applies at np, where `sizes` says none does.
std::string why_none(const TunedProfile& profile, const std::vector<const ProfileRule*>& rules,
                     const AppliedCommSizes& at, int np) {
  if (!reads_classic_rules(profile))
    return fmt::format("it has rules for np {} only, and its export keys each on its communicator size "
                       "alone: {}'s own decision runs at np {}",
                       sizes_text(rules), profile.library.name, np);
  if (np < rules.front()->comm_size)
    return fmt::format("np {} is below its smallest rule (np {}): ompi-rules writes a default block there, "
                       "so Open MPI's own decision runs",
                       np, rules.front()->comm_size);
  const ProfileRule* last = nullptr;  // the rule whose reach np passed
  for (const ProfileRule* r : rules)
    if (r->comm_size <= np) last = r;
  return fmt::format("np {} is past the reach of its rule for np {} (Open MPI scales that rule's sizes by "
                     "the communicator size, so ompi-rules drives it only up to np {}): Open MPI's own "
                     "decision runs",
                     np, last->comm_size, at.from - 1);
}

InputError refused(const std::string& where, const ExportRefusal& e) {
  return InputError(where, fmt::format("its export refuses it, so no file says what it picks: {}", e.what()), e.hint);
}

}  // namespace

std::vector<const ProfileRule*> rules_by_collective(const TunedProfile& profile) {
  std::vector<const ProfileRule*> rules;
  for (const ProfileRule& r : profile.rules) rules.push_back(&r);
  std::stable_sort(rules.begin(), rules.end(), [](const ProfileRule* a, const ProfileRule* b) {
    if (a->collective != b->collective) return a->collective < b->collective;
    return a->comm_size < b->comm_size;
  });
  for (std::size_t i = 0; i + 1 < rules.size(); ++i)
    if (rules[i]->collective == rules[i + 1]->collective && rules[i]->comm_size == rules[i + 1]->comm_size)
      throw ExportRefusal(fmt::format("{} and {}: the library chooses by communicator size only, so the two "
                                      "placements cannot both be expressed",
                                      describe(*rules[i]), describe(*rules[i + 1])),
                          "tune the placement you run, or export with a format that keys on nodes (nccl-tuner)");
  return rules;
}

std::vector<AppliedCommSizes> applied_comm_sizes(const TunedProfile& profile, Collective collective) {
  return sizes_of(profile, collective_rules(profile, collective));
}

const ProfileRange* ExportedRule::range_for(std::uint64_t bytes) const {
  return rule != nullptr ? rule->range_for(bytes) : nullptr;
}

std::string ExportedRule::algorithm_at(std::uint64_t bytes) const {
  const ProfileRange* range = range_for(bytes);
  if (range == nullptr) return "default";
  return own_size() ? range->algorithm_at(bytes) : range->algorithm;
}

std::string ExportedRule::choice_at(std::uint64_t bytes) const {
  const ProfileRange* range = range_for(bytes);
  if (range == nullptr) return "default";
  return own_size() ? range->choice_at(bytes) : range->algorithm;
}

std::vector<ProfileRange::Span> ExportedRule::spans(const ProfileRange& range) const {
  if (own_size()) return range.spans();
  return {{range.min_bytes, range.max_bytes, range.algorithm}};
}

ExportedRule exported_rule(const TunedProfile& profile, Collective collective, int np, int nodes) {
  ExportedRule out;
  out.np = np;
  const std::vector<const ProfileRule*> rules = collective_rules(profile, collective);
  const std::vector<AppliedCommSizes> sizes = sizes_of(profile, rules);
  if (sizes.empty()) {
    out.why = "it has no rule for this collective";
    return out;
  }
  const AppliedCommSizes* at = &sizes.front();
  for (const AppliedCommSizes& s : sizes)
    if (s.from <= np) at = &s;
  if (at->rule == nullptr) {
    out.why = why_none(profile, rules, *at, np);
    return out;
  }
  out.rule = at->rule;
  if (nodes != 0)  // of several rules for one size (nccl-tuner keys on nodes), the one of these nodes
    for (const ProfileRule* r : rules)
      if (r->comm_size == out.rule->comm_size && r->nodes == nodes && out.rule->nodes != nodes) out.rule = r;
  if (reads_json_rules(profile)) {
    const RankDistribution d = measured_distribution(*out.rule);
    if (!distribution_matches(d, np, nodes)) {
      out.why = fmt::format("its rule for np {} was measured on {} ({}x{}), and ompi-json keys the block on that "
                            "placement (comm_rank_distribution \"{}\"): on {} nodes Open MPI's own decision runs",
                            out.rule->comm_size, distribution_words(d), out.rule->nodes, out.rule->ppn,
                            ompi_json_name(d), nodes);
      out.rule = nullptr;
    }
  }
  return out;
}

ExportedRule loaded_rule(const TunedProfile& profile, const std::string& where, Collective collective, int np,
                         int nodes) {
  try {
    return exported_rule(profile, collective, np, nodes);
  } catch (const ExportRefusal& e) {
    throw refused(where, e);
  }
}

std::vector<AppliedCommSizes> loaded_comm_sizes(const TunedProfile& profile, const std::string& where,
                                                Collective collective) {
  try {
    return applied_comm_sizes(profile, collective);
  } catch (const ExportRefusal& e) {
    throw refused(where, e);
  }
}

}  // namespace pico
