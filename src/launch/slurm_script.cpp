// SPDX-License-Identifier: BSD-3-Clause
#include "launch/slurm_script.hpp"

#include <fmt/format.h>

#include "core/build_info.hpp"
#include "launch/launcher.hpp"
#include "support/input_error.hpp"
#include "support/shell_words.hpp"

namespace pico {
namespace {

std::string sbatch_line(const std::string& option, const std::string& value) {
  return fmt::format("#SBATCH --{}={}\n", option, sbatch_quote(value));
}

// Job-wide options, from the platform's slurm map and the allocation.
std::string sbatch_options(const SlurmJobScript& job, const SlurmSpec& s) {
  std::string out;
  out += sbatch_line("job-name", job.job_name);
  if (!s.partition.empty()) out += sbatch_line("partition", s.partition);
  if (!s.account.empty()) out += sbatch_line("account", s.account);
  if (!s.qos.empty()) out += sbatch_line("qos", s.qos);
  out += sbatch_line("time", s.time);
  out += fmt::format("#SBATCH --nodes={}\n#SBATCH --ntasks-per-node={}\n", job.allocation.nodes,
                     job.allocation.ntasks_per_node);
  if (s.cpus_per_task) out += fmt::format("#SBATCH --cpus-per-task={}\n", *s.cpus_per_task);
  if (s.gpus_per_node) out += fmt::format("#SBATCH --gpus-per-node={}\n", *s.gpus_per_node);
  if (s.exclusive) out += "#SBATCH --exclusive\n";
  if (!s.constraint.empty()) out += sbatch_line("constraint", s.constraint);
  if (!s.reservation.empty()) out += sbatch_line("reservation", s.reservation);
  if (!s.comment.empty()) out += sbatch_line("comment", s.comment);
  out += sbatch_line("chdir", job.dir);
  out += "#SBATCH --output=slurm-%j.out\n";
  // B: the signal goes to the batch shell, which stops the running step itself.
  out += fmt::format("#SBATCH --signal=B:USR1@{}\n", s.signal_before_limit_s);
  for (const auto& extra : s.extra_sbatch) out += fmt::format("#SBATCH {}\n", sbatch_quote(extra));
  return out;
}

// Runs each step in the background and waits, because bash runs a trap only
// between commands: a foreground srun would hold off the time-limit warning.
constexpr const char* kStepFunctions = R"SH(
# USR1 comes signal_before_limit seconds before the time limit, TERM from
# scancel: stop the running step so every finished case stays recorded, and
# start no more. pico collect marks what did not run.
stop_reason=''
step_pid=''
any_failed=0
on_stop() {
  stop_reason=$1
  if [ -n "$step_pid" ]; then kill -TERM "$step_pid" 2>/dev/null; fi
}
trap 'on_stop time_limit' USR1
trap 'on_stop cancelled' TERM

# run_step LAUNCH COMMAND...: one job step, its end recorded in steps.jsonl.
run_step() {
  launch=$1
  shift
  if [ -n "$stop_reason" ]; then
    printf '{"launch":%d,"exit_code":-1,"stopped":"%s","started":0,"ended":0}\n' \
      "$launch" "$stop_reason" >>steps.jsonl
    return
  fi
  started=$(date +%s.%N)
  "$@" >"launch-$launch.log" 2>&1 &
  step_pid=$!
  wait "$step_pid"
  status=$?
  # A trapped signal ends wait early; wait again for the step itself.
  while kill -0 "$step_pid" 2>/dev/null; do
    wait "$step_pid"
    status=$?
  done
  step_pid=''
  if [ "$status" -ne 0 ]; then any_failed=1; fi
  printf '{"launch":%d,"exit_code":%d,"stopped":"%s","started":%s,"ended":%s}\n' \
    "$launch" "$status" "$stop_reason" "$started" "$(date +%s.%N)" >>steps.jsonl
}
)SH";

}  // namespace

std::string sbatch_quote(const std::string& value) {
  std::string out = "'";
  for (char c : value) {
    if (c == '\'')
      out += R"('\'')";
    else if (c == '\\')
      out += R"(\\)";
    else
      out += c;
  }
  return out + "'";
}

SlurmJobScript slurm_job_script(const Plan& plan, const Platform& platform, const std::string& mpi_library,
                                const std::string& job_name, const std::string& dir, int first_launch) {
  // Both end up in #SBATCH lines, where a line break would start a line of its own.
  for (const auto& [what, value] : {std::pair{"job name", job_name}, std::pair{"results directory", dir}})
    if (value.find_first_of("\n\r") != std::string::npos)
      throw InputError(platform.source_path, 0, 0, fmt::format("the {} '{}' contains a line break", what, value),
                        "Slurm job scripts need it on one line: rename it");
  SlurmJobScript job{job_name, dir, {}, {}};
  job.allocation = allocation_for(process_counts(plan), platform.slurm);
  // Inside the allocation mpirun may place up to the allocation's task slots without oversubscribing.
  HostFacts allocation_host = this_host();
  allocation_host.cores = job.allocation.nodes * job.allocation.ntasks_per_node;
  int launch = first_launch;
  for (const auto& g : plan.groups) {
    SlurmStep step{launch, g.cases.size(), place_step(g.np, platform.slurm), g.env, {}};
    step.argv = launch_command(platform, mpi_library, g.np, worker_path(platform, mpi_library),
                               fmt::format("{}/launch-{}.json", dir, launch), dir, allocation_host,
                               step.placement.nodes)
                    .argv;
    job.steps.push_back(std::move(step));
    ++launch;
  }
  return job;
}

std::string sbatch_script_text(const SlurmJobScript& job, const Platform& platform) {
  const SlurmSpec& s = platform.slurm;
  std::string out = "#!/bin/bash\n";
  out += sbatch_options(job, s);
  out += fmt::format("#\n# Written by pico {} ({}): one job step per launch group.\n", build::version,
                     build::git_hash);
  out += kStepFunctions;
  out += fmt::format("\ncd {} || exit 1\n", shell_quote(job.dir));
  if (!s.modules.empty() || !s.setup.empty()) out += "\n# Modules and setup from the platform file.\n";
  for (const auto& m : s.modules) out += fmt::format("module load {}\n", shell_quote(m));
  for (const auto& cmd : s.setup) out += cmd + "\n";
  if (!platform.env.empty()) out += "\n# The platform's environment, for every step.\n";
  for (const auto& [k, v] : platform.env) out += fmt::format("export {}={}\n", k, shell_quote(v));
  out += "\n";
  for (const auto& step : job.steps) {
    std::vector<std::string> argv;
    if (!step.env.empty()) {
      argv.push_back("env");
      for (const auto& [k, v] : step.env) argv.push_back(k + "=" + v);
    }
    argv.insert(argv.end(), step.argv.begin(), step.argv.end());
    out += fmt::format("# launch {}: {} case(s), np={} on {} node(s)\n", step.launch, step.cases, step.placement.np,
                       step.placement.nodes);
    // Within 100 columns (issue 65: a step's line was 194), continued with " \\".
    out += shell_join_wrapped(fmt::format("run_step {}", step.launch), argv) + "\n";
  }
  out += "\nexit \"$any_failed\"\n";
  return out;
}

}  // namespace pico
