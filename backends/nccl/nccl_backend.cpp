#include "backends/nccl/nccl_backend.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "backends/nccl/device_element_ops.hpp"
#include "backends/nccl/event_timing.hpp"
#include "backends/nccl/nccl_session.hpp"
#include "collectives/spec.hpp"

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
    // NCCL logs the algorithm and protocol it chose for this call (rank 0).
    reported_ = NcclSession::tuning_log().capture([this] {
      nccl_check(call_(args_), "first call");
      check_cuda(cudaStreamSynchronize(args_.stream), "first call");
    });
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

void NcclBackend::time_calls(double* out, std::int64_t n, Pacing pacing, MPI_Comm harness) {
  const auto call = [this] { note(call_(args_)); };
  const auto note_cuda = [this](cudaError_t e) { note(e); };
  if (pacing == Pacing::barrier_each)
    time_with_barriers(session_->events(), args_.stream, out, n, harness, call, note_cuda);
  else
    time_back_to_back(session_->events(), args_.stream, out, n, call, note_cuda);
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

// Rank 0's: NCCL logs its choices there only.
nlohmann::json NcclBackend::reported_selection() const {
  return nccl::reported_selection(NcclSession::tuning_log(), reported_, args_.nranks);
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
