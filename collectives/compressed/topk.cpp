// Top-k by radix select on the magnitude bits, expected O(n), no sort.
//
// The key of x is its bit pattern with the sign cleared: for non-NaN floats
// keys order like |x|. A histogram of the top 11 key bits (one pass over x)
// finds the bucket holding the k-th largest key; a second pass lists, in
// index order, every element in that bucket or above. Two more histograms
// (10 bits each) over the bucket's members pin the exact threshold key T.
// The final walk over the list keeps keys > T and the first (lowest-index)
// keys == T until k are taken, already in increasing index order.
#include <algorithm>
#include <bit>
#include <stdexcept>

#include "collectives/compressed/kernels.hpp"

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

void take_all(std::span<const float> x, std::span<std::uint32_t> indices, std::span<float> values) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    indices[i] = static_cast<std::uint32_t>(i);
    values[i] = x[i];
  }
}

}  // namespace

void topk_select(std::span<const float> x, std::size_t k, std::span<std::uint32_t> indices, std::span<float> values,
                 TopkScratch& scratch) {
  const std::size_t n = x.size();
  if (k > n || indices.size() < k || values.size() < k) {
    throw std::invalid_argument("topk_select: k exceeds the input or the output spans");
  }
  if (n > std::size_t{0xFFFFFFFFu}) {
    throw std::invalid_argument("topk_select: indices are 32-bit");
  }
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
