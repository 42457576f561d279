// SPDX-License-Identifier: BSD-3-Clause
#include "backends/mpi/guideline_backend.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "core/guidelines.hpp"

namespace pico {

GuidelineBackend::Composed GuidelineBackend::composed_for(const Case& c) {
  const std::string& a = c.algorithm;
  if (const std::string why = guideline_skip_reason(c); !why.empty()) throw std::invalid_argument(why);
  if (a == "guideline:reduce+bcast") return reduce_bcast;
  if (a == "guideline:reduce_scatter_block+allgather") return reduce_scatter_block_allgather;
  if (a == "guideline:scatter+allgather") return scatter_allgather;
  if (a == "guideline:allreduce") return allreduce_for_reduce;
  if (a == "guideline:gather+bcast") return gather_bcast;
  if (a == "guideline:allgather") return allgather_for_gather;
  if (a == "guideline:reduce+scatterv") return reduce_scatterv;
  if (a == "guideline:exscan+reduce_local") return exscan_reduce_local;
  // A row of core/guidelines.hpp without its composition here: tests/mpi runs every row.
  throw std::invalid_argument("the worker has no composition for mock-up '" + a + "'");
}

void GuidelineBackend::prepare(const Case& c, MPI_Comm comm) {
  compose_ = composed_for(c);
  MpiBackend::prepare(c, comm);
  MPI_Comm_size(comm, &np_);
  element_ = dtype_size(c.dtype);
  const std::size_t all_blocks = c.count * static_cast<std::size_t>(np_);
  // Every rank's scratch holds what its calls write beyond its result; at least a byte, never null.
  std::size_t scratch = 0;
  if (c.algorithm == "guideline:allreduce") scratch = c.count;
  if (c.algorithm == "guideline:allgather" || c.algorithm == "guideline:reduce+scatterv") scratch = all_blocks;
  scratch_ = PageBuffer(scratch * element_);
  block_counts_.assign(static_cast<std::size_t>(np_), static_cast<int>(c.count));
  block_displs_.resize(static_cast<std::size_t>(np_));
  for (int q = 0; q < np_; ++q) block_displs_[static_cast<std::size_t>(q)] = q * static_cast<int>(c.count);
}

void GuidelineBackend::release() {
  scratch_ = PageBuffer();
  compose_ = nullptr;
  MpiBackend::release();
}

// Each composition calls with the case's root where the collective has one, rank 0 where it has none.

void GuidelineBackend::reduce_bcast(GuidelineBackend& b) {
  const MpiCallArgs& a = b.call_args();
  MPI_Reduce(a.send, a.recv, a.count, a.type, a.op, 0, a.comm);
  MPI_Bcast(a.recv, a.count, a.type, 0, a.comm);
}

void GuidelineBackend::reduce_scatter_block_allgather(GuidelineBackend& b) {
  const MpiCallArgs& a = b.call_args();
  const int block = a.count / b.np_;
  auto* own = static_cast<std::byte*>(a.recv) + static_cast<std::size_t>(b.rank() * block) * b.element_;
  MPI_Reduce_scatter_block(a.send, own, block, a.type, a.op, a.comm);
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a.recv, block, a.type, a.comm);
}

void GuidelineBackend::scatter_allgather(GuidelineBackend& b) {
  const MpiCallArgs& a = b.call_args();
  const int block = a.count / b.np_;
  auto* own = static_cast<std::byte*>(a.recv) + static_cast<std::size_t>(b.rank() * block) * b.element_;
  // The root's own block is already in place; the others receive theirs at their position.
  if (b.rank() == a.root)
    MPI_Scatter(a.recv, block, a.type, MPI_IN_PLACE, block, a.type, a.root, a.comm);
  else
    MPI_Scatter(nullptr, block, a.type, own, block, a.type, a.root, a.comm);
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a.recv, block, a.type, a.comm);
}

void GuidelineBackend::allreduce_for_reduce(GuidelineBackend& b) {
  const MpiCallArgs& a = b.call_args();
  MPI_Allreduce(a.send, b.rank() == a.root ? a.recv : b.scratch_.data(), a.count, a.type, a.op, a.comm);
}

void GuidelineBackend::gather_bcast(GuidelineBackend& b) {
  const MpiCallArgs& a = b.call_args();
  MPI_Gather(a.send, a.count, a.type, a.recv, a.count, a.type, 0, a.comm);
  MPI_Bcast(a.recv, a.count * b.np_, a.type, 0, a.comm);
}

void GuidelineBackend::allgather_for_gather(GuidelineBackend& b) {
  const MpiCallArgs& a = b.call_args();
  MPI_Allgather(a.send, a.count, a.type, b.rank() == a.root ? a.recv : b.scratch_.data(), a.count, a.type, a.comm);
}

void GuidelineBackend::reduce_scatterv(GuidelineBackend& b) {
  const MpiCallArgs& a = b.call_args();
  MPI_Reduce(a.send, b.scratch_.data(), a.count * b.np_, a.type, a.op, 0, a.comm);
  MPI_Scatterv(b.scratch_.data(), b.block_counts_.data(), b.block_displs_.data(), a.type, a.recv, a.count, a.type, 0,
               a.comm);
}

// MPI_Exscan leaves rank 0's result undefined: its scan is its own input.
void GuidelineBackend::exscan_reduce_local(GuidelineBackend& b) {
  const MpiCallArgs& a = b.call_args();
  MPI_Exscan(a.send, a.recv, a.count, a.type, a.op, a.comm);
  if (b.rank() == 0)
    std::memcpy(a.recv, a.send, static_cast<std::size_t>(a.count) * b.element_);
  else
    MPI_Reduce_local(a.send, a.recv, a.count, a.type, a.op);
}

}  // namespace pico
