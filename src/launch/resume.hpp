// SPDX-License-Identifier: BSD-3-Clause
// What is left to do in a results directory: --resume runs only the cases
// whose latest record in cases.jsonl is not ok (or skipped by the plan).
#pragma once

#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "config/platform.hpp"
#include "plan/plan.hpp"

namespace pico {

// Case ids whose latest record is ok or skipped: nothing left to measure.
std::set<std::string> settled_case_ids(const std::string& dir);

// The plan restricted to unsettled cases, launch groups kept (empty ones
// dropped); skipped cases are already recorded, so the result has none.
Plan remaining_plan(const Plan& plan, const std::set<std::string>& settled);

// An environment read back from `file` of a results directory, checked as
// the platform's env is (config/env_names.hpp) and more: no loader variable
// (LD_PRELOAD, LD_LIBRARY_PATH, ...) by name or inside a value. A new run
// plans its environments itself; a resume would set whatever the file says
// in mpirun and every rank. InputError naming the file and the variable.
void check_resumed_env(const std::map<std::string, std::string>& env, const std::string& file);

// DIR/platform.yaml's env, launcher command, wrapper and arguments, worker
// and Slurm lines: no loader variable, set or smuggled (`-x LD_...`,
// `--export=LD_...`, `mca_base_env_list=LD_...`).
void check_resumed_platform(const std::string& dir, const Platform& platform);

// What a resume of DIR would start processes with, all read from DIR: its
// platform as above, the plan's launch environments and the loaded
// profile's variables (run.json).
void check_resumed_launches(const std::string& dir, const Platform& platform, const Plan& plan,
                            const std::map<std::string, std::string>& profile_env);

// launch-<k>.json files already in the directory: the next launch number.
int launches_in(const std::string& dir);

// launch_log entries for the launches of DIR that launch_log lacks: the pico
// that started them died before it could record them (kill -9, a crash), and
// the caller holds DIR's lock, so none of them is still followed. Each says
// what is known: its np, cases requested and recorded, and why it has no exit.
// A launch whose launch-K.json is empty or cut short never started (pico
// writes it whole first; the disk was full): it gets no entry, and the
// resume's launches take the next numbers. InputError naming the file for a
// record that parses but is not one pico wrote.
nlohmann::json dead_launch_entries(const std::string& dir, const nlohmann::json& launch_log);

}  // namespace pico
