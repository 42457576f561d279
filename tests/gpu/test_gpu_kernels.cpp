// SPDX-License-Identifier: BSD-3-Clause
// The CUDA compression kernels (compression/kernels/gpu/) against the CPU
// kernels: every result must be bit-identical. Needs a CUDA device; without
// one the program prints "SKIP: ..." and exits 77 (CTest: skipped).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <span>
#include <vector>

#include "compression/kernels/gpu/gpu_kernels.hpp"
#include "compression/kernels/kernels.hpp"

namespace pc = pico::compressed;
namespace gpu = pico::compressed::gpu;

namespace {

// A copy of `host` on the device starting `offset` elements into its
// allocation: offset 1 gives pointers that are not 16-byte aligned, the
// kernels' scalar paths.
template <typename T>
struct Placed {
  gpu::DeviceArray<T> storage;
  T* ptr = nullptr;
};

template <typename T>
Placed<T> place(const std::vector<T>& host, std::size_t offset) {
  Placed<T> placed{gpu::DeviceArray<T>(host.size() + offset + 1), nullptr};
  placed.ptr = placed.storage.data() + offset;
  pico::cuda::copy_to_device(placed.ptr, host.data(), host.size(), "upload");
  return placed;
}

template <typename T>
Placed<T> place_filled(std::size_t n, std::size_t offset, T fill) {
  return place(std::vector<T>(n, fill), offset);
}

std::vector<float> normal_input(std::size_t n, std::uint64_t seed) {
  std::vector<float> x(n);
  pc::generate_input(pc::InputSpec{.seed = seed}, 0, x);
  return x;
}

// First position where two float vectors differ in their bits, or -1.
long first_bit_difference(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) {
    return 0;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::bit_cast<std::uint32_t>(a[i]) != std::bit_cast<std::uint32_t>(b[i])) {
      return static_cast<long>(i);
    }
  }
  return -1;
}

template <typename T>
long first_difference(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) {
    return 0;
  }
  const auto mismatch = std::mismatch(a.begin(), a.end(), b.begin());
  return mismatch.first == a.end() ? -1 : static_cast<long>(mismatch.first - a.begin());
}

// Values that hit the quantiser's edges: 0, -0, +-scale, exact levels, just
// below scale, subnormals, then normal draws scaled into [-scale, scale].
std::vector<float> quantizer_input(std::size_t n, float scale, int levels, std::uint64_t seed) {
  std::vector<float> x = normal_input(n, seed);
  float largest = 0.0f;
  for (const float v : x) {
    largest = std::max(largest, std::fabs(v));
  }
  for (float& v : x) {
    v = largest > 0.0f ? v / largest * scale : 0.0f;
  }
  const float edges[] = {0.0f,
                         -0.0f,
                         scale,
                         -scale,
                         std::nextafter(scale, 0.0f),
                         -std::nextafter(scale, 0.0f),
                         scale / static_cast<float>(levels),
                         -3.0f * scale / static_cast<float>(levels),
                         std::numeric_limits<float>::denorm_min(),
                         -std::numeric_limits<float>::min()};
  for (std::size_t j = 0; j < std::size(edges) && j < n; ++j) {
    x[(j * 7919) % n] = edges[j];
  }
  return x;
}

struct Gpu {
  gpu::Stream stream;
  void sync() const { stream.synchronize(); }
  cudaStream_t get() const { return stream.get(); }
};

}  // namespace

