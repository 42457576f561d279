// SPDX-License-Identifier: BSD-3-Clause
#include "config/application.hpp"

#include <climits>
#include <filesystem>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "config/data_files.hpp"
#include "config/env_names.hpp"
#include "config/units.hpp"
#include "config/yaml_reader.hpp"
#include "support/executable_search.hpp"
#include "support/input_error.hpp"

namespace pico {
namespace {

namespace fs = std::filesystem;
using yaml::Map;
using yaml::Value;

const std::vector<std::string> kApplicationExperimentKeys{"name",   "description", "application", "processes",
                                                          "rounds", "repetitions", "seed",        "variants"};
const std::vector<std::string> kApplicationKeys{"command", "inputs", "figure_of_merit", "timeout", "trace"};
const std::vector<std::string> kFigureKeys{"pattern", "file", "better", "unit"};
const std::vector<std::string> kVariantKeys{"name", "profile", "algorithms", "env"};
const std::vector<std::string> kBetter{"lower", "higher"};

constexpr int kMaxApplicationRounds = 1000;
constexpr int kMaxApplicationRepetitions = 100;

// A program path relative to the experiment file, else on PATH, else one of
// pico's own programs beside the running pico (the test application).
std::string resolve_program(const Value& v, const fs::path& base) {
  const std::string name = v.as_nonempty_string("application command");
  if (name.find('/') != std::string::npos) {
    const fs::path p = fs::path(name).is_absolute() ? fs::path(name) : base / name;
    if (!is_executable_file(p))
      v.fail(fmt::format("the application '{}' is not an executable file", p.string()),
             "give the program's path (relative to the experiment file) or a name on PATH");
    return fs::absolute(p).lexically_normal().string();
  }
  for (const std::string& dir : path_entries())
    if (const fs::path p = fs::path(dir.empty() ? "." : dir) / name; is_executable_file(p))
      return fs::absolute(p).lexically_normal().string();
  if (const fs::path dir = this_program_dir(); !dir.empty() && is_executable_file(dir / name))
    return (dir / name).string();
  v.fail(fmt::format("the application command '{}' is not found on PATH", name),
         "install it (e.g. apt-get install the package that has it), or give its path");
}

std::string existing_file(const Value& v, const fs::path& base, std::string_view what, std::string_view hint) {
  const std::string name = v.as_nonempty_string(what);
  const fs::path p = fs::path(name).is_absolute() ? fs::path(name) : base / name;
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) v.fail(fmt::format("{} '{}' is not a file", what, p.string()), std::string(hint));
  return fs::absolute(p).lexically_normal().string();
}

FigureOfMerit parse_figure(const Value& v) {
  FigureOfMerit f;
  if (v.is_scalar()) {
    f.pattern = v.as_nonempty_string("figure_of_merit");
  } else {
    const Map m = v.as_map("figure_of_merit", kFigureKeys);
    f.pattern = m.require("pattern").as_nonempty_string("figure_of_merit pattern");
    if (auto x = m.get("file")) f.file = x->as_path_component("figure_of_merit file");
    if (auto x = m.get("better")) f.higher_is_better = x->as_choice("better", kBetter) == "higher";
    if (auto x = m.get("unit")) f.unit = x->as_string("unit");
  }
  const Value& where = v.is_scalar() ? v : *v.as_map("figure_of_merit", kFigureKeys).get("pattern");
  try {
    const std::regex re(f.pattern, std::regex::ECMAScript);
    if (re.mark_count() < 1)
      where.fail("the figure_of_merit pattern has no capture group for the number",
                 "put the number in parentheses, e.g. 'Loop time of ([0-9.eE+-]+)'");
  } catch (const std::regex_error& e) {
    where.fail(fmt::format("the figure_of_merit pattern is not a regular expression: {}", e.what()),
               "write an ECMAScript regular expression with one capture group");
  }
  return f;
}

ApplicationVariant parse_variant(const Value& v, const fs::path& base) {
  ApplicationVariant out;
  out.file = v.file();
  out.line = v.line();
  out.column = v.column();
  if (v.is_scalar()) {
    out.name = v.as_path_component("variant name");
    if (out.name != "default")
      v.fail(fmt::format("a variant given by name alone must be 'default', got '{}'", out.name),
             "write {name: NAME, profile: FILE} or {name: NAME, algorithms: {allreduce: ring}} or {name: NAME, env: "
             "{...}}");
    return out;
  }
  const Map m = v.as_map("a variants entry", kVariantKeys);
  out.name = m.require("name").as_path_component("variant name");
  if (auto x = m.get("profile"))
    out.profile = existing_file(*x, base, "the profile", "give a profile pico tune wrote (relative to the experiment file)");
  if (auto x = m.get("algorithms"))
    for (const auto& [key, value] : x->as_entries("algorithms")) {
      const std::string coll = key.as_string("collective");
      const auto c = parse_collective(coll);
      if (!c) {
        std::vector<std::string> names;
        for (Collective k : all_collectives()) names.emplace_back(name(k));
        key.fail(fmt::format("unknown collective '{}'", coll), yaml::suggest(coll, names, "collectives"));
      }
      out.algorithms[*c] = value.as_nonempty_string("algorithm");
    }
  if (auto x = m.get("env")) {
    out.env = parse_env_map(*x, "env");
    // pico preloads its own libraries into every rank, and a resume refuses LD_* from a results directory.
    for (const auto& [key, value] : x->as_entries("env"))
      if (is_loader_variable(key.node().Scalar()))
        key.fail(fmt::format("a variant cannot set {}: pico sets the loader's variables itself", key.node().Scalar()),
                 "set it in the environment pico runs in (LD_PRELOAD is appended to pico's own)");
  }
  if (out.name == "default" && (!out.profile.empty() || !out.algorithms.empty() || !out.env.empty()))
    m.self().fail("the variant 'default' is the library as it comes: it takes no profile, algorithms or env",
                  "give the changed variant another name");
  return out;
}

}  // namespace

