// SPDX-License-Identifier: BSD-3-Clause
#include "export/export_support.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace pico {

std::string tool_name(const ProfileRule& rule, std::string_view ToolNames::*field, std::string_view why) {
  const std::string_view n = spec_for(rule.collective).names.*field;
  if (n.empty())
    throw ExportRefusal(fmt::format("{}: {} for {}", describe(rule), why, name(rule.collective)),
                        "leave it out of the profile");
  return std::string(n);
}

void require_covering(const ProfileRule& rule) {
  const auto& ranges = rule.ranges;
  if (ranges.empty()) throw ExportRefusal(fmt::format("{} has no ranges", describe(rule)), "re-run pico tune");
  if (ranges.front().min_bytes != 0)
    throw ExportRefusal(fmt::format("{}: the first range starts at {} B, not 0 (the library would drop the whole "
                                    "rule set silently or leave small messages untuned)",
                                    describe(rule), ranges.front().min_bytes),
                        "start the first range at 0 (pico tune does)");
  for (std::size_t i = 0; i + 1 < ranges.size(); ++i) {
    const auto& a = ranges[i];
    const auto& b = ranges[i + 1];
    if (!a.max_bytes || *a.max_bytes + 1 != b.min_bytes)
      throw ExportRefusal(fmt::format("{}: range {} ends at {} but the next starts at {} B: the ranges must cover "
                                      "every size once",
                                      describe(rule), i, a.max_bytes ? fmt::format("{} B", *a.max_bytes) : "no bound",
                                      b.min_bytes),
                          "each range's max_bytes + 1 is the next range's min_bytes");
  }
  if (ranges.back().max_bytes)
    throw ExportRefusal(fmt::format("{}: the last range ends at {} B, so larger messages are not covered",
                                    describe(rule), *ranges.back().max_bytes),
                        "leave the last range's max_bytes unbounded (null)");
}

const AlgorithmEntry& catalogue_entry(const Catalog& catalog, const TunedProfile& profile, const ProfileRule& rule,
                                      const ProfileRange& range) {
  const AlgorithmEntry* e = catalog.find(rule.collective, range.algorithm);
  if (e && version_in_range(profile.library.version, e->versions)) return *e;
  std::string have;
  for (const std::string& a : catalog.algorithm_names(rule.collective, profile.library.version))
    have += (have.empty() ? "" : ", ") + a;
  throw ExportRefusal(
      fmt::format("{}: algorithm '{}' is not one {} {} has for {}{}", describe(rule), range.algorithm,
                  catalog.library, profile.library.version, name(rule.collective),
                  e ? fmt::format(" (it exists in versions {})", e->versions) : ""),
      have.empty() ? "this library has no algorithm choice for it" : "the version has: " + have);
}

void require_placement(const Catalog& catalog, const ProfileRule& rule, const ProfileRange& range,
                       const AlgorithmEntry& entry) {
  std::int64_t pow2 = 1;
  while (pow2 * 2 <= rule.comm_size) pow2 *= 2;
  ConstraintVariables vars{{"np", rule.comm_size}, {"np_pow2", pow2}};
  if (rule.nodes > 0 && rule.ppn > 0) {  // 0: a report without placement
    vars["nodes"] = rule.nodes;
    vars["ppn"] = rule.ppn;
    vars["ppn_balanced"] = static_cast<std::int64_t>(rule.nodes) * rule.ppn == rule.comm_size ? 1 : 0;
  }
  const std::vector<AlgorithmConstraint> none;
  const auto component = catalog.components.find(entry.component);
  for (const auto* list : {component == catalog.components.end() ? &none : &component->second.constraints,
                           &entry.constraints})
    for (const AlgorithmConstraint& k : *list) {
      bool holds = true;
      try {
        holds = k.require.holds(vars);
      } catch (const std::invalid_argument&) {
        continue;  // it depends on the call (count, operation, rank order), which a rule does not fix
      }
      if (!holds)
        throw ExportRefusal(fmt::format("{} from {} B chooses {}, which the catalogue rules out on that "
                                        "placement (nodes x ranks per node): {} (requires {})",
                                        describe(rule), range.min_bytes, entry.name, k.reason,
                                        k.require.expression()),
                            "tune on the placement you run (pico tune skips what the catalogue rules out there)");
    }
}

bool chooses_component(const TunedProfile& profile) {
  const Catalog& catalog = catalog_for(profile.library.name);
  for (const ProfileRule& rule : profile.rules)
    for (const ProfileRange& range : rule.ranges)
      if (range.algorithm != "default") {
        const AlgorithmEntry* entry = catalog.find(rule.collective, range.algorithm);
        if (entry != nullptr && !entry->component.empty()) return true;
      }
  return false;
}

}  // namespace pico
