// SPDX-License-Identifier: BSD-3-Clause
// pico-kernel-bench: throughput of the compressed-allreduce kernels on one
// core, in GB/s of float32 input (1 GB = 1e9 bytes, bytes = 4 n), median of
// --reps repetitions. Rates come from the thread's CPU time (robust on a
// shared machine, where wall time also counts the other processes' slices)
// and from wall time. Usage: pico-kernel-bench [--reps N] [--sizes N,N,...] [--json]
// [--threads T,T,...]. With --threads, each repetition runs every kernel at
// each thread count in turn (interleaved, so a burst of load on a shared
// machine hits all counts alike) and rates are wall time (CPU time adds up
// over threads); the speedup is the median over repetitions of that
// repetition's ratio to the first count. With --paths P,P,... (scalar, avx2,
// avx512: kernel_isa.hpp) it runs memcpy and the standard quantiser's kernels
// by each path in turn, --reps rounds, and prints each path's best round
// (CPU time) and its share of memcpy's best round. PICO_KERNEL_ISA chooses
// the path of every other mode (the header names it).
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

#include "compression/kernels/kernel_isa.hpp"
#include "compression/kernels/kernel_threads.hpp"
#include "compression/kernels/kernels.hpp"
#include "compression/kernels/philox_batch.hpp"
#include "compression/kernels/quantize_paths.hpp"
#include "support/input_error.hpp"

namespace pc = pico::compressed;

