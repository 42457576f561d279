// SPDX-License-Identifier: BSD-3-Clause
#include "reports/stragglers.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "reports/text_table.hpp"
#include "support/size_text.hpp"
#include "support/wrapped_text.hpp"

namespace pico {
namespace {

std::string kind_text(const std::string& kind) {
  return kind == kLateArrival ? "arrives late" : "leaves late after arriving on time";
}

std::string case_text(const StragglerCase& c) {
  return fmt::format("{} {} {}, {} ranks ({} {:.0f}%)", c.collective, size_text(c.bytes), c.algorithm, c.np,
                     c.kind == kLateArrival ? "late arrival" : "slow progress", c.share.value() * 100);
}

// How likely chance alone names it this often (the run-level test, core/run_stragglers.hpp).
std::string chance_text(double p) { return p < 0.001 ? "by chance p < 0.001" : fmt::format("by chance p = {:.3f}", p); }

// "; named in a few cases, no more often than chance (...): host n2 in 14 of 400 case(s), ..."
std::string within_chance_text(const StragglerFindings& f) {
  if (f.within_chance.empty()) return "";
  std::vector<std::string> who;
  for (const NamedStraggler& n : f.within_chance)
    who.push_back(fmt::format("{} in {} of {}", straggler_who(n), n.cases.size(), n.eligible_cases));
  return fmt::format("; named in a few cases, no more often than on a uniform run ({:.0f}% of cases): {}",
                     kChanceCaseShare * 100, fmt::join(who, ", "));
}

}  // namespace

std::string straggler_who(const NamedStraggler& n) {
  if (n.host.empty()) return fmt::format("rank {}", *n.ranks.begin());
  return fmt::format("host {} (rank{} {})", n.host, n.ranks.size() == 1 ? "" : "s", fmt::join(n.ranks, ", "));
}

std::string stragglers_text(const StragglerFindings& f) {
  if (f.judged_cases == 0 && f.oversubscribed_cases == 0 && f.unmeasured_cases == 0) return "";
  // Per-rank timing turned off is no evidence of a uniform run: "none" would claim one.
  if (f.judged_cases == 0 && f.oversubscribed_cases == 0)
    return fmt::format("stragglers: not measured in {} case(s): per-rank timing off (timing.rank_timing: false)\n",
                       f.unmeasured_cases);
  std::string left_out =
      f.oversubscribed_cases == 0
          ? ""
          : fmt::format("; {} case(s) of oversubscribed launches not judged (ranks wait for cores)",
                        f.oversubscribed_cases);
  if (f.unmeasured_cases > 0)
    left_out += fmt::format("; {} case(s) not measured (timing.rank_timing: false)", f.unmeasured_cases);
  // In 100 columns, as the tables above them (support/wrapped_text.hpp).
  if (f.named.empty())
    return wrapped(fmt::format("stragglers: none in {} case(s) with per-rank timing{}{}", f.judged_cases, left_out,
                               within_chance_text(f)),
                   kProseWidth, "  ");
  std::string out = wrapped(fmt::format("stragglers ({} case(s) with per-rank timing{}{}):", f.judged_cases, left_out,
                                        within_chance_text(f)),
                            kProseWidth, "  ");
  for (const NamedStraggler& n : f.named) {
    std::vector<std::string> kinds;
    for (const auto& k : n.kinds) kinds.push_back(kind_text(k));
    std::vector<std::string> cases;
    for (const StragglerCase& c : n.cases) cases.push_back(case_text(c));
    out += wrapped(fmt::format("  {} {} in {} of {} case(s) ({}), in {:.0f}% of their calls ([{:.0f}%, {:.0f}%] at "
                               "95% confidence), by a median {}: {}",
                               straggler_who(n), fmt::join(kinds, " and "), n.cases.size(), n.eligible_cases,
                               chance_text(n.p_chance), n.pooled.value() * 100, n.pooled.low * 100, n.pooled.high * 100,
                               duration_text(n.excess_s), fmt::join(cases, "; ")),
                   kProseWidth, "    ");
  }
  return out;
}

}  // namespace pico
