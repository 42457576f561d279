// SPDX-License-Identifier: BSD-3-Clause
#include "config/catalog.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "config/data_files.hpp"
#include "config/env_names.hpp"
#include "config/units.hpp"
#include "config/yaml_reader.hpp"
#include "support/input_error.hpp"
#include "support/json_file.hpp"
#include "support/whole_file.hpp"

namespace pico {
namespace fs = std::filesystem;
using yaml::Map;
using yaml::Value;

namespace {

const std::vector<std::string> kCatalogKeys{"library",     "description",    "runtime",        "dtypes",
                                            "unsupported", "default_only",   "selection",      "collectives",
                                            "nonblocking", "parameter_grid", "parameter_types"};
const std::vector<std::string> kSelectionKeys{"mechanism",      "default_value",         "default_readback",
                                              "env_prefix",     "launch_env",            "launch_env_by_version",
                                              "constraints",    "verify",                "actual",
                                              "mpi_t_versions", "takes_effect",          "components"};
const std::vector<std::string> kComponentKeys{"variable", "value", "file", "env", "verify", "constraints"};
const std::vector<std::string> kTakesEffect{"new_communicator", "next_call"};
const std::vector<std::string> kActualKeys{"source", "why"};
const std::vector<std::string> kActualSources{"interposer", "none"};
const std::vector<std::string> kVerifyChoices{"mpi_t", "environment"};
const std::vector<std::string> kRuntimes{"mpi", "nccl"};
// Each mechanism and its name in a catalogue's `selection.mechanism` (and a case's Selection::mechanism).
constexpr std::array<std::pair<SelectionMechanism, std::string_view>, 3> kMechanisms{
    {{SelectionMechanism::mpi_t, "mpi_t"}, {SelectionMechanism::env, "env"}, {SelectionMechanism::builtin, "builtin"}}};
const std::vector<std::string> kCollectiveKeys{"variable", "parameters", "algorithms", "constraints"};
const std::vector<std::string> kAlgorithmKeys{"name", "value", "readback", "parameters", "constraints",
                                              "versions", "description", "cost", "env", "function",
                                              "component", "flat", "parameter_variables"};
const std::vector<std::string> kConstraintKeys{"require", "reason"};
const std::vector<std::string> kVersionedKeys{"versions", "env", "forced_only"};

std::map<std::string, std::string> parse_string_map(const Value& v, std::string_view what) {
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : v.as_entries(what)) out[key.as_string(what)] = value.as_string(what);
  return out;
}


void check_versions(const Value& v) {
  const std::string range = v.as_string("versions");
  try {
    version_in_range("1.0", range);
  } catch (const std::invalid_argument& e) {
    v.fail(e.what(), "write a range like \">=4.1\", \"<6.0\" or \">=4.1,<6.0\"");
  }
}

// A data file named relative to the catalogue's own (MPICH's ch4 selection
// files), as the absolute path the library is given at launch: a regular
// file inside the catalogue's directory, once links are followed (a `..` or a
// link out would hand the library any file of the machine), and of a JSON
// file's size (kMaxSmallJsonFileBytes), since the library reads it whole.
std::string file_beside(const Value& v, const std::string& catalogue_file) {
  const fs::path relative = v.as_nonempty_string("file");
  if (relative.is_absolute()) v.fail("a component's 'file' is named relative to the catalogue", "drop the leading '/'");
  std::error_code ec;
  const fs::path dir = fs::absolute(fs::path(catalogue_file).parent_path(), ec).lexically_normal();
  const fs::path file = (dir / relative).lexically_normal();
  const auto inside = [](const fs::path& path, const fs::path& root) {
    const fs::path rel = path.lexically_relative(root);
    return !rel.empty() && *rel.begin() != "..";
  };
  const char* kHint = "name a file in the catalogue's directory or below it, e.g. mpich/ch4-composition-alpha.json";
  if (ec || !inside(file, dir))
    v.fail(fmt::format("'{}' lies outside the catalogue's directory ({})", relative.string(), dir.string()), kHint);
  if (!fs::is_regular_file(file, ec))
    v.fail(fmt::format("no file '{}' beside the catalogue (looked for {})", relative.string(), file.string()),
           "reinstall pico");
  const fs::path real = fs::canonical(file, ec);
  const fs::path real_dir = ec ? fs::path() : fs::canonical(dir, ec);
  if (ec || !inside(real, real_dir))
    v.fail(fmt::format("'{}' is a link to {}, outside the catalogue's directory ({})", relative.string(),
                       real.string(), real_dir.string()),
           kHint);
  const std::uintmax_t size = fs::file_size(real, ec);
  if (ec || size > kMaxSmallJsonFileBytes)
    v.fail(fmt::format("'{}' is {} bytes, more than the {} a component's file may hold", relative.string(),
                       ec ? std::string("an unknown number of") : std::to_string(size), kMaxSmallJsonFileBytes),
           "a composition file is a small JSON tree (pico's are under 1 KiB)");
  // The library parses it at start-up and aborts every rank on one it cannot (MPICH at MPI_Init, seen): what
  // is not a JSON object (bounded nesting, json_file.hpp) is refused here, before a dry run or a launch says ok.
  const char* kTreeHint = "a component's file is the library's JSON selection tree, as in configs/catalog/mpich/";
  const std::string tree = read_whole_file(real, kMaxSmallJsonFileBytes, "a component's file", kTreeHint);
  if (!parse_json_text(tree, real.string(), kTreeHint).is_object())
    v.fail(fmt::format("'{}' ({}) is JSON but not an object: the library reads a selection tree of "
                       "\"collective=NAME\" keys",
                       relative.string(), real.string()),
           kTreeHint);
  return file.string();
}

std::vector<AlgorithmConstraint> parse_constraints(const Value& v) {
  std::vector<AlgorithmConstraint> out;
  for (const auto& c : v.as_list("constraints")) {
    const Map cm = c.as_map("a constraint", kConstraintKeys);
    const Value req = cm.require("require");
    try {
      out.push_back({Constraint(req.as_string("require")), cm.require("reason").as_string("reason")});
    } catch (const std::invalid_argument& e) {
      req.fail(e.what(), "see docs/algorithms.md for the constraint language");
    }
  }
  return out;
}

AlgorithmEntry parse_algorithm(const Value& v, const CollectiveCatalog& coll) {
  const Map m = v.as_map("an algorithm", kAlgorithmKeys);
  AlgorithmEntry a;
  a.name = m.require("name").as_nonempty_string("name");
  if (a.name == "default") m.require("name").fail("'default' is implicit in every catalogue; do not list it");
  if (auto x = m.get("value")) a.value = x->as_string("value");
  if (auto x = m.get("readback")) a.readback = x->as_string("readback");
  if (auto x = m.get("description")) a.description = x->as_string("description");
  if (auto x = m.get("cost")) a.cost = x->as_string("cost");
  if (auto x = m.get("versions")) {
    check_versions(*x);
    a.versions = x->as_string("versions");
  }
  if (auto x = m.get("component")) a.component = x->as_nonempty_string("component");
  if (auto x = m.get("flat")) {
    if (!m.get("component")) x->fail("'flat' marks an algorithm of another component", "give its 'component'");
    a.flat = x->as_bool("flat");
  }
  if (auto x = m.get("parameter_variables")) a.parameter_variables = parse_string_map(*x, "parameter_variables");
  if (auto x = m.get("parameters")) {
    for (const auto& p : x->as_list("parameters")) {
      std::string name = p.as_nonempty_string("parameter");
      if (!coll.variable.empty() && !coll.parameter_variables.contains(name) && !a.parameter_variables.contains(name))
        p.fail(fmt::format("parameter '{}' has no variable in this collective's 'parameters' map, nor in the "
                           "algorithm's 'parameter_variables'", name));
      a.parameters.push_back(std::move(name));
    }
  }
  if (auto x = m.get("constraints")) a.constraints = parse_constraints(*x);
  if (auto x = m.get("env")) a.env = parse_env_map(*x, "env");
  if (auto x = m.get("function")) a.function = x->as_nonempty_string("function");
  return a;
}

CollectiveCatalog parse_collective_entry(const Value& v, const Catalog& cat) {
  const SelectionMechanism mechanism = cat.mechanism;
  const Map m = v.as_map("a collective", kCollectiveKeys);
  CollectiveCatalog c;
  if (auto x = m.get("variable")) c.variable = x->as_nonempty_string("variable");
  if (auto x = m.get("parameters")) c.parameter_variables = parse_string_map(*x, "parameters");
  if (auto x = m.get("constraints")) c.constraints = parse_constraints(*x);
  const auto algorithms = m.get("algorithms");
  if (!algorithms && c.constraints.empty()) m.self().fail("a collective needs its 'algorithms' (or 'constraints')");
  if (algorithms && mechanism != SelectionMechanism::builtin && c.variable.empty())
    m.self().fail("a collective needs the 'variable' that selects its algorithm");
  if (algorithms) for (const auto& a : algorithms->as_list("algorithms")) {
    AlgorithmEntry entry = parse_algorithm(a, c);
    if (mechanism != SelectionMechanism::builtin && entry.value.empty() && entry.component.empty())
      a.fail(fmt::format("algorithm '{}' needs a 'value'", entry.name));
    if (!entry.component.empty() && !entry.value.empty())
      a.fail(fmt::format("algorithm '{}' runs in component '{}': its component is its selection, not a 'value'",
                         entry.name, entry.component));
    if (!entry.component.empty() && !cat.components.contains(entry.component))
      a.fail(fmt::format("algorithm '{}' names component '{}', which selection.components does not define",
                         entry.name, entry.component));
    if (mechanism != SelectionMechanism::env && entry.component.empty() && !entry.env.empty())
      a.fail(fmt::format("algorithm '{}' has 'env' but the catalogue's mechanism is {}", entry.name, name(mechanism)),
             "'env' variables are set at launch: use mechanism env, or a component");
    for (const auto& existing : c.algorithms)
      if (existing.name == entry.name && existing.versions == entry.versions)
        a.fail(fmt::format("algorithm '{}' is listed twice", entry.name));
    c.algorithms.push_back(std::move(entry));
  }
  return c;
}

RanAlgorithmSource parse_ran_algorithm(const std::optional<Value>& v, const Catalog& cat) {
  if (cat.mechanism == SelectionMechanism::builtin) {
    if (v) v->fail("a built-in catalogue runs pico's own code: nothing to say how its algorithm is seen");
    return {"pico", ""};
  }
  if (!v) return {"none", "the catalogue does not say how to see which algorithm the library ran"};
  const Map m = v->as_map("actual", kActualKeys);
  RanAlgorithmSource s{m.require("source").as_choice("source", kActualSources), ""};
  if (auto why = m.get("why")) s.why = why->as_nonempty_string("why");
  if (s.source == "none" && s.why.empty()) m.self().fail("source none needs the 'why'");
  if (s.source == "interposer" && !s.why.empty()) m.key("why")->fail("'why' is for source none");
  return s;
}

// Sizes and counts per parameter; each parameter must be one some collective names.
std::map<std::string, std::vector<double>> parse_parameter_grid(const Value& v, const Catalog& cat) {
  std::map<std::string, std::vector<double>> grid;
  for (const auto& [key, values] : v.as_entries("parameter_grid")) {
    const std::string parameter = key.as_nonempty_string("parameter");
    const bool named = std::any_of(cat.collectives.begin(), cat.collectives.end(), [&](const auto& c) {
      return c.second.parameter_variables.contains(parameter) ||
             std::any_of(c.second.algorithms.begin(), c.second.algorithms.end(),
                         [&](const AlgorithmEntry& a) { return a.parameter_variables.contains(parameter); });
    });
    if (!named) key.fail(fmt::format("no collective of this catalogue takes parameter '{}'", parameter));
    for (const auto& item : values.as_list("parameter_grid values")) {
      std::string why;
      const auto n = parse_size(item.as_string(parameter), &why);
      if (!n) item.fail(why, "write a count, or a size such as 64KiB");
      grid[parameter].push_back(static_cast<double>(*n));
    }
  }
  return grid;
}

// Each parameter must be one an algorithm of this catalogue takes.
std::map<std::string, ParameterType> parse_parameter_types(const Value& v, const Catalog& cat) {
  std::vector<std::string> types;
  for (ParameterType t : {ParameterType::size, ParameterType::fraction, ParameterType::duration, ParameterType::magnitude})
    types.emplace_back(name(t));
  std::map<std::string, ParameterType> out;
  for (const auto& [key, value] : v.as_entries("parameter_types")) {
    const std::string parameter = key.as_nonempty_string("parameter");
    bool taken = false;
    for (const auto* of_form : {&cat.collectives, &cat.nonblocking})
      for (const auto& [coll, entry] : *of_form)
        for (const auto& a : entry.algorithms)
          taken = taken || std::find(a.parameters.begin(), a.parameters.end(), parameter) != a.parameters.end();
    if (!taken) key.fail(fmt::format("no algorithm of this catalogue takes parameter '{}'", parameter));
    out[parameter] = *parse_parameter_type(value.as_choice("parameter type", types));
  }
  return out;
}

std::vector<int> parse_version(const std::string& text) {
  std::vector<int> parts;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, '.')) {
    std::size_t used = 0;
    int n = 0;
    try {
      n = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0) break;  // "4.1.4rc1": compare the numeric prefix
    parts.push_back(n);
    if (used != item.size()) break;
  }
  return parts;
}

