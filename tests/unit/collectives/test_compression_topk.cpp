// Top-k selection and error feedback (collectives/compressed/kernels.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "collectives/compressed/kernels.hpp"

namespace pc = pico::compressed;

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

std::vector<float> normal_input(std::size_t n, std::uint64_t seed) {
  std::vector<float> x(n);
  pc::InputSpec spec;
  spec.seed = seed;
  pc::generate_input(spec, 0, x);
  return x;
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
      const auto x = normal_input(n, n);
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
  const auto x = normal_input(n, 3);
  std::vector<float> residual = normal_input(n, 4);
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
