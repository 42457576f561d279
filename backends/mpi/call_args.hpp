// SPDX-License-Identifier: BSD-3-Clause
// The arguments of one MPI library call and the MPI names of pico's types.
#pragma once

#include <mpi.h>

#include "core/types.hpp"

namespace pico {

// Arguments of one library call, resolved at prepare time (MPI_IN_PLACE
// included) so that run_once decides nothing.
struct MpiCallArgs {
  const void* send = nullptr;
  void* recv = nullptr;
  int count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Op op = MPI_OP_NULL;
  int root = 0;
  int next = 0;  // ring neighbours (sendrecv): the rank sent to and the rank received from
  int prev = 0;
  MPI_Comm comm = MPI_COMM_NULL;
  // A count-matrix collective's (alltoallv's) counts and displacements, in
  // elements, one per rank; the backend owns the arrays.
  const int* send_counts = nullptr;
  const int* send_displs = nullptr;
  const int* recv_counts = nullptr;
  const int* recv_displs = nullptr;
};

using MpiCall = int (*)(const MpiCallArgs&);

MPI_Datatype mpi_datatype(Dtype d);
MPI_Op mpi_op(Op o);

}  // namespace pico
