// SPDX-License-Identifier: BSD-3-Clause
// The backends whose `backends` entry takes keys of its own, each read by its
// own parser, so the generic experiment parser knows none of them.
#pragma once

#include "config/backends.hpp"

namespace pico {

// compressed: `inputs` (who draws what), `bias_calls` and `threads` (per
// rank, for the compression kernels); nccl_compressed: `inputs` and
// `bias_calls` (compression/options/options.hpp). compressed_backend_options.cpp
BackendOptions compressed_backend_options();
BackendOptions gpu_compressed_backend_options();
// mpi: `call`, how each collective is called: blocking, nonblocking
// (MPI_I<Coll>, MPI_Wait) or persistent (MPI_<Coll>_init once, then
// MPI_Start/MPI_Wait). mpi_backend_options.cpp
BackendOptions mpi_backend_options();
// nccl: `gpus_per_process`, the GPUs each process drives, and
// `rotate_buffers`, the span its timed calls' buffers move through. nccl_backend_options.cpp
BackendOptions nccl_backend_options();

}  // namespace pico
