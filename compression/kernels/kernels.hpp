// SPDX-License-Identifier: BSD-3-Clause
// The per-element work of compressed allreduce (Global-QSGD, Top-k): pure
// functions over spans, no MPI, vectorised in the default build (no
// -march=native), testable and benchmarkable alone. Random numbers come from
// a counter-based generator keyed by (seed, stream) and indexed by the
// element's position in the whole vector, so a call is reproducible from the
// seed recorded in the report and any chunking draws the same numbers.
// Threads: the element-wise kernels, max_abs and top-k's candidate pass run
// on kernel_threads() threads of the rank (kernel_threads.hpp), with results
// bit for bit those of one thread; the exact radix select, scatter_add,
// merge_mean, random_subset and the sign kernels run on the calling thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "compression/options/input_spec.hpp"

namespace pico::compressed {

// Philox4x32-10 (Salmon et al., SC'11) keyed by `seed`, with `stream` in
// the high counter words. Element i uses output word i % 4 of counter block i / 4.
struct RandomStream {
  std::uint64_t seed = 0;
  std::uint64_t stream = 0;  // e.g. (rank << 32) | call, so ranks and calls differ
};

// Four 32-bit words of Philox4x32-10 for counter {lo(block), hi(block), lo(stream), hi(stream)}.
void philox4x32(std::uint64_t seed, std::uint64_t stream, std::uint64_t block, std::uint32_t out[4]);
// The uniform in [0, 1) that element `index` of `rng` draws (24-bit resolution).
float uniform_at(RandomStream rng, std::uint64_t index);

// max |x[i]|; 0 for an empty span. NaN-free inputs assumed.
float max_abs(std::span<const float> x);

// ---- Global-QSGD, standard dithering -----------------------------------
// Levels per rank such that the sum of `ranks` codes fits a signed `bits`-bit
// integer: floor((2^(bits-1) - 1) / ranks). 0 when even one level overflows.
int standard_levels(int bits, int ranks);
// code[i] = sign(x) * (floor(|x|/scale * levels) + (u < frac ? 1 : 0)), u = uniform_at(rng, first_index + i):
// unbiased, E[code] * scale / levels = x. scale == 0 gives all-zero codes.
// Requires |x| <= scale, x.size() == codes.size().
void quantize_standard(std::span<const float> x, float scale, int levels, RandomStream rng, std::uint64_t first_index,
                       std::span<std::int8_t> codes);
void quantize_standard(std::span<const float> x, float scale, int levels, RandomStream rng, std::uint64_t first_index,
                       std::span<std::int16_t> codes);
// out[i] = sums[i] * factor (factor = scale / (levels * ranks) gives the mean).
void dequantize(std::span<const std::int8_t> sums, float factor, std::span<float> out);
void dequantize(std::span<const std::int16_t> sums, float factor, std::span<float> out);

// ---- Global-QSGD, exponential dithering -----------------------------------
// An int8 code is 0 for zero, else sign in bit 7 and e in 1..kExponentLevels in
// bits 0-6 for magnitude scale * 2^-(e-1). |x|/scale in (2^-(e), 2^-(e-1)]
// rounds to one of its two neighbouring levels with the unbiased probability;
// below the smallest level it rounds between 0 and the smallest level.
inline constexpr int kExponentLevels = 32;
void quantize_exponential(std::span<const float> x, float scale, RandomStream rng, std::uint64_t first_index,
                          std::span<std::int8_t> codes);
// acc[i] += value(codes[i]) * scale  (decode and accumulate, the reduction step).
void accumulate_exponential(std::span<const std::int8_t> codes, float scale, std::span<float> acc);
// out[i] = value(codes[i]) * scale.
void dequantize_exponential(std::span<const std::int8_t> codes, float scale, std::span<float> out);

// ---- Top-k -------------------------------------------------------------------
// Reusable scratch so that selection allocates nothing after the first call of a size.
struct TopkScratch {
  std::vector<std::uint32_t> keys;
  std::vector<std::uint32_t> candidates;
  // The sampled-threshold path: the sample's keys, the candidates' values
  // and their positions among the candidates.
  std::vector<std::uint32_t> sample;
  std::vector<std::uint32_t> candidate_indices;
  std::vector<float> candidate_values;
  std::vector<std::uint32_t> positions;
  // Calls whose estimated threshold let through fewer than k or too many
  // candidates and fell back to the exact radix select (for tests and tuning).
  std::uint64_t fallbacks = 0;
};
// The k entries of largest |x| (ties at the threshold go to the lower index),
// written in increasing index order. Expected O(n), no full sort. k <= x.size().
// Large inputs take the sampled-threshold path (DGC, Lin et al., ICLR'18):
// the threshold is estimated on a strided sample, one pass keeps what reaches
// it, and the exact selection runs on those candidates; the result is the
// exact one either way (a bad estimate falls back to the radix select).
void topk_select(std::span<const float> x, std::size_t k, std::span<std::uint32_t> indices, std::span<float> values,
                 TopkScratch& scratch);
// Sizes scratch so that the sampled path of any k' <= k on n elements (at
// the current kernel_threads()) allocates nothing; for k chosen per call.
void topk_reserve(std::size_t n, std::size_t k, TopkScratch& scratch);
// The exact radix select alone, two passes over x (the fallback above).
void topk_select_exact(std::span<const float> x, std::size_t k, std::span<std::uint32_t> indices,
                       std::span<float> values, TopkScratch& scratch);
// Top-k with error feedback in one pass: residual += x (the corrected
// vector), select the top k of it as topk_select does, then zero the sent
// entries in residual. Equals add_residual + topk_select + residual_after_topk
// bit for bit, with one streaming pass over x and residual instead of four.
void topk_select_with_residual(std::span<const float> x, std::span<float> residual, std::size_t k,
                               std::span<std::uint32_t> indices, std::span<float> values, TopkScratch& scratch);
// The mean of p ranks' sparse vectors, each given as pairs in increasing
// index order: dense = 0 everywhere, then for each index present, its values
// summed in rank order from 0.0f and multiplied by `factor` once. Bit for bit
// what zeroing, scatter_add of every rank in order and scaling every element
// by `factor` give, with one p-way merge over the pairs instead of a
// scatter and a pass over the whole vector: O(p) per output index, for small
// p. Lists must be sorted (throws otherwise); `cursors` holds lists.size()
// entries of scratch, so the call allocates nothing.
struct SparseList {
  std::span<const std::uint32_t> indices;
  std::span<const float> values;
};
void merge_mean(std::span<const SparseList> lists, float factor, std::span<float> dense,
                std::span<std::size_t> cursors);
// The same mean by whichever is faster for p = lists.size(): the merge up to
// kMergeRanks ranks (O(p) per index), else zeroing, scatter_add of every
// rank in order and scaling the whole vector. Both give the same bits.
inline constexpr std::size_t kMergeRanks = 16;
void sparse_mean(std::span<const SparseList> lists, float factor, std::span<float> dense,
                 std::span<std::size_t> cursors);
// dense[indices[j]] += values[j].
void scatter_add(std::span<const std::uint32_t> indices, std::span<const float> values, std::span<float> dense);
// Error feedback after a top-k compression of `corrected` (= input + previous
// residual): residual = corrected with the selected entries zeroed.
void residual_after_topk(std::span<const float> corrected, std::span<const std::uint32_t> indices,
                         std::span<float> residual);
// corrected[i] = x[i] + residual[i].
void add_residual(std::span<const float> x, std::span<const float> residual, std::span<float> corrected);

// ---- Random-k -----------------------------------------------------------------
// The positions i of x whose uniform_at(rng, i) < keep (a Bernoulli(keep)
// subset, the same on every rank that passes the same rng) with their values,
// in increasing order; returns how many. indices and values hold x.size().
std::size_t random_subset(std::span<const float> x, float keep, RandomStream rng, std::span<std::uint32_t> indices,
                          std::span<float> values);

// ---- Sign with majority vote -------------------------------------------------
// bits[i / 8] bit i % 8 = 1 where x[i] < 0 (zero and -0 vote positive);
// bits holds ceil(n / 8) bytes, the last one zero-padded.
void pack_signs(std::span<const float> x, std::span<unsigned char> bits);
// counts[i] += bit i of bits, for i < counts.size().
void count_votes(std::span<const unsigned char> bits, std::span<std::uint16_t> counts);
// out[i] = scale, -scale or 0 as 2 negative[i] is below, above or equal to ranks.
void majority_signs(std::span<const std::uint16_t> negative, int ranks, float scale, std::span<float> out);

// ---- Hard threshold with error feedback ----------------------------------------
// Sahu et al., NeurIPS'21: corrected = x + residual; every entry with
// |corrected| >= threshold is sent as (index, value), in increasing index
// order, and its residual becomes 0; every other entry stays in residual. So
// sent + residual == corrected bit for bit. Returns how many were sent;
// indices and values hold x.size().
std::size_t threshold_select_with_residual(std::span<const float> x, std::span<float> residual, float threshold,
                                           std::span<std::uint32_t> indices, std::span<float> values);
// The same selection of x alone (no error feedback).
std::size_t threshold_select(std::span<const float> x, float threshold, std::span<std::uint32_t> indices,
                             std::span<float> values);

// ---- Scaled sign with error feedback (EF-signSGD) --------------------------------
// mean |x| summed in double in index order, rounded once to float (0 for an empty span).
float mean_abs(std::span<const float> x);
// Karimireddy et al., ICML'19: residual += x (the corrected p); scale =
// mean_abs(p); bits = pack_signs(p); residual = p - scale * sign(p) (zero
// counts as positive, as pack_signs). Returns scale. sent + residual equals p
// up to one fp32 rounding of each subtraction.
float scaled_sign_with_residual(std::span<const float> x, std::span<float> residual, std::span<unsigned char> bits);
// acc[i] += bit i of bits ? -scale : scale, for i < acc.size().
void accumulate_signs(std::span<const unsigned char> bits, float scale, std::span<float> acc);

// ---- Low rank (PowerSGD) ----------------------------------------------------------
// PowerSGD views a vector of n elements as a column-major rows x cols matrix,
// rows = floor(sqrt(n)), cols = ceil(n / rows) (so rows <= cols, zero padding
// past n, fewer than rows entries), and works at rank min(rank, rows).
struct LowRankShape {
  std::size_t rows = 0, cols = 0, rank = 0;
};
LowRankShape low_rank_shape(std::size_t n, std::size_t rank);
// BLAS/LAPACK (OpenBLAS, serial) underneath; every matrix column-major with
// its row count as leading dimension; no call allocates.
// p (rows x rank) = m (rows x cols) q (cols x rank).
void low_rank_project(LowRankShape s, std::span<const float> m, std::span<const float> q, std::span<float> p);
// q (cols x rank) = m^T p.
void low_rank_project_back(LowRankShape s, std::span<const float> m, std::span<const float> p, std::span<float> q);
// out (rows x `cols` columns, the first `cols` of the matrix from column
// `first_col`) = alpha p q^T + beta out.
void low_rank_expand(LowRankShape s, std::span<const float> p, std::span<const float> q, std::size_t first_col,
                     std::size_t cols, float alpha, float beta, std::span<float> out);
// Floats of scratch orthonormalize_columns needs for this shape.
std::size_t orthonormalize_scratch(LowRankShape s);
// p (rows x rank) = the Q factor of its Householder QR (LAPACK sgeqrf +
// sorgqr): orthonormal columns spanning p's, even when p is rank-deficient.
void orthonormalize_columns(LowRankShape s, std::span<float> p, std::span<float> scratch);

// ---- Inputs (InputSpec: compression/options/input_spec.hpp) ----------------------
// Rank `rank`'s input vector (unit-variance draws of the distribution),
// reproducible from (spec, rank) and independent of chunking.
void generate_input(const InputSpec& spec, int rank, std::span<float> out);

}  // namespace pico::compressed
