// SPDX-License-Identifier: BSD-3-Clause
#include "backends/nccl/nccl_backend.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "backends/nccl/device_element_ops.hpp"
#include "backends/nccl/event_timing.hpp"
#include "backends/nccl/nccl_session.hpp"
#include "collectives/spec.hpp"

namespace pico::nccl {
namespace {

// Never null, so that NCCL's argument checks accept zero-count calls.
DeviceBuffer device_bytes(std::size_t bytes) { return DeviceBuffer(std::max<std::size_t>(bytes, 1)); }

}  // namespace

void NcclBackend::prepare(const Case& c, MPI_Comm comm) {
  case_ = c;
  call_ = nccl_call(c.collective);
  if (call_ == nullptr) throw std::invalid_argument(fmt::format("NCCL has no {}", name(c.collective)));
  const ncclDataType_t type = nccl_datatype(c.dtype);  // throws for a datatype NCCL lacks, before any GPU work
  session_ = &NcclSession::for_comm(comm, ranks_per_process(c));
  if (session_->size() != c.np)
    throw std::runtime_error(fmt::format("the case has {} ranks but this launch runs {} NCCL ranks", c.np, session_->size()));
  launch_ = session_->lanes().size() == 1 ? launch_alone : launch_grouped;
  plan_rotation();
  // One checked call: an algorithm NCCL cannot run here fails now, with NCCL's reason.
  try {
    for (const auto& lane : session_->lanes()) slots_.push_back(make_slot(*lane, type));
    fill_inputs();
    // NCCL logs the algorithm and protocol it chose for this call (rank 0).
    reported_ = NcclSession::tuning_log().capture([this] {
      nccl_check(launch(), "first call");
      synchronize("first call");
    });
    fill_inputs();  // time the call on the data it is validated with
  } catch (...) {
    free_slots();
    NcclSession::discard();  // a failed communicator is not reused
    session_ = nullptr;
    throw;
  }
}

// rotate_buffers: as many offsets as fit in the span, each a whole call's
// largest buffer (rounded to 256 bytes, cudaMalloc's alignment) past the last.
void NcclBackend::plan_rotation() {
  rotations_ = 1;
  rotation_stride_ = 0;
  rotation_ = 0;
  const auto option = case_.options.find(kRotateBuffers);
  if (option == case_.options.end()) return;
  const std::size_t span = std::stoull(option->second);
  std::size_t largest = 0;
  if (spec_for(case_.collective).count_matrix) {  // one matrix, not one per rank
    const auto m = count_matrix(case_);
    for (int rank = 0; rank < case_.np; ++rank) largest = std::max({largest, m->sent_by(rank), m->received_by(rank)});
  } else {
    for (int rank = 0; rank < case_.np; ++rank) {
      const BufferSizes sizes = spec_for(case_.collective).buffer_sizes(case_, rank);
      largest = std::max({largest, sizes.send, sizes.recv});
    }
  }
  rotation_stride_ = std::max<std::size_t>((largest * dtype_size(case_.dtype) + 255) / 256 * 256, 256);
  rotations_ = std::max<std::size_t>(1, span / rotation_stride_);
}

ncclResult_t NcclBackend::timed_launch() {
  if (rotations_ == 1) return launch();
  const std::size_t shift = rotation_stride_ * rotation_;
  rotation_ = rotation_ + 1 == rotations_ ? 0 : rotation_ + 1;
  for (auto& s : slots_) {
    s.moved = s.args;
    s.moved.send = static_cast<const std::byte*>(s.args.send) + shift;
    s.moved.recv = static_cast<std::byte*>(s.args.recv) + shift;
  }
  return launch_(call_, slots_, &RankSlot::moved);
}

NcclBackend::RankSlot NcclBackend::make_slot(const Lane& lane, ncclDataType_t type) const {
  lane.activate();  // the buffers live on the lane's GPU
  const BufferSizes sizes = spec_for(case_.collective).buffer_sizes(case_, lane.rank);
  const std::size_t element = dtype_size(case_.dtype);
  const std::size_t extra = rotation_stride_ * (rotations_ - 1);  // room for the other offsets
  RankSlot s{.device = lane.device,
             .send = device_bytes(sizes.send * element + extra),
             .recv = device_bytes(sizes.recv * element + extra),
             .counter = device_bytes(sizeof(device_patterns::Count)),
             .args = {},
             .moved = {},
             .layout = {}};
  // NCCL's in-place form passes the receive buffer (or this rank's block of it) as the input.
  const bool in_place = in_place_side(case_, lane.rank) != InPlaceSide::none;
  const InPlaceBlocks blocks = nccl_in_place_blocks(case_.collective);
  std::byte* const own_block = s.recv.as<std::byte>() + case_.bytes * static_cast<std::size_t>(lane.rank);
  const RingPeers peers = sendrecv_peers(lane.rank, session_->size());
  s.args = NcclCallArgs{
      .send = !in_place ? s.send.data() : blocks.input_at_own_block ? own_block : s.recv.data(),
      .recv = in_place && blocks.result_at_own_block ? own_block : s.recv.data(),
      .count = case_.count,
      .block_bytes = case_.bytes,
      .type = type,
      .op = nccl_op(case_.op),
      .root = case_.root,
      .rank = lane.rank,
      .nranks = session_->size(),
      .next = peers.next,
      .prev = peers.prev,
      .comm = lane.comm,
      .stream = lane.stream.get(),
  };
  if (spec_for(case_.collective).count_matrix) {
    s.layout = vector_layout(*count_matrix(case_), lane.rank);
    s.args.send_counts = s.layout.send_counts.data();
    s.args.send_displs = s.layout.send_displs.data();
    s.args.recv_counts = s.layout.recv_counts.data();
    s.args.recv_displs = s.layout.recv_displs.data();
    s.args.element_bytes = element;
  }
  return s;
}

ncclResult_t NcclBackend::launch_alone(NcclCall call, const std::vector<RankSlot>& slots, SlotArgs args) {
  return call(slots.front().*args);
}

ncclResult_t NcclBackend::launch_grouped(NcclCall call, const std::vector<RankSlot>& slots, SlotArgs args) {
  return grouped([&] {
    ncclResult_t r = ncclSuccess;
    for (const auto& s : slots)
      if (r == ncclSuccess) r = call(s.*args);
    return r;
  });
}

void NcclBackend::synchronize(const char* what) const {
  for (const auto& s : slots_) check_cuda(cudaStreamSynchronize(s.args.stream), what);
}

void NcclBackend::fill_inputs() {
  for (auto& s : slots_) {
    check_cuda(cudaSetDevice(s.device), "cudaSetDevice");
    const DeviceElementOps elements(case_, s.args.stream, s.counter.as<device_patterns::Count>());
    spec_for(case_.collective).fill(RankBuffers{case_, s.args.rank, s.send.data(), s.recv.data(), elements});
  }
  synchronize("filling the inputs");
}

void NcclBackend::time_calls(double* out, std::int64_t n, Pacing pacing, MPI_Comm harness) {
  time_samples(
      session_->lanes(), pacing, out, n, harness, graph_, [this] { note(timed_launch()); },
      [this](cudaError_t e) { note(e); });
}

std::uint64_t NcclBackend::validate() {
  fill_inputs();
  nccl_check(launch(), "validation call");
  synchronize("validation call");
  std::uint64_t mismatches = 0;
  for (const auto& s : slots_) {
    check_cuda(cudaSetDevice(s.device), "cudaSetDevice");
    const DeviceElementOps elements(case_, s.args.stream, s.counter.as<device_patterns::Count>());
    // The check reads the result where NCCL leaves it.
    mismatches += spec_for(case_.collective).check(RankBuffers{case_, s.args.rank, s.send.data(), s.args.recv, elements});
  }
  return mismatches;
}

std::string NcclBackend::deferred_error() const { return first_error_text(first_nccl_error_, first_cuda_error_); }

// Rank 0's: NCCL logs its choices there only.
nlohmann::json NcclBackend::reported_selection() const {
  return nccl::reported_selection(NcclSession::tuning_log(), reported_, case_.np);
}

nlohmann::json NcclBackend::device() const { return session_ != nullptr ? session_->describe() : nullptr; }

void NcclBackend::free_slots() {
  for (auto& s : slots_) {
    cudaSetDevice(s.device);  // also from the destructor: nothing to report to
    s = RankSlot{};
  }
  slots_.clear();
}

void NcclBackend::release() {
  for (const auto& s : slots_) cudaStreamSynchronize(s.args.stream);
  graph_.clear();
  free_slots();
  if (!deferred_error().empty()) NcclSession::discard();
  session_ = nullptr;
}

}  // namespace pico::nccl
