// SPDX-License-Identifier: BSD-3-Clause
// SparCML-style sparse allreduce (Renggli et al., SC'19): each rank's top-k
// pairs go to the owner of their block (alltoallv: at most 8k bytes), the
// owner sums its block, and every block is allgathered as (index, value)
// pairs or as dense floats, whichever is smaller: when fill-in makes 8 nnz
// exceed 4 n/p, the block travels dense. Traffic per rank is then bounded
// by the dense reduce-scatter + allgather instead of growing as 8k (p-1).
#include <algorithm>
#include <climits>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include "compression/families/topk_sparse.hpp"

namespace pico::compressed {

TopkSparse::TopkSparse(const Setup& s)
    : TopkFamily(s), block_(s.n == 0 ? 0 : (s.n + static_cast<std::size_t>(s.np) - 1) / static_cast<std::size_t>(s.np)) {
  const auto np = static_cast<std::size_t>(s.np);
  const std::size_t k = compressor_.k();
  if (8 * k * np > static_cast<std::size_t>(INT_MAX) || 4 * block_ * np > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("a message of this case would exceed MPI's int count range");
  selected_indices_.resize(k);
  selected_values_.resize(k);
  outgoing_.resize(k);
  incoming_.resize(k * np);  // every rank may send all its pairs to one owner
  for (auto* v : {&send_counts_, &send_displs_, &recv_counts_, &recv_displs_, &gather_counts_, &gather_displs_})
    v->assign(np, 0);
  for (std::size_t j = 0; j < np; ++j) gather_displs_[j] = static_cast<int>(4 * block_ * j);
  owned_.resize(block_);
  owned_message_.resize(4 * block_);
  gathered_.resize(4 * block_ * np);
}

template <class Mark>
void TopkSparse::call(std::span<const float> in, std::span<float> out, std::uint64_t, Mark mark) {
  const std::size_t k = compressor_.k();
  const auto np = static_cast<std::size_t>(setup_.np);
  const auto me = static_cast<std::size_t>(setup_.rank);
  compressor_.compress(in, selected_indices_, selected_values_, mark);
  // Indices come in increasing order, so each owner's pairs are contiguous.
  std::fill(send_counts_.begin(), send_counts_.end(), 0);
  for (std::size_t j = 0; j < k; ++j) {
    outgoing_[j] = Pair{selected_indices_[j], selected_values_[j]};
    send_counts_[selected_indices_[j] / block_] += sizeof(Pair);
  }
  std::exclusive_scan(send_counts_.begin(), send_counts_.end(), send_displs_.begin(), 0);

  mark("communicate");
  MPI_Alltoall(send_counts_.data(), 1, MPI_INT, recv_counts_.data(), 1, MPI_INT, setup_.comm);
  std::exclusive_scan(recv_counts_.begin(), recv_counts_.end(), recv_displs_.begin(), 0);
  MPI_Alltoallv(outgoing_.data(), send_counts_.data(), send_displs_.data(), MPI_BYTE, incoming_.data(),
                recv_counts_.data(), recv_displs_.data(), MPI_BYTE, setup_.comm);

  mark("reduce");
  const std::size_t lo = std::min(setup_.n, me * block_), len = std::min(setup_.n, lo + block_) - lo;
  std::fill(owned_.begin(), owned_.begin() + static_cast<std::ptrdiff_t>(len), 0.0f);
  const std::size_t received = static_cast<std::size_t>(recv_displs_[np - 1] + recv_counts_[np - 1]) / sizeof(Pair);
  for (std::size_t j = 0; j < received; ++j) owned_[incoming_[j].index - lo] += incoming_[j].value;  // rank order
  const auto nnz = static_cast<std::size_t>(
      std::count_if(owned_.begin(), owned_.begin() + static_cast<std::ptrdiff_t>(len), [](float v) { return v != 0.0f; }));
  int bytes = 0;
  if (sizeof(Pair) * nnz < 4 * len) {
    auto* pairs = reinterpret_cast<Pair*>(owned_message_.data());
    for (std::size_t i = 0; i < len; ++i)
      if (owned_[i] != 0.0f) *pairs++ = Pair{static_cast<std::uint32_t>(lo + i), owned_[i]};
    bytes = static_cast<int>(sizeof(Pair) * nnz);
  } else {
    if (len > 0) std::memcpy(owned_message_.data(), owned_.data(), 4 * len);  // an empty part's data() may be null
    bytes = static_cast<int>(4 * len);
  }

  mark("communicate");
  MPI_Allgather(&bytes, 1, MPI_INT, gather_counts_.data(), 1, MPI_INT, setup_.comm);
  MPI_Allgatherv(owned_message_.data(), bytes, MPI_BYTE, gathered_.data(), gather_counts_.data(),
                 gather_displs_.data(), MPI_BYTE, setup_.comm);

  mark("decompress");
  sparse_blocks_ = 0;
  for (std::size_t j = 0; j < np; ++j) {
    const std::size_t block_lo = std::min(setup_.n, j * block_), block_len = std::min(setup_.n, block_lo + block_) - block_lo;
    const std::byte* message = gathered_.data() + gather_displs_[j];
    const auto message_bytes = static_cast<std::size_t>(gather_counts_[j]);
    if (message_bytes < 4 * block_len) {  // the owner sent pairs
      ++sparse_blocks_;
      std::fill_n(out.begin() + static_cast<std::ptrdiff_t>(block_lo), block_len, 0.0f);
      const auto* pairs = reinterpret_cast<const Pair*>(message);
      for (std::size_t p = 0; p < message_bytes / sizeof(Pair); ++p) out[pairs[p].index] = pairs[p].value;
    } else if (block_len > 0) {
      std::memcpy(out.data() + block_lo, message, 4 * block_len);
    }
  }
  scale_by(out, 1.0f / static_cast<float>(setup_.np));

  double sent = 0;
  for (std::size_t j = 0; j < np; ++j)
    if (j != me) sent += send_counts_[j] + gather_counts_[j];  // alltoallv, plus a ring allgatherv's forwarding
  last_wire_bytes_ = sent;
}

WireVolume TopkSparse::wire() const { return {8.0 * static_cast<double>(compressor_.k()), last_wire_bytes_}; }

nlohmann::json TopkSparse::describe() const {
  auto d = compressor_.describe();
  d["sparse_blocks"] = sparse_blocks_;
  d["dense_blocks"] = static_cast<std::uint64_t>(setup_.np) - sparse_blocks_;
  return d;
}

}  // namespace pico::compressed
