// SPDX-License-Identifier: BSD-3-Clause
// pico's own LogGP evaluation of a recorded schedule, for when LogGOPSim is
// not installed (pico predict says which it used). Per rank, a step's
// operations start when the rank's previous step has ended; a send costs o
// of CPU, leaves the NIC after (s-1)G more (the NIC sends one message at a
// time) and arrives L later; a receive ends o after both its step began and
// its message arrived; a reduction costs its bytes x reduce_ps_per_byte of
// CPU. Messages match in order per (source, destination, tag). As in
// LogGOPSim, a send holds the CPU (s-1)O more and a receipt takes
// (s-1)max(G, O); the model's size band and exchange factor apply as there.
// g and the rendezvous protocol are not modelled: for one exchange this is
// LogGOPSim's time, for larger schedules an approximation.
#pragma once

#include <cstdint>

#include "collectives/reference/recording.hpp"
#include "simulation/loggp_model.hpp"

namespace pico {

// The latest rank's finishing time in ps. Throws std::logic_error when the
// schedule cannot finish (a receive no send matches).
std::uint64_t evaluate_loggp(const reference::ScheduleRequest& req, const LogGPParams& p);

}  // namespace pico
