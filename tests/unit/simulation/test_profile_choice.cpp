// SPDX-License-Identifier: BSD-3-Clause
// A profile's choices, and the library default it recorded, as reference
// algorithms: what pico replay --profile runs and compares with
// (--baseline default).
#include <catch2/catch.hpp>

#include "simulation/profile_choice.hpp"
#include "support/input_error.hpp"
#include "tuning/exported_choice.hpp"
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

// Issue 66, item 7: replay read the nearest rule (TunedProfile::choose), so below the smallest rule it replayed
// that rule's choice where the library runs its own decision and pico predict --profile says "default".
TEST_CASE("replay --profile: the rule the profile's export applies, the fallback where none does, as predict says "
          "(issue 66)",
          "[simulation]") {
  // Open MPI 4.1's allgather (keyed on the block times the communicator size): ompi-rules writes a default block
  // below the smallest rule and past its reach (4 to 7 ranks here).
  TunedProfile p = test::openmpi_profile_of(
      {test::profile_rule(Collective::allgather, 4, {test::profile_range(0, std::nullopt, "ring")})});
  p.rules[0].ranges[0].default_ran = {{1024, "bruck"}};
  const ReferenceEquivalents eq = load_reference_equivalents("openmpi", "p.json");
  const AlgorithmChoice chosen = profile_choice(p, eq, "p.json", unchosen());
  const AlgorithmChoice baseline = profile_default_choice(p, eq, "p.json", unchosen());
  for (const int np : {2, 3}) {
    INFO("np " << np);
    CHECK(chosen(Collective::allgather, np, 1024) == "fallback");
    CHECK(baseline(Collective::allgather, np, 1024) == "fallback");
  }
  CHECK(chosen(Collective::allgather, 4, 1024) == "ring");
  CHECK(baseline(Collective::allgather, 4, 1024) == "bruck");
  for (int np = 1; np <= 12; ++np) {
    INFO("np " << np);
    const ExportedRule applied = exported_rule(p, Collective::allgather, np);
    CHECK(chosen(Collective::allgather, np, 1024) == (applied.rule != nullptr ? "ring" : "fallback"));
  }
  // MPICH keys its rules on their communicator size alone: 2, 3 and 5 ranks run MPICH's own decision.
  TunedProfile mpich = test::openmpi_profile_of(
      {test::profile_rule(Collective::allreduce, 4, {test::profile_range(0, std::nullopt, "ring")})});
  mpich.library = {"mpi", "mpich", "4.2.0"};
  const AlgorithmChoice mpich_chosen =
      profile_choice(mpich, load_reference_equivalents("mpich", "p.json"), "p.json", unchosen());
  for (const int np : {2, 3, 5}) CHECK(mpich_chosen(Collective::allreduce, np, 1024) == "fallback");
  CHECK(mpich_chosen(Collective::allreduce, 4, 1024) == "ring");
}

TEST_CASE("replay --profile: what the default ran is the rule's own size's, elsewhere the fallback (issue 66)",
          "[simulation]") {
  // Open MPI 4.1 applies the 4-rank bcast rule on 5 ranks too, where its "default" ranges run tuned's own
  // decision for 5 ranks, which the sweep did not see (predict: "picks default (its rule for np 4, ...)").
  const TunedProfile p = bcast_profile();
  const ReferenceEquivalents eq = load_reference_equivalents("openmpi", "p.json");
  const AlgorithmChoice chosen = profile_choice(p, eq, "p.json", unchosen());
  const AlgorithmChoice baseline = profile_default_choice(p, eq, "p.json", unchosen());
  CHECK(chosen(Collective::bcast, 4, 1024) == "binomial");
  CHECK(chosen(Collective::bcast, 5, 1024) == "fallback");
  CHECK(baseline(Collective::bcast, 5, 1024) == "fallback");
  CHECK(chosen(Collective::bcast, 5, 800000) == "chain");  // the rule's own choice applies there
  CHECK(exported_rule(p, Collective::bcast, 5).algorithm_at(1024) == "default");
}
