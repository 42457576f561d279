// SPDX-License-Identifier: BSD-3-Clause
// reduce_scatterv (MPI_Reduce_scatter): the descriptor's counts are OSU's
// osu_reduce_scatter split of the whole vector, its buffers and bandwidths
// follow from them, and its validation accepts exactly the reduction of each
// rank's block, played here in host memory. Needs no MPI.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "collectives/element_ops.hpp"
#include "collectives/spec.hpp"

using namespace pico;

namespace {

Case vector_case(std::uint64_t count, int np, bool in_place = false) {
  Case c;
  c.collective = Collective::reduce_scatterv;
  c.dtype = Dtype::int32;
  c.op = Op::sum;
  c.count = count;
  c.bytes = count * 4;
  c.np = np;
  c.in_place = in_place;
  return c;
}

// OSU's recvcounts (osu_reduce_scatter.c), written from its loop: size / numprocs each, one more on the
// first size % numprocs ranks, and below numprocs elements one on each of the first size ranks.
std::vector<std::uint64_t> osu_counts(std::uint64_t size, int numprocs) {
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(numprocs), 0);
  const std::uint64_t portion = size / static_cast<std::uint64_t>(numprocs);
  const std::uint64_t remainder = size % static_cast<std::uint64_t>(numprocs);
  for (int i = 0; i < numprocs; ++i) {
    const auto k = static_cast<std::uint64_t>(i);
    if (size < static_cast<std::uint64_t>(numprocs))
      counts[k] = k < size ? 1 : 0;
    else
      counts[k] = portion + (remainder != 0 && k < remainder ? 1 : 0);
  }
  return counts;
}

std::int32_t at(const std::vector<std::byte>& buf, std::uint64_t i) {
  std::int32_t v = 0;
  std::memcpy(&v, buf.data() + i * 4, 4);
  return v;
}

}  // namespace

TEST_CASE("reduce_scatterv's counts are OSU's split of the whole vector", "[spec][reduce_scatterv]") {
  const CollectiveSpec& spec = spec_for(Collective::reduce_scatterv);
  REQUIRE(spec.rank_count != nullptr);
  for (int np = 1; np <= 9; ++np) {
    for (std::uint64_t count : {0ULL, 1ULL, 2ULL, 3ULL, 7ULL, 8ULL, 9ULL, 10ULL, 64ULL, 1001ULL}) {
      INFO(fmt::format("count={} np={}", count, np));
      const Case c = vector_case(count, np);
      const std::vector<std::uint64_t> osu = osu_counts(count, np);
      std::uint64_t total = 0;
      for (int r = 0; r < np; ++r) {
        CHECK(spec.rank_count(c, r) == osu[static_cast<std::size_t>(r)]);
        CHECK(spec.buffer_sizes(c, r).send == count);
        CHECK(spec.buffer_sizes(c, r).recv == osu[static_cast<std::size_t>(r)]);
        // In place the whole vector starts in the receive buffer.
        CHECK(spec.buffer_sizes(vector_case(count, np, true), r).recv == count);
        total += spec.rank_count(c, r);
      }
      CHECK(total == count);
    }
  }
  // The collectives with one count per case have none.
  CHECK(spec_for(Collective::reduce_scatter).rank_count == nullptr);
  CHECK(spec_for(Collective::alltoallv).rank_count == nullptr);
}

TEST_CASE("reduce_scatterv's size is the whole vector: algbw is it over the time, busbw a ring's share",
          "[spec][reduce_scatterv]") {
  Case c = vector_case(1000, 4);
  CHECK(algbw_GBps(c, 1e-6) == Approx(4000.0 / 1e-6 / 1e9));
  CHECK(busbw_GBps(c, 1e-6) == Approx(4000.0 / 1e-6 / 1e9 * 3 / 4));
  // reduce_scatter's size is one rank's block: the same vector is np of them.
  Case block = c;
  block.collective = Collective::reduce_scatter;
  block.count = 250;
  block.bytes = 1000;
  CHECK(algbw_GBps(block, 1e-6) == Approx(algbw_GBps(c, 1e-6)));
  const ToolNames& n = spec_for(Collective::reduce_scatterv).names;
  CHECK(spec_for(Collective::reduce_scatterv).mpi.function == "MPI_Reduce_scatter");
  CHECK(n.ompi_tuned_id == 12);  // REDUCESCATTER in coll_base_functions.h (13 is REDUCESCATTERBLOCK)
  CHECK(n.ompi_json_key == "reduce_scatter");
  CHECK(n.mpich_csel == "Reduce_scatter");
  CHECK(n.intel_mpi_adjust == "I_MPI_ADJUST_REDUCE_SCATTER");
  CHECK(n.ucc == "reduce_scatterv");
  CHECK(n.nccl_tuner.empty());
}

TEST_CASE("reduce_scatterv validates the reduction of each rank's block, and nothing else", "[spec][reduce_scatterv]") {
  const CollectiveSpec& spec = spec_for(Collective::reduce_scatterv);
  for (int np : {1, 2, 3, 4, 5}) {
    for (std::uint64_t count : {1ULL, 3ULL, 7ULL, 10ULL, 101ULL}) {
      for (bool in_place : {false, true}) {
        INFO(fmt::format("count={} np={} in_place={}", count, np, in_place));
        const Case c = vector_case(count, np, in_place);
        const HostElementOps elements(c);
        std::vector<std::vector<std::byte>> send, recv;
        for (int r = 0; r < np; ++r) {
          const BufferSizes sizes = spec.buffer_sizes(c, r);
          send.emplace_back(sizes.send * 4);
          recv.emplace_back(sizes.recv * 4);
          spec.fill(RankBuffers{c, r, send.back().data(), recv.back().data(), elements});
        }
        // The library's work: rank r's block of the element-wise sum lands at the start of its receive buffer.
        std::vector<std::vector<std::byte>> result = recv;
        std::uint64_t first = 0;
        for (int r = 0; r < np; ++r) {
          const std::uint64_t own = spec.rank_count(c, r);
          for (std::uint64_t k = 0; k < own; ++k) {
            std::int64_t sum = 0;
            for (int q = 0; q < np; ++q)
              sum += at(in_place ? recv[static_cast<std::size_t>(q)] : send[static_cast<std::size_t>(q)], first + k);
            const auto v = static_cast<std::int32_t>(sum);
            std::memcpy(result[static_cast<std::size_t>(r)].data() + k * 4, &v, 4);
          }
          first += own;
        }
        for (int r = 0; r < np; ++r) {
          auto& out = result[static_cast<std::size_t>(r)];
          const RankBuffers b{c, r, send[static_cast<std::size_t>(r)].data(), out.data(), elements};
          CHECK(spec.check(b) == 0);
          if (spec.rank_count(c, r) == 0) continue;
          // One element off in the rank's block is one mismatch.
          std::int32_t v = at(out, 0) + 1;
          std::memcpy(out.data(), &v, 4);
          CHECK(spec.check(b) == 1);
        }
      }
    }
  }
}
