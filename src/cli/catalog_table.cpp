// SPDX-License-Identifier: BSD-3-Clause
#include "cli/catalog_table.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "config/catalog.hpp"

namespace pico {
namespace {

struct Row {
  std::string library, collective, call, algorithm, selection, parameters, versions, constraints;
};

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : sep) + i;
  return out;
}

// "MPI_T VAR=ID" or "env VAR=VALUE"; where MPI_T takes an id apart from the
// name the environment takes (MPICH), both, in one word: "MPI_T VAR=3(recursive_doubling)".
std::string selection_of(const Catalog& cat, const CollectiveCatalog& cc, const AlgorithmEntry* a) {
  if (cat.mechanism == SelectionMechanism::builtin) return "built in";
  if (a != nullptr && !a->component.empty()) {  // another component, raised at launch
    const ComponentSelection& component = cat.components.at(a->component);
    // A file beside the catalogue by the name it gives, not this machine's path.
    std::string text = fmt::format("launch {}={}", component.variable,
                                   component.file.empty() ? component.value : component.file);
    for (const auto& [variable, v] : component.env) text += fmt::format(" {}={}", variable, v);
    for (const auto& [variable, v] : a->env) text += fmt::format(" {}={}", variable, v);
    return text;
  }
  if (cc.variable.empty()) return "(the library's only form)";
  if (cat.mechanism == SelectionMechanism::mpi_t) {
    const std::string& value = a == nullptr ? cat.default_value : a->value;
    const std::string& id = a == nullptr ? cat.default_readback : a->readback;
    if (id.empty() || id == value) return fmt::format("MPI_T {}={}", cc.variable, value);
    return fmt::format("MPI_T {}={}({})", cc.variable, id, value);
  }
  std::string text = fmt::format("env {}={}", cc.variable, a == nullptr ? "(unset)" : a->value);
  if (a != nullptr)
    for (const auto& [variable, v] : a->env) text += fmt::format(" {}={}", variable, v);
  return text;
}

// One call form's rows of a catalogue for collective c: the blocking call's
// (every collective the library runs) or the non-blocking call's (those with a variable).
void add_rows(const std::string& lib, const Catalog& cat, Collective c, CallForm form, const std::string& version,
              std::vector<Row>& out) {
  static const CollectiveCatalog kNoChoice;  // no variable, no algorithms: the library's only form
  const auto& of_form = cat.collectives_of(form);
  auto it = of_form.find(c);
  // A library that runs a collective without any choice of algorithm (MPI_Sendrecv) has no entry for it but
  // still runs it as `default`; a built-in catalogue has no default, and an unsupported collective no case.
  const bool default_only = form == CallForm::blocking && it == of_form.end() &&
                            cat.mechanism != SelectionMechanism::builtin && !cat.unsupported.contains(c);
  if (it == of_form.end() && !default_only) return;
  const auto& cc = default_only ? kNoChoice : it->second;
  const std::string call(name(form));
  std::vector<std::string> for_all;
  for (const auto& k : cc.constraints) for_all.push_back(k.require.expression());
  std::vector<std::string> common = for_all;
  for (const auto& k : cat.constraints) common.push_back(k.require.expression());
  if (cat.mechanism != SelectionMechanism::builtin)
    out.push_back(
        {lib, std::string(name(c)), call, "default", selection_of(cat, cc, nullptr), "", "", join(for_all, "; ")});
  for (const auto& a : cc.algorithms) {
    if (!version.empty() && !version_in_range(version, a.versions)) continue;
    std::vector<std::string> params;
    for (const auto& p : a.parameters) {
      const auto& variables = a.parameter_variables.contains(p) ? a.parameter_variables : cc.parameter_variables;
      params.push_back(variables.contains(p) ? fmt::format("{} ({})", p, variables.at(p)) : p);
    }
    std::vector<std::string> constraints = common;
    if (!a.component.empty())
      for (const auto& k : cat.components.at(a.component).constraints) constraints.push_back(k.require.expression());
    for (const auto& k : a.constraints) constraints.push_back(k.require.expression());
    out.push_back({lib, std::string(name(c)), call, a.name, selection_of(cat, cc, &a), join(params, ", "),
                   a.versions.empty() ? "all" : a.versions, join(constraints, "; ")});
  }
}

std::vector<Row> rows(const std::string& library, const std::string& collective, const std::string& version) {
  std::vector<Row> out;
  for (const auto& lib : catalog_libraries()) {
    if (!library.empty() && lib != library) continue;
    const Catalog& cat = catalog_for(lib);
    for (CallForm form : {CallForm::blocking, CallForm::nonblocking})
      for (Collective c : all_collectives())
        if (collective.empty() || name(c) == collective) add_rows(lib, cat, c, form, version, out);
  }
  return out;
}

}  // namespace

std::string render_algorithms_text(const std::string& library, const std::string& collective,
                                   const std::string& version) {
  const auto all = rows(library, collective, version);
  std::size_t selection_width = 58;  // the selection column fits its longest entry (MPICH's id and name)
  for (const auto& r : all) selection_width = std::max(selection_width, r.selection.size());
  std::size_t algorithm_width = 38;
  for (const auto& r : all) algorithm_width = std::max(algorithm_width, r.algorithm.size());
  std::string out = fmt::format("{:<10} {:<15} {:<11} {:<{}} {:<{}} {:<10} {}\n", "library", "collective", "call",
                                "algorithm", algorithm_width, "selection", selection_width, "versions",
                                "constraints / parameters");
  for (const auto& r : all) {
    std::string extra = r.constraints;
    if (!r.parameters.empty()) extra += (extra.empty() ? "" : "; ") + std::string("params: ") + r.parameters;
    out += fmt::format("{:<10} {:<15} {:<11} {:<{}} {:<{}} {:<10} {}\n", r.library, r.collective, r.call, r.algorithm,
                       algorithm_width, r.selection, selection_width, r.versions.empty() ? "all" : r.versions, extra);
  }
  return out;
}

std::string render_algorithms_markdown(const std::string& library, const std::string& collective,
                                       const std::string& version) {
  std::string out;
  std::string current;
  for (const auto& r : rows(library, collective, version)) {
    if (r.library != current) {
      const Catalog& cat = catalog_for(r.library);
      out += fmt::format("{}### {}\n\n{}\n\n", current.empty() ? "" : "\n", r.library, cat.description);
      out += "| collective | call | algorithm | selection | parameters | versions | runs as itself only if |\n";
      out += "|---|---|---|---|---|---|---|\n";
      current = r.library;
    }
    out += fmt::format("| {} | {} | {} | `{}` | {} | {} | {} |\n", r.collective, r.call, r.algorithm, r.selection,
                       r.parameters.empty() ? "" : r.parameters, r.versions.empty() ? "all" : r.versions,
                       r.constraints.empty() ? "" : "`" + r.constraints + "`");
  }
  return out;
}

}  // namespace pico
