// `pico run` as a library: plan, launch, collect, for any front end verb.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "config/experiment.hpp"
#include "config/platform.hpp"
#include "plan/plan.hpp"

namespace pico {

struct RunRequest {
  Experiment experiment;
  Platform platform;
  std::string output_base = "results";  // results/<platform>/<timestamp>-<id>/
  std::string output_dir;               // exact directory, overrides output_base
  bool progress = true;
};

struct RunResult {
  std::string dir;
  nlohmann::json report;
  int exit_code = 0;  // 0 all ok or skipped, 1 a case failed
};

RunResult run_experiment(const RunRequest& request);

// What --dry-run prints: every case and the exact launch commands.
std::string dry_run_text(const Plan& plan, const Platform& platform, const PlanTarget& target,
                         const std::string& dir_placeholder);

}  // namespace pico