TEMPLATE_TEST_CASE("gpu quantize_standard codes equal the CPU's bit for bit", "[gpu]", std::int8_t, std::int16_t) {
  constexpr int kBits = sizeof(TestType) * 8;
  Gpu g;
  const std::size_t sizes[] = {0, 1, 3, 4, 5, 1000, 4099, std::size_t{1} << 20};
  const std::uint64_t first_indices[] = {0, 1, 2, 3, 4, 4097, (std::uint64_t{1} << 33) + 3};
  const int ranks_list[] = {1, 4, 7};
  for (const std::size_t n : sizes) {
    for (const int ranks : ranks_list) {
      const int levels = pc::standard_levels(kBits, ranks);
      const float scale = 2.5f;
      const std::vector<float> x = quantizer_input(n, scale, levels, n + static_cast<std::size_t>(ranks));
      for (const std::uint64_t first_index : first_indices) {
        for (const std::size_t offset : {std::size_t{0}, std::size_t{1}}) {
          if (offset == 1 && n > 5000) {
            continue;  // the unaligned path is per element; small sizes cover it
          }
          INFO("n = " << n << ", levels = " << levels << ", first_index = " << first_index << ", offset = " << offset);
          const pc::RandomStream rng{0x5EEDull + n, (std::uint64_t{3} << 32) | static_cast<std::uint64_t>(ranks)};
          std::vector<TestType> expected(n);
          pc::quantize_standard(x, scale, levels, rng, first_index, std::span<TestType>(expected));
          const auto dx = place(x, offset);
          const auto dscale = place(std::vector<float>{scale}, 0);
          auto dcodes = place_filled<TestType>(n, offset, TestType{99});
          gpu::quantize_standard(dx.ptr, n, dscale.ptr, levels, rng, first_index, dcodes.ptr, g.get());
          g.sync();
          const std::vector<TestType> got = gpu::to_host(dcodes.ptr, n);
          const long at = first_difference(got, expected);
          INFO("first difference at " << at);
          REQUIRE(at == -1);
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("gpu quantize_standard: zero scale or no levels give zero codes, a large n matches", "[gpu]",
                   std::int8_t, std::int16_t) {
  Gpu g;
  const std::size_t n = (std::size_t{1} << 22) + 13;  // several grid-stride steps
  const std::vector<float> x = quantizer_input(n, 1.0f, 31, 5);
  const auto dx = place(x, 0);
  auto dcodes = place_filled<TestType>(n, 0, TestType{7});
  const pc::RandomStream rng{1, 2};
  for (const float scale : {0.0f, 1.0f}) {
    for (const int levels : {0, 31}) {
      INFO("scale = " << scale << ", levels = " << levels);
      std::vector<TestType> expected(n);
      pc::quantize_standard(x, scale, levels, rng, 8, std::span<TestType>(expected));
      const auto dscale = place(std::vector<float>{scale}, 0);
      gpu::quantize_standard(dx.ptr, n, dscale.ptr, levels, rng, 8, dcodes.ptr, g.get());
      g.sync();
      REQUIRE(first_difference(gpu::to_host(dcodes.ptr, n), expected) == -1);
    }
  }
}

TEMPLATE_TEST_CASE("gpu dequantize equals the CPU's with the caller's factor", "[gpu]", std::int8_t, std::int16_t) {
  constexpr int kBits = sizeof(TestType) * 8;
  Gpu g;
  std::mt19937_64 gen(11);
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{17}, std::size_t{1000},
                              std::size_t{4099}, (std::size_t{1} << 20) + 9}) {
    for (const int ranks : {1, 3, 8}) {
      const int levels = pc::standard_levels(kBits, ranks);
      const int bound = levels * ranks;
      std::uniform_int_distribution<int> code(-bound, bound);
      std::vector<TestType> sums(n);
      for (auto& s : sums) {
        s = static_cast<TestType>(code(gen));
      }
      for (const float scale : {3.7f, 1e-30f, 1e-36f, 0.0f}) {  // 1e-36: subnormal products
        for (const std::size_t offset : {std::size_t{0}, std::size_t{1}}) {
          INFO("n = " << n << ", ranks = " << ranks << ", scale = " << scale << ", offset = " << offset);
          const float factor = scale / (static_cast<float>(levels) * static_cast<float>(ranks));
          std::vector<float> expected(n);
          pc::dequantize(std::span<const TestType>(sums), factor, expected);
          const auto dsums = place(sums, offset);
          const auto dscale = place(std::vector<float>{scale}, 0);
          auto dout = place_filled<float>(n, offset, -1.0f);
          gpu::dequantize(dsums.ptr, n, dscale.ptr, levels, ranks, dout.ptr, g.get());
          g.sync();
          REQUIRE(first_bit_difference(gpu::to_host(dout.ptr, n), expected) == -1);
        }
      }
    }
  }
  const auto dscale = place(std::vector<float>{1.0f}, 0);
  CHECK_THROWS_AS(gpu::dequantize(static_cast<const TestType*>(nullptr), 0, dscale.ptr, 0, 1, nullptr, g.get()),
                  std::invalid_argument);
}

TEST_CASE("gpu max_abs equals the CPU's", "[gpu]") {
  Gpu g;
  gpu::MaxAbsWorkspace workspace;
  auto dresult = place_filled<float>(1, 0, -1.0f);
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{5}, std::size_t{1000},
                              std::size_t{4099}, (std::size_t{1} << 20) + 7, (std::size_t{1} << 24) + 1}) {
    std::vector<float> x = normal_input(n, 100 + n);
    for (const int where : {0, 1, 2}) {  // largest magnitude: first, last, negative in the middle
      if (n == 0 && where > 0) {
        continue;
      }
      std::vector<float> y = x;
      if (n > 0) {
        const std::size_t at = where == 0 ? 0 : (where == 1 ? n - 1 : n / 2);
        y[at] = where == 2 ? -123.25f : 77.5f;
      }
      for (const std::size_t offset : {std::size_t{0}, std::size_t{1}, std::size_t{2}}) {
        INFO("n = " << n << ", where = " << where << ", offset = " << offset);
        const auto dx = place(y, offset);
        gpu::max_abs(dx.ptr, n, dresult.ptr, workspace, g.get());
        g.sync();
        const float got = gpu::to_host(dresult.ptr, 1)[0];
        REQUIRE(std::bit_cast<std::uint32_t>(got) == std::bit_cast<std::uint32_t>(pc::max_abs(y)));
      }
    }
  }
  // Only zeros and subnormals.
  const std::vector<float> tiny = {-0.0f, 0.0f, std::numeric_limits<float>::denorm_min(),
                                   -2.0f * std::numeric_limits<float>::denorm_min()};
  const auto dtiny = place(tiny, 0);
  gpu::max_abs(dtiny.ptr, tiny.size(), dresult.ptr, workspace, g.get());
  g.sync();
  CHECK(std::bit_cast<std::uint32_t>(gpu::to_host(dresult.ptr, 1)[0]) ==
        std::bit_cast<std::uint32_t>(pc::max_abs(tiny)));
}

namespace {

// GPU and CPU top-k of x on the same k: same indices and value bits, and the
// compaction counted exactly k.
void require_same_topk(const std::vector<float>& x, std::size_t k, std::size_t offset, gpu::TopkWorkspace& workspace,
                       const Gpu& g) {
  const std::size_t n = x.size();
  INFO("n = " << n << ", k = " << k << ", offset = " << offset);
  std::vector<std::uint32_t> expected_indices(k);
  std::vector<float> expected_values(k);
  pc::TopkScratch scratch;
  pc::topk_select(x, k, expected_indices, expected_values, scratch);

  const auto dx = place(x, offset);
  auto dindices = place_filled<std::uint32_t>(k, 0, 0xDEADBEEFu);
  auto dvalues = place_filled<float>(k, 0, -7.0f);
  const std::vector<std::int64_t> unset{-1};
  pico::cuda::copy_to_device(workspace.selected(), unset.data(), 1, "reset selected count");
  gpu::topk_select(dx.ptr, n, k, dindices.ptr, dvalues.ptr, workspace, g.get());
  g.sync();
  const std::vector<std::uint32_t> indices = gpu::to_host(dindices.ptr, k);
  const std::vector<float> values = gpu::to_host(dvalues.ptr, k);
  const long at = first_difference(indices, expected_indices);
  INFO("first index difference at " << at);
  REQUIRE(at == -1);
  REQUIRE(first_bit_difference(values, expected_values) == -1);
  if (k > 0 && k < n) {
    REQUIRE(gpu::to_host(workspace.selected_count(), 1)[0] == static_cast<std::int64_t>(k));
  }
}

std::vector<std::size_t> interesting_ks(std::size_t n) {
  std::vector<std::size_t> ks = {0, 1, n / 1000, n / 100, n / 2, n > 0 ? n - 1 : 0, n};
  std::sort(ks.begin(), ks.end());
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  return ks;
}

}  // namespace

TEST_CASE("gpu topk_select selects what the CPU selects on random inputs", "[gpu]") {
  Gpu g;
  gpu::TopkWorkspace workspace((std::size_t{1} << 22) + 3);
  for (const std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{1000}, std::size_t{4099},
                              std::size_t{1} << 20, (std::size_t{1} << 22) + 3}) {
    const std::vector<float> x = normal_input(n, 7 * n + 1);
    for (const std::size_t k : interesting_ks(n)) {
      require_same_topk(x, k, 0, workspace, g);
    }
    require_same_topk(x, std::max<std::size_t>(1, n / 10), 1, workspace, g);  // unaligned input
  }
}

