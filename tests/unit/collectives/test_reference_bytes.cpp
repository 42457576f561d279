// SPDX-License-Identifier: BSD-3-Clause
// Byte accounting of every reference algorithm on RecordingTransport: each
// rank sends exactly the bytes its cost formula says (exact integer forms
// with uneven blocks), every message is matched, and the schedule completes
// with unbuffered sends. The formulas here are derived independently of the
// algorithms' code (docs/reference.md, "Byte formulas").
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <numeric>

#include "collectives/reference/algorithms.hpp"
#include "collectives/reference/recording.hpp"
#include "collectives/reference/schedule_check.hpp"
#include "collectives/reference/table.hpp"
#include "collectives/spec.hpp"

using namespace pico;
using pico::transport::OpKind;
using pico::transport::RankSchedule;
using U = std::uint64_t;

namespace {

// Block i of n elements split into p blocks, the first n % p one larger.
U block(U n, int p, int i) { return n / p + (static_cast<U>(i) < n % p ? 1 : 0); }
// Elements of blocks [a, b) of that split.
U blocks(U n, int p, int a, int b) {
  U s = 0;
  for (int i = a; i < b; ++i) s += block(n, p, i);
  return s;
}
int pof2_of(int p) { return 1 << static_cast<int>(std::log2(p)); }
int log2i(int x) { return static_cast<int>(std::log2(x)); }
bool folded_out(int p, int r) { return r < 2 * (p - pof2_of(p)) && r % 2 == 0; }
bool folded_in(int p, int r) { return r < 2 * (p - pof2_of(p)) && r % 2 == 1; }
int core(int p, int r) { const int rem = p - pof2_of(p); return r < 2 * rem ? r / 2 : r - rem; }
int first_real(int p, int v) { const int rem = p - pof2_of(p); return v < rem ? 2 * v : v + rem; }
// Binomial tree relative to the root: children of v, and the size of v's subtree.
int children(int p, int v) {
  int k = 0;
  for (int m = 1; (v == 0 || m < (v & -v)) && v + m < p; m <<= 1) ++k;
  return k;
}
int subtree(int p, int v) { return v == 0 ? p : std::min(v & -v, p - v); }
// Sum of the p' blocks in the aligned window of `width` blocks around v.
U window(U n, int pof2, int v, int width) {
  const int lo = v & ~(width - 1);
  return blocks(n, pof2, lo, lo + width);
}

// Elements rank r sends, from the algorithm's cost structure.
U expected_elements(Collective c, const std::string& alg, int p, U n, int r, int root) {
  const int v = (r - root + p) % p;
  const int pof2 = pof2_of(p), levels = log2i(pof2);
  const U P = static_cast<U>(p);
  if (p == 1 || n == 0) return 0;
  switch (c) {
    case Collective::allreduce:
      if (alg == "ring" || alg == "segmented_ring") return 2 * n - block(n, p, (r + 1) % p) - block(n, p, (r + 2) % p);
      if (alg == "recursive_doubling") {
        if (folded_out(p, r)) return n;
        return static_cast<U>(levels) * n + (folded_in(p, r) ? n : 0);
      }
      if (alg == "rabenseifner") {
        if (folded_out(p, r)) return n;
        const int cv = core(p, r);
        U s = n - block(n, pof2, cv);  // reduce-scatter gives away all but its own block
        for (int w = 1; w < pof2; w <<= 1) s += window(n, pof2, cv, w);  // allgather sends its growing window
        return s + (folded_in(p, r) ? n : 0);
      }
      if (alg == "reduce_bcast") return (r != 0 ? n : 0) + static_cast<U>(children(p, r)) * n;
      break;
    case Collective::bcast:
      if (alg == "binomial") return static_cast<U>(children(p, v)) * n;
      if (alg == "chain") return v + 1 < p ? n : 0;
      if (alg == "linear") return v == 0 ? (P - 1) * n : 0;
      if (alg == "scatter_allgather") {
        U s = 0;
        for (int m = 1; (v == 0 || m < (v & -v)) && v + m < p; m <<= 1)
          s += blocks(n, p, v + m, v + m + subtree(p, v + m));
        return s + n - block(n, p, (v + 1) % p);
      }
      break;
    case Collective::reduce:
      if (alg == "binomial") return v != 0 ? n : 0;
      if (alg == "rabenseifner") {
        const int core_root = core(p, folded_out(p, root) ? root + 1 : root);
        U s = folded_out(p, root) && r == root + 1 ? n : 0;
        if (folded_out(p, r)) return s + n;
        const int cv = core(p, r), u = cv ^ core_root;
        s += n - block(n, pof2, cv);
        if (u != 0) s += window(n, pof2, cv, u & -u);
        return s;
      }
      break;
    case Collective::allgather:
      if (alg == "ring" || alg == "bruck") return (P - 1) * n;
      if (alg == "recursive_doubling") {
        if (folded_out(p, r)) return n;
        const int cv = core(p, r);
        U s = 0;
        for (int w = 1; w < pof2; w <<= 1) {
          const int lo = cv & ~(w - 1);
          s += static_cast<U>(first_real(p, lo + w) - first_real(p, lo)) * n;
        }
        return s + (folded_in(p, r) ? P * n : 0);
      }
      break;
    case Collective::reduce_scatter:
      if (alg == "recursive_halving" && folded_out(p, r)) return P * n;
      return (P - 1) * n;
    case Collective::reduce_scatterv: {  // n is the whole vector, in p blocks: each rank gives away all but its own
      if (alg != "recursive_halving") return n - block(n, p, r);
      if (folded_out(p, r)) return n;
      const int cv = core(p, r);
      return n - blocks(n, p, first_real(p, cv), first_real(p, cv + 1)) + (folded_in(p, r) ? block(n, p, r - 1) : 0);
    }
    case Collective::alltoall:
      if (alg == "bruck") {
        U s = 0;
        for (int d = 1; d < p; d <<= 1)
          for (int i = 0; i < p; ++i) s += (i & d) ? n : 0;
        return s;
      }
      return (P - 1) * n;
    case Collective::alltoallv:  // a schedule request has no pattern: the uniform matrix, a block to every peer
      return (P - 1) * n;
    case Collective::gather:
      if (alg == "binomial") return v != 0 ? static_cast<U>(subtree(p, v)) * n : 0;
      return v != 0 ? n : 0;
    case Collective::scatter:
      if (alg == "binomial") return static_cast<U>(subtree(p, v) - 1) * n;
      return v == 0 ? (P - 1) * n : 0;
    case Collective::scan:
    case Collective::exscan: {
      if (alg == "linear") return r + 1 < p ? n : 0;  // the chain: every rank but the last sends once
      U partners = 0;  // recursive doubling: one exchange per existing rank r xor 2^k
      for (int m = 1; m < p; m <<= 1) partners += (r ^ m) < p ? 1 : 0;
      return partners * n;
    }
    case Collective::barrier: return 0;
    case Collective::sendrecv: break;  // no reference algorithm
  }
  FAIL("no formula for " << name(c) << " " << alg);
  return 0;
}

struct Totals {
  U sent = 0, received = 0, sends = 0;
};

Totals totals(const RankSchedule& rs) {
  Totals t;
  for (const auto& op : rs.ops) {
    if (op.kind == OpKind::send) {
      t.sent += op.bytes;
      ++t.sends;
    }
    if (op.kind == OpKind::recv) t.received += op.bytes;
  }
  return t;
}

}  // namespace

