// SPDX-License-Identifier: BSD-3-Clause
// configs/mpi_libraries.yaml: the MPI libraries a platform runs and how pico
// starts their programs, checked against the mpi backend's catalogues, and
// the table's refusals of a bad entry.
#include <algorithm>
#include <set>

#include <catch2/catch.hpp>

#include "config/backends.hpp"
#include "config/mpi_libraries.hpp"
#include "core/mpi_identity.hpp"
#include "support/input_error.hpp"

using namespace pico;

TEST_CASE("the MPI library table names the mpi backend's catalogues", "[mpi_libraries]") {
  // A library a platform can run has algorithms to plan, and a catalogue the plan reads has a library to start.
  std::set<std::string> libraries, catalogues;
  for (const MpiLibraryEntry& l : mpi_libraries()) {
    libraries.insert(l.name);
    CHECK_FALSE(l.worker.empty());
    CHECK_FALSE(l.counter.empty());
  }
  for (const BackendDescriptor& b : known_backends())
    if (b.catalog_source == CatalogSource::platform_mpi) catalogues.insert(b.catalogs.begin(), b.catalogs.end());
  CHECK(libraries == catalogues);
  // A library pico cannot name has no entry, and starts as unknown_as.
  CHECK(find_mpi_library(MpiIdentity{}.library) == nullptr);
  CHECK(launched_as(MpiIdentity{}.library).name == mpi_library_table().unknown_as);
  CHECK(launched_as("openmpi").run_as_root_flag == "--allow-run-as-root");
  CHECK(launched_as("mpich").worker == "pico-worker-mpich");
  CHECK(launched_as("mpich").oversubscribe_flag.empty());
}

TEST_CASE("a bad MPI library entry is refused where it stands", "[mpi_libraries]") {
  const std::string entry = "    worker: w\n    worker_build: build w\n    counter: c.so\n";
  const auto table = [&](const std::string& pattern, const std::string& extra = "", const std::string& as = "x") {
    return parse_mpi_libraries("unknown_as: " + as + "\nlibraries:\n  x:\n    launcher_version: '" + pattern + "'\n" +
                                   entry + extra,
                               "t.yaml");
  };
  const MpiLibraryTable ok = table("X (\\d+)");
  REQUIRE(ok.libraries.size() == 1);
  CHECK(ok.libraries[0].launcher_version == "X (\\d+)");
  CHECK(ok.libraries[0].interposer.empty());
  CHECK_THROWS_WITH(table("X \\d+"), Catch::Matchers::Contains("no group"));
  CHECK_THROWS_WITH(table("X (\\d+"), Catch::Matchers::Contains("not a regular expression"));
  CHECK_THROWS_WITH(table("X (\\d+)", "    preload: y.so\n"), Catch::Matchers::Contains("preload"));
  CHECK_THROWS_WITH(table("X (\\d+)", "", "y"), Catch::Matchers::Contains("unknown_as"));
  CHECK_THROWS_AS(table("X (\\d+)", "    worker: a/b\n"), InputError);
}
