// SPDX-License-Identifier: BSD-3-Clause
// The launch layer's commands: mpirun and direct command lines, the checks
// that a plan's launches fit the platform, and what a crashed launch's log says.
#include <catch2/catch.hpp>

#include "config/platform.hpp"
#include "config_errors.hpp"
#include "launch/executor.hpp"
#include "launch/launcher.hpp"
#include "support/shell_words.hpp"

using namespace pico;

TEST_CASE("mpirun command lines", "[launch]") {
  Platform p;
  p.launcher.args = {"--bind-to", "core"};
  p.env = {{"UCX_TLS", "self,sm"}};
  const auto as_root = launch_command(p, "openmpi", 4, "/w", "/d/launch-0.json", "/d", HostFacts{true, 2});
  CHECK(as_root.argv == std::vector<std::string>{"mpirun", "-np", "4", "--allow-run-as-root", "--oversubscribe",
                                                 "--bind-to", "core", "/w", "--launch", "/d/launch-0.json", "--out",
                                                 "/d"});
  CHECK(as_root.env.at("UCX_TLS") == "self,sm");
  const auto user = launch_command(p, "openmpi", 2, "/w", "f", "d", HostFacts{false, 2});
  CHECK(user.argv == std::vector<std::string>{"mpirun", "-np", "2", "--bind-to", "core", "/w", "--launch", "f",
                                              "--out", "d"});
  CHECK(shell_join({"a b", "it's", "plain"}) == "'a b' 'it'\\''s' plain");
  // The two flags are Open MPI's (configs/mpi_libraries.yaml); a library pico cannot name starts as Open MPI.
  CHECK(launch_command(p, "mpich", 4, "/w", "f", "d", HostFacts{true, 2}).argv ==
        std::vector<std::string>{"mpirun", "-np", "4", "--bind-to", "core", "/w", "--launch", "f", "--out", "d"});
  CHECK(launch_command(p, "unknown", 4, "/w", "f", "d", HostFacts{true, 2}).argv ==
        std::vector<std::string>{"mpirun", "-np", "4", "--allow-run-as-root", "--oversubscribe", "--bind-to", "core",
                                 "/w", "--launch", "f", "--out", "d"});
}

TEST_CASE("a direct launch starts the worker alone, one process per launch", "[launch]") {
  const Platform p = parse_platform("name: d\nscheduler: local\nlauncher: {kind: direct, args: [--x]}\n", "d.yaml");
  CHECK(p.launcher.command == "mpirun");  // asked --version only
  const auto cmd = launch_command(p, "openmpi", 1, "/w", "f", "d", HostFacts{true, 1});
  CHECK(cmd.argv == std::vector<std::string>{"--x", "/w", "--launch", "f", "--out", "d"});
  CHECK_NOTHROW(check_launches_fit(p, {1, 1}));
  try {
    check_launches_fit(p, {1, 2});
    FAIL("a direct launch of 2 processes was accepted");
  } catch (const InputError& e) {
    CHECK(e.file == "d.yaml");
    CHECK_THAT(e.message, Catch::Matchers::Contains("one process per launch, but a launch of this experiment needs 2"));
    CHECK_THAT(e.hint, Catch::Matchers::Contains("give the nccl backend gpus_per_process equal to processes"));
  }
  CHECK(test::platform_error("name: d\nscheduler: slurm\nslurm: {partition: p}\nlauncher: {kind: direct}\n")
            .message.find("launcher kind direct starts the worker on this host") != std::string::npos);
}

namespace {

// The InputError check_launches_fit raises; the test fails if it accepts the launches.
InputError launch_error(const Platform& p, const std::vector<int>& counts, const HostFacts& host = this_host()) {
  return test::error_of([&](const std::string&, const char*) { check_launches_fit(p, counts, host); },
                        "launches on platform " + p.name, "");
}

}  // namespace

