// SPDX-License-Identifier: BSD-3-Clause
#include <catch2/catch.hpp>

#include "config/catalog.hpp"
#include "instrumentation/interposer_probe.hpp"

using namespace pico;

namespace {

// Open MPI 4.1.4's own catalogue: the names the interposer is built from.
const AlgorithmFunctions& openmpi_functions() {
  static const AlgorithmFunctions functions = catalog_for("openmpi").algorithm_functions("4.1.4");
  return functions;
}

}  // namespace

TEST_CASE("the catalogue names a coll/base function for every Open MPI algorithm", "[interposer]") {
  const Catalog& cat = catalog_for("openmpi");
  CHECK(cat.ran_algorithm.source == "interposer");
  for (const auto& [coll, cc] : cat.collectives)
    for (const auto& a : cc.algorithms) {
      INFO(name(coll) << " " << a.name);
      CHECK(a.function.rfind("ompi_coll_base_", 0) == 0);
    }
  // Functions of versions this is not are left out (allgather sparbit is 5.0's).
  CHECK_FALSE(openmpi_functions().contains("ompi_coll_base_allgather_intra_sparbit"));
  CHECK(catalog_for("openmpi").algorithm_functions("5.0.3").contains("ompi_coll_base_allgather_intra_sparbit"));
  CHECK(catalog_for("mpich").ran_algorithm.source == "none");
  CHECK_FALSE(catalog_for("mpich").ran_algorithm.why.empty());
  CHECK(catalog_for("reference").ran_algorithm.source == "pico");
}

TEST_CASE("the algorithm that ran is the last catalogued one of the collective to be entered", "[interposer]") {
  SECTION("a forced segmented ring that falls back to the ring, which falls back to recursive doubling") {
    const auto r = ran_algorithm({{"ompi_coll_base_allreduce_intra_ring_segmented", 5},
                                  {"ompi_coll_base_allreduce_intra_ring", 5},
                                  {"ompi_coll_base_allreduce_intra_recursivedoubling", 5}},
                                 openmpi_functions(), Collective::allreduce);
    CHECK(r.algorithm == "recursive_doubling");
    CHECK(r.note == "delegated: segmented_ring -> ring -> recursive_doubling");
    CHECK(r.functions.front() == "ompi_coll_base_allreduce_intra_ring_segmented x 5");
  }
  SECTION("nonoverlapping calls the communicator's reduce and bcast: other collectives, never chosen") {
    const auto r = ran_algorithm({{"ompi_coll_base_allreduce_intra_nonoverlapping", 3},
                                  {"ompi_coll_base_reduce_intra_binomial", 3},
                                  {"ompi_coll_base_bcast_intra_binomial", 3}},
                                 openmpi_functions(), Collective::allreduce);
    CHECK(r.algorithm == "nonoverlapping");
    CHECK(r.note.empty());
    CHECK(r.functions.size() == 3);
  }
  SECTION("a helper the catalogue does not name is listed, not chosen") {
    const auto r = ran_algorithm({{"ompi_coll_base_bcast_intra_chain", 2}, {"ompi_coll_base_bcast_intra_generic", 2}},
                                 openmpi_functions(), Collective::bcast);
    CHECK(r.algorithm == "chain");
  }
  SECTION("nothing seen: another coll component served the call") {
    const auto r = ran_algorithm({}, openmpi_functions(), Collective::allreduce);
    CHECK(r.algorithm.empty());
    CHECK(r.note.find("coll/self") != std::string::npos);
  }
  SECTION("only another collective's functions seen") {
    const auto r = ran_algorithm({{"ompi_coll_base_bcast_intra_binomial", 1}}, openmpi_functions(), Collective::allreduce);
    CHECK(r.algorithm.empty());
    CHECK(r.note == "none of the functions that ran is a catalogued allreduce algorithm");
  }
}

TEST_CASE("no interposer in a process that did not preload it", "[interposer]") {
  std::string why;
  CHECK_FALSE(InterposerProbe::find(why).has_value());
  CHECK(why == "the Open MPI interposer is not loaded in this process");
}
