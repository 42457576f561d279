// SPDX-License-Identifier: BSD-3-Clause
// pico's plain-MPI reference algorithms (collectives/reference/) as a
// backend: MpiBackend's buffers, closed-form inputs and checks, with the
// call replaced by the algorithm named in Case::algorithm running on
// MpiTransport.
#pragma once

#include <cstdint>
#include <optional>

#include "backends/mpi/mpi_backend.hpp"
#include "collectives/reference/args.hpp"
#include "collectives/transport/mpi_transport.hpp"

namespace pico {

class ReferenceBackend : public MpiBackend {
 public:
  static constexpr std::uint64_t kDefaultSegmentBytes = 64 * 1024;

  // segment_bytes: the segment size of pipelined algorithms (segmented_ring, chain).
  explicit ReferenceBackend(std::uint64_t segment_bytes = kDefaultSegmentBytes) : segment_bytes_(segment_bytes) {}

  // Throws std::invalid_argument for an algorithm the reference table lacks.
  void prepare(const Case& c, MPI_Comm comm) override;
  void run_once() override { run_(*transport_, args_); }
  void release() override;
  bool record_phases(int calls, PhaseRecorder& recorder, const std::function<void()>& before_each) override;

 private:
  using Transport = transport::MpiTransport<>;

  std::uint64_t segment_bytes_;
  std::optional<Transport> transport_;
  void (*run_)(Transport&, const reference::CallArgs&) = nullptr;
  std::size_t scratch_elements_ = 0;
  reference::CallArgs args_;
};

}  // namespace pico
