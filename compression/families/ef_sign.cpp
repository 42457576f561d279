// SPDX-License-Identifier: BSD-3-Clause
// EF-signSGD (Karimireddy, Rebjock, Stich, Jaggi, "Error feedback fixes
// SignSGD and other gradient compression schemes", ICML'19): each rank
// compresses p = x + e to (||p||_1 / n) sign(p) and keeps e = p - that, so
// what the sign loses is sent later. The compressed vectors are averaged (not
// voted on, unlike sign_majority): allgather of the bits and the scale,
// (p-1) (n/8 + 4) bytes per rank as sign_majority, then p passes adding
// +-scale in rank order, and 1/p. Biased in one call; with error feedback the
// average over calls converges to the mean.
#include <climits>
#include <cstring>
#include <stdexcept>

#include "compression/families/ef_sign.hpp"

namespace pico::compressed {

EfSign::EfSign(const Setup& s)
    : ReplayedMean(s.np),
      setup_(s),
      error_feedback_(s.param("error_feedback", 1) != 0),
      message_(4 + (s.n + 7) / 8),
      gathered_(message_ * static_cast<std::size_t>(s.np)),
      residual_(s.n, 0.0f) {
  if (message_ * static_cast<std::size_t>(s.np) > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("the gathered sign bits would exceed MPI's int count range");
}

template <class Mark>
void EfSign::call(std::span<const float> in, std::span<float> out, std::uint64_t, Mark mark) {
  mark("compress");
  if (!error_feedback_) std::fill(residual_.begin(), residual_.end(), 0.0f);  // no memory: p = x
  std::byte* mine = gathered_.data() + message_ * static_cast<std::size_t>(setup_.rank);
  const float my_scale =
      scaled_sign_with_residual(in, residual_, {reinterpret_cast<unsigned char*>(mine + 4), message_ - 4});
  std::memcpy(mine, &my_scale, 4);
  mark("communicate");
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gathered_.data(), static_cast<int>(message_), MPI_BYTE,
                setup_.comm);
  mark("decompress");
  std::fill(out.begin(), out.end(), 0.0f);
  for (int r = 0; r < setup_.np; ++r) {
    const std::byte* m = gathered_.data() + message_ * static_cast<std::size_t>(r);
    float scale = 0;
    std::memcpy(&scale, m, 4);
    accumulate_signs({reinterpret_cast<const unsigned char*>(m + 4), message_ - 4}, scale, out);
  }
  scale_by(out, 1.0f / static_cast<float>(setup_.np));
}

// The first call after reset: p = x + 0 = x, so the same scale and bits.
void EfSign::replay_rank(std::span<const float> x, std::span<float> replay) const {
  std::vector<unsigned char> bits((x.size() + 7) / 8);
  pack_signs(x, bits);
  accumulate_signs(bits, mean_abs(x), replay);
}

WireVolume EfSign::wire() const {
  const double message = static_cast<double>(message_);
  return {message, (setup_.np - 1) * message};
}

nlohmann::json EfSign::describe() const {
  return {{"bits", 1}, {"scale", "mean |x + residual| per rank"}, {"error_feedback", error_feedback_}};
}

}  // namespace pico::compressed
