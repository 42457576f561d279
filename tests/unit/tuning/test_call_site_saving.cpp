// SPDX-License-Identifier: BSD-3-Clause
// What a profile's choices buy an application at its call sites: the sweep's
// speedup applied to the time the application's default spent there.
#include <catch2/catch.hpp>

#include "tuning/call_site_saving.hpp"
#include "tuning_fixtures.hpp"

using namespace pico;

namespace {

// bcast at 4 ranks: default below 32 KiB, pipeline (2x in the sweep) from 32 KiB.
TunedProfile bcast_profile() {
  TunedProfile p = test::openmpi_profile_of({test::bcast_pipeline_rule()});
  p.rules[0].ranges[1].speedup = SpeedupInterval{2.0, 1.8, 2.2};
  return p;
}

}  // namespace

TEST_CASE("call-site saving: the sweep's speedup applied to the default's time, where the choice changes it",
          "[tuning]") {
  const TunedProfile p = bcast_profile();
  const ProfileRange* large = p.choose(Collective::bcast, 4, 800000);
  const ProfileRange* small = p.choose(Collective::bcast, 4, 1024);
  // 0.4 s at the default, 2x: half of it saved.
  CHECK(predicted_saving_at(large, {Collective::bcast, 4, 800000, 38, 0.4, "basic_linear"}) == Approx(0.2));
  // The application's default ran the choice already, the range keeps the default, or no range: nothing.
  CHECK(predicted_saving_at(large, {Collective::bcast, 4, 800000, 38, 0.4, "pipeline"}) == 0);
  CHECK(predicted_saving_at(small, {Collective::bcast, 4, 1024, 9, 0.1, "binary_tree"}) == 0);
  CHECK(predicted_saving_at(nullptr, {Collective::bcast, 4, 800000, 38, 0.4, "basic_linear"}) == 0);
  // An empty bcast runs no algorithm; a range without a measured speedup predicts nothing.
  CHECK(predicted_saving_at(large, {Collective::bcast, 4, 0, 5, 0.1, "basic_linear"}) == 0);
  TunedProfile unmeasured = p;
  unmeasured.rules[0].ranges[1].speedup.reset();
  CHECK(predicted_saving_at(unmeasured.choose(Collective::bcast, 4, 800000),
                            {Collective::bcast, 4, 800000, 38, 0.4, "basic_linear"}) == 0);
}

TEST_CASE("call-site saving: sites weighed, the largest saving first, then the most time", "[tuning]") {
  const std::vector<WeightedChoice> w =
      weigh_choices(bcast_profile(), "p.json", {{Collective::bcast, 4, 1024, 900, 0.5, "binary_tree"},
                                                {Collective::bcast, 4, 65536, 9, 0.1, "basic_linear"},
                                                {Collective::allreduce, 4, 8, 28, 0.01, "recursive_doubling"},
                                                {Collective::bcast, 4, 800000, 38, 0.4, "basic_linear"}});
  REQUIRE(w.size() == 4);
  CHECK(w[0].site.bytes == 800000);
  CHECK(w[0].saving_s == Approx(0.2));
  CHECK(w[0].choice == "pipeline");
  CHECK(w[0].speedup == 2.0);
  CHECK(w[1].site.bytes == 65536);
  CHECK(w[2].site.bytes == 1024);  // no saving, but more time than the allreduce
  CHECK(w[2].choice == "default");
  CHECK(w[3].choice == "default (no rule)");
}
