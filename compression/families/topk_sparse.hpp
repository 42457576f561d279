// SPDX-License-Identifier: BSD-3-Clause
// Top-k, SparCML-style (a reduce-scatter of pairs, then a sparse-or-dense allgather).
// Its call() and virtual functions are in the .cpp of the same name, where
// Phased's run/run_marked instantiate it; the factory is families/registry.cpp.
#pragma once

#include <vector>

#include "compression/allreduce/compressed_allreduce.hpp"
#include "compression/allreduce/host_kernels.hpp"
#include "compression/allreduce/mpi_collectives.hpp"
#include "compression/families/topk.hpp"

namespace pico::compressed {

// SparCML-style: pairs go to the owner of their block, owners sum them, and
// each block is allgathered sparse or dense, whichever is smaller.
class TopkSparse final : public TopkFamily<TopkSparse> {
 public:
  explicit TopkSparse(const Setup& s);
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  WireVolume wire() const override;
  nlohmann::json describe() const override;

 private:
  struct Pair {
    std::uint32_t index;
    float value;
  };
  std::size_t block_;  // elements each rank owns: ceil(n / p)
  std::vector<std::uint32_t> selected_indices_;
  std::vector<float> selected_values_;
  std::vector<Pair> outgoing_, incoming_;
  std::vector<int> send_counts_, send_displs_, recv_counts_, recv_displs_;   // in bytes
  std::vector<float> owned_;                 // the owned block, dense
  std::vector<std::byte> owned_message_;     // the owned block as sent: pairs or dense values
  std::vector<std::byte> gathered_;
  std::vector<int> gather_counts_, gather_displs_;
  double last_wire_bytes_ = 0;     // measured on the last call
  std::uint64_t sparse_blocks_ = 0;  // blocks that travelled as pairs on the last call
};

}  // namespace pico::compressed
