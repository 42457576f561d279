// SPDX-License-Identifier: BSD-3-Clause
#include "reports/slow_links.hpp"

#include <fmt/format.h>

#include "reports/text_table.hpp"
#include "support/size_text.hpp"

namespace pico {
namespace {

// An exchange moves `bytes` each way in `s`: the rate one direction had.
std::string rate_text(std::int64_t bytes, double s) {
  if (s <= 0) return "?";
  const double bits = static_cast<double>(bytes) * 8 / s;
  if (bits >= 1e9) return fmt::format("{:.2f} Gbit/s", bits / 1e9);
  return fmt::format("{:.0f} Mbit/s", bits / 1e6);
}

std::string left_out(const LinkFindings& f) {
  return f.launches_oversubscribed == 0
             ? ""
             : fmt::format("; {} oversubscribed launch(es) left out", f.launches_oversubscribed);
}

}  // namespace

std::string slow_links_text(const LinkFindings& f) {
  const std::string size = size_text(static_cast<std::uint64_t>(f.bytes));
  switch (f.verdict) {
    case LinkVerdict::absent:
      return "";
    case LinkVerdict::not_measured:
    case LinkVerdict::not_attributable:
      return fmt::format("slow links: not {}: {}{}\n",
                         f.verdict == LinkVerdict::not_measured ? "measured" : "attributable to a host", f.reason,
                         left_out(f));
    case LinkVerdict::none:
      return fmt::format(
          "slow links: none among {} inter-host link(s) of {} hosts (pairwise {} exchanges, median {}, "
          "{}); nearest: host {}, its links a median {:.2f}x the others', its fastest {:.2f}x (named "
          "where every link is {:.1f}x){}\n",
          f.inter_host_links, f.hosts, size, duration_text(f.median_s), rate_text(f.bytes, f.median_s), f.closest_host,
          f.closest_ratio, f.closest_min_ratio, kSlowLinkFactor, left_out(f));
    case LinkVerdict::named:
      break;
  }
  std::string out = fmt::format("slow links ({} inter-host link(s) of {} hosts, pairwise {} exchanges{}):\n",
                                f.inter_host_links, f.hosts, size, left_out(f));
  for (const SlowHost& s : f.named)
    out += fmt::format(
        "  host {}: its {} inter-host links take a median {} ({}), {:.1f}x the {} ({}) of the links not "
        "touching it; {} of {} of its links at least {:.1f}x slower (the fastest {:.1f}x), over {} rank "
        "pair(s)\n",
        s.host, s.links, duration_text(s.median_s), rate_text(f.bytes, s.median_s), s.ratio,
        duration_text(s.others_median_s), rate_text(f.bytes, s.others_median_s), s.agreeing, s.links, kSlowLinkFactor,
        s.min_ratio, s.rank_pairs);
  return out;
}

}  // namespace pico
