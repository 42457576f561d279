// SPDX-License-Identifier: BSD-3-Clause
// pico tune --for-application APP_RUN [--min-saving T]: a profile's choices
// weighted by how often and how long an application's default called each
// size (its app counter's call sites), and, with --min-saving, the choices
// that buy the application less than T per launch put back to the default.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "tuning/profile.hpp"

namespace pico::cli {

// The application report (application_report_at) of `path`; InputError where
// it is no application run, or its default recorded no call sites.
nlohmann::json application_for_tuning(const std::string& path);

// Keeps at the default every chosen range of `profile` whose predicted
// saving, summed over the application's call sites it covers, is below
// `min_saving_s` per launch (a range it never calls saves 0). Returns one
// line per range put back.
std::vector<std::string> keep_choices_that_pay(TunedProfile& profile, const nlohmann::json& application,
                                               double min_saving_s);

// The table of the application's call sites with the profile's choice, the
// sweep's speedup and the saving each predicts, largest first, and the
// predicted saving and speedup per launch.
// width: the table fitted to it and the lines wrapped (reports/fitted_table.hpp).
std::string application_weights_text(const TunedProfile& profile, const nlohmann::json& application,
                                     const std::string& path, std::size_t width);

}  // namespace pico::cli
