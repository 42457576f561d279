// SPDX-License-Identifier: BSD-3-Clause
// Philox4x32-10 and the Global-QSGD quantisers (compression/kernels/kernels.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "compression/kernels/kernel_isa.hpp"
#include "compression/kernels/kernels.hpp"
#include "compression/kernels/philox_batch.hpp"
#include "compression/kernels/quantize_paths.hpp"
#include "support/input_error.hpp"

#if __has_include(<Random123/philox.h>)
#include <Random123/philox.h>
#undef philox4x32  // Random123's convenience macro would swallow pc::philox4x32 calls
#endif

namespace pc = pico::compressed;

namespace {

// Values spread over [-scale, scale]: zero, both ends, exact levels and
// fractions in between, for `levels` levels.
std::vector<float> probe_values(float scale, int levels) {
  std::vector<float> x;
  for (int j = -levels; j <= levels; ++j) {
    x.push_back(scale * static_cast<float>(j) / static_cast<float>(levels));
  }
  for (int j = 0; j < 97; ++j) {
    x.push_back(scale * (-1.0f + 2.0f * static_cast<float>(j) / 96.0f) * 0.999f);
  }
  return x;
}

// Mean of E[code] * scale / levels over `trials` streams against x, per
// element within 5 sigma (sigma^2 = frac (1 - frac) / trials in level units).
template <typename Code>
int biased_standard_elements(const std::vector<float>& x, float scale, int levels, int trials) {
  std::vector<double> sum(x.size(), 0.0);
  std::vector<Code> codes(x.size());
  for (int t = 0; t < trials; ++t) {
    pc::quantize_standard(x, scale, levels, pc::RandomStream{7, static_cast<std::uint64_t>(t)}, 0,
                          std::span<Code>(codes));
    for (std::size_t i = 0; i < x.size(); ++i) {
      sum[i] += codes[i];
    }
  }
  int biased = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double y = std::fabs(static_cast<double>(x[i])) / scale * levels;
    const double frac = y - std::floor(y);
    const double sigma = std::sqrt(frac * (1.0 - frac) / trials);
    const double mean = std::fabs(sum[i] / trials);
    if (std::fabs(mean - y) > 5.0 * sigma + 1e-4) {
      ++biased;
    }
  }
  return biased;
}

}  // namespace

