// SPDX-License-Identifier: BSD-3-Clause
// Top-k by radix select on the magnitude bits, expected O(n), no sort, and
// in front of it, for large inputs, a sampled threshold (DGC).
//
// Exact radix select (topk_select_exact):
// The key of x is its bit pattern with the sign cleared: for non-NaN floats
// keys order like |x|. A histogram of the top 11 key bits (one pass over x)
// finds the bucket holding the k-th largest key; a second pass lists, in
// index order, every element in that bucket or above. Two more histograms
// (10 bits each) over the bucket's members pin the exact threshold key T.
// The final walk over the list keeps keys > T and the first (lowest-index)
// keys == T until k are taken, already in increasing index order.
//
// Sampled threshold (topk_select): the keys of a strided sample of about
// kSampleTarget elements give a threshold t a little below the k-th largest
// key (the sample's r-th largest, r = 1.15 h + 4 sqrt(h) + 2 for h = k m / n
// expected sample hits: four standard deviations of margin). One streaming
// pass keeps the (index, value) of every key >= t, in index order; if that
// is at least k and at most kCandidateFactor k + slack, every element of the
// exact top k is a candidate (its key is >= the k-th largest >= t), ties
// included, so the exact select on the candidates, mapped back to indices,
// is the exact answer. Otherwise it falls back to the exact radix select.
// One pass over x instead of two, plus work on ~1.5 k candidates.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "compression/kernels/kernel_threads.hpp"
#include "compression/kernels/kernels.hpp"
#include "compression/kernels/vector_clones.hpp"

namespace pico::compressed {

namespace {

constexpr int kKeyBits = 31;  // sign bit cleared
constexpr int kFirstDigitBits = 11;
constexpr int kLaterDigitBits = 10;
static_assert(kFirstDigitBits + 2 * kLaterDigitBits == kKeyBits);
constexpr std::size_t kHistogramSize = std::size_t{1} << kFirstDigitBits;

inline std::uint32_t magnitude_key(float v) { return std::bit_cast<std::uint32_t>(v) & 0x7FFFFFFFu; }

// The bucket that holds the k-th largest of the counted keys (k >= 1, k <=
// total) and how many keys lie in the buckets above it.
struct Cut {
  std::uint32_t bucket = 0;
  std::size_t above = 0;
};
Cut find_cut(const std::uint32_t* histogram, std::size_t buckets, std::size_t k) {
  std::size_t above = 0;
  for (std::size_t b = buckets; b-- > 0;) {
    if (above + histogram[b] >= k) {
      return {static_cast<std::uint32_t>(b), above};
    }
    above += histogram[b];
  }
  throw std::logic_error("topk_select: histogram holds fewer than k keys");
}

// Narrows the threshold by one digit of `digit_bits` bits below `shift`:
// among listed keys whose bits above `shift` equal `prefix`, finds the digit
// holding the `k`-th largest. Returns the extended prefix; k becomes the rank
// within it.
std::uint32_t refine(std::span<const float> x, std::span<const std::uint32_t> listed, std::uint32_t prefix,
                     int shift, int digit_bits, std::size_t& k, std::uint32_t* histogram) {
  const std::size_t buckets = std::size_t{1} << digit_bits;
  const int low = shift - digit_bits;
  const std::uint32_t mask = static_cast<std::uint32_t>(buckets - 1);
  std::fill(histogram, histogram + buckets, 0u);
  for (const std::uint32_t i : listed) {
    const std::uint32_t key = magnitude_key(x[i]);
    if ((key >> shift) == prefix) {
      ++histogram[(key >> low) & mask];
    }
  }
  const Cut cut = find_cut(histogram, buckets, k);
  k -= cut.above;
  return (prefix << digit_bits) | cut.bucket;
}

void require_topk_arguments(std::size_t n, std::size_t k, std::span<std::uint32_t> indices,
                            std::span<float> values) {
  if (k > n || indices.size() < k || values.size() < k) {
    throw std::invalid_argument("topk_select: k exceeds the input or the output spans");
  }
  if (n > std::size_t{0xFFFFFFFFu}) {
    throw std::invalid_argument("topk_select: indices are 32-bit");
  }
}

void take_all(std::span<const float> x, std::span<std::uint32_t> indices, std::span<float> values) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    indices[i] = static_cast<std::uint32_t>(i);
    values[i] = x[i];
  }
}

}  // namespace