int compare_versions(const std::vector<int>& a, const std::vector<int>& b) {
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const int x = i < a.size() ? a[i] : 0, y = i < b.size() ? b[i] : 0;
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

}  // namespace

std::string_view name(ParameterType t) {
  switch (t) {
    case ParameterType::size: return "size";
    case ParameterType::fraction: return "fraction";
    case ParameterType::duration: return "duration";
    case ParameterType::magnitude: return "magnitude";
  }
  return "";
}

std::optional<ParameterType> parse_parameter_type(std::string_view s) {
  for (ParameterType t : {ParameterType::size, ParameterType::fraction, ParameterType::duration, ParameterType::magnitude})
    if (name(t) == s) return t;
  return std::nullopt;
}

bool version_in_range(const std::string& version, const std::string& range) {
  std::stringstream ss(range);
  std::string clause;
  bool ok = true;
  while (std::getline(ss, clause, ',')) {
    clause.erase(0, clause.find_first_not_of(' '));
    clause.erase(clause.find_last_not_of(' ') + 1);
    if (clause.empty()) continue;
    std::string op;
    for (const char* candidate : {">=", "<=", "==", ">", "<"}) {
      if (clause.starts_with(candidate)) {
        op = candidate;
        break;
      }
    }
    const auto bound = parse_version(clause.substr(op.size()));
    if (op.empty() || bound.empty()) throw std::invalid_argument(fmt::format("bad version clause '{}'", clause));
    if (version.empty()) continue;
    const int cmp = compare_versions(parse_version(version), bound);
    ok = ok && ((op == ">=" && cmp >= 0) || (op == "<=" && cmp <= 0) || (op == "==" && cmp == 0) ||
                (op == ">" && cmp > 0) || (op == "<" && cmp < 0));
  }
  return ok;
}

