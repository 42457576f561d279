// SPDX-License-Identifier: BSD-3-Clause
#include "backends/nccl/device_element_ops.hpp"

#include <cstddef>
#include <type_traits>

#include "backends/nccl/cuda_handles.hpp"

namespace pico::nccl {

template <class P>
P* DeviceElementOps::at(P* buf, std::uint64_t offset) const {
  using Byte = std::conditional_t<std::is_const_v<P>, const std::byte, std::byte>;
  return reinterpret_cast<Byte*>(buf) + offset * element_;
}

template <class F>
std::uint64_t DeviceElementOps::counted(F&& count) const {
  check_cuda(cudaMemsetAsync(counter_, 0, sizeof(*counter_), stream_), "cudaMemsetAsync");
  count();
  device_patterns::Count host = 0;
  check_cuda(cudaMemcpyAsync(&host, counter_, sizeof(host), cudaMemcpyDeviceToHost, stream_), "cudaMemcpyAsync");
  check_cuda(cudaStreamSynchronize(stream_), "validation");
  return host;
}

void DeviceElementOps::fill_payload(void* buf, std::uint64_t offset, int source_rank, std::uint64_t first_index,
                                    std::uint64_t n) const {
  device_patterns::fill_payload(dtype_, at(buf, offset), source_rank, first_index, n, false, stream_);
}

void DeviceElementOps::fill_payload_sentinel(void* buf, std::uint64_t offset, int source_rank,
                                             std::uint64_t first_index, std::uint64_t n) const {
  device_patterns::fill_payload(dtype_, at(buf, offset), source_rank, first_index, n, true, stream_);
}

std::uint64_t DeviceElementOps::count_payload_mismatches(const void* buf, std::uint64_t offset, int source_rank,
                                                         std::uint64_t first_index, std::uint64_t n) const {
  return counted([&] {
    device_patterns::count_payload_mismatches(dtype_, at(buf, offset), source_rank, first_index, n, counter_, stream_);
  });
}

void DeviceElementOps::fill_reduce_input(void* buf, int rank, std::uint64_t n) const {
  device_patterns::fill_reduce_input(dtype_, op_, np_, buf, rank, n, stream_);
}

void DeviceElementOps::fill_reduce_sentinel(void* buf, std::uint64_t first_index, std::uint64_t n, int ranks) const {
  device_patterns::fill_reduce_sentinel(dtype_, op_, np_, ranks, buf, first_index, n, stream_);
}

std::uint64_t DeviceElementOps::count_reduce_mismatches(const void* buf, std::uint64_t first_index, std::uint64_t n,
                                                        int ranks) const {
  return counted([&] {
    device_patterns::count_reduce_mismatches(dtype_, op_, np_, ranks, buf, first_index, n, counter_, stream_);
  });
}

}  // namespace pico::nccl