TEST_CASE("Philox4x32-10 matches the Random123 known-answer vectors", "[compressed]") {
  // Random123 tests/kat_vectors: counter {c0..c3}, key {k0, k1}; here
  // key = (lo, hi) of seed, counter = (lo, hi) of block then of stream.
  struct Kat {
    std::uint64_t seed, stream, block;
    std::uint32_t expected[4];
  };
  const Kat kats[] = {
      {0, 0, 0, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {~0ull, ~0ull, ~0ull, {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {0x299f31d0a4093822ull, 0x0370734413198a2eull, 0x85a308d3243f6a88ull,
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Kat& kat : kats) {
    std::uint32_t out[4];
    pc::philox4x32(kat.seed, kat.stream, kat.block, out);
    for (int w = 0; w < 4; ++w) {
      CHECK(out[w] == kat.expected[w]);
    }
  }
}

TEST_CASE("Philox4x32-10 equals Random123's on many counters and keys", "[compressed]") {
#if __has_include(<Random123/philox.h>)
  // Random123 (Debian librandom123-dev) as the oracle: key {lo, hi} of the
  // seed, counter {lo, hi} of the block then of the stream.
  r123::Philox4x32 random123;
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&state] {  // splitmix64: arbitrary 64-bit seeds, streams and blocks
    state += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  for (int trial = 0; trial < 20000; ++trial) {
    const std::uint64_t seed = next(), stream = next(), block = next();
    const r123::Philox4x32::ctr_type counter = {{static_cast<std::uint32_t>(block),
                                                  static_cast<std::uint32_t>(block >> 32),
                                                  static_cast<std::uint32_t>(stream),
                                                  static_cast<std::uint32_t>(stream >> 32)}};
    const r123::Philox4x32::key_type key = {{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}};
    const auto expected = random123(counter, key);
    std::uint32_t out[4];
    pc::philox4x32(seed, stream, block, out);
    for (int w = 0; w < 4; ++w) REQUIRE(out[w] == expected.v[w]);
  }
#else
  WARN("skipped: Random123 headers absent (apt-get install librandom123-dev, scripts/setup.sh)");
#endif
}

TEST_CASE("Philox batch paths equal the scalar generator", "[compressed]") {
  const std::uint64_t seed = 0x0123456789ABCDEFull;
  const std::uint64_t stream = 0xFEDCBA9876543210ull;
  for (const std::uint64_t first_block : {0ull, 0xFFFFFFF3ull, 12345678901ull}) {
    for (const std::size_t nblocks : {std::size_t{1}, std::size_t{7}, std::size_t{8}, std::size_t{15}, std::size_t{16},
                                      std::size_t{17}, std::size_t{61}}) {
      std::vector<std::uint32_t> expected(4 * nblocks);
      for (std::size_t j = 0; j < nblocks; ++j) {
        pc::philox4x32(seed, stream, first_block + j, expected.data() + 4 * j);
      }
      std::vector<std::uint32_t> words(4 * nblocks);
      pc::detail::philox_words(seed, stream, first_block, nblocks, words.data());
      CHECK(words == expected);
      if (__builtin_cpu_supports("avx2")) {
        std::fill(words.begin(), words.end(), 0u);
        pc::detail::philox_words_avx2(seed, stream, first_block, nblocks, words.data());
        CHECK(words == expected);
      }
      if (__builtin_cpu_supports("avx512f")) {
        std::fill(words.begin(), words.end(), 0u);
        pc::detail::philox_words_avx512(seed, stream, first_block, nblocks, words.data());
        CHECK(words == expected);
      }
    }
  }
}

// Every kernel path this CPU runs (kernel_isa.hpp), whatever PICO_KERNEL_ISA says.
std::vector<pc::KernelIsa> runnable_paths() {
  std::vector<pc::KernelIsa> paths;
  for (const auto isa : {pc::KernelIsa::scalar, pc::KernelIsa::avx2, pc::KernelIsa::avx512})
    if (pc::cpu_runs(isa)) paths.push_back(isa);
  return paths;
}

// The definition written out per element, from the scalar Philox (itself
// tested against Random123 above): what the GPU kernels compute too.
template <typename Code>
Code reference_code(float x, float scale, int levels, pc::RandomStream rng, std::uint64_t index) {
  std::uint32_t words[4];
  pc::philox4x32(rng.seed, rng.stream, index / 4, words);
  const float u = static_cast<float>(words[index % 4] >> 8) / 16777216.0f;
  const float top = static_cast<float>(levels);
  const float magnitude = std::fabs(x);
  const float y = magnitude == scale ? top : magnitude * (top / scale);
  const float floor_y = std::floor(y);
  const float q = std::min(floor_y + (u < y - floor_y ? 1.0f : 0.0f), top);
  return static_cast<Code>(x < 0.0f ? -static_cast<int>(q) : static_cast<int>(q));
}

TEMPLATE_TEST_CASE("every quantiser path gives the reference codes", "[compressed]", std::int8_t, std::int16_t) {
  const int levels = pc::standard_levels(sizeof(TestType) == 1 ? 8 : 16, 3);
  const float scale = 2.5f;
  // Probe values (levels, halfway points, both ends, zeros of both signs)
  // then a smooth spread, long enough for whole 64-element steps and tails.
  std::vector<float> x = probe_values(scale, 9);
  x.push_back(0.0f);
  x.push_back(-0.0f);
  x.push_back(scale);
  x.push_back(-scale);
  x.push_back(std::nextafter(scale, 0.0f));
  while (x.size() < 3000) x.push_back(scale * std::sin(0.37f * static_cast<float>(x.size())));
  const pc::RandomStream rng{0x0123456789ABCDEFull, (std::uint64_t{5} << 32) | 3};
  const pc::detail::StandardLevels l{scale, static_cast<float>(levels) / scale, static_cast<float>(levels)};
  // first_index: block-aligned, mid-block, and with the block counter's low word about to carry.
  for (const std::uint64_t first_index : {0ull, 3ull, 4097ull, 4 * 0xFFFFFFF0ull + 2}) {
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{31}, std::size_t{64}, std::size_t{95},
                                std::size_t{1027}, x.size()}) {
      std::vector<TestType> expected(n);
      for (std::size_t i = 0; i < n; ++i) expected[i] = reference_code<TestType>(x[i], scale, levels, rng, first_index + i);
      for (const auto isa : runnable_paths()) {
        INFO("path " << pc::kernel_isa_name(isa) << ", first_index " << first_index << ", n " << n);
        std::vector<TestType> codes(n, TestType{99});
        pc::detail::quantize_standard_on(isa, x.data(), n, l, rng, first_index, codes.data());
        CHECK(codes == expected);
      }
    }
  }
}

TEMPLATE_TEST_CASE("every dequantiser path scales the codes", "[compressed]", std::int8_t, std::int16_t) {
  std::vector<TestType> sums;
  for (int v = -127; v <= 127; ++v) sums.push_back(static_cast<TestType>(v * (sizeof(TestType) == 1 ? 1 : 211)));
  std::vector<float> expected(sums.size());
  for (std::size_t i = 0; i < sums.size(); ++i) expected[i] = static_cast<float>(sums[i]) * 0.37f;
  for (const auto isa : runnable_paths()) {
    INFO("path " << pc::kernel_isa_name(isa));
    std::vector<float> out(sums.size(), -1.0f);
    pc::detail::dequantize_on(isa, sums.data(), sums.size(), 0.37f, out.data());
    CHECK(out == expected);
  }
}

TEST_CASE("PICO_KERNEL_ISA names a path the CPU runs, or is refused", "[compressed]") {
  CHECK(pc::kernel_isa_from(nullptr) == runnable_paths().back());  // the widest
  CHECK(pc::kernel_isa_from("") == runnable_paths().back());
  CHECK(pc::kernel_isa_from("scalar") == pc::KernelIsa::scalar);
  for (const auto isa : {pc::KernelIsa::avx2, pc::KernelIsa::avx512}) {
    if (pc::cpu_runs(isa)) {
      CHECK(pc::kernel_isa_from(pc::kernel_isa_name(isa)) == isa);
    } else {
      CHECK_THROWS_AS(pc::kernel_isa_from(pc::kernel_isa_name(isa)), pico::InputError);
    }
  }
  try {
    pc::kernel_isa_from("avx3");
    FAIL("avx3 accepted");
  } catch (const pico::InputError& e) {
    CHECK(e.file == "PICO_KERNEL_ISA");
    CHECK(e.message == "unknown kernel path 'avx3'");
    CHECK(e.hint.find("use avx512, avx2 or scalar") != std::string::npos);
  }
}

TEST_CASE("uniform_at is the top 24 bits of word i % 4 of block i / 4", "[compressed]") {
  const pc::RandomStream rng{99, (std::uint64_t{3} << 32) | 5};
  std::vector<float> chunk(1000);
  pc::detail::uniforms_at(rng, 4099, chunk.size(), chunk.data());  // starts mid-block
  for (std::uint64_t i = 4099; i < 4099 + chunk.size(); ++i) {
    std::uint32_t words[4];
    pc::philox4x32(rng.seed, rng.stream, i / 4, words);
    const float expected = static_cast<float>(words[i % 4] >> 8) / 16777216.0f;
    REQUIRE(pc::uniform_at(rng, i) == expected);
    REQUIRE(chunk[i - 4099] == expected);
  }
}

TEST_CASE("standard_levels keeps the sum of all ranks' codes inside the integer", "[compressed]") {
  CHECK(pc::standard_levels(8, 1) == 127);
  CHECK(pc::standard_levels(8, 4) == 31);  // 127/4 rounded up (32) would overflow: 4 * 32 = 128
  CHECK(pc::standard_levels(8, 127) == 1);
  CHECK(pc::standard_levels(8, 128) == 0);
  CHECK(pc::standard_levels(16, 3) == 10922);
  for (const int bits : {8, 16}) {
    const int largest = (1 << (bits - 1)) - 1;
    for (int ranks = 1; ranks <= 64; ++ranks) {
      const int levels = pc::standard_levels(bits, ranks);
      CHECK(ranks * levels <= largest);
      CHECK(ranks * (levels + 1) > largest);
    }
  }
}

TEMPLATE_TEST_CASE("worst case codes of n ranks add up without overflow", "[compressed]", std::int8_t,
                   std::int16_t) {
  constexpr int bits = 8 * sizeof(TestType);
  const std::size_t n = 1031;
  for (int ranks = 1; ranks <= 64; ++ranks) {
    const int levels = pc::standard_levels(bits, ranks);
    for (const float scale : {1.0f, 0.1f, 3.3f, 7.77e-3f, 1e5f}) {
      for (const float sign : {1.0f, -1.0f}) {
        const std::vector<float> x(n, sign * scale);
        std::vector<TestType> sum(n, 0);
        std::vector<TestType> codes(n);
        for (int r = 0; r < ranks; ++r) {
          pc::quantize_standard(x, scale, levels, pc::RandomStream{1, static_cast<std::uint64_t>(r)}, 0,
                                std::span<TestType>(codes));
          for (std::size_t i = 0; i < n; ++i) {
            REQUIRE(codes[i] == static_cast<TestType>(sign * static_cast<float>(levels)));
            sum[i] = static_cast<TestType>(sum[i] + codes[i]);  // wraps if the bound is wrong
          }
        }
        for (std::size_t i = 0; i < n; ++i) {
          REQUIRE(static_cast<int>(sum[i]) == static_cast<int>(sign) * ranks * levels);
        }
      }
    }
  }
}

TEST_CASE("standard dithering is unbiased", "[compressed]") {
  const float scale = 2.5f;
  SECTION("int8") {
    const int levels = pc::standard_levels(8, 4);
    CHECK(biased_standard_elements<std::int8_t>(probe_values(scale, levels), scale, levels, 3000) == 0);
  }
  SECTION("int16") {
    const int levels = pc::standard_levels(16, 1000);
    CHECK(biased_standard_elements<std::int16_t>(probe_values(scale, 40), scale, levels, 3000) == 0);
  }
}

TEST_CASE("standard codes at exact levels decode to exactly those values", "[compressed]") {
  const int levels = pc::standard_levels(8, 2);  // 63
  const float scale = 0.25f * static_cast<float>(levels);  // level j is 0.25 j, exact in float
  std::vector<float> x;
  for (int j = -levels; j <= levels; ++j) {
    x.push_back(0.25f * static_cast<float>(j));
  }
  std::vector<std::int8_t> codes(x.size());
  pc::quantize_standard(x, scale, levels, pc::RandomStream{3, 4}, 0, std::span(codes));
  std::vector<float> decoded(x.size());
  pc::dequantize(std::span<const std::int8_t>(codes), scale / static_cast<float>(levels), decoded);
  CHECK(decoded == x);
}

TEST_CASE("dequantize of summed codes gives the mean over ranks", "[compressed]") {
  const int ranks = 3;
  const int levels = pc::standard_levels(16, ranks);
  const float scale = 1.7f;
  const std::size_t n = 777;
  std::vector<std::int16_t> sums(n, 0);
  std::vector<double> mean_of_decoded(n, 0.0);
  std::vector<std::int16_t> codes(n);
  std::vector<float> x(n);
  for (int r = 0; r < ranks; ++r) {
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = scale * std::sin(static_cast<float>(i * (r + 1)));
    }
    pc::quantize_standard(x, scale, levels, pc::RandomStream{5, static_cast<std::uint64_t>(r)}, 0, std::span(codes));
    for (std::size_t i = 0; i < n; ++i) {
      sums[i] = static_cast<std::int16_t>(sums[i] + codes[i]);
      mean_of_decoded[i] += static_cast<double>(codes[i]) * scale / levels / ranks;
    }
  }
  std::vector<float> mean(n);
  const float factor = scale / static_cast<float>(levels * ranks);
  pc::dequantize(std::span<const std::int16_t>(sums), factor, mean);
  for (std::size_t i = 0; i < n; ++i) {
    REQUIRE(mean[i] == static_cast<float>(sums[i]) * factor);
    REQUIRE(mean[i] == Approx(mean_of_decoded[i]).margin(1e-6));
  }
}

TEST_CASE("quantising in chunks with first_index equals one call", "[compressed]") {
  const std::size_t n = 3001;
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = std::cos(0.37f * static_cast<float>(i));
  }
  const pc::RandomStream rng{11, 12};
  const std::size_t cuts[] = {0, 1001, 2050, n};  // not multiples of 4 or of the internal chunk
  SECTION("standard int8") {
    std::vector<std::int8_t> whole(n), parts(n);
    pc::quantize_standard(x, 1.0f, 31, rng, 0, std::span(whole));
    for (int c = 0; c < 3; ++c) {
      const std::size_t len = cuts[c + 1] - cuts[c];
      pc::quantize_standard(std::span(x).subspan(cuts[c], len), 1.0f, 31, rng, cuts[c],
                            std::span(parts).subspan(cuts[c], len));
    }
    CHECK(parts == whole);
  }
  SECTION("standard int16") {
    std::vector<std::int16_t> whole(n), parts(n);
    pc::quantize_standard(x, 1.0f, 999, rng, 0, std::span(whole));
    for (int c = 0; c < 3; ++c) {
      const std::size_t len = cuts[c + 1] - cuts[c];
      pc::quantize_standard(std::span(x).subspan(cuts[c], len), 1.0f, 999, rng, cuts[c],
                            std::span(parts).subspan(cuts[c], len));
    }
    CHECK(parts == whole);
  }
  SECTION("exponential") {
    std::vector<std::int8_t> whole(n), parts(n);
    pc::quantize_exponential(x, 1.0f, rng, 0, whole);
    for (int c = 0; c < 3; ++c) {
      const std::size_t len = cuts[c + 1] - cuts[c];
      pc::quantize_exponential(std::span(x).subspan(cuts[c], len), 1.0f, rng, cuts[c],
                               std::span(parts).subspan(cuts[c], len));
    }
    CHECK(parts == whole);
  }
}

