// SPDX-License-Identifier: BSD-3-Clause
// The progress line's counts and its time left (src/launch/progress.hpp).
#include <catch2/catch.hpp>

#include "launch/progress.hpp"

TEST_CASE("progress counts: before any case the time left is the budget per case", "[progress]") {
  // 145 cases at a 1 s budget: 2m25s left, nothing elapsed.
  CHECK(pico::progress_counts(0, 145, 0.0, 1.0) == "[  0/145] 0s elapsed, at most 2m25s left");
}

TEST_CASE("progress counts: then the mean time of the cases done", "[progress]") {
  // 12 cases in 6 s: 0.5 s each, 133 left: 66.5 s.
  CHECK(pico::progress_counts(12, 145, 6.0, 1.0) == "[ 12/145] 6.0s elapsed, ~1m07s left");
  CHECK(pico::progress_counts(145, 145, 72.5, 1.0) == "[145/145] 1m13s elapsed, ~0s left");
  CHECK(pico::progress_counts(150, 145, 10.0, 1.0) == "[150/145] 10s elapsed, ~0s left");  // resumed extras
}

TEST_CASE("progress line: a case is named with its parameters, as the tables name it", "[progress]") {
  // Variants of one algorithm differ only in their parameters (issue 51): without them they looked alike.
  pico::Case c;
  c.collective = pico::Collective::bcast;
  c.dtype = pico::Dtype::float32;
  c.op = pico::Op::none;
  c.bytes = 16384;
  c.np = 4;
  c.backend = "mpi";
  c.algorithm = "chain";
  c.params = {{"segment_size", 8192}, {"chain_fanout", 4}};
  CHECK(pico::describe_case(c) == "bcast float32 16KiB np=4 mpi/chain[chain_fanout=4;segment_size=8192]");
}
