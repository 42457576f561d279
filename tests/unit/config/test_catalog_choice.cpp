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
