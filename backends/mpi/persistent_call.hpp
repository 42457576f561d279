// SPDX-License-Identifier: BSD-3-Clause
// A persistent collective (MPI 4.0 MPI_<Coll>_init, or Open MPI's MPIX_ form):
// initialised once on a case's buffers, then started and completed per call,
// and freed with its owner. The buffers must outlive it and stay in place.
#pragma once

#include "backends/mpi/library_calls.hpp"

namespace pico {

class PersistentCall {
 public:
  PersistentCall() = default;
  // Throws std::runtime_error where the library has no persistent form or refuses it.
  PersistentCall(Collective c, const MpiCallArgs& args);
  ~PersistentCall() { free(); }
  PersistentCall(const PersistentCall&) = delete;
  PersistentCall& operator=(const PersistentCall&) = delete;
  PersistentCall(PersistentCall&& other) noexcept : p_(other.p_) { other.p_ = {}; }
  PersistentCall& operator=(PersistentCall&& other) noexcept {
    if (this != &other) {
      free();
      p_ = other.p_;
      other.p_ = {};
    }
    return *this;
  }

  explicit operator bool() const { return p_.count > 0; }
  // One call: MPI_Startall, then MPI_Waitall (allocates nothing).
  int start_and_wait() {
    const int rc = MPI_Startall(p_.count, p_.requests.data());
    return rc != MPI_SUCCESS ? rc : MPI_Waitall(p_.count, p_.requests.data(), MPI_STATUSES_IGNORE);
  }

 private:
  void free();
  MpiRequests p_;
};

}  // namespace pico
