// SPDX-License-Identifier: BSD-3-Clause
// Executes an algorithm with MPI point-to-point on one communicator.
//
// Header-only so that only MPI-linked code (backends/reference/) includes it:
// pico_core stays free of MPI. Everything that could cost in the hot path is
// settled in the constructor and reserve(): the reduction is a function
// pointer chosen per (dtype, op), scratch memory and the request array are
// allocated once, and the phase hook is a policy type that compiles to
// nothing when it is NoPhases.
#pragma once

#include <cstddef>
#include <cstring>
#include <vector>

#include <mpi.h>

#include "collectives/transport/block.hpp"
#include "collectives/transport/local_reduce.hpp"
#include "core/types.hpp"

namespace pico::transport {

// The default phase policy: phases cost nothing.
struct NoPhases {
  void operator()(const char*) const {}
};

template <class Phases = NoPhases>
class MpiTransport {
 public:
  MpiTransport(MPI_Comm comm, Dtype dtype, MPI_Datatype type, Op op, Phases phases = {})
      : comm_(comm), type_(type), element_(dtype == Dtype::none ? 1 : dtype_size(dtype)), phases_(phases) {
    if (op != Op::none) reduce_ = local_reduce_function(dtype, op);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }

  // Setup, outside timing: scratch elements and how many operations may be posted at once.
  void reserve(std::size_t scratch_elements, std::size_t max_posted) {
    scratch_.assign(scratch_elements * element_, std::byte{0});  // touch the pages now
    requests_.assign(max_posted, MPI_REQUEST_NULL);
  }

  int rank() const { return rank_; }
  int size() const { return size_; }
  void* scratch() { return scratch_.data(); }
  Phases& phases() { return phases_; }

  void send(int peer, ConstBlock b, int tag) { MPI_Send(at(b), count(b), type_, peer, wire(tag), comm_); }
  void recv(int peer, Block b, int tag) {
    MPI_Recv(at(b), count(b), type_, peer, wire(tag), comm_, MPI_STATUS_IGNORE);
  }
  void sendrecv(int to, ConstBlock s, int from, Block r, int tag) {
    MPI_Sendrecv(at(s), count(s), type_, to, wire(tag), at(r), count(r), type_, from, wire(tag), comm_,
                 MPI_STATUS_IGNORE);
  }
  void post_send(int peer, ConstBlock b, int tag) {
    MPI_Isend(at(b), count(b), type_, peer, wire(tag), comm_, next_request());
  }
  void post_recv(int peer, Block b, int tag) {
    MPI_Irecv(at(b), count(b), type_, peer, wire(tag), comm_, next_request());
  }
  void wait_all() {
    MPI_Waitall(posted_, requests_.data(), MPI_STATUSES_IGNORE);
    posted_ = 0;
  }

  void reduce_local(Block dst, ConstBlock src) { reduce_(at(dst), at(src), dst.count); }
  void copy_local(Block dst, ConstBlock src) {
    if (dst.count != 0 && !same_place(dst, src)) std::memmove(at(dst), at(src), dst.count * element_);
  }
  void phase(const char* name) { phases_(name); }

 private:
  // MPI guarantees tags up to 32767; sender and receiver post in the same
  // order, so folding larger tags keeps matching correct (messages between
  // a pair never overtake).
  static int wire(int tag) { return tag & 0x7fff; }
  static int count(ConstBlock b) { return static_cast<int>(b.count); }
  void* at(Block b) const { return static_cast<std::byte*>(b.base) + b.offset * element_; }
  const void* at(ConstBlock b) const { return static_cast<const std::byte*>(b.base) + b.offset * element_; }
  MPI_Request* next_request() { return &requests_[static_cast<std::size_t>(posted_++)]; }

  MPI_Comm comm_;
  MPI_Datatype type_;
  std::size_t element_;
  [[no_unique_address]] Phases phases_;
  ReduceFn reduce_ = nullptr;
  int rank_ = 0;
  int size_ = 1;
  int posted_ = 0;
  std::vector<std::byte> scratch_;
  std::vector<MPI_Request> requests_;
};

}  // namespace pico::transport
