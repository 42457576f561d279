// SPDX-License-Identifier: BSD-3-Clause
// A performance guideline's mock-up (core/guidelines.hpp): the case's
// collective composed of the library's own other collectives, each called
// with the library's default algorithm (the case's selection is the
// default's), on MpiBackend's buffers, closed-form inputs and checks, so a
// mock-up is validated like the collective it stands in for.
#pragma once

#include <cstddef>
#include <vector>

#include "backends/mpi/mpi_backend.hpp"
#include "support/page_buffer.hpp"

namespace pico {

class GuidelineBackend : public MpiBackend {
 public:
  // Throws std::invalid_argument for a mock-up core/guidelines.hpp does not
  // list, or one of another collective.
  void prepare(const Case& c, MPI_Comm comm) override;
  void run_once() override { compose_(*this); }
  bool splits_call() const override { return false; }
  void release() override;

 private:
  using Composed = void (*)(GuidelineBackend&);
  static Composed composed_for(const Case& c);

  static void reduce_bcast(GuidelineBackend& b);
  static void reduce_scatter_block_allgather(GuidelineBackend& b);
  static void scatter_allgather(GuidelineBackend& b);
  static void allreduce_for_reduce(GuidelineBackend& b);
  static void gather_bcast(GuidelineBackend& b);
  static void allgather_for_gather(GuidelineBackend& b);
  static void reduce_scatterv(GuidelineBackend& b);
  static void exscan_reduce_local(GuidelineBackend& b);

  Composed compose_ = nullptr;
  int np_ = 1;
  std::size_t element_ = 1;
  // Where a mock-up's call leaves more than the collective's result (the
  // allreduce of a reduce on a non-root, reduce's p blocks at the root).
  PageBuffer scratch_;                            // as the case's buffers (support/page_buffer.hpp)
  std::vector<int> block_counts_, block_displs_;  // scatterv: count elements per rank
};

}  // namespace pico