TEST_CASE("a zero scale gives zero codes", "[compressed]") {
  const std::vector<float> x(10, 0.0f);
  std::vector<std::int8_t> codes(10, 5);
  pc::quantize_standard(x, 0.0f, 31, pc::RandomStream{}, 0, std::span(codes));
  CHECK(codes == std::vector<std::int8_t>(10, 0));
  std::fill(codes.begin(), codes.end(), 5);
  pc::quantize_exponential(x, 0.0f, pc::RandomStream{}, 0, codes);
  CHECK(codes == std::vector<std::int8_t>(10, 0));
}

TEST_CASE("exponential codes at exact levels decode to exactly those values", "[compressed]") {
  const float scale = 3.0f;
  std::vector<float> x{0.0f};
  std::vector<std::int8_t> expected{0};
  for (int e = 1; e <= pc::kExponentLevels; ++e) {
    const float level = scale * std::ldexp(1.0f, -(e - 1));
    x.push_back(level);
    expected.push_back(static_cast<std::int8_t>(e));
    x.push_back(-level);
    expected.push_back(static_cast<std::int8_t>(0x80 | e));
  }
  std::vector<std::int8_t> codes(x.size());
  pc::quantize_exponential(x, scale, pc::RandomStream{8, 9}, 0, codes);
  CHECK(codes == expected);
  std::vector<float> decoded(x.size());
  pc::dequantize_exponential(codes, scale, decoded);
  CHECK(decoded == x);
  std::vector<float> acc(x.size(), 1.0f);
  pc::accumulate_exponential(codes, scale, acc);
  for (std::size_t i = 0; i < x.size(); ++i) {
    CHECK(acc[i] == 1.0f + x[i]);
  }
}

