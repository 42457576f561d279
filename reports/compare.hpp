// SPDX-License-Identifier: BSD-3-Clause
// `pico compare`: a baseline against candidates, per collective and size.
// Two reports: each candidate case against the baseline case with the same
// case_id, else the baseline's only case (or its `baseline` selection) at
// the same collective, datatype, op, count, ranks and mode. One report:
// the cases `baseline` selects against every other case of the same size
// (compressed allreduce against dense in one experiment).
// `--best`: per size, the fastest algorithm and what the reference (the
// library's default) loses against it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/case.hpp"
#include "core/case_result.hpp"
#include "core/speedup.hpp"
#include "core/compression_metrics.hpp"
#include "core/noise_guard.hpp"

namespace pico {

struct CompareOptions {
  // "backend:algorithm" naming the baseline where several cases share a size;
  // "" tries compressed:dense, nccl_compressed:dense, then mpi:default.
  std::string baseline;
};

// The fields that tell two sizes apart (collective, dtype, op, in-place, mode,
// ranks, bytes), first in every row.
struct SizeFields {
  std::string collective, dtype, op, mode;
  bool in_place = false;
  int np = 0;
  std::uint64_t bytes = 0;
  static SizeFields of(const Case& c);
};

struct PhaseTime {
  std::string name;
  double time_s = 0;
};

// The speedup of one case over another, as every view prints it
// (core/speedup.hpp: one definition): paired round by round where both were
// measured in the same rounds of one launch of one report (one_report), else
// each resampled on its own. Nullopt where a median is 0 (unmeasured). The
// HTML page's data (reports/html_data.cpp) and pico compare both call it.
std::optional<MeasuredSpeedup> speedup_between(const CaseResult& base, const CaseResult& cand, bool one_report);

// One compared pair: a candidate case against its baseline case.
struct ComparedPair {
  SizeFields size;
  std::string baseline, candidate;  // algorithm labels
  std::string baseline_from;        // "this report" or "the baseline report"
  double baseline_median_s = 0, candidate_median_s = 0;
  std::optional<MeasuredSpeedup> speedup;  // none where a median is 0 ("unmeasured")
  std::vector<PhaseTime> breakdown;  // the candidate's phases, in the order it runs them
  CompressionMetrics compression;     // the candidate's, read by the renderers
  nlohmann::json compression_record;  // the candidate's record as written (null: exact), for --format json
  // The library's own collective at that size, where it is neither side: its median over the candidate's.
  std::optional<std::string> library;
  std::optional<double> library_speedup;
  // The two cases' measurement doubt (core/noise_guard.hpp): where any, the verdict is printed marked.
  MeasurementDoubt doubt;
  std::string verdict() const { return speedup ? std::string(speedup->verdict()) : "unmeasured"; }
};

// One size of a report: its fastest case and the reference (the library's default).
struct BestRow {
  SizeFields size;
  std::string report;  // the report's label (several reports in one listing)
  std::string best;
  double best_median_s = 0;
  CompressionMetrics compression;     // a compressed "best" is never shown without its error
  nlohmann::json compression_record;  // as written (null: an exact algorithm), for --format json
  std::size_t measured = 0;           // cases measured at that size
  std::optional<std::string> reference;
  std::optional<double> reference_median_s;
  std::optional<double> reference_loss;  // reference / best - 1
  MeasurementDoubt doubt;                // the size's (core/noise_guard.hpp): where any, the best is printed marked
};

// --format json writes these, one object per row, under the names above.
void to_json(nlohmann::json& out, const ComparedPair& row);
void to_json(nlohmann::json& out, const BestRow& row);

// One row per compared pair, sorted by collective, dtype, op, in-place, mode,
// ranks and size (numerically), then by the two labels. Throws InputError
// when nothing can be paired.
std::vector<ComparedPair> compare_reports(const nlohmann::json& baseline, const nlohmann::json* candidate,
                                          const CompareOptions& options);

// width: fitted to it (reports/fitted_table.hpp: columns of one value said above, "-" columns left out,
// candidates' names abbreviated); pico compare gives 100 columns unless --wide.
std::string render_compare_table(const std::vector<ComparedPair>& rows, std::size_t width = static_cast<std::size_t>(-1));
// The rows' answer for a terminal (pico report A B --format term): size, the
// two medians, speedup, interval and verdict as the table prints them;
// fitted to width (the terminal's) as render_compare_table is.
std::string render_compare_summary(const std::vector<ComparedPair>& rows, std::size_t width);
// Numbers as numbers (seconds, a plain speedup factor, the interval's ends in
// columns of their own), for pandas or R.
std::string render_compare_csv(const std::vector<ComparedPair>& rows);

// One row per size of the report, in the order above: the fastest case, the
// reference case (options.baseline, else the defaults above; none where the
// size has none) and what the reference loses against the fastest.
std::vector<BestRow> best_per_size_rows(const nlohmann::json& report, const std::string& report_label,
                                        const CompareOptions& options);
std::string render_best_table(const std::vector<BestRow>& rows, std::size_t width = static_cast<std::size_t>(-1));
std::string render_best_csv(const std::vector<BestRow>& rows);

}  // namespace pico
