// SPDX-License-Identifier: BSD-3-Clause
// Text renderings of a report.json (format: docs/report.schema.json).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/case.hpp"
#include "core/case_result.hpp"

namespace pico {

// Which columns a table shows: every setting of a case (pico run, pico
// report), the figures OSU's -f and nccl-tests print per size: min, median,
// avg and max time, algbw and busbw (pico bench), or nccl-tests' own table,
// out-of-place and in-place side by side (pico bench --style nccl-tests,
// reports/nccl_tests_table.hpp).
enum class TableStyle { cases, benchmark, nccl_tests };

// A human-readable table, one row per case, columns aligned to their widest
// cell, followed by a "N cases: A ok, B failed, C skipped" summary line.
// Times are shown in microseconds; null timing or bandwidth shows as "-".
// colour: status and validation cells in green (ok, passed), red (failed) or
// yellow (skipped), for a terminal (support/terminal.hpp decides).
// width: the table fitted to it (reports/fitted_table.hpp), where wider: a
// failed or skipped case's reason becomes a note under the table ("skipped
// [1]" and "[1] 6 cases skipped: REASON", each reason once, said whole), then
// columns with one value are said once above it and long names abbreviated.
// pico run, bench, collect and report print 100 columns; --wide (and the
// default here) every column in full.
std::string render_table(const nlohmann::json& report, TableStyle style = TableStyle::cases, bool colour = false,
                         std::size_t width = static_cast<std::size_t>(-1));

// RFC 4180 CSV (CRLF line ends, header row first), one record per case.
// Null or missing values are empty fields; doubles keep full precision.
// "chain_fanout=2;segment_size=65536" from a case's params ("" when none).
std::string params_text(const std::map<std::string, double>& params);
// "backend/algorithm[params]": how tables name what a case ran.
std::string algorithm_label(const Case& c);

// "N cases: A ok, B failed, C skipped", ended: the last line of every view of a report's cases.
std::string summary_line(const std::vector<CaseResult>& cases);

std::string render_csv(const nlohmann::json& report);

}  // namespace pico
