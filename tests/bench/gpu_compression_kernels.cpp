// SPDX-License-Identifier: BSD-3-Clause
// pico-gpu-kernel-bench: throughput of the CUDA compressed-allreduce kernels
// (compression/kernels/gpu/) next to a device-to-device copy of the same
// input, in one run. Times are CUDA events around each call on one stream,
// median of --reps after two warm-up calls. 1 GB = 1e9 bytes.
//
//   input GB/s  4 n bytes of float input / time
//   moved GB/s  bytes the kernel must read plus write / time (copy: 8 n;
//               quantize int8: 4 n + n; ...); "-" where passes vary (top-k)
//   vs copy     copy time / kernel time: the kernel's input GB/s as a
//               fraction of the copy's input GB/s on the same n floats
//   ideal us    the time the bytes it must move take at the copy's measured
//               rate (copy: 8 n bytes / copy time); top-k: two reads of the
//               input (a histogram pass and a selection pass), 8 n bytes
//   vs ideal    ideal time / kernel time
//
// The goal lines (issue 32), from 16 MiB up: quantize+dequantize int8 at >=
// 75% of its ideal, dequantize int8 at >= the copy's moved rate, top-k 1% at
// >= 50% of its two-pass ideal; and top-k 1% of 1 MiB under 25 us.
//
// Usage: pico-gpu-kernel-bench [--reps N] [--sizes 1MiB,16MiB,...] [--device D] [--json FILE]
// Exits 77 when there is no CUDA device.
#include <cuda_runtime_api.h>
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "compression/kernels/gpu/gpu_kernels.hpp"
#include "compression/kernels/kernels.hpp"
#include "config/units.hpp"

namespace pc = pico::compressed;
namespace gpu = pico::compressed::gpu;

namespace {

constexpr const char* kUsage =
    "usage: pico-gpu-kernel-bench [--reps N] [--sizes 1MiB,16MiB,256MiB,1GiB] [--device D] [--json FILE]\n";

struct Options {
  int reps = 21;
  std::vector<std::uint64_t> sizes{std::uint64_t{1} << 20, std::uint64_t{16} << 20, std::uint64_t{256} << 20,
                                   std::uint64_t{1} << 30};
  int device = 0;
  std::string json;
};

[[noreturn]] void usage_error(const std::string& why) {
  fmt::print(stderr, "pico-gpu-kernel-bench: {}\n{}", why, kUsage);
  std::exit(2);
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int a = 1; a < argc; ++a) {
    const std::string_view arg = argv[a];
    const bool has_value = a + 1 < argc;
    if (arg == "--reps" && has_value) {
      options.reps = std::max(1, std::atoi(argv[++a]));
    } else if (arg == "--sizes" && has_value) {
      std::string why;
      const auto sizes = pico::parse_size_list(argv[++a], &why);
      if (!sizes) {
        usage_error(why);
      }
      options.sizes = *sizes;
    } else if (arg == "--device" && has_value) {
      options.device = std::atoi(argv[++a]);
    } else if (arg == "--json" && has_value) {
      options.json = argv[++a];
    } else if (arg == "--help" || arg == "-h") {
      fmt::print("{}", kUsage);
      std::exit(0);
    } else {
      usage_error(fmt::format("unknown or incomplete argument '{}'", arg));
    }
  }
  for (const std::uint64_t bytes : options.sizes) {
    if (bytes == 0 || bytes % sizeof(float) != 0) {
      usage_error(fmt::format("size {} is not a positive multiple of 4 bytes (float input)", bytes));
    }
  }
  return options;
}

struct DeviceInfo {
  std::string name;
  int multiprocessors = 0;
  int memory_clock_khz = 0;
  int bus_width_bits = 0;
  double theoretical_GBps = 0;  // 2 transfers per clock (DDR/HBM) * bus width
  std::size_t memory_bytes = 0;
};

