// SPDX-License-Identifier: BSD-3-Clause
#include "tuning/ompi_comm_size_blocks.hpp"

#include <algorithm>
#include <climits>

#include "collectives/spec.hpp"
#include "tuning/library_range.hpp"

namespace pico {

namespace {

constexpr int kMoreCommSizes = 64;

bool fits_at(const ProfileRule& rule, std::uint64_t factor) {
  return std::all_of(rule.ranges.begin(), rule.ranges.end(),
                     [&](const ProfileRange& r) { return library_range_within(r, factor).has_value(); });
}

}  // namespace

std::vector<OmpiCommSizeBlock> ompi_comm_size_blocks(const std::vector<const ProfileRule*>& rules) {
  std::vector<OmpiCommSizeBlock> blocks;
  if (rules.empty()) return blocks;
  if (spec_for(rules.front()->collective).names.ompi_size != SizeBasis::comm_total) {
    for (const ProfileRule* rule : rules) blocks.push_back({rule->comm_size, rule});
    return blocks;
  }
  if (rules.front()->comm_size > 1) blocks.push_back({1, nullptr});
  for (std::size_t k = 0; k < rules.size(); ++k) {
    const ProfileRule& rule = *rules[k];
    const long long n = rule.comm_size;
    const long long next = k + 1 < rules.size() ? rules[k + 1]->comm_size : static_cast<long long>(INT_MAX) + 1;
    const long long end = std::min({next, 2 * n, n + kMoreCommSizes + 1});
    long long p = n;
    blocks.push_back({rule.comm_size, &rule});  // its own size: a range that does not fit is refused when written
    for (++p; p < end && fits_at(rule, static_cast<std::uint64_t>(p)); ++p)
      blocks.push_back({static_cast<int>(p), &rule});
    if (p < next) blocks.push_back({static_cast<int>(p), nullptr});
  }
  return blocks;
}

}  // namespace pico
