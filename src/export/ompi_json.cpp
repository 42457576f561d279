// SPDX-License-Identifier: BSD-3-Clause
// Open MPI 6.0 JSON rules (same MCA variables as the classic file), as
// ompi/mca/coll/tuned/coll_tuned_dynamic_file.c of v6.0.x reads them
// (ompi_coll_tuned_read_rules_json): per collective, comm-size blocks with
// inclusive bounds and a comm_rank_distribution, message rules with inclusive
// bounds ("inf" for none), the algorithm by name and its parameters as
// "faninout" and "seg_size" (not the schema's spelling: its
// tuned_dynamic_file_schema.json lists no segment size at all); the first
// matching block and rule win. A range left to the default gets no rule:
// tuned's own decision runs where nothing matches. tests/tools/
// check_ompi_json_grammar.py checks the output against that source.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "export/export_format.hpp"
#include "export/export_support.hpp"
#include "export/ompi_han_rules.hpp"
#include "export/ompi_sizes.hpp"
#include "tuning/ompi_rank_distribution.hpp"

namespace pico {

namespace {

std::string write(const TunedProfile& profile, const FormatArgs&) {
  if (!profile.library.version.empty() && !version_in_range(profile.library.version, ">=6.0"))
    throw ExportRefusal(fmt::format("Open MPI {} reads only the classic rules file (JSON rules are main/6.0)",
                                    profile.library.version),
                        "export --format ompi-rules");
  const Catalog& catalog = catalog_for("openmpi");
  nlohmann::ordered_json collectives = nlohmann::ordered_json::object();
  for (const ProfileRule* rule : rules_by_collective(profile)) {
    require_covering(*rule);
    const std::uint64_t factor = ompi_rule_size_factor(*rule);
    nlohmann::ordered_json rules = nlohmann::ordered_json::array();
    for (const ProfileRange& range : rule->ranges) {
      if (range.algorithm == "default") continue;
      const OmpiRuleColumns cols = ompi_rule_columns(catalog, profile, *rule, range);
      if (cols.algorithm == "0") continue;  // another component runs it (han): tuned keeps its own decision
      const LibraryRange r = library_range(*rule, range, factor);
      nlohmann::ordered_json j;
      j["msg_size_min"] = r.min;
      if (r.max) j["msg_size_max"] = *r.max;
      else j["msg_size_max"] = "inf";
      j["alg"] = range.algorithm;
      if (cols.faninout) j["faninout"] = cols.faninout;
      if (cols.segsize) j["seg_size"] = cols.segsize;
      rules.push_back(j);
    }
    if (rules.empty()) continue;
    nlohmann::ordered_json block;
    block["comm_size_min"] = rule->comm_size;
    block["comm_size_max"] = rule->comm_size;
    block["comm_rank_distribution"] = std::string(ompi_json_name(measured_distribution(*rule)));
    block["rules"] = rules;
    collectives[ompi_json_key(rule->collective)].push_back(block);
  }
  nlohmann::ordered_json file;
  file["rule_file_version"] = 3;
  file["module"] = "tuned";
  file["collectives"] = collectives;
  return file.dump(2) + "\n";
}

// The classic file's variables (ompi-rules), from 6.0.
const ProfileLoading kLoading{
    .role = ProfileLoading::Role::rules,
    .versions = ">=6.0",
    .file_name = "tuned-rules.json",
    .variables = tuned_rules_variables,
    .launch_env = han_excluded_env,
    .check = "add --mca coll_tuned_verbose 1 to see tuned report what it read."};

std::string how_to_load(const TunedProfile& profile, const FormatArgs&, const std::string& file) {
  return fmt::format(
      "Load it in Open MPI main / 6.0 (the JSON form of the rules file):\n"
      "  mpirun{} ...\n"
      "  {}\n{}",
      mca_flags(tuned_rules_variables(profile, file.empty() ? "FILE" : file)), kLoading.check,
      han_excluded_line(profile));
}

}  // namespace

extern const ExportFormat kOmpiJsonFormat{
    .name = "ompi-json",
    .library = "openmpi",
    .description = "Open MPI main/6.0 JSON tuned rules",
    .flags = {},
    .directory = false,
    .write = one_file<write>,
    .how_to_load = how_to_load,
    .loading = &kLoading};

}  // namespace pico
