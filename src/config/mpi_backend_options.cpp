// SPDX-License-Identifier: BSD-3-Clause
// The mpi backend's own key: `call`, how each collective is called
// (blocking, nonblocking or persistent; core/case.hpp, CallForm).
#include <string>
#include <vector>

#include <fmt/format.h>

#include "config/backend_options.hpp"
#include "config/yaml_reader.hpp"
#include "core/case.hpp"

namespace pico {
namespace {

std::map<std::string, std::string> parse_mpi_options(const yaml::Map& entry) {
  std::map<std::string, std::string> options;
  const auto v = entry.get(kCall);
  if (!v) return options;
  std::vector<std::string> forms;
  for (CallForm f : kCallForms) forms.emplace_back(name(f));
  const CallForm form = *parse_call_form(v->as_choice(kCall, forms));
  if (form == CallForm::blocking) return options;  // the default stays out of the case id
  // Neither library's blocking algorithm variable reaches these calls: Open
  // MPI 4.1 runs them through coll/libnbc, MPICH 4.0 through its non-blocking
  // schedules (MPIR_CVAR_I<COLL>_INTRA_ALGORITHM).
  if (const auto algorithms = entry.get("algorithms"))
    for (const auto& item : algorithms->as_list("algorithms"))
      if (item.as_string("algorithm") != "default")
        item.fail(fmt::format("a {} call runs the library's non-blocking schedule (Open MPI's coll/libnbc, MPICH's "
                              "I<coll> algorithms), which the blocking algorithm variables pico forces do not reach",
                              name(form)),
                  fmt::format("give the call: {} entry algorithms: [default], and a second mpi entry without "
                              "`call` for the algorithms",
                              name(form)));
  options[kCall] = std::string(name(form));
  return options;
}

}  // namespace

BackendOptions mpi_backend_options() { return {{kCall}, parse_mpi_options}; }

}  // namespace pico
