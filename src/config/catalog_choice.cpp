// SPDX-License-Identifier: BSD-3-Clause
#include "config/catalog_choice.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "config/constraint.hpp"

namespace pico {

CatalogChoice choose(const Catalog& cat, Collective coll, const std::string& algorithm, CallForm form,
                     const std::string& version, const std::string& library_label) {
  CatalogChoice r;
  if (auto it = cat.unsupported.find(coll); it != cat.unsupported.end()) {
    r.skip_reason = fmt::format("{} has no {}: {}", cat.library, name(coll), it->second);
    return r;
  }
  // The call form's own variables: MPI_I<Coll> runs the library's non-blocking schedules.
  const auto& of_form = cat.collectives_of(form);
  const auto coll_it = of_form.find(coll);
  const CollectiveCatalog* cc = coll_it == of_form.end() ? nullptr : &coll_it->second;
  if (cc != nullptr) r.parameter_variables = cc->parameter_variables;
  const SelectionMechanism mechanism = cat.mechanism_for(version);
  if (algorithm == "default") {
    if (mechanism == SelectionMechanism::mpi_t && cc != nullptr) {
      r.selection.mechanism = name(mechanism);
      r.selection.variable = cc->variable;
      r.selection.value = cat.default_value;
      r.selection.readback = cat.default_readback;
      r.selection.takes_effect = cat.takes_effect;
    } else if (mechanism == SelectionMechanism::env) {
      r.selection.mechanism = name(mechanism);  // nothing set: the library's own choice
      r.selection.verify = cat.verify;
    }
    return r;
  }
  r.entry = cat.find(coll, algorithm, form);
  if (r.entry == nullptr) {
    r.skip_reason = fmt::format("{} has no algorithm '{}' for {}{}", library_label, algorithm, name(coll),
                                form == CallForm::blocking ? "" : fmt::format(" (call: {})", name(form)));
    return r;
  }
  if (!version_in_range(version, r.entry->versions)) {
    r.skip_reason =
        fmt::format("'{}' for {} needs {} {}; this is {}", algorithm, name(coll), cat.library, r.entry->versions, version);
    return r;
  }
  for (const auto& [parameter, variable] : r.entry->parameter_variables) r.parameter_variables[parameter] = variable;
  if (!r.entry->component.empty()) {
    // Another component (Open MPI's han raised by its priority, an MPICH ch4
    // composition named by a selection file): set at launch, one launch per
    // component and parameter values; the catalogue's own variable stays unset.
    const ComponentSelection& component = cat.components.at(r.entry->component);
    r.selection.mechanism = name(SelectionMechanism::env);
    r.selection.verify = component.verify;
    r.selection.variable = component.variable;
    r.selection.value = component.value;
    r.selection.parameters = component.env;
    for (const auto& [variable, value] : r.entry->env) r.selection.parameters[variable] = value;
    return r;
  }
  r.selection.mechanism = name(mechanism);
  r.selection.verify = cat.verify;
  if (mechanism == SelectionMechanism::mpi_t) r.selection.takes_effect = cat.takes_effect;
  if (cc != nullptr) r.selection.variable = cc->variable;
  r.selection.value = r.entry->value;
  r.selection.readback = r.entry->readback;
  r.selection.parameters = r.entry->env;
  return r;
}

std::string constraint_violation(const Catalog& cat, const AlgorithmEntry* entry, const Case& c,
                                 const RankPlacement& placement) {
  const auto& of_form = cat.collectives_of(call_form(c));
  const auto coll = of_form.find(c.collective);
  const std::vector<AlgorithmConstraint> none;
  const auto& for_collective = coll == of_form.end() ? none : coll->second.constraints;
  if (entry == nullptr && for_collective.empty()) return "";
  const auto param = [&](const char* name) -> std::int64_t {
    const auto it = c.params.find(name);
    return it == c.params.end() ? 0 : static_cast<std::int64_t>(it->second);
  };
  auto vars = constraint_variables(c.np, c.count, dtype_size(c.dtype), c.in_place, param("segment_size"),
                                   c.dtype == Dtype::float32 || c.dtype == Dtype::float64, c.op == Op::sum,
                                   param("bits"));
  vars["nodes"] = placement.nodes(c.np);
  const std::vector<std::size_t> per_host = placement.ranks_per_host(c.np);
  vars["ppn"] = static_cast<std::int64_t>(*std::max_element(per_host.begin(), per_host.end()));
  vars["ppn_balanced"] = placement.balanced(c.np) ? 1 : 0;
  vars["node_consecutive"] = placement.node_consecutive(c.np) ? 1 : 0;
  const auto& for_component =
      entry != nullptr && !entry->component.empty() ? cat.components.at(entry->component).constraints : none;
  for (const auto* list : {&for_collective, entry ? &cat.constraints : &none, &for_component,
                           entry ? &entry->constraints : &none})
    for (const auto& k : *list)
      if (!k.require.holds(vars)) return fmt::format("{} (requires {})", k.reason, k.require.expression());
  return "";
}

}  // namespace pico
