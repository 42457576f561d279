// SPDX-License-Identifier: BSD-3-Clause
// Slurm platforms: the slurm map, np -> nodes x tasks per node, and the job
// script (options, quoting, one step per launch group).
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "config/platform.hpp"
#include "config_errors.hpp"
#include "launch/slurm_job.hpp"
#include "launch/slurm_placement.hpp"
#include "launch/slurm_script.hpp"
#include "plan/plan.hpp"
#include "support/input_error.hpp"

using namespace pico;

namespace {

const std::string kSlurmPlatform = R"(name: cluster
scheduler: slurm
slurm:
  partition: batch
  account: proj42
  time: "01:00:00"
  nodes: 4
  ntasks_per_node: 8
  exclusive: true
  extra_sbatch: [--mem=0]
  modules: [openmpi/4.1.6]
  setup: [ulimit -s unlimited]
launcher: {kind: srun, cpu_bind: cores}
mpi: {library: openmpi, version: "4.1.6"}
env: {UCX_TLS: "rc,sm"}
worker: /opt/pico/bin/pico-worker
)";

using test::platform_error;

SlurmSpec spec(int ntasks_per_node, std::optional<int> nodes) {
  SlurmSpec s;
  s.ntasks_per_node = ntasks_per_node;
  s.nodes = nodes;
  s.file = std::string{"plat.yaml"};
  s.nodes_line = 7;
  s.nodes_column = 10;
  return s;
}

// A plan with one launch group per process count, two cases each.
Plan plan_with_groups(const std::vector<int>& counts) {
  Plan plan;
  for (int np : counts) {
    LaunchGroup g;
    g.np = np;
    g.env[std::string{"OMPI_MCA_coll_tuned_use_dynamic_rules"}] = std::string{"1"};
    Case c;
    c.np = np;
    c.case_id = std::string{"case"} + std::to_string(np);
    g.cases = {c, c};
    plan.groups.push_back(g);
  }
  return plan;
}

}  // namespace

TEST_CASE("a Slurm platform reads every slurm key", "[slurm]") {
  const Platform p = parse_platform(kSlurmPlatform, "plat.yaml");
  CHECK(p.scheduler == "slurm");
  CHECK(p.slurm.partition == "batch");
  CHECK(p.slurm.account == "proj42");
  CHECK(p.slurm.time == "01:00:00");
  CHECK(p.slurm.nodes == 4);
  CHECK(p.slurm.ntasks_per_node == 8);
  CHECK(p.slurm.exclusive);
  CHECK(p.slurm.extra_sbatch == std::vector<std::string>{"--mem=0"});
  CHECK(p.slurm.modules == std::vector<std::string>{"openmpi/4.1.6"});
  CHECK(p.launcher.kind == "srun");
  CHECK(p.launcher.command == "srun");
  CHECK(p.launcher.args == std::vector<std::string>{"--mpi=pmix"});  // the srun default
  CHECK(p.launcher.cpu_bind == "cores");
}

TEST_CASE("Slurm platform errors point at the value and say what to do", "[slurm]") {
  const InputError newline = platform_error("name: x\nscheduler: slurm\nslurm:\n  comment: \"a\\nb\"\n");
  CHECK(newline.line == 4);
  CHECK(newline.column == 12);
  CHECK_THAT(newline.message, Catch::Contains("line break"));

  const InputError env_newline = platform_error("name: x\nscheduler: slurm\nenv: {A: \"x\\necho pwned\"}\n");
  CHECK(env_newline.line == 3);
  CHECK_THAT(env_newline.message, Catch::Contains("line break"));

  const InputError time = platform_error("name: x\nscheduler: slurm\nslurm: {time: soon}\n");
  CHECK(time.line == 3);
  CHECK_THAT(time.hint, Catch::Contains("HH:MM:SS"));

  const InputError extra = platform_error("name: x\nscheduler: slurm\nslurm: {extra_sbatch: [mem=0]}\n");
  CHECK_THAT(extra.hint, Catch::Contains("--name=value"));

  const InputError typo = platform_error("name: x\nscheduler: slurm\nslurm: {partiton: a}\n");
  CHECK_THAT(typo.hint, Catch::Contains("partition"));

  const InputError srun_local = platform_error("name: x\nlauncher: {kind: srun}\n");
  CHECK_THAT(srun_local.hint, Catch::Contains("scheduler: slurm"));

  const InputError slurm_local = platform_error("name: x\nslurm: {nodes: 2}\n");
  CHECK(slurm_local.line == 2);
}

TEST_CASE("process counts map onto nodes x tasks per node", "[slurm]") {
  const SlurmSpec s = spec(4, 3);
  CHECK(place_step(1, s).nodes == 1);
  CHECK(place_step(4, s).nodes == 1);
  CHECK(place_step(4, s).tasks_per_node == 4);
  CHECK(place_step(5, s).nodes == 2);
  CHECK(place_step(5, s).tasks_per_node == 3);
  CHECK(place_step(12, s).nodes == 3);
  CHECK(place_step(12, s).tasks_per_node == 4);
  try {
    place_step(13, s);
    FAIL("13 ranks fit 3 nodes of 4");
  } catch (const InputError& e) {
    CHECK(e.file == "plat.yaml");
    CHECK(e.line == 7);
    CHECK(e.column == 10);
    CHECK_THAT(e.message, Catch::Contains("needs 4 node(s)"));
    CHECK_THAT(e.hint, Catch::Contains("raise slurm nodes to 4"));
  }
  // Without slurm.nodes the allocation grows to the largest count.
  CHECK(allocation_for({2, 9, 4}, spec(4, std::nullopt)).nodes == 3);
  CHECK(allocation_for({2}, spec(4, 3)).nodes == 3);
  CHECK_THROWS_AS(allocation_for({2, 64}, spec(4, 3)), InputError);
}

