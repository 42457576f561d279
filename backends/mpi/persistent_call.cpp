// SPDX-License-Identifier: BSD-3-Clause
#include "backends/mpi/persistent_call.hpp"

#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace pico {

PersistentCall::PersistentCall(Collective c, const MpiCallArgs& args) {
  const MpiStartCall init = persistent_init(c);
  if (init == nullptr)
    throw std::runtime_error(fmt::format(
        "this MPI library has no persistent {} (pico calls MPI 4.0's MPI_<Coll>_init, or Open MPI's MPIX_<Coll>_init "
        "from its pcollreq extension; neither was found when pico was built)",
        name(c)));
  MpiRequests made;
  const int rc = init(args, made);
  p_ = made;  // whatever was made is freed, even when the second request failed
  if (rc != MPI_SUCCESS) {
    free();
    throw std::runtime_error(fmt::format("the persistent {} could not be initialised: MPI error {}", name(c), rc));
  }
}

void PersistentCall::free() {
  for (int i = 0; i < p_.count; ++i)
    if (p_.requests[static_cast<std::size_t>(i)] != MPI_REQUEST_NULL)
      MPI_Request_free(&p_.requests[static_cast<std::size_t>(i)]);
  p_ = {};
}

}  // namespace pico
