// SPDX-License-Identifier: BSD-3-Clause
// The kernels of the error-feedback families (compression/kernels/
// threshold_select.cpp, scaled_sign.cpp, low_rank.cpp): what each sends plus what it
// keeps equals what it was given, over many calls and seeds; PowerSGD's
// linear algebra against plain loops, and its QR orthonormal even on
// rank-deficient input.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "compression/kernels/kernels.hpp"
#include "compression_test_inputs.hpp"

namespace pc = pico::compressed;
// Rank 0's input of the seeded generator, normally distributed.
using pc::testing::generated_input;

namespace {

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof(float)) == 0; }

}  // namespace

TEST_CASE("hard threshold: sends exactly |x + r| >= threshold, keeps the rest bit for bit", "[compression]") {
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{17}, std::size_t{5000}}) {
    std::vector<float> residual(n, 0.0f), before(n);
    std::vector<std::uint32_t> indices(n);
    std::vector<float> values(n);
    for (std::uint64_t call = 0; call < 20; ++call) {
      const std::vector<float> x = generated_input(n, 100 + call);
      before = residual;
      const std::size_t k = pc::threshold_select_with_residual(x, residual, 1.5f, indices, values);
      std::size_t j = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const float corrected = x[i] + before[i];
        if (std::fabs(corrected) >= 1.5f) {
          REQUIRE(j < k);
          CHECK(indices[j] == i);
          CHECK(same_bits(values[j], corrected));
          CHECK(residual[i] == 0.0f);
          ++j;
        } else {
          CHECK(same_bits(residual[i], corrected));
        }
      }
      CHECK(j == k);
    }
  }
  const std::vector<float> x = {0.5f, -2.0f, 2.0f, -1.99f, 3.0f};
  std::vector<std::uint32_t> indices(x.size());
  std::vector<float> values(x.size());
  REQUIRE(pc::threshold_select(x, 2.0f, indices, values) == 3);
  CHECK(indices[0] == 1);
  CHECK(indices[1] == 2);
  CHECK(indices[2] == 4);
  CHECK(values[0] == -2.0f);
}

// Error feedback loses nothing, only delays: over many calls of fresh inputs,
// everything sent plus the final residual is everything given, up to the fp32
// rounding of forming x + r (one per call) -- for each of many seeds.
TEST_CASE("error feedback: sum sent + final residual == sum of inputs, over many seeds", "[compression]") {
  const std::size_t n = 4099;
  const int calls = 30;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::vector<double> given(n, 0.0), sent_threshold(n, 0.0), sent_sign(n, 0.0), magnitude(n, 0.0);
    std::vector<float> r_threshold(n, 0.0f), r_sign(n, 0.0f), signed_out(n);
    std::vector<std::uint32_t> indices(n);
    std::vector<float> values(n);
    std::vector<unsigned char> bits((n + 7) / 8);
    for (int c = 0; c < calls; ++c) {
      const std::vector<float> x = generated_input(n, seed * 1000 + static_cast<std::uint64_t>(c));
      for (std::size_t i = 0; i < n; ++i) {
        given[i] += x[i];
        magnitude[i] += std::fabs(x[i]);
      }
      const std::size_t k = pc::threshold_select_with_residual(x, r_threshold, 2.0f, indices, values);
      for (std::size_t j = 0; j < k; ++j) sent_threshold[indices[j]] += values[j];
      const float scale = pc::scaled_sign_with_residual(x, r_sign, bits);
      std::fill(signed_out.begin(), signed_out.end(), 0.0f);
      pc::accumulate_signs(bits, scale, signed_out);
      for (std::size_t i = 0; i < n; ++i) sent_sign[i] += signed_out[i];
    }
    INFO("seed " << seed);
    std::size_t bad_threshold = 0, bad_sign = 0;
    for (std::size_t i = 0; i < n; ++i) {
      // Each call rounds x + r once (and the sign's p - s once); |r| stays O(threshold) and O(scale).
      const double tolerance = 4.0 * calls * FLT_EPSILON * (magnitude[i] + 10.0);
      if (std::fabs(sent_threshold[i] + r_threshold[i] - given[i]) > tolerance) ++bad_threshold;
      if (std::fabs(sent_sign[i] + r_sign[i] - given[i]) > tolerance) ++bad_sign;
    }
    CHECK(bad_threshold == 0);
    CHECK(bad_sign == 0);
  }
}

TEST_CASE("scaled sign: the l1 scale, the signs of x + r, and the residual p - s sign(p)", "[compression]") {
  const std::size_t n = 1003;  // not a multiple of 8
  const std::vector<float> x = generated_input(n, 3);
  std::vector<float> residual = generated_input(n, 4);
  std::vector<float> corrected(n);
  for (std::size_t i = 0; i < n; ++i) corrected[i] = x[i] + residual[i];
  std::vector<unsigned char> bits((n + 7) / 8), expected_bits((n + 7) / 8);
  const float scale = pc::scaled_sign_with_residual(x, residual, bits);
  pc::pack_signs(corrected, expected_bits);
  CHECK(bits == expected_bits);
  double l1 = 0;
  for (const float v : corrected) l1 += std::fabs(static_cast<double>(v));
  CHECK(scale == static_cast<float>(l1 / n));
  std::vector<float> acc(n, 1.0f);
  pc::accumulate_signs(bits, scale, acc);
  for (std::size_t i = 0; i < n; ++i) {
    const float sent = corrected[i] < 0.0f ? -scale : scale;
    CHECK(same_bits(residual[i], corrected[i] - sent));
    CHECK(same_bits(acc[i], 1.0f + sent));
  }
  CHECK(pc::mean_abs(std::vector<float>{}) == 0.0f);
}

