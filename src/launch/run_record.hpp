// SPDX-License-Identifier: BSD-3-Clause
// run.json: the front end's record of a run (inputs, provenance of the front
// end, launches). Written when a run starts, updated as launches end and when
// a resumed run or a collected Slurm job adds launches.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "config/experiment.hpp"
#include "config/platform.hpp"
#include "plan/plan.hpp"

namespace pico {

nlohmann::json new_run_record(const Experiment& experiment, const Platform& platform, const PlanTarget& target,
                              const std::string& dir, const std::string& started_utc);

// Adds launches (log entries and their commands), sets the launch count and finish time.
void append_launches(nlohmann::json& run, const nlohmann::json& launch_log, const nlohmann::json& launch_commands,
                     int launches, double wall_s);

// DIR/run.json and DIR/plan.json as pico wrote them: InputError naming the
// file when one is missing, a link, cut short or edited out of shape.
nlohmann::json read_run_record(const std::string& dir);
Plan read_plan(const std::string& dir);
void write_run_record(const std::string& dir, const nlohmann::json& run);

}  // namespace pico
