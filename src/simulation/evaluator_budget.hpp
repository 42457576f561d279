// SPDX-License-Identifier: BSD-3-Clause
// How much of a schedule pico's own LogGP evaluator (simulation/loggp_evaluator.hpp)
// may hold. The evaluator records every rank's part at once, so its memory
// grows with the schedule's operations: p^2 for a linear alltoall (np 1024:
// 2.1 M operations, 137 MB measured). pico predict, fit and predict --check
// keep it, summed over their threads, under kEvaluatorBudgetBytes, which
// leaves pico under 2 GB; a schedule beyond it alone is not evaluated (with
// LogGOPSim, pico writes the schedule to a file rank by rank instead).
#pragma once

#include <cstdint>
#include <string>

#include "collectives/reference/recording.hpp"

namespace pico {

inline constexpr std::uint64_t kEvaluatorBudgetBytes = std::uint64_t{1536} << 20;
// Per recorded operation, with the evaluator's state: 65-85 B measured at np
// 512 and 1024 (alltoall, allreduce; peak RSS over operations), less for
// local copies; rounded up.
inline constexpr std::uint64_t kEvaluatorBytesPerOperation = 96;
// The operations the budget holds (16.7 M): estimated_operations records no further.
inline constexpr std::uint64_t kEvaluatorBudgetOperations = kEvaluatorBudgetBytes / kEvaluatorBytesPerOperation;

// About how many operations every rank of `req` records: rank 0's plus the
// other ranks' as the mean of the middle and last rank's (rooted algorithms
// load rank 0; the others are alike); capped at one past what the budget
// holds, found without recording a rank further than that.
std::uint64_t estimated_operations(const reference::ScheduleRequest& req);

// "about 12 million operations", or "more than 16 million operations" where
// estimated_operations stopped at the budget.
std::string operations_text(std::uint64_t estimated);

}  // namespace pico
