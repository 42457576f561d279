// SPDX-License-Identifier: BSD-3-Clause
#include "config/to_json.hpp"

#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "core/case.hpp"

namespace pico {
namespace {
template <class Range>
nlohmann::json names(const Range& values) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& v : values) out.push_back(name(v));
  return out;
}

// A name experiment_to_json wrote, read back; std::invalid_argument for one no pico knows.
template <class E, class Parse>
E parsed_name(const std::string& text, Parse parse, const char* what) {
  if (const std::optional<E> v = parse(text)) return *v;
  throw std::invalid_argument(fmt::format("unknown {} '{}'", what, text));
}
template <class E, class Parse>
std::vector<E> parsed_names(const nlohmann::json& j, Parse parse, const char* what) {
  std::vector<E> out;
  for (const auto& text : j.get<std::vector<std::string>>()) out.push_back(parsed_name<E>(text, parse, what));
  return out;
}

// Each parameter's values as JSON, integral ones as integers.
nlohmann::json param_lists(const std::map<std::string, std::vector<double>>& params) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [k, values] : params) {
    out[k] = nlohmann::json::array();
    for (double v : values) out[k].push_back(params_to_json({{k, v}})[k]);
  }
  return out;
}
}  // namespace

nlohmann::json experiment_to_json(const Experiment& e) {
  nlohmann::json backends = nlohmann::json::array();
  for (const auto& b : e.backends) {
    backends.push_back({{"library", b.library}, {"algorithms", b.algorithms}, {"params", param_lists(b.params)}});
    if (!b.options.empty()) backends.back()["options"] = b.options;
    if (b.guidelines) backends.back()["guidelines"] = true;
  }
  nlohmann::json in_place = nlohmann::json::array();
  for (bool v : e.in_place) in_place.push_back(v);
  nlohmann::json j = {{"name", e.name},
          {"description", e.description},
          {"collectives", names(e.collectives)},
          {"sizes", e.sizes},
          {"counts", e.counts},
          {"dtypes", names(e.dtypes)},
          {"ops", names(e.ops)},
          {"processes", e.processes},
          {"in_place", in_place},
          {"count_matrix", e.count_patterns},
          {"backends", backends},
          {"timing", timing_to_json(e.timing)},
          {"instrumentation", instrumentation_to_json(e.instrumentation)},
          {"validation", e.validation},
          {"repetitions", e.repetitions},
          {"repetition_seed", e.repetition_seed}};
  if (!e.sizes_by_collective.empty()) {
    nlohmann::json by = nlohmann::json::object();
    for (const auto& [c, sizes] : e.sizes_by_collective) by[std::string(name(c))] = sizes;
    j["sizes_by_collective"] = by;
  }
  return j;
}

Experiment experiment_from_json(const nlohmann::json& j) {
  Experiment e;
  e.name = j.at("name").get<std::string>();
  e.description = j.at("description").get<std::string>();
  e.collectives = parsed_names<Collective>(j.at("collectives"), parse_collective, "collective");
  e.sizes = j.at("sizes").get<std::vector<std::uint64_t>>();
  e.counts = j.at("counts").get<std::vector<std::uint64_t>>();
  e.dtypes = parsed_names<Dtype>(j.at("dtypes"), parse_dtype, "dtype");
  e.ops = parsed_names<Op>(j.at("ops"), parse_op, "op");
  e.processes = j.at("processes").get<std::vector<int>>();
  e.in_place = j.at("in_place").get<std::vector<bool>>();
  e.backends.clear();
  for (const auto& b : j.at("backends")) {
    BackendSpec spec{b.at("library").get<std::string>(), b.at("algorithms").get<std::vector<std::string>>(),
                     b.at("params").get<std::map<std::string, std::vector<double>>>(), {}, false};
    if (b.contains("options")) spec.options = b.at("options").get<std::map<std::string, std::string>>();
    spec.guidelines = b.value("guidelines", false);
    e.backends.push_back(std::move(spec));
  }
  e.timing = timing_from_json(j.at("timing"));
  e.validation = j.at("validation").get<bool>();
  // Keys reports gained later: an older report's experiment had what the parser gives when they are left out.
  if (j.contains("instrumentation")) e.instrumentation = instrumentation_from_json(j.at("instrumentation"));
  if (j.contains("count_matrix")) e.count_patterns = j.at("count_matrix").get<std::vector<std::string>>();
  if (j.contains("sizes_by_collective"))
    for (const auto& [c, sizes] : j.at("sizes_by_collective").items())
      e.sizes_by_collective[parsed_name<Collective>(c, parse_collective, "collective")] =
          sizes.get<std::vector<std::uint64_t>>();
  e.repetitions = j.value("repetitions", 1);
  e.repetition_seed = j.value("repetition_seed", std::uint64_t{1});
  return e;
}

