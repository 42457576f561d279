// SPDX-License-Identifier: BSD-3-Clause
// The CPU backend's CollectiveTransport: host buffers, the MPI library's
// blocking collectives on one communicator (what the algorithms called
// directly before they were written once).
#pragma once

#include <cstddef>
#include <cstdint>

#include <mpi.h>

#include "compression/allreduce/collective_transport.hpp"

namespace pico::compressed {

class MpiCollectives {
 public:
  MpiCollectives(MPI_Comm comm, int rank, int size) : comm_(comm), rank_(rank), size_(size) {}
  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm comm() const { return comm_; }

  void allreduce_sum(const float* in, float* out, std::size_t n) {
    MPI_Allreduce(in, out, static_cast<int>(n), MPI_FLOAT, MPI_SUM, comm_);
  }
  void allreduce_sum(std::int8_t* codes, std::size_t n) { sum_in_place(codes, n, MPI_INT8_T); }
  void allreduce_sum(std::int16_t* codes, std::size_t n) { sum_in_place(codes, n, MPI_INT16_T); }
  void allreduce_max(float* x) { MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_FLOAT, MPI_MAX, comm_); }
  void allgather(std::byte* gathered, std::size_t bytes) {
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gathered, static_cast<int>(bytes), MPI_BYTE, comm_);
  }

 private:
  void sum_in_place(void* codes, std::size_t n, MPI_Datatype type) {
    MPI_Allreduce(MPI_IN_PLACE, codes, static_cast<int>(n), type, MPI_SUM, comm_);
  }
  MPI_Comm comm_;
  int rank_;
  int size_;
};

static_assert(CollectiveTransport<MpiCollectives>);

}  // namespace pico::compressed