TEST_CASE("every reference algorithm sends exactly its formula's bytes, matched and deadlock-free", "[reference]") {
  std::uint64_t schedules = 0;
  for (Collective c : all_collectives()) {
    const CollectiveSpec& spec = spec_for(c);
    for (const std::string& alg : reference_algorithm_names(c)) {
      for (int p = 1; p <= 17; ++p) {
        const std::vector<U> counts = {0, 1, static_cast<U>(p - 1), 1000, 1024 * static_cast<U>(p) + 3};
        const std::vector<int> roots = spec.rooted() ? std::vector<int>{0, p - 1, p / 2} : std::vector<int>{0};
        for (U count : spec.has_payload ? counts : std::vector<U>{0}) {
          for (bool in_place : {false, true}) {
            if (in_place && !spec.supports_in_place()) continue;
            for (int root : roots) {
              for (U segment_bytes : {U{64 * 1024}, U{1000}}) {
                reference::ScheduleRequest req{c, alg, p, count, spec.has_payload ? Dtype::float32 : Dtype::none,
                                               in_place, root, segment_bytes};
                INFO(fmt::format("{} {} p={} count={} in_place={} root={} segment={}", name(c), alg, p, count,
                                 in_place, root, segment_bytes));
                std::vector<RankSchedule> ranks;
                REQUIRE_NOTHROW(ranks = reference::record_all(req));
                REQUIRE(reference::check_schedule(ranks).empty());
                U sent = 0, received = 0;
                for (int r = 0; r < p; ++r) {
                  const Totals t = totals(ranks[static_cast<std::size_t>(r)]);
                  INFO("rank " << r);
                  REQUIRE(t.sent == 4 * expected_elements(c, alg, p, count, r, root));
                  sent += t.sent;
                  received += t.received;
                }
                REQUIRE(sent == received);
                ++schedules;
              }
            }
          }
        }
      }
    }
  }
  CHECK(schedules > 12000);
}

