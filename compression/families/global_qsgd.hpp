// SPDX-License-Identifier: BSD-3-Clause
// Global-QSGD, standard dithering: one scale for all ranks, integer codes summed
// exactly by the library's allreduce, a reference allreduce or chunk by chunk (pipelined).
// Its call() and virtual functions are in the .cpp of the same name, where
// Phased's run/run_marked instantiate it; the factory is families/registry.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "collectives/reference/table.hpp"
#include "compression/allreduce/compressed_allreduce.hpp"
#include "compression/allreduce/generic/global_qsgd.hpp"
#include "compression/allreduce/host_kernels.hpp"
#include "compression/allreduce/mpi_collectives.hpp"

namespace pico::compressed {

// MpiCollectives with the codes' integer SUM run by a reference allreduce
// algorithm (global_qsgd_<name>), chosen once, in the constructor.
template <class Code>
class ReferenceSumCollectives : public MpiCollectives {
 public:
  ReferenceSumCollectives(const Setup& s, const std::string& algorithm);
  using MpiCollectives::allreduce_sum;
  void allreduce_sum(Code* codes, std::size_t n);

 private:
  using Transport = transport::MpiTransport<>;
  const reference::AlgorithmEntry<Transport>* entry_;
  Transport transport_;
  std::size_t segment_ = 0;  // elements per pipeline segment of a segmented reference algorithm
};

// Code = int8_t or int16_t: 8- or 16-bit codes.
template <class Code>
class GlobalQsgd final : public Phased<GlobalQsgd<Code>> {
 public:
  static constexpr int kBits = 8 * sizeof(Code);
  // communicate: "library" (the MPI library's allreduce), "pipelined"
  // (chunks compressed while earlier chunks are on the wire) or a reference allreduce name.
  GlobalQsgd(const Setup& s, std::string communicate);
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  WireVolume wire() const override;
  nlohmann::json describe() const override;
  std::uint64_t violations(std::span<const float> out, const ExactReference& ref) const override;
  std::optional<double> mse_bound(const ExactReference& ref) const override;

 private:
  static MPI_Datatype mpi_type();
  // CPU-only: MPI_Iallreduce per chunk, progressed by hand between kernel
  // pieces (NCCL's stream already overlaps kernels and communication).
  template <class Mark>
  void call_pipelined(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark& mark);
  // Lets the posted chunks' nonblocking allreduces progress (Open MPI moves
  // a nonblocking collective on only inside MPI calls).
  void progress();
  Setup setup_;
  std::string communicate_;
  int levels_;
  // One of the three ways, set in the constructor.
  std::optional<GlobalQsgdAllreduce<MpiCollectives, HostKernels, Code>> library_;
  std::optional<GlobalQsgdAllreduce<ReferenceSumCollectives<Code>, HostKernels, Code>> by_reference_;
  float scale_ = 0;          // "pipelined" only, from here on
  std::vector<Code> codes_;
  std::size_t chunks_ = 0;   // chunks of the vector, each its own MPI_Iallreduce
  std::vector<MPI_Request> requests_;
  int posted_ = 0;
};

}  // namespace pico::compressed
