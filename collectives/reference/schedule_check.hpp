// SPDX-License-Identifier: BSD-3-Clause
// Checks a recorded P-rank schedule the way MPI would run it: messages
// between a pair of ranks match in posting order, and every blocking step
// can complete. Used by tests and available to exporters.
#pragma once

#include <string>
#include <vector>

#include "collectives/transport/recording_transport.hpp"

namespace pico::reference {

// Empty when every send has a receive of the same size and tag (the k-th
// send from a to b pairs with the k-th receive at b from a) and the schedule
// runs to completion with unbuffered (rendezvous) sends: a step completes
// only when each of its messages meets its partner in the partner's current
// step. Otherwise a description of the first problem found.
std::string check_schedule(const std::vector<transport::RankSchedule>& ranks);

}  // namespace pico::reference
