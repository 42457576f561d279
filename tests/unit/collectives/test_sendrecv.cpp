// SPDX-License-Identifier: BSD-3-Clause
// sendrecv (nccl-tests' sendrecv_perf): rank r sends count elements to r+1 and
// receives count elements from r-1 (mod np). Its spec over a ring simulated in
// host memory, and what the plan makes of it per backend. Needs no MPI.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <vector>

#include <fmt/format.h>

#include "collectives/element_ops.hpp"
#include "collectives/spec.hpp"
#include "config/experiment.hpp"
#include "plan/plan.hpp"

using namespace pico;

namespace {

Case sendrecv_case(Dtype dtype, std::uint64_t count, int np) {
  Case c;
  c.collective = Collective::sendrecv;
  c.dtype = dtype;
  c.op = Op::none;
  c.count = count;
  c.bytes = count * dtype_size(dtype);
  c.np = np;
  return c;
}

// Every rank's buffers, filled by the spec; deliver() plays the network.
struct Ring {
  Case c;
  HostElementOps elements;
  std::vector<std::vector<std::byte>> send, recv;

  explicit Ring(const Case& k) : c(k), elements(k) {
    const std::size_t element = dtype_size(c.dtype);
    for (int r = 0; r < c.np; ++r) {
      const BufferSizes sizes = spec_for(c.collective).buffer_sizes(c, r);
      send.emplace_back(sizes.send * element);
      recv.emplace_back(sizes.recv * element);
      spec_for(c.collective).fill(buffers(r));
    }
  }
  RankBuffers buffers(int r) { return RankBuffers{c, r, send[r].data(), recv[r].data(), elements}; }
  // Copies the send buffer of source(r) into rank r's receive buffer, for every rank.
  void deliver(const std::function<int(int)>& source) {
    for (int r = 0; r < c.np; ++r)
      if (!recv[r].empty()) std::memcpy(recv[r].data(), send[source(r)].data(), recv[r].size());
  }
  std::uint64_t mismatches(int r) { return spec_for(c.collective).check(buffers(r)); }
};

}  // namespace

TEST_CASE("sendrecv is a payload collective without operation or in-place form", "[sendrecv]") {
  CHECK(parse_collective("sendrecv") == Collective::sendrecv);
  CHECK(name(Collective::sendrecv) == "sendrecv");
  CHECK(std::find(all_collectives().begin(), all_collectives().end(), Collective::sendrecv) != all_collectives().end());
  const CollectiveSpec& spec = spec_for(Collective::sendrecv);
  CHECK(spec.has_payload);
  CHECK_FALSE(spec.has_op);
  CHECK_FALSE(spec.rooted());
  CHECK_FALSE(spec.supports_in_place());
  CHECK_THAT(std::string(spec.no_in_place_reason), Catch::Matchers::Contains("sendrecv has no in-place form"));
}

TEST_CASE("sendrecv's peers form a ring: next r+1, previous r-1, mod np", "[sendrecv]") {
  CHECK(sendrecv_peers(0, 1).next == 0);
  CHECK(sendrecv_peers(0, 1).prev == 0);
  CHECK(sendrecv_peers(0, 4).next == 1);
  CHECK(sendrecv_peers(0, 4).prev == 3);
  CHECK(sendrecv_peers(3, 4).next == 0);
  CHECK(sendrecv_peers(3, 4).prev == 2);
  CHECK(sendrecv_peers(1, 2).next == 0);
  CHECK(sendrecv_peers(1, 2).prev == 0);
}

TEST_CASE("sendrecv buffers hold one block each and its bandwidth factors are 1", "[sendrecv]") {
  for (int np : {1, 2, 5}) {
    Case c = sendrecv_case(Dtype::float32, 10, np);
    for (int r = 0; r < np; ++r) {
      CHECK(spec_for(c.collective).buffer_sizes(c, r).send == 10);
      CHECK(spec_for(c.collective).buffer_sizes(c, r).recv == 10);
    }
    c.bytes = 1000000000;
    CHECK(algbw_GBps(c, 1.0) == Approx(1.0));  // S = one block, whatever np
    CHECK(busbw_GBps(c, 0.5) == Approx(2.0));  // busbw = algbw (nccl-tests)
  }
}

TEST_CASE("sendrecv validation accepts the ring and rejects any other source", "[sendrecv]") {
  for (Dtype dtype : host_dtypes()) {
    for (int np : {1, 2, 3, 5}) {
      for (std::uint64_t count : {0ULL, 1ULL, 7ULL, 300ULL}) {
        INFO(fmt::format("{} np={} count={}", name(dtype), np, count));
        const Case c = sendrecv_case(dtype, count, np);
        Ring ring(c);
        for (int r = 0; r < np; ++r) CHECK(ring.mismatches(r) == count);  // nothing delivered yet: all sentinels
        ring.deliver([np](int r) { return (r - 1 + np) % np; });
        for (int r = 0; r < np; ++r) CHECK(ring.mismatches(r) == 0);
        if (np == 1 || count == 0) continue;  // one rank's only source is itself; no elements, nothing to tell
        // The wrong direction (from r+1; with np == 2 that is r-1 again, so from r itself).
        Ring wrong(c);
        wrong.deliver([np](int r) { return np == 2 ? r : (r + 1) % np; });
        for (int r = 0; r < np; ++r) CHECK(wrong.mismatches(r) == count);
      }
    }
  }
}

TEST_CASE("sendrecv validation counts a single corrupted element", "[sendrecv]") {
  const Case c = sendrecv_case(Dtype::int32, 64, 4);
  Ring ring(c);
  ring.deliver([](int r) { return (r + 3) % 4; });
  ring.recv[2][5 * sizeof(std::int32_t)] ^= std::byte{0x01};
  CHECK(ring.mismatches(2) == 1);
  CHECK(ring.mismatches(1) == 0);
}

