// SPDX-License-Identifier: BSD-3-Clause
#include "tuning/run_evidence.hpp"

#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/case_result.hpp"
#include "core/report_facts.hpp"
#include "support/counted.hpp"
#include "support/input_error.hpp"

namespace pico {

namespace {

// A recorded string of provenance.profile, "" where it holds none.
std::string recorded(const nlohmann::json& profile, const char* key) {
  const auto it = profile.find(key);
  return it != profile.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::string run_id_of(const LoadedReport& report) {
  const ReportFacts facts = report_facts(report.report);
  std::filesystem::path p(facts.results_dir.empty() ? report.path : facts.results_dir);
  if (p.filename().empty()) p = p.parent_path();  // "DIR/"
  if (p.filename() == "report.json") p = p.parent_path();
  return p.filename().string();
}

DistinctRuns distinct_runs(const std::vector<LoadedReport>& reports) {
  DistinctRuns out;
  std::map<std::string, std::vector<std::string>> given;  // run id -> the paths it was given as
  for (const LoadedReport& r : reports) {
    const std::string id = run_id_of(r);
    std::vector<std::string>& paths = given[id];
    if (paths.empty()) {
      out.reports.push_back(r);
    } else {
      const LoadedReport* first = nullptr;
      for (const LoadedReport& kept : out.reports)
        if (run_id_of(kept) == id) first = &kept;
      if (first->report != r.report)
        throw InputError(r.path,
                         fmt::format("is run {}, as {} is, but the two reports differ: one run is counted once, and "
                                     "which of its reports is the evidence cannot be told",
                                     id, first->path),
                         "give one report of each run (after a resume, its results directory's latest report.json)");
    }
    paths.push_back(r.path);
  }
  for (const LoadedReport& r : out.reports) {
    const std::vector<std::string>& paths = given.at(run_id_of(r));
    if (paths.size() > 1)
      out.repeated.push_back(fmt::format("{}: given {} times ({}): one run, counted once", run_id_of(r), paths.size(),
                                         fmt::join(paths, ", ")));
  }
  return out;
}

void require_evidence(const LoadedReport& report, EvidenceKind kind) {
  const ReportFacts facts = report_facts(report.report);
  if (kind == EvidenceKind::sweep && facts.profile)
    throw InputError(report.path,
                     fmt::format("ran with the profile {} loaded: its default is that profile's choices, not the "
                                 "library's own, so it is no sweep to tune from",
                                 recorded(*facts.profile, "path").empty() ? std::string("(path not recorded)")
                                                                          : recorded(*facts.profile, "path")),
                     "tune from runs without --profile; check a loaded profile with pico tune --check SWEEP TUNED "
                     "--profile PROFILE");
  std::size_t failed = 0, skipped = 0, measured = 0;
  std::string first_reason;
  for (const CaseResult& cr : case_results_of(report.report)) {
    if (cr.measured()) ++measured;
    else if (cr.status == CaseStatus::failed) ++failed;
    else ++skipped;
    if (!cr.measured() && first_reason.empty()) first_reason = cr.reason;
  }
  if (measured > 0) return;
  if (failed + skipped == 0)
    throw InputError(report.path, "holds no case: a run that measured nothing is no evidence",
                     "give the report of a run that measured its cases");
  throw InputError(report.path,
                   fmt::format("measured none of its cases ({} failed, {} skipped{}): a run that measured nothing is "
                               "no evidence",
                               failed, skipped,
                               first_reason.empty() ? std::string() : fmt::format("; the first: {}", first_reason)),
                   fmt::format("see why with pico report {}; fix it and run again", report.path));
}

void require_loaded_profile(const LoadedReport& report, const std::string& profile_path,
                            const std::string& profile_hash) {
  const ReportFacts facts = report_facts(report.report);
  if (!facts.profile) return;  // no profile loaded: a sweep, not a tuned run
  const std::string hash = recorded(*facts.profile, "hash");
  if (hash == profile_hash) return;
  const std::string loaded = recorded(*facts.profile, "path");
  throw InputError(report.path,
                   hash.empty() ? fmt::format("records no hash of the profile it loaded ({}), so it cannot be told "
                                              "to be {}", loaded.empty() ? "path not recorded" : loaded, profile_path)
                                : fmt::format("ran with the profile {} (hash {}), not {} (hash {}): its numbers are "
                                              "that profile's",
                                              loaded.empty() ? "(path not recorded)" : loaded, hash, profile_path,
                                              profile_hash),
                   "check each profile against the runs that loaded it: pico tune --check SWEEP TUNED --profile "
                   "THE_PROFILE_THEY_LOADED");
}

}  // namespace pico
