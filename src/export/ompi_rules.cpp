// SPDX-License-Identifier: BSD-3-Clause
// Open MPI coll/tuned's classic dynamic rules file (4.1.x, 5.0.x), read with
// fscanf("%li"): no zero padding (a leading 0 reads as octal), comments
// after '#'. Per collective id, comm-size blocks ascending (the last block
// <= the comm size applies), message rules ascending from 0 (the last rule
// <= the message applies; a first rule other than 0 drops the whole file
// silently). Columns: from-bytes algorithm-id faninout segsize, plus
// max_requests after the `rule-file-version-2` header of 5.0.7 and later
// (4.1 aborts on five columns).
//
// Where tuned compares the block times the communicator size (allgather,
// alltoall, gather, scatter, reduce_scatter_block), a block's bounds hold at
// one communicator size only, yet Open MPI applies a block to every larger
// communicator up to the next block, and the first block to every smaller
// one. Such a rule is written as one block per communicator size it drives,
// each scaled by that size: from the rule's own size up to twice it (at most
// 64 more) or the next rule's, whichever comes first. Past that, and below
// the smallest rule, a default block (algorithm 0, tuned's fixed decision)
// keeps Open MPI from applying bounds scaled for another size. The blocks are
// ompi_comm_size_blocks', which every verb reads too (tuning/exported_choice.hpp).
#include <vector>

#include <fmt/format.h>

#include "export/export_format.hpp"
#include "export/export_support.hpp"
#include "export/ompi_han_rules.hpp"
#include "export/ompi_sizes.hpp"

namespace pico {

namespace {

bool has_version_2_header(const std::string& version) {
  return !version.empty() && version_in_range(version, ">=5.0.7");
}

std::string write(const TunedProfile& profile, const FormatArgs&) {
  const Catalog& catalog = catalog_for("openmpi");
  const bool v2 = has_version_2_header(profile.library.version);
  const std::string fifth = v2 ? " 0" : "";
  const auto rules = rules_by_collective(profile);
  std::string body;
  int collectives = 0;
  for (std::size_t i = 0; i < rules.size();) {
    const Collective c = rules[i]->collective;
    const int id = ompi_collective_id(c);
    std::vector<const ProfileRule*> of_collective;
    for (; i < rules.size() && rules[i]->collective == c; ++i) {
      require_covering(*rules[i]);
      of_collective.push_back(rules[i]);
    }
    ++collectives;
    const std::vector<OmpiCommSizeBlock> blocks = ompi_comm_size_blocks(of_collective);
    body += fmt::format("{}  # collective {}\n{}  # comm-size blocks\n", id, name(c), blocks.size());
    for (const OmpiCommSizeBlock& block : blocks) {
      if (block.rule == nullptr) {
        body += fmt::format("{} 1  # comm size, message rules: no rule tuned for this size\n0 0 0 0{}  # default\n",
                            block.comm_size, fifth);
        continue;
      }
      const ProfileRule& rule = *block.rule;
      // Without a message size (barrier's is always 0) only the first range can apply.
      const std::uint64_t factor = ompi_rule_size_factor(rule, block.comm_size);
      const std::size_t n = factor == 0 ? 1 : rule.ranges.size();
      body += fmt::format("{} {}  # comm size, message rules{}\n", block.comm_size, n,
                          block.comm_size == rule.comm_size ? "" : fmt::format(" (the rule for {})", rule.comm_size));
      for (std::size_t k = 0; k < n; ++k) {
        const ProfileRange& range = rule.ranges[k];
        const OmpiRuleColumns cols = ompi_rule_columns(catalog, profile, rule, range);
        body += fmt::format("{} {} {} {}{}  # {}\n", library_range(rule, range, factor).min, cols.algorithm,
                            cols.faninout, cols.segsize, fifth, range.algorithm);
      }
    }
  }
  return fmt::format("{}# pico export --format ompi-rules: {} {}, platform {}\n"
                     "# columns: from-bytes algorithm faninout segsize{}\n{}  # collectives\n{}",
                     v2 ? "rule-file-version-2\n" : "", profile.library.name, profile.library.version,
                     profile.platform, v2 ? " max_requests" : "", collectives, body);
}

// 6.0 reads the JSON form (ompi-json) with the same variables.
const ProfileLoading kLoading{
    .role = ProfileLoading::Role::rules,
    .versions = "<6.0",
    .file_name = "tuned-rules.txt",
    .variables = tuned_rules_variables,
    .launch_env = han_excluded_env,
    .check = "A release build never says whether it read the file (a bad file is ignored silently):\n"
             "check with pico run EXPERIMENT --profile PROFILE, then pico tune --check."};

std::string how_to_load(const TunedProfile& profile, const FormatArgs&, const std::string& file) {
  const std::string components =
      chooses_component(profile)
          ? "This profile chooses han or adapt at some sizes: load it with han's rules too "
            "(pico export --format ompi-han-rules; docs/tuning.md#open-mpi-components).\n"
          : "";
  const LoadVariables variables = tuned_rules_variables(profile, file.empty() ? "FILE" : file);
  return components + fmt::format(
      "Load it in Open MPI {} (coll/tuned reads it at the first collective):\n"
      "  mpirun{} ...\n"
      "  (or export {})\n"
      "{}"
      "{}\n",
      profile.library.version, mca_flags(variables), assignments(variables), han_excluded_line(profile),
      kLoading.check);
}

}  // namespace

extern const ExportFormat kOmpiRulesFormat{
    .name = "ompi-rules",
    .library = "openmpi",
    .description = "Open MPI coll/tuned classic dynamic rules file (4.1, 5.0)",
    .flags = {},
    .directory = false,
    .write = one_file<write>,
    .how_to_load = how_to_load,
    .loading = &kLoading};

}  // namespace pico
