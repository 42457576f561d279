// SPDX-License-Identifier: BSD-3-Clause
// A submitted Slurm job as the front end sees it: sbatch to submit,
// scontrol (or sacct once scontrol has forgotten it) for its state, and
// following it with the progress line until it ends.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "plan/plan.hpp"

namespace pico {

struct SlurmJobInfo {
  std::string job_id;
  std::string state = "UNKNOWN";  // PENDING, RUNNING, COMPLETED, CANCELLED, TIMEOUT, FAILED, ...
  std::string node_list, partition, time_limit, exit_code, start_time, end_time, reason;
  int nodes = 0, cpus = 0;
  bool known = false;  // Slurm answered about this job

  // The job will run nothing more. A job Slurm no longer knows counts as ended.
  bool ended() const;
  nlohmann::json to_json() const;
};

// sbatch --parsable SCRIPT; the job id. Throws std::runtime_error with
// sbatch's own message (and a hint when Slurm is not reachable).
std::string submit_job(const std::string& script_path);

// "12345" or "12345;cluster" -> "12345"; "" when the text holds no id.
std::string job_id_from_sbatch(const std::string& output);

SlurmJobInfo query_job(const std::string& job_id);

// `scontrol show job -o` output -> the fields above (unit tested).
SlurmJobInfo parse_scontrol_job(const std::string& job_id, const std::string& text);

// Polls the job until it ends, showing progress from cases.jsonl and
// progress.jsonl. Returns early (state not ended) when pico is interrupted:
// the job keeps running and `pico collect` picks it up later.
// Only results of launches >= first_launch count: earlier ones are from before a --resume.
SlurmJobInfo follow_job(const std::string& job_id, const std::string& dir, const Plan& plan, int first_launch,
                        bool progress, double poll_s = 1.0);

}  // namespace pico
