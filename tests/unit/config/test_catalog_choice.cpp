// SPDX-License-Identifier: BSD-3-Clause
// What a catalogue answers the plan (config/catalog_choice.hpp): how one
// algorithm is selected on a version of the library, or why it cannot run.
#include <catch2/catch.hpp>

#include "config/catalog_choice.hpp"

using namespace pico;
using Catch::Matchers::Contains;

TEST_CASE("catalog choice: a tuned algorithm on Open MPI 4.1.4, its parameters and its limits", "[catalog]") {
  const Catalog& ompi = catalog_for("openmpi");
  const CatalogChoice ring = choose(ompi, Collective::allreduce, "ring", CallForm::blocking, "4.1.4", "openmpi 4.1.4");
  CHECK(ring.skip_reason.empty());
  REQUIRE(ring.entry != nullptr);
  CHECK(ring.selection.mechanism == "mpi_t");
  CHECK(ring.selection.variable == "coll_tuned_allreduce_algorithm");
  CHECK(ring.selection.value == ring.entry->value);
  CHECK(ring.parameter_variables.at("segment_size") == "coll_tuned_allreduce_algorithm_segmentsize");

  const CatalogChoice library_own = choose(ompi, Collective::allreduce, "default", CallForm::blocking, "4.1.4", "");
  CHECK(library_own.entry == nullptr);
  CHECK(library_own.selection.value == ompi.default_value);

  CHECK_THAT(choose(ompi, Collective::allreduce, "nonesuch", CallForm::blocking, "4.1.4", "openmpi 4.1.4").skip_reason,
             Contains("openmpi 4.1.4 has no algorithm 'nonesuch' for allreduce"));
  // allgather_reduce exists from 6.0 on.
  CHECK_THAT(choose(ompi, Collective::allreduce, "allgather_reduce", CallForm::blocking, "4.1.4", "").skip_reason,
             Contains("needs openmpi >=6.0; this is 4.1.4"));
}

TEST_CASE("catalog choice: constraints of the collective and of the algorithm", "[catalog]") {
  const Catalog& ompi = catalog_for("openmpi");
  const CatalogChoice ring = choose(ompi, Collective::allreduce, "segmented_ring", CallForm::blocking, "4.1.4", "");
  REQUIRE(ring.entry != nullptr);
  Case c;
  c.collective = Collective::allreduce;
  c.dtype = Dtype::float32;
  c.op = Op::sum;
  c.np = 4;
  c.count = 1 << 16;
  c.bytes = c.count * 4;
  c.params["segment_size"] = 0;  // never cuts the blocks: Open MPI runs the plain ring
  CHECK_THAT(constraint_violation(ompi, ring.entry, c, {}), Contains("segmented ring runs the plain ring"));
  c.params["segment_size"] = 8192;
  CHECK(constraint_violation(ompi, ring.entry, c, {}).empty());
  CHECK(constraint_violation(ompi, nullptr, c, {}).empty());  // the library's own choice has no such limit
}

TEST_CASE("catalog choice: han runs across nodes only, and most of its collectives on balanced nodes", "[catalog]") {
  const Catalog& ompi = catalog_for("openmpi");
  const auto violation = [&](Collective coll, int np, const RankPlacement& placement) {
    const CatalogChoice han = choose(ompi, coll, "han", CallForm::blocking, "4.1.4", "openmpi 4.1.4");
    REQUIRE(han.entry != nullptr);
    Case c;
    c.collective = coll;
    c.dtype = Dtype::float32;
    c.op = coll == Collective::bcast ? Op::none : Op::sum;
    c.np = np;
    c.count = 1024;
    c.bytes = 4096;
    return constraint_violation(ompi, han.entry, c, placement);
  };
  const RankPlacement two_slots{2, RankPlacement::Fill::node_after_node, "test"};
  CHECK(violation(Collective::allreduce, 4, two_slots).empty());
  CHECK_THAT(violation(Collective::allreduce, 2, two_slots), Contains("nodes >= 2"));
  CHECK_THAT(violation(Collective::allreduce, 4, {}), Contains("nodes >= 2"));  // a local platform: one node
  CHECK(violation(Collective::allreduce, 3, two_slots).empty());  // 2 + 1: allreduce still runs han (4.1.4)
  CHECK_THAT(violation(Collective::bcast, 3, two_slots), Contains("ppn_balanced"));
  const RankPlacement one_slot{1, RankPlacement::Fill::node_after_node, "test"};  // 4 nodes x 1: one level
  CHECK_THAT(violation(Collective::allreduce, 4, one_slot), Contains("ppn >= 2"));
  // The selection: han's priority at launch, its parameters its own variables.
  const CatalogChoice han = choose(ompi, Collective::bcast, "han", CallForm::blocking, "4.1.4", "");
  CHECK(han.selection.mechanism == "env");
  CHECK(han.selection.variable == "coll_han_priority");
  CHECK(han.selection.value == "100");
  CHECK(han.parameter_variables.at("segment_size") == "coll_han_bcast_segsize");
  CHECK(han.selection.parameters.at("coll_han_use_simple_bcast") == "0");
}
