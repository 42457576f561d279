// SPDX-License-Identifier: BSD-3-Clause
// What a report counts for as tune's evidence: one run, named by its run id
// (the results directory's name, <timestamp>-<id>, as the report records it),
// counted once however often it is given; a sweep's evidence is the
// library's default without a profile loaded, and a run that measured
// nothing is no evidence (docs/tuning.md#pico-tune).
#pragma once

#include <string>
#include <vector>

#include "tuning/tune.hpp"

namespace pico {

// The report's run id: the name of the results directory it records
// (run.results_dir), else of the path it was given (DIR or DIR/report.json).
std::string run_id_of(const LoadedReport& report);

// The reports, each run once, in the order first given, and a line per run
// given more than once ("RUN: given 3 times (A, B, C): one run, counted
// once"). InputError when two reports of one run id differ (a resumed run's
// earlier copy beside its later one): which one is the evidence is the user's
// to say.
struct DistinctRuns {
  std::vector<LoadedReport> reports;
  std::vector<std::string> repeated;
};
DistinctRuns distinct_runs(const std::vector<LoadedReport>& reports);

// InputError (WHERE the report's path) when the report is no evidence of
// `kind`: a sweep run with a profile loaded, or a run none of whose cases was
// measured (each failed or was skipped).
void require_evidence(const LoadedReport& report, EvidenceKind kind);

// InputError when a tuned run recorded loading another profile than the one
// at profile_path (whose file hashes to profile_hash, profile_file_hash): its
// numbers are another profile's, not this one's.
void require_loaded_profile(const LoadedReport& report, const std::string& profile_path,
                            const std::string& profile_hash);

}  // namespace pico
