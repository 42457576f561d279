// The launch layer's commands: mpirun and direct command lines, the checks
// that a plan's launches fit the platform, and what a crashed launch's log says.
#include <catch2/catch.hpp>

#include "config/platform.hpp"
#include "launch/executor.hpp"
#include "launch/launcher.hpp"
#include "config_errors.hpp"

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
  } catch (const ConfigError& e) {
    CHECK(e.file == "d.yaml");
    CHECK_THAT(e.message, Catch::Matchers::Contains("one process per launch, but a launch of this experiment needs 2"));
  }
  CHECK(test::platform_error("name: d\nscheduler: slurm\nslurm: {partition: p}\nlauncher: {kind: direct}\n")
            .message.find("launcher kind direct starts the worker on this host") != std::string::npos);
}

TEST_CASE("crash details are read from the mpirun log", "[launch]") {
  CHECK(crash_detail_from_log("...\nmpirun noticed that process rank 1 with PID 0 on node vm exited on signal 11 "
                              "(Segmentation fault).\n") == "rank 1 exited on signal 11 (Segmentation fault)");
  CHECK(crash_detail_from_log("MPI_ABORT was invoked on rank 2 in communicator MPI_COMM_WORLD") ==
        "rank 2 called MPI_Abort");
  CHECK(crash_detail_from_log("nothing here").empty());
}
