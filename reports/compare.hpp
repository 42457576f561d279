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

#include <string>

#include <nlohmann/json.hpp>

namespace pico {

struct CompareOptions {
  // "backend:algorithm" naming the baseline where several cases share a size;
  // "" tries compressed:dense, nccl_compressed:dense, then mpi:default.
  std::string baseline;
};

// One object per compared pair, sorted by collective, dtype, op, in-place,
// mode, ranks and size (numerically): the case's defining fields, labels,
// medians, speedup with its 95% interval and verdict, the candidate's phase
// breakdown and compression metrics. Throws std::invalid_argument when
// nothing can be paired.
nlohmann::json compare_reports(const nlohmann::json& baseline, const nlohmann::json* candidate,
                               const CompareOptions& options);

std::string render_compare_table(const nlohmann::json& rows);
// Numbers as numbers (seconds, a plain speedup factor, the interval's ends in
// columns of their own), for pandas or R.
std::string render_compare_csv(const nlohmann::json& rows);

// One object per size of the report, in the order above: the fastest case
// ("best"), the reference case (options.baseline, else the defaults above;
// null where the size has none) and reference_loss, reference / best - 1.
// `report` labels the rows (several reports in one listing).
nlohmann::json best_per_size_rows(const nlohmann::json& report, const std::string& report_label,
                                  const CompareOptions& options);
std::string render_best_table(const nlohmann::json& rows);
std::string render_best_csv(const nlohmann::json& rows);

}  // namespace pico