void topk_select_exact(std::span<const float> x, std::size_t k, std::span<std::uint32_t> indices,
                       std::span<float> values, TopkScratch& scratch) {
  const std::size_t n = x.size();
  require_topk_arguments(n, k, indices, values);
  if (k == 0) {
    return;
  }
  if (k == n) {
    take_all(x, indices, values);
    return;
  }
  if (scratch.keys.size() < kHistogramSize) {
    scratch.keys.resize(kHistogramSize);
  }
  std::uint32_t* histogram = scratch.keys.data();

  // Pass 1: top digit histogram.
  constexpr int kFirstShift = kKeyBits - kFirstDigitBits;
  std::fill(histogram, histogram + kHistogramSize, 0u);
  for (const float v : x) {
    ++histogram[magnitude_key(v) >> kFirstShift];
  }
  const Cut first = find_cut(histogram, kHistogramSize, k);

  // Pass 2: list the cut bucket and everything above it, in index order.
  const std::size_t listed_count = first.above + histogram[first.bucket];
  if (scratch.candidates.size() < listed_count) {
    scratch.candidates.resize(listed_count);
  }
  std::uint32_t* listed = scratch.candidates.data();
  std::size_t filled = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if ((magnitude_key(x[i]) >> kFirstShift) >= first.bucket) {
      listed[filled++] = static_cast<std::uint32_t>(i);
    }
  }
  const std::span<const std::uint32_t> list(listed, filled);

  // Two refinements within the cut bucket give the exact threshold key.
  std::size_t rank_in_bucket = k - first.above;
  std::uint32_t prefix = first.bucket;
  int shift = kFirstShift;
  for (int level = 0; level < 2; ++level) {
    prefix = refine(x, list, prefix, shift, kLaterDigitBits, rank_in_bucket, histogram);
    shift -= kLaterDigitBits;
  }
  const std::uint32_t threshold = prefix;
  std::size_t ties_to_take = rank_in_bucket;  // keys == threshold that still fit, lowest index first

  std::size_t taken = 0;
  for (const std::uint32_t i : list) {
    const std::uint32_t key = magnitude_key(x[i]);
    const bool tie_taken = key == threshold && ties_to_take > 0;
    if (key > threshold || tie_taken) {
      ties_to_take -= tie_taken ? 1 : 0;
      indices[taken] = i;
      values[taken] = x[i];
      ++taken;
    }
  }
  if (taken != k) {
    throw std::logic_error("topk_select: selected count differs from k");
  }
}

}  // namespace pico::compressed