const std::map<Collective, CollectiveCatalog>& Catalog::collectives_of(CallForm form) const {
  return form == CallForm::blocking ? collectives : nonblocking;
}

const AlgorithmEntry* Catalog::find(Collective c, const std::string& algorithm, CallForm form) const {
  const auto& of_form = collectives_of(form);
  auto it = of_form.find(c);
  if (it == of_form.end()) return nullptr;
  for (const auto& a : it->second.algorithms)
    if (a.name == algorithm) return &a;
  return nullptr;
}

std::string_view name(SelectionMechanism m) {
  for (const auto& [mechanism, text] : kMechanisms)
    if (mechanism == m) return text;
  return "env";
}

SelectionMechanism Catalog::mechanism_for(const std::string& version) const {
  if (mechanism != SelectionMechanism::mpi_t || mpi_t_versions.empty()) return mechanism;
  // An unknown version matches every range, but the ids may not be its own.
  return !version.empty() && version_in_range(version, mpi_t_versions) ? SelectionMechanism::mpi_t
                                                                       : SelectionMechanism::env;
}

std::vector<std::string> Catalog::algorithm_names(Collective c, const std::string& version, CallForm form) const {
  std::vector<std::string> names{"default"};
  const auto& of_form = collectives_of(form);
  auto it = of_form.find(c);
  if (it == of_form.end()) return names;
  for (const auto& a : it->second.algorithms)
    if (version_in_range(version, a.versions)) names.push_back(a.name);
  return names;
}

