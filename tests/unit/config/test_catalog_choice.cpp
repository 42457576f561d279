// SPDX-License-Identifier: BSD-3-Clause
// What a catalogue answers the plan (config/catalog_choice.hpp): how one
// algorithm is selected on a version of the library, or why it cannot run.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "config/catalog_choice.hpp"
#include "scratch_dir.hpp"

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

TEST_CASE("catalog choice: MPICH's ch4 compositions, a selection file and the device collectives", "[catalog]") {
  const Catalog& mpich = catalog_for("mpich");
  const CatalogChoice alpha = choose(mpich, Collective::allreduce, "composition_alpha", CallForm::blocking, "4.0.2", "");
  REQUIRE(alpha.entry != nullptr);
  CHECK(alpha.selection.mechanism == "env");
  CHECK(alpha.selection.verify == "environment");  // MPICH 4.0.2 reads the file name back as ""
  CHECK(alpha.selection.variable == "MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE");
  // The file beside the catalogue, as an absolute path the ranks can open from any directory.
  CHECK(alpha.selection.value.front() == '/');
  CHECK_THAT(alpha.selection.value, Catch::Matchers::EndsWith("configs/catalog/mpich/ch4-composition-alpha.json"));
  CHECK(alpha.selection.parameters == std::map<std::string, std::string>{{"MPIR_CVAR_DEVICE_COLLECTIVES", "all"}});
  CHECK_THAT(choose(mpich, Collective::allreduce, "composition_alpha", CallForm::blocking, "4.1.2", "").skip_reason,
             Contains("needs mpich >=4.0,<4.1"));
  CHECK_THAT(choose(mpich, Collective::barrier, "composition_gamma", CallForm::blocking, "4.0.2", "mpich 4.0.2").skip_reason,
             Contains("has no algorithm 'composition_gamma' for barrier"));

  const auto violation = [&](Collective coll, const std::string& algorithm, int np, const RankPlacement& placement) {
    const CatalogChoice chosen = choose(mpich, coll, algorithm, CallForm::blocking, "4.0.2", "");
    REQUIRE(chosen.entry != nullptr);
    Case c;
    c.collective = coll;
    c.dtype = Dtype::int32;
    c.op = coll == Collective::bcast ? Op::none : Op::sum;
    c.np = np;
    c.count = 16;
    c.bytes = 64;
    return constraint_violation(mpich, chosen.entry, c, placement);
  };
  const RankPlacement two_slots{2, RankPlacement::Fill::node_after_node, "test"};
  const RankPlacement one_slot{1, RankPlacement::Fill::node_after_node, "test"};
  // Node-aware compositions need a node with two ranks (the component's constraint, or beta's own for bcast).
  CHECK(violation(Collective::allreduce, "composition_alpha", 3, two_slots).empty());
  CHECK_THAT(violation(Collective::allreduce, "composition_alpha", 3, one_slot), Contains("ppn >= 2"));
  CHECK_THAT(violation(Collective::bcast, "composition_beta", 3, one_slot), Contains("ppn >= 2"));
  CHECK(violation(Collective::allreduce, "composition_beta", 3, one_slot).empty());  // flat: runs anywhere
  // The node-aware scan needs each node's ranks consecutive: not so when dealt to the nodes in turn.
  const RankPlacement cyclic{2, RankPlacement::Fill::cyclic, "test"};
  CHECK_THAT(violation(Collective::scan, "composition_alpha", 4, cyclic), Contains("node_consecutive"));
  CHECK(violation(Collective::scan, "composition_alpha", 4, two_slots).empty());
  CHECK(violation(Collective::allreduce, "composition_alpha", 4, cyclic).empty());
  // gamma's allreduce is the shared-memory module's: one node only.
  CHECK(violation(Collective::allreduce, "composition_gamma", 2, two_slots).empty());
  CHECK_THAT(violation(Collective::allreduce, "composition_gamma", 3, two_slots), Contains("nodes == 1"));
}

