// SPDX-License-Identifier: BSD-3-Clause
// A profile's choices, and the library default it recorded, as reference
// algorithms: what pico replay --profile runs and compares with
// (--baseline default).
#include <catch2/catch.hpp>

#include "core/input_error.hpp"
#include "simulation/profile_choice.hpp"
#include "tuning_fixtures.hpp"

using namespace pico;

namespace {

// Open MPI at 4 ranks: bcast pipeline from 32 KiB, where the sweep saw the
// default run binary_tree at 1 KiB and basic_linear at 800 KB.
TunedProfile bcast_profile() {
  TunedProfile p = test::openmpi_profile_of({test::bcast_pipeline_rule()});
  p.rules[0].ranges[0].default_ran = {{1024, "binary_tree"}};
  p.rules[0].ranges[1].default_ran = {{800000, "basic_linear"}};
  return p;
}

AlgorithmChoice unchosen() {
  return [](Collective, int, std::uint64_t) { return std::string("fallback"); };
}

}  // namespace

TEST_CASE("replay baseline: the profile against the default it recorded, each as a reference algorithm",
          "[simulation]") {
  const TunedProfile p = bcast_profile();
  const ReferenceEquivalents eq = load_reference_equivalents("openmpi", "p.json");
  const AlgorithmChoice chosen = profile_choice(p, eq, "p.json", unchosen());
  const AlgorithmChoice baseline = profile_default_choice(p, eq, "p.json", unchosen());
  // Large messages: the profile's pipeline is the chain; the default's basic_linear the linear bcast.
  CHECK(chosen(Collective::bcast, 4, 800000) == "chain");
  CHECK(baseline(Collective::bcast, 4, 800000) == "linear");
  // Where the profile keeps the default, both run what the default ran (binary_tree: binomial).
  CHECK(chosen(Collective::bcast, 4, 1024) == "binomial");
  CHECK(baseline(Collective::bcast, 4, 1024) == "binomial");
  // No rule, or nothing recorded: the fallback (ATLAHS's choice in pico replay).
  CHECK(baseline(Collective::allreduce, 4, 800000) == "fallback");
  TunedProfile unrecorded = p;
  for (auto& r : unrecorded.rules[0].ranges) r.default_ran.clear();
  CHECK(profile_default_choice(unrecorded, eq, "p.json", unchosen())(Collective::bcast, 4, 800000) == "fallback");
}

TEST_CASE("replay baseline: a recorded default with no reference equivalent is refused, naming it", "[simulation]") {
  TunedProfile p = bcast_profile();
  p.rules[0].ranges[1].default_ran = {{800000, "no_such_bcast"}};
  const AlgorithmChoice baseline =
      profile_default_choice(p, load_reference_equivalents("openmpi", "p.json"), "p.json", unchosen());
  try {
    baseline(Collective::bcast, 4, 800000);
    FAIL("accepted a default with no reference equivalent");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("says the library's default ran bcast no_such_bcast"));
  }
}