bool is_application_experiment(const std::string& path) {
  const Value doc = Value::parse_document(read_config_file(path, "the experiment file", "check the path"), path);
  return doc.is_map() && doc.node()["application"].IsDefined();
}

ApplicationExperiment parse_application_experiment(const std::string& yaml_text, const std::string& file) {
  const Value doc = Value::parse_document(yaml_text, file);
  const Map top = doc.as_map("the application experiment", kApplicationExperimentKeys);
  const fs::path base = fs::absolute(fs::path(file)).parent_path();
  ApplicationExperiment e;
  e.name = top.has("name") ? top.get("name")->as_path_component("name") : fs::path(file).stem().string();
  if (auto v = top.get("description")) e.description = v->as_string("description");
  const Map app = top.require("application").as_map("application", kApplicationKeys);
  const Value command = app.require("command");
  const auto argv = command.is_scalar() ? std::vector<Value>{command} : command.as_list("command");
  if (argv.empty()) command.fail("the application command is empty", "e.g. command: [lmp, -in, in.lj]");
  e.command.push_back(resolve_program(argv[0], base));
  for (std::size_t k = 1; k < argv.size(); ++k) e.command.push_back(argv[k].as_string("command argument"));
  if (auto v = app.get("inputs"))
    for (const Value& item : v->as_list("inputs"))
      e.inputs.push_back(existing_file(item, base, "the input", "give files relative to the experiment file"));
  if (auto v = app.get("figure_of_merit")) e.figure_of_merit = parse_figure(*v);
  if (auto v = app.get("trace")) e.trace = v->as_bool("trace");
  if (auto v = app.get("timeout")) {
    std::string why;
    const auto s = parse_duration_s(v->as_string("timeout"), &why);
    if (!s || *s <= 0) v->fail(s ? "timeout must be longer than zero" : why, "e.g. timeout: 10m");
    e.timeout_s = *s;
  }
  if (auto v = top.get("processes")) {
    e.processes.clear();
    for (const Value& item : v->as_list("processes")) {
      const int np = static_cast<int>(item.as_int("processes", 1, INT_MAX));
      if (std::find(e.processes.begin(), e.processes.end(), np) != e.processes.end())
        item.fail(fmt::format("process count {} is given twice", np));
      e.processes.push_back(np);
    }
    if (e.processes.empty()) v->fail("processes is empty", "e.g. processes: [4]");
  }
  if (auto v = top.get("rounds")) e.rounds = static_cast<int>(v->as_int("rounds", 1, kMaxApplicationRounds));
  if (auto v = top.get("repetitions"))
    e.repetitions = static_cast<int>(v->as_int("repetitions", 1, kMaxApplicationRepetitions));
  if (auto v = top.get("seed")) e.seed = static_cast<std::uint64_t>(v->as_int("seed", 0, INT64_MAX));
  const Value variants = top.require("variants");
  std::set<std::string> names;
  for (const Value& item : variants.as_list("variants")) {
    ApplicationVariant variant = parse_variant(item, base);
    if (!names.insert(variant.name).second) item.fail(fmt::format("variant '{}' is given twice", variant.name));
    if (variant.name == "default")
      e.variants.insert(e.variants.begin(), std::move(variant));
    else
      e.variants.push_back(std::move(variant));
  }
  if (e.variants.empty() || e.variants.front().name != "default") {
    ApplicationVariant d;
    d.name = "default";
    e.variants.insert(e.variants.begin(), d);
  }
  if (e.variants.size() < 2)
    variants.fail("the experiment compares nothing: give at least one variant besides 'default'",
                  "e.g. variants: [default, {name: tuned, profile: profile.json}]");
  e.source_path = file;
  e.source_text = yaml_text;
  return e;
}

ApplicationExperiment load_application_experiment(const std::string& path) {
  return parse_application_experiment(read_config_file(path, "the experiment file", "check the path"), path);
}

}  // namespace pico
