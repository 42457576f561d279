// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/evaluator_budget.hpp"

namespace pico {

std::uint64_t estimated_operations(const reference::ScheduleRequest& req) {
  transport::RankSchedule rs;
  auto ops_of = [&](int rank) {
    reference::record_rank(req, rank, rs);
    return static_cast<std::uint64_t>(rs.ops.size());
  };
  const std::uint64_t first = ops_of(0);
  if (req.np == 1) return first;
  const std::uint64_t others = (ops_of(req.np / 2) + ops_of(req.np - 1)) / 2;
  return first + others * static_cast<std::uint64_t>(req.np - 1);
}

std::uint64_t evaluator_bytes(const reference::ScheduleRequest& req) {
  return estimated_operations(req) * kEvaluatorBytesPerOperation;
}

}  // namespace pico
