// SPDX-License-Identifier: BSD-3-Clause
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
#include "config/experiment.hpp"
#include "config/platform.hpp"
#include "launch/launcher.hpp"
#include "launch/mpi_detect.hpp"
#include "plan/plan.hpp"
#include "support/counted.hpp"
#include "support/input_error.hpp"
#include "support/wrapped_text.hpp"

namespace pico::cli {
namespace {

enum class FileKind { experiment, platform };

// The kind of a file pico validate was given without --as: an experiment must
// list `collectives`, which no platform has; a platform holds a launcher or a
// scheduler, which no experiment has. A file with neither (or both) is not
// guessed at: the user is asked to say.
FileKind kind_of(const std::string& path) {
  // A file pico would not read whole (a FIFO, /dev/zero, a huge file) or
  // cannot parse is left to the experiment loader, which reports why.
  if (whole_file_problem(path, kMaxConfigFileBytes)) return FileKind::experiment;
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const std::exception&) {
    return FileKind::experiment;
  }
  if (!root.IsMap()) return FileKind::experiment;  // the parser says what it expected
  const bool experiment = static_cast<bool>(root["collectives"]);
  bool platform = false;
  for (const char* key : {"launcher", "scheduler", "slurm", "worker", "mpi", "env"}) platform |= static_cast<bool>(root[key]);
  if (experiment != platform) return experiment ? FileKind::experiment : FileKind::platform;
  throw InputError(path, experiment ? "the file has both an experiment's 'collectives' and a platform's settings"
                                    : "neither an experiment (no 'collectives') nor a platform (no 'launcher' or "
                                      "'scheduler')",
                   "say which it is: pico validate --as experiment|platform FILE");
}

}  // namespace

void add_validate(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("validate", "Check experiment and platform files without running anything");
  auto files = std::make_shared<std::vector<std::string>>();
  auto platform = std::make_shared<std::string>("local");
  cmd->add_option("files", *files, "Experiment or platform YAML files")->required();
  auto as = std::make_shared<std::string>();
  cmd->add_option("--as", *as, "Read every file as this kind instead of telling by its keys")
      ->check(CLI::IsMember({"experiment", "platform"}));
  cmd->add_option("-p,--platform", *platform, "Platform the experiments are planned for (its MPI's catalogue)")
      ->capture_default_str();
  cmd->callback([files, platform, as, &exit_code] {
    std::optional<Platform> target_platform;  // read only when an experiment needs planning
    std::optional<PlanTarget> target;         // asked of the launcher then
    for (const auto& f : *files) {
      try {
        const FileKind kind = as->empty() ? kind_of(f) : *as == "platform" ? FileKind::platform : FileKind::experiment;
        if (kind == FileKind::platform) {
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
          fmt::print("{}: ok (experiment, {} in {} launch group(s))\n{}", f, counted(plan.cases.size(), "case"),
                     plan.groups.size(), wrapped("  " + plan_duration_text(plan), kProseWidth, "    "));
        }
      } catch (const InputError& e) {
        std::cerr << e.what() << "\n";
        exit_code = 2;
      }
    }
  });
}

}  // namespace pico::cli