TEST_CASE("exponential dithering is unbiased", "[compressed]") {
  const float scale = 1.5f;
  // Every octave, including values below the smallest level 2^-31.
  std::vector<float> x;
  for (int octave = 0; octave <= 35; ++octave) {
    for (const float m : {1.0f, 1.1f, 1.5f, 1.93f}) {
      const float v = scale * std::ldexp(m, -octave - 1);
      x.push_back(octave % 2 == 0 ? v : -v);
    }
  }
  const int trials = 4000;
  std::vector<double> sum(x.size(), 0.0);
  std::vector<std::int8_t> codes(x.size());
  std::vector<float> decoded(x.size());
  for (int t = 0; t < trials; ++t) {
    pc::quantize_exponential(x, scale, pc::RandomStream{21, static_cast<std::uint64_t>(t)}, 0, codes);
    pc::dequantize_exponential(codes, scale, decoded);
    for (std::size_t i = 0; i < x.size(); ++i) {
      sum[i] += decoded[i];
    }
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    // Neighbouring levels lo <= y <= hi = 2 lo (or 0 and 2^-31 at the bottom): Var = (hi - y)(y - lo).
    const double y = std::fabs(static_cast<double>(x[i])) / scale;
    const double smallest = std::ldexp(1.0, -(pc::kExponentLevels - 1));
    const double lo = y < smallest ? 0.0 : std::ldexp(1.0, std::ilogb(y));
    const double hi = y < smallest ? smallest : 2.0 * lo;
    const double sigma = scale * std::sqrt((hi - y) * (y - lo) / trials);
    INFO("x = " << x[i]);
    CHECK(std::fabs(sum[i] / trials - x[i]) <= 5.0 * sigma + 1e-6 * std::fabs(x[i]));
  }
}

