// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/trace_clock.hpp"

#include <fmt/format.h>

#include "support/input_error.hpp"

namespace pico {
namespace {

using liballprof::Record;
using liballprof::Role;

constexpr double kMaxGapS = 1e6;  // beyond ~11 days a gap is a broken clock; GOAL's ps would near 2^63

}  // namespace

RankClock::RankClock(const RankRecords& rank) : file_(rank.file), first_us_(rank.first_us), last_us_(rank.last_us) {
  std::optional<double> init_end, finalize_start;
  for (const Record& rec : rank.records) {
    if (!rank.first_us)
      for (const auto& v : {rec.start_us, rec.end_us})
        if (v) {
          if (!first_us_) first_us_ = v;
          last_us_ = v;
        }
    if (rec.role == Role::init && !init_end) init_end = rec.end_us ? rec.end_us : rec.start_us;
    if (rec.role == Role::finalize && !finalize_start) finalize_start = rec.start_us ? rec.start_us : rec.end_us;
  }
  if (init_end) first_us_ = init_end;
  if (finalize_start) last_us_ = finalize_start;
  replayed_end_ = first_us_;
}

double RankClock::gap(const Record& rec) {
  const double start = rec.start_us.value_or(replayed_end_.value_or(0));
  double g = (start - replayed_end_.value_or(start)) * 1e-6;
  if (g < 0) g = 0;  // a call before MPI_Init ended (MPI_Initialized)
  if (g > kMaxGapS)
    throw InputError(file_, rec.line, 0, fmt::format("a compute gap of {:.0f} s before this call", g),
                     "pico replays gaps up to 1e6 s: are the times of one clock, in microseconds?");
  replayed_end_ = rec.end_us ? rec.end_us : rec.start_us;
  return g;
}

double RankClock::remaining_s() const {
  if (last_us_ && replayed_end_ && *last_us_ > *replayed_end_) return (*last_us_ - *replayed_end_) * 1e-6;
  return 0;
}

}  // namespace pico