TEST_CASE("gpu topk_select breaks ties at the threshold towards the lower index", "[gpu]") {
  Gpu g;
  gpu::TopkWorkspace workspace(std::size_t{1} << 20);
  std::mt19937_64 gen(3);
  std::uniform_int_distribution<int> level(-3, 3);
  for (const std::size_t n : {std::size_t{7}, std::size_t{1000}, std::size_t{5000}, std::size_t{1} << 20}) {
    // Few distinct magnitudes, both signs and both zeros: thousands of ties.
    std::vector<float> few(n);
    for (auto& v : few) {
      const int l = level(gen);
      v = l == 0 ? (gen() % 2 ? 0.0f : -0.0f) : 0.5f * static_cast<float>(l);
    }
    std::vector<float> equal(n, -1.5f);
    std::vector<float> zeros(n, 0.0f);
    for (const std::vector<float>* x : {&few, &equal, &zeros}) {
      for (const std::size_t k : interesting_ks(n)) {
        require_same_topk(*x, k, 0, workspace, g);
      }
      require_same_topk(*x, n / 3 + 1, 1, workspace, g);
      require_same_topk(*x, 1234 % n + 1, 0, workspace, g);
    }
  }
}

TEST_CASE("gpu topk_select rejects what the CPU rejects", "[gpu]") {
  Gpu g;
  gpu::TopkWorkspace workspace(100);
  const auto dx = place(std::vector<float>(200, 1.0f), 0);
  auto dindices = place_filled<std::uint32_t>(200, 0, 0);
  auto dvalues = place_filled<float>(200, 0, 0.0f);
  CHECK_THROWS_AS(gpu::topk_select(dx.ptr, 10, 11, dindices.ptr, dvalues.ptr, workspace, g.get()),
                  std::invalid_argument);
  CHECK_THROWS_AS(gpu::topk_select(dx.ptr, 200, 10, dindices.ptr, dvalues.ptr, workspace, g.get()),
                  std::invalid_argument);
}

