// SPDX-License-Identifier: BSD-3-Clause
// NCCL's tuning log (backends/nccl/tuning_log.hpp): the lines NCCL writes with
// NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING, in the formats of its releases.
#ifdef PICO_WITH_NCCL

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "backends/nccl/tuning_log.hpp"

using pico::nccl::parse_tuning_line;
using pico::nccl::TuningLog;

TEST_CASE("NCCL's tuning lines give the function, bytes, algorithm, protocol and channels", "[nccl]") {
  // NCCL 2.28 appends cgaClusterSize, some releases the communicator.
  const auto choice = parse_tuning_line(
      "node1:4242:4242 [0] NCCL INFO AllReduce: 4194304 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..31} "
      "cgaClusterSize 4");
  REQUIRE(choice);
  CHECK(choice->function == "AllReduce");
  CHECK(choice->bytes == 4194304);
  CHECK(choice->algorithm == "RING");
  CHECK(choice->protocol == "SIMPLE");
  CHECK(choice->channel_lo == 0);
  CHECK(choice->channel_hi == 31);
  const auto older = parse_tuning_line(
      "node1:7:7 [3] NCCL INFO AllGather: 8 Bytes -> Algo NVLS_TREE proto LL128 channel{Lo..Hi}={2..5} comm 0x55a7a339db50");
  REQUIRE(older);
  CHECK(older->algorithm == "NVLS_TREE");
  CHECK(older->protocol == "LL128");
  CHECK(older->channel_lo == 2);
  CHECK(pico::nccl::to_json(*older).dump() ==
        R"({"algorithm":"NVLS_TREE","bytes":8,"channels":[2,5],"function":"AllGather","protocol":"LL128"})");
}

TEST_CASE("other lines of NCCL's log are not tuning choices", "[nccl]") {
  CHECK_FALSE(parse_tuning_line("node1:1:1 [0] NCCL INFO NCCL version 2.28.9+cuda13.0"));
  CHECK_FALSE(parse_tuning_line("node1:1:1 [0] NCCL INFO   Algorithm   |     Tree   |     Ring   |"));
  CHECK_FALSE(parse_tuning_line("node1:1:1 [0] misc/nvmlwrap.cc:183 NCCL WARN nvmlDeviceGetHandleByPciBusId() failed"));
  CHECK_FALSE(parse_tuning_line("AllReduce: 4194304 Bytes -> Algo RING proto SIMPLE"));
}

TEST_CASE("a log file of NCCL's gives the choices in it, in order", "[nccl]") {
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "pico-unit-nccl-tuning.log";
  std::ofstream(file) << "h:1:1 [0] NCCL INFO NCCL version 2.28.9+cuda13.0\n"
                      << "h:1:1 [0] NCCL INFO AllReduce: 1024 Bytes -> Algo TREE proto LL channel{Lo..Hi}={0..1}\n"
                      << "h:1:1 [0] enqueue.cc:1 NCCL WARN something NCCL wants the user to see\n"
                      << "h:1:1 [0] NCCL INFO Broadcast: 8 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..0}\n";
  const auto choices = pico::nccl::read_tuning_file(file);
  REQUIRE(choices.size() == 2);
  CHECK(choices[0].algorithm == "TREE");
  CHECK(choices[1].function == "Broadcast");
  std::filesystem::remove(file);
  CHECK(pico::nccl::read_tuning_file(file).empty());
}

TEST_CASE("the tuning log stays off for a user's NCCL_DEBUG and without ncclResetDebugInit", "[nccl]") {
  const auto file = std::filesystem::temp_directory_path() / "pico-unit-nccl-off.log";
  setenv("NCCL_DEBUG_SUBSYS", "INIT", 1);
  const TuningLog user(file);
  unsetenv("NCCL_DEBUG_SUBSYS");
  CHECK_FALSE(user.enabled());
  CHECK(user.why() == "NCCL_DEBUG_SUBSYS is set by the user, so pico leaves NCCL's log alone");

  // The unit tests do not load libnccl: no ncclResetDebugInit to switch the log with.
  TuningLog without_nccl(file);
  CHECK_FALSE(without_nccl.enabled());
  CHECK_THAT(without_nccl.why(), Catch::Contains("no ncclResetDebugInit"));
  int calls = 0;
  CHECK(without_nccl.capture([&] { ++calls; }).empty());
  CHECK(calls == 1);  // the call runs all the same
  CHECK(std::getenv("NCCL_DEBUG") == nullptr);
  // The report says why nothing was recorded.
  const auto reported = pico::nccl::reported_selection(without_nccl, {}, 2);
  CHECK(reported["source"] == "none");
  CHECK(reported["note"] == without_nccl.why());
}

#endif
