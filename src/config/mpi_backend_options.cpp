// SPDX-License-Identifier: BSD-3-Clause
// The mpi backend's own key: `persistent`, the persistent form of each call.
#include <string>

#include "config/backend_options.hpp"
#include "config/yaml_reader.hpp"
#include "core/case.hpp"

namespace pico {
namespace {

std::map<std::string, std::string> parse_mpi_options(const yaml::Map& entry) {
  std::map<std::string, std::string> options;
  const auto v = entry.get(kPersistent);
  if (!v || !v->as_bool(kPersistent)) return options;  // false is the default and stays out of the case id
  // Neither library's blocking algorithm variable reaches a persistent call:
  // Open MPI 4.1 starts it through coll/libnbc, MPICH 4.0 through its
  // non-blocking schedule (MPIR_CVAR_I<COLL>_INTRA_ALGORITHM).
  if (const auto algorithms = entry.get("algorithms")) {
    const auto items = algorithms->as_list("algorithms");
    for (const auto& item : items)
      if (item.as_string("algorithm") != "default")
        item.fail("a persistent call runs the library's non-blocking schedule (Open MPI's coll/libnbc, MPICH's "
                  "I<coll> algorithms), which the blocking algorithm variables pico forces do not reach",
                  "give the persistent entry algorithms: [default], and a second mpi entry without "
                  "`persistent` for the algorithms");
  }
  options[kPersistent] = "true";
  return options;
}

}  // namespace

BackendOptions mpi_backend_options() { return {{kPersistent}, parse_mpi_options}; }

}  // namespace pico
