// SPDX-License-Identifier: BSD-3-Clause
// The backends an experiment may name: one descriptor per backend, the only
// table that ties a backend's name to what it accepts and how it is planned.
// A backend with catalogues (configs/catalog/*.yaml) takes its algorithm names
// from them; `all` is expanded per collective when the run is planned. The
// worker builds a backend from its descriptor's kind (src/worker/backend_registry.cpp).
//
// Adding a backend: a kind in core/backend_kind.hpp, a descriptor here, a case
// in make_backend (src/worker/backend_registry.cpp) and, if its `backends` entry takes
// keys of its own, an option parser (config/backend_options.hpp).
#pragma once

#include <map>
#include <span>
#include <string>
#include <vector>

#include "config/catalog.hpp"
#include "core/backend_kind.hpp"

namespace pico {

namespace yaml {
class Map;
}

// Reads a backend's own keys from its `backends` entry into Case::options (the
// strings that travel with each case and are part of its identity). The
// generic parser has already rejected keys that are not the backend's; throws
// InputError at an offending value.
using BackendOptionParser = std::map<std::string, std::string> (*)(const yaml::Map& entry);

struct BackendOptions {
  std::vector<std::string> keys;  // its keys beyond library, algorithms and params
  BackendOptionParser parse = nullptr;
};

// Which catalogue the plan resolves a backend's algorithm names against.
enum class CatalogSource {
  own,           // its first catalogue, the same on every platform
  platform_mpi,  // the catalogue of the MPI library the platform runs (none when that is unknown)
};

// The table (backends.cpp) names the fields a backend sets; the `{}`
// initializers let it leave out the others under -Wmissing-field-initializers.
struct BackendDescriptor {
  BackendKind kind;
  std::string name;  // what an experiment's `library:` says
  std::string description;
  std::vector<std::string> catalogs{};    // catalogue files its algorithms come from
  std::vector<std::string> algorithms{};  // every name any of its catalogues knows (or its fixed list)
  std::vector<std::string> parameters{};  // algorithm parameters its catalogues know (segment_size, ...)
  // How an experiment's values of each are read: the catalogues' parameter_types (size where they say none).
  std::map<std::string, ParameterType> parameter_types{};
  bool has_default = true;              // offers the library's own choice as "default"
  // A library whose choice a tuned profile can set (pico tune reads its cases; export writes its files).
  bool tunable = false;
  CatalogSource catalog_source = CatalogSource::own;
  // Its algorithm names say what it does around the library's call (the fault
  // kinds), not which algorithm runs: the plan selects the library's default.
  bool rides_on_library_default = false;
  // Its entry takes `guidelines: true`, and its algorithms include the
  // performance-guideline mock-ups (core/guidelines.hpp): the library's own collectives composed.
  bool has_guidelines = false;
  // Its calls can be captured in a CUDA graph (timing: {graph: N}).
  bool cuda_graphs = false;
  BackendOptions options{};
  bool test_only = false;               // accepted only when PICO_ENABLE_TEST_BACKENDS=1
  std::string (*status)() = nullptr;    // whether this build and machine can run it, where that varies
};

std::span<const BackendDescriptor> known_backends();
const BackendDescriptor* find_backend(const std::string& name);
// The descriptor of a name the experiment parser accepted; throws
// std::invalid_argument for any other.
const BackendDescriptor& backend_descriptor(const std::string& name);
bool test_backends_enabled();

}  // namespace pico
