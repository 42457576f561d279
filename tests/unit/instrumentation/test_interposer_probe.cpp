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

TEST_CASE("the catalogue names a function for every Open MPI algorithm: coll/base's, or its component's", "[interposer]") {
  const Catalog& cat = catalog_for("openmpi");
  CHECK(cat.ran_algorithm.source == "interposer");
  for (const auto& [coll, cc] : cat.collectives)
    for (const auto& a : cc.algorithms) {
      INFO(name(coll) << " " << a.name);
      if (a.component.empty())
        CHECK(a.function.rfind("ompi_coll_base_", 0) == 0);
      else  // mca_coll_han_*, ompi_coll_adapt_*: the component's own entry points
        CHECK(a.function.find("_" + a.component + "_") != std::string::npos);
      if (version_in_range("4.1.4", a.versions)) CHECK(openmpi_functions().at(a.function).component == a.component);
    }
  // Functions of versions this is not are left out (allgather sparbit is 5.0's).
  CHECK_FALSE(openmpi_functions().contains("ompi_coll_base_allgather_intra_sparbit"));
  CHECK(catalog_for("openmpi").algorithm_functions("5.0.3").contains("ompi_coll_base_allgather_intra_sparbit"));
  // On 5.0 han is the default on several nodes: its entry points are watched there too, so a default that ran
  // han says so (docs/openmpi5.md), and not 6.0's, which is unchecked.
  const auto five = catalog_for("openmpi").algorithm_functions("5.0.7");
  REQUIRE(five.contains("mca_coll_han_allreduce_intra"));
  CHECK(five.at("mca_coll_han_allreduce_intra").algorithm == "han");
  CHECK_FALSE(catalog_for("openmpi").algorithm_functions("6.0.0").contains("mca_coll_han_allreduce_intra"));
  CHECK(catalog_for("mpich").ran_algorithm.source == "none");
  CHECK_FALSE(catalog_for("mpich").ran_algorithm.why.empty());
  CHECK(catalog_for("reference").ran_algorithm.source == "pico");
}

TEST_CASE("the algorithm that ran is the last catalogued one of the collective to be entered", "[interposer]") {
  SECTION("a forced segmented ring that falls back to the ring, which falls back to recursive doubling") {
    const auto r = ran_algorithm({{"ompi_coll_base_allreduce_intra_ring_segmented", 5},
                                  {"ompi_coll_base_allreduce_intra_ring", 5},
                                  {"ompi_coll_base_allreduce_intra_recursivedoubling", 5}},
                                 openmpi_functions(), Collective::allreduce, 5);
    CHECK(r.algorithm == "recursive_doubling");
    CHECK(r.note == "delegated: segmented_ring -> ring -> recursive_doubling");
    CHECK(r.functions.front() == "ompi_coll_base_allreduce_intra_ring_segmented x 5");
  }
  SECTION("nonoverlapping calls the communicator's reduce and bcast: other collectives, never chosen") {
    const auto r = ran_algorithm({{"ompi_coll_base_allreduce_intra_nonoverlapping", 3},
                                  {"ompi_coll_base_reduce_intra_binomial", 3},
                                  {"ompi_coll_base_bcast_intra_binomial", 3}},
                                 openmpi_functions(), Collective::allreduce, 3);
    CHECK(r.algorithm == "nonoverlapping");
    CHECK(r.note.empty());
    CHECK(r.functions.size() == 3);
  }
  SECTION("a helper the catalogue does not name is listed, not chosen") {
    const auto r = ran_algorithm({{"ompi_coll_base_bcast_intra_chain", 2}, {"ompi_coll_base_bcast_intra_generic", 2}},
                                 openmpi_functions(), Collective::bcast, 2);
    CHECK(r.algorithm == "chain");
  }
  SECTION("nothing seen: another coll component served the call") {
    const auto r = ran_algorithm({}, openmpi_functions(), Collective::allreduce, 4);
    CHECK(r.algorithm.empty());
    CHECK(r.note.find("coll/self") != std::string::npos);
  }
  SECTION("only another collective's functions seen") {
    const auto r = ran_algorithm({{"ompi_coll_base_bcast_intra_binomial", 1}}, openmpi_functions(), Collective::allreduce, 1);
    CHECK(r.algorithm.empty());
    CHECK(r.note == "none of the functions that ran is a catalogued allreduce algorithm");
  }
}

TEST_CASE("a component's entry point ran at every call: the algorithm is the component's", "[interposer]") {
  SECTION("han's bcast, with tuned's binomial bcast inside each node beneath it, once per segment") {
    const auto r = ran_algorithm({{"mca_coll_han_bcast_intra", 12}, {"ompi_coll_base_bcast_intra_binomial", 192}},
                                 openmpi_functions(), Collective::bcast, 12);
    CHECK(r.algorithm == "han");
    CHECK(r.note == "han ran binomial beneath it");
  }
  SECTION("han handed the communicator back after its first call: what ran after is what ran") {
    const auto r = ran_algorithm({{"mca_coll_han_allreduce_intra", 1}, {"ompi_coll_base_allreduce_intra_ring", 12}},
                                 openmpi_functions(), Collective::allreduce, 12);
    CHECK(r.algorithm == "ring");
    CHECK(r.note == "han ran 1 of 12 call(s), then left them to ring");
    CHECK(r.handed_back_by == "han");
  }
  SECTION("han handed it back to functions the interposer does not wrap: no algorithm is named") {
    const auto r = ran_algorithm({{"mca_coll_han_allreduce_intra", 1}}, openmpi_functions(), Collective::allreduce, 12);
    CHECK(r.algorithm.empty());
    CHECK(r.handed_back_by == "han");
    CHECK(r.note == "han ran 1 of 12 call(s), then left them to functions pico does not wrap");
  }
  SECTION("adapt's bcast alone") {
    const auto r = ran_algorithm({{"ompi_coll_adapt_bcast", 7}}, openmpi_functions(), Collective::bcast, 7);
    CHECK(r.algorithm == "adapt");
    CHECK(r.note.empty());
  }
}

TEST_CASE("no interposer in a process that did not preload it", "[interposer]") {
  std::string why;
  CHECK_FALSE(InterposerProbe::find(why).has_value());
  CHECK(why == "the Open MPI interposer is not loaded in this process");
}
