// SPDX-License-Identifier: BSD-3-Clause
// One compressed allreduce algorithm (every family of
// configs/catalog/compressed.yaml: Global-QSGD and its variants, Top-k and
// its sparse kin, Random-k, sign and EF-sign, hard threshold, PowerSGD, or
// the dense baseline): the mean over ranks of every rank's float32 vector, with the
// phases of a call marked (norm, compress, communicate, reduce, decompress,
// error_feedback) and what it guarantees stated so that a check can hold it
// to that. Each algorithm writes its call once as a template over a phase
// mark; the timed run marks nothing, the instrumented pass records.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include "collectives/transport/mpi_transport.hpp"
#include "instrumentation/phase_recorder.hpp"

namespace pico::compressed {

struct Setup {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  int np = 1;
  std::size_t n = 0;           // elements per rank
  std::uint64_t seed = 0;      // of the stochastic rounding (RandomStream::seed)
  std::map<std::string, double> params;

  double param(const std::string& name, double fallback) const {
    const auto it = params.find(name);
    return it == params.end() ? fallback : it->second;
  }
};

// What the check of a result knows, built by visiting every rank's input.
struct ExactReference {
  std::vector<double> mean;      // the exact mean over ranks, in fp64
  std::vector<double> abs_mean;  // mean over ranks of |x|
  std::vector<float> replay;     // a deterministic algorithm's own result, replayed locally
  float scale = 0;               // max |x| over all ranks and elements
};

struct WireVolume {
  double payload_bytes = 0;  // the compressed message one rank contributes: codes, scales, indices
  double wire_bytes = 0;     // bytes one rank sends per call (bandwidth-optimal schedule of the step)
};

class CompressedAllreduce {
 public:
  virtual ~CompressedAllreduce() = default;
  // out = this algorithm's estimate of the mean of `in` over ranks. `call`
  // numbers the call: it picks the random stream, so calls differ and are reproducible.
  virtual void run(std::span<const float> in, std::span<float> out, std::uint64_t call) = 0;
  virtual void run_marked(std::span<const float> in, std::span<float> out, std::uint64_t call,
                          PhaseRecorder& recorder) = 0;
  // Forgets carried state (the error-feedback residual).
  virtual void reset() {}
  virtual WireVolume wire() const = 0;
  // Parameters as applied (bits, levels, k, ...), for the report.
  virtual nlohmann::json describe() const = 0;

  // Deterministic algorithms add rank r's contribution to ref.replay here
  // (called for r = 0..p-1 in order with a zeroed replay), then finish_replay.
  virtual bool replays() const { return false; }
  virtual void replay_rank(std::span<const float> x, std::span<float> replay) const { (void)x, (void)replay; }
  virtual void finish_replay(std::span<float> replay) const { (void)replay; }
  // Elements of `out` outside what the algorithm guarantees for its first call after reset().
  virtual std::uint64_t violations(std::span<const float> out, const ExactReference& ref) const = 0;
  // The expected squared error per element, where the method has a closed form.
  virtual std::optional<double> mse_bound(const ExactReference& ref) const {
    (void)ref;
    return std::nullopt;
  }
};

// Implements run/run_marked from Derived::call(in, out, call, mark).
template <class Derived>
class Phased : public CompressedAllreduce {
 public:
  void run(std::span<const float> in, std::span<float> out, std::uint64_t call) final {
    static_cast<Derived*>(this)->call(in, out, call, transport::NoPhases{});
  }
  void run_marked(std::span<const float> in, std::span<float> out, std::uint64_t call,
                  PhaseRecorder& recorder) final {
    static_cast<Derived*>(this)->call(in, out, call, PhaseHook{&recorder});
  }
};

// make_compressed_allreduce, the factory by name, sits with the families it builds
// (compression/families/registry.hpp).

// Each rank's random stream for call `call`: ranks and calls never share numbers.
inline std::uint64_t rank_stream(int rank, std::uint64_t call) {
  return (static_cast<std::uint64_t>(rank) << 32) | (call & 0xffffffffULL);
}

// out *= factor, element-wise (the 1/p of a mean).
inline void scale_by(std::span<float> out, float factor) {
  for (float& v : out) v *= factor;
}

// Elements of out whose bits differ from expected.
inline std::uint64_t count_unequal_bits(std::span<const float> out, std::span<const float> expected) {
  std::uint64_t bad = 0;
  for (std::size_t i = 0; i < out.size(); ++i)
    if (std::memcmp(&out[i], &expected[i], sizeof(float)) != 0) ++bad;
  return bad;
}

// Elements where |out - mean| exceeds tolerance(i).
template <class Tolerance>
std::uint64_t count_beyond(std::span<const float> out, const ExactReference& ref, Tolerance tolerance) {
  std::uint64_t bad = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double err = static_cast<double>(out[i]) - ref.mean[i];
    if (!(err <= tolerance(i) && -err <= tolerance(i))) ++bad;
  }
  return bad;
}

}  // namespace pico::compressed
