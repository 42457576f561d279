// SPDX-License-Identifier: BSD-3-Clause
#include "config/experiment.hpp"

#include "config/data_files.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "collectives/spec.hpp"
#include "config/backends.hpp"
#include "config/catalog.hpp"
#include "config/count_patterns.hpp"
#include "config/units.hpp"
#include "config/yaml_reader.hpp"
#include "core/case.hpp"
#include "support/input_error.hpp"

namespace pico {
namespace {

using yaml::Map;
using yaml::Value;

const std::vector<std::string> kExperimentKeys{"name",    "description", "collectives", "sizes",    "counts",
                                               "dtypes",  "ops",         "processes",   "in_place", "backends",
                                               "timing",  "validation", "instrumentation", "repetitions",
                                               "repetition_seed", "count_matrix", "sizes_by_collective"};
const std::vector<std::string> kInstrumentationKeys{"phases", "papi", "calls"};
const std::vector<std::string> kRangeKeys{"from", "to", "factor"};
// The keys every backends entry may hold; a backend adds its own (BackendDescriptor::options).
const std::vector<std::string> kBackendKeys{"library", "algorithms", "params"};
// The key of backends whose descriptor has_guidelines (BackendSpec::guidelines).
constexpr const char* kGuidelinesKey = "guidelines";
const std::vector<std::string> kTimingKeys{"mode",         "warmup",       "min_iterations",   "max_iterations",
                                           "time_budget",  "target_ci",    "case_timeout",     "keep_samples",
                                           "calls_per_sample", "graph",        "race",        "rounds",
                                           "rank_timing"};
const std::vector<std::string> kRaceKeys{"budget", "refine"};

constexpr std::int64_t kMaxIterationsLimit = 10'000'000;
constexpr std::int64_t kMaxCallsPerSample = 100'000;
constexpr std::int64_t kMaxRepetitions = 1000;
constexpr std::int64_t kMaxRounds = 1000;
constexpr const char* kSizeHint = "use B, KiB, MiB, GiB (or KB, MB, GB)";

// Rejects a repeated item at the repeat, since a duplicate would silently
// measure the same case twice.
template <class T>
void add_unique(std::vector<T>& items, T item, const Value& where, std::string_view what, std::string_view shown) {
  if (std::find(items.begin(), items.end(), item) != items.end())
    where.fail(fmt::format("{} '{}' is listed twice", what, shown), "remove the repeated entry");
  items.push_back(std::move(item));
}

std::vector<Value> nonempty_list(const Value& v, std::string_view what) {
  auto items = v.as_list(what);
  if (items.empty()) v.fail(fmt::format("{} must not be empty", what));
  return items;
}

// ---- names: collectives, dtypes, ops ----------------------------------------

// `all`, alone, stands for every value; otherwise each item must be one of the names.
// key is the setting ("dtypes"), what one item of it ("dtype").
template <class E>
std::vector<E> parse_names(const Value& v, std::string_view key, std::string_view what, std::span<const E> every,
                           std::optional<E> (*parse)(std::string_view)) {
  const auto items = nonempty_list(v, key);
  std::vector<std::string> allowed;
  for (E e : every) allowed.emplace_back(name(e));
  allowed.emplace_back("all");

  std::vector<E> out;
  for (const auto& item : items) {
    const std::string word = item.as_choice(what, allowed);
    if (word == "all") {
      if (items.size() != 1) item.fail(fmt::format("'all' cannot be combined with other {} names", what));
      return {every.begin(), every.end()};
    }
    add_unique(out, *parse(word), item, what, word);
  }
  return out;
}

// ---- sizes and counts ------------------------------------------------------

// How one scalar of a sizes/counts setting is read: sizes take units, counts
// are plain element counts.
struct Quantity {
  std::string_view what;  // "size" or "count"
  std::uint64_t min;
  std::function<std::uint64_t(const Value&)> read;
};

std::uint64_t read_size(const Value& v) {
  std::string why;
  const auto bytes = parse_size(v.as_string("size"), &why);
  if (!bytes) v.fail(why, kSizeHint);
  return *bytes;
}

std::uint64_t read_count(const Value& v) {
  return static_cast<std::uint64_t>(v.as_int("count", 0, INT64_MAX));
}

std::vector<std::uint64_t> parse_range(const Value& v, const Quantity& q) {
  const Map m = v.as_map(fmt::format("the {} range", q.what), kRangeKeys);
  const Value from_node = m.require("from");
  const Value to_node = m.require("to");
  const std::uint64_t from = q.read(from_node);
  const std::uint64_t to = q.read(to_node);
  std::uint64_t factor = 2;
  if (auto f = m.get("factor")) factor = static_cast<std::uint64_t>(f->as_int("factor", 2, INT64_MAX));
  if (from < 1) from_node.fail(fmt::format("a {} range must start at 1 or more", q.what));
  if (from > to) to_node.fail(fmt::format("'to' must not be below 'from' in a {} range", q.what));
  return size_range(from, to, factor);
}

// A scalar such as "8B:1MiB" or "8B,4KiB" is the command-line list form.
std::optional<std::vector<std::uint64_t>> parse_inline_size_list(const Value& v) {
  if (!v.is_scalar()) return std::nullopt;
  const std::string& text = v.node().Scalar();
  if (text.find_first_of(":,") == std::string::npos) return std::nullopt;
  std::string why;
  auto sizes = parse_size_list(text, &why);
  if (!sizes) v.fail(why, kSizeHint);
  return sizes;
}

std::vector<std::uint64_t> parse_quantities(const Value& v, const Quantity& q, std::string_view key) {
  if (v.is_map()) return parse_range(v, q);
  std::vector<std::uint64_t> out;
  if (q.what == "size") {
    if (auto inline_list = parse_inline_size_list(v)) {
      for (auto s : *inline_list) add_unique(out, s, v, q.what, format_size(s));
      return out;
    }
  }
  for (const auto& item : nonempty_list(v, key)) {
    const std::uint64_t n = q.read(item);
    if (n < q.min) item.fail(fmt::format("a {} must be at least {}, got {}", q.what, q.min, n));
    add_unique(out, n, item, q.what, item.node().Scalar());
  }
  return out;
}

bool only_barrier(const std::vector<Collective>& cs) {
  return std::all_of(cs.begin(), cs.end(), [](Collective c) { return !spec_for(c).has_payload; });
}

// Every size scalar under v (a list, a range's from/to, an inline list) written
// with KB, MB or GB: accepted as powers of 1000, as documented, but said, since
// 64KB for 64 KiB is the likelier intent.
void note_decimal_units(const Value& v, std::vector<std::string>& warnings) {
  if (v.is_list()) {
    for (const Value& item : v.as_list("sizes")) note_decimal_units(item, warnings);
  } else if (v.is_map()) {
    for (const auto& [key, value] : v.as_entries("the size range")) note_decimal_units(value, warnings);
  } else if (v.is_scalar()) {
    if (const std::string note = decimal_unit_note(v.node().Scalar()); !note.empty())
      warnings.push_back(fmt::format("{}:{}:{}: {}", v.file(), v.line(), v.column(), note));
  }
}

void parse_payload(const Map& top, Experiment& e) {
  const auto sizes = top.get("sizes");
  const auto counts = top.get("counts");
  if (sizes && counts)
    top.key("counts")->fail("give either sizes or counts, not both",
                            "sizes are bytes per rank block, counts are elements per rank block");
  if (sizes) {
    e.sizes = parse_quantities(*sizes, {"size", 1, read_size}, "sizes");
    note_decimal_units(*sizes, e.warnings);
  }
  if (counts) e.counts = parse_quantities(*counts, {"count", 0, read_count}, "counts");
  if (const auto by = top.get("sizes_by_collective")) {
    if (sizes || counts)
      top.key("sizes_by_collective")->fail("give sizes_by_collective instead of sizes or counts, not beside them",
                                           "list each collective's sizes under it");
    for (const auto& [key, value] : by->as_entries("sizes_by_collective")) {
      const std::string coll = key.as_string("collective");
      const auto c = parse_collective(coll);
      if (!c || std::find(e.collectives.begin(), e.collectives.end(), *c) == e.collectives.end())
        key.fail(fmt::format("'{}' is not one of the experiment's collectives", coll),
                 "add it to collectives, or leave its sizes out");
      e.sizes_by_collective[*c] = parse_quantities(value, {"size", 1, read_size}, "sizes_by_collective");
      note_decimal_units(value, e.warnings);
      for (std::uint64_t b : e.sizes_by_collective[*c])
        if (std::find(e.sizes.begin(), e.sizes.end(), b) == e.sizes.end()) e.sizes.push_back(b);
    }
    std::sort(e.sizes.begin(), e.sizes.end());
    for (Collective c : e.collectives)
      if (spec_for(c).has_payload && e.sizes_by_collective.count(c) == 0)
        by->fail(fmt::format("sizes_by_collective gives no sizes for {}", name(c)),
                 "give every collective of the experiment its sizes (barrier takes none)");
    return;
  }
  if (!sizes && !counts && !only_barrier(e.collectives))
    top.self().fail("the experiment needs 'sizes' or 'counts'", "e.g. 'sizes: [8B, 4KiB, 1MiB]' or "
                                                                "'sizes: {from: 8B, to: 1MiB}'");
}

// ---- other settings --------------------------------------------------------

std::vector<int> parse_processes(const Value& v) {
  std::vector<int> out;
  for (const auto& item : nonempty_list(v, "processes")) {
    const int np = static_cast<int>(item.as_int("processes", 1, INT_MAX));
    add_unique(out, np, item, "process count", std::to_string(np));
  }
  return out;
}

std::vector<bool> parse_in_place(const Value& v) {
  if (v.is_scalar() && v.node().Scalar() == "both") return {false, true};
  bool flag = false;
  if (!v.is_scalar() || !YAML::convert<bool>::decode(v.node(), flag))
    v.fail(fmt::format("in_place must be false, true or both, got {}", v.describe()));
  return {flag};
}

// The names a backend's catalogues know for these collectives (either call
// form); the backend's whole list where it has no catalogue or none matches.
std::vector<std::string> algorithms_for(const BackendDescriptor& backend, const std::vector<Collective>& collectives) {
  std::vector<std::string> names;
  for (const std::string& library : backend.catalogs)
    for (Collective c : collectives)
      for (CallForm form : {CallForm::blocking, CallForm::nonblocking})
        for (const std::string& a : catalog_for(library).algorithm_names(c, "", form))
          if (std::find(names.begin(), names.end(), a) == names.end()) names.push_back(a);
  return names.empty() ? backend.algorithms : names;
}

// An unknown algorithm's hint: the near names of the experiment's collectives
// only (a typo listed ~80 names of every library), and where all of them are.
std::string unknown_algorithm_hint(const std::string& a, const BackendDescriptor& backend,
                                   const std::vector<Collective>& collectives) {
  std::vector<std::string> collective_names;
  for (Collective c : collectives) collective_names.emplace_back(name(c));
  const std::string where = collectives.size() == 1
                                ? fmt::format("`pico list algorithms --collective {}` lists them all", collective_names[0])
                                : std::string("`pico list algorithms --collective COLLECTIVE` lists them all");
  std::vector<std::string> relevant = algorithms_for(backend, collectives);
  std::vector<std::string> near = yaml::near_names(a, relevant);
  if (near.empty()) near = yaml::near_names(a, backend.algorithms);
  if (near.empty()) return fmt::format("no algorithm of backend '{}' is near that name; {}", backend.name, where);
  return fmt::format("{}near names for {}: {}; {}", near.size() == 1 ? fmt::format("did you mean '{}'? ", near[0]) : "",
                     yaml::join(collective_names), yaml::join(near), where);
}

std::vector<std::string> parse_algorithms(const std::optional<Value>& v, const BackendDescriptor& backend,
                                          const Value& library_node, const std::vector<Collective>& collectives) {
  if (!v) {
    BackendSpec defaults;
    for (const auto& a : defaults.algorithms)
      if (std::find(backend.algorithms.begin(), backend.algorithms.end(), a) == backend.algorithms.end())
        library_node.fail(fmt::format("backend '{}' has no '{}' algorithm", backend.name, a),
                          fmt::format("name its algorithms: {}", yaml::join(backend.algorithms)));
    return defaults.algorithms;
  }
  std::vector<std::string> out;
  const auto items = nonempty_list(*v, "algorithms");
  bool all = false;
  for (const auto& item : items) {
    const std::string a = item.as_nonempty_string("algorithm");
    if (a == "all") {
      // Catalogue backends expand 'all' per collective and library version when the run is planned: the
      // catalogue's own algorithms; other components' (Open MPI's han, adapt) are named beside it.
      if (backend.catalogs.empty()) {
        if (items.size() != 1) item.fail("'all' cannot be combined with other algorithm names");
        return backend.algorithms;
      }
      if (all) item.fail("'all' is listed twice");
      all = true;
      continue;
    }
    if (std::find(backend.algorithms.begin(), backend.algorithms.end(), a) == backend.algorithms.end())
      item.fail(fmt::format("backend '{}' has no algorithm '{}'", backend.name, a),
                unknown_algorithm_hint(a, backend, collectives));
    add_unique(out, a, item, "algorithm", a);
  }
  if (all) {
    out.insert(out.begin(), "all");
    return out;
  }
  // Every library sweep keeps its baseline.
  if (backend.has_default && std::find(out.begin(), out.end(), "default") == out.end()) out.insert(out.begin(), "default");
  return out;
}

// A value as the parameter's type says (its catalogue's parameter_types).
double parse_param_value(const Value& item, const std::string& name, ParameterType type) {
  std::string why;
  switch (type) {
    case ParameterType::duration: {
      const auto seconds = parse_duration_s(item.as_string(name), &why);
      if (!seconds) item.fail(why, "write a duration such as 5ms, 200us or 0.005");
      if (*seconds <= 0) item.fail(fmt::format("{} must be longer than zero, got {}", name, item.describe()));
      return *seconds;
    }
    case ParameterType::magnitude: {
      const auto t = parse_fraction(item.as_string(name), &why);
      if (!t) item.fail(why, "write a positive number such as 2.5");
      if (!(*t > 0) || !std::isfinite(*t)) item.fail(fmt::format("{} must be positive, got {}", name, item.describe()));
      return *t;
    }
    case ParameterType::fraction: {
      const auto f = parse_fraction(item.as_string(name), &why);
      if (!f) item.fail(why, "write a fraction such as 0.01 or 1%");
      if (*f <= 0 || *f > 1) item.fail(fmt::format("{} must lie in (0, 1], got {}", name, item.describe()));
      return *f;
    }
    case ParameterType::size: break;
  }
  const auto n = parse_size(item.as_string(name), &why);
  if (!n) item.fail(why, "write a number, or a size such as 64KiB");
  return static_cast<double>(*n);
}

std::map<std::string, std::vector<double>> parse_params(const Value& v, const BackendDescriptor& backend) {
  std::map<std::string, std::vector<double>> params;
  for (const auto& [key, value] : v.as_entries("params")) {
    const std::string name = key.as_nonempty_string("parameter");
    if (std::find(backend.parameters.begin(), backend.parameters.end(), name) == backend.parameters.end())
      key.fail(fmt::format("backend '{}' has no algorithm parameter '{}'", backend.name, name),
               backend.parameters.empty() ? std::string("this backend's algorithms take no parameters")
                                          : yaml::suggest_and_list(name, backend.parameters, "parameters"));
    std::vector<double> values;
    for (const auto& item : nonempty_list(value, "parameter values")) {
      const auto type = backend.parameter_types.find(name);
      const double x = parse_param_value(item, name, type == backend.parameter_types.end() ? ParameterType::size : type->second);
      if (std::find(values.begin(), values.end(), x) != values.end())
        item.fail(fmt::format("value {} is listed twice", param_text(x)));
      values.push_back(x);
    }
    params[name] = std::move(values);
  }
  return params;
}

const BackendDescriptor& find_library(const Value& v) {
  const std::string library = v.as_nonempty_string("library");
  const BackendDescriptor* backend = find_backend(library);
  if (backend == nullptr) {
    std::vector<std::string> names;
    for (const auto& b : known_backends())
      if (!b.test_only || test_backends_enabled()) names.push_back(b.name);
    v.fail(fmt::format("unknown backend library '{}'", library), yaml::suggest_and_list(library, names, "available"));
  }
  if (backend->test_only && !test_backends_enabled())
    v.fail(fmt::format("backend '{}' exists only for pico's own tests", library),
           "set PICO_ENABLE_TEST_BACKENDS=1 (tests only)");
  return *backend;
}

bool takes_option(const BackendDescriptor& backend, const std::string& key) {
  const auto& keys = backend.options.keys;
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

// The keys a backends entry may hold: the generic ones, then every backend's
// own, so an unknown key is reported with the full list.
std::vector<std::string> backend_entry_keys() {
  std::vector<std::string> keys = kBackendKeys;
  keys.emplace_back(kGuidelinesKey);
  for (const auto& b : known_backends())
    for (const auto& key : b.options.keys)
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  return keys;
}

// "'a'", "'a' and 'b'", "'a', 'b' and 'c'"
std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += fmt::format("{}'{}'", i == 0 ? "" : i + 1 == names.size() ? " and " : ", ", names[i]);
  return out;
}

// Another backend's key in this backend's entry is an error naming the backends that take it.
void reject_other_backends_options(const Map& entry, const BackendDescriptor& backend) {
  for (const auto& other : known_backends()) {
    for (const auto& key : other.options.keys) {
      const auto value = entry.get(key);
      if (!value || takes_option(backend, key)) continue;
      std::vector<std::string> owners;
      for (const auto& b : known_backends())
        if (takes_option(b, key)) owners.push_back(b.name);
      std::vector<std::string> accepted = kBackendKeys;
      accepted.insert(accepted.end(), backend.options.keys.begin(), backend.options.keys.end());
      value->fail(
          fmt::format("'{}' applies to backend{} {} only", key, owners.size() == 1 ? "" : "s", quoted_list(owners)),
          fmt::format("backend '{}' takes {}", backend.name, yaml::join(accepted)));
    }
  }
}

std::vector<BackendSpec> parse_backends(const Value& v, const std::vector<Collective>& collectives) {
  std::vector<BackendSpec> out;
  std::vector<std::string> seen;
  for (const auto& item : nonempty_list(v, "backends")) {
    const Map m = item.as_map("a backends entry", backend_entry_keys());
    const Value library_node = m.require("library");
    const BackendDescriptor& backend = find_library(library_node);
    reject_other_backends_options(m, backend);
    BackendSpec spec{backend.name, parse_algorithms(m.get("algorithms"), backend, library_node, collectives), {}, {}, false};
    if (auto params = m.get("params")) spec.params = parse_params(*params, backend);
    if (auto g = m.get(kGuidelinesKey)) {
      if (!backend.has_guidelines)
        g->fail(fmt::format("'{}' applies to backend 'mpi' only: mock-ups compose an MPI library's own collectives",
                            kGuidelinesKey),
                "move it to the backends entry of library: mpi");
      spec.guidelines = g->as_bool(kGuidelinesKey);
    }
    if (backend.options.parse != nullptr) spec.options = backend.options.parse(m);
    // A library may be listed once per set of its options (mpi, and mpi with
    // call: persistent), so that both are measured in one run.
    std::string shown = backend.name;
    for (const auto& [k, v] : spec.options) shown += fmt::format(" {}: {}", k, v);
    add_unique(seen, shown, library_node, "backend", shown);
    out.push_back(std::move(spec));
  }
  return out;
}

double parse_positive_duration(const Value& v, std::string_view what) {
  std::string why;
  const auto seconds = parse_duration_s(v.as_string(what), &why);
  if (!seconds) v.fail(why, "write a duration such as 1s, 200ms, 50us or 2min");
  if (*seconds <= 0) v.fail(fmt::format("{} must be longer than zero", what));
  return *seconds;
}

double parse_ci(const Value& v) {
  std::string why;
  const auto f = parse_fraction(v.as_string("target_ci"), &why);
  if (!f) v.fail(why);
  if (*f <= 0 || *f >= 1)
    v.fail(fmt::format("target_ci must lie strictly between 0 and 1 (0% and 100%), got {}", v.describe()));
  return *f;
}

// The node to blame for a conflict between two settings: the second one if
// the user wrote it, else the first (the other one then holds its default).
Value blame(const Map& m, std::string_view second, std::string_view first) {
  if (auto v = m.get(second)) return *v;
  if (auto v = m.get(first)) return *v;
  return m.self();
}

void check_timing(const Map& m, const TimingSpec& t) {
  if (t.max_iterations < t.min_iterations)
    blame(m, "max_iterations", "min_iterations")
        .fail(fmt::format("max_iterations ({}) is below min_iterations ({})", t.max_iterations, t.min_iterations));
  if (t.case_timeout_s <= t.time_budget_s)
    blame(m, "case_timeout", "time_budget")
        .fail(fmt::format("case_timeout ({}s) must be longer than time_budget ({}s)", t.case_timeout_s,
                          t.time_budget_s),
              "time_budget bounds only the timed loop of a case; case_timeout is the wall-time limit for the "
              "whole case (set-up, warm-up and timed loop), after which it is killed, so it needs to be larger");
}

// `race: 10m`, or `race: {budget: 10m, refine: false}`.
RaceSpec parse_race(const Value& v) {
  RaceSpec race;
  if (!v.is_map()) {
    race.budget_s = parse_positive_duration(v, "race budget");
    return race;
  }
  const Map m = v.as_map("race", kRaceKeys);
  race.budget_s = parse_positive_duration(m.require("budget"), "race budget");
  if (auto x = m.get("refine")) race.refine = x->as_bool("refine");
  return race;
}

InstrumentationSpec parse_instrumentation(const Value& v) {
  const Map m = v.as_map("instrumentation", kInstrumentationKeys);
  InstrumentationSpec spec;
  if (auto x = m.get("phases")) spec.phases = x->as_bool("phases");
  if (auto x = m.get("calls")) spec.calls = static_cast<int>(x->as_int("calls", 1, 100000));
  if (auto x = m.get("papi")) {
    for (const auto& item : x->as_list("papi")) {
      std::string event = item.as_nonempty_string("PAPI event");
      add_unique(spec.papi, event, item, "PAPI event", event);
    }
    if (!spec.papi.empty() && !spec.phases)
      x->fail("PAPI counters are read per phase", "set instrumentation: {phases: true} as well");
  }
  return spec;
}

TimingSpec parse_timing(const Value& v) {
  const Map m = v.as_map("timing", kTimingKeys);
  TimingSpec t;
  if (auto x = m.get("mode")) {
    const std::vector<std::string> modes{std::string(name(TimingMode::latency)),
                                         std::string(name(TimingMode::throughput))};
    t.mode = *parse_timing_mode(x->as_choice("timing mode", modes));
  }
  if (auto x = m.get("warmup")) t.warmup = static_cast<int>(x->as_int("warmup", 0, INT_MAX));
  if (auto x = m.get("min_iterations")) t.min_iterations = x->as_int("min_iterations", 1, kMaxIterationsLimit);
  if (auto x = m.get("max_iterations")) t.max_iterations = x->as_int("max_iterations", 1, kMaxIterationsLimit);
  if (auto x = m.get("time_budget")) t.time_budget_s = parse_positive_duration(*x, "time_budget");
  if (auto x = m.get("target_ci")) t.target_ci = parse_ci(*x);
  if (auto x = m.get("case_timeout")) t.case_timeout_s = parse_positive_duration(*x, "case_timeout");
  if (auto x = m.get("keep_samples")) t.keep_samples = x->as_bool("keep_samples");
  if (auto x = m.get("rank_timing")) t.rank_timing = x->as_bool("rank_timing");
  if (t.mode == TimingMode::throughput) t.calls_per_sample = kDefaultCallsPerSample;
  if (auto x = m.get("calls_per_sample")) {
    t.calls_per_sample = x->as_int("calls_per_sample", 1, kMaxCallsPerSample);
    if (t.mode == TimingMode::latency && t.calls_per_sample > 1)
      x->fail("latency mode times every call on its own, after a barrier",
              "drop calls_per_sample, or set mode: throughput to time back-to-back calls together");
  }
  if (auto x = m.get("graph")) {
    t.calls_per_sample = x->as_int("graph", 1, kMaxCallsPerSample);
    t.graph = true;
    if (m.has("calls_per_sample"))
      x->fail("graph and calls_per_sample both say how many calls one sample holds", "keep one of them");
  }
  if (auto x = m.get("race")) t.race = parse_race(*x);
  if (auto x = m.get("rounds")) t.rounds = static_cast<int>(x->as_int("rounds", 1, kMaxRounds));
  check_timing(m, t);
  return t;
}

// CUDA graphs capture device work: only the GPU backends' calls are device work.
void check_graph_backends(const Value& graph, const std::vector<BackendSpec>& backends) {
  std::vector<std::string> able;
  for (const auto& b : known_backends())
    if (b.cuda_graphs) able.push_back(b.name);
  for (const auto& b : backends) {
    if (!backend_descriptor(b.library).cuda_graphs)
      graph.fail(fmt::format("backend '{}' cannot be captured in a CUDA graph", b.library),
                 fmt::format("graph applies to {} only; use calls_per_sample for the others", quoted_list(able)));
    if (b.options.contains(kGpusPerProcess))
      graph.fail("graph timing captures one GPU's stream per process",
                 fmt::format("drop {} from backend '{}', or use calls_per_sample", kGpusPerProcess, b.library));
  }
}

}  // namespace

const std::vector<std::string>& experiment_keys() { return kExperimentKeys; }
const std::vector<std::string>& timing_keys() { return kTimingKeys; }
const std::vector<std::string>& instrumentation_keys() { return kInstrumentationKeys; }

Experiment parse_experiment(const std::string& yaml_text, const std::string& file_for_messages) {
  const Value doc = Value::parse_document(yaml_text, file_for_messages);
  const Map top = doc.as_map("the experiment", kExperimentKeys);
  Experiment e;
  e.name = top.has("name") ? top.get("name")->as_nonempty_string("name")
                           : std::filesystem::path(file_for_messages).stem().string();
  if (auto v = top.get("description")) e.description = v->as_string("description");
  e.collectives = parse_names<Collective>(top.require("collectives"), "collectives", "collective",
                                          all_collectives(), parse_collective);
  parse_payload(top, e);
  if (auto v = top.get("dtypes")) e.dtypes = parse_names<Dtype>(*v, "dtypes", "dtype", all_dtypes(), parse_dtype);
  if (auto v = top.get("ops")) e.ops = parse_names<Op>(*v, "ops", "op", all_ops(), parse_op);
  if (auto v = top.get("processes")) e.processes = parse_processes(*v);
  if (auto v = top.get("in_place")) e.in_place = parse_in_place(*v);
  if (auto v = top.get("count_matrix")) {
    e.count_patterns = parse_count_patterns(*v, e.processes);
    // Accepted silently before, it changed nothing: say which collectives would take it.
    if (std::none_of(e.collectives.begin(), e.collectives.end(),
                     [](Collective c) { return spec_for(c).count_matrix; }))
      v->fail("count_matrix applies to collectives with a count matrix, and this experiment has none",
              fmt::format("add {} to collectives, or leave count_matrix out",
                          collective_names([](const CollectiveSpec& s) { return s.count_matrix; }, "or")));
  }
  if (auto v = top.get("backends")) e.backends = parse_backends(*v, e.collectives);
  if (auto v = top.get("timing")) {
    e.timing = parse_timing(*v);
    if (e.timing.graph) check_graph_backends(*v->as_map("timing", kTimingKeys).get("graph"), e.backends);
  }
  if (auto v = top.get("validation")) e.validation = v->as_bool("validation");
  if (auto v = top.get("instrumentation")) e.instrumentation = parse_instrumentation(*v);
  if (auto v = top.get("repetitions")) e.repetitions = static_cast<int>(v->as_int("repetitions", 1, kMaxRepetitions));
  if (auto v = top.get("repetition_seed"))
    e.repetition_seed = static_cast<std::uint64_t>(v->as_int("repetition_seed", 0, INT64_MAX));
  e.source_path = file_for_messages;
  e.source_text = yaml_text;
  return e;
}

Experiment load_experiment(const std::string& path) {
  std::error_code ec;
  const auto cwd = std::filesystem::current_path(ec);
  return parse_experiment(
      read_config_file(path, "the experiment file", fmt::format("check the path (relative paths start at {})", cwd.string())),
      path);
}

}  // namespace pico