DeviceInfo describe_device(int device) {
  cudaDeviceProp props{};
  gpu::check_cuda(cudaGetDeviceProperties(&props, device), "cudaGetDeviceProperties");
  DeviceInfo info;
  info.name = props.name;
  info.multiprocessors = props.multiProcessorCount;
  info.memory_bytes = props.totalGlobalMem;
  // cudaDeviceProp lost memoryClockRate in CUDA 13; the attribute remains.
  gpu::check_cuda(cudaDeviceGetAttribute(&info.memory_clock_khz, cudaDevAttrMemoryClockRate, device),
                  "cudaDeviceGetAttribute(memory clock)");
  gpu::check_cuda(cudaDeviceGetAttribute(&info.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, device),
                  "cudaDeviceGetAttribute(bus width)");
  info.theoretical_GBps = 2.0 * info.memory_clock_khz * 1e3 * (info.bus_width_bits / 8.0) / 1e9;
  return info;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Kernel {
  std::string name;
  double moved_per_element;  // bytes read + written per float of input; 0: not defined
  std::function<void()> body;
  double ideal_per_element = 0;  // bytes per float the ideal moves, when not moved_per_element (top-k)
};

struct Row {
  std::string kernel;
  std::uint64_t n = 0;
  double median_s = 0;
  double min_s = 0;
  double moved_per_element = 0;
  double vs_copy = 0;
  double ideal_s = 0;  // see the head comment
  double vs_ideal() const { return ideal_s / median_s; }
  double moved_GBps() const { return moved_per_element * static_cast<double>(n) / median_s / 1e9; }
};

// Everything the kernels touch, allocated once for the largest size.
struct Buffers {
  explicit Buffers(std::size_t max_n)
      : out(max_n), codes8(max_n), codes16(max_n), indices(max_n / 100 + 1), values(max_n / 100 + 1), scale(1),
        topk(max_n) {}
  gpu::DeviceArray<float> x;
  gpu::DeviceArray<float> out;
  gpu::DeviceArray<std::int8_t> codes8;
  gpu::DeviceArray<std::int16_t> codes16;
  gpu::DeviceArray<std::uint32_t> indices;
  gpu::DeviceArray<float> values;
  gpu::DeviceArray<float> scale;
  gpu::MaxAbsWorkspace max_abs;
  gpu::TopkWorkspace topk;
};

constexpr int kRanks = 8;  // levels as for an 8-rank allreduce, as pico-kernel-bench

// k as the top-k backends choose it: ceil(ratio n), at least 1.
std::size_t topk_k(double ratio, std::size_t n) {
  return std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(ratio * static_cast<double>(n))));
}

std::vector<Kernel> kernels(Buffers& b, std::size_t n, cudaStream_t stream) {
  const pc::RandomStream rng{42, 7};
  const int levels8 = pc::standard_levels(8, kRanks);
  const int levels16 = pc::standard_levels(16, kRanks);
  const float* x = b.x.data();
  float* scale = b.scale.data();
  auto topk = [&b, n, x, stream](double ratio) {
    const std::size_t k = topk_k(ratio, n);
    return [&b, n, x, k, stream] { gpu::topk_select(x, n, k, b.indices.data(), b.values.data(), b.topk, stream); };
  };
  return {
      {"d2d copy (cudaMemcpyAsync)", 8,
       [&b, n, x, stream] {
         gpu::check_cuda(cudaMemcpyAsync(b.out.data(), x, n * sizeof(float), cudaMemcpyDeviceToDevice, stream),
                         "cudaMemcpyAsync");
       }},
      {"max_abs", 4, [&b, n, x, scale, stream] { gpu::max_abs(x, n, scale, b.max_abs, stream); }},
      {"quantize int8", 5,
       [&b, n, x, scale, rng, levels8, stream] {
         gpu::quantize_standard(x, n, scale, levels8, rng, 0, b.codes8.data(), stream);
       }},
      {"quantize int16", 6,
       [&b, n, x, scale, rng, levels16, stream] {
         gpu::quantize_standard(x, n, scale, levels16, rng, 0, b.codes16.data(), stream);
       }},
      {"dequantize int8", 5,
       [&b, n, scale, levels8, stream] {
         gpu::dequantize(b.codes8.data(), n, scale, levels8, kRanks, b.out.data(), stream);
       }},
      {"dequantize int16", 6,
       [&b, n, scale, levels16, stream] {
         gpu::dequantize(b.codes16.data(), n, scale, levels16, kRanks, b.out.data(), stream);
       }},
      {"quantize+dequantize int8", 10,
       [&b, n, x, scale, rng, levels8, stream] {
         gpu::quantize_standard(x, n, scale, levels8, rng, 0, b.codes8.data(), stream);
         gpu::dequantize(b.codes8.data(), n, scale, levels8, kRanks, b.out.data(), stream);
       }},
      {"max_abs+quantize+dequantize int8", 14,
       [&b, n, x, scale, rng, levels8, stream] {
         gpu::max_abs(x, n, scale, b.max_abs, stream);
         gpu::quantize_standard(x, n, scale, levels8, rng, 0, b.codes8.data(), stream);
         gpu::dequantize(b.codes8.data(), n, scale, levels8, kRanks, b.out.data(), stream);
       }},
      {"topk_select 1%", 0, topk(0.01), 8},
      {"topk_select 0.1%", 0, topk(0.001), 8},
  };
}

