// SPDX-License-Identifier: BSD-3-Clause
// One rank's traced times, as the trace builder (simulation/trace_builder.hpp)
// turns them into compute gaps: the application's run goes from MPI_Init's
// end (else the rank's first time) to MPI_Finalize's start (else its last);
// each replayed call follows the gap since the previous replayed call ended.
#pragma once

#include <optional>
#include <string>

#include "simulation/liballprof.hpp"
#include "simulation/trace_builder.hpp"

namespace pico {

class RankClock {
 public:
  explicit RankClock(const RankRecords& rank);

  double first_start_s() const { return first_us_.value_or(0) * 1e-6; }
  double last_end_s() const { return last_us_.value_or(0) * 1e-6; }
  // The compute gap before replayed call `rec`, which then ends the replayed time. Throws InputError for a gap
  // beyond 1e6 s (a broken clock).
  double gap(const liballprof::Record& rec);
  // From the last replayed call's end to the run's end (0 if none or negative).
  double remaining_s() const;

 private:
  std::string file_;
  std::optional<double> first_us_, last_us_, replayed_end_;
};

}  // namespace pico