TEST_CASE("gpu scatter_add_blocks adds the ranks' pairs in rank order like the CPU", "[gpu]") {
  Gpu g;
  const std::size_t n = 20000;
  const std::size_t k = 3000;  // overlapping selections across ranks
  const int ranks = 5;
  std::vector<std::uint32_t> all_indices;
  std::vector<float> all_values;
  pc::TopkScratch scratch;
  for (int r = 0; r < ranks; ++r) {
    std::vector<float> x = normal_input(n, 1000 + static_cast<std::uint64_t>(r));
    std::vector<std::uint32_t> indices(k);
    std::vector<float> values(k);
    pc::topk_select(x, k, indices, values, scratch);
    all_indices.insert(all_indices.end(), indices.begin(), indices.end());
    all_values.insert(all_values.end(), values.begin(), values.end());
  }
  const std::vector<float> start = normal_input(n, 99);
  std::vector<float> expected = start;
  pc::scatter_add(all_indices, all_values, expected);

  SECTION("two gathered arrays (stride k)") {
    const auto dindices = place(all_indices, 0);
    const auto dvalues = place(all_values, 0);
    auto ddense = place(start, 0);
    gpu::scatter_add_blocks(dindices.ptr, dvalues.ptr, k, ranks, k, ddense.ptr, n, g.get());
    g.sync();
    REQUIRE(first_bit_difference(gpu::to_host(ddense.ptr, n), expected) == -1);
  }
  SECTION("the CPU backend's messages: k indices then k values per rank (stride 2k)") {
    std::vector<std::uint32_t> messages;
    for (int r = 0; r < ranks; ++r) {
      const std::size_t base = static_cast<std::size_t>(r) * k;
      messages.insert(messages.end(), all_indices.begin() + static_cast<long>(base),
                      all_indices.begin() + static_cast<long>(base + k));
      for (std::size_t j = 0; j < k; ++j) {
        messages.push_back(std::bit_cast<std::uint32_t>(all_values[base + j]));
      }
    }
    const auto dmessages = place(messages, 0);
    auto ddense = place(start, 0);
    gpu::scatter_add_blocks(dmessages.ptr, reinterpret_cast<const float*>(dmessages.ptr + k), k, ranks, 2 * k,
                            ddense.ptr, n, g.get());
    g.sync();
    REQUIRE(first_bit_difference(gpu::to_host(ddense.ptr, n), expected) == -1);
  }
  SECTION("one block with scatter_add") {
    std::vector<float> one = start;
    pc::scatter_add(std::span(all_indices).first(k), std::span(all_values).first(k), one);
    const auto dindices = place(all_indices, 0);
    const auto dvalues = place(all_values, 0);
    auto ddense = place(start, 0);
    gpu::scatter_add(dindices.ptr, dvalues.ptr, k, ddense.ptr, n, g.get());
    g.sync();
    REQUIRE(first_bit_difference(gpu::to_host(ddense.ptr, n), one) == -1);
  }
}

