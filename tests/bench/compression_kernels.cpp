// pico-kernel-bench: throughput of the compressed-allreduce kernels on one
// core, in GB/s of float32 input (1 GB = 1e9 bytes, bytes = 4 n), median of
// --reps repetitions. Rates come from the thread's CPU time (robust on a
// shared machine, where wall time also counts the other processes' slices)
// and from wall time. Usage: pico-kernel-bench [--reps N] [--sizes N,N,...] [--json]
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "collectives/compressed/kernels.hpp"
#include "collectives/compressed/philox_batch.hpp"

namespace pc = pico::compressed;

namespace {

struct Options {
  int reps = 11;
  std::vector<std::size_t> sizes{std::size_t{4} << 20, std::size_t{64} << 20};
  bool json = false;
};

Options parse_options(int argc, char** argv) {
  Options options;
  for (int a = 1; a < argc; ++a) {
    const std::string_view arg = argv[a];
    if (arg == "--json") {
      options.json = true;
    } else if (arg == "--reps" && a + 1 < argc) {
      options.reps = std::max(1, std::atoi(argv[++a]));
    } else if (arg == "--sizes" && a + 1 < argc) {
      options.sizes.clear();
      for (const char* p = argv[++a]; *p != '\0';) {
        char* end = nullptr;
        options.sizes.push_back(std::strtoull(p, &end, 10));
        p = *end == ',' ? end + 1 : end;
      }
    } else {
      fmt::print(stderr, "usage: pico-kernel-bench [--reps N] [--sizes N,N,...] [--json]\n");
      std::exit(2);
    }
  }
  return options;
}

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct Timing {
  double cpu_s = 0;
  double wall_s = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

Timing median_timing(int reps, const std::function<void()>& body) {
  body();  // warm-up: page faults, ifunc resolution, caches
  std::vector<double> cpu;
  std::vector<double> wall;
  for (int r = 0; r < reps; ++r) {
    const double cpu_start = thread_cpu_seconds();
    const auto wall_start = std::chrono::steady_clock::now();
    body();
    wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count());
    cpu.push_back(thread_cpu_seconds() - cpu_start);
  }
  return {median(cpu), median(wall)};
}

struct Kernel {
  std::string name;
  std::function<void()> body;
};

// Everything one size needs, allocated and touched before timing.
struct Buffers {
  explicit Buffers(std::size_t n)
      : x(n), out(n), acc(n, 0.0f), residual(n, 0.0f), corrected(n), codes8(n), codes16(n), indices(n), values(n) {
    pc::generate_input(pc::InputSpec{}, 0, x);
  }
  std::vector<float> x, out, acc, residual, corrected;
  std::vector<std::int8_t> codes8;
  std::vector<std::int16_t> codes16;
  std::vector<std::uint32_t> indices;
  std::vector<float> values;
  pc::TopkScratch scratch;
};

constexpr int kRanks = 8;  // levels as for an 8-rank allreduce; speed does not depend on it

std::vector<Kernel> kernels(Buffers& b) {
  const pc::RandomStream rng{42, 7};
  const int levels8 = pc::standard_levels(8, kRanks);
  const int levels16 = pc::standard_levels(16, kRanks);
  const std::size_t n = b.x.size();
  auto topk = [&b, n](double ratio) {
    const auto k = static_cast<std::size_t>(ratio * static_cast<double>(n));
    return [&b, k] {
      pc::topk_select(b.x, k, std::span(b.indices).first(k), std::span(b.values).first(k), b.scratch);
    };
  };
  const auto k1 = static_cast<std::size_t>(0.01 * static_cast<double>(n));
  // Error feedback as three kernels (what TopkCompressor did) and fused: the
  // residual carries over between repetitions, as between calls.
  auto topk_ef_separate = [&b, k1] {
    pc::add_residual(b.x, b.residual, b.corrected);
    pc::topk_select_exact(b.corrected, k1, std::span(b.indices).first(k1), std::span(b.values).first(k1), b.scratch);
    std::swap(b.residual, b.corrected);
    for (std::size_t j = 0; j < k1; ++j) b.residual[b.indices[j]] = 0.0f;
  };
  auto topk_ef_fused = [&b, k1] {
    pc::topk_select_with_residual(b.x, b.residual, k1, std::span(b.indices).first(k1),
                                  std::span(b.values).first(k1), b.scratch);
  };
  return {
      {"memcpy", [&b] { std::memcpy(b.out.data(), b.x.data(), b.x.size() * sizeof(float)); }},
      {"max_abs", [&b] { b.out[0] = pc::max_abs(b.x); }},
      {"quantize_standard int8", [&b, rng, levels8] { pc::quantize_standard(b.x, 5.0f, levels8, rng, 0, std::span(b.codes8)); }},
      {"quantize_standard int16",
       [&b, rng, levels16] { pc::quantize_standard(b.x, 5.0f, levels16, rng, 0, std::span(b.codes16)); }},
      {"dequantize int8", [&b] { pc::dequantize(std::span<const std::int8_t>(b.codes8), 0.01f, b.out); }},
      {"compress+decompress int8",
       [&b, rng, levels8] {
         const float scale = pc::max_abs(b.x);
         pc::quantize_standard(b.x, scale, levels8, rng, 0, std::span(b.codes8));
         pc::dequantize(std::span<const std::int8_t>(b.codes8), scale / static_cast<float>(levels8), b.out);
       }},
      {"quantize_exponential", [&b, rng] { pc::quantize_exponential(b.x, 5.0f, rng, 0, b.codes8); }},
      {"accumulate_exponential", [&b] { pc::accumulate_exponential(b.codes8, 1.0f, b.acc); }},
      {"topk_select 1%", topk(0.01)},
      {"topk_select 0.1%", topk(0.001)},
      {"topk_select_exact 1% (radix select alone)",
       [&b, k1] {
         pc::topk_select_exact(b.x, k1, std::span(b.indices).first(k1), std::span(b.values).first(k1), b.scratch);
       }},
      {"topk 1% + error feedback, separate passes", topk_ef_separate},
      {"topk 1% + error feedback, fused", topk_ef_fused},
      {"random_subset 1% (random-k)",
       [&b, rng] { b.out[0] = static_cast<float>(pc::random_subset(b.x, 0.01f, rng, b.indices, b.values)); }},
      {"pack_signs",
       [&b] { pc::pack_signs(b.x, std::span(reinterpret_cast<unsigned char*>(b.codes8.data()), b.codes8.size())); }},
      {"count_votes (one rank's bits)",
       [&b] {
         pc::count_votes(std::span(reinterpret_cast<const unsigned char*>(b.codes8.data()), b.codes8.size() / 8),
                         std::span(reinterpret_cast<std::uint16_t*>(b.codes16.data()), b.codes16.size()));
       }},
      {"generate_input normal", [&b] { pc::generate_input(pc::InputSpec{}, 1, b.out); }},
  };
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv);
  std::vector<std::string> names;
  std::vector<std::vector<Timing>> timings;  // [kernel][size]
  for (const std::size_t n : options.sizes) {
    Buffers buffers(n);
    const auto list = kernels(buffers);
    for (std::size_t j = 0; j < list.size(); ++j) {
      const Timing t = median_timing(options.reps, list[j].body);
      if (names.size() <= j) {
        names.push_back(list[j].name);
        timings.emplace_back();
      }
      timings[j].push_back(t);
      if (options.json) {
        const double bytes = static_cast<double>(n * sizeof(float));
        fmt::print(
            "{{\"kernel\":\"{}\",\"n\":{},\"reps\":{},\"cpu_s\":{:.6e},\"wall_s\":{:.6e},"
            "\"gb_per_s_cpu\":{:.3f},\"gb_per_s_wall\":{:.3f},\"philox\":\"{}\"}}\n",
            list[j].name, n, options.reps, t.cpu_s, t.wall_s, bytes / t.cpu_s / 1e9, bytes / t.wall_s / 1e9,
            pc::detail::philox_words_path());
      }
    }
  }
  if (options.json) {
    return 0;
  }
  fmt::print("GB/s of float32 input (cpu time / wall time), median of {} reps, one thread; Philox path: {}\n\n",
             options.reps, pc::detail::philox_words_path());
  fmt::print("| kernel |");
  for (const std::size_t n : options.sizes) {
    fmt::print(" {} Mi floats ({} MiB) |", n >> 20, (n * sizeof(float)) >> 20);
  }
  fmt::print("\n|---|");
  for (std::size_t s = 0; s < options.sizes.size(); ++s) {
    fmt::print("---|");
  }
  fmt::print("\n");
  for (std::size_t j = 0; j < names.size(); ++j) {
    fmt::print("| {} |", names[j]);
    for (std::size_t s = 0; s < options.sizes.size(); ++s) {
      const double bytes = static_cast<double>(options.sizes[s] * sizeof(float));
      fmt::print(" {:.2f} / {:.2f} |", bytes / timings[j][s].cpu_s / 1e9, bytes / timings[j][s].wall_s / 1e9);
    }
    fmt::print("\n");
  }
  return 0;
}