bool Catalog::has_dtype(Dtype d) const {
  if (dtypes.empty()) return is_host_dtype(d);
  return std::find(dtypes.begin(), dtypes.end(), d) != dtypes.end();
}

std::map<std::string, std::string> Catalog::launch_env_for(const std::string& version, bool forced) const {
  auto env = launch_env;
  for (const auto& v : launch_env_by_version)
    if (version_in_range(version, v.versions) && (forced || !v.forced_only)) env.insert(v.env.begin(), v.env.end());
  return env;
}

std::map<std::string, std::string> Catalog::forced_only_env_for(const std::string& version) const {
  std::map<std::string, std::string> env;
  for (const auto& v : launch_env_by_version)
    if (v.forced_only && version_in_range(version, v.versions)) env.insert(v.env.begin(), v.env.end());
  return env;
}

AlgorithmFunctions Catalog::algorithm_functions(const std::string& version) const {
  AlgorithmFunctions out;
  for (const auto& [coll, cc] : collectives)
    for (const auto& a : cc.algorithms)
      if (!a.function.empty() && version_in_range(version, a.versions)) out[a.function] = {coll, a.name, a.component};
  return out;
}

Catalog parse_catalog(const std::string& yaml_text, const std::string& file_for_messages) {
  const Value doc = Value::parse_document(yaml_text, file_for_messages);
  const Map top = doc.as_map("the catalogue", kCatalogKeys);
  Catalog cat;
  cat.source_path = file_for_messages;
  cat.library = top.require("library").as_nonempty_string("library");
  if (auto v = top.get("description")) cat.description = v->as_string("description");
  if (auto v = top.get("runtime")) cat.runtime = v->as_choice("runtime", kRuntimes);
  if (auto v = top.get("dtypes")) {
    std::vector<std::string> dtype_names;
    for (Dtype d : all_dtypes()) dtype_names.emplace_back(name(d));
    for (const auto& d : v->as_list("dtypes")) cat.dtypes.push_back(*parse_dtype(d.as_choice("dtype", dtype_names)));
  }
  const Map sel = top.require("selection").as_map("selection", kSelectionKeys);
  std::vector<std::string> mechanism_names;
  for (const auto& [mechanism, text] : kMechanisms) mechanism_names.emplace_back(text);
  const std::string chosen = sel.require("mechanism").as_choice("mechanism", mechanism_names);
  for (const auto& [mechanism, text] : kMechanisms)
    if (text == chosen) cat.mechanism = mechanism;
  if (auto v = sel.get("default_value")) cat.default_value = v->as_string("default_value");
  if (auto v = sel.get("default_readback")) cat.default_readback = v->as_string("default_readback");
  if (auto v = sel.get("env_prefix")) cat.env_prefix = v->as_string("env_prefix");
  for (const char* key : {"default_value", "default_readback", "mpi_t_versions", "takes_effect"})
    if (cat.mechanism != SelectionMechanism::mpi_t && sel.get(key))
      sel.key(key)->fail(fmt::format("'{}' is for mechanism mpi_t, not {}", key, name(cat.mechanism)));
  if (auto v = sel.get("mpi_t_versions")) {
    check_versions(*v);
    cat.mpi_t_versions = v->as_nonempty_string("mpi_t_versions");
  }
  if (auto v = sel.get("takes_effect")) cat.takes_effect = v->as_choice("takes_effect", kTakesEffect);
  if (auto v = sel.get("launch_env")) cat.launch_env = parse_env_map(*v, "launch_env");
  if (auto v = sel.get("constraints")) cat.constraints = parse_constraints(*v);
  if (auto v = sel.get("verify")) cat.verify = v->as_choice("verify", kVerifyChoices);
  if (auto v = sel.get("components")) {
    if (cat.mechanism == SelectionMechanism::builtin)
      sel.key("components")->fail("a built-in catalogue runs pico's own code: no components");
    for (const auto& [key, value] : v->as_entries("components")) {
      const Map m = value.as_map("a component", kComponentKeys);
      ComponentSelection& c = cat.components[key.as_nonempty_string("component")];
      c.variable = m.require("variable").as_nonempty_string("variable");
      if (auto x = m.get("value")) c.value = x->as_nonempty_string("value");
      if (auto x = m.get("file")) {
        if (!c.value.empty()) x->fail("a component sets its variable to a 'value' or to a 'file', not both");
        c.value = file_beside(*x, file_for_messages);
        c.file = x->as_string("file");
      }
      if (c.value.empty()) m.self().fail("a component needs the 'value' (or 'file') its variable is set to");
      if (auto x = m.get("env")) c.env = parse_env_map(*x, "env");
      if (auto x = m.get("verify")) c.verify = x->as_choice("verify", kVerifyChoices);
      if (auto x = m.get("constraints")) c.constraints = parse_constraints(*x);
    }
  }
  if (auto v = sel.get("launch_env_by_version")) {
    for (const auto& item : v->as_list("launch_env_by_version")) {
      const Map m = item.as_map("launch_env_by_version", kVersionedKeys);
      check_versions(m.require("versions"));
      cat.launch_env_by_version.push_back({m.require("versions").as_string("versions"),
                                           parse_env_map(m.require("env"), "env"),
                                           m.get("forced_only") ? m.get("forced_only")->as_bool("forced_only") : false});
    }
  }
  std::vector<std::string> names;
  for (Collective c : all_collectives()) names.emplace_back(name(c));
  if (auto v = top.get("unsupported"))
    for (const auto& [key, value] : v->as_entries("unsupported"))
      cat.unsupported[*parse_collective(key.as_choice("collective", names))] = value.as_string("unsupported");
  if (auto v = top.get("default_only")) {
    if (cat.mechanism == SelectionMechanism::builtin)
      top.key("default_only")->fail("a built-in catalogue has no default to run",
                                    "list the collective under 'collectives' or 'unsupported'");
    for (const auto& [key, value] : v->as_entries("default_only")) {
      const Collective c = *parse_collective(key.as_choice("collective", names));
      if (cat.unsupported.contains(c)) key.fail(fmt::format("{} is both unsupported and default_only", name(c)));
      cat.default_only[c] = value.as_string("default_only");
    }
  }
  for (const auto& [key, value] : top.require("collectives").as_entries("collectives")) {
    const Collective c = *parse_collective(key.as_choice("collective", names));
    if (cat.default_only.contains(c))
      key.fail(fmt::format("{} is default_only: it has no algorithms or constraints to list", name(c)));
    cat.collectives[c] = parse_collective_entry(value, cat);
  }
  if (auto v = top.get("nonblocking")) {
    if (cat.mechanism == SelectionMechanism::builtin || cat.runtime != "mpi")
      top.key("nonblocking")->fail("only an MPI library's catalogue has non-blocking calls to choose algorithms for");
    for (const auto& [key, value] : v->as_entries("nonblocking")) {
      const Collective c = *parse_collective(key.as_choice("collective", names));
      if (cat.default_only.contains(c) || cat.unsupported.contains(c))
        key.fail(fmt::format("{} has no algorithms to choose in this library", name(c)));
      cat.nonblocking[c] = parse_collective_entry(value, cat);
    }
  }
  cat.ran_algorithm = parse_ran_algorithm(sel.get("actual"), cat);
  if (auto v = top.get("parameter_grid")) cat.parameter_grid = parse_parameter_grid(*v, cat);
  if (auto v = top.get("parameter_types")) cat.parameter_types = parse_parameter_types(*v, cat);
  return cat;
}