TEST_CASE("the job script has one step per launch group and the platform's options", "[slurm]") {
  const Platform p = parse_platform(kSlurmPlatform, "plat.yaml");
  const Plan plan = plan_with_groups({2, 16});
  const SlurmJobScript job = slurm_job_script(plan, p, "openmpi", "pico-test", "/r/dir", 3);
  REQUIRE(job.steps.size() == 2);
  CHECK(job.steps[0].launch == 3);
  CHECK(job.steps[1].launch == 4);
  CHECK(job.steps[1].placement.nodes == 2);
  CHECK(job.allocation.nodes == 4);
  const std::string wrapped = sbatch_script_text(job, p);
  // A step's command is continued over lines of at most 100 columns; read as the shell joins them.
  std::istringstream lines(wrapped);
  for (std::string line; std::getline(lines, line);) {
    INFO(line);
    CHECK(line.size() <= 100);
  }
  std::string text = wrapped;
  for (std::size_t at; (at = text.find(" \\\n    ")) != std::string::npos;) text.replace(at, 7, " ");
  CHECK(text.starts_with("#!/bin/bash\n"));
  for (const char* line :
       {"#SBATCH --job-name='pico-test'\n", "#SBATCH --partition='batch'\n", "#SBATCH --account='proj42'\n",
        "#SBATCH --time='01:00:00'\n", "#SBATCH --nodes=4\n", "#SBATCH --ntasks-per-node=8\n",
        "#SBATCH --exclusive\n", "#SBATCH '--mem=0'\n", "#SBATCH --signal=B:USR1@60\n", "#SBATCH --chdir='/r/dir'\n",
        "module load openmpi/4.1.6\n", "ulimit -s unlimited\n", "export UCX_TLS=rc,sm\n", "trap 'on_stop time_limit' USR1\n"})
    CHECK_THAT(text, Catch::Contains(line));
  CHECK_THAT(text, Catch::Contains("run_step 3 env OMPI_MCA_coll_tuned_use_dynamic_rules=1 srun --nodes=1 --ntasks=2 "
                                   "--kill-on-bad-exit=1 --cpu-bind=cores --mpi=pmix"));
  CHECK_THAT(text, Catch::Contains("--launch /r/dir/launch-4.json --out /r/dir\n"));
  // Every #SBATCH line comes before the first command: sbatch stops reading options there.
  const auto last_option = text.rfind("#SBATCH");
  const auto first_command = text.find("\nstop_reason=");
  CHECK(last_option < first_command);
}

TEST_CASE("hostile values stay literal in the job script", "[slurm]") {
  Platform p = parse_platform(kSlurmPlatform, "plat.yaml");
  const std::string hostile = R"(a'b"c;$(touch x)`id`\d)";
  p.slurm.comment = hostile;
  p.slurm.modules = {hostile};
  p.env = {{std::string{"EVIL"}, hostile}};
  const std::string text = sbatch_script_text(slurm_job_script(plan_with_groups({2}), p, "openmpi", hostile, "/r", 0), p);
  // For sbatch's own #SBATCH parser: ' closes and reopens the quote, \ is escaped.
  CHECK_THAT(text, Catch::Contains(R"(#SBATCH --comment='a'\''b"c;$(touch x)`id`\\d')"));
  CHECK_THAT(text, Catch::Contains(R"(#SBATCH --job-name='a'\''b"c;$(touch x)`id`\\d')"));
  // For bash: single quotes, in which nothing expands.
  CHECK_THAT(text, Catch::Contains(R"(export EVIL='a'\''b"c;$(touch x)`id`\d')"));
  CHECK_THAT(text, Catch::Contains(R"(module load 'a'\''b"c;$(touch x)`id`\d')"));
  CHECK(sbatch_quote("plain") == "'plain'");
  CHECK(sbatch_quote(R"(it's)") == R"('it'\''s')");
  CHECK_THROWS_AS(slurm_job_script(plan_with_groups({2}), p, "openmpi", std::string{"a\nb"}, "/r", 0), InputError);
}

TEST_CASE("Slurm's answers are read back", "[slurm]") {
  CHECK(job_id_from_sbatch("1234\n") == "1234");
  CHECK(job_id_from_sbatch("1234;cluster\n") == "1234");
  CHECK(job_id_from_sbatch("sbatch: error: invalid partition\n") == "");
  const SlurmJobInfo info = parse_scontrol_job(
      "7", "JobId=7 JobName=pico-q UserId=root(0) JobState=RUNNING Reason=None Dependency=(null) "
           "Partition=debug TimeLimit=00:20:00 NodeList=vm NumNodes=1 NumCPUs=2 ExitCode=0:0 Comment=a b\n");
  CHECK(info.known);
  CHECK(info.state == "RUNNING");
  CHECK_FALSE(info.ended());
  CHECK(info.node_list == "vm");
  CHECK(info.nodes == 1);
  CHECK(info.cpus == 2);
  CHECK(info.partition == "debug");
  CHECK(parse_scontrol_job("7", "slurm_load_jobs error: Invalid job id specified\n").ended());
}
