#include "backends/nccl/nccl_backend.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "backends/nccl/device_element_ops.hpp"
#include "backends/nccl/nccl_session.hpp"
#include "collectives/spec.hpp"
#include "worker/harness.hpp"

namespace pico::nccl {
namespace {

// Where NCCL takes the input of an in-place call: the whole receive buffer,
// or this rank's block of it (allgather).
const void* in_place_send(const Case& c, const DeviceBuffer& recv, int rank) {
  if (c.collective == Collective::allgather) return recv.as<std::byte>() + c.bytes * static_cast<std::size_t>(rank);
  return recv.data();
}

// Never null, so that NCCL's argument checks accept zero-count calls.
DeviceBuffer device_bytes(std::size_t bytes) { return DeviceBuffer(std::max<std::size_t>(bytes, 1)); }

// NCCL's in-place reduce_scatter leaves rank r's block where its input block r
// was; MPI's (which pico's checks follow) at the start of the buffer.
std::size_t result_offset(const Case& c, int rank) {
  return c.in_place && c.collective == Collective::reduce_scatter ? c.bytes * static_cast<std::size_t>(rank) : 0;
}

}  // namespace

void NcclBackend::prepare(const Case& c, MPI_Comm comm) {
  case_ = c;
  call_ = nccl_call(c.collective);
  if (call_ == nullptr) throw std::invalid_argument(fmt::format("NCCL has no {}", name(c.collective)));
  const ncclDataType_t type = nccl_datatype(c.dtype);
  session_ = &NcclSession::for_comm(comm);
  const int rank = session_->rank();
  const BufferSizes sizes = spec_for(c.collective).buffer_sizes(c, rank);
  const std::size_t element = dtype_size(c.dtype);
  send_ = device_bytes(sizes.send * element);
  recv_ = device_bytes(sizes.recv * element);
  counter_ = device_bytes(sizeof(device_patterns::Count));
  const bool in_place = c.in_place && (c.collective != Collective::reduce || rank == c.root);
  args_ = NcclCallArgs{
      .send = in_place ? in_place_send(c, recv_, rank) : send_.data(),
      .recv = recv_.as<std::byte>() + result_offset(c, rank),
      .count = c.count,
      .block_bytes = c.bytes,
      .type = type,
      .op = nccl_op(c.op),
      .root = c.root,
      .rank = rank,
      .nranks = session_->size(),
      .comm = session_->comm(),
      .stream = session_->stream(),
  };
  // One checked call: an algorithm NCCL cannot run here fails now, with NCCL's reason.
  try {
    fill_inputs();
    nccl_check(call_(args_), "first call");
    check_cuda(cudaStreamSynchronize(args_.stream), "first call");
    fill_inputs();  // time the call on the data it is validated with
  } catch (...) {
    NcclSession::discard();  // a failed communicator is not reused
    session_ = nullptr;
    throw;
  }
}

void NcclBackend::fill_inputs() {
  const DeviceElementOps elements(case_, args_.stream, counter_.as<device_patterns::Count>());
  spec_for(case_.collective).fill(RankBuffers{case_, args_.rank, send_.data(), recv_.data(), elements});
  check_cuda(cudaStreamSynchronize(args_.stream), "filling the inputs");
}

// Latency: every rank's previous call has finished (event synchronised)
// before the barrier, so calls start together; the sample is the device time
// from the start event to the end of the collective on this rank's stream.
void NcclBackend::timed_with_barriers(double* out, std::int64_t n, MPI_Comm harness) {
  auto& events = session_->events();
  const cudaEvent_t start = events[0].get(), stop = events[1].get();
  for (std::int64_t i = 0; i < n; ++i) {
    harness::barrier(harness);
    note(cudaEventRecord(start, args_.stream));
    note(call_(args_));
    note(cudaEventRecord(stop, args_.stream));
    note(cudaEventSynchronize(stop));
    float ms = 0;
    note(cudaEventElapsedTime(&ms, start, stop));
    out[i] = ms * 1e-3;
  }
}

// Throughput: calls back to back, an event between consecutive calls; the
// stream serialises them, so each interval is one call's device time (gaps the
// host leaves between launches included). Every 256 calls the host waits for
// the last event, to reuse the events.
void NcclBackend::timed_back_to_back(double* out, std::int64_t n) {
  auto& events = session_->events();
  const auto per_batch = static_cast<std::int64_t>(events.size()) - 1;
  for (std::int64_t done = 0; done < n;) {
    const std::int64_t m = std::min(per_batch, n - done);
    note(cudaEventRecord(events[0].get(), args_.stream));
    for (std::int64_t j = 0; j < m; ++j) {
      note(call_(args_));
      note(cudaEventRecord(events[j + 1].get(), args_.stream));
    }
    note(cudaEventSynchronize(events[m].get()));
    for (std::int64_t j = 0; j < m; ++j) {
      float ms = 0;
      note(cudaEventElapsedTime(&ms, events[j].get(), events[j + 1].get()));
      out[done + j] = ms * 1e-3;
    }
    done += m;
  }
}

void NcclBackend::time_calls(double* out, std::int64_t n, Pacing pacing, MPI_Comm harness) {
  if (pacing == Pacing::barrier_each)
    timed_with_barriers(out, n, harness);
  else
    timed_back_to_back(out, n);
}

std::uint64_t NcclBackend::validate() {
  fill_inputs();
  nccl_check(call_(args_), "validation call");
  check_cuda(cudaStreamSynchronize(args_.stream), "validation call");
  const DeviceElementOps elements(case_, args_.stream, counter_.as<device_patterns::Count>());
  // The check reads the result where NCCL leaves it.
  return spec_for(case_.collective).check(RankBuffers{case_, args_.rank, send_.data(), args_.recv, elements});
}

std::string NcclBackend::deferred_error() const {
  if (first_nccl_error_ != ncclSuccess) return fmt::format("NCCL: {}", ncclGetErrorString(first_nccl_error_));
  if (first_cuda_error_ != cudaSuccess) return fmt::format("CUDA: {}", cudaGetErrorString(first_cuda_error_));
  return "";
}

nlohmann::json NcclBackend::device() const { return session_ != nullptr ? session_->describe() : nullptr; }

void NcclBackend::release() {
  if (session_ != nullptr) cudaStreamSynchronize(session_->stream());
  send_ = DeviceBuffer();
  recv_ = DeviceBuffer();
  counter_ = DeviceBuffer();
  if (!deferred_error().empty()) NcclSession::discard();
  session_ = nullptr;
}

}  // namespace pico::nccl
