// SPDX-License-Identifier: BSD-3-Clause
// The backend descriptors (config/backends.hpp): one complete entry per
// backend, so the experiment parser, the plan and the worker's factory can
// rely on them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "config/backend_options.hpp"
#include "config/backends.hpp"
#include "config/catalog.hpp"
#include "config/yaml_reader.hpp"
#include "config_errors.hpp"

using namespace pico;

namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

TEST_CASE("every backend kind has exactly one descriptor, and every name one backend", "[backends]") {
  std::set<BackendKind> kinds;
  std::set<std::string> names;
  for (const auto& d : known_backends()) {
    CHECK(kinds.insert(d.kind).second);
    CHECK(names.insert(d.name).second);
    CHECK(find_backend(d.name) == &d);
    CHECK(&backend_descriptor(d.name) == &d);
  }
  for (BackendKind k : {BackendKind::mpi, BackendKind::reference, BackendKind::compressed, BackendKind::nccl,
                        BackendKind::nccl_compressed, BackendKind::fault})
    CHECK(kinds.contains(k));
  CHECK(find_backend("nope") == nullptr);
  CHECK_THROWS_AS(backend_descriptor("nope"), std::invalid_argument);
}

TEST_CASE("every backend descriptor is complete", "[backends]") {
  const std::vector<std::string> generic_keys{"library", "algorithms", "params"};
  for (const auto& d : known_backends()) {
    CAPTURE(d.name);
    CHECK_FALSE(d.name.empty());
    CHECK_FALSE(d.description.empty());
    // Its algorithms: from catalogues that exist, or a fixed list.
    CHECK_FALSE(d.algorithms.empty());
    for (const auto& file : d.catalogs) CHECK_NOTHROW(catalog_for(file));
    CHECK(contains(d.algorithms, "default") == d.has_default);
    // The plan finds its catalogue: its own, or the platform library's.
    if (d.catalog_source == CatalogSource::own) CHECK_FALSE(d.catalogs.empty());
    for (const auto& file : d.catalogs)
      if (d.catalog_source == CatalogSource::platform_mpi) CHECK((file == "openmpi" || file == "mpich"));
    if (d.rides_on_library_default) CHECK(d.catalog_source == CatalogSource::platform_mpi);
    // A parser wherever the entry takes keys of its own, and none where it takes none.
    CHECK((d.options.parse != nullptr) == !d.options.keys.empty());
    for (const auto& key : d.options.keys) CHECK_FALSE(contains(generic_keys, key));
    // Availability is stated where it varies: on the GPU backends.
    for (const auto& file : d.catalogs)
      if (catalog_for(file).runtime == "nccl") CHECK(d.status != nullptr);
  }
}

TEST_CASE("a backend's option parser reads an entry that sets none of its keys", "[backends]") {
  for (const auto& d : known_backends()) {
    if (d.options.parse == nullptr) continue;
    CAPTURE(d.name);
    const auto entry = yaml::Value::parse_document("library: " + d.name + "\n", "entry.yaml");
    std::vector<std::string> keys{"library"};
    keys.insert(keys.end(), d.options.keys.begin(), d.options.keys.end());
    CHECK_NOTHROW(d.options.parse(entry.as_map("a backends entry", keys)));
  }
}

TEST_CASE("the compressed backends have their option parsers, nccl has its own", "[backends]") {
  CHECK(backend_descriptor("compressed").options.parse == compressed_backend_options().parse);
  CHECK(backend_descriptor("nccl_compressed").options.parse == gpu_compressed_backend_options().parse);
  // Threads per rank are the CPU kernels'.
  CHECK(backend_descriptor("compressed").options.keys == std::vector<std::string>{"inputs", "bias_calls", "threads"});
  CHECK(backend_descriptor("nccl_compressed").options.keys == std::vector<std::string>{"inputs", "bias_calls"});
  CHECK(backend_descriptor("nccl").options.keys == std::vector<std::string>{"gpus_per_process", "rotate_buffers"});
  CHECK(backend_descriptor("mpi").options.keys == std::vector<std::string>{"call"});
}

TEST_CASE("another backend's key is refused, naming the backends that take it", "[backends][config]") {
  const std::string base = "collectives: [allreduce]\nsizes: [1KiB]\nbackends:\n";
  const auto mpi = test::experiment_error(base + "  - {library: mpi, bias_calls: 4}\n");
  CHECK(mpi.line == 4);
  CHECK(mpi.message == "'bias_calls' applies to backends 'compressed' and 'nccl_compressed' only");
  CHECK(mpi.hint == "backend 'mpi' takes library, algorithms, params, call");
  const auto compressed = test::experiment_error(base + "  - {library: compressed, algorithms: [dense], gpus_per_process: 2}\n");
  CHECK(compressed.message == "'gpus_per_process' applies to backend 'nccl' only");
  CHECK(compressed.hint == "backend 'compressed' takes library, algorithms, params, inputs, bias_calls, threads");
  // A key no backend takes lists every key some backend takes.
  const auto unknown = test::experiment_error(base + "  - {library: mpi, colour: red}\n");
  CHECK(unknown.message == "unknown key 'colour' in a backends entry");
  CHECK(unknown.hint ==
        "allowed keys: library, algorithms, params, guidelines, call, inputs, bias_calls, threads, gpus_per_process, "
        "rotate_buffers");
}

TEST_CASE("mpi's call forms: each its own entry beside the blocking one, with the non-blocking algorithms", "[backends][config]") {
  const std::string base = "collectives: [allreduce]\nsizes: [1KiB]\nbackends:\n";
  const Experiment forms = parse_experiment(base + "  - {library: mpi, algorithms: all}\n"
                                                   "  - {library: mpi, call: nonblocking}\n"
                                                   "  - {library: mpi, call: persistent}\n", "x.yaml");
  REQUIRE(forms.backends.size() == 3);
  CHECK(forms.backends[0].options.empty());
  CHECK(forms.backends[1].options == std::map<std::string, std::string>{{"call", "nonblocking"}});
  CHECK(forms.backends[2].options == std::map<std::string, std::string>{{"call", "persistent"}});
  CHECK(forms.backends[2].algorithms == std::vector<std::string>{"default"});
  // call: blocking is the entry without the key.
  const auto twice = test::experiment_error(base + "  - {library: mpi}\n  - {library: mpi, call: blocking}\n");
  CHECK(twice.line == 5);
  CHECK(twice.message == "backend 'mpi' is listed twice");
  // Both forms take the catalogue's non-blocking algorithms (the plan resolves them, tests/unit/plan).
  const Experiment forced = parse_experiment(base + "  - {library: mpi, call: nonblocking, algorithms: [ring]}\n"
                                                    "  - {library: mpi, call: persistent, algorithms: [binomial]}\n",
                                             "x.yaml");
  CHECK(forced.backends[0].algorithms == std::vector<std::string>{"default", "ring"});
  CHECK(forced.backends[1].algorithms == std::vector<std::string>{"default", "binomial"});
  const auto unknown = test::experiment_error(base + "  - {library: mpi, call: async}\n");
  CHECK(unknown.line == 4);
  CHECK_THAT(unknown.hint, Catch::Matchers::Contains("nonblocking"));
}
