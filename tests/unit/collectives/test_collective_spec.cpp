// SPDX-License-Identifier: BSD-3-Clause
// Each collective's facts live in its spec (collectives/<name>.cpp). These
// tests walk every collective, so that one added to the enum but forgotten in
// its spec or a catalogue fails here by name; each backend's call table has a
// row per collective, which a static_assert beside it checks at build time.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "collectives/spec.hpp"
#include "config/catalog.hpp"

using namespace pico;

namespace {

Case case_of(Collective c, bool in_place, int np, int root) {
  Case k;
  k.collective = c;
  k.dtype = Dtype::float32;
  k.count = 10;
  k.bytes = 40;
  k.np = np;
  k.in_place = in_place;
  k.root = root;
  return k;
}

// Every "collective": {"enum": [...]} in a JSON schema, at any depth.
void collective_enums(const nlohmann::json& j, std::vector<nlohmann::json>& out) {
  if (j.is_object()) {
    if (j.contains("collective") && j["collective"].contains("enum")) out.push_back(j["collective"]["enum"]);
    for (const auto& [key, value] : j.items()) collective_enums(value, out);
  } else if (j.is_array()) {
    for (const auto& value : j) collective_enums(value, out);
  }
}

}  // namespace

TEST_CASE("every collective has a name and a spec of its own", "[spec]") {
  for (Collective c : all_collectives()) {
    INFO(name(c));
    CHECK(name(c) != "?");
    CHECK(parse_collective(name(c)) == c);
    CHECK(spec_for(c).collective == c);
  }
}

TEST_CASE("each spec's facts agree with one another", "[spec]") {
  for (Collective c : all_collectives()) {
    INFO(name(c));
    const CollectiveSpec& spec = spec_for(c);
    CHECK(spec.supports_in_place() == spec.no_in_place_reason.empty());
    if (spec.has_op) CHECK(spec.has_payload);
    if (spec.has_payload) continue;
    // Without a payload there is nothing to reduce, root, place or count.
    CHECK_FALSE(spec.rooted());
    CHECK_FALSE(spec.supports_in_place());
    const BufferSizes sizes = spec.buffer_sizes(case_of(c, false, 4, 0), 0);
    CHECK(sizes.send == 0);
    CHECK(sizes.recv == 0);
    CHECK(spec.algbw_bytes_factor(4) == 0);
  }
}

TEST_CASE("a rank passes MPI_IN_PLACE in in-place cases only, and of a rooted collective at the root only",
          "[spec]") {
  for (Collective c : all_collectives()) {
    INFO(name(c));
    const CollectiveSpec& spec = spec_for(c);
    for (int rank = 0; rank < 3; ++rank) {
      CHECK(in_place_side(case_of(c, false, 3, 1), rank) == InPlaceSide::none);
      const bool passes = !spec.rooted() || rank == 1;
      CHECK(in_place_side(case_of(c, true, 3, 1), rank) == (passes ? spec.in_place : InPlaceSide::none));
    }
  }
  // MPI's rooted in-place forms: the root's input stays in its receive buffer (reduce, gather) or its block in
  // the send buffer (scatter).
  CHECK(in_place_side(case_of(Collective::gather, true, 3, 1), 1) == InPlaceSide::send);
  CHECK(in_place_side(case_of(Collective::scatter, true, 3, 1), 1) == InPlaceSide::recv);
  CHECK(spec_for(Collective::reduce).root == RootRole::destination);
  CHECK(spec_for(Collective::bcast).root == RootRole::source);
}

TEST_CASE("every library catalogue says what it does with every collective", "[spec][catalog]") {
  for (const std::string& library : catalog_libraries()) {
    const Catalog& cat = catalog_for(library);
    for (Collective c : all_collectives()) {
      INFO(library << " " << name(c));
      const int listed = static_cast<int>(cat.collectives.contains(c)) + static_cast<int>(cat.unsupported.contains(c)) +
                         static_cast<int>(cat.default_only.contains(c));
      // A built-in catalogue lists what the backend has; the rest has no case.
      if (cat.mechanism == SelectionMechanism::builtin) {
        CHECK(listed <= 1);
        continue;
      }
      // A library runs an unlisted collective as `default`: say so, or list it, or say why it has none.
      INFO("list it in configs/catalog/" << library << ".yaml under collectives, default_only or unsupported");
      CHECK(listed == 1);
    }
  }
}

