// SPDX-License-Identifier: BSD-3-Clause
// Top-k selection and error feedback (compression/kernels/kernels.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "compression/kernels/kernels.hpp"
#include "compression_test_inputs.hpp"

namespace pc = pico::compressed;
// Rank 0's input of the seeded generator, normally distributed.
using pc::testing::generated_input;

namespace {

// The contract by sorting: largest |x| first, ties to the lower index, then in index order.
std::vector<std::uint32_t> reference_topk(const std::vector<float>& x, std::size_t k) {
  std::vector<std::uint32_t> order(x.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&x](std::uint32_t a, std::uint32_t b) { return std::fabs(x[a]) > std::fabs(x[b]); });
  order.resize(k);
  std::sort(order.begin(), order.end());
  return order;
}

void check_against_reference(const std::vector<float>& x, std::size_t k, pc::TopkScratch& scratch) {
  std::vector<std::uint32_t> indices(k);
  std::vector<float> values(k);
  pc::topk_select(x, k, indices, values, scratch);
  INFO("n = " << x.size() << ", k = " << k);
  REQUIRE(indices == reference_topk(x, k));
  for (std::size_t j = 0; j < k; ++j) {
    REQUIRE(values[j] == x[indices[j]]);
  }
}

}  // namespace

TEST_CASE("topk_select equals a sort-based reference", "[compressed]") {
  pc::TopkScratch scratch;  // shared across calls: reuse must not leak state
  SECTION("random normal inputs, every kind of k") {
    for (const std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{1237}, std::size_t{100003}}) {
      const auto x = generated_input(n, n);
      for (const std::size_t k : {std::size_t{0}, std::size_t{1}, n / 100, n / 2, n - 1, n}) {
        if (k <= n) {
          check_against_reference(x, k, scratch);
        }
      }
    }
  }
  SECTION("ties, signed zeros and equal magnitudes of both signs") {
    std::vector<float> x(5011);
    for (std::size_t i = 0; i < x.size(); ++i) {
      const int v = static_cast<int>((i * 7919) % 5) - 2;  // -2..2
      x[i] = static_cast<float>(v);
    }
    x[17] = -0.0f;
    for (const std::size_t k : {std::size_t{1}, std::size_t{999}, std::size_t{2004}, std::size_t{2005},
                                std::size_t{2006}, std::size_t{4000}, std::size_t{5010}}) {
      check_against_reference(x, k, scratch);
    }
  }
  SECTION("all equal") {
    const std::vector<float> x(333, 0.5f);
    check_against_reference(x, 100, scratch);
    const std::vector<float> zeros(333, 0.0f);
    check_against_reference(zeros, 7, scratch);
  }
  SECTION("ties that differ only in the lowest key bits") {
    std::vector<float> x(4099);
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] = std::nextafter(1.0f, 2.0f * static_cast<float>(i % 3));  // 1 - ulp, 1 + ulp, 1 + ulp
      x[i] = i % 3 == 0 ? 1.0f : x[i];
    }
    for (const std::size_t k : {std::size_t{1}, std::size_t{1366}, std::size_t{2733}, std::size_t{3000}}) {
      check_against_reference(x, k, scratch);
    }
  }
}

TEST_CASE("topk_select rejects k beyond the input", "[compressed]") {
  pc::TopkScratch scratch;
  const std::vector<float> x(4, 1.0f);
  std::vector<std::uint32_t> indices(5);
  std::vector<float> values(5);
  CHECK_THROWS_AS(pc::topk_select(x, 5, indices, values, scratch), std::invalid_argument);
}

TEST_CASE("error feedback conserves mass exactly", "[compressed]") {
  const std::size_t n = 20011;
  const auto x = generated_input(n, 3);
  std::vector<float> residual = generated_input(n, 4);
  std::transform(residual.begin(), residual.end(), residual.begin(), [](float r) { return 0.3f * r; });
  pc::TopkScratch scratch;
  for (int step = 0; step < 3; ++step) {
    std::vector<float> corrected(n);
    pc::add_residual(x, residual, corrected);
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(corrected[i] == x[i] + residual[i]);
    }
    const std::size_t k = n / 50;
    std::vector<std::uint32_t> indices(k);
    std::vector<float> values(k);
    pc::topk_select(corrected, k, indices, values, scratch);
    pc::residual_after_topk(corrected, indices, residual);
    std::vector<float> sent(n, 0.0f);
    pc::scatter_add(indices, values, sent);
    std::size_t zeroed = 0;
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(sent[i] + residual[i] == corrected[i]);
      zeroed += (residual[i] == 0.0f && corrected[i] != 0.0f) ? 1 : 0;
    }
    CHECK(zeroed == k);
  }
}

TEST_CASE("scatter_add accumulates into the dense vector", "[compressed]") {
  std::vector<float> dense{1.0f, 2.0f, 3.0f, 4.0f};
  const std::vector<std::uint32_t> indices{0, 2, 3};
  const std::vector<float> values{0.5f, -3.0f, 10.0f};
  pc::scatter_add(indices, values, dense);
  CHECK(dense == std::vector<float>{1.5f, 2.0f, 0.0f, 14.0f});
}

