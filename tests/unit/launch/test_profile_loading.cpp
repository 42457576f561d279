// SPDX-License-Identifier: BSD-3-Clause
// What pico run --profile sets at launch besides the exported files.
#include <catch2/catch.hpp>

#include "export/export_format.hpp"
#include "export/ompi_han_rules.hpp"
#include "export_fixtures.hpp"
#include "launch/profile_loading.hpp"
#include "plan/plan.hpp"
#include "support/input_error.hpp"

using namespace pico;
using test::kExportDir;

namespace {

ProfileLoad loaded(const std::string& profile, const std::string& version, const std::string& library = "openmpi") {
  PlanTarget target;
  target.mpi_library = library;
  target.mpi_version = version;
  return prepare_profile_load(kExportDir + profile, "--profile", target, Plan{});
}

// The variables with the files at "F0", "F1", ... (one per exported file).
std::map<std::string, std::string> variables_of(const ProfileLoad& load) {
  std::vector<std::string> files;
  for (std::size_t i = 0; i < load.files.size(); ++i) files.push_back("F" + std::to_string(i));
  return profile_variables(load, files);
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
  CHECK(han_excluded_line(load_profile(kExportDir + "openmpi-4.1.4.profile.json")).empty());
}

// A profile that chooses han at some sizes loads han's rules, which hand the other sizes to tuned: ^han would
// switch off the sizes it chose han for.
TEST_CASE("a profile that chooses han loads han's rules, not ^han") {
  const ProfileLoad han = loaded("openmpi-4.1.4-han.profile.json", "4.1.4");
  CHECK(han.formats() == "ompi-rules + ompi-han-rules");
  CHECK_FALSE(han.launch_env.contains("OMPI_MCA_coll"));
  CHECK(han_excluded_line(han.profile).empty());
}

// Issue 69: which file a library loads, under which name and through which variables is each export format's
// ProfileLoading; these pin what pico run set before the rule moved there.
TEST_CASE("profile loading: each library's files and variables, from the formats' descriptors") {
  SECTION("Open MPI before 6.0: the classic rules file") {
    const ProfileLoad load = loaded("openmpi-4.1.4.profile.json", "4.1.4");
    CHECK(load.formats() == "ompi-rules");
    CHECK(load.files.at(0).file_name == "tuned-rules.txt");
    CHECK(variables_of(load) == std::map<std::string, std::string>{
                                    {"OMPI_MCA_coll_tuned_use_dynamic_rules", "1"},
                                    {"OMPI_MCA_coll_tuned_dynamic_rules_filename", "F0"}});
  }
  SECTION("Open MPI 6.0: the JSON rules, the same variables") {
    const ProfileLoad load = loaded("openmpi-6.0.0.profile.json", "6.0.0");
    CHECK(load.formats() == "ompi-json");
    CHECK(load.files.at(0).file_name == "tuned-rules.json");
    CHECK(variables_of(load).at("OMPI_MCA_coll_tuned_dynamic_rules_filename") == "F0");
  }
  SECTION("Open MPI with han: tuned's rules, then han's over them") {
    const ProfileLoad load = loaded("openmpi-4.1.4-han.profile.json", "4.1.4");
    REQUIRE(load.files.size() == 2);
    CHECK(load.files[1].file_name == "han-rules.txt");
    const auto env = variables_of(load);
    CHECK(env.at("OMPI_MCA_coll_tuned_dynamic_rules_filename") == "F0");
    CHECK(env.at("OMPI_MCA_coll_han_dynamic_rules_filename") == "F1");
    CHECK(env.at("OMPI_MCA_coll_han_use_dynamic_file_rules") == "1");
  }
  SECTION("MPICH: the selection tree") {
    const ProfileLoad load = loaded("mpich-4.0.2.profile.json", "4.0.2", "mpich");
    CHECK(load.formats() == "mpich-json");
    CHECK(load.files.at(0).file_name == "tuned-selection.json");
    CHECK(load.launch_env.empty());
    CHECK(variables_of(load) ==
          std::map<std::string, std::string>{{"MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE", "F0"}});
  }
  SECTION("MPICH with compositions: the ch4 tree after it, the device's collectives on") {
    const ProfileLoad load = loaded("mpich-4.0.2-ch4.profile.json", "4.0.2", "mpich");
    CHECK(load.formats() == "mpich-json + mpich-ch4-json");
    CHECK(load.files.at(1).file_name == "ch4-selection.json");
    const std::map<std::string, std::string> device{{"MPIR_CVAR_DEVICE_COLLECTIVES", "all"}};
    CHECK(load.launch_env == device);
    CHECK(variables_of(load) == std::map<std::string, std::string>{
                                    {"MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE", "F0"},
                                    {"MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE", "F1"},
                                    {"MPIR_CVAR_DEVICE_COLLECTIVES", "all"}});
  }
  SECTION("a library pico run loads nothing into is refused") {
    CHECK_THROWS_AS(loaded("ucc.profile.json", "", "ucc"), InputError);
  }
}

// The how-to-load text is rendered from the same descriptor: it names every variable the run sets.
TEST_CASE("every loadable format's how-to-load text names the variables pico run sets") {
  for (const char* name : {"openmpi-4.1.4", "openmpi-4.1.4-han", "openmpi-6.0.0", "mpich-4.0.2", "mpich-4.0.2-ch4"}) {
    const TunedProfile profile = load_profile(kExportDir + name + ".profile.json");
    const std::vector<const ExportFormat*> formats = loading_formats(profile);
    REQUIRE_FALSE(formats.empty());
    for (const ExportFormat* f : formats) {
      INFO(name << " " << f->name);
      REQUIRE(f->loading);
      CHECK(f->library == profile.library.name);
      CHECK(!f->loading->file_name.empty());
      CHECK(!f->loading->check.empty());
      const std::string text = f->how_to_load(profile, FormatArgs{}, "THE-FILE");
      CHECK_THAT(text, Catch::Contains(std::string(f->loading->check)));
      for (const auto& [variable, value] : f->loading->variables(profile, "THE-FILE")) {
        const std::string shown = variable.starts_with("OMPI_MCA_") ? variable.substr(9) : variable;
        CHECK_THAT(text, Catch::Contains(shown));
        if (value == "THE-FILE") CHECK_THAT(text, Catch::Contains(shown + (shown == variable ? "=" : " ") + value));
      }
    }
  }
}