TEST_CASE("gpu error feedback and scale equal the CPU's", "[gpu]") {
  Gpu g;
  for (const std::size_t n : {std::size_t{1}, std::size_t{6}, std::size_t{4099}, (std::size_t{1} << 20) + 3}) {
    const std::vector<float> x = normal_input(n, 31 + n);
    std::vector<float> residual = normal_input(n, 37 + n);
    for (auto& v : residual) {
      v *= 1e-3f;
    }
    for (const std::size_t offset : {std::size_t{0}, std::size_t{1}}) {
      INFO("n = " << n << ", offset = " << offset);
      std::vector<float> corrected(n);
      pc::add_residual(x, residual, corrected);
      const auto dx = place(x, offset);
      const auto dresidual = place(residual, offset);
      auto dcorrected = place_filled<float>(n, offset, 0.0f);
      gpu::add_residual(dx.ptr, dresidual.ptr, n, dcorrected.ptr, g.get());
      g.sync();
      REQUIRE(first_bit_difference(gpu::to_host(dcorrected.ptr, n), corrected) == -1);

      // In place: corrected = x + corrected.
      auto dinplace = place(residual, offset);
      gpu::add_residual(dx.ptr, dinplace.ptr, n, dinplace.ptr, g.get());
      g.sync();
      REQUIRE(first_bit_difference(gpu::to_host(dinplace.ptr, n), corrected) == -1);

      const std::size_t k = std::max<std::size_t>(1, n / 100);
      std::vector<std::uint32_t> indices(k);
      std::vector<float> values(k);
      pc::TopkScratch scratch;
      pc::topk_select(corrected, k, indices, values, scratch);
      std::vector<float> expected_residual(n);
      pc::residual_after_topk(corrected, indices, expected_residual);
      const auto dindices = place(indices, 0);
      auto dnew = place_filled<float>(n, offset, 5.0f);
      gpu::residual_after_topk(dcorrected.ptr, n, dindices.ptr, k, dnew.ptr, g.get());
      g.sync();
      REQUIRE(first_bit_difference(gpu::to_host(dnew.ptr, n), expected_residual) == -1);
      gpu::residual_after_topk(dcorrected.ptr, n, dindices.ptr, k, dcorrected.ptr, g.get());  // in place
      g.sync();
      REQUIRE(first_bit_difference(gpu::to_host(dcorrected.ptr, n), expected_residual) == -1);

      for (const float factor : {0.25f, 1.0f / 3.0f, 1.0f / 7.0f}) {
        std::vector<float> scaled = x;
        for (float& v : scaled) {
          v *= factor;
        }
        auto dscaled = place(x, offset);
        gpu::scale(dscaled.ptr, n, factor, g.get());
        g.sync();
        REQUIRE(first_bit_difference(gpu::to_host(dscaled.ptr, n), scaled) == -1);
      }
    }
  }
}