TEST_CASE("the sampled threshold gives the exact top-k, and falls back when the sample misleads", "[compressed]") {
  const std::size_t n = 262147;  // large enough for the sampled path
  pc::TopkScratch scratch;
  SECTION("normal inputs: the estimate holds, no fallback") {
    const auto x = generated_input(n, 11);
    for (const std::size_t k : {n / 1000, n / 100, n / 20}) {
      check_against_reference(x, k, scratch);
    }
    CHECK(scratch.fallbacks == 0);
  }
  SECTION("large values only between sample points: too few candidates, exact fallback") {
    // The strided sample (stride n / 16384 = 16, offset 8) sees only zeros, so
    // the threshold is the zero key and every element is a candidate: over capacity.
    std::vector<float> x(n, 0.0f);
    for (std::size_t i = 0; i < n; i += 16) x[i] = 1.0f + static_cast<float>(i % 7);
    check_against_reference(x, n / 100, scratch);
    CHECK(scratch.fallbacks == 1);
  }
  SECTION("the sample overestimates: fewer than k candidates, exact fallback") {
    // Sample points (offset 8 of every 16) hold the large values; the rest are small.
    std::vector<float> x(n, 0.001f);
    for (std::size_t i = 8; i < n; i += 16) x[i] = 5.0f + static_cast<float>(i % 5);
    const std::size_t k = n / 100 * 8;  // more than the large values
    check_against_reference(x, k, scratch);
    CHECK(scratch.fallbacks == 1);
  }
  SECTION("ties at the threshold across the whole vector") {
    std::vector<float> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(static_cast<int>((i * 7919) % 97) - 48);
    for (const std::size_t k : {n / 100, n / 97, n / 10}) {
      check_against_reference(x, k, scratch);
    }
  }
}

TEST_CASE("fused top-k with error feedback equals the three separate kernels bit for bit", "[compressed]") {
  for (const std::size_t n : {std::size_t{5003}, std::size_t{262147}}) {  // exact path and sampled path
    const auto x = generated_input(n, 21);
    std::vector<float> residual_fused = generated_input(n, 22);
    std::transform(residual_fused.begin(), residual_fused.end(), residual_fused.begin(),
                   [](float r) { return 0.3f * r; });
    std::vector<float> residual_separate = residual_fused;
    pc::TopkScratch fused_scratch, separate_scratch;
    for (const std::size_t k : {std::size_t{0}, n / 100, n / 100, n / 10, n}) {  // the residual carries over
      INFO("n = " << n << ", k = " << k);
      std::vector<std::uint32_t> fused_indices(k), separate_indices(k);
      std::vector<float> fused_values(k), separate_values(k), corrected(n);
      pc::topk_select_with_residual(x, residual_fused, k, fused_indices, fused_values, fused_scratch);
      pc::add_residual(x, residual_separate, corrected);
      pc::topk_select_exact(corrected, k, separate_indices, separate_values, separate_scratch);
      pc::residual_after_topk(corrected, separate_indices, residual_separate);
      REQUIRE(fused_indices == separate_indices);
      REQUIRE(fused_values == separate_values);
      REQUIRE(std::memcmp(residual_fused.data(), residual_separate.data(), n * sizeof(float)) == 0);
    }
  }
}

TEST_CASE("merge_mean equals zeroing, scatter_add in rank order and scaling, bit for bit", "[compressed]") {
  const std::size_t n = 50021;
  for (const int ranks : {1, 2, 3, 5}) {
    std::vector<std::vector<std::uint32_t>> indices(static_cast<std::size_t>(ranks));
    std::vector<std::vector<float>> values(static_cast<std::size_t>(ranks));
    std::vector<pc::SparseList> lists;
    pc::TopkScratch scratch;
    for (int r = 0; r < ranks; ++r) {
      auto x = generated_input(n, 100 + static_cast<std::uint64_t>(r));
      x[7] = -0.0f;  // a signed zero, and shared large entries so ranks' indices overlap
      x[9] = 50.0f + static_cast<float>(r);
      const std::size_t k = n / 20;
      indices[static_cast<std::size_t>(r)].resize(k);
      values[static_cast<std::size_t>(r)].resize(k);
      pc::topk_select(x, k, indices[static_cast<std::size_t>(r)], values[static_cast<std::size_t>(r)], scratch);
    }
    for (int r = 0; r < ranks; ++r) lists.push_back({indices[static_cast<std::size_t>(r)], values[static_cast<std::size_t>(r)]});
    const float factor = 1.0f / static_cast<float>(ranks);
    std::vector<float> expected(n, 0.0f), merged(n, 123.0f);
    for (const auto& l : lists) pc::scatter_add(l.indices, l.values, expected);
    for (float& v : expected) v *= factor;
    std::vector<std::size_t> cursors(lists.size());
    pc::merge_mean(lists, factor, merged, cursors);
    REQUIRE(std::memcmp(merged.data(), expected.data(), n * sizeof(float)) == 0);
  }
  const std::vector<std::uint32_t> unsorted{3, 2};
  const std::vector<float> two{1.0f, 2.0f};
  const pc::SparseList bad[] = {{unsorted, two}};
  std::vector<float> dense(5);
  std::vector<std::size_t> cursors(1);
  CHECK_THROWS_AS(pc::merge_mean(bad, 1.0f, dense, cursors), std::invalid_argument);
}
