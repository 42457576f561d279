// SPDX-License-Identifier: BSD-3-Clause
// Cases of one size, the reference case among them (the library's default, or
// the dense allreduce compressed ones are measured against) and the fastest
// one: what `pico compare --best` prints and the HTML report's heatmaps draw.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/case_result.hpp"
#include "core/noise_guard.hpp"

namespace pico {

// Cases that measure the same thing with different algorithms: same
// collective, datatype, op, count, ranks, timing mode and in-place side.
std::string same_size_key(const Case& c);

// The reference among cases of one size: the one `selector`
// ("backend:algorithm") names, else (selector "") the first present of
// compressed:dense, nccl_compressed:dense and mpi:default, else the only
// case; null when none of these applies.
const CaseResult* reference_case(const std::vector<const CaseResult*>& same_size, const std::string& selector);

struct BestAtSize {
  // The fastest by core/speedup.hpp's fastest_of (pico tune names the same): the least median, each
  // algorithm's launches (repetitions) pooled; `best` is its first record, best_s the pooled median.
  const CaseResult* best = nullptr;
  const CaseResult* reference = nullptr;  // null when the size has no reference case
  double best_s = 0, reference_s = 0;     // pooled medians (objective_time), as the views print them
  std::size_t measured = 0;               // measured cases of this size
  // How much slower the reference is than the best: reference / best median, >= 1; 0 without a reference.
  double reference_over_best() const;
};

// One entry per size with a measured case, ordered by collective (the order of
// all_collectives()), datatype, op, in-place, mode, ranks, then bytes. What
// "the default loses" is judged against (selector ""): the library's own
// collective where the run measured it (mpi:default, nccl:default), else the
// dense allreduce compressed cases ran beside (a compressed run's "default /
// fastest 1.67x" where mpi/default was the fastest said the wrong thing).
std::vector<BestAtSize> best_per_size(const std::vector<CaseResult>& cases, const std::string& selector);

// Each measured size of `report` (by same_size_key) and its doubt
// (core/noise_guard.hpp) over all its measured cases: a winner is only as
// sure as the noisiest of the cases it was picked from.
std::map<std::string, MeasurementDoubt> doubt_per_size(const nlohmann::json& report,
                                                       const std::vector<CaseResult>& cases);

// The order above, for anything listed per size.
bool size_order_less(const Case& a, const Case& b);

}  // namespace pico
