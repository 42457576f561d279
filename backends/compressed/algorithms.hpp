// SPDX-License-Identifier: BSD-3-Clause
// The compressed allreduce algorithms (backends/compressed/*.cpp, one file
// each). Each call() is defined in its own file, where the class's virtual
// functions are too, so Phased's run/run_marked instantiate it there.
// Dense, Global-QSGD and Top-k are written once in generic/ over
// <MpiCollectives, HostKernels> here and <NcclCollectives, DeviceKernels> in
// backends/nccl_compressed/; these classes add what only the CPU backend
// has: the checks (violations, replay, mse_bound), the wire volume and the
// CPU-only variants (pipelined and reference-allreduce Global-QSGD).
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/compressed/compressed_allreduce.hpp"
#include "backends/compressed/generic/dense.hpp"
#include "backends/compressed/generic/global_qsgd.hpp"
#include "backends/compressed/generic/topk.hpp"
#include "backends/compressed/host_kernels.hpp"
#include "backends/compressed/mpi_collectives.hpp"
#include "backends/compressed/topk_compressor.hpp"
#include "collectives/compressed/adaptive_ratio.hpp"
#include "collectives/reference/table.hpp"

namespace pico::compressed {

class Dense final : public Phased<Dense> {
 public:
  explicit Dense(const Setup& s);
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  WireVolume wire() const override;
  nlohmann::json describe() const override { return nlohmann::json::object(); }
  std::uint64_t violations(std::span<const float> out, const ExactReference& ref) const override;

 private:
  Setup setup_;
  DenseAllreduce<MpiCollectives, HostKernels> algorithm_;
};

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

class GlobalQsgdExponential final : public Phased<GlobalQsgdExponential> {
 public:
  explicit GlobalQsgdExponential(const Setup& s);
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  WireVolume wire() const override;
  nlohmann::json describe() const override;
  std::uint64_t violations(std::span<const float> out, const ExactReference& ref) const override;

 private:
  Setup setup_;
  std::size_t block_;               // elements each rank owns in the reduce-scatter: ceil(n / p)
  float scale_ = 0;
  std::vector<std::int8_t> codes_;  // p blocks, zero-padded past n
  std::vector<std::int8_t> gathered_;
  std::vector<float> partial_;      // the owned block's exact sum of decoded codes
  std::vector<std::int8_t> owned_;
};

// Random-k with a shared seed: every rank keeps the same Bernoulli(q) subset
// of positions (the call's shared Philox stream), so the kept values add in
// a plain float SUM allreduce of m ~ q n floats; out = sum / (p q) there, 0
// elsewhere: unbiased over seeds, at a variance of (1/q - 1) x^2 per element.
class RandomK final : public Phased<RandomK> {
 public:
  explicit RandomK(const Setup& s);
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  WireVolume wire() const override;
  nlohmann::json describe() const override;
  std::uint64_t violations(std::span<const float> out, const ExactReference& ref) const override;

 private:
  // The stream all ranks share for call `call`: above every rank's rank_stream.
  RandomStream shared_stream(std::uint64_t call) const;
  Setup setup_;
  float keep_;
  std::vector<std::uint32_t> indices_;
  std::vector<float> values_;
  std::size_t kept_ = 0;  // on the last call
};

// signSGD with majority vote: one sign bit per element and one scale per
// rank (mean |x|) allgathered; out_i = mean of the scales * the majority sign
// (0 on a tie). Deterministic (the check replays it bit for bit) and biased.
class SignMajority final : public Phased<SignMajority> {
 public:
  explicit SignMajority(const Setup& s);
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  WireVolume wire() const override;
  nlohmann::json describe() const override { return {{"bits", 1}, {"scale", "mean |x| per rank"}}; }
  bool replays() const override { return true; }
  void replay_rank(std::span<const float> x, std::span<float> replay) const override;
  void finish_replay(std::span<float> replay) const override;
  std::uint64_t violations(std::span<const float> out, const ExactReference& ref) const override {
    return count_unequal_bits(out, ref.replay);
  }