TEST_CASE("the report schema names every collective", "[spec]") {
  std::ifstream in(std::string(PICO_SOURCE_DIR) + "/docs/report.schema.json");
  std::vector<nlohmann::json> enums;
  collective_enums(nlohmann::json::parse(in), enums);
  REQUIRE_FALSE(enums.empty());
  nlohmann::json names = nlohmann::json::array();
  for (Collective c : all_collectives()) names.push_back(name(c));
  for (const auto& e : enums) CHECK(e == names);
}

TEST_CASE("spec: each descriptor is its collective's, with its MPI binding and tool names") {
  std::vector<int> ompi_ids;
  for (Collective c : all_collectives()) {
    const CollectiveSpec& s = spec_for(c);
    INFO(name(c));
    CHECK(s.collective == c);
    // The binding traces record: an MPI function, its MPI_I form, its positions inside the argument list.
    CHECK(s.mpi.function.starts_with("MPI_"));
    if (!s.mpi.nonblocking.empty()) {  // MPI_Allreduce -> MPI_Iallreduce
      std::string i = "MPI_I" + std::string(s.mpi.function.substr(4));
      i[5] = static_cast<char>(std::tolower(static_cast<unsigned char>(i[5])));
      CHECK(s.mpi.nonblocking == i);
    }
    CHECK(s.mpi.comm >= 0);
    CHECK(s.mpi.comm < s.mpi.args);
    for (const std::int8_t position : {s.mpi.count, s.mpi.type, s.mpi.root, s.mpi.count2, s.mpi.type2})
      CHECK(position < s.mpi.args);
    CHECK((s.mpi.root >= 0) == s.rooted());
    CHECK((s.mpi.count >= 0) == s.has_payload);
    // A library that names the collective keys its size somehow, and one that does not, not at all.
    CHECK(s.names.mpich_csel.empty() == (s.names.mpich_size == SizeBasis::untuned));
    CHECK(s.names.nccl_tuner.empty() == (s.names.nccl_size == SizeBasis::untuned));
    CHECK(s.names.ucc.empty() == (s.names.ucc_size == SizeBasis::untuned));
    CHECK(s.names.chakra.empty() == (s.names.chakra_size == SizeBasis::untuned));
    // ASTRA-sim runs a collective node exactly where its system file names an implementation.
    CHECK(s.names.chakra.empty() == s.names.astra_sim.empty());
    CHECK(s.names.ompi_json_key.empty() == (s.names.ompi_tuned_id < 0));
    if (s.names.ompi_tuned_id >= 0) ompi_ids.push_back(s.names.ompi_tuned_id);
    // A collective algorithm to replay wherever there is one to choose.
    CHECK(s.names.replay_default.empty() == s.point_to_point);
  }
  std::sort(ompi_ids.begin(), ompi_ids.end());
  CHECK(std::adjacent_find(ompi_ids.begin(), ompi_ids.end()) == ompi_ids.end());
  CHECK(size_factor(SizeBasis::comm_total, 8) == 8);
  CHECK(size_factor(SizeBasis::block, 8) == 1);
  CHECK(size_factor(SizeBasis::none, 8) == 0);
}

TEST_CASE("spec: help texts list the collectives from the descriptors") {
  CHECK(collective_names() ==
        "allreduce, bcast, reduce, allgather, gather, scatter, alltoall, alltoallv, reduce_scatter, reduce_scatterv, "
        "scan, exscan, sendrecv or barrier");
  CHECK(collective_names([](const CollectiveSpec& s) { return s.point_to_point; }) == "sendrecv");
  CHECK(collective_names([](const CollectiveSpec& s) { return s.rooted(); }, "and") == "bcast, reduce, gather and scatter");
}