namespace {

constexpr const char* kCatalogDirVariable = "PICO_CATALOG_DIR";

// PICO_CATALOG_DIR, when it is set: the only way a catalogue outside pico's
// own is read. The working directory's was read unasked before: a
// ./configs/catalog/ planted there chose what every launch set, and nothing said so.
std::optional<fs::path> asked_catalog_dir() {
  const char* dir = std::getenv(kCatalogDirVariable);
  if (dir == nullptr || *dir == '\0') return std::nullopt;
  std::error_code ec;
  const fs::path p = fs::absolute(dir, ec).lexically_normal();
  if (ec || !fs::is_directory(p, ec))
    throw InputError(kCatalogDirVariable, 0, 0, fmt::format("'{}' is not a directory", dir),
                     "name the directory holding LIBRARY.yaml catalogues, or unset it for pico's own");
  return p;
}

// Where a library's catalogue is looked for, first match wins: PICO_CATALOG_DIR, then pico's own
// (installed, then the source tree).
std::vector<fs::path> catalog_dirs() {
  std::vector<fs::path> dirs = data_file_candidates("configs/catalog", false);
  if (auto asked = asked_catalog_dir()) dirs.insert(dirs.begin(), *asked);
  return dirs;
}

std::mutex& catalog_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::map<std::string, Catalog>& catalog_cache() {
  static std::map<std::string, Catalog> cache;
  return cache;
}

}  // namespace

