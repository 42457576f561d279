// SPDX-License-Identifier: BSD-3-Clause
// A rank's traced times as compute gaps (simulation/trace_clock.hpp).
#include <catch2/catch.hpp>

#include "simulation/trace_clock.hpp"
#include "support/input_error.hpp"

using namespace pico;
using liballprof::Record;
using liballprof::Role;

namespace {

Record call(Role role, std::optional<double> start_us, std::optional<double> end_us, int line = 1) {
  Record r;
  r.role = role;
  r.start_us = start_us;
  r.end_us = end_us;
  r.line = line;
  return r;
}

}  // namespace

TEST_CASE("trace clock: gaps run from MPI_Init's end to MPI_Finalize's start", "[trace]") {
  RankRecords rank;
  rank.file = "rank0.txt";
  rank.records = {call(Role::time_only, 50, 60), call(Role::init, std::nullopt, 100), call(Role::send, 110, 111),
                  call(Role::recv, 150, 160), call(Role::finalize, 200, std::nullopt)};
  RankClock clock(rank);
  CHECK(clock.first_start_s() == Approx(100e-6));
  CHECK(clock.last_end_s() == Approx(200e-6));
  CHECK(clock.gap(rank.records[2]) == Approx(10e-6));
  CHECK(clock.gap(rank.records[3]) == Approx(39e-6));
  CHECK(clock.remaining_s() == Approx(40e-6));
  CHECK(clock.gap(call(Role::send, 120, 130)) == 0);  // before the last call ended: no negative gap
}

TEST_CASE("trace clock: the reader's times come first, a broken clock is refused at its line", "[trace]") {
  RankRecords rank;
  rank.file = "rank3.txt";
  rank.first_us = 10;
  rank.last_us = 20;
  rank.records = {call(Role::send, 12, 13)};
  RankClock clock(rank);
  CHECK(clock.first_start_s() == Approx(10e-6));
  CHECK(clock.last_end_s() == Approx(20e-6));
  CHECK(clock.gap(rank.records[0]) == Approx(2e-6));
  try {
    clock.gap(call(Role::send, 2e12, 2e12 + 1, 42));
    FAIL("a gap of 2e6 s was taken");
  } catch (const InputError& e) {
    CHECK(e.file == "rank3.txt");
    CHECK(e.line == 42);
  }
}
