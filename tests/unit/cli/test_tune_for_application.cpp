// SPDX-License-Identifier: BSD-3-Clause
// pico tune --for-application: a profile's choices weighed by an
// application's call sites, and --min-saving putting back what does not pay.
#include <catch2/catch.hpp>

#include <algorithm>

#include "cli/tune_for_application.hpp"
#include "reports/fitted_table.hpp"
#include "tuning_fixtures.hpp"

using namespace pico;
using nlohmann::json;

namespace {

// bcast pipeline (2x) from 32 KiB, allreduce ring (1.1x) from 0, at 4 ranks; alltoall pairwise at 2 ranks.
TunedProfile profile() {
  TunedProfile p = test::openmpi_profile_of(
      {test::bcast_pipeline_rule(),
       test::profile_rule(Collective::allreduce, 4, {test::profile_range(0, std::nullopt, "ring")}),
       test::profile_rule(Collective::alltoall, 2, {test::profile_range(0, std::nullopt, "pairwise")})});
  p.rules[0].ranges[1].speedup = SpeedupInterval{2.0, 1.8, 2.2};
  p.rules[1].ranges[0].speedup = SpeedupInterval{1.1, 1.05, 1.15};
  p.rules[2].ranges[0].speedup = SpeedupInterval{1.5, 1.2, 1.8};
  return p;
}

// The application report's default variant at np 4: 0.4 s in 781 KiB bcasts, 0.011 s in 8 B allreduces.
json application() {
  json calls = json::array();
  calls.push_back({{"collective", "bcast"}, {"comm_size", 4}, {"bytes", 800000}, {"calls", 38},
                   {"seconds", 0.4}, {"default_ran", "basic_linear"}});
  calls.push_back({{"collective", "allreduce"}, {"comm_size", 4}, {"bytes", 8}, {"calls", 28},
                   {"seconds", 0.011}, {"default_ran", "recursive_doubling"}});
  return {{"name", "pw"},
          {"processes", json::array({{{"np", 4},
                                      {"variants", json::array({{{"variant", "default"}, {"run_s", 7.6},
                                                                 {"calls", calls}}})}}})}};
}

}  // namespace

TEST_CASE("tune --for-application: choices that save less than the bar go back to the default", "[tuning]") {
  TunedProfile p = profile();
  // The bcast saves 0.2 s, the allreduce 0.001 s, the alltoall nothing (the application never calls it).
  const std::vector<std::string> lines = cli::keep_choices_that_pay(p, application(), 0.01);
  REQUIRE(lines.size() == 2);
  CHECK_THAT(lines[0], Catch::Matchers::Contains("allreduce np 4") && Catch::Matchers::Contains("ring kept at the default"));
  CHECK_THAT(lines[1], Catch::Matchers::Contains("alltoall np 2") && Catch::Matchers::Contains("saves the application 0 s"));
  CHECK(p.rules[0].ranges[1].algorithm == "pipeline");
  CHECK(p.rules[1].ranges[0].algorithm == "default");
  CHECK_FALSE(p.rules[1].ranges[0].speedup);
  CHECK(p.rules[2].ranges[0].algorithm == "default");
  // A bar of zero keeps every choice the application calls, and drops nothing it calls.
  TunedProfile q = profile();
  CHECK(cli::keep_choices_that_pay(q, application(), 0).empty());
}

TEST_CASE("tune --for-application: the table weighs each call site, the largest saving first", "[tuning]") {
  // In full (--wide), read by position; in 100 columns no line is wider.
  const std::string text = cli::application_weights_text(profile(), application(), "run", kUnlimitedWidth);
  const std::string fitted = cli::application_weights_text(profile(), application(), "run", kDefaultTableWidth);
  for (std::size_t at = 0, end; at < fitted.size(); at = end + 1) {
    end = std::min(fitted.find('\n', at), fitted.size());
    CHECK(end - at <= 100);
  }
  CHECK_THAT(text, Catch::Matchers::Contains("for application 'pw' (run), np 4"));
  const auto bcast = text.find("bcast          4"), allreduce = text.find("allreduce      4");
  REQUIRE(bcast != std::string::npos);
  REQUIRE(allreduce != std::string::npos);
  CHECK(bcast < allreduce);
  // 0.2 + 0.001 s saved of 7.6 s: 1.027x.
  CHECK_THAT(text, Catch::Matchers::Contains("predicted: 0.201 s saved of the default's 0.411 s in collectives and "
                                             "7.6 s run, 1.027x"));
}