// Median and minimum seconds of `reps` calls, each between two events.
std::pair<double, double> time_kernel(const std::function<void()>& body, int reps, cudaStream_t stream) {
  gpu::Event start;
  gpu::Event stop;
  for (int w = 0; w < 2; ++w) {  // warm-up: first-launch costs, clocks, TLB
    body();
  }
  gpu::check_cuda(cudaStreamSynchronize(stream), "warm-up");
  std::vector<double> seconds;
  for (int r = 0; r < reps; ++r) {
    start.record(stream);
    body();
    stop.record(stream);
    stop.synchronize();
    seconds.push_back(1e-3 * stop.since(start));
  }
  return {median(seconds), *std::min_element(seconds.begin(), seconds.end())};
}

// The compaction must have selected exactly k: a cheap check that top-k ran right.
void check_topk_count(Buffers& b, std::size_t n, double ratio, cudaStream_t stream) {
  const std::size_t k = topk_k(ratio, n);
  gpu::topk_select(b.x.data(), n, k, b.indices.data(), b.values.data(), b.topk, stream);
  gpu::check_cuda(cudaStreamSynchronize(stream), "topk_select");
  const std::int64_t selected = gpu::to_host(b.topk.selected_count(), 1)[0];
  if (k < n && selected != static_cast<std::int64_t>(k)) {
    throw std::runtime_error(fmt::format("topk_select selected {} of n = {} instead of k = {}", selected, n, k));
  }
}

std::string size_label(std::uint64_t n) { return pico::format_size(n * sizeof(float)); }

// Issue 32's acceptance, row by row: from 16 MiB up, quantize+dequantize int8
// at >= 75% of its ideal, dequantize int8 at >= the copy's moved rate, top-k 1%
// at >= 50% of its two-pass ideal; top-k 1% of 1 MiB under 25 us.
nlohmann::json goals(const std::vector<Row>& rows) {
  constexpr std::uint64_t kFrom = (std::uint64_t{16} << 20) / sizeof(float);
  constexpr std::uint64_t kSmall = (std::uint64_t{1} << 20) / sizeof(float);
  nlohmann::json out = nlohmann::json::array();
  double copy_GBps = 0;
  auto add = [&](const Row& r, const std::string& goal, double value, bool met, const std::string& text) {
    out.push_back({{"size", size_label(r.n)}, {"n", r.n}, {"goal", goal}, {"value", text}, {"met", met},
                   {"measured", value}});
  };
  for (const Row& r : rows) {
    if (r.kernel.starts_with("d2d copy")) copy_GBps = r.moved_GBps();
    if (r.n == kSmall && r.kernel == "topk_select 1%")
      add(r, "topk_select 1% under 25 us", r.median_s, r.median_s < 25e-6, fmt::format("{:.1f} us", r.median_s * 1e6));
    if (r.n < kFrom) continue;
    if (r.kernel == "quantize+dequantize int8")
      add(r, "quantize+dequantize int8 >= 75% of ideal", r.vs_ideal(), r.vs_ideal() >= 0.75,
          fmt::format("{:.1f}%", 100.0 * r.vs_ideal()));
    if (r.kernel == "dequantize int8")
      add(r, "dequantize int8 moved GB/s >= the copy's", r.moved_GBps() / copy_GBps, r.moved_GBps() >= copy_GBps,
          fmt::format("{:.0f} vs {:.0f} GB/s", r.moved_GBps(), copy_GBps));
    if (r.kernel == "topk_select 1%")
      add(r, "topk_select 1% >= 50% of its two-pass ideal", r.vs_ideal(), r.vs_ideal() >= 0.5,
          fmt::format("{:.1f}%", 100.0 * r.vs_ideal()));
  }
  return out;
}

