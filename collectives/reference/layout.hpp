// SPDX-License-Identifier: BSD-3-Clause
// Index arithmetic the algorithms share: uneven block partitions, binomial
// trees relative to a root, and folding P ranks onto a power-of-two core.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "collectives/transport/block.hpp"

namespace pico::reference {

using transport::Block;
using transport::ConstBlock;

// Algorithms step through ranks as r ± k, almost always within one turn
// of the ring: that case costs no division (the schedule exporter calls this
// billions of times).
// a is 64-bit so that r + d, for ranks and distances below p, cannot
// overflow even when p is near INT_MAX.
constexpr int mod(std::int64_t a, int p) {
  if (a >= 0 && a < p) return static_cast<int>(a);
  if (a < 0 && a >= -p) return static_cast<int>(a + p);
  const std::int64_t m = a % p;
  return static_cast<int>(m < 0 ? m + p : m);
}

constexpr int lowbit(int v) { return v & -v; }

constexpr int floor_pow2(int p) {
  int m = 1;
  while (m <= p / 2) m *= 2;  // not m * 2 <= p, which overflows for p >= 2^30
  return m;
}

constexpr int log2_exact(int pow2) {
  int k = 0;
  while ((1 << k) < pow2) ++k;
  return k;
}

constexpr std::size_t ceil_div(std::size_t a, std::size_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

// n elements in p blocks; the first n % p blocks hold one element more
// (Open MPI's split, so no block is more than one element larger).
struct Partition {
  std::size_t n;
  int p;
  std::size_t q;  // n / p
  std::size_t r;  // n % p: how many blocks hold q + 1

  Partition(std::size_t elements, int blocks)
      : n(elements), p(blocks), q(elements / static_cast<std::size_t>(blocks)),
        r(elements % static_cast<std::size_t>(blocks)) {}
  std::size_t size(int i) const { return q + (static_cast<std::size_t>(i) < r ? 1 : 0); }
  std::size_t offset(int i) const {
    const auto k = static_cast<std::size_t>(i);
    return k * q + std::min(k, r);
  }
  // Blocks [a, b) as one contiguous run.
  std::size_t span(int a, int b) const { return offset(b) - offset(a); }
  Block block(void* base, int i) const { return {base, offset(i), size(i)}; }
  Block blocks(void* base, int a, int b) const { return {base, offset(a), span(a, b)}; }
  ConstBlock block(const void* base, int i) const { return {base, offset(i), size(i)}; }
};

// A binomial tree over ranks relative to `root` (vrank 0 is the root).
struct Binomial {
  int p;
  int root;

  int vrank(int rank) const { return mod(rank - root, p); }
  int real(int v) const { return (v + root) % p; }
  // Ranks in v's subtree: [v, v + subtree(v)).
  int subtree(int v) const { return v == 0 ? p : std::min(lowbit(v), p - v); }
  int parent(int v) const { return v - lowbit(v); }
  // Children are v + m for powers of two m below this bound (and v + m < p).
  int child_bound(int v) const { return v == 0 ? p : lowbit(v); }
  // The largest such m (0 for a leaf): children are visited from here down.
  int top_child_mask(int v) const { return child_bound(v) >= 2 ? floor_pow2(child_bound(v) - 1) : 0; }
};

// P ranks folded onto the largest power of two below: of the first 2*rem
// ranks, each even rank hands its data to the odd rank above it and sits
// out; the odd rank and all ranks from 2*rem on form the core (MPICH's and
// Open MPI's treatment of non-powers of two).
struct Fold {
  int p;
  int pof2;
  int rem;

  explicit Fold(int size) : p(size), pof2(floor_pow2(size)), rem(size - floor_pow2(size)) {}
  bool folded_out(int rank) const { return rank < 2 * rem && rank % 2 == 0; }
  bool folded_in(int rank) const { return rank < 2 * rem && rank % 2 == 1; }
  // Core index of a rank, -1 for a rank folded out.
  int vrank(int rank) const { return folded_out(rank) ? -1 : (rank < 2 * rem ? rank / 2 : rank - rem); }
  // The real rank that plays core index v.
  int real(int v) const { return v < rem ? 2 * v + 1 : v + rem; }
  // The first of the real ranks core index v stands for (v = pof2 gives p):
  // core indices [a, b) stand for real ranks [first_real(a), first_real(b)).
  int first_real(int v) const { return v < rem ? 2 * v : v + rem; }
};

// One step of recursive halving on a power-of-two core: core index v trades
// half of its window of blocks [lo, hi) with partner_v, keeping the half
// that holds block v.
struct HalvingStep {
  int partner_v;
  int keep_lo, keep_hi;
  int give_lo, give_hi;
  int step;  // message tag: 1, 2, ...
};

// Calls f(HalvingStep) for the log2(pof2) steps of core index v; returns the
// tag after the last step, so a following phase can go on numbering.
template <class F>
int for_each_halving_step(int pof2, int v, F&& f) {
  int lo = 0, hi = pof2, step = 1;
  for (int mask = pof2 / 2; mask > 0; mask >>= 1, ++step) {
    const int mid = lo + mask;
    const bool keep_low = (v & mask) == 0;
    const HalvingStep s{v ^ mask, keep_low ? lo : mid, keep_low ? mid : hi, keep_low ? mid : lo,
                        keep_low ? hi : mid, step};
    f(s);
    lo = s.keep_lo;
    hi = s.keep_hi;
  }
  return step;
}

}  // namespace pico::reference