TEST_CASE("random_subset keeps exactly the positions whose uniform is below the fraction", "[compressed]") {
  const std::size_t n = 70001;
  std::vector<float> x(n);
  std::iota(x.begin(), x.end(), 0.0f);
  std::vector<std::uint32_t> indices(n);
  std::vector<float> values(n);
  const pc::RandomStream rng{5, 0xFFFFFFFF00000007ull};
  for (const float keep : {0.0f, 0.01f, 0.3f, 1.0f}) {
    const std::size_t kept = pc::random_subset(x, keep, rng, indices, values);
    std::size_t expected = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (pc::uniform_at(rng, i) < keep) {
        REQUIRE(expected < kept);
        REQUIRE(indices[expected] == i);
        REQUIRE(values[expected] == x[i]);
        ++expected;
      }
    }
    CHECK(kept == expected);
  }
}

TEST_CASE("sign packing, vote counting and the majority", "[compressed]") {
  const std::size_t n = 1003;  // not a multiple of 8
  std::vector<std::uint16_t> counts(n, 0);
  std::vector<int> expected(n, 0);
  std::vector<unsigned char> bits((n + 7) / 8);
  for (int rank = 0; rank < 5; ++rank) {
    std::vector<float> x(n);
    pc::InputSpec spec;
    spec.seed = 40 + static_cast<std::uint64_t>(rank);
    pc::generate_input(spec, rank, x);
    x[3] = -0.0f;  // votes positive
    pc::pack_signs(x, bits);
    pc::count_votes(bits, counts);
    for (std::size_t i = 0; i < n; ++i) expected[i] += x[i] < 0.0f ? 1 : 0;
  }
  std::vector<float> out(n);
  pc::majority_signs(counts, 5, 2.5f, out);
  for (std::size_t i = 0; i < n; ++i) {
    REQUIRE(counts[i] == expected[i]);
    REQUIRE(out[i] == (2 * expected[i] < 5 ? 2.5f : -2.5f));
  }
  const std::vector<std::uint16_t> tie{1, 0, 2};
  std::vector<float> tie_out(3);
  pc::majority_signs(tie, 2, 1.0f, tie_out);
  CHECK(tie_out == std::vector<float>{0.0f, 1.0f, -1.0f});
}