namespace {

struct Options {
  int reps = 11;
  std::vector<std::size_t> sizes{std::size_t{4} << 20, std::size_t{64} << 20};
  bool json = false;
  std::vector<int> threads;  // empty: one thread, CPU and wall time
  std::vector<pc::KernelIsa> paths;  // --paths
};

pc::KernelIsa parse_path(std::string_view name) {
  for (const auto isa : {pc::KernelIsa::scalar, pc::KernelIsa::avx2, pc::KernelIsa::avx512}) {
    if (name != pc::kernel_isa_name(isa)) continue;
    if (!pc::cpu_runs(isa)) {
      fmt::print(stderr, "pico: error: --paths: this CPU cannot run the '{}' kernel path\n", name);
      std::exit(2);
    }
    return isa;
  }
  fmt::print(stderr, "pico: error: --paths: unknown kernel path '{}'\n  hint: use scalar, avx2 or avx512\n", name);
  std::exit(2);
}

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
    } else if (arg == "--threads" && a + 1 < argc) {
      for (const char* p = argv[++a]; *p != '\0';) {
        char* end = nullptr;
        options.threads.push_back(static_cast<int>(std::strtol(p, &end, 10)));
        if (options.threads.back() < 1 || options.threads.back() > pc::kMaxKernelThreads) {
          fmt::print(stderr, "--threads: counts lie in [1, {}]\n", pc::kMaxKernelThreads);
          std::exit(2);
        }
        p = *end == ',' ? end + 1 : end;
      }
    } else if (arg == "--paths" && a + 1 < argc) {
      const std::string_view list = argv[++a];
      for (std::size_t at = 0; at <= list.size();) {
        const std::size_t comma = std::min(list.find(',', at), list.size());
        options.paths.push_back(parse_path(list.substr(at, comma - at)));
        at = comma + 1;
      }
    } else {
      fmt::print(stderr,
                 "usage: pico-kernel-bench [--reps N] [--sizes N,N,...] [--json] [--threads T,T,...] "
                 "[--paths P,P,...]\n");
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

// Wall seconds of one run of body on `threads` threads.
double wall_on(int threads, const std::function<void()>& body) {
  const pc::ScopedKernelThreads scoped(threads);
  const auto start = std::chrono::steady_clock::now();
  body();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// --threads: per kernel and size, the median wall GB/s at each count and the
// median per-repetition speedup over the first count.
int compare_threads(const Options& options) {
  const std::vector<int>& counts = options.threads;
  if (!options.json) {
    fmt::print("GB/s of float32 input (wall time), median of {} interleaved reps; speedup = median over reps of "
               "that rep's time at {} thread(s) / at T; Philox path: {}\n\n",
               options.reps, counts[0], pc::detail::philox_words_path());
    fmt::print("| kernel | n |");
    for (const int t : counts) fmt::print(" T={} GB/s |", t);
    for (std::size_t i = 1; i < counts.size(); ++i) fmt::print(" T={} speedup |", counts[i]);
    fmt::print("\n|---|---|");
    for (std::size_t i = 0; i < 2 * counts.size() - 1; ++i) fmt::print("---|");
    fmt::print("\n");
  }
  for (const std::size_t n : options.sizes) {
    Buffers buffers(n);
    for (const Kernel& kernel : kernels(buffers)) {
      std::vector<std::vector<double>> wall(counts.size()), speedup(counts.size());
      for (const int t : counts) wall_on(t, kernel.body);  // warm-up: threads started, pages touched
      for (int r = 0; r < options.reps; ++r) {
        for (std::size_t i = 0; i < counts.size(); ++i) wall[i].push_back(wall_on(counts[i], kernel.body));
        for (std::size_t i = 1; i < counts.size(); ++i) speedup[i].push_back(wall[0].back() / wall[i].back());
      }
      const double bytes = static_cast<double>(n * sizeof(float));
      if (options.json) {
        for (std::size_t i = 0; i < counts.size(); ++i)
          fmt::print("{{\"kernel\":\"{}\",\"n\":{},\"reps\":{},\"threads\":{},\"wall_s\":{:.6e},"
                     "\"gb_per_s_wall\":{:.3f},\"speedup\":{:.3f}}}\n",
                     kernel.name, n, options.reps, counts[i], median(wall[i]), bytes / median(wall[i]) / 1e9,
                     i == 0 ? 1.0 : median(speedup[i]));
        continue;
      }
      fmt::print("| {} | {} Mi |", kernel.name, n >> 20);
      for (std::size_t i = 0; i < counts.size(); ++i) fmt::print(" {:.2f} |", bytes / median(wall[i]) / 1e9);
      for (std::size_t i = 1; i < counts.size(); ++i) fmt::print(" {:.2f}x |", median(speedup[i]));
      fmt::print("\n");
    }
  }
  return 0;
}

// --paths: per size, the standard quantiser's kernels by each path, the paths
// interleaved in rounds; each path's best round and its share of memcpy's.
int compare_paths(const Options& options) {
  const pc::RandomStream rng{42, 7};
  const int levels8 = pc::standard_levels(8, kRanks);
  const int levels16 = pc::standard_levels(16, kRanks);
  namespace d = pc::detail;
  const auto levels = [](float scale, int l) {
    return d::StandardLevels{scale, static_cast<float>(l) / scale, static_cast<float>(l)};
  };
  fmt::print("GB/s of float32 input (CPU time), best of {} rounds, the paths interleaved in each; "
             "(% of memcpy's best round); compress+decompress = max_abs + quantise + dequantise, its max_abs "
             "the default build's clone\n\n",
             options.reps);
  for (const std::size_t n : options.sizes) {
    Buffers b(n);
    struct Row {
      std::string name;
      std::function<void(pc::KernelIsa)> body;
    };
    // The generator alone, one word per element as the quantiser draws them,
    // chunk by chunk into an L1-sized buffer (the fused quantiser keeps its
    // words in registers): the ceiling any quantiser on that path can reach.
    std::vector<std::uint32_t> chunk_words(d::kUniformChunk);
    const std::vector<Row> rows{
        {"philox4x32-10 words alone (one per element)",
         [&](pc::KernelIsa isa) {
           const d::PhiloxWordsFn words = d::philox_words_for(isa);
           for (std::size_t i = 0; i < n; i += d::kUniformChunk)
             words(rng.seed, rng.stream, i / 4, d::kUniformChunk / 4, chunk_words.data());
           b.out[0] = static_cast<float>(chunk_words[d::kUniformChunk - 1]);  // keep the words live
         }},
        {"quantize_standard int8",
         [&](pc::KernelIsa isa) { d::quantize_standard_on(isa, b.x.data(), n, levels(5.0f, levels8), rng, 0, b.codes8.data()); }},
        {"quantize_standard int16",
         [&](pc::KernelIsa isa) {
           d::quantize_standard_on(isa, b.x.data(), n, levels(5.0f, levels16), rng, 0, b.codes16.data());
         }},
        {"dequantize int8", [&](pc::KernelIsa isa) { d::dequantize_on(isa, b.codes8.data(), n, 0.01f, b.out.data()); }},
        {"compress+decompress int8",
         [&](pc::KernelIsa isa) {
           const float scale = pc::max_abs(b.x);
           d::quantize_standard_on(isa, b.x.data(), n, levels(scale, levels8), rng, 0, b.codes8.data());
           d::dequantize_on(isa, b.codes8.data(), n, scale / static_cast<float>(levels8), b.out.data());
         }},
    };
    const auto cpu_time = [](const std::function<void()>& body) {
      const double start = thread_cpu_seconds();
      body();
      return thread_cpu_seconds() - start;
    };
    const auto copy = [&b] { std::memcpy(b.out.data(), b.x.data(), b.x.size() * sizeof(float)); };
    std::vector<std::vector<double>> best(rows.size(), std::vector<double>(options.paths.size(), 1e30));
    double best_copy = 1e30;
    for (const Row& row : rows)  // warm-up: pages touched, caches
      for (const auto isa : options.paths) row.body(isa);
    for (int r = 0; r < options.reps; ++r) {
      best_copy = std::min(best_copy, cpu_time(copy));
      for (std::size_t k = 0; k < rows.size(); ++k)
        for (std::size_t p = 0; p < options.paths.size(); ++p) {
          // Alternate the paths' order between rounds.
          const std::size_t q = r % 2 == 0 ? p : options.paths.size() - 1 - p;
          best[k][q] = std::min(best[k][q], cpu_time([&] { rows[k].body(options.paths[q]); }));
        }
    }
    const double bytes = static_cast<double>(n * sizeof(float));
    fmt::print("| kernel, {} Mi floats ({} MiB) |", n >> 20, (n * sizeof(float)) >> 20);
    for (const auto isa : options.paths) fmt::print(" {} |", pc::kernel_isa_name(isa));
    fmt::print("\n|---|");
    for (std::size_t p = 0; p < options.paths.size(); ++p) fmt::print("---:|");
    fmt::print("\n| memcpy | {:.2f} (all paths) |\n", bytes / best_copy / 1e9);
    for (std::size_t k = 0; k < rows.size(); ++k) {
      fmt::print("| {} |", rows[k].name);
      for (std::size_t p = 0; p < options.paths.size(); ++p)
        fmt::print(" {:.2f} ({:.0f}%) |", bytes / best[k][p] / 1e9, 100.0 * best_copy / best[k][p]);
      fmt::print("\n");
    }
    fmt::print("\n");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) try {
  const Options options = parse_options(argc, argv);
  if (!options.paths.empty()) return compare_paths(options);
  if (!options.threads.empty()) return compare_threads(options);
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
} catch (const pico::InputError& e) {  // PICO_KERNEL_ISA
  fmt::print(stderr, "{}\n", e.what());
  return 2;
}