TEST_CASE("catalogue: a component's file is named beside the catalogue and must exist", "[catalog]") {
  const std::string head = "library: x\nselection:\n  mechanism: mpi_t\n  components:\n    c: ";
  const std::string tail = "\ncollectives:\n  allreduce:\n    variable: V\n    algorithms:\n      - {name: a, component: c}\n";
  CHECK_THROWS_WITH(parse_catalog(head + "{variable: F, file: nonesuch.json}" + tail, "/tmp/x.yaml"),
                    Contains("no file 'nonesuch.json' beside the catalogue"));
  CHECK_THROWS_WITH(parse_catalog(head + "{variable: F, file: /etc/hostname}" + tail, "/tmp/x.yaml"),
                    Contains("relative to the catalogue"));
  CHECK_THROWS_WITH(parse_catalog(head + "{variable: F, value: v, file: x.json}" + tail, "/tmp/x.yaml"),
                    Contains("not both"));
  CHECK_THROWS_WITH(parse_catalog(head + "{variable: F}" + tail, "/tmp/x.yaml"), Contains("needs the 'value'"));
  // Inside the catalogue's directory, links followed, of a small file's size (issue 66: ../.., a link to
  // /etc/shadow and a 2 GiB file were handed to the library).
  const test::ScratchDir scratch("catalog-file");
  const std::filesystem::path dir = scratch.path() / "catalog";
  std::filesystem::create_directories(dir / "sub");
  const std::string catalogue = (dir / "x.yaml").string();
  const auto with_file = [&](const std::string& name) {
    return parse_catalog(head + "{variable: F, file: " + name + "}" + tail, catalogue);
  };
  std::ofstream(dir / "sub" / "ok.json") << "{}";
  std::ofstream(scratch.path() / "outside.json") << "{}";
  CHECK(with_file("sub/ok.json").components.at("c").value == (dir / "sub" / "ok.json").string());
  CHECK_THROWS_WITH(with_file("../outside.json"), Contains("lies outside the catalogue's directory"));
  CHECK_THROWS_WITH(with_file("sub/../../outside.json"), Contains("lies outside the catalogue's directory"));
  std::filesystem::create_symlink(scratch.path() / "outside.json", dir / "link.json");
  CHECK_THROWS_WITH(with_file("link.json"), Contains("is a link to " + (scratch.path() / "outside.json").string()));
  std::filesystem::create_directory_symlink(scratch.path(), dir / "up");
  CHECK_THROWS_WITH(with_file("up/outside.json"), Contains("outside the catalogue's directory"));
  std::ofstream(dir / "huge.json").close();
  std::filesystem::resize_file(dir / "huge.json", std::uintmax_t{2} << 30);  // sparse: no 2 GiB written
  CHECK_THROWS_WITH(with_file("huge.json"), Contains("is 2147483648 bytes, more than the 16777216"));
  // What the library cannot parse aborts it at start-up (MPICH at MPI_Init): refused when the catalogue is read
  // (issue 66's catalogue fuzz: a truncated ch4 tree passed the dry run and the export, exit 0).
  std::ofstream(dir / "torn.json") << "{\"collective=bcast\": [";
  CHECK_THROWS_WITH(with_file("torn.json"), Contains("torn.json:1:") && Contains("not valid JSON"));
  std::ofstream(dir / "list.json") << "[{\"collective=bcast\": {}}]";
  CHECK_THROWS_WITH(with_file("list.json"), Contains("is JSON but not an object"));
  std::ofstream(dir / "deep.json") << std::string(100000, '[') << std::string(100000, ']');
  CHECK_THROWS_WITH(with_file("deep.json"), Contains("nest"));
  const Catalog& mpich = catalog_for("mpich");
  const ComponentSelection& beta = mpich.components.at("ch4_beta");
  CHECK(beta.file == "mpich/ch4-composition-beta.json");
  CHECK(beta.constraints.empty());
  CHECK(mpich.components.at("ch4_alpha").constraints.size() == 1);
}
