// SPDX-License-Identifier: BSD-3-Clause
// Global-QSGD standard dithering on the GPU, bit-identical to the CPU's
// quantize_standard.cpp: the same Philox words (philox_core.hpp) and the same
// float operations in the same order.
//
// One thread per Philox counter block: block b's four words are the uniforms
// of elements first_index + i with (first_index + i) / 4 == b, so a thread
// draws each word once. When first_index % 4 == 0 and the pointers are
// aligned, a block is one float4 load and one 4-code store.
#include "collectives/philox_core.hpp"
#include "compression/kernels/gpu/gpu_kernels.hpp"
#include "compression/kernels/gpu/launch.cuh"

namespace pico::compressed::gpu {

namespace {

template <typename Code>
struct Code4;  // four codes in one store
template <>
struct Code4<std::int8_t> {
  using type = char4;
};
template <>
struct Code4<std::int16_t> {
  using type = short4;
};

// What the kernel needs of the scale, computed once per thread from *d_scale
// exactly as quantize_standard_spans does on the host.
struct Scale {
  float scale;
  float to_levels;  // levels / scale, IEEE division as on the CPU
  float top;        // float(levels)
  bool zero;        // scale == 0 or levels <= 0: all codes 0
};

__device__ __forceinline__ Scale read_scale(const float* d_scale, int levels) {
  Scale s;
  s.scale = *d_scale;
  s.top = static_cast<float>(levels);
  s.zero = s.scale == 0.0f || levels <= 0;
  s.to_levels = __fdiv_rn(s.top, s.scale);
  return s;
}

// quantize_chunk_body's loop body. Each operation rounds on its own as on the
// CPU: __fmul_rn / __fsub_rn / __fadd_rn are never contracted, whereas plain
// `magnitude * to_levels - floor_y` could become one FMA under nvcc's default
// -fmad=true and flip the comparison with u.
template <typename Code>
__device__ __forceinline__ Code quantize_one(float x, float u, const Scale& s) {
  const float magnitude = x < 0.0f ? -x : x;
  const float y = magnitude == s.scale ? s.top : __fmul_rn(magnitude, s.to_levels);
  const float floor_y = static_cast<float>(static_cast<int>(y));  // y >= 0: truncation is floor
  float q = __fadd_rn(floor_y, u < __fsub_rn(y, floor_y) ? 1.0f : 0.0f);
  q = q < s.top ? q : s.top;
  return static_cast<Code>(static_cast<int>(x < 0.0f ? -q : q));
}

// Counter block j (of the blocks covering [first_index, first_index + n))
// holds positions 4j..4j+3 counted from x[-offset], offset = first_index % 4.
// vector (only with offset 0 and aligned x, codes): full blocks load as float4.
template <typename Code>
__global__ void __launch_bounds__(detail::kThreads)
    quantize_kernel(const float* __restrict__ x, std::uint64_t n, const float* __restrict__ d_scale, int levels,
                    std::uint64_t seed, std::uint64_t stream, std::uint64_t first_index, bool vector,
                    Code* __restrict__ codes) {
  const Scale s = read_scale(d_scale, levels);
  const std::uint64_t offset = first_index % 4;
  const std::uint64_t first_block = first_index / 4;
  const std::uint64_t blocks = (offset + n + 3) / 4;
  for (std::uint64_t j = detail::thread_index(); j < blocks; j += detail::grid_stride()) {
    std::uint32_t w[4] = {0, 0, 0, 0};
    if (!s.zero) {
      compressed::detail::philox_counter_block(seed, stream, first_block + j, w);
    }
    if (vector && 4 * j + 4 <= n) {
      const float4 v = reinterpret_cast<const float4*>(x)[j];
      typename Code4<Code>::type c;
      if (s.zero) {
        c.x = c.y = c.z = c.w = 0;
      } else {
        c.x = quantize_one<Code>(v.x, compressed::detail::uniform_of_word(w[0]), s);
        c.y = quantize_one<Code>(v.y, compressed::detail::uniform_of_word(w[1]), s);
        c.z = quantize_one<Code>(v.z, compressed::detail::uniform_of_word(w[2]), s);
        c.w = quantize_one<Code>(v.w, compressed::detail::uniform_of_word(w[3]), s);
      }
      reinterpret_cast<typename Code4<Code>::type*>(codes)[j] = c;
    } else {
      for (int word = 0; word < 4; ++word) {
        const std::uint64_t position = 4 * j + static_cast<std::uint64_t>(word);
        if (position < offset || position - offset >= n) {
          continue;  // outside x: before x[0] in the first block or past the end in the last
        }
        const std::uint64_t i = position - offset;
        codes[i] = s.zero ? Code{0} : quantize_one<Code>(x[i], compressed::detail::uniform_of_word(w[word]), s);
      }
    }
  }
}

template <typename Code>
void quantize(const float* x, std::size_t n, const float* d_scale, int levels, RandomStream rng,
              std::uint64_t first_index, Code* codes, cudaStream_t stream) {
  if (n == 0) {
    return;
  }
  const bool vector = first_index % 4 == 0 && detail::aligned_to(x, sizeof(float4)) &&
                      detail::aligned_to(codes, sizeof(typename Code4<Code>::type));
  const std::uint64_t blocks = (first_index % 4 + n + 3) / 4;
  quantize_kernel<Code><<<detail::grid_for(blocks), detail::kThreads, 0, stream>>>(
      x, n, d_scale, levels, rng.seed, rng.stream, first_index, vector, codes);
  detail::check_launch("quantize_standard");
}

}  // namespace

void quantize_standard(const float* x, std::size_t n, const float* d_scale, int levels, RandomStream rng,
                       std::uint64_t first_index, std::int8_t* codes, cudaStream_t stream) {
  quantize(x, n, d_scale, levels, rng, first_index, codes, stream);
}

void quantize_standard(const float* x, std::size_t n, const float* d_scale, int levels, RandomStream rng,
                       std::uint64_t first_index, std::int16_t* codes, cudaStream_t stream) {
  quantize(x, n, d_scale, levels, rng, first_index, codes, stream);
}

}  // namespace pico::compressed::gpu
