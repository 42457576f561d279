// SPDX-License-Identifier: BSD-3-Clause
#include "core/guidelines.hpp"

#include <algorithm>
#include <array>
#include <climits>

#include <fmt/format.h>

namespace pico {
namespace {

// Grouped by collective (guidelines_of returns a run of rows).
constexpr std::array kGuidelines{
    Guideline{Collective::allreduce, "guideline:reduce+bcast", "reduce + bcast",
              "allreduce of n bytes: reduce of n bytes to rank 0, then bcast of n bytes from it"},
    Guideline{Collective::allreduce, "guideline:reduce_scatter_block+allgather", "reduce_scatter_block + allgather",
              "allreduce of n bytes: reduce_scatter_block of n/p bytes per rank, then allgather of n/p bytes per rank",
              true},
    Guideline{Collective::bcast, "guideline:scatter+allgather", "scatter + allgather",
              "bcast of n bytes: scatter of n/p bytes per rank from the root, then allgather of n/p bytes per rank",
              true},
    Guideline{Collective::reduce, "guideline:allreduce", "allreduce",
              "reduce of n bytes: allreduce of n bytes (every rank gets the result; the root keeps it)"},
    Guideline{Collective::allgather, "guideline:gather+bcast", "gather + bcast",
              "allgather of n bytes per rank: gather of n bytes per rank to rank 0, then bcast of p n bytes from it"},
    Guideline{Collective::gather, "guideline:allgather", "allgather",
              "gather of n bytes per rank: allgather of n bytes per rank (every rank gets all p blocks)"},
    Guideline{Collective::reduce_scatter, "guideline:reduce+scatterv", "reduce + scatterv",
              "reduce_scatter_block of n bytes per rank: reduce of p n bytes to rank 0, then scatterv of n bytes per "
              "rank from it"},
    Guideline{Collective::scan, "guideline:exscan+reduce_local", "exscan + local op",
              "scan of n bytes: exscan of n bytes, then MPI_Reduce_local of the rank's own n bytes into it"},
};

}  // namespace

std::span<const Guideline> guidelines() { return kGuidelines; }

const Guideline* find_guideline(std::string_view algorithm) {
  const auto it = std::find_if(kGuidelines.begin(), kGuidelines.end(),
                               [&](const Guideline& g) { return g.algorithm == algorithm; });
  return it == kGuidelines.end() ? nullptr : &*it;
}

bool is_guideline(std::string_view algorithm) { return algorithm.starts_with(kGuidelinePrefix); }

std::span<const Guideline> guidelines_of(Collective c) {
  const auto first = std::find_if(kGuidelines.begin(), kGuidelines.end(),
                                  [&](const Guideline& g) { return g.collective == c; });
  const auto last = std::find_if(first, kGuidelines.end(), [&](const Guideline& g) { return g.collective != c; });
  return {first, last};
}

std::string guideline_skip_reason(const Case& c) {
  const Guideline* g = find_guideline(c.algorithm);
  if (g == nullptr) return fmt::format("'{}' is no mock-up pico knows", c.algorithm);
  if (g->collective != c.collective)
    return fmt::format("'{}' is a mock-up of {}, not of {}", c.algorithm, name(g->collective), name(c.collective));
  if (c.in_place) return "a mock-up composes out-of-place calls: it has no in-place form";
  if (call_form(c) != CallForm::blocking)
    return fmt::format("a mock-up composes blocking calls: it has no {} form", name(call_form(c)));
  const auto p = static_cast<std::uint64_t>(c.np);
  if (g->splits_count && c.count % p != 0)
    return fmt::format("{} splits the count into {} blocks: count {} is not a multiple of {}", g->composition, p,
                       c.count, p);
  // gather + bcast and reduce + scatterv call with p blocks in one count.
  if (c.count * p > static_cast<std::uint64_t>(INT_MAX)) return "count x np exceeds the MPI int count range";
  return "";
}

}  // namespace pico
