// SPDX-License-Identifier: BSD-3-Clause
// Runs the real LogGOPSim (spcl/LogGOPSim; users build it as
// docs/simulation.md#loggopsim says, tests find it through PICO_LOGGOPSIM_DIR
// or PATH): txt2bin turns GOAL text into its
// binary schedule, LogGOPSim simulates it with the model's parameters.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "collectives/reference/recording.hpp"
#include "simulation/loggp_model.hpp"

namespace pico {

struct LogGOPSimTools {
  std::string txt2bin;
  std::string loggopsim;
};

// The two programs in `dir` when given (--loggopsim), else in
// $PICO_LOGGOPSIM_DIR, else on PATH; nullopt when they are not there.
std::optional<LogGOPSimTools> find_loggopsim(const std::string& dir = {});

// Simulates a GOAL file: the latest finishing time over all ranks, in ps.
// Throws std::runtime_error with LogGOPSim's own words when txt2bin rejects
// the file, LogGOPSim fails, or operations are left unmatched (LogGOPSim
// still exits 0 then, printing "unexpected queue" / "receive queue").
std::uint64_t simulate_goal(const LogGOPSimTools& tools, const std::filesystem::path& goal, const LogGPParams& p,
                            double timeout_s = 600);

// The `Maximum finishing time at host H: T` of LogGOPSim's batch output, in
// its time unit; nullopt when absent or past 2^64.
std::optional<std::uint64_t> finishing_time(std::string_view output);

// Writes `req`'s GOAL into `work_dir` (reductions at the model's cost) and simulates it.
std::uint64_t simulate_request(const LogGOPSimTools& tools, const reference::ScheduleRequest& req,
                               const LogGPParams& p, const std::filesystem::path& work_dir);

}  // namespace pico
