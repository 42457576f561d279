// SPDX-License-Identifier: BSD-3-Clause
// The mpi backend's own key: `call`, how each collective is called
// (blocking, nonblocking or persistent; core/case.hpp, CallForm).
#include <string>
#include <vector>

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
  // A non-blocking call's algorithms are the catalogue's `nonblocking` ones
  // (coll/libnbc's, MPICH's I<coll> schedules). The persistent form runs the
  // same schedules, but pico has not checked that their variables reach
  // MPI_<Coll>_init (or Open MPI's MPIX_ form), so it takes the default only.
  if (form == CallForm::persistent)
    if (const auto algorithms = entry.get("algorithms"))
      for (const auto& item : algorithms->as_list("algorithms"))
        if (item.as_string("algorithm") != "default")
          item.fail("a persistent call runs the library's non-blocking schedule, whose algorithm variables pico has "
                    "not checked for MPI_<Coll>_init",
                    "give the call: persistent entry algorithms: [default]; call: nonblocking takes the non-blocking "
                    "algorithms, and an mpi entry without `call` the blocking ones");
  options[kCall] = std::string(name(form));
  return options;
}

}  // namespace

BackendOptions mpi_backend_options() { return {{kCall}, parse_mpi_options}; }

}  // namespace pico
