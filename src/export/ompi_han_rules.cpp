// SPDX-License-Identifier: BSD-3-Clause
// Open MPI 4.1 coll/han's dynamic rules file (coll_han_dynamic_file.h), which
// 5.0 reads too (its reader takes a collective's id "in the old format" beside
// its name, and an optional "@algorithm" after han that pico does not write:
// han's variants stay its use_simple variables, which a rule without one
// defers to; seen on 5.0.7, 2 x 2: ring, han, tuned's default and han_simple
// ran at the sizes a profile gave them):
// whitespace-separated tokens, comments after '#'. The collective count,
// then per collective its id (coll_base_functions.h, the ids tuned's rules
// file uses), the count of topological levels and per level its id, the
// count of configurations and per configuration its size (at the global
// level, the communicator size; the first must be 1), the count of message
// size rules and per rule "from-bytes component" (the first from 0). Sizes
// are minima: the last rule at or below the message applies. The message
// size is the datatype size times the count of one rank's block (pico's
// bytes). With han's priority raised, every collective han implements
// passes through its rules, so each gets a rule: tuned where the profile
// keeps tuned or the library default (libnbc for allreduce, below).
#include "export/ompi_han_rules.hpp"

#include <vector>

#include <fmt/format.h>

#include "config/catalog.hpp"
#include "export/export_format.hpp"
#include "export/export_support.hpp"
#include "export/ompi_sizes.hpp"