nlohmann::json platform_to_json(const Platform& p) {
  nlohmann::json j = {{"name", p.name},
          {"description", p.description},
          {"scheduler", p.scheduler},
          {"launcher",
           {{"kind", p.launcher.kind},
            {"command", p.launcher.command},
            {"wrapper", p.launcher.wrapper},
            {"args", p.launcher.args},
            {"allow_run_as_root", p.launcher.allow_run_as_root},
            {"oversubscribe", p.launcher.oversubscribe},
            {"cpu_bind", p.launcher.cpu_bind},
            {"max_processes", p.launcher.max_processes}}},
          {"env", p.env},
          {"worker", p.worker},
          {"mpi", {{"library", p.mpi.library}, {"version", p.mpi.version}}}};
  if (!p.emulated.empty()) j["emulated"] = p.emulated;
  if (p.scheduler == "slurm") {
    const SlurmSpec& s = p.slurm;
    j["slurm"] = {{"partition", s.partition},     {"account", s.account},
                  {"qos", s.qos},                 {"time", s.time},
                  {"nodes", s.nodes ? nlohmann::json(*s.nodes) : nlohmann::json(nullptr)},
                  {"ntasks_per_node", s.ntasks_per_node},
                  {"cpus_per_task", s.cpus_per_task ? nlohmann::json(*s.cpus_per_task) : nlohmann::json(nullptr)},
                  {"gpus_per_node", s.gpus_per_node ? nlohmann::json(*s.gpus_per_node) : nlohmann::json(nullptr)},
                  {"exclusive", s.exclusive},     {"constraint", s.constraint},
                  {"reservation", s.reservation}, {"job_name", s.job_name},
                  {"comment", s.comment},         {"extra_sbatch", s.extra_sbatch},
                  {"modules", s.modules},         {"setup", s.setup},
                  {"signal_before_limit", s.signal_before_limit_s}};
  }
  return j;
}

nlohmann::json timing_to_json(const TimingSpec& t) {
  nlohmann::json j = {{"mode", name(t.mode)},
                      {"warmup", t.warmup},
                      {"min_iterations", t.min_iterations},
                      {"max_iterations", t.max_iterations},
                      {"time_budget_s", t.time_budget_s},
                      {"target_ci", t.target_ci},
                      {"case_timeout_s", t.case_timeout_s},
                      {"keep_samples", t.keep_samples},
                      {"rank_timing", t.rank_timing},
                      {"calls_per_sample", t.calls_per_sample},
                      {"graph", t.graph ? t.calls_per_sample : 0},  // the YAML's graph: N, 0 for none
                      {"rounds", t.rounds},
                      {"order_seed", t.order_seed}};
  if (t.race) j["race"] = {{"budget_s", t.race->budget_s}, {"refine", t.race->refine}};
  return j;
}

TimingSpec timing_from_json(const nlohmann::json& j) {
  TimingSpec t;
  t.mode = parse_timing_mode(j.at("mode").get<std::string>()).value_or(TimingMode::latency);
  t.warmup = j.at("warmup").get<int>();
  t.min_iterations = j.at("min_iterations").get<std::int64_t>();
  t.max_iterations = j.at("max_iterations").get<std::int64_t>();
  t.time_budget_s = j.at("time_budget_s").get<double>();
  t.target_ci = j.at("target_ci").get<double>();
  t.case_timeout_s = j.at("case_timeout_s").get<double>();
  t.keep_samples = j.at("keep_samples").get<bool>();
  // Reports written before it could be turned off took it always.
  t.rank_timing = j.value("rank_timing", true);
  // Reports written before batches existed timed every call on its own.
  t.calls_per_sample = j.value("calls_per_sample", std::int64_t{1});
  t.graph = j.value("graph", std::int64_t{0}) > 0;
  // Reports written before interleaved rounds measured each case in one go.
  t.rounds = j.value("rounds", 1);
  t.order_seed = j.value("order_seed", std::uint64_t{1});
  if (const auto race = j.find("race"); race != j.end() && race->is_object())
    t.race = RaceSpec{.budget_s = race->at("budget_s").get<double>(), .refine = race->value("refine", true)};
  return t;
}

nlohmann::json instrumentation_to_json(const InstrumentationSpec& i) {
  return {{"phases", i.phases}, {"papi", i.papi}, {"calls", i.calls}};
}

InstrumentationSpec instrumentation_from_json(const nlohmann::json& j) {
  InstrumentationSpec i;
  i.phases = j.value("phases", false);
  i.papi = j.value("papi", std::vector<std::string>{});
  i.calls = j.value("calls", 10);
  return i;
}

}  // namespace pico