TEST_CASE("gpu Global-QSGD round trip: max_abs, quantize, dequantize chained on the device", "[gpu]") {
  // The backend's sequence with the scale never leaving the device.
  Gpu g;
  const std::size_t n = 100003;
  const int ranks = 4;
  const int levels = pc::standard_levels(8, ranks);
  const std::vector<float> x = normal_input(n, 2024);
  const pc::RandomStream rng{77, (std::uint64_t{2} << 32) | 9};
  const float scale = pc::max_abs(x);
  std::vector<std::int8_t> codes(n);
  pc::quantize_standard(x, scale, levels, rng, 0, std::span<std::int8_t>(codes));
  std::vector<float> expected(n);
  pc::dequantize(std::span<const std::int8_t>(codes), scale / (static_cast<float>(levels) * static_cast<float>(ranks)),
                 expected);

  gpu::MaxAbsWorkspace workspace;
  const auto dx = place(x, 0);
  auto dscale = place_filled<float>(1, 0, 0.0f);
  auto dcodes = place_filled<std::int8_t>(n, 0, 0);
  auto dout = place_filled<float>(n, 0, 0.0f);
  gpu::max_abs(dx.ptr, n, dscale.ptr, workspace, g.get());
  gpu::quantize_standard(dx.ptr, n, dscale.ptr, levels, rng, 0, dcodes.ptr, g.get());
  gpu::dequantize(dcodes.ptr, n, dscale.ptr, levels, ranks, dout.ptr, g.get());
  g.sync();
  REQUIRE(first_difference(gpu::to_host(dcodes.ptr, n), codes) == -1);
  REQUIRE(first_bit_difference(gpu::to_host(dout.ptr, n), expected) == -1);
}

