// SPDX-License-Identifier: BSD-3-Clause
// Global-QSGD with standard dithering (generic/global_qsgd.hpp, on the MPI
// library's allreduce or a reference one) (Xin, Canini, Richtarik et al. 2023):
// one MAX-allreduce gives every rank the same scale M, so b-bit codes with
// s = floor((2^(b-1)-1)/p) levels add up in a plain integer SUM allreduce
// without overflow (|sum| <= p s), decoded once: mean = sum M / (s p).
// Rounding is unbiased; each rank's error is below M/s per element with
// variance at most (M/s)^2/4, so the mean's MSE is at most (M/s)^2 / (4p).
//
// "pipelined" (global_qsgd_pipelined): the scale still comes first, from the
// one cheap MAX-allreduce of a float, so every chunk shares the global M and
// the error is exactly global_qsgd's (each element's random draw is indexed
// by its position in the whole vector, so the codes, and the result, are the
// same bits). Then chunk c is quantised while chunks < c are in flight
// (MPI_Iallreduce each, in order), and chunk c is decoded as soon as its sum
// has arrived while later chunks are still in flight. Per-chunk scales would
// spare the MAX-allreduce's latency (a few tens of microseconds) but give
// each chunk its own M_c <= M, so the codes of different ranks would no longer
// share a scale unless it were agreed per chunk, one more latency each.
#include <algorithm>
#include <climits>
#include <stdexcept>

#include <fmt/format.h>

#include "backends/reference/reference_backend.hpp"
#include "collectives/reference/table.hpp"
#include "compression/families/global_qsgd.hpp"
#include "compression/kernels/kernels.hpp"

