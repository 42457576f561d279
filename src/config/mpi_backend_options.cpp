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
  // The non-blocking and persistent calls take the catalogue's `nonblocking`
  // algorithms (coll/libnbc's, MPICH's I<coll> schedules; Catalog::collectives_of).
  options[kCall] = std::string(name(form));
  return options;
}

}  // namespace

BackendOptions mpi_backend_options() { return {{kCall}, parse_mpi_options}; }

}  // namespace pico