namespace pico {

namespace {

// 4.1.4's reader takes the component by name (mca_coll_han_component_name_to_id: self, basic, libnbc,
// tuned, sm, adapt, han); an id there is refused ("invalid collective component name 3").
//
// Where the profile keeps tuned, the rule names tuned, but for allreduce: Debian's 4.1.4 dies
// (SIGSEGV, every rank) when han's rules hand allreduce to tuned or basic, at any size (emulated
// cluster, 2 nodes x 2 ranks; cf. open-mpi/ompi#8248, #10456). Named libnbc, which has no blocking
// allreduce, han hands the call to the previous component, tuned, whose rules file then runs the
// profile's algorithm (seen: ompi_coll_base_allreduce_intra_ring at every call with ring forced).
std::string tuned_name(Collective c) { return c == Collective::allreduce ? "libnbc" : "tuned"; }

constexpr int kGlobalCommunicator = 2;  // coll_han_dynamic.h: INTRA_NODE 0, INTER_NODE 1, GLOBAL_COMMUNICATOR 2

// The collectives 4.1's han serves (mca_coll_han_<coll>_intra_dynamic), as pico names them.
const std::vector<Collective>& han_collectives() {
  static const std::vector<Collective> all{Collective::allgather, Collective::allreduce, Collective::barrier,
                                           Collective::bcast,     Collective::gather,    Collective::reduce,
                                           Collective::scatter};
  return all;
}

// The component a range runs in: its catalogue entry's, "" for tuned (a tuned algorithm or the default).
std::string component_of(const Catalog& catalog, const TunedProfile& profile, const ProfileRule& rule,
                         const ProfileRange& range) {
  if (range.algorithm == "default") return "";
  return catalogue_entry(catalog, profile, rule, range).component;
}

// The variables one component range needs: its entry's launch values and its parameters' variables.
// A parameter the algorithm has no variable for is refused: dropped, the export would load another choice.
std::map<std::string, std::string> range_variables(const AlgorithmEntry& entry, const ProfileRange& range,
                                                   const std::string& where) {
  std::map<std::string, std::string> out = entry.env;
  for (const auto& [parameter, value] : range.params) {
    const auto it = entry.parameter_variables.find(parameter);
    if (it == entry.parameter_variables.end()) {
      std::string takes;
      for (const auto& [name, variable] : entry.parameter_variables) takes += (takes.empty() ? "" : ", ") + name;
      throw ExportRefusal(fmt::format("{}: {} takes no parameter '{}'", where, entry.name, parameter),
                          takes.empty() ? fmt::format("{} takes no parameters: drop its params", entry.name)
                                        : fmt::format("{} takes {}", entry.name, takes));
    }
    out[it->second] = param_text(value);
  }
  return out;
}

void require_version(const TunedProfile& profile) {
  if (!profile.library.version.empty() && !version_in_range(profile.library.version, ">=4.1,<6.0"))
    throw ExportRefusal(fmt::format("han's rules file is written for Open MPI 4.1 and 5.0; this profile is for {}",
                                    profile.library.version),
                        "tune on Open MPI 4.1 or 5.0, or keep to coll/tuned's algorithms");
}

ExportOutput write(const TunedProfile& profile, const std::string&, const FormatArgs&) {
  require_version(profile);
  const Catalog& catalog = catalog_for("openmpi");
  ExportOutput out;
  std::string body;
  for (Collective c : han_collectives()) {
    std::vector<const ProfileRule*> rules;  // ascending communicator sizes, one rule each (else refused)
    for (const ProfileRule* rule : rules_by_collective(profile))
      if (rule->collective == c) rules.push_back(rule);
    const int id = spec_for(c).names.ompi_tuned_id;
    body += fmt::format("{}  # collective {}\n1  # topological levels\n{}  # the user's communicator\n", id, name(c),
                        kGlobalCommunicator);
    if (rules.empty()) {
      body += fmt::format("1  # configurations\n1 1  # any communicator size, message rules\n0 {}\n",
                          tuned_name(c));
      continue;
    }
    // The configurations follow tuned's comm-size blocks (ompi_comm_size_blocks), so that han and tuned apply
    // the same rule at every communicator size: a default block names tuned (its rules then run tuned's own
    // decision). Consecutive blocks of one rule are one configuration (han compares pico's bytes, unscaled).
    // The first configuration must be size 1: smaller communicators take the first block, as Open MPI reads.
    std::vector<OmpiCommSizeBlock> configurations;
    for (const OmpiCommSizeBlock& block : ompi_comm_size_blocks(rules))
      if (configurations.empty() || configurations.back().rule != block.rule) configurations.push_back(block);
    body += fmt::format("{}  # configurations\n", configurations.size());
    for (std::size_t k = 0; k < configurations.size(); ++k) {
      const int from = k == 0 ? 1 : configurations[k].comm_size;
      if (configurations[k].rule == nullptr) {
        body += fmt::format("{} 1  # communicator size from {}: no rule tuned for it\n0 {}\n", from, from,
                            tuned_name(c));
        continue;
      }
      const ProfileRule& rule = *configurations[k].rule;
      require_covering(rule);
      body += fmt::format("{} {}  # communicator size from {}, message rules\n", from, rule.ranges.size(), from);
      for (const ProfileRange& range : rule.ranges) {
        const std::string component = component_of(catalog, profile, rule, range);
        if (component == "adapt") refuse_adapt(rule, range);
        if (!component.empty()) require_placement(catalog, rule, range, catalogue_entry(catalog, profile, rule, range));
        body += fmt::format("{} {}  # {}\n", range.min_bytes, component.empty() ? tuned_name(c) : component,
                            range.algorithm);
      }
    }
  }
  han_rules_variables(profile, "");  // refuses what one variable per collective cannot hold
  out.files.push_back({"", fmt::format("# pico export --format ompi-han-rules: {} {}, platform {}\n"
                                       "{}  # collectives\n{}",
                                       profile.library.name, profile.library.version, profile.platform,
                                       han_collectives().size(), body)});
  return out;
}

// Read with tuned's rules (ompi-rules or ompi-json), where the profile chooses han or adapt at some sizes.
const ProfileLoading kHanRulesLoading{
    .role = ProfileLoading::Role::component,
    .versions = "",
    .file_name = "han-rules.txt",
    .variables = han_rules_load_variables,
    .launch_env = nullptr,
    .check = "pico run EXPERIMENT --profile PROFILE loads both; pico tune --check shows which component ran."};

std::string how_to_load(const TunedProfile& profile, const FormatArgs&, const std::string& file) {
  return fmt::format(
      "Load it in Open MPI {} with tuned's rules from the same profile (pico export --format ompi-rules):\n"
      "  mpirun{}{} ...\n"
      "{}\n",
      profile.library.version, mca_flags(han_rules_load_variables(profile, file.empty() ? "FILE" : file)),
      mca_flags(tuned_rules_variables(profile, "TUNED-FILE")), kHanRulesLoading.check);
}

}  // namespace

std::map<std::string, std::string> mca_env(const std::map<std::string, std::string>& variables) {
  std::map<std::string, std::string> env;
  for (const auto& [variable, value] : variables) env["OMPI_MCA_" + variable] = value;
  return env;
}

LoadVariables tuned_rules_variables(const TunedProfile&, const std::string& file) {
  return {{"OMPI_MCA_coll_tuned_use_dynamic_rules", "1"}, {"OMPI_MCA_coll_tuned_dynamic_rules_filename", file}};
}

// han's priority, rules and the chosen variants' variables.
LoadVariables han_rules_load_variables(const TunedProfile& profile, const std::string& file) {
  const std::map<std::string, std::string> env = mca_env(han_rules_variables(profile, file));
  return {env.begin(), env.end()};
}

std::map<std::string, std::string> han_excluded_env(const TunedProfile& profile) {
  return mca_env(han_excluded_variables(profile));
}

// adapt, chosen in han's rules, never runs in 4.1.4: with coll_han_bcast_dynamic_global_communicator_module
// = 5 (and adapt's priority 0 or 1) ompi_coll_adapt_bcast was called 0 times.
void refuse_adapt(const ProfileRule& rule, const ProfileRange& range) {
  throw ExportRefusal(fmt::format("{} from {} B chooses {}: Open MPI 4.1.4's han never hands a call to adapt "
                                  "through its rules (seen: 0 calls of ompi_coll_adapt_bcast)",
                                  describe(rule), range.min_bytes, range.algorithm),
                      "tune without adapt (algorithms other than adapt), or run adapt alone with "
                      "coll_adapt_priority");
}

std::map<std::string, std::string> han_rules_variables(const TunedProfile& profile, const std::string& file) {
  require_version(profile);
  const Catalog& catalog = catalog_for("openmpi");
  std::map<std::string, std::string> vars{{catalog.components.at("han").variable, catalog.components.at("han").value},
                                          {"coll_han_use_dynamic_file_rules", "1"},
                                          {"coll_han_dynamic_rules_filename", file}};
  std::map<std::string, std::string> set_by;  // variable -> the range that set it, for the refusal
  for (const ProfileRule& rule : profile.rules)
    for (const ProfileRange& range : rule.ranges) {
      if (component_of(catalog, profile, rule, range).empty()) continue;
      const AlgorithmEntry& entry = catalogue_entry(catalog, profile, rule, range);
      const std::string where = fmt::format("{} from {} B ({})", describe(rule), range.min_bytes, range.algorithm);
      for (const auto& [variable, value] : range_variables(entry, range, where)) {
        if (const auto it = vars.find(variable); it != vars.end() && it->second != value)
          throw ExportRefusal(fmt::format("{} needs {}={}, but {} needs {}: Open MPI holds one value per collective",
                                          where, variable, value, set_by[variable], it->second),
                              "choose one variant of the component per collective (pico tune with one set of its "
                              "parameters)");
        vars[variable] = value;
        set_by[variable] = where;
      }
    }
  return vars;
}

extern const ExportFormat kOmpiHanRulesFormat{
    .name = "ompi-han-rules",
    .library = "openmpi",
    .description = "Open MPI 4.1/5.0 coll/han dynamic rules file: han or tuned per collective and size",
    .flags = {},
    .directory = false,
    .write = write,
    .how_to_load = how_to_load,
    .loading = &kHanRulesLoading};

std::map<std::string, std::string> han_excluded_variables(const TunedProfile& profile) {
  if (profile.library.version.empty() || chooses_component(profile)) return {};
  const Catalog& catalog = catalog_for(profile.library.name);
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : catalog.forced_only_env_for(profile.library.version))
    out[k.starts_with(catalog.env_prefix) ? k.substr(catalog.env_prefix.size()) : k] = v;
  return out;
}

std::string han_excluded_line(const TunedProfile& profile) {
  std::string flags;
  for (const auto& [variable, value] : han_excluded_variables(profile))
    flags += fmt::format(" --mca {} {}", variable, value);
  if (flags.empty()) return "";
  return fmt::format("Open MPI {}: coll/han runs above tuned; add{} as pico measured (pico run --profile does).\n",
                     profile.library.version, flags);
}

}  // namespace pico
