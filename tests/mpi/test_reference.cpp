// SPDX-License-Identifier: BSD-3-Clause
// The reference backend against the closed-form results: every reference
// algorithm, dtype, op, in place and not, roots 0 and last, counts 0, 1,
// p-1, p+1 and 1000. Segmented algorithms run with a small segment so that
// the pipelines really cut the message. Run under mpirun with 1..9 ranks.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <mpi.h>

#include <cmath>

#include "backends/reference/reference_backend.hpp"
#include "collectives/count_matrix.hpp"
#include "collectives/reference/algorithms.hpp"
#include "collectives/reference/table.hpp"
#include "collectives/spec.hpp"
#include "collectives/transport/mpi_transport.hpp"
#include "mpi_test_util.hpp"

namespace {

using namespace pico;

using test::sum_over_ranks;

// 256 bytes: 32 float64 or 256 int8 elements, so a 1000-element chain bcast takes 4 to 32
// segments and the segmented ring's blocks 2 to 11.
constexpr std::uint64_t kSmallSegment = 256;

// Every case of one algorithm: dtype x op x in place x root x count.
std::vector<Case> cases_for(Collective coll, const std::string& alg, int np) {
  const auto p = static_cast<std::uint64_t>(np);
  const CollectiveSpec& spec = spec_for(coll);
  const std::vector<Dtype> dtypes = spec.has_payload ? std::vector<Dtype>(host_dtypes().begin(), host_dtypes().end())
                                                     : std::vector<Dtype>{Dtype::none};
  const std::vector<Op> ops = spec.has_op ? std::vector<Op>(all_ops().begin(), all_ops().end()) : std::vector<Op>{Op::none};
  const std::vector<int> roots = spec.rooted() && np > 1 ? std::vector<int>{0, np - 1} : std::vector<int>{0};
  const std::vector<std::uint64_t> counts =
      spec.has_payload ? std::vector<std::uint64_t>{0, 1, p - 1, p + 1, 1000} : std::vector<std::uint64_t>{0};
  const std::vector<std::string> patterns =
      spec.count_matrix ? test::count_patterns_for_tests(np) : std::vector<std::string>{""};
  std::vector<Case> cases;
  for (Dtype dtype : dtypes)
    for (Op op : ops)
      for (bool in_place : {false, true})
        for (int root : roots)
          for (std::uint64_t count : counts)
            for (const std::string& pattern : patterns) {
              if (in_place && !spec.supports_in_place()) continue;
              Case c = test::make_case("reference", coll, alg, dtype, op, count, np, in_place);
              c.root = root;
              if (!pattern.empty()) c.options[kCountsOption] = pattern;
              cases.push_back(c);
            }
  return cases;
}

}  // namespace

TEST_CASE("every reference algorithm validates exactly", "[mpi][reference]") {
  int np = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  std::uint64_t checked = 0;
  for (Collective coll : all_collectives()) {
    for (const std::string& alg : reference_algorithm_names(coll)) {
      // One reduction of all the algorithm's mismatch counts: oversubscribed
      // runs pay for every collective round, and these cases are many.
      const std::vector<Case> cases = cases_for(coll, alg, np);
      std::vector<unsigned long long> local(cases.size()), total(cases.size());
      for (std::size_t i = 0; i < cases.size(); ++i) {
        ReferenceBackend backend(kSmallSegment);
        backend.prepare(cases[i], test::measured());
        local[i] = backend.validate();
        backend.release();
      }
      MPI_Allreduce(local.data(), total.data(), static_cast<int>(cases.size()), MPI_UNSIGNED_LONG_LONG, MPI_SUM,
                    test::harness());
      for (std::size_t i = 0; i < cases.size(); ++i) {
        const Case& c = cases[i];
        INFO(fmt::format("{} {} {} {} count={} in_place={} root={} np={} counts={}", name(coll), alg, name(c.dtype),
                         name(c.op), c.count, c.in_place, c.root, np,
                         c.options.contains(kCountsOption) ? c.options.at(kCountsOption) : "-"));
        REQUIRE(total[i] == 0);
        ++checked;
      }
    }
  }
  CHECK(checked > 0);
}

TEST_CASE("the default segment size validates too, and unknown algorithms are refused", "[mpi][reference]") {
  int np = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  for (const char* alg : {"segmented_ring", "ring"}) {
    // 70000 elements: more than one 64 KiB segment per rank block at small np.
    const Case c = test::make_case("reference", Collective::allreduce, alg, Dtype::float32, Op::sum, 70000, np);
    ReferenceBackend backend;
    backend.prepare(c, test::measured());
    backend.run_once();  // timed calls run on the validation inputs: twice in a row must still work
    CHECK(sum_over_ranks(backend.validate()) == 0);
    backend.release();
  }
  Case bad;
  bad.backend = "reference";
  bad.algorithm = "no_such_algorithm";
  bad.np = np;
  ReferenceBackend backend;
  CHECK_THROWS_AS(backend.prepare(bad, test::measured()), std::invalid_argument);
}

namespace {
// A phase policy that logs names: what an instrumentation hook plugs in.
struct PhaseLog {
  std::vector<std::string>* names;
  void operator()(const char* name) const { names->emplace_back(name); }
};
}  // namespace

TEST_CASE("MpiTransport runs an algorithm directly and calls its phase policy", "[mpi][reference]") {
  int np = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<std::string> phases;
  transport::MpiTransport<PhaseLog> t(test::measured(), Dtype::int32, MPI_INT32_T, Op::sum, PhaseLog{&phases});
  const std::size_t count = 10;
  const auto* entry = reference::find_algorithm<decltype(t)>(Collective::allreduce, "rabenseifner");
  REQUIRE(entry != nullptr);
  t.reserve(entry->traits.scratch(count, np, 0), 2 * static_cast<std::size_t>(np));
  std::vector<std::int32_t> buf(count, rank + 1);
  entry->run(t, reference::CallArgs{.send = nullptr, .recv = buf.data(), .count = count, .in_place = true});
  const auto expected = static_cast<std::int32_t>(np * (np + 1) / 2);
  std::uint64_t wrong = 0;
  for (std::int32_t x : buf) wrong += x != expected;
  CHECK(sum_over_ranks(wrong) == 0);
  const std::vector<std::string> all{"fold", "reduce-scatter", "allgather", "unfold"};
  const std::vector<std::string> folded_out{"fold", "unfold"};
  // Ranks folded out of the power-of-two core skip the core's phases.
  const bool out = rank < 2 * (np - (1 << static_cast<int>(std::log2(np)))) && rank % 2 == 0;
  CHECK(phases == (out ? folded_out : all));
}
