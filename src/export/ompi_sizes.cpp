// SPDX-License-Identifier: BSD-3-Clause
#include "export/ompi_sizes.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "collectives/spec.hpp"
#include "export/export_support.hpp"
#include "export/ompi_han_rules.hpp"

namespace pico {

int ompi_collective_id(Collective c) {
  const ToolNames& n = spec_for(c).names;
  if (n.ompi_tuned_id < 0)
    throw ExportRefusal(fmt::format("{} has no coll/tuned rules (point to point)", name(c)),
                        "leave it out of the profile");
  return n.ompi_tuned_id;
}

std::string ompi_json_key(Collective c) {
  ompi_collective_id(c);  // refuses what tuned has no rules for
  return std::string(spec_for(c).names.ompi_json_key);
}

std::uint64_t ompi_size_factor(Collective c, int comm_size) {
  const SizeBasis basis = spec_for(c).names.ompi_size;
  if (basis == SizeBasis::untuned)
    throw ExportRefusal(fmt::format("Open MPI's coll/tuned rules for {} compare the datatype size times the "
                                    "communicator size, not the message size: they cannot hold a per-size choice",
                                    name(c)),
                        fmt::format("leave {} out of the profile, or force one algorithm with its "
                                    "coll_tuned_<collective>_algorithm variable",
                                    name(c)));
  return size_factor(basis, comm_size);
}

std::uint64_t ompi_rule_size_factor(const ProfileRule& rule, int comm_size) {
  const std::uint64_t factor = ompi_size_factor(rule.collective, comm_size);
  if (factor == 0 && std::any_of(rule.ranges.begin(), rule.ranges.end(), [&](const ProfileRange& r) {
        return r.algorithm != rule.ranges.front().algorithm || r.params != rule.ranges.front().params;
      }))
    throw ExportRefusal(fmt::format("{}: Open MPI's rules choose {} by communicator size alone, and the profile "
                                    "chooses differently by message size",
                                    describe(rule), name(rule.collective)),
                        fmt::format("force one {} algorithm for this communicator size", name(rule.collective)));
  return factor;
}

OmpiRuleColumns ompi_rule_columns(const Catalog& catalog, const TunedProfile& profile, const ProfileRule& rule,
                                  const ProfileRange& range) {
  OmpiRuleColumns cols;
  if (range.algorithm == "default") {
    cols.algorithm = "0";
    return cols;
  }
  const AlgorithmEntry& entry = catalogue_entry(catalog, profile, rule, range);
  if (entry.component == "adapt") refuse_adapt(rule, range);
  if (!entry.component.empty()) {
    // han runs these sizes (han's rules file hands them to it): tuned keeps its own decision.
    cols.algorithm = "0";
    return cols;
  }
  cols.algorithm = entry.value;
  for (const auto& [param, value] : range.params) {
    const auto v = static_cast<long long>(value);
    if (param == "segment_size") cols.segsize = v;
    else if (param == "chain_fanout" || param == "tree_fanout") cols.faninout = v;
    else
      throw ExportRefusal(fmt::format("{}: parameter '{}' of {} has no column in Open MPI's rules", describe(rule),
                                      param, range.algorithm),
                          "the rules carry segment_size and one fan-out only");
  }
  return cols;
}

}  // namespace pico