// A platform whose launcher is not there fails at planning, not case by case with exit 127.
TEST_CASE("a local launcher command must be an executable file or on PATH", "[launch]") {
  const auto missing = launch_error(parse_platform("name: m\nlauncher: {command: /no/such/mpirun}\n", "m.yaml"), {2});
  CHECK(missing.file == "m.yaml");
  CHECK(missing.message == "launcher command '/no/such/mpirun' is not an executable file");
  CHECK_THAT(missing.hint, Catch::Matchers::Contains("launcher: {command: /path/to/mpirun}"));
  const auto not_on_path =
      launch_error(parse_platform("name: m\nlauncher: {command: pico-no-such-launcher}\n", "m.yaml"), {2});
  CHECK(not_on_path.message == "launcher command 'pico-no-such-launcher' is not found on PATH");
  // A file that is there but cannot be executed is no launcher either.
  CHECK(launch_error(parse_platform("name: m\nlauncher: {command: /etc/passwd}\n", "m.yaml"), {2}).message ==
        "launcher command '/etc/passwd' is not an executable file");
  CHECK_NOTHROW(check_launches_fit(parse_platform("name: m\nlauncher: {command: sh}\n", "m.yaml"), {2}));
  CHECK_NOTHROW(check_launches_fit(parse_platform("name: m\nlauncher: {command: /bin/sh}\n", "m.yaml"), {2}));
  // Slurm's launcher runs on a compute node; a direct launch never runs it.
  CHECK_NOTHROW(check_launches_fit(
      parse_platform("name: c\nscheduler: slurm\nslurm: {partition: p}\nlauncher: {command: /no/srun}\n", "c.yaml"),
      {2}));
  CHECK_NOTHROW(check_launches_fit(
      parse_platform("name: d\nlauncher: {kind: direct, command: /no/such/mpirun}\n", "d.yaml"), {1}));
}

TEST_CASE("a local launch is bounded by 64 x the host's cores unless the platform sets max_processes", "[launch]") {
  const HostFacts two_cores{false, 2};
  const Platform local = parse_platform("name: l\nlauncher: {command: sh}\n", "l.yaml");
  CHECK_NOTHROW(check_launches_fit(local, {9, 128}, two_cores));  // oversubscribed, still a plan
  const auto e = launch_error(local, {2, 100000}, two_cores);
  CHECK(e.file == "l.yaml");
  CHECK(e.message == "a launch of 100000 processes is more than this platform starts on this host (128 = 64 x its 2 cores)");
  CHECK_THAT(e.hint, Catch::Matchers::Contains("launcher: {max_processes: N}"));

  const Platform raised = parse_platform("name: l\nlauncher: {command: sh, max_processes: 100000}\n", "l.yaml");
  CHECK(raised.launcher.max_processes == 100000);
  CHECK_NOTHROW(check_launches_fit(raised, {100000}, two_cores));
  const Platform lowered = parse_platform("name: l\nlauncher: {command: sh, max_processes: 4}\n", "l.yaml");
  CHECK(launch_error(lowered, {8}).message ==
        "a launch of 8 processes is more than this platform starts on this host (max_processes: 4)");

  CHECK(test::platform_error("name: c\nscheduler: slurm\nslurm: {partition: p}\nlauncher: {max_processes: 8}\n")
            .message == "max_processes bounds launches on this host");
  CHECK(test::platform_error("name: l\nlauncher: {max_processes: 0}\n").message == "max_processes must be at least 1, got 0");
}

TEST_CASE("crash details are read from the mpirun log", "[launch]") {
  CHECK(crash_detail_from_log("...\nmpirun noticed that process rank 1 with PID 0 on node vm exited on signal 11 "
                              "(Segmentation fault).\n") == "rank 1 exited on signal 11 (Segmentation fault)");
  CHECK(crash_detail_from_log("MPI_ABORT was invoked on rank 2 in communicator MPI_COMM_WORLD") ==
        "rank 2 called MPI_Abort");
  CHECK(crash_detail_from_log("nothing here").empty());
}
