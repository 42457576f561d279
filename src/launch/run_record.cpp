#include "launch/run_record.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "analysis/report_builder.hpp"
#include "config/to_json.hpp"
#include "instrumentation/provenance.hpp"

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

nlohmann::json read_run_record(const std::string& dir) {
  std::ifstream in(std::filesystem::path(dir) / "run.json");
  if (!in) throw std::runtime_error("cannot read " + dir + "/run.json: not a pico results directory");
  return nlohmann::json::parse(in);
}

void write_run_record(const std::string& dir, const nlohmann::json& run) {
  write_json_atomically((std::filesystem::path(dir) / "run.json").string(), run);
}

}  // namespace pico
