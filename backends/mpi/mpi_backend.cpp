// SPDX-License-Identifier: BSD-3-Clause
#include "backends/mpi/mpi_backend.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>

#include "backends/mpi/library_calls.hpp"
#include "collectives/element_ops.hpp"

namespace pico {

MPI_Datatype mpi_datatype(Dtype d) {
  switch (d) {
    case Dtype::int8: return MPI_INT8_T;
    case Dtype::uint8: return MPI_UINT8_T;
    case Dtype::int16: return MPI_INT16_T;
    case Dtype::int32: return MPI_INT32_T;
    case Dtype::int64: return MPI_INT64_T;
    case Dtype::float32: return MPI_FLOAT;
    case Dtype::float64: return MPI_DOUBLE;
    case Dtype::float16:
    case Dtype::bfloat16: throw std::invalid_argument("MPI has no standard " + std::string(name(d)) + " datatype");
    case Dtype::none: break;
  }
  return MPI_BYTE;
}

MPI_Op mpi_op(Op o) {
  switch (o) {
    case Op::sum: return MPI_SUM;
    case Op::prod: return MPI_PROD;
    case Op::min: return MPI_MIN;
    case Op::max: return MPI_MAX;
    case Op::none: break;
  }
  return MPI_OP_NULL;
}

void MpiBackend::prepare(const Case& c, MPI_Comm comm) {
  if (c.count > static_cast<std::uint64_t>(INT_MAX))
    throw std::invalid_argument("count exceeds the MPI int count range");
  persistent_ = PersistentCall();  // before the buffers it points into change
  case_ = c;
  int np = 1;
  MPI_Comm_rank(comm, &rank_);
  MPI_Comm_size(comm, &np);
  const BufferSizes sizes = spec_for(c.collective).buffer_sizes(c, rank_);
  const RingPeers peers = sendrecv_peers(rank_, np);
  const std::size_t element = dtype_size(c.dtype);
  // Touch every page now so that first-touch faults stay out of the timed loop.
  // At least a byte each, so that no buffer is null: Open MPI 4.1's
  // MPIX_Reduce_init refuses send == recv (two nulls at count 0) as aliased.
  recv_bytes_ = sizes.recv * element;
  send_ = PageBuffer(sizes.send * element);
  recv_ = PageBuffer(recv_bytes_);

  const InPlaceSide side = in_place_side(c, rank_);
  args_ = MpiCallArgs{
      .send = side == InPlaceSide::send ? MPI_IN_PLACE : send_.data(),
      .recv = side == InPlaceSide::recv ? MPI_IN_PLACE : recv_.data(),
      .count = static_cast<int>(c.count),
      .type = mpi_datatype(c.dtype),
      .op = mpi_op(c.op),
      .root = c.root,
      .next = peers.next,
      .prev = peers.prev,
      .comm = comm,
  };
  if (spec_for(c.collective).count_matrix) set_vector_args(c);
  else layout_ = VectorLayout{};
  if (spec_for(c.collective).rank_count != nullptr) set_rank_counts(c, np);
  call_ = library_call(c.collective);
  form_ = call_form(c);
  start_ = nonblocking_call(c.collective);
  if (form_ == CallForm::persistent) persistent_ = PersistentCall(c.collective, args_);
  fill_inputs();  // time the call on the same data it is validated with
}

// MPI counts and displacements are int: a buffer past INT_MAX elements fails the case.
void MpiBackend::set_vector_args(const Case& c) {
  layout_ = pico::vector_layout(*count_matrix(c), rank_);
  const VectorLayout& l = layout_;
  if (std::max(l.send_total, l.recv_total) > static_cast<std::uint64_t>(INT_MAX))
    throw std::invalid_argument("this rank's alltoallv buffer exceeds the MPI int count range");
  const std::array<const std::vector<std::uint64_t>*, 4> from{&l.send_counts, &l.send_displs, &l.recv_counts,
                                                              &l.recv_displs};
  for (std::size_t k = 0; k < from.size(); ++k) vector_args_[k].assign(from[k]->begin(), from[k]->end());
  args_.send_counts = vector_args_[0].data();
  args_.send_displs = vector_args_[1].data();
  args_.recv_counts = vector_args_[2].data();
  args_.recv_displs = vector_args_[3].data();
}

// Every rank passes the whole array (MPI_Reduce_scatter's recvcounts); each entry is below count, an int.
void MpiBackend::set_rank_counts(const Case& c, int np) {
  std::vector<int>& counts = vector_args_[2];
  counts.resize(static_cast<std::size_t>(np));
  for (int q = 0; q < np; ++q)
    counts[static_cast<std::size_t>(q)] = static_cast<int>(spec_for(c.collective).rank_count(c, q));
  args_.recv_counts = counts.data();
}

void MpiBackend::run_once() {
  switch (form_) {
    case CallForm::blocking: call_(args_); return;
    case CallForm::nonblocking:
      start_call();
      wait_call();
      return;
    case CallForm::persistent: persistent_.start_and_wait(); return;
  }
}

void MpiBackend::fill_inputs() {
  const HostElementOps elements(case_);
  spec_for(case_.collective).fill(RankBuffers{case_, rank_, send_.data(), recv_.data(), elements});
}

std::uint64_t MpiBackend::count_mismatches() {
  const HostElementOps elements(case_);
  return spec_for(case_.collective).check(RankBuffers{case_, rank_, send_.data(), recv_.data(), elements});
}

std::uint64_t MpiBackend::validate() {
  fill_inputs();
  run_once();
  return count_mismatches();
}

void MpiBackend::release() {
  persistent_ = PersistentCall();
  send_ = PageBuffer();  // its pages kept mapped for the next case
  recv_ = PageBuffer();
  call_ = nullptr;
}

}  // namespace pico
