// SPDX-License-Identifier: BSD-3-Clause
// Runs a reference algorithm on RecordingTransport: one rank at a time (what
// exporters stream) or all ranks (what tests check).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collectives/transport/recording_transport.hpp"
#include "core/types.hpp"

namespace pico::reference {

// One schedule to record: the same fields a case has, for P ranks.
struct ScheduleRequest {
  Collective collective = Collective::allreduce;
  std::string algorithm;
  int np = 1;
  std::uint64_t count = 0;  // elements per rank block, as a case's count
  Dtype dtype = Dtype::float32;
  bool in_place = false;
  int root = 0;
  std::uint64_t segment_bytes = 64 * 1024;  // for segmented algorithms; 0 = unsegmented
  std::string counts{};  // a count-matrix collective's pattern (collectives/count_matrix.hpp); "" = uniform
};

// Throws std::invalid_argument when the request cannot be recorded: unknown
// algorithm, np < 1, root outside [0, np), in place where MPI defines no
// in-place form, or a payload collective without a datatype.
void check_request(const ScheduleRequest& req);

// Records `rank`'s operations into `out` (its memory is reused). Throws
// std::logic_error when the algorithm breaks a transport rule (a block
// outside its buffer, a write into the send buffer, ...).
void record_rank(const ScheduleRequest& req, int rank, transport::RankSchedule& out);

std::vector<transport::RankSchedule> record_all(const ScheduleRequest& req);

}  // namespace pico::reference
