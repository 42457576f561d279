// SPDX-License-Identifier: BSD-3-Clause
#include "launch/run_record.hpp"

#include <cstdlib>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "analysis/report_builder.hpp"
#include "config/catalog.hpp"
#include "config/to_json.hpp"
#include "instrumentation/provenance.hpp"
#include "support/input_error.hpp"
#include "support/json_file.hpp"

namespace pico {
namespace {

nlohmann::json source_record(const std::string& path, const std::string& name, const std::string& source,
                             const nlohmann::json& parsed) {
  return {{"path", path}, {"name", name}, {"source", source}, {"parsed", parsed}};
}

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : fallback;
}

}  // namespace

nlohmann::json new_run_record(const Experiment& experiment, const Platform& platform, const PlanTarget& target,
                              const std::string& dir, const std::string& started_utc) {
  return {
      {"pico", build_provenance()},
      {"experiment", source_record(experiment.source_path, experiment.name, experiment.source_text,
                                   experiment_to_json(experiment))},
      {"platform",
       source_record(platform.source_path, platform.name, platform.source_text, platform_to_json(platform))},
      {"run",
       {{"started_utc", started_utc},
        {"finished_utc", started_utc},
        {"wall_s", 0.0},
        {"launches", 0},
        {"mpi_target", to_json(target.mpi())},
        {"interrupted", false},
        {"results_dir", dir},
        {"launch_log", nlohmann::json::array()}}},
      {"front_end",
       {{"user", env_or("USER", "unknown")},
        {"hostname", host_name()},
        {"env", relevant_environment()},
        {"launch_commands", nlohmann::json::array()},
        // Which catalogue files planned the run: PICO_CATALOG_DIR can replace pico's own.
        {"catalogs", catalog_files_read()},
        {"mpi_launcher", target.launcher_says ? to_json(*target.launcher_says) : nlohmann::json(nullptr)}}},
  };
}

void append_launches(nlohmann::json& run, const nlohmann::json& launch_log, const nlohmann::json& launch_commands,
                     int launches, double wall_s) {
  auto& r = run.at("run");
  for (const auto& entry : launch_log) r.at("launch_log").push_back(entry);
  for (const auto& cmd : launch_commands) run.at("front_end").at("launch_commands").push_back(cmd);
  r["launches"] = launches;
  r["finished_utc"] = utc_timestamp_iso();
  r["wall_s"] = r.value("wall_s", 0.0) + wall_s;
}

namespace {

constexpr const char* kResultsHint = "give the directory pico run printed; pico reads the files it wrote there";

nlohmann::json read_record(const std::string& dir, const char* name) {
  const std::string path = (std::filesystem::path(dir) / name).string();
  std::optional<nlohmann::json> j = read_results_json(path, "");
  if (!j) throw InputError(path, "no such file: not a pico results directory", kResultsHint);
  return std::move(*j);
}

}  // namespace

nlohmann::json read_run_record(const std::string& dir) {
  nlohmann::json run = read_record(dir, "run.json");
  // What every reader of run.json relies on, checked here once for the file's name in the error.
  reading_file((std::filesystem::path(dir) / "run.json").string(), [&] {
    // experiment and platform go into the report as they are, and a report needs them as objects.
    for (const char* section : {"run", "front_end", "experiment", "platform"})
      if (!run.at(section).is_object()) throw std::runtime_error(fmt::format("\"{}\" is not an object", section));
    if (!run.at("run").at("launch_log").is_array()) throw std::runtime_error("\"run/launch_log\" is not a list");
  });
  return run;
}

Plan read_plan(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / "plan.json").string();
  const nlohmann::json plan = read_record(dir, "plan.json");
  return reading_file(path, [&] { return plan_from_json(plan); });
}

void write_run_record(const std::string& dir, const nlohmann::json& run) {
  write_json_atomically((std::filesystem::path(dir) / "run.json").string(), run);
}

}  // namespace pico
