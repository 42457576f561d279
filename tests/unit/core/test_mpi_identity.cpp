// SPDX-License-Identifier: BSD-3-Clause
// One identity of the MPI library: what the front end planned for against
// what the worker meets (core/mpi_identity.hpp).
#include <catch2/catch.hpp>

#include "core/mpi_identity.hpp"

using namespace pico;
using Catch::Matchers::Contains;

TEST_CASE("a worker meeting another MPI library than planned is refused, naming both", "[mpi-identity]") {
  const std::string why = mpi_library_mismatch({"mpich", ""}, {"openmpi", "4.1.4"});
  CHECK_THAT(why, Contains("MPI library mismatch"));
  CHECK_THAT(why, Contains("planned for mpich (version unknown)"));
  CHECK_THAT(why, Contains("the worker runs openmpi 4.1.4 (MPI_Get_library_version)"));
  CHECK_THAT(why, Contains("nothing was measured"));
  CHECK(mpi_library_mismatch({"openmpi", "4.1.4"}, {"mpich", "4.0.2"}) ==
        "MPI library mismatch: the run was planned for openmpi 4.1.4, but the worker runs mpich 4.0.2 "
        "(MPI_Get_library_version); nothing was measured, since the catalogue, launch environment and worker were "
        "chosen for openmpi. Make the platform's mpi library, launcher and worker agree");
}

TEST_CASE("the same library, or an unknown one on either side, is nothing to refuse", "[mpi-identity]") {
  CHECK(mpi_library_mismatch({"openmpi", "4.1.4"}, {"openmpi", "4.1.4"}).empty());
  // Versions are recorded, not compared: a platform may name "4.1" for 4.1.4.
  CHECK(mpi_library_mismatch({"openmpi", "4.1"}, {"openmpi", "4.1.4"}).empty());
  CHECK(mpi_library_mismatch({"mpich", ""}, {"mpich", "4.0.2"}).empty());
  CHECK(mpi_library_mismatch({"unknown", ""}, {"mpich", "4.0.2"}).empty());
  CHECK(mpi_library_mismatch(MpiIdentity{}, {"openmpi", "4.1.4"}).empty());
  // A library pico cannot name (an MPICH derivative) may be planned as mpich on purpose.
  CHECK(mpi_library_mismatch({"mpich", "4.0"}, {"unknown", ""}).empty());
}

TEST_CASE("an MPI identity round-trips through JSON and reads as text", "[mpi-identity]") {
  const MpiIdentity id{"mpich", "4.0.2"};
  CHECK(to_json(id) == nlohmann::json{{"library", "mpich"}, {"version", "4.0.2"}});
  CHECK(mpi_identity_from_json(to_json(id)) == id);
  CHECK(describe(id) == "mpich 4.0.2");
  CHECK(describe({"openmpi", ""}) == "openmpi (version unknown)");
  CHECK(describe(MpiIdentity{}) == "unknown");
}
