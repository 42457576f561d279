// SPDX-License-Identifier: BSD-3-Clause
#include "tuning/comm_size_prediction.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace pico {
namespace {

const ProfileRange& covering(const ProfileRule& rule, std::uint64_t bytes) {
  const ProfileRange* range = rule.range_for(bytes);
  return range != nullptr ? *range : rule.ranges.back();  // not for a checked profile: its ranges cover every size
}

bool same_choice(const ProfileRange& a, const ProfileRange& b) {
  return a.algorithm == b.algorithm && a.params == b.params;
}

// The weaker of two expected speedups (the lower lower bound).
std::optional<SpeedupInterval> weaker(const std::optional<SpeedupInterval>& a, const std::optional<SpeedupInterval>& b) {
  if (!a || !b) return a ? a : b;
  return a->low <= b->low ? a : b;
}

// The evidence of `from` that lies in `to`'s sizes.
void add_evidence(ProfileRange& to, const ProfileRange& from) {
  for (const ProfileEvidence& e : from.evidence)
    if (to.covers(e.bytes)) to.evidence.push_back(e);
}

// Of two measured sizes, the one nearer to n in ratio (the larger on a tie).
const ProfileRule& nearer(const ProfileRule& a, const ProfileRule& b, int n) {
  const double da = std::abs(std::log(static_cast<double>(n) / a.comm_size));
  const double db = std::abs(std::log(static_cast<double>(n) / b.comm_size));
  return da < db ? a : b;
}

// The rule at comm_size n from the measured rules a and b: a choice both
// made, else the nearer one's. Its placement follows what a and b share: the
// processes per node (more nodes), or the nodes (more per node).
ProfileRule filled(const ProfileRule& a, const ProfileRule& b, int n) {
  ProfileRule out;
  out.collective = a.collective;
  out.comm_size = n;
  if (a.ppn == b.ppn && a.ppn > 0) {
    out.ppn = a.ppn;
    out.nodes = n / a.ppn;
  } else if (a.nodes == b.nodes && a.nodes > 0) {
    out.nodes = a.nodes;
    out.ppn = n / a.nodes;
  }
  out.predicted_from = {a.comm_size, b.comm_size};
  const ProfileRule& near = nearer(a, b, n);
  std::set<std::uint64_t> starts;
  for (const ProfileRule* rule : {&a, &b})
    for (const ProfileRange& r : rule->ranges) starts.insert(r.min_bytes);
  for (auto it = starts.begin(); it != starts.end(); ++it) {
    const auto next = std::next(it);
    const ProfileRange& ra = covering(a, *it);
    const ProfileRange& rb = covering(b, *it);
    const ProfileRange& from = covering(near, *it);
    ProfileRange piece;
    piece.min_bytes = *it;
    if (next != starts.end()) piece.max_bytes = *next - 1;
    piece.algorithm = from.algorithm;
    piece.params = from.params;
    piece.speedup = same_choice(ra, rb) ? weaker(ra.speedup, rb.speedup) : from.speedup;
    ProfileRange* last = out.ranges.empty() ? nullptr : &out.ranges.back();
    if (last != nullptr && same_choice(*last, piece)) {
      last->max_bytes = piece.max_bytes;
      last->speedup = weaker(last->speedup, piece.speedup);
    } else {
      out.ranges.push_back(std::move(piece));
    }
  }
  // Each range carries the evidence, within its sizes, of the measured ranges that made its choice.
  for (ProfileRange& r : out.ranges)
    for (const ProfileRule* rule : {&a, &b})
      for (const ProfileRange& source : rule->ranges)
        if (same_choice(source, r)) add_evidence(r, source);
  return out;
}

// The two measured rules a size is filled from: those around it, else the two nearest.
std::pair<const ProfileRule*, const ProfileRule*> sources(const std::vector<const ProfileRule*>& measured, int n) {
  const auto above = std::find_if(measured.begin(), measured.end(), [&](const ProfileRule* r) { return r->comm_size > n; });
  if (above == measured.begin()) return {measured[0], measured[1]};
  if (above == measured.end()) return {measured[measured.size() - 2], measured.back()};
  return {*(above - 1), *above};
}

// Why n cannot be placed as a and b are (whole nodes of their ppn, or
// their nodes filled evenly); "" when it can.
std::string placement_problem(const ProfileRule& a, const ProfileRule& b, int n) {
  if (a.ppn == b.ppn && a.ppn > 0 && n % a.ppn != 0)
    return fmt::format("{} ranks do not fill nodes of {}", n, a.ppn);
  if (a.ppn != b.ppn && a.nodes == b.nodes && a.nodes > 0 && n % a.nodes != 0)
    return fmt::format("{} ranks do not spread evenly over {} nodes", n, a.nodes);
  return "";
}

}  // namespace

std::vector<std::string> add_predicted_rules(TunedProfile& profile, std::span<const int> comm_sizes) {
  std::vector<std::string> notes;
  // The measured rules per collective, one per comm_size (the first), ascending.
  std::map<Collective, std::vector<const ProfileRule*>> measured;
  for (const ProfileRule& rule : profile.rules) {
    if (!rule.predicted_from.empty()) continue;
    auto& rules = measured[rule.collective];
    if (std::none_of(rules.begin(), rules.end(), [&](const ProfileRule* r) { return r->comm_size == rule.comm_size; }))
      rules.push_back(&rule);
  }
  std::vector<int> sizes;  // each once, in the order given
  for (int n : comm_sizes)
    if (std::find(sizes.begin(), sizes.end(), n) == sizes.end()) sizes.push_back(n);
  std::vector<ProfileRule> added;
  for (auto& [collective, rules] : measured) {
    std::sort(rules.begin(), rules.end(), [](const ProfileRule* x, const ProfileRule* y) { return x->comm_size < y->comm_size; });
    for (int n : sizes) {
      const std::string what = fmt::format("{} np {}", name(collective), n);
      if (std::any_of(rules.begin(), rules.end(), [&](const ProfileRule* r) { return r->comm_size == n; })) {
        notes.push_back(fmt::format("{}: measured, not predicted", what));
        continue;
      }
      if (rules.size() < 2) {
        notes.push_back(fmt::format("{}: not predicted: it needs measured rules at two communicator sizes, the "
                                    "profile has np {} only", what, rules[0]->comm_size));
        continue;
      }
      const auto [a, b] = sources(rules, n);
      if (const std::string problem = placement_problem(*a, *b, n); !problem.empty()) {
        notes.push_back(fmt::format("{}: not predicted: {}", what, problem));
        continue;
      }
      added.push_back(filled(*a, *b, n));
      notes.push_back(fmt::format("{}: predicted from np {} and {} ({} range(s); where they differ, np {}'s choice)",
                                  what, a->comm_size, b->comm_size, added.back().ranges.size(),
                                  nearer(*a, *b, n).comm_size));
    }
  }
  for (ProfileRule& r : added) profile.rules.push_back(std::move(r));
  std::stable_sort(profile.rules.begin(), profile.rules.end(), [](const ProfileRule& x, const ProfileRule& y) {
    return std::tie(x.collective, x.comm_size) < std::tie(y.collective, y.comm_size);
  });
  return notes;
}

}  // namespace pico
