// SPDX-License-Identifier: BSD-3-Clause
// The arguments every reference algorithm takes, whatever its collective:
// the MPI call's buffers, per-rank block count and root, in MPI's layout
// (docs/methodology.md, "Message size" and "In-place forms").
#pragma once

#include <cstddef>

#include "collectives/transport/transport.hpp"

namespace pico {
struct VectorLayout;
}

namespace pico::reference {

struct CallArgs {
  // nullptr where this rank passed MPI_IN_PLACE (then in_place is true):
  // the send buffer for every collective except scatter, whose root passes
  // the receive buffer.
  const void* send = nullptr;
  void* recv = nullptr;  // bcast's single buffer is recv
  // Elements per rank block, as MPI's count argument; reduce_scatterv's whole
  // vector (MPI_Reduce_scatter's sum of recvcounts).
  std::size_t count = 0;
  int root = 0;
  bool in_place = false;
  std::size_t segment = 0;  // elements per pipeline segment; 0 = one segment
  // A count-matrix collective's (alltoallv's) counts and displacements for
  // this rank (collectives/count_matrix.hpp); nullptr for the others.
  const VectorLayout* layout = nullptr;
};

// The whole vector in the receive buffer, where a reduction whose result stays
// there (allreduce, scan) starts: a copy of the input, or the input in place.
template <transport::Transport T>
transport::Block input_in_recv(T& t, const CallArgs& a) {
  const transport::Block all{a.recv, 0, a.count};
  if (!a.in_place) t.copy_local(all, transport::ConstBlock{a.send, 0, a.count});
  return all;
}

}  // namespace pico::reference
