// SPDX-License-Identifier: BSD-3-Clause
#include "config/backends.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "config/backend_options.hpp"
#include "config/catalog.hpp"
#include "core/gpu_support.hpp"
#include "core/guidelines.hpp"

namespace pico {
namespace {

void add_unique(std::vector<std::string>& to, const std::string& name) {
  if (std::find(to.begin(), to.end(), name) == to.end()) to.push_back(name);
}

// Fills the algorithm and parameter names from the descriptor's catalogues.
BackendDescriptor with_catalog_names(BackendDescriptor d) {
  if (d.has_default) d.algorithms.push_back("default");
  for (const auto& file : d.catalogs) {
    const Catalog& cat = catalog_for(file);
    for (const auto* of_form : {&cat.collectives, &cat.nonblocking})
      for (const auto& [coll, entry] : *of_form) {
        for (const auto& a : entry.algorithms) {
          add_unique(d.algorithms, a.name);
          for (const auto& p : a.parameters) add_unique(d.parameters, p);
        }
      }
    for (const auto& [parameter, type] : cat.parameter_types) d.parameter_types.try_emplace(parameter, type);
  }
  return d;
}

// The mock-ups join the algorithm names an experiment may give.
BackendDescriptor with_guidelines(BackendDescriptor d) {
  d.has_guidelines = true;
  for (const Guideline& g : guidelines()) add_unique(d.algorithms, std::string(g.algorithm));
  return d;
}

}  // namespace

std::span<const BackendDescriptor> known_backends() {
  static const std::vector<BackendDescriptor> backends{
      with_guidelines(with_catalog_names({
          .kind = BackendKind::mpi,
          .name = "mpi",
          .description = "the platform's MPI library collectives (MPI_Allreduce, ...), with its algorithms forced",
          .catalogs = {"openmpi", "mpich"},
          .tunable = true,
          .catalog_source = CatalogSource::platform_mpi,
          .options = mpi_backend_options(),
      })),
      with_catalog_names({
          .kind = BackendKind::reference,
          .name = "reference",
          .description = "pico's plain-MPI reference algorithms over MPI point-to-point (collectives/reference/)",
          .catalogs = {"reference"},
          .has_default = false,
      }),
      with_catalog_names({
          .kind = BackendKind::compressed,
          .name = "compressed",
          .description = "compressed allreduce (every family of configs/catalog/compressed.yaml) beside its dense baseline, "
                         "with error metrics",
          .catalogs = {"compressed"},
          .has_default = false,
          .options = compressed_backend_options(),
      }),
      with_catalog_names({
          .kind = BackendKind::nccl,
          .name = "nccl",
          .description = "NCCL collectives on GPU buffers, one GPU per rank, NCCL_ALGO/NCCL_PROTO forced",
          .catalogs = {"nccl"},
          .tunable = true,
          .cuda_graphs = true,
          .options = nccl_backend_options(),
          .status = gpu::backend_status,
      }),
      with_catalog_names({
          .kind = BackendKind::nccl_compressed,
          .name = "nccl_compressed",
          .description = "compressed allreduce (Global-QSGD, Top-k: configs/catalog/nccl_compressed.yaml) on GPUs, NCCL communication, beside its "
                         "dense NCCL baseline, with error metrics",
          .catalogs = {"nccl_compressed"},
          .has_default = false,
          .cuda_graphs = true,
          .options = gpu_compressed_backend_options(),
          .status = gpu::backend_status,
      }),
      {
          .kind = BackendKind::fault,
          .name = "fault",
          .description = "test-only: the MPI library's collective with an injected fault (one wrong element, a "
                         "crash, a hang, the last rank arriving late or leaving late)",
          .algorithms = {"corrupt", "crash", "hang", "late", "slow"},
          .has_default = false,
          .catalog_source = CatalogSource::platform_mpi,
          .rides_on_library_default = true,
          .test_only = true,
      },
  };
  return backends;
}

const BackendDescriptor* find_backend(const std::string& name) {
  for (const auto& b : known_backends())
    if (b.name == name) return &b;
  return nullptr;
}

const BackendDescriptor& backend_descriptor(const std::string& name) {
  if (const BackendDescriptor* d = find_backend(name)) return *d;
  throw std::invalid_argument("unknown backend '" + name + "'");
}

bool test_backends_enabled() {
  const char* v = std::getenv("PICO_ENABLE_TEST_BACKENDS");
  return v != nullptr && std::string_view(v) == "1";
}

}  // namespace pico