 private:
  Setup setup_;
  std::size_t message_;                 // 4-byte scale, then ceil(n / 8) bytes of sign bits
  std::vector<std::byte> gathered_;     // p messages
  std::vector<std::uint16_t> negative_; // votes for a negative sign, per element
  mutable float replay_scale_sum_ = 0;  // the replay's sum of the ranks' scales, in rank order
};

// A result that is a deterministic function of the inputs: every rank's
// contribution (replay_rank, the derived class's) summed in rank order, then
// 1/p; the check replays it and compares bit for bit.
template <class Derived>
class ReplayedMean : public Phased<Derived> {
 public:
  explicit ReplayedMean(int np) : inv_np_(1.0f / static_cast<float>(np)) {}
  bool replays() const final { return true; }
  void finish_replay(std::span<float> replay) const final { scale_by(replay, inv_np_); }
  std::uint64_t violations(std::span<const float> out, const ExactReference& ref) const final {
    return count_unequal_bits(out, ref.replay);
  }

 private:
  float inv_np_;
};

// What the Top-k variants share: the compressor, and a replayed mean.
template <class Derived>
class TopkFamily : public ReplayedMean<Derived> {
 public:
  explicit TopkFamily(const Setup& s) : ReplayedMean<Derived>(s.np), setup_(s), compressor_(s) {}
  void reset() override { compressor_.reset(); }
  void replay_rank(std::span<const float> x, std::span<float> replay) const override { compressor_.replay(x, replay); }

 protected:
  Setup setup_;
  TopkCompressor compressor_;
};

// Allgather of every rank's (index, value) pairs, then a scatter-add (generic/topk.hpp).
class Topk final : public TopkFamily<Topk> {
 public:
  explicit Topk(const Setup& s);
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  WireVolume wire() const override;
  nlohmann::json describe() const override { return compressor_.describe(); }

 private:
  TopkAllgather<MpiCollectives, HostKernels> algorithm_;  // over compressor_'s selection
};

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

// Top-k whose ratio follows the link, in the spirit of Kimad (Xin et al.,
// 2023): each call picks k / n from a smoothed bandwidth (the bytes of the
// earlier calls' allgather over its measured time) and time_target, within
// [min_ratio, max_ratio]; topk_ratio until a measurement arrives. Each
// rank's message leads with its own time for the previous call's allgather,
// so after this call's allgather every rank holds the same p times and makes
// the same update: the ranks agree on k without a message of its own (the
// choice lags the measurement by one call). Error feedback as Topk's.
class AdaptiveTopk final : public ReplayedMean<AdaptiveTopk> {
 public:
  // Seconds from a steady clock; tests inject their own to set what the
  // communicate phase appears to take.
  using Clock = std::function<double()>;
  explicit AdaptiveTopk(const Setup& s, Clock clock = {});
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  // Forgets the residual; the bandwidth estimate describes the link, not the result, and stays.
  void reset() override;
  WireVolume wire() const override;  // of the last call
  nlohmann::json describe() const override;
  // The check replays the last call (its k, no residual): CompressedBackend::validate replays after its call.
  void replay_rank(std::span<const float> x, std::span<float> replay) const override;
  std::size_t k() const { return k_; }  // of the last call
  std::optional<double> bandwidth() const { return bandwidth_.bytes_per_second(); }

 private:
  std::size_t choose_k() const;
  // Bytes of one rank's message for k pairs: the 8-byte time, k indices, k values.
  static std::size_t message_bytes(std::size_t k) { return 8 + 8 * k; }
  Setup setup_;
  RatioRule rule_;
  double start_ratio_;
  bool error_feedback_;
  Clock clock_;
  WireModel wire_model_;
  BandwidthEstimate bandwidth_;
  std::size_t k_ = 0;
  double previous_seconds_ = 0;     // this rank's allgather time of the previous call, sent with this one
  double previous_wire_bytes_ = 0;  // what that allgather moved per rank (0: nothing measured yet)
  std::vector<float> residual_;
  TopkScratch scratch_;
  mutable TopkScratch replay_scratch_;
  std::vector<std::byte> gathered_;  // p messages, sized for max_ratio
  std::vector<SparseList> lists_;
  std::vector<std::size_t> cursors_;
  // The ratio of each call before the first reset() (warm-up, timed and
  // instrumented calls), up to the reserved capacity, for describe().
  std::vector<float> ratios_;
  std::uint64_t logged_calls_ = 0;
  bool logging_ = true;
};

// Hard-threshold sparsification with error feedback (Sahu et al.,
// NeurIPS'21): every entry of x + residual with magnitude >= `threshold` is
// sent as an (index, value) pair; counts vary by rank and call, so an
// allgather of the counts precedes an allgatherv of the pairs; scatter-added
// in rank order, then 1/p. Deterministic: the check replays it bit for bit.
class Threshold final : public ReplayedMean<Threshold> {
 public:
  explicit Threshold(const Setup& s);
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  void reset() override { std::fill(residual_.begin(), residual_.end(), 0.0f); }
  WireVolume wire() const override;
  nlohmann::json describe() const override;
  void replay_rank(std::span<const float> x, std::span<float> replay) const override;
  // What error feedback carries into the next call (for tests).
  std::span<const float> residual() const { return residual_; }

