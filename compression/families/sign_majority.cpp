// SPDX-License-Identifier: BSD-3-Clause
// signSGD with majority vote (Bernstein, Zhao, Azizzadenesheli, Anandkumar,
// ICLR'19): each rank sends sign(x) as bits and one scale, mean |x| (the
// l1-scaled sign of EF-signSGD, Karimireddy et al., ICML'19, without its
// error feedback); every rank counts the votes per element and returns the
// mean scale times the majority sign. 1 bit per element plus 32 per rank, sent
// by an allgather: (p-1) (n/8 + 4) bytes per rank, below a dense
// reduce-scatter + allgather (2 (p-1)/p 4n) up to p = 64. Biased: it keeps
// only the direction that most ranks agree on.
#include <climits>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "compression/families/sign_majority.hpp"

namespace pico::compressed {
namespace {

// mean |x| in double, rounded once to float: the same bits in the call and the replay.
float sign_scale(std::span<const float> x) {
  double l1 = 0;
  for (const float v : x) l1 += std::fabs(static_cast<double>(v));
  return x.empty() ? 0.0f : static_cast<float>(l1 / static_cast<double>(x.size()));
}

bool is_negative_vote(float v) { return v < 0.0f; }  // zero and -0 vote positive, as pack_signs

}  // namespace

SignMajority::SignMajority(const Setup& s)
    : setup_(s), message_(4 + (s.n + 7) / 8), gathered_(message_ * static_cast<std::size_t>(s.np)), negative_(s.n) {
  if (s.np > 65535) throw std::invalid_argument("sign majority counts votes in 16 bits");
  if (message_ * static_cast<std::size_t>(s.np) > static_cast<std::size_t>(INT_MAX))
    throw std::invalid_argument("the gathered sign bits would exceed MPI's int count range");
}

template <class Mark>
void SignMajority::call(std::span<const float> in, std::span<float> out, std::uint64_t, Mark mark) {
  mark("compress");
  std::byte* mine = gathered_.data() + message_ * static_cast<std::size_t>(setup_.rank);
  const float my_scale = sign_scale(in);
  std::memcpy(mine, &my_scale, 4);
  pack_signs(in, {reinterpret_cast<unsigned char*>(mine + 4), message_ - 4});
  mark("communicate");
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gathered_.data(), static_cast<int>(message_), MPI_BYTE,
                setup_.comm);
  mark("decompress");
  std::fill(negative_.begin(), negative_.end(), std::uint16_t{0});
  float scale_sum = 0;
  for (int r = 0; r < setup_.np; ++r) {
    const std::byte* m = gathered_.data() + message_ * static_cast<std::size_t>(r);
    float s = 0;
    std::memcpy(&s, m, 4);
    scale_sum += s;
    count_votes({reinterpret_cast<const unsigned char*>(m + 4), message_ - 4}, negative_);
  }
  majority_signs(negative_, setup_.np, scale_sum / static_cast<float>(setup_.np), out);
}

void SignMajority::replay_rank(std::span<const float> x, std::span<float> replay) const {
  replay_scale_sum_ += sign_scale(x);
  for (std::size_t i = 0; i < x.size(); ++i) replay[i] += is_negative_vote(x[i]) ? 1.0f : 0.0f;
}

void SignMajority::finish_replay(std::span<float> replay) const {
  const float scale = replay_scale_sum_ / static_cast<float>(setup_.np);
  replay_scale_sum_ = 0;
  std::vector<std::uint16_t> negative(replay.size());
  for (std::size_t i = 0; i < replay.size(); ++i) negative[i] = static_cast<std::uint16_t>(replay[i]);
  majority_signs(negative, setup_.np, scale, replay);
}

WireVolume SignMajority::wire() const {
  const double message = static_cast<double>(message_);
  return {message, (setup_.np - 1) * message};
}

}  // namespace pico::compressed