namespace {

std::string skip_reason_for(const Plan& plan, const std::string& backend, const std::string& algorithm) {
  for (const auto& s : plan.skipped)
    if (s.c.collective == Collective::sendrecv && s.c.backend == backend && s.c.algorithm == algorithm)
      return s.reason;
  return "";
}

}  // namespace

TEST_CASE("sendrecv plans as default only on MPI libraries, in place skipped with a reason", "[sendrecv][plan]") {
  for (const char* library : {"openmpi", "mpich"}) {
    INFO(library);
    const Plan plan = make_plan(parse_experiment("collectives: [sendrecv]\nsizes: [8B, 1KiB]\nprocesses: [1, 2]\n"
                                                 "in_place: true\nbackends: [{library: mpi, algorithms: all}]\n",
                                                 "s.yaml"),
                                PlanTarget{library, library == std::string("openmpi") ? "4.1.4" : "4.0.2"});
    REQUIRE(plan.cases.size() == 2 * 2);
    REQUIRE(plan.skipped.size() == plan.cases.size());
    for (const auto& s : plan.skipped) {
      CHECK(s.c.algorithm == "default");
      CHECK(s.reason == "sendrecv has no in-place form (MPI_Sendrecv takes two buffers)");
    }
    const Plan both = make_plan(parse_experiment("collectives: [sendrecv]\nsizes: [8B]\nprocesses: [1, 2]\n"
                                                 "in_place: both\nbackends: [{library: mpi, algorithms: all}]\n",
                                                 "s.yaml"),
                                PlanTarget{library, library == std::string("openmpi") ? "4.1.4" : "4.0.2"});
    // With out-of-place cases in the sweep, the in-place ones are left out (as for bcast).
    REQUIRE(both.cases.size() == 2);
    CHECK(both.skipped.empty());
    for (const auto& c : both.cases) {
      CHECK(c.algorithm == "default");
      CHECK_FALSE(c.in_place);
      CHECK(c.op == Op::none);
      CHECK(c.bytes == 8);
    }
  }
}

TEST_CASE("an explicit MPI algorithm for sendrecv is skipped: the library has none", "[sendrecv][plan]") {
  const Plan plan = make_plan(parse_experiment("collectives: [sendrecv]\nsizes: [8B]\nprocesses: [2]\n"
                                               "backends: [{library: mpi, algorithms: [default, ring]}]\n",
                                               "s.yaml"),
                              PlanTarget{"openmpi", "4.1.4"});
  REQUIRE(plan.cases.size() == 2);
  CHECK(skip_reason_for(plan, "mpi", "ring") == "openmpi 4.1.4 has no algorithm 'ring' for sendrecv");
  REQUIRE(plan.groups.size() == 1);
  REQUIRE(plan.groups[0].cases.size() == 1);
  CHECK(plan.groups[0].cases[0].algorithm == "default");
  CHECK(plan.groups[0].cases[0].selection.mechanism == "none");  // nothing to force
}

TEST_CASE("reference and compressed backends skip sendrecv with the catalogue's reason", "[sendrecv][plan]") {
  const Plan plan = make_plan(parse_experiment("collectives: [sendrecv]\nsizes: [8B]\nprocesses: [2]\n"
                                               "backends: [{library: reference, algorithms: all},\n"
                                               "           {library: compressed, algorithms: all}]\n",
                                               "s.yaml"),
                              PlanTarget{"openmpi", "4.1.4"});
  REQUIRE(plan.cases.size() == 2);
  CHECK(plan.groups.empty());
  CHECK_THAT(skip_reason_for(plan, "reference", "default"), Catch::Matchers::StartsWith("reference has no sendrecv: "));
  CHECK_THAT(skip_reason_for(plan, "compressed", "default"),
             Catch::Matchers::StartsWith("compressed has no sendrecv: "));
  const Plan named = make_plan(parse_experiment("collectives: [sendrecv]\nsizes: [8B]\nprocesses: [2]\n"
                                                "backends: [{library: reference, algorithms: [ring]}]\n",
                                                "s.yaml"),
                               PlanTarget{"openmpi", "4.1.4"});
  CHECK_THAT(skip_reason_for(named, "reference", "ring"), Catch::Matchers::StartsWith("reference has no sendrecv: "));
}

TEST_CASE("NCCL plans sendrecv as default only, without an in-place form", "[sendrecv][nccl][plan]") {
  PlanTarget target{"openmpi", "4.1.4"};
  target.nccl_version = "2.28.9";
  const Plan plan = make_plan(parse_experiment("collectives: [sendrecv]\nsizes: [1KiB]\ndtypes: [float32, bfloat16]\n"
                                               "processes: [4]\nin_place: both\n"
                                               "backends: [{library: nccl, algorithms: all},\n"
                                               "           {library: nccl_compressed, algorithms: all}]\n",
                                               "s.yaml"),
                              target);
  std::vector<Case> nccl;
  for (const auto& g : plan.groups)
    for (const auto& c : g.cases) nccl.push_back(c);
  REQUIRE(nccl.size() == 2);
  for (const auto& c : nccl) {
    CHECK(c.backend == "nccl");
    CHECK(c.algorithm == "default");
    CHECK_FALSE(c.in_place);
  }
  CHECK(plan.groups[0].env.empty());  // no NCCL_ALGO: grouped send/recv has no algorithm
  CHECK_THAT(skip_reason_for(plan, "nccl_compressed", "default"),
             Catch::Matchers::StartsWith("nccl_compressed has no sendrecv: "));
}