 private:
  Setup setup_;
  float threshold_;
  bool error_feedback_;
  std::vector<float> residual_;
  std::vector<std::uint32_t> indices_;  // this rank's pairs (room for n)
  std::vector<float> values_;
  std::vector<int> counts_, displs_;    // every rank's message in bytes (k indices, then k values)
  std::unique_ptr<std::byte[]> gathered_;  // room for every rank sending all n pairs
  std::vector<SparseList> lists_;
  std::vector<std::size_t> cursors_;
  std::uint64_t sent_total_ = 0;        // pairs sent by all ranks on the last call
};

// EF-signSGD (Karimireddy et al., ICML'19): each rank sends the sign bits of
// p = x + residual and one scale, mean |p|, and keeps p - scale sign(p);
// allgathered, and the mean of the p scaled signs (summed in rank order,
// then 1/p) is the result: an average of compressed vectors, not a vote.
// Deterministic: the check replays it bit for bit.
class EfSign final : public ReplayedMean<EfSign> {
 public:
  explicit EfSign(const Setup& s);
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  void reset() override { std::fill(residual_.begin(), residual_.end(), 0.0f); }
  WireVolume wire() const override;
  nlohmann::json describe() const override;
  void replay_rank(std::span<const float> x, std::span<float> replay) const override;
  // What error feedback carries into the next call (for tests).
  std::span<const float> residual() const { return residual_; }

 private:
  Setup setup_;
  bool error_feedback_;
  std::size_t message_;              // 4-byte scale, then ceil(n / 8) bytes of sign bits
  std::vector<std::byte> gathered_;  // p messages
  std::vector<float> residual_;      // with error feedback; else the input's copy
};

// PowerSGD (Vogels, Karimireddy, Jaggi, NeurIPS'19): x + residual viewed as a
// rows x cols matrix M (low_rank_shape), P = M Q summed by MPI_Allreduce,
// orthonormalised, Q = M^T P summed by a second MPI_Allreduce, result
// P Q^T / p; each rank keeps M - P (M^T P)^T as its residual, and the summed
// Q is the next call's starting Q (warm start). Not bit-reproducible by a
// replay (the float sums are the library's), so the check holds the result to
// the projection of the exact mean onto P's columns, within fp32 rounding.
class PowerSgd final : public Phased<PowerSgd> {
 public:
  explicit PowerSgd(const Setup& s);
  template <class Mark>
  void call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark);
  void reset() override;
  WireVolume wire() const override;
  nlohmann::json describe() const override;
  std::uint64_t violations(std::span<const float> out, const ExactReference& ref) const override;
  // What error feedback carries into the next call (for tests).
  std::span<const float> residual() const { return std::span(matrix_).first(setup_.n); }

 private:
  Setup setup_;
  LowRankShape shape_;
  bool error_feedback_;
  std::size_t full_cols_;        // columns lying wholly inside the n elements
  std::vector<float> matrix_;    // M, then the residual (zero past n)
  std::vector<float> p_;         // rows x rank: summed, then orthonormal
  std::vector<float> q_;         // cols x rank: the sum over ranks, kept for the next call
  std::vector<float> q_local_;   // cols x rank: this rank's M^T P
  std::vector<float> scratch_;   // the QR's
  std::vector<float> tail_;      // the last, partial column of the result
};

}  // namespace pico::compressed
