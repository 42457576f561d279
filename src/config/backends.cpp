#include "config/backends.hpp"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "config/catalog.hpp"
#include "core/gpu_support.hpp"

namespace pico {
namespace {

void add_unique(std::vector<std::string>& to, const std::string& name) {
  if (std::find(to.begin(), to.end(), name) == to.end()) to.push_back(name);
}

BackendInfo from_catalogs(std::string library, std::vector<std::string> catalogs, bool has_default,
                          std::string description) {
  BackendInfo info{std::move(library), std::move(catalogs), {}, {}, has_default, false, std::move(description)};
  if (has_default) info.algorithms.push_back("default");
  for (const auto& file : info.catalogs) {
    for (const auto& [coll, entry] : catalog_for(file).collectives) {
      for (const auto& a : entry.algorithms) {
        add_unique(info.algorithms, a.name);
        for (const auto& p : a.parameters) add_unique(info.parameters, p);
      }
    }
  }
  return info;
}

BackendInfo with_status(BackendInfo info, std::string (*status)()) {
  info.status = status;
  return info;
}

}  // namespace

std::span<const BackendInfo> known_backends() {
  static const std::vector<BackendInfo> backends{
      from_catalogs("mpi", {"openmpi", "mpich"}, true,
                    "the platform's MPI library collectives (MPI_Allreduce, ...), with its algorithms forced"),
      from_catalogs("reference", {"reference"}, false,
                    "pico's plain-MPI reference algorithms over MPI point-to-point (collectives/reference/)"),
      from_catalogs("compressed", {"compressed"}, false,
                    "compressed allreduce (Global-QSGD, Top-k) beside its dense baseline, with error metrics"),
      with_status(from_catalogs("nccl", {"nccl"}, true,
                                "NCCL collectives on GPU buffers, one GPU per rank, NCCL_ALGO/NCCL_PROTO forced"),
                  gpu::backend_status),
      with_status(from_catalogs("nccl_compressed", {"nccl_compressed"}, false,
                                "compressed allreduce (Global-QSGD, Top-k) on GPUs, NCCL communication, beside its "
                                "dense NCCL baseline, with error metrics"),
                  gpu::backend_status),
      BackendInfo{"fault",
                  {},
                  {"corrupt", "crash", "hang"},
                  {},
                  false,
                  true,
                  "test-only: the MPI library's collective with an injected fault (one wrong element, a crash, a "
                  "hang)"},
  };
  return backends;
}

const BackendInfo* find_backend(const std::string& library) {
  for (const auto& b : known_backends())
    if (b.library == library) return &b;
  return nullptr;
}

bool test_backends_enabled() {
  const char* v = std::getenv("PICO_ENABLE_TEST_BACKENDS");
  return v != nullptr && std::string_view(v) == "1";
}

}  // namespace pico
