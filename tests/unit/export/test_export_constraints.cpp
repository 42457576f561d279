// SPDX-License-Identifier: BSD-3-Clause
// Issue 66, finding 5: exports that wrote what the library would not run as
// the profile says, exit 0. Each case here exported before and is refused now,
// naming why; the goldens (test_export_golden.cpp) still export.
#include <catch2/catch.hpp>

#include <string>

#include "export/export_format.hpp"
#include "export_fixtures.hpp"
#include "support/input_error.hpp"

using namespace pico;
using test::kExportDir;
using test::mpich_options;

namespace {

// The message of the InputError the export throws ("" when it exports).
std::string refusal(const TunedProfile& p, const std::string& format, const FormatArgs& args = {}) {
  try {
    export_profile(p, "p.json", export_format(format), args);
  } catch (const InputError& e) {
    CHECK(e.file == "p.json");
    CHECK_FALSE(e.hint.empty());
    return e.message;
  }
  return "";
}

ProfileRule& rule_of(TunedProfile& p, Collective c) {
  for (ProfileRule& r : p.rules)
    if (r.collective == c) return r;
  FAIL("no rule");
  throw;
}

void place(ProfileRule& rule, int nodes, int ppn) {
  rule.nodes = nodes;
  rule.ppn = ppn;
  rule.comm_size = nodes * ppn;
}

}  // namespace

TEST_CASE("mpich-ch4-json refuses a version the catalogue's compositions do not cover, as mpich-json does") {
  TunedProfile p = load_profile(kExportDir + "mpich-4.0.2-ch4.profile.json");
  REQUIRE(refusal(p, "mpich-ch4-json", mpich_options()).empty());
  p.library.version = "4.1.2";  // compositions are catalogued for >=4.0,<4.1
  CHECK_THAT(refusal(p, "mpich-ch4-json", mpich_options()), Catch::Contains("no ch4 compositions for MPICH 4.1.2"));
  CHECK_THAT(refusal(p, "mpich-json", mpich_options()), Catch::Contains("is not one mpich 4.1.2 has"));
  // Only MPIR algorithms, on a version without compositions: the file would be MPICH's tree unchanged.
  for (ProfileRule& rule : p.rules)
    for (ProfileRange& range : rule.ranges)
      if (range.algorithm.starts_with("composition_")) range.algorithm = "default";
  CHECK_THAT(refusal(p, "mpich-ch4-json", mpich_options()), Catch::Contains("every tuned choice dropped"));
}

TEST_CASE("mpich-ch4-json keeps to the catalogue's placement constraints of each composition") {
  TunedProfile p = load_profile(kExportDir + "mpich-4.0.2-ch4.profile.json");
  SECTION("gamma's allreduce runs the shared-memory module: one node only") {
    ProfileRule& allreduce = rule_of(p, Collective::allreduce);
    allreduce.ranges[1].algorithm = "composition_gamma";  // the rule is 2 nodes x 2
    CHECK_THAT(refusal(p, "mpich-ch4-json", mpich_options()), Catch::Contains("requires nodes == 1"));
    place(allreduce, 1, 4);
    CHECK(refusal(p, "mpich-ch4-json", mpich_options()).empty());
  }
  SECTION("a node-aware composition with one rank on every node") {
    place(rule_of(p, Collective::barrier), 4, 1);
    CHECK_THAT(refusal(p, "mpich-ch4-json", mpich_options()), Catch::Contains("requires ppn >= 2"));
  }
  SECTION("a placement the reports did not record is not judged") {
    ProfileRule& barrier = rule_of(p, Collective::barrier);
    barrier.nodes = 0;
    barrier.ppn = 0;
    CHECK(refusal(p, "mpich-ch4-json", mpich_options()).empty());
  }
}

TEST_CASE("ompi-han-rules keeps to han's constraints: several nodes, several ranks on one") {
  TunedProfile p = load_profile(kExportDir + "openmpi-4.1.4-han.profile.json");
  REQUIRE(refusal(p, "ompi-han-rules").empty());
  ProfileRule& reduce = rule_of(p, Collective::reduce);  // han_simple, 2 nodes x 2
  SECTION("one node") {
    place(reduce, 1, 4);
    CHECK_THAT(refusal(p, "ompi-han-rules"), Catch::Contains("requires nodes >= 2"));
  }
  SECTION("one rank per node") {
    place(reduce, 4, 1);
    CHECK_THAT(refusal(p, "ompi-han-rules"), Catch::Contains("requires ppn >= 2"));
  }
  SECTION("nodes holding unequal numbers of ranks (bcast's han)") {
    ProfileRule& bcast = rule_of(p, Collective::bcast);
    bcast.comm_size = 5;
    bcast.nodes = 2;
    bcast.ppn = 3;
    CHECK_THAT(refusal(p, "ompi-han-rules"), Catch::Contains("requires ppn_balanced"));
  }
}

TEST_CASE("MPICH's two trees are not taken for each other") {
  const TunedProfile p = load_profile(kExportDir + "mpich-4.0.2-ch4.profile.json");
  const FormatArgs swapped = mpich_options("mpich-4.0.2-ch4-defaults.json", "mpich-4.0.2-defaults.json");
  CHECK_THAT(refusal(p, "mpich-json", swapped),
             Catch::Contains("is the ch4 device's composition tree where MPICH's MPIR tree is expected"));
  CHECK_THAT(refusal(p, "mpich-ch4-json", swapped),
             Catch::Contains("is the MPIR algorithm tree where MPICH's ch4 tree is expected"));
}