namespace pico::compressed {

template <class Code>
ReferenceSumCollectives<Code>::ReferenceSumCollectives(const Setup& s, const std::string& algorithm)
    : MpiCollectives(s.comm, s.rank, s.np),
      entry_(reference::find_algorithm<Transport>(Collective::allreduce, algorithm)),
      transport_(s.comm, sizeof(Code) == 1 ? Dtype::int8 : Dtype::int16, sizeof(Code) == 1 ? MPI_INT8_T : MPI_INT16_T,
                 Op::sum) {
  if (entry_ == nullptr) throw std::invalid_argument("no reference allreduce '" + algorithm + "'");
  if (entry_->traits.segmented) segment_ = ReferenceBackend::kDefaultSegmentBytes / sizeof(Code);
  transport_.reserve(entry_->traits.scratch(s.n, s.np, segment_), 2 * static_cast<std::size_t>(s.np));
}

template <class Code>
void ReferenceSumCollectives<Code>::allreduce_sum(Code* codes, std::size_t n) {
  entry_->run(transport_, reference::CallArgs{.send = nullptr,
                                              .recv = codes,
                                              .count = n,
                                              .root = 0,
                                              .in_place = true,
                                              .segment = segment_});
}

template <class Code>
GlobalQsgd<Code>::GlobalQsgd(const Setup& s, std::string communicate)
    : setup_(s), communicate_(std::move(communicate)), levels_(standard_levels(kBits, s.np)) {
  if (levels_ < 1)
    throw std::invalid_argument(fmt::format("{}-bit codes cannot hold the sum of {} ranks without overflow; use "
                                            "bits: [16] or fewer ranks",
                                            kBits, s.np));
  if (communicate_ == "pipelined") {
    chunks_ = static_cast<std::size_t>(s.param("chunks", 8));
    if (chunks_ < 1 || chunks_ > 4096) throw std::invalid_argument("chunks must be between 1 and 4096");
    chunks_ = std::min(chunks_, std::max<std::size_t>(1, s.n));
    requests_.assign(chunks_, MPI_REQUEST_NULL);
    codes_.resize(s.n);
  } else if (communicate_ == "library") {
    library_.emplace(MpiCollectives(s.comm, s.rank, s.np), HostKernels{}, s.n, s.seed, levels_);
  } else {
    by_reference_.emplace(ReferenceSumCollectives<Code>(s, communicate_), HostKernels{}, s.n, s.seed, levels_);
  }
}

template <class Code>
MPI_Datatype GlobalQsgd<Code>::mpi_type() {
  return kBits == 8 ? MPI_INT8_T : MPI_INT16_T;
}

template <class Code>
template <class Mark>
void GlobalQsgd<Code>::call(std::span<const float> in, std::span<float> out, std::uint64_t call, Mark mark) {
  if (library_) {
    library_->call(in.data(), out.data(), call, mark);
  } else if (by_reference_) {
    by_reference_->call(in.data(), out.data(), call, mark);
  } else {
    call_pipelined(in, out, call, mark);
  }
}

namespace {
// Elements quantised or decoded between two progress calls: small enough that
// a posted chunk's next round starts soon, large enough that MPI_Testall costs nothing.
constexpr std::size_t kProgressPiece = std::size_t{1} << 16;
}  // namespace

template <class Code>
void GlobalQsgd<Code>::progress() {
  int done = 0;
  MPI_Testall(posted_, requests_.data(), &done, MPI_STATUSES_IGNORE);
}

template <class Code>
template <class Mark>
void GlobalQsgd<Code>::call_pipelined(std::span<const float> in, std::span<float> out, std::uint64_t call,
                                      Mark& mark) {
  mark("norm");
  const float local = max_abs(in);
  MPI_Allreduce(&local, &scale_, 1, MPI_FLOAT, MPI_MAX, setup_.comm);
  const RandomStream rng{setup_.seed, rank_stream(setup_.rank, call)};
  const std::size_t n = in.size();
  const std::size_t chunk = (n + chunks_ - 1) / chunks_;
  posted_ = 0;
  for (std::size_t first = 0; first < n; first += chunk) {
    const std::size_t count = std::min(chunk, n - first);
    mark("compress");
    for (std::size_t piece = 0; piece < count; piece += kProgressPiece) {
      const std::size_t len = std::min(kProgressPiece, count - piece);
      quantize_standard(in.subspan(first + piece, len), scale_, levels_, rng, first + piece,
                        std::span<Code>(codes_).subspan(first + piece, len));
      progress();
    }
    mark("communicate");
    MPI_Iallreduce(MPI_IN_PLACE, codes_.data() + first, static_cast<int>(count), mpi_type(), MPI_SUM, setup_.comm,
                   &requests_[static_cast<std::size_t>(posted_++)]);
  }
  const float factor = scale_ / (static_cast<float>(levels_) * static_cast<float>(setup_.np));
  int c = 0;
  for (std::size_t first = 0; first < n; first += chunk, ++c) {
    const std::size_t count = std::min(chunk, n - first);
    mark("communicate");  // only the wait that compression did not hide
    MPI_Wait(&requests_[static_cast<std::size_t>(c)], MPI_STATUS_IGNORE);
    mark("decompress");
    for (std::size_t piece = 0; piece < count; piece += kProgressPiece) {
      const std::size_t len = std::min(kProgressPiece, count - piece);
      dequantize(std::span<const Code>(codes_).subspan(first + piece, len), factor, out.subspan(first + piece, len));
      if (c + 1 < posted_) progress();
    }
  }
}

template <class Code>
WireVolume GlobalQsgd<Code>::wire() const {
  const double codes = static_cast<double>(setup_.n) * sizeof(Code);
  // The scale travels in its own 4-byte allreduce (log2 p messages at most).
  return {codes + 4.0, 2.0 * (setup_.np - 1) / setup_.np * codes + 4.0};
}

template <class Code>
nlohmann::json GlobalQsgd<Code>::describe() const {
  nlohmann::json d{{"bits", kBits}, {"levels", levels_}, {"communicate", communicate_}};
  if (chunks_ > 0) d["chunks"] = chunks_;
  return d;
}

// Each rank's code is within one level (M/s) of its value, so the mean is too
// (plus fp32 rounding of the decode).
template <class Code>
std::uint64_t GlobalQsgd<Code>::violations(std::span<const float> out, const ExactReference& ref) const {
  const double step = static_cast<double>(ref.scale) / levels_;
  return count_beyond(out, ref, [&](std::size_t) { return step * (1 + 1e-5) + 1e-30; });
}

template <class Code>
std::optional<double> GlobalQsgd<Code>::mse_bound(const ExactReference& ref) const {
  const double step = static_cast<double>(ref.scale) / levels_;
  return step * step / (4.0 * setup_.np);
}

template class ReferenceSumCollectives<std::int8_t>;
template class ReferenceSumCollectives<std::int16_t>;
template class GlobalQsgd<std::int8_t>;
template class GlobalQsgd<std::int16_t>;

}  // namespace pico::compressed