std::vector<std::string> catalog_libraries() {
  // PICO_CATALOG_DIR's, and those of the first of pico's own directories there is.
  std::vector<fs::path> dirs;
  if (auto asked = asked_catalog_dir()) dirs.push_back(*asked);
  for (const auto& own : data_file_candidates("configs/catalog", false)) {
    std::error_code ec;
    if (!fs::is_directory(own, ec)) continue;
    dirs.push_back(own);
    break;
  }
  std::set<std::string> names;
  for (const auto& dir : dirs)
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.path().extension() == ".yaml") names.insert(entry.path().stem().string());
  return {names.begin(), names.end()};
}

const Catalog& catalog_for(const std::string& library) {
  std::lock_guard lock(catalog_mutex());
  auto& cache = catalog_cache();
  if (auto it = cache.find(library); it != cache.end()) return it->second;
  std::vector<std::string> tried;
  for (const auto& dir : catalog_dirs()) {
    const fs::path f = dir / (library + ".yaml");
    std::error_code ec;
    // Whatever is there is the catalogue: a FIFO, a directory or a link to /dev/zero is refused by the reader
    // (InputError), not skipped for another catalogue.
    if (fs::symlink_status(f, ec).type() == fs::file_type::not_found || ec) {
      tried.push_back(f.string());
      continue;
    }
    return cache[library] =
               parse_catalog(read_config_file(f.string(), "the algorithm catalogue", "reinstall pico"), f.string());
  }
  throw InputError(library, 0, 0, fmt::format("no algorithm catalogue for library '{}'", library),
                    fmt::format("looked for {}", yaml::join(tried)));
}

std::map<std::string, std::string> catalog_files_read() {
  std::lock_guard lock(catalog_mutex());
  std::map<std::string, std::string> files;
  for (const auto& [library, cat] : catalog_cache()) files[library] = cat.source_path;
  return files;
}

}  // namespace pico