TEST_CASE("low rank: the matrix view of n elements", "[compression]") {
  CHECK(pc::low_rank_shape(0, 4).rows == 0);
  for (const std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{15}, std::size_t{16}, std::size_t{17},
                              std::size_t{4099}, std::size_t{4194304}}) {
    const pc::LowRankShape s = pc::low_rank_shape(n, 4);
    INFO("n = " << n);
    CHECK(s.rows * s.rows <= n);
    CHECK((s.rows + 1) * (s.rows + 1) > n);
    CHECK(s.rows <= s.cols);
    CHECK(s.rows * s.cols >= n);
    CHECK(s.rows * s.cols - n < s.rows);
    CHECK(s.rank == std::min<std::size_t>(4, s.rows));
  }
  CHECK(pc::low_rank_shape(4194304, 4).rows == 2048);
}

TEST_CASE("low rank: products against plain loops, QR orthonormal and spanning", "[compression]") {
  const pc::LowRankShape s = pc::low_rank_shape(1000, 3);  // 31 x 33
  const std::vector<float> m = generated_input(s.rows * s.cols, 5), q = generated_input(s.cols * s.rank, 6);
  std::vector<float> p(s.rows * s.rank), back(s.cols * s.rank), out(s.rows * s.cols, 2.0f);
  pc::low_rank_project(s, m, q, p);
  for (std::size_t a = 0; a < s.rows; ++a)
    for (std::size_t k = 0; k < s.rank; ++k) {
      double sum = 0;
      for (std::size_t j = 0; j < s.cols; ++j) sum += static_cast<double>(m[j * s.rows + a]) * q[k * s.cols + j];
      CHECK(p[k * s.rows + a] == Approx(sum).margin(1e-4));
    }
  const std::vector<float> raw = p;
  std::vector<float> scratch(pc::orthonormalize_scratch(s));
  pc::orthonormalize_columns(s, p, scratch);
  auto dot = [&](const std::vector<float>& u, std::size_t k, const std::vector<float>& v, std::size_t l) {
    double d = 0;
    for (std::size_t a = 0; a < s.rows; ++a) d += static_cast<double>(u[k * s.rows + a]) * v[l * s.rows + a];
    return d;
  };
  for (std::size_t k = 0; k < s.rank; ++k) {
    for (std::size_t l = 0; l < s.rank; ++l) CHECK(dot(p, k, p, l) == Approx(k == l ? 1.0 : 0.0).margin(1e-5));
    // raw's column k lies in the span of the orthonormal columns: |projection| == |column|.
    double projected = 0;
    for (std::size_t l = 0; l < s.rank; ++l) projected += dot(p, l, raw, k) * dot(p, l, raw, k);
    CHECK(projected == Approx(dot(raw, k, raw, k)).epsilon(1e-5));
  }
  pc::low_rank_project_back(s, m, p, back);
  for (std::size_t j = 0; j < s.cols; ++j)
    for (std::size_t k = 0; k < s.rank; ++k) {
      double sum = 0;
      for (std::size_t a = 0; a < s.rows; ++a) sum += static_cast<double>(m[j * s.rows + a]) * p[k * s.rows + a];
      CHECK(back[k * s.cols + j] == Approx(sum).margin(1e-4));
    }
  // out = -0.5 p back^T + 1 out, from column 2, 5 columns.
  pc::low_rank_expand(s, p, back, 2, 5, -0.5f, 1.0f, out);
  for (std::size_t j = 0; j < 5; ++j)
    for (std::size_t a = 0; a < s.rows; ++a) {
      double sum = 0;
      for (std::size_t k = 0; k < s.rank; ++k) sum += static_cast<double>(p[k * s.rows + a]) * back[k * s.cols + 2 + j];
      CHECK(out[j * s.rows + a] == Approx(2.0 - 0.5 * sum).margin(1e-4));
    }
}

TEST_CASE("low rank: QR of a zero or rank-deficient P is still orthonormal", "[compression]") {
  const pc::LowRankShape s = pc::low_rank_shape(64, 8);  // 8 x 8, full rank 8
  REQUIRE(s.rank == 8);
  std::vector<float> scratch(pc::orthonormalize_scratch(s));
  for (const bool zero : {true, false}) {
    std::vector<float> p(s.rows * s.rank, 0.0f);
    if (!zero)
      for (std::size_t k = 0; k < s.rank; ++k) p[k * s.rows + 0] = static_cast<float>(k + 1);  // rank 1
    pc::orthonormalize_columns(s, p, scratch);
    for (std::size_t k = 0; k < s.rank; ++k)
      for (std::size_t l = 0; l < s.rank; ++l) {
        double d = 0;
        for (std::size_t a = 0; a < s.rows; ++a) d += static_cast<double>(p[k * s.rows + a]) * p[l * s.rows + a];
        CHECK(d == Approx(k == l ? 1.0 : 0.0).margin(1e-6));
      }
  }
}
