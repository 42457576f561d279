// SPDX-License-Identifier: BSD-3-Clause
// The report of an application run (docs/applications.md#the-report): per
// process count and variant, its launches, its time (the figure of merit
// where the experiment gives one, else each launch's wall time), the speedup
// over the library default with its 95% interval and the verdict, and from
// the app counter which algorithm ran per collective and message size: for a
// profile, where its choices were taken and which calls it left at the
// default, and the share of the default's time in the calls the variant
// changed (what bounds its gain).
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

namespace pico {

inline constexpr const char* kApplicationReportSchema = "pico-application-report/1";

// run: application.json; launches: launches.jsonl's records, in order.
nlohmann::json build_application_report(const nlohmann::json& run, const std::vector<nlohmann::json>& launches);

}  // namespace pico