namespace pico::compressed {

namespace {

constexpr std::size_t kSampleTarget = 16384;
constexpr std::size_t kMinSampledN = 4 * kSampleTarget;  // smaller inputs: the exact select directly
constexpr double kMinSampleHits = 8;                     // fewer expected hits: the estimate is too loose
constexpr std::size_t kCandidateFactor = 3;
constexpr std::size_t kBlock = 16;  // elements tested together before any is appended

struct Plan {
  bool sampled = false;
  std::size_t stride = 0;
  std::size_t rank = 0;      // the sample's rank-th largest key is the threshold
  std::size_t capacity = 0;  // most candidates kept before falling back
};

Plan plan_sample(std::size_t n, std::size_t k) {
  Plan plan;
  if (n < kMinSampledN || k == 0 || k > n / 8) return plan;
  plan.stride = n / kSampleTarget;
  const std::size_t m = n / plan.stride;
  const double hits = static_cast<double>(k) * static_cast<double>(m) / static_cast<double>(n);
  if (hits < kMinSampleHits) return plan;
  plan.rank = std::min(m, static_cast<std::size_t>(std::ceil(1.15 * hits + 4.0 * std::sqrt(hits) + 2.0)));
  plan.capacity = kCandidateFactor * k + 4096;
  plan.sampled = true;
  return plan;
}

// The sample's plan.rank-th largest key, with key_at(i) the key of element i.
template <class KeyAt>
std::uint32_t estimate_threshold(std::size_t n, const Plan& plan, KeyAt key_at, TopkScratch& scratch) {
  const std::size_t m = n / plan.stride;
  scratch.sample.resize(m);
  for (std::size_t j = 0; j < m; ++j) scratch.sample[j] = key_at(j * plan.stride + plan.stride / 2);
  const auto nth = scratch.sample.begin() + static_cast<std::ptrdiff_t>(plan.rank - 1);
  std::nth_element(scratch.sample.begin(), nth, scratch.sample.end(), std::greater<>());
  return *nth;
}

// Appends (i, x[i]) for every key >= threshold in [0, n) while fewer than
// `capacity` are held; returns the count, or capacity + 1 once it would
// overflow. Blocks of kBlock are tested with a vectorised OR first; the
// append is branch-free (always write, advance on a hit), hence kBlock slack.
PICO_VECTOR_CLONES std::size_t collect_candidates(const float* x, std::size_t n, std::uint32_t threshold,
                                                  std::size_t capacity, std::uint32_t* indices, float* values) {
  std::size_t count = 0;
  std::size_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    std::uint32_t hit = 0;
    for (std::size_t j = 0; j < kBlock; ++j) hit |= magnitude_key(x[i + j]) >= threshold ? 1u : 0u;
    if (hit == 0) continue;
    if (count + kBlock > capacity) return capacity + 1;
    for (std::size_t j = 0; j < kBlock; ++j) {
      indices[count] = static_cast<std::uint32_t>(i + j);
      values[count] = x[i + j];
      count += magnitude_key(x[i + j]) >= threshold ? 1 : 0;
    }
  }
  for (; i < n; ++i) {
    if (magnitude_key(x[i]) < threshold) continue;
    if (count + 1 > capacity) return capacity + 1;
    indices[count] = static_cast<std::uint32_t>(i);
    values[count] = x[i];
    ++count;
  }
  return count;
}

// residual[i] += x[i] over [0, n), and the same appending as
// collect_candidates on the sums; past the capacity it stops appending (and
// returns capacity + 1) but finishes the sums.
PICO_VECTOR_CLONES std::size_t correct_and_collect(const float* x, float* residual, std::size_t n,
                                                   std::uint32_t threshold, std::size_t capacity,
                                                   std::uint32_t* indices, float* values) {
  std::size_t count = 0;
  bool overflow = false;
  std::size_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    std::uint32_t hit = 0;
    for (std::size_t j = 0; j < kBlock; ++j) {
      const float corrected = x[i + j] + residual[i + j];
      residual[i + j] = corrected;
      hit |= magnitude_key(corrected) >= threshold ? 1u : 0u;
    }
    if (hit == 0 || overflow) continue;
    if (count + kBlock > capacity) {
      overflow = true;
      continue;
    }
    for (std::size_t j = 0; j < kBlock; ++j) {
      indices[count] = static_cast<std::uint32_t>(i + j);
      values[count] = residual[i + j];
      count += magnitude_key(residual[i + j]) >= threshold ? 1 : 0;
    }
  }
  for (; i < n; ++i) {
    residual[i] += x[i];
    if (overflow || magnitude_key(residual[i]) < threshold) continue;
    if (count + 1 > capacity) {
      overflow = true;
      continue;
    }
    indices[count] = static_cast<std::uint32_t>(i);
    values[count] = residual[i];
    ++count;
  }
  return overflow ? capacity + 1 : count;
}

// Room for each part's candidates (one slab per part, each the whole capacity).
std::size_t slab_size(const Plan& plan) { return plan.capacity + kBlock; }
void reserve_candidates(const Plan& plan, int parts, TopkScratch& scratch) {
  const std::size_t size = slab_size(plan) * static_cast<std::size_t>(parts);
  if (scratch.candidate_indices.size() < size) {
    scratch.candidate_indices.resize(size);
    scratch.candidate_values.resize(size);
  }
}

// The candidate pass on kernel_threads() threads: part [b, e) runs
// collect(b, e, indices, values) into its own slab, with indices relative to
// b and returning its count as collect_candidates does; the slabs are then
// moved together in part order, which is the order one pass lists them in.
// Returns the count, or plan.capacity + 1 if the candidates overflow.
template <class Collect>
std::size_t collect_in_parts(std::size_t n, const Plan& plan, TopkScratch& scratch, Collect collect) {
  const int parts = parts_for(n);
  reserve_candidates(plan, parts, scratch);
  std::uint32_t* indices = scratch.candidate_indices.data();
  float* values = scratch.candidate_values.data();
  const std::size_t slab = slab_size(plan);
  std::array<std::size_t, kMaxKernelThreads> counts{};
  in_parts(n, [&](int part, std::size_t b, std::size_t e) {
    const std::size_t at = slab * static_cast<std::size_t>(part);
    counts[static_cast<std::size_t>(part)] = collect(b, e, indices + at, values + at);
  });
  std::size_t total = 0;
  for (int part = 0; part < parts; ++part) {
    const std::size_t count = counts[static_cast<std::size_t>(part)];
    if (count > plan.capacity || total + count > plan.capacity) return plan.capacity + 1;
    const std::size_t from = slab * static_cast<std::size_t>(part);
    const auto offset = static_cast<std::uint32_t>(part_range(n, parts, part).begin);
    for (std::size_t j = 0; j < count; ++j) {
      indices[total + j] = indices[from + j] + offset;  // total <= from: moves down, never over an unread one
      values[total + j] = values[from + j];
    }
    total += count;
  }
  return total;
}

