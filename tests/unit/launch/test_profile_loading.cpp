// SPDX-License-Identifier: BSD-3-Clause
// What pico run --profile sets at launch besides the exported files.
#include <catch2/catch.hpp>

#include "export/ompi_han_rules.hpp"
#include "launch/profile_loading.hpp"
#include "plan/plan.hpp"

using namespace pico;

namespace {

const std::string kDir = std::string(PICO_TEST_DATA_DIR) + "/export/";

ProfileLoad loaded(const std::string& profile, const std::string& version) {
  PlanTarget target;
  target.mpi_library = "openmpi";
  target.mpi_version = version;
  return prepare_profile_load(kDir + profile, "--profile", target, Plan{});
}

}  // namespace

// Issue 68: on 5.0.7 the tuned run of a tune/export/--profile round trip on 2 x 2 ran han at all 13 sizes the
// profile changes: han sits above tuned there, and the profile's algorithms were measured with ^han.
TEST_CASE("a profile of tuned's algorithms keeps Open MPI 5's han out, as its algorithms were measured") {
  const ProfileLoad five = loaded("openmpi-5.0.7.profile.json", "5.0.7");
  CHECK(five.launch_env == std::map<std::string, std::string>{{"OMPI_MCA_coll", "^han"}});
  CHECK(five.formats() == "ompi-rules");
  // 4.1.4 sets nothing: han's priority is below tuned's there.
  CHECK(loaded("openmpi-4.1.4.profile.json", "4.1.4").launch_env.empty());
  // pico export tells a user the same, where it applies.
  CHECK_THAT(han_excluded_line(five.profile), Catch::Contains("add --mca coll ^han as pico measured"));
  CHECK(han_excluded_line(load_profile(kDir + "openmpi-4.1.4.profile.json")).empty());
}

// A profile that chooses han at some sizes loads han's rules, which hand the other sizes to tuned: ^han would
// switch off the sizes it chose han for.
TEST_CASE("a profile that chooses han loads han's rules, not ^han") {
  const ProfileLoad han = loaded("openmpi-4.1.4-han.profile.json", "4.1.4");
  CHECK(han.formats() == "ompi-rules + ompi-han-rules");
  CHECK_FALSE(han.launch_env.contains("OMPI_MCA_coll"));
  CHECK(han_excluded_line(han.profile).empty());
}