int run(const Options& options) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    fmt::print(stderr, "pico-gpu-kernel-bench: no CUDA device ({})\n",
               status != cudaSuccess ? cudaGetErrorString(status) : "cudaGetDeviceCount reports 0 devices");
    return 77;
  }
  if (options.device < 0 || options.device >= devices) {
    usage_error(fmt::format("--device {} but there are {} devices", options.device, devices));
  }
  gpu::check_cuda(cudaSetDevice(options.device), "cudaSetDevice");
  const DeviceInfo info = describe_device(options.device);

  std::size_t max_n = 0;
  for (const std::uint64_t bytes : options.sizes) {
    max_n = std::max<std::size_t>(max_n, bytes / sizeof(float));
  }
  fmt::print("pico-gpu-kernel-bench: {} ({} SMs, {:.1f} GiB), memory {} MHz x {} bit: {:.1f} GB/s theoretical\n",
             info.name, info.multiprocessors, static_cast<double>(info.memory_bytes) / (1u << 30),
             info.memory_clock_khz / 1000, info.bus_width_bits, info.theoretical_GBps);
  fmt::print("median of {} reps (CUDA events, one stream, 2 warm-up calls); input: {} normal floats\n", options.reps,
             max_n);
  std::fflush(stdout);

  Buffers b(max_n);
  {
    std::vector<float> host(max_n);
    pc::generate_input(pc::InputSpec{}, 0, host);
    b.x = gpu::to_device(host);
  }
  const gpu::Stream stream;
  std::vector<Row> rows;
  for (const std::uint64_t bytes : options.sizes) {
    const std::size_t n = bytes / sizeof(float);
    // A real scale for the quantisers and real codes for the dequantisers.
    gpu::max_abs(b.x.data(), n, b.scale.data(), b.max_abs, stream.get());
    gpu::quantize_standard(b.x.data(), n, b.scale.data(), pc::standard_levels(8, kRanks), pc::RandomStream{42, 7}, 0,
                           b.codes8.data(), stream.get());
    gpu::quantize_standard(b.x.data(), n, b.scale.data(), pc::standard_levels(16, kRanks), pc::RandomStream{42, 7}, 0,
                           b.codes16.data(), stream.get());
    check_topk_count(b, n, 0.01, stream.get());
    check_topk_count(b, n, 0.001, stream.get());
    const std::vector<Kernel> list = kernels(b, n, stream.get());
    double copy_s = 0;
    for (std::size_t j = 0; j < list.size(); ++j) {
      const auto [median_s, min_s] = time_kernel(list[j].body, options.reps, stream.get());
      if (j == 0) {
        copy_s = median_s;  // the D2D copy comes first
      }
      const double ideal_bytes = list[j].ideal_per_element > 0 ? list[j].ideal_per_element : list[j].moved_per_element;
      rows.push_back(Row{list[j].name, n, median_s, min_s, list[j].moved_per_element, copy_s / median_s,
                         copy_s * ideal_bytes / 8.0});
    }
  }

  fmt::print("\nGB = 1e9 B. input GB/s: 4n bytes of float input / median time; moved GB/s: bytes read + written / "
             "time;\nvs copy: copy time / kernel time; ideal: its bytes at the copy's rate (top-k: two reads of the "
             "input)\n\n");
  fmt::print("| size | kernel | median us | min us | input GB/s | moved GB/s | vs copy | ideal us | vs ideal |\n");
  fmt::print("|---|---|---|---|---|---|---|---|---|\n");
  for (const Row& r : rows) {
    const double input_bytes = 4.0 * static_cast<double>(r.n);
    const std::string moved = r.moved_per_element > 0 ? fmt::format("{:.1f}", r.moved_GBps()) : "-";
    const std::string ideal = r.ideal_s > 0 ? fmt::format("{:.1f}", r.ideal_s * 1e6) : "-";
    const std::string vs_ideal = r.ideal_s > 0 ? fmt::format("{:.1f}%", 100.0 * r.vs_ideal()) : "-";
    fmt::print("| {} | {} | {:.1f} | {:.1f} | {:.1f} | {} | {:.1f}% | {} | {} |\n", size_label(r.n), r.kernel,
               r.median_s * 1e6, r.min_s * 1e6, input_bytes / r.median_s / 1e9, moved, 100.0 * r.vs_copy, ideal,
               vs_ideal);
  }
  const nlohmann::json goal = goals(rows);
  fmt::print("\ngoals (issue 32, sizes from 16 MiB):\n");
  for (const auto& g : goal)
    fmt::print("  {} {}: {} ({})\n", g["size"].get<std::string>(), g["goal"].get<std::string>(),
               g["value"].get<std::string>(), g["met"].get<bool>() ? "met" : "not met");

  if (!options.json.empty()) {
    nlohmann::json out;
    out["device"] = {{"name", info.name},
                     {"index", options.device},
                     {"multiprocessors", info.multiprocessors},
                     {"memory_bytes", info.memory_bytes},
                     {"memory_clock_khz", info.memory_clock_khz},
                     {"memory_bus_width_bits", info.bus_width_bits},
                     {"theoretical_GBps", info.theoretical_GBps}};
    out["reps"] = options.reps;
    out["definitions"] = {
        {"input_GBps", "4 n bytes of float input / median seconds / 1e9"},
        {"moved_GBps", "bytes the kernel must read plus write / median seconds / 1e9 (null where undefined)"},
        {"vs_copy", "median seconds of the D2D copy of the same n floats / median seconds of the kernel"},
        {"ideal_s", "bytes the kernel must move (top-k: 8 n, two reads) at the copy's rate of 8 n bytes per copy time"},
        {"vs_ideal", "ideal_s / median_s"}};
    nlohmann::json json_rows = nlohmann::json::array();
    for (const Row& r : rows) {
      const double input_bytes = 4.0 * static_cast<double>(r.n);
      nlohmann::json row = {{"kernel", r.kernel},
                            {"n", r.n},
                            {"bytes", 4 * r.n},
                            {"median_s", r.median_s},
                            {"min_s", r.min_s},
                            {"input_GBps", input_bytes / r.median_s / 1e9},
                            {"vs_copy", r.vs_copy},
                            {"ideal_s", r.ideal_s},
                            {"vs_ideal", r.vs_ideal()}};
      row["moved_GBps"] = r.moved_per_element > 0 ? nlohmann::json(r.moved_GBps()) : nlohmann::json(nullptr);
      json_rows.push_back(std::move(row));
    }
    out["rows"] = std::move(json_rows);
    out["goal"] = std::move(goal);
    std::ofstream file(options.json);
    file << out.dump(2) << "\n";
    if (!file) {
      fmt::print(stderr, "pico-gpu-kernel-bench: cannot write {}\n", options.json);
      return 1;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv);
  try {
    return run(options);
  } catch (const std::exception& e) {
    fmt::print(stderr, "pico-gpu-kernel-bench: {}\n", e.what());
    return 1;
  }
}
