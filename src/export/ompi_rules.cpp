// SPDX-License-Identifier: BSD-3-Clause
// Open MPI coll/tuned's classic dynamic rules file (4.1.x, 5.0.x), read with
// fscanf("%li"): no zero padding (a leading 0 reads as octal), comments
// after '#'. Per collective id, comm-size blocks ascending (the last block
// <= the comm size applies), message rules ascending from 0 (the last rule
// <= the message applies; a first rule other than 0 drops the whole file
// silently). Columns: from-bytes algorithm-id faninout segsize, plus
// max_requests after the `rule-file-version-2` header of 5.0.7 and later
// (4.1 aborts on five columns).
#include <fmt/format.h>

#include "export/export_format.hpp"
#include "export/export_support.hpp"
#include "export/ompi_sizes.hpp"

namespace pico {

namespace {

bool has_version_2_header(const std::string& version) {
  return !version.empty() && version_in_range(version, ">=5.0.7");
}

std::string write(const TunedProfile& profile, const FormatArgs&) {
  const Catalog& catalog = catalog_for("openmpi");
  const bool v2 = has_version_2_header(profile.library.version);
  const auto rules = rules_by_collective(profile);
  std::string body;
  int collectives = 0;
  for (std::size_t i = 0; i < rules.size();) {
    const Collective c = rules[i]->collective;
    const int id = ompi_collective_id(c);
    std::size_t end = i;
    while (end < rules.size() && rules[end]->collective == c) ++end;
    ++collectives;
    body += fmt::format("{}  # collective {}\n{}  # comm-size blocks\n", id, name(c), end - i);
    for (; i < end; ++i) {
      const ProfileRule& rule = *rules[i];
      require_covering(rule);
      // Without a message size (barrier's is always 0) only the first range can apply.
      const std::uint64_t factor = ompi_rule_size_factor(rule);
      const std::size_t n = factor == 0 ? 1 : rule.ranges.size();
      body += fmt::format("{} {}  # comm size, message rules\n", rule.comm_size, n);
      for (std::size_t k = 0; k < n; ++k) {
        const ProfileRange& range = rule.ranges[k];
        const OmpiRuleColumns cols = ompi_rule_columns(catalog, profile, rule, range);
        body += fmt::format("{} {} {} {}{}  # {}\n", library_range(rule, range, factor).min,
                            cols.algorithm, cols.faninout, cols.segsize, v2 ? " 0" : "", range.algorithm);
      }
    }
  }
  return fmt::format("{}# pico export --format ompi-rules: {} {}, platform {}\n"
                     "# columns: from-bytes algorithm faninout segsize{}\n{}  # collectives\n{}",
                     v2 ? "rule-file-version-2\n" : "", profile.library.name, profile.library.version,
                     profile.platform, v2 ? " max_requests" : "", collectives, body);
}

std::string how_to_load(const TunedProfile& profile, const FormatArgs&, const std::string& file) {
  return fmt::format(
      "Load it in Open MPI {0} (coll/tuned reads it at the first collective):\n"
      "  mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename {1} ...\n"
      "  (or export OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_dynamic_rules_filename={1})\n"
      "Open MPI 5.0+: coll/han runs above tuned; add --mca coll ^han as pico measured.\n"
      "A release build never says whether it read the file (a bad file is ignored silently):\n"
      "check with pico run EXPERIMENT --profile PROFILE, then pico tune --check.\n",
      profile.library.version, file.empty() ? "FILE" : file);
}

}  // namespace

extern const ExportFormat kOmpiRulesFormat{
    .name = "ompi-rules",
    .library = "openmpi",
    .description = "Open MPI coll/tuned classic dynamic rules file (4.1, 5.0)",
    .flags = {},
    .directory = false,
    .write = one_file<write>,
    .how_to_load = how_to_load};

}  // namespace pico