// The exact top k among `count` candidates (in index order), mapped back to
// the input's indices; false if the candidates cannot hold the answer.
bool select_among_candidates(std::size_t count, const Plan& plan, std::size_t k, std::span<std::uint32_t> indices,
                             std::span<float> values, TopkScratch& scratch) {
  if (count < k || count > plan.capacity) {
    ++scratch.fallbacks;
    return false;
  }
  if (scratch.positions.size() < k) scratch.positions.resize(k);
  topk_select_exact(std::span<const float>(scratch.candidate_values.data(), count), k,
                    std::span(scratch.positions).first(k), values.first(k), scratch);
  for (std::size_t j = 0; j < k; ++j) indices[j] = scratch.candidate_indices[scratch.positions[j]];
  return true;
}

}  // namespace

void topk_select(std::span<const float> x, std::size_t k, std::span<std::uint32_t> indices, std::span<float> values,
                 TopkScratch& scratch) {
  require_topk_arguments(x.size(), k, indices, values);
  const Plan plan = plan_sample(x.size(), k);
  if (plan.sampled) {
    const std::uint32_t threshold =
        estimate_threshold(x.size(), plan, [&x](std::size_t i) { return magnitude_key(x[i]); }, scratch);
    const std::size_t count = collect_in_parts(
        x.size(), plan, scratch, [&](std::size_t b, std::size_t e, std::uint32_t* slab_indices, float* slab_values) {
          return collect_candidates(x.data() + b, e - b, threshold, plan.capacity, slab_indices, slab_values);
        });
    if (select_among_candidates(count, plan, k, indices, values, scratch)) return;
  }
  topk_select_exact(x, k, indices, values, scratch);
}

void topk_reserve(std::size_t n, std::size_t k, TopkScratch& scratch) {
  if (scratch.keys.size() < kHistogramSize) scratch.keys.resize(kHistogramSize);
  const Plan plan = plan_sample(n, k);
  if (!plan.sampled) return;
  scratch.sample.reserve(n / plan.stride);
  reserve_candidates(plan, parts_for(n), scratch);
  if (scratch.positions.size() < k) scratch.positions.resize(k);
  if (scratch.candidates.size() < plan.capacity) scratch.candidates.resize(plan.capacity);
}

void topk_select_with_residual(std::span<const float> x, std::span<float> residual, std::size_t k,
                               std::span<std::uint32_t> indices, std::span<float> values, TopkScratch& scratch) {
  if (x.size() != residual.size()) {
    throw std::invalid_argument("topk_select_with_residual: x and residual differ in size");
  }
  require_topk_arguments(x.size(), k, indices, values);
  const Plan plan = plan_sample(x.size(), k);
  bool selected = false;
  if (plan.sampled) {
    // The sample's sums are the very float additions the pass makes.
    const std::uint32_t threshold = estimate_threshold(
        x.size(), plan, [&](std::size_t i) { return magnitude_key(x[i] + residual[i]); }, scratch);
    const std::size_t count = collect_in_parts(
        x.size(), plan, scratch, [&](std::size_t b, std::size_t e, std::uint32_t* slab_indices, float* slab_values) {
          return correct_and_collect(x.data() + b, residual.data() + b, e - b, threshold, plan.capacity,
                                     slab_indices, slab_values);
        });
    selected = select_among_candidates(count, plan, k, indices, values, scratch);
  } else {
    add_residual(x, residual, residual);
  }
  if (!selected) topk_select_exact(residual, k, indices, values, scratch);
  for (std::size_t j = 0; j < k; ++j) residual[indices[j]] = 0.0f;
}

}  // namespace pico::compressed
