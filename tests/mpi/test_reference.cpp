// The reference backend against the closed-form results: every reference
// algorithm, dtype, op, in place and not, roots 0 and last, counts 0, 1,
// p-1, p+1 and 1000. Segmented algorithms run with a small segment so that
// the pipelines really cut the message. Run under mpirun with 1..9 ranks.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <mpi.h>

#include "backends/reference/reference_backend.hpp"
#include "collectives/reference/algorithms.hpp"

namespace {

using namespace pico;

std::uint64_t sum_over_ranks(std::uint64_t local) {
  unsigned long long in = local, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  return out;
}

// 24 bytes: 3 float64, 6 float32 or 24 int8 elements per segment.
constexpr std::uint64_t kSmallSegment = 24;

bool rooted(Collective c) {
  return c == Collective::bcast || c == Collective::reduce || c == Collective::gather || c == Collective::scatter;
}

}  // namespace

TEST_CASE("every reference algorithm validates exactly", "[mpi][reference]") {
  int np = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  const std::uint64_t p = static_cast<std::uint64_t>(np);
  const std::vector<std::uint64_t> counts{0, 1, p - 1, p + 1, 1000};
  std::uint64_t cases = 0;
  for (Collective coll : all_collectives()) {
    for (const std::string& alg : reference_algorithm_names(coll)) {
      for (Dtype dtype : has_payload(coll) ? std::vector<Dtype>(all_dtypes().begin(), all_dtypes().end())
                                           : std::vector<Dtype>{Dtype::none}) {
        for (Op op : has_op(coll) ? std::vector<Op>(all_ops().begin(), all_ops().end()) : std::vector<Op>{Op::none}) {
          for (bool in_place : {false, true}) {
            if (in_place && !supports_in_place(coll)) continue;
            for (int root : rooted(coll) && np > 1 ? std::vector<int>{0, np - 1} : std::vector<int>{0}) {
              for (std::uint64_t count : has_payload(coll) ? counts : std::vector<std::uint64_t>{0}) {
                Case c;
                c.backend = "reference";
                c.collective = coll;
                c.algorithm = alg;
                c.dtype = dtype;
                c.op = op;
                c.count = count;
                c.bytes = count * dtype_size(dtype);
                c.np = np;
                c.in_place = in_place;
                c.root = root;
                INFO(fmt::format("{} {} {} {} count={} in_place={} root={} np={}", name(coll), alg, name(dtype),
                                 name(op), count, in_place, root, np));
                ReferenceBackend backend(kSmallSegment);
                backend.prepare(c, MPI_COMM_WORLD);
                const std::uint64_t mismatches = sum_over_ranks(backend.validate());
                backend.release();
                REQUIRE(mismatches == 0);
                ++cases;
              }
            }
          }
        }
      }
    }
  }
  CHECK(cases > 0);
}

TEST_CASE("the default segment size validates too, and unknown algorithms are refused", "[mpi][reference]") {
  int np = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  for (const char* alg : {"segmented_ring", "ring"}) {
    Case c;
    c.backend = "reference";
    c.collective = Collective::allreduce;
    c.algorithm = alg;
    c.dtype = Dtype::float32;
    c.op = Op::sum;
    c.count = 70000;  // more than one 64 KiB segment per rank block at small np
    c.np = np;
    ReferenceBackend backend;
    backend.prepare(c, MPI_COMM_WORLD);
    backend.run_once();  // timed calls run on the validation inputs: twice in a row must still work
    CHECK(sum_over_ranks(backend.validate()) == 0);
    backend.release();
  }
  Case bad;
  bad.backend = "reference";
  bad.algorithm = "no_such_algorithm";
  bad.np = np;
  ReferenceBackend backend;
  CHECK_THROWS_AS(backend.prepare(bad, MPI_COMM_WORLD), std::invalid_argument);
}
