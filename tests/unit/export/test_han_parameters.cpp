// SPDX-License-Identifier: BSD-3-Clause
// coll/han's parameters in a profile (issue 66): up_module and low_module are
// 0 or 1 in Open MPI 4.1 (up: libnbc, adapt; low: tuned, sm), anything else
// refused when the profile is read; a parameter han's algorithm has no
// variable for is refused by the export and by run --profile, not dropped.
#include <catch2/catch.hpp>

#include <cmath>

#include "export/export_format.hpp"
#include "export/export_support.hpp"
#include "export/ompi_han_rules.hpp"
#include "support/input_error.hpp"

using namespace pico;
using Catch::Matchers::Contains;

namespace {

TunedProfile han_profile() { return load_profile(std::string(PICO_TEST_DATA_DIR) + "/export/openmpi-4.1.4-han.profile.json"); }

}  // namespace

TEST_CASE("han's up and low modules outside 0 and 1 are refused when the profile is read") {
  for (const char* parameter : {"up_module", "low_module"})
    for (const double value : {-1.0, 7.0, 0.5, 1e300, std::ldexp(1.0, 63)}) {
      TunedProfile p = han_profile();
      p.rules[0].ranges[1].params[parameter] = value;  // allreduce's han range
      CHECK_THROWS_WITH(check_profile(p, "p.json"), Contains(std::string("/") + parameter) &&
                                                       Contains("it must be a whole number from 0 to 1"));
    }
  TunedProfile ok = han_profile();
  ok.rules[0].ranges[1].params["up_module"] = 1;
  CHECK_NOTHROW(check_profile(ok, "p.json"));
}

TEST_CASE("a parameter han's algorithm does not take is refused, not dropped") {
  TunedProfile p = han_profile();
  p.rules[3].ranges[0].params["segment_size"] = 4096;  // reduce's han_simple has no segment size variable
  CHECK_THROWS_WITH(han_rules_variables(p, "/r/han-rules.txt"),
                    Contains("han_simple takes no parameter 'segment_size'"));
  try {
    export_profile(p, "p.json", export_format("ompi-han-rules"), {});
    FAIL("exported");
  } catch (const InputError& e) {
    CHECK_THAT(e.message, Contains("han_simple takes no parameter 'segment_size'"));
    CHECK_THAT(e.hint, Contains("han_simple takes low_module, up_module"));
  }
  TunedProfile unknown = han_profile();
  unknown.rules[0].ranges[1].params["fanout_of_doom"] = 3;
  CHECK_THROWS_AS(han_rules_variables(unknown, "/r/han-rules.txt"), ExportRefusal);
  CHECK_NOTHROW(han_rules_variables(han_profile(), "/r/han-rules.txt"));
}