TEST_CASE("gpu kernels equal the CPU's around every power of two from 2^10 to 2^24", "[gpu]") {
  // Sizes just below, at and past each power of two, odd tails, aligned and
  // unaligned: where grid-stride loops, vector paths and staged uploads end.
  Gpu g;
  const std::size_t largest = (std::size_t{1} << 24) + 5;
  const std::vector<float> all = normal_input(largest, 4242);  // any prefix is the shorter input's draws
  const int levels = pc::standard_levels(8, 4);
  const pc::RandomStream rng{99, 7};
  gpu::MaxAbsWorkspace max_workspace;
  gpu::TopkWorkspace topk_workspace(largest);
  pc::TopkScratch scratch;
  for (int p = 10; p <= 24; ++p) {
    for (const long tail : {-1L, 0L, 1L, 3L, 5L}) {
      const std::size_t n = static_cast<std::size_t>(static_cast<long>(std::size_t{1} << p) + tail);
      const std::vector<float> x(all.begin(), all.begin() + static_cast<long>(n));
      const float scale = pc::max_abs(x);
      std::vector<std::int8_t> codes(n);
      pc::quantize_standard(x, scale, levels, rng, 3, std::span<std::int8_t>(codes));
      std::vector<float> decoded(n);
      pc::dequantize(std::span<const std::int8_t>(codes), scale / (static_cast<float>(levels) * 4.0f), decoded);
      std::vector<float> scaled = x;
      for (float& v : scaled) v *= 1.0f / 3.0f;
      std::vector<float> doubled(n);
      pc::add_residual(x, x, doubled);
      for (const std::size_t offset : {std::size_t{0}, std::size_t{1}}) {
        INFO("n = 2^" << p << " + " << tail << ", offset = " << offset);
        const auto dx = place(x, offset);
        auto dscale = place_filled<float>(1, 0, -1.0f);
        gpu::max_abs(dx.ptr, n, dscale.ptr, max_workspace, g.get());
        auto dcodes = place_filled<std::int8_t>(n, offset, 99);
        gpu::quantize_standard(dx.ptr, n, dscale.ptr, levels, rng, 3, dcodes.ptr, g.get());
        auto ddecoded = place_filled<float>(n, offset, -1.0f);
        gpu::dequantize(dcodes.ptr, n, dscale.ptr, levels, 4, ddecoded.ptr, g.get());
        auto dscaled = place(x, offset);
        gpu::scale(dscaled.ptr, n, 1.0f / 3.0f, g.get());
        auto ddoubled = place_filled<float>(n, offset, 0.0f);
        gpu::add_residual(dx.ptr, dx.ptr, n, ddoubled.ptr, g.get());
        g.sync();
        REQUIRE(gpu::to_host(dscale.ptr, 1).front() == scale);
        REQUIRE(first_difference(gpu::to_host(dcodes.ptr, n), codes) == -1);
        REQUIRE(first_bit_difference(gpu::to_host(ddecoded.ptr, n), decoded) == -1);
        REQUIRE(first_bit_difference(gpu::to_host(dscaled.ptr, n), scaled) == -1);
        REQUIRE(first_bit_difference(gpu::to_host(ddoubled.ptr, n), doubled) == -1);
      }
      if (tail == 1) {  // top-k once per power: its CPU twin is the slow part
        const std::size_t k = std::max<std::size_t>(1, n / 100);
        std::vector<std::uint32_t> indices(k);
        std::vector<float> values(k);
        pc::topk_select(x, k, indices, values, scratch);
        const auto dx = place(x, 1);
        auto dindices = place_filled<std::uint32_t>(k, 0, 0u);
        auto dvalues = place_filled<float>(k, 0, 0.0f);
        gpu::topk_select(dx.ptr, n, k, dindices.ptr, dvalues.ptr, topk_workspace, g.get());
        g.sync();
        INFO("top-k of n = 2^" << p << " + 1");
        REQUIRE(first_difference(gpu::to_host(dindices.ptr, k), indices) == -1);
        REQUIRE(first_bit_difference(gpu::to_host(dvalues.ptr, k), values) == -1);
      }
    }
  }
}

int main(int argc, char** argv) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::printf("SKIP: no CUDA device (%s)\n",
                status != cudaSuccess ? cudaGetErrorString(status) : "cudaGetDeviceCount reports 0 devices");
    return 77;
  }
  const int failed = Catch::Session().run(argc, argv);
  return failed == 77 ? 1 : failed;  // 77 means "skipped" to CTest
}
