// SPDX-License-Identifier: BSD-3-Clause
// The run's slow links in words (docs/report.md#slow-links), for the table,
// terminal and HTML views: one line from find_slow_links
// (core/link_probe.hpp), said once per run beside the stragglers.
#pragma once

#include <string>

#include "core/link_probe.hpp"

namespace pico {

// "" where the report has no link probe (reports from before it); "slow links:
// not measured ..." where per-rank timing was off or the run had one host;
// "slow links: none ..." with the nearest host's ratio; else each host named,
// with its figure, its ratio and how many of its links agree.
std::string slow_links_text(const LinkFindings& f);

}  // namespace pico
