// SPDX-License-Identifier: BSD-3-Clause
// What differs between the MPI libraries a liballprof trace may come from
// (simulation/trace_reader.hpp: TraceMpi), as the trace builder's parts need it.
#pragma once

#include <cstdint>

namespace pico {

struct TraceLibrary {
  std::int64_t any_source = -1, proc_null = -2;
  std::uint64_t request_bytes = 8;
  bool fortran = false;               // Open MPI's Fortran binding: handles are INTEGERs (4 bytes), the world is 0
  std::int64_t comm_type_shared = 0;  // MPI_COMM_TYPE_SHARED: Open MPI 0 (an enum's first), MPICH 1
};

}  // namespace pico
