// SPDX-License-Identifier: BSD-3-Clause
// The report's `guidelines` section (docs/report.md#guidelines): each
// performance guideline (core/guidelines.hpp) checked where both sides were
// measured: the library's default and its mock-up at the same collective,
// size, np, datatype, op and options (the same choice, core/case.hpp's
// choice_id, so the same rounds where they were interleaved), their ratio
// default time / mock-up time with its 95% interval by the project's one
// speedup definition (core/speedup.hpp), violations first.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/case_result.hpp"
#include "core/speedup.hpp"

namespace pico {

// What the verdicts mean, beside the speedup's definition.
inline constexpr std::string_view kGuidelineRule =
    "ratio = default time / mock-up time (the speedup of the mock-up over the default); violated where its whole 95% "
    "interval lies above 1 (the default is slower than its own mock-up), holds where it lies below 1, else undecided";

struct GuidelineCheck {
  const CaseResult* example = nullptr;  // a default case of the pair: what was measured (collective, size, np, ...)
  std::string guideline;                // the mock-up's algorithm, "guideline:scatter+allgather"
  std::vector<std::string> default_cases, mock_up_cases;  // case ids, each once
  MeasuredSpeedup ratio;                // default time / mock-up time
  std::string verdict;                  // violated | holds | undecided
  std::string text;                     // the sentence for people
};

struct GuidelineReport {
  std::vector<GuidelineCheck> checks;  // violated first (largest ratio first), then undecided, then holds
  // Mock-up cases that could not be checked: "case ID (guideline:...): why".
  std::vector<std::string> unchecked;
  int skipped = 0;  // mock-up cases the plan skipped (their reasons are in the report's cases)
};

// `library` and `version`: the MPI library the worker met (provenance.mpi), for the sentences.
GuidelineReport check_guidelines(const std::vector<CaseResult>& cases, const std::string& library,
                                 const std::string& version);

// "Open MPI 4.1.4", "MPICH 4.0.2", "the MPI library" where unknown.
std::string mpi_library_text(const std::string& library, const std::string& version);

// The report's `guidelines` object; null where no case is a mock-up (reports
// of experiments without guidelines carry none).
nlohmann::json guidelines_to_json(const GuidelineReport& g);

}  // namespace pico
