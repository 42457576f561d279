// SPDX-License-Identifier: BSD-3-Clause
#include "reports/best_algorithm.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "collectives/count_matrix.hpp"
#include "core/observation.hpp"
#include "core/speedup.hpp"
#include "reports/render.hpp"

namespace pico {

// An alltoallv's count matrix is part of the problem, not a way to solve it:
// cases of different patterns never compete.
std::string same_size_key(const Case& c) {
  return fmt::format("{}|{}|{}|{}|{}|{}|{}|{}", name(c.collective), name(c.dtype), name(c.op), c.count, c.np,
                     name(c.mode), c.in_place, counts_option(c));
}

const CaseResult* reference_case(const std::vector<const CaseResult*>& same_size, const std::string& selector) {
  const std::vector<std::string> selectors =
      selector.empty() ? std::vector<std::string>{"compressed:dense", "nccl_compressed:dense", "mpi:default"}
                       : std::vector<std::string>{selector};
  for (const auto& s : selectors)
    for (const CaseResult* r : same_size)
      if (s == r->c.backend + ":" + r->c.algorithm) return r;
  return same_size.size() == 1 ? same_size.front() : nullptr;
}

double BestAtSize::reference_over_best() const {
  if (reference == nullptr || best == nullptr || best_s <= 0) return 0;
  return reference_s / best_s;
}

std::map<std::string, MeasurementDoubt> doubt_per_size(const nlohmann::json& report,
                                                       const std::vector<CaseResult>& cases) {
  const NoiseContext context(report);
  std::map<std::string, MeasurementDoubt> out;
  for (const CaseResult& r : cases)
    if (r.measured()) out[same_size_key(r.c)].merge(context.doubt_of(r));
  return out;
}

bool size_order_less(const Case& a, const Case& b) {
  // Enumerators, not names: collectives in the order users know them, sizes by value.
  auto key = [](const Case& c) {
    return std::make_tuple(static_cast<int>(c.collective), static_cast<int>(c.dtype), static_cast<int>(c.op),
                           c.in_place, static_cast<int>(c.mode), c.np, c.bytes, c.count);
  };
  return key(a) < key(b);
}

std::vector<BestAtSize> best_per_size(const std::vector<CaseResult>& cases, const std::string& selector) {
  std::map<std::string, std::vector<const CaseResult*>> by_size;
  for (const CaseResult& r : cases)
    if (r.measured()) by_size[same_size_key(r.c)].push_back(&r);
  std::vector<BestAtSize> out;
  for (const auto& [key, group] : by_size) {
    // Each algorithm's records (its launches) as one candidate, in the order first met.
    std::vector<std::string> labels;
    std::map<std::string, std::vector<Observation>> obs;
    std::map<std::string, const CaseResult*> first;
    for (const CaseResult* r : group) {
      const std::string label = algorithm_label(r->c);
      if (first.emplace(label, r).second) labels.push_back(label);
      obs[label].push_back(observation_of(*r, ""));
    }
    std::vector<const std::vector<Observation>*> candidates;
    for (const std::string& l : labels) candidates.push_back(&obs.at(l));
    const auto pooled = [&](const CaseResult* r) { return objective_time(obs.at(algorithm_label(r->c)), Objective::median); };
    BestAtSize entry;
    entry.best = first.at(labels[fastest_of(candidates, Objective::median)]);
    entry.best_s = pooled(entry.best);
    entry.reference = nullptr;
    if (selector.empty())
      for (const char* library : {"mpi:default", "nccl:default"})
        if (!entry.reference) entry.reference = reference_case(group, library);
    if (!entry.reference) entry.reference = reference_case(group, selector);
    if (entry.reference) entry.reference_s = pooled(entry.reference);
    entry.measured = group.size();
    out.push_back(entry);
  }
  std::sort(out.begin(), out.end(),
            [](const BestAtSize& a, const BestAtSize& b) { return size_order_less(a.best->c, b.best->c); });
  return out;
}

}  // namespace pico
