// SPDX-License-Identifier: BSD-3-Clause
// The run's stragglers in words (docs/report.md#stragglers), for the table and
// terminal views: one line per host (or rank) from find_stragglers
// (core/run_stragglers.hpp), said once however many cases it held up.
#pragma once

#include <string>

#include "core/run_stragglers.hpp"

namespace pico {

// The table's and terminal's lines: "" where no case has per-rank timing
// (reports from before it), "stragglers: none ..." where none was named,
// "stragglers: not measured ..." where it was turned off (timing.rank_timing).
std::string stragglers_text(const StragglerFindings& f);

// "host n3 (rank 2)" or "rank 1".
std::string straggler_who(const NamedStraggler& n);

}  // namespace pico
