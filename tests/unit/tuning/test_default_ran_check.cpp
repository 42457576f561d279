// SPDX-License-Identifier: BSD-3-Clause
// A profile's default_ran names against the library's catalogue (issue 66:
// `no_such_alg` and `../../x` were written into the simulator exports and
// taken by predict).
#include <catch2/catch.hpp>

#include "support/input_error.hpp"
#include "tuning/default_ran_check.hpp"
#include "tuning_fixtures.hpp"

using namespace pico;
using Catch::Matchers::Contains;

namespace {

TunedProfile profile_ran(const std::string& library, const std::string& version, const std::string& ran) {
  TunedProfile p;
  p.library = {"mpi", library, version};
  ProfileRule rule;
  rule.collective = Collective::allreduce;
  rule.comm_size = 4;
  ProfileRange range = test::profile_range(0, std::nullopt, "default");
  range.default_ran = {{8, "recursive_doubling"}, {65536, ran}};
  rule.ranges = {range};
  p.rules = {rule};
  return p;
}

}  // namespace

TEST_CASE("default_ran: a name the library's catalogue lacks is refused, naming the path and the names it has") {
  CHECK_NOTHROW(check_default_ran(profile_ran("openmpi", "4.1.4", "ring"), "p.json"));
  for (const char* bad : {"no_such_alg", "../../x", "ring\n0 1 0 0"}) {
    try {
      check_default_ran(profile_ran("openmpi", "4.1.4", bad), "p.json");
      FAIL(bad);
    } catch (const InputError& e) {
      CHECK(e.file == "p.json");
      CHECK_THAT(e.message, Contains("rules/0/ranges/0/default_ran/1/algorithm: '") &&
                                Contains("is no allreduce algorithm of openmpi 4.1.4"));
      CHECK_THAT(e.hint, Contains("recursive_doubling") && Contains("ring"));
    }
  }
  // A library pico has no catalogue of: names of letters, digits and '_' only.
  CHECK_NOTHROW(check_default_ran(profile_ran("ucc", "1.2.0", "knomial"), "p.json"));
  CHECK_THROWS_WITH(check_default_ran(profile_ran("ucc", "1.2.0", "../../x"), "p.json"),
                    Contains("'../../x' is not an algorithm name"));
}
