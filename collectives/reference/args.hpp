// SPDX-License-Identifier: BSD-3-Clause
// The arguments every reference algorithm takes, whatever its collective:
// the MPI call's buffers, per-rank block count and root, in MPI's layout
// (docs/methodology.md, "Message size" and "In-place forms").
#pragma once

#include <cstddef>

namespace pico::reference {

struct CallArgs {
  // nullptr where this rank passed MPI_IN_PLACE (then in_place is true):
  // the send buffer for every collective except scatter, whose root passes
  // the receive buffer.
  const void* send = nullptr;
  void* recv = nullptr;  // bcast's single buffer is recv
  std::size_t count = 0;  // elements per rank block, as MPI's count argument
  int root = 0;
  bool in_place = false;
  std::size_t segment = 0;  // elements per pipeline segment; 0 = one segment
};

}  // namespace pico::reference
