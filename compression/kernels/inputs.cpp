// SPDX-License-Identifier: BSD-3-Clause
// Synthetic gradients: unit-variance normal, Laplace or Student-t draws from
// Philox, element i from counter block i / 4 (normal, Laplace) or block i
// (Student-t, see below), so any prefix of a longer vector is the same draws.
//
// Streams: source 0xFFFFFFFF is shared by all ranks, source r is rank r's own;
// the high 32 stream bits count Student-t rejection attempts.
//   identical:   x_r = z_common
//   independent: x_r = z_r
//   correlated:  x_r = sqrt(rho) z_common + sqrt(1 - rho) z_r, so Var = 1 and
//                corr(x_r, x_q) = rho for r != q (exactly Gaussian for normal;
//                for the heavy tails a mix of two draws with the same variance).
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "compression/kernels/kernels.hpp"
#include "compression/kernels/philox_batch.hpp"

namespace pico::compressed {

namespace {

constexpr std::uint64_t kCommonSource = 0xFFFFFFFFu;
constexpr std::size_t kChunk = detail::kUniformChunk;  // a multiple of 4: chunks start on block boundaries

// (w + 1/2) 2^-32: a uniform strictly inside (0, 1), safe for log.
inline double open_uniform(std::uint32_t w) { return (static_cast<double>(w) + 0.5) * 0x1p-32; }

// Box-Muller: words (2p, 2p+1) of a block give the cos and sin normals of
// elements 2p and 2p+1.
void draw_normal(std::uint64_t seed, std::uint64_t source, std::uint64_t first, std::size_t count, float* out) {
  std::array<std::uint32_t, kChunk + 4> words;
  detail::philox_words(seed, source, first / 4, (count + 3) / 4, words.data());
  for (std::size_t p = 0; 2 * p < count; ++p) {
    const double radius = std::sqrt(-2.0 * std::log(open_uniform(words[2 * p])));
    const double angle = 2.0 * std::numbers::pi * open_uniform(words[2 * p + 1]);
    out[2 * p] = static_cast<float>(radius * std::cos(angle));
    if (2 * p + 1 < count) {
      out[2 * p + 1] = static_cast<float>(radius * std::sin(angle));
    }
  }
}

// Laplace(0, b) by inversion, b = 1/sqrt(2) for variance 2 b^2 = 1.
void draw_laplace(std::uint64_t seed, std::uint64_t source, std::uint64_t first, std::size_t count, float* out) {
  std::array<std::uint32_t, kChunk + 4> words;
  detail::philox_words(seed, source, first / 4, (count + 3) / 4, words.data());
  const double b = 1.0 / std::numbers::sqrt2;
  for (std::size_t i = 0; i < count; ++i) {
    const double v = open_uniform(words[i]) - 0.5;  // |v| < 1/2
    const double magnitude = -b * std::log(1.0 - 2.0 * std::fabs(v));
    out[i] = static_cast<float>(v < 0.0 ? -magnitude : magnitude);
  }
}

// Bailey's polar method (Math. Comp. 1994), exact for any real dof > 0: with
// (u, v) uniform in the unit disc, w = u^2 + v^2, t = u sqrt(dof (w^(-2/dof) - 1) / w).
// Acceptance pi/4, so element i draws block i of stream (attempt << 32 | source)
// until accepted. Scaled by sqrt((dof - 2) / dof) to unit variance when dof > 2
// (the variance is infinite otherwise and the draws are left unscaled).
void draw_student_t(std::uint64_t seed, std::uint64_t source, double dof, std::uint64_t first, std::size_t count,
                    float* out) {
  const double unit = dof > 2.0 ? std::sqrt((dof - 2.0) / dof) : 1.0;
  for (std::size_t i = 0; i < count; ++i) {
    for (std::uint64_t attempt = 0;; ++attempt) {
      std::uint32_t w[4];
      philox4x32(seed, (attempt << 32) | source, first + i, w);
      const double u = 2.0 * open_uniform(w[0]) - 1.0;
      const double v = 2.0 * open_uniform(w[1]) - 1.0;
      const double r2 = u * u + v * v;
      if (r2 < 1.0) {
        out[i] = static_cast<float>(unit * u * std::sqrt(dof * (std::pow(r2, -2.0 / dof) - 1.0) / r2));
        break;
      }
    }
  }
}

void draw(const InputSpec& spec, std::uint64_t source, std::uint64_t first, std::size_t count, float* out) {
  switch (spec.distribution) {
    case Distribution::normal:
      draw_normal(spec.seed, source, first, count, out);
      return;
    case Distribution::laplace:
      draw_laplace(spec.seed, source, first, count, out);
      return;
    case Distribution::student_t:
      draw_student_t(spec.seed, source, spec.dof, first, count, out);
      return;
  }
  throw std::invalid_argument("generate_input: unknown distribution");
}

}  // namespace

void generate_input(const InputSpec& spec, int rank, std::span<float> out) {
  if (rank < 0) {
    throw std::invalid_argument("generate_input: rank must be >= 0");
  }
  if (spec.distribution == Distribution::student_t && !(spec.dof > 0.0)) {
    throw std::invalid_argument("generate_input: student_t needs dof > 0");
  }
  if (spec.correlation == Correlation::correlated && !(spec.rho >= 0.0 && spec.rho <= 1.0)) {
    throw std::invalid_argument("generate_input: rho must lie in [0, 1]");
  }
  const auto own = static_cast<std::uint64_t>(rank);
  const float common_weight = static_cast<float>(std::sqrt(spec.rho));
  const float own_weight = static_cast<float>(std::sqrt(1.0 - spec.rho));
  std::array<float, kChunk> own_draws;
  for (std::size_t start = 0; start < out.size(); start += kChunk) {
    const std::size_t count = std::min(kChunk, out.size() - start);
    float* chunk = out.data() + start;
    switch (spec.correlation) {
      case Correlation::identical:
        draw(spec, kCommonSource, start, count, chunk);
        break;
      case Correlation::independent:
        draw(spec, own, start, count, chunk);
        break;
      case Correlation::correlated:
        draw(spec, kCommonSource, start, count, chunk);
        draw(spec, own, start, count, own_draws.data());
        for (std::size_t i = 0; i < count; ++i) {
          chunk[i] = common_weight * chunk[i] + own_weight * own_draws[i];
        }
        break;
    }
  }
}

}  // namespace pico::compressed
