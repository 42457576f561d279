// SPDX-License-Identifier: BSD-3-Clause
// The compression kernels on several threads per rank (kernel_threads.hpp):
// every kernel gives one thread's result bit for bit, the stochastic ones
// included (their draws are indexed by position, not by thread), for sizes
// that do not divide evenly among the parts.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "compression/kernels/kernel_threads.hpp"
#include "compression/kernels/kernels.hpp"
#include "compression_test_inputs.hpp"

namespace pc = pico::compressed;

namespace {

std::vector<float> input(std::size_t n, std::uint64_t seed, pc::Distribution d = pc::Distribution::normal) {
  return pc::testing::generated_input(n, seed, d);
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// What each kernel computes for one input, on however many threads are set.
struct Results {
  float max_abs = 0;
  std::vector<std::int8_t> codes8, exponential;
  std::vector<std::int16_t> codes16;
  std::vector<float> dequantized8, dequantized16, decoded, accumulated, corrected, residual_copy;
  std::vector<std::uint32_t> topk_indices, fed_back_indices;
  std::vector<float> topk_values, fed_back_values, residual;
};

Results run_kernels(const std::vector<float>& x, std::size_t k) {
  const std::size_t n = x.size();
  const pc::RandomStream rng{11, 3};
  Results r;
  r.max_abs = pc::max_abs(x);
  r.codes8.resize(n);
  r.codes16.resize(n);
  pc::quantize_standard(x, r.max_abs, 31, rng, 5, std::span(r.codes8));
  pc::quantize_standard(x, r.max_abs, 8191, rng, 5, std::span(r.codes16));
  r.dequantized8.resize(n);
  r.dequantized16.resize(n);
  pc::dequantize(std::span<const std::int8_t>(r.codes8), 0.37f, r.dequantized8);
  pc::dequantize(std::span<const std::int16_t>(r.codes16), 0.0013f, r.dequantized16);
  r.exponential.resize(n);
  pc::quantize_exponential(x, r.max_abs, rng, 9, r.exponential);
  r.decoded.resize(n);
  pc::dequantize_exponential(r.exponential, r.max_abs, r.decoded);
  r.accumulated = x;
  pc::accumulate_exponential(r.exponential, r.max_abs, r.accumulated);
  r.corrected.resize(n);
  pc::add_residual(x, r.decoded, r.corrected);

  pc::TopkScratch scratch;
  r.topk_indices.resize(k);
  r.topk_values.resize(k);
  pc::topk_select(x, k, r.topk_indices, r.topk_values, scratch);
  r.residual_copy.resize(n);
  pc::residual_after_topk(x, r.topk_indices, r.residual_copy);
  // Three calls of error feedback, the residual carried as between calls.
  r.residual.assign(n, 0.0f);
  r.fed_back_indices.resize(k);
  r.fed_back_values.resize(k);
  for (int call = 0; call < 3; ++call)
    pc::topk_select_with_residual(x, r.residual, k, r.fed_back_indices, r.fed_back_values, scratch);
  return r;
}

void check_same(const Results& a, const Results& b) {
  CHECK(std::memcmp(&a.max_abs, &b.max_abs, sizeof(float)) == 0);
  CHECK(same_bits(a.codes8, b.codes8));
  CHECK(same_bits(a.codes16, b.codes16));
  CHECK(same_bits(a.dequantized8, b.dequantized8));
  CHECK(same_bits(a.dequantized16, b.dequantized16));
  CHECK(same_bits(a.exponential, b.exponential));
  CHECK(same_bits(a.decoded, b.decoded));
  CHECK(same_bits(a.accumulated, b.accumulated));
  CHECK(same_bits(a.corrected, b.corrected));
  CHECK(same_bits(a.topk_indices, b.topk_indices));
  CHECK(same_bits(a.topk_values, b.topk_values));
  CHECK(same_bits(a.residual_copy, b.residual_copy));
  CHECK(same_bits(a.fed_back_indices, b.fed_back_indices));
  CHECK(same_bits(a.fed_back_values, b.fed_back_values));
  CHECK(same_bits(a.residual, b.residual));
}

}  // namespace

TEST_CASE("kernel threads: parts cover the vector in order, grain-aligned", "[compression][threads]") {
  const pc::ScopedKernelThreads threads(3);
  CHECK(pc::parts_for(0) == 1);
  CHECK(pc::parts_for(pc::kMinPartElements) == 1);  // too small to share
  CHECK(pc::parts_for(2 * pc::kMinPartElements + 1) == 3);
  CHECK(pc::parts_for(100 * pc::kMinPartElements) == 3);
  const std::size_t n = 3 * pc::kMinPartElements + 77;
  std::size_t next = 0;
  for (int part = 0; part < 3; ++part) {
    const pc::PartRange r = pc::part_range(n, 3, part);
    CHECK(r.begin == next);
    CHECK(r.begin % pc::kPartGrain == 0);
    CHECK(r.end > r.begin);
    next = r.end;
  }
  CHECK(next == n);
}

TEST_CASE("kernel threads: a bad count is refused and the setting restored", "[compression][threads]") {
  CHECK(pc::kernel_threads() == 1);  // the default: one thread unless asked
  CHECK_THROWS_AS(pc::set_kernel_threads(0), std::invalid_argument);
  CHECK_THROWS_AS(pc::set_kernel_threads(pc::kMaxKernelThreads + 1), std::invalid_argument);
  {
    const pc::ScopedKernelThreads threads(4);
    CHECK(pc::kernel_threads() == 4);
  }
  CHECK(pc::kernel_threads() == 1);
}

TEST_CASE("kernel threads: every kernel's result is one thread's, bit for bit", "[compression][threads]") {
  // Sizes past the sampled top-k threshold (65536), none a multiple of the grain.
  for (const std::size_t n : {std::size_t{1000}, std::size_t{200003}, std::size_t{333331}}) {
    for (const auto d : {pc::Distribution::normal, pc::Distribution::student_t}) {
      const std::vector<float> x = input(n, 17 + n, d);
      const std::size_t k = n / 100 + 1;
      const Results one = run_kernels(x, k);
      for (const int t : {2, 3, 4, 7}) {
        INFO("n = " << n << ", threads = " << t);
        const pc::ScopedKernelThreads threads(t);
        check_same(one, run_kernels(x, k));
      }
    }
  }
}

TEST_CASE("kernel threads: an exception in a part reaches the caller", "[compression][threads]") {
  const pc::ScopedKernelThreads threads(2);
  std::atomic<int> calls = 0;
  CHECK_THROWS_AS(pc::in_parts(4 * pc::kMinPartElements,
                               [&](int part, std::size_t, std::size_t) {
                                 ++calls;
                                 if (part == 1) throw std::runtime_error("part 1");
                               }),
                  std::runtime_error);
  CHECK(calls == 2);
}
