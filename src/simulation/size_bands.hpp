// SPDX-License-Identifier: BSD-3-Clause
// Size bands (PLogP's piecewise parameters, in LogGOPSim's terms): where the
// measured point-to-point times are not one line in message size, a few
// lines, each over a range of sizes, and the eager limit S where one of the
// breaks is a protocol switch.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collectives/reference/recording.hpp"
#include "simulation/loggp_model.hpp"

namespace pico {

// One measured point-to-point time: n bytes each way in `seconds`.
struct SizePoint {
  double bytes = 0, seconds = 0;
};

// A straight line t = latency + (n - 1) G over a band of sizes, in ps.
struct BandLine {
  std::uint64_t up_to = 0;  // the band's largest measured size
  double latency_ps = 0;    // L + 2o
  double G = 0;             // ps per byte
  double squared_error = 0;  // sum of (predicted / measured - 1)^2 over its points
};

// One line through every point, by least squares on relative error (weights
// 1/t^2, closed form); the slope is kept at 0 or above.
BandLine fit_line(const std::vector<SizePoint>& points);

// Lines fitted by least squares on relative error. One band unless a split
// lowers the summed squared relative error by more than noise would (an F
// test); at most three bands of three sizes or more each.
std::vector<BandLine> fit_size_bands(std::vector<SizePoint> points);

// The size where the times jump (the largest rise in latency between
// neighbouring bands): the lower band's up_to, nullopt without a rise.
std::optional<std::uint64_t> protocol_break(const std::vector<BandLine>& bands);

// The largest message rank 0 of `req` sends or receives (what picks the
// band), from its recorded schedule when the caller has it.
std::uint64_t largest_message(const reference::ScheduleRequest& req);
std::uint64_t largest_message(const transport::RankSchedule& rank0);

// `p` with L, o and G of the band that simulates `req`.
LogGPParams params_for(const reference::ScheduleRequest& req, const LogGPParams& p);

// The eager limit of the MPI library the report ran on, as its own tool
// reports it: Open MPI's btl_tcp_eager_limit (inter-node) or
// btl_vader_eager_limit (intra-node) from `ompi_info --all --parsable` on
// this machine, when that is the same version. nullopt otherwise, with why
// in `note`.
std::optional<std::uint64_t> library_eager_limit(const std::string& library, const std::string& version,
                                                 const std::string& scope, std::string& note);

}  // namespace pico
