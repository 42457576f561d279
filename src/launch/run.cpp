#include "launch/run.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include <fmt/format.h>

#include "analysis/report_builder.hpp"
#include "config/error.hpp"
#include "config/to_json.hpp"
#include "config/units.hpp"
#include "instrumentation/provenance.hpp"
#include "launch/executor.hpp"
#include "launch/launcher.hpp"
#include "launch/mpi_detect.hpp"
#include "reports/render.hpp"

namespace pico {
namespace fs = std::filesystem;

namespace {

std::string new_results_dir(const RunRequest& request) {
  if (!request.output_dir.empty()) return request.output_dir;
  std::random_device rd;
  const std::string id = fmt::format("{:08x}", rd());
  return (fs::path(request.output_base) / request.platform.name / (utc_timestamp_compact() + "-" + id)).string();
}

nlohmann::json source_record(const std::string& path, const std::string& name, const std::string& source,
                             const nlohmann::json& parsed) {
  return {{"path", path}, {"name", name}, {"source", source}, {"parsed", parsed}};
}

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : fallback;
}

}  // namespace

RunResult run_experiment(const RunRequest& request) {
  const PlanTarget target = plan_target_for(request.platform);
  const Plan plan = make_plan(request.experiment, target);
  RunResult result;
  result.dir = new_results_dir(request);
  if (fs::exists(result.dir) && !fs::is_empty(result.dir))
    throw ConfigError(result.dir, 0, 0, "the results directory already exists and is not empty",
                      "choose a new directory, or leave out --dir to get a fresh one under --output");
  fs::create_directories(result.dir);
  const auto wall_start = std::chrono::steady_clock::now();
  const std::string started = utc_timestamp_iso();

  std::ofstream(fs::path(result.dir) / "experiment.yaml") << request.experiment.source_text;
  std::ofstream(fs::path(result.dir) / "platform.yaml") << request.platform.source_text;
  std::ofstream(fs::path(result.dir) / "plan.json") << plan_to_json(plan).dump(1) << "\n";

  install_interrupt_handlers();
  const ExecutionLog log = execute_plan(plan, request.platform, target, result.dir, ExecutorOptions{.progress = request.progress});

  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  const nlohmann::json run = {
      {"pico", build_provenance()},
      {"experiment", source_record(request.experiment.source_path, request.experiment.name,
                                   request.experiment.source_text, experiment_to_json(request.experiment))},
      {"platform", source_record(request.platform.source_path, request.platform.name, request.platform.source_text,
                                 platform_to_json(request.platform))},
      {"run",
       {{"started_utc", started},
        {"finished_utc", utc_timestamp_iso()},
        {"wall_s", wall_s},
        {"launches", log.launches},
        {"mpi_target", {{"library", target.mpi_library}, {"version", target.mpi_version}}},
        {"interrupted", interrupt_requested()},
        {"results_dir", result.dir},
        {"launch_log", log.launch_log}}},
      {"front_end",
       {{"user", env_or("USER", "unknown")},
        {"hostname", host_name()},
        {"env", relevant_environment()},
        {"launch_commands", log.launch_commands}}},
  };
  write_json_atomically((fs::path(result.dir) / "run.json").string(), run);
  result.report = build_report(result.dir);
  write_json_atomically((fs::path(result.dir) / "report.json").string(), result.report);
  for (const auto& c : result.report.at("cases"))
    if (c.at("status") == "failed") result.exit_code = 1;
  return result;
}

std::string dry_run_text(const Plan& plan, const Platform& platform, const PlanTarget& target,
                         const std::string& dir_placeholder) {
  std::string out = fmt::format("{} cases ({} skipped) in {} launch group(s) on platform '{}' ({} {})\n\n",
                                plan.cases.size(), plan.skipped.size(), plan.groups.size(), platform.name,
                                target.mpi_library, target.mpi_version);
  out += fmt::format("{:<16} {:<14} {:<10} {:<15} {:<8} {:<5} {:>10} {:>10} {:>4} {}\n", "case_id", "collective",
                     "backend", "algorithm", "dtype", "op", "count", "bytes", "np", "in_place");
  for (const auto& c : plan.cases) {
    const std::string params = params_text(case_to_json(c));
    out += fmt::format("{:<16} {:<14} {:<10} {:<15} {:<8} {:<5} {:>10} {:>10} {:>4} {}\n", c.case_id,
                       name(c.collective), c.backend, params.empty() ? c.algorithm : c.algorithm + "[" + params + "]",
                       name(c.dtype), name(c.op), c.count,
                       format_size(c.bytes), c.np, c.in_place ? "yes" : "no");
  }
  for (const auto& s : plan.skipped) out += fmt::format("skipped {}: {}\n", s.c.case_id, s.reason);
  out += "\nlaunch commands:\n";
  for (std::size_t k = 0; k < plan.groups.size(); ++k) {
    const auto& g = plan.groups[k];
    const std::string dir = dir_placeholder;
    auto cmd = launch_command(platform, target.mpi_library, g.np, worker_path(platform, target.mpi_library),
                              fmt::format("{}/launch-{}.json", dir, k), dir, this_host());
    for (const auto& [key, value] : g.env) cmd.env[key] = value;
    std::string env;
    for (const auto& [key, value] : cmd.env) env += fmt::format("{}={} ", key, shell_quote(value));
    out += fmt::format("  [{} cases, np={}] {}{}\n", g.cases.size(), g.np, env, shell_join(cmd.argv));
  }
  return out;
}

}  // namespace pico
