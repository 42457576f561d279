// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/evaluator_budget.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

namespace pico {

std::uint64_t estimated_operations(const reference::ScheduleRequest& req) {
  // Each rank is recorded only as far as the budget's operations: past them
  // the estimate is "over", found without holding what a rank of a 1 TiB
  // segmented schedule records (4.2 GB before).
  constexpr std::uint64_t kOver = kEvaluatorBudgetOperations + 1;
  transport::RankSchedule rs;
  rs.max_ops = kEvaluatorBudgetOperations;
  auto ops_of = [&](int rank) -> std::optional<std::uint64_t> {
    try {
      reference::record_rank(req, rank, rs);
    } catch (const transport::OpLimitReached&) {
      return std::nullopt;
    }
    return static_cast<std::uint64_t>(rs.ops.size());
  };
  const auto first = ops_of(0);
  if (!first) return kOver;
  if (req.np == 1) return *first;
  const auto middle = ops_of(req.np / 2);
  const auto last = middle ? ops_of(req.np - 1) : std::nullopt;
  if (!middle || !last) return kOver;
  const std::uint64_t others = (*middle + *last) / 2;
  return std::min(kOver, *first + others * static_cast<std::uint64_t>(req.np - 1));
}

std::string operations_text(std::uint64_t estimated) {
  if (estimated > kEvaluatorBudgetOperations)
    return fmt::format("more than {} million operations", kEvaluatorBudgetOperations / 1000000);
  return fmt::format("about {} million operations", estimated / 1000000);
}

}  // namespace pico