TEST_CASE("message counts of the latency-bound algorithms", "[reference]") {
  auto sends_of = [](Collective c, const std::string& alg, int p, U count, U segment_bytes, int rank) {
    reference::ScheduleRequest req{c, alg, p, count, c == Collective::barrier ? Dtype::none : Dtype::float32,
                                   false, 0, segment_bytes};
    return totals(reference::record_all(req)[static_cast<std::size_t>(rank)]).sends;
  };
  for (int p : {2, 4, 8, 16}) {
    CHECK(sends_of(Collective::allreduce, "recursive_doubling", p, 100, 0, 0) == static_cast<U>(log2i(p)));
    CHECK(sends_of(Collective::allreduce, "rabenseifner", p, 100, 0, 0) == 2 * static_cast<U>(log2i(p)));
    CHECK(sends_of(Collective::allgather, "bruck", p, 100, 0, 1) == static_cast<U>(log2i(p)));
  }
  for (int p = 2; p <= 17; ++p) {
    const U ceil_log = static_cast<U>(std::ceil(std::log2(p)));
    CHECK(sends_of(Collective::barrier, "dissemination", p, 0, 0, p - 1) == ceil_log);
    CHECK(sends_of(Collective::allreduce, "ring", p, 1000, 0, 0) == 2 * static_cast<U>(p - 1));
    CHECK(sends_of(Collective::alltoall, "bruck", p, 10, 0, 0) == ceil_log);
    CHECK(sends_of(Collective::alltoall, "linear", p, 10, 0, 0) == static_cast<U>(p - 1));
    // 10 segments of 100 floats per ring block: 1000p elements, 400-byte segments.
    CHECK(sends_of(Collective::allreduce, "segmented_ring", p, 1000 * static_cast<U>(p), 400, 0) ==
          2 * static_cast<U>(p - 1) * 10);
    // 4000 floats in 400-byte segments: 40 pieces through every rank but the last.
    CHECK(sends_of(Collective::bcast, "chain", p, 4000, 400, 0) == 40);
    CHECK(sends_of(Collective::bcast, "chain", p, 4000, 400, p - 1) == 0);
  }
}

TEST_CASE("every table entry is reachable by name and the names are unique", "[reference]") {
  for (Collective c : all_collectives()) {
    const auto names = reference_algorithm_names(c);
    // sendrecv is one MPI_Sendrecv: no algorithm of pico's own, so none to record.
    CHECK(names.empty() == (c == Collective::sendrecv));
    for (const auto& n : names) {
      CHECK(reference_algorithm_exists(c, n));
      CHECK(std::count(names.begin(), names.end(), n) == 1);
    }
    CHECK_FALSE(reference_algorithm_exists(c, "no_such_algorithm"));
  }
  CHECK(reference_algorithm_names(Collective::allreduce) ==
        std::vector<std::string>{"recursive_doubling", "ring", "rabenseifner", "reduce_bcast", "segmented_ring"});
}

TEST_CASE("the recorder rejects what MPI could not run", "[reference]") {
  reference::ScheduleRequest req{Collective::allreduce, "nope", 4, 10};
  CHECK_THROWS_AS(reference::record_all(req), std::invalid_argument);
  req.algorithm = "ring";
  req.np = 0;
  CHECK_THROWS_AS(reference::record_all(req), std::invalid_argument);
  req = reference::ScheduleRequest{Collective::bcast, "binomial", 4, 10, Dtype::float32, true};
  CHECK_THROWS_AS(reference::record_all(req), std::invalid_argument);
  req = reference::ScheduleRequest{Collective::reduce, "binomial", 4, 10, Dtype::float32, false, 4};
  CHECK_THROWS_AS(reference::record_all(req), std::invalid_argument);
}
