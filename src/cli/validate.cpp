// pico validate FILE... : check experiment and platform files without running.
#include <fstream>
#include <optional>
#include <iostream>
#include <sstream>

#include <memory>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "cli/commands.hpp"
#include "config/data_files.hpp"
#include "config/error.hpp"
#include "config/experiment.hpp"
#include "config/platform.hpp"
#include "launch/mpi_detect.hpp"
#include "launch/launcher.hpp"
#include "plan/plan.hpp"

namespace pico::cli {
namespace {

// Keys only a platform has (scheduler, launcher, env, worker) tell the two kinds apart.
bool looks_like_platform(const std::string& path) {
  // A file pico would not read whole (a FIFO, /dev/zero, a huge file) is left
  // to the experiment loader, which refuses it before reading.
  if (whole_file_problem(path, kMaxConfigFileBytes)) return false;
  try {
    const YAML::Node root = YAML::LoadFile(path);
    return root.IsMap() && (root["scheduler"] || root["launcher"] || root["env"] || root["worker"] || root["mpi"]);
  } catch (const std::exception&) {
    return false;  // the real parser reports the error with its position
  }
}

}  // namespace

void add_validate(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("validate", "Check experiment and platform files without running anything");
  auto files = std::make_shared<std::vector<std::string>>();
  auto platform = std::make_shared<std::string>("local");
  cmd->add_option("files", *files, "Experiment or platform YAML files")->required();
  cmd->add_option("-p,--platform", *platform, "Platform the experiments are planned for (its MPI's catalogue)")
      ->capture_default_str();
  cmd->callback([files, platform, &exit_code] {
    std::optional<Platform> target_platform;  // read only when an experiment needs planning
    std::optional<PlanTarget> target;         // asked of the launcher then
    for (const auto& f : *files) {
      try {
        if (looks_like_platform(f)) {
          const Platform p = load_platform(f);
          fmt::print("{}: ok (platform '{}', scheduler {})\n", f, p.name, p.scheduler);
        } else {
          const Experiment experiment = load_experiment(f);
          if (!target) {
            target_platform = resolve_platform(*platform);
            target = plan_target_for(*target_platform);
          }
          const Plan plan = make_plan(experiment, *target);
          // Every process count must be one the platform can start (Slurm allocation, direct launch).
          check_launches_fit(*target_platform, process_counts(plan));
          fmt::print("{}: ok (experiment, {} cases in {} launch group(s))\n  {}\n", f, plan.cases.size(),
                     plan.groups.size(), plan_duration_text(plan));
        }
      } catch (const ConfigError& e) {
        std::cerr << e.what() << "\n";
        exit_code = 2;
      }
    }
  });
}

}  // namespace pico::cli
