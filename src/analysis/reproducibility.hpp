// SPDX-License-Identifier: BSD-3-Clause
// The platform's own reproducibility, as every report states it
// (docs/methodology.md#reproducibility): would a second measurement pick the
// same best candidate? Split-half: at each choice of two or more measured
// candidates (cases that differ only in backend, algorithm and parameters),
// the candidates' times from one half of the data against the other half's.
// The halves are the repetitions' launches (even against odd) where every
// candidate ran in two or more, else the interleaved rounds (even against
// odd); a choice measured in neither way cannot be split and is not counted.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/case_result.hpp"

namespace pico {

struct Reproducibility {
  std::string split = "none";  // launches | rounds | none
  int choices = 0;             // choices that could be split
  int same_best = 0;           // both halves name the same fastest candidate
  int near_best = 0;           // the first half's fastest within `tolerance` of the second's, priced in the second
  double tolerance = 0.05;
};

Reproducibility split_half_agreement(const std::vector<CaseResult>& cases, double tolerance = 0.05);

nlohmann::json to_json(const Reproducibility& r);
Reproducibility reproducibility_from_json(const nlohmann::json& j);

// One line for people: "a second measurement would pick the same best at
// 72% of 80 sizes (within 5% of its best at 90%; split-half over rounds)".
std::string describe(const Reproducibility& r);

// The line for a report ("reproducibility: ..." and a newline, wrapped to
// 100 columns); "" for a report written before reports stated it.
std::string reproducibility_line(const nlohmann::json& report);

}  // namespace pico
