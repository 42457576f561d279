// SPDX-License-Identifier: BSD-3-Clause
// The MPI library backend against the closed-form results: every collective,
// every dtype/op pair MPI defines, in place and not, counts 0, 1, below np,
// not divisible by np, and larger. Run under mpirun with 1..4 ranks.
#include <algorithm>
#include <set>
#include <vector>
#include <utility>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <mpi.h>

#include "backends/backend.hpp"
#include "backends/fault/fault_backend.hpp"
#include "backends/mpi/library_calls.hpp"
#include "backends/mpi/mpi_backend.hpp"
#include "collectives/count_matrix.hpp"
#include "collectives/spec.hpp"
#include "config/backends.hpp"
#include "core/gpu_support.hpp"
#include "worker/backend_registry.hpp"
#include "worker/launch_info.hpp"
#include "worker/overlap.hpp"
#include "worker/timing_loop.hpp"
#include "mpi_test_util.hpp"

namespace {

using namespace pico;

using test::sum_over_ranks;

int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

Case make_case(Collective coll, Dtype dtype, Op op, std::uint64_t count, bool in_place) {
  return test::make_case("mpi", coll, "default", dtype, op, count, world_size(), in_place);
}

std::uint64_t validate_with(Backend& backend, const Case& c) {
  backend.prepare(c, test::measured());
  const std::uint64_t mismatches = sum_over_ranks(backend.validate());
  backend.release();
  return mismatches;
}

const std::uint64_t kCounts[] = {0, 1, 3, 5, 7, 64, 1001};

}  // namespace

TEST_CASE("every collective, dtype, op and count validates exactly", "[mpi]") {
  std::set<std::pair<Collective, bool>> covered;  // (collective, in place) validated at least once
  for (Collective coll : all_collectives()) {
    const CollectiveSpec& spec = spec_for(coll);
    for (Dtype dtype : host_dtypes()) {
      const std::vector<Op> ops = spec.has_op ? std::vector<Op>(all_ops().begin(), all_ops().end())
                                              : std::vector<Op>{Op::none};
      for (Op op : ops) {
        for (bool in_place : {false, true}) {
          if (in_place && !spec.supports_in_place()) continue;
          for (std::uint64_t count : kCounts) {
            MpiBackend backend;
            const Case c = make_case(coll, spec.has_payload ? dtype : Dtype::none, op, count, in_place);
            INFO(fmt::format("{} {} {} count={} in_place={} np={}", name(coll), name(dtype), name(op), count,
                             in_place, c.np));
            REQUIRE(validate_with(backend, c) == 0);
            covered.insert({coll, in_place});
          }
        }
      }
    }
  }
  // Derived from the specs, not pinned: every collective ran, and in place wherever its spec has that form.
  for (Collective coll : all_collectives()) {
    INFO(name(coll));
    CHECK(covered.contains({coll, false}));
    CHECK(covered.contains({coll, true}) == spec_for(coll).supports_in_place());
  }
}

// A count-matrix collective (alltoallv) under every test pattern, in each
// call form, called twice on one case: the library's counts and
// displacements are the pattern's, and every block arrives whole and in place.
TEST_CASE("alltoallv validates under every count pattern in every call form", "[mpi][alltoallv]") {
  const int np = world_size();
  for (CallForm form : kCallForms) {
    if (form == CallForm::persistent && persistent_interface()[0] == '\0') continue;
    for (const std::string& pattern : test::count_patterns_for_tests(np)) {
      for (std::uint64_t count : {0ULL, 1ULL, 7ULL, 1001ULL}) {
        MpiBackend backend;
        Case c = make_case(Collective::alltoallv, Dtype::int32, Op::none, count, false);
        c.options[kCountsOption] = pattern;
        if (form != CallForm::blocking) c.options[kCall] = std::string(name(form));
        INFO(fmt::format("{} {} count={} np={}", name(form), pattern, count, np));
        backend.prepare(c, test::measured());
        for (int call = 0; call < 2; ++call) CHECK(sum_over_ranks(backend.validate()) == 0);
        backend.release();
      }
    }
  }
}

// MPICH 4.0.2's persistent allgather, gather and scatter leave received
// blocks as they were before the start: always the block a rank provides
// itself (as if that local copy were made once, at MPI_<Coll>_init), at times
// more (docs/configuration.md#call-forms). The most elements, over all ranks,
// that can then keep validation's sentinel; 0 where none may.
static std::uint64_t mpich_stale_bound(const Case& c) {
  if (call_form(c) != CallForm::persistent || detect_mpi_library().name != "mpich") return 0;
  const bool affected = c.collective == Collective::allgather || c.collective == Collective::gather ||
                        c.collective == Collective::scatter;
  return affected ? c.count * static_cast<std::uint64_t>(c.np) : 0;
}

// Every collective's non-blocking (MPI_I<Coll>, MPI_Waitall) and persistent
// (MPI_<Coll>_init once, MPI_Start/MPI_Wait per call) forms, called three times on one case.
TEST_CASE("every collective's non-blocking and persistent forms validate exactly, call after call", "[mpi]") {
  const std::uint64_t counts[] = {0, 1, 7, 1001};
  for (CallForm form : {CallForm::nonblocking, CallForm::persistent}) {
    if (form == CallForm::persistent && persistent_interface()[0] == '\0') {
      WARN("persistent skipped: this MPI has neither MPI 4.0's MPI_<Coll>_init nor Open MPI's MPIX_ pcollreq");
      continue;
    }
    for (Collective coll : all_collectives()) {
      const CollectiveSpec& spec = spec_for(coll);
      for (bool in_place : {false, true}) {
        if (in_place && !spec.supports_in_place()) continue;
        for (std::uint64_t count : spec.has_payload ? std::vector<std::uint64_t>(std::begin(counts), std::end(counts))
                                                    : std::vector<std::uint64_t>{0}) {
          MpiBackend backend;
          Case c = make_case(coll, spec.has_payload ? Dtype::int32 : Dtype::none, spec.has_op ? Op::sum : Op::none,
                             count, in_place);
          c.options[kCall] = std::string(name(form));
          INFO(fmt::format("{} {} count={} in_place={} np={}", name(form), name(coll), count, in_place, c.np));
          backend.prepare(c, test::measured());
          for (int call = 0; call < 3; ++call) {
            // validate() rewrites the inputs and the receive buffer's sentinels, then calls again.
            const std::uint64_t bad = sum_over_ranks(backend.validate());
            if (const std::uint64_t bound = mpich_stale_bound(c); bad != 0 && bad <= bound) {
              WARN(fmt::format("MPICH's persistent {} left {} elements as they were before the start", name(coll),
                               bad));
            } else {
              CHECK(bad == 0);
            }
          }
          backend.release();
        }
      }
    }
  }
}

// The prefix reductions depend on every rank's position: CTest also runs this
// on 5..9 ranks (oversubscribed, tests/CMakeLists.txt), with the library's default algorithm.
TEST_CASE("the library's scan and exscan validate on any number of ranks", "[mpi][prefix]") {
  const std::uint64_t counts[] = {0, 1, 7, 1001};
  for (Collective coll : {Collective::scan, Collective::exscan})
    for (Dtype dtype : {Dtype::uint8, Dtype::int32, Dtype::float64})
      for (Op op : all_ops())
        for (bool in_place : {false, true})
          for (std::uint64_t count : counts) {
            MpiBackend backend;
            const Case c = make_case(coll, dtype, op, count, in_place);
            INFO(fmt::format("{} {} {} count={} in_place={} np={}", name(coll), name(dtype), name(op), count,
                             in_place, c.np));
            REQUIRE(validate_with(backend, c) == 0);
          }
}

TEST_CASE("validation counts exactly the corrupted element", "[mpi]") {
  for (Collective coll : {Collective::allreduce, Collective::bcast, Collective::reduce, Collective::allgather,
                          Collective::gather, Collective::alltoall, Collective::reduce_scatter,
                          Collective::reduce_scatterv, Collective::scan, Collective::exscan, Collective::sendrecv}) {
    if (coll == Collective::exscan && world_size() == 1) continue;  // rank 0's exscan result is not checked
    FaultBackend backend("corrupt");
    Case c = make_case(coll, Dtype::float32, spec_for(coll).has_op ? Op::sum : Op::none, 100, false);
    c.backend = "fault";
    INFO(name(coll));
    CHECK(validate_with(backend, c) == 1);
  }
}

TEST_CASE("the timed loop honours min and max iterations", "[mpi]") {
  MpiBackend backend;
  const Case c = make_case(Collective::allreduce, Dtype::float32, Op::sum, 16, false);
  backend.prepare(c, test::measured());
  TimingSpec spec;
  spec.warmup = 2;
  spec.min_iterations = 7;
  spec.max_iterations = 7;
  spec.target_ci = 0;  // unreachable (the rule is half-width < target): only the caps can stop it
  spec.time_budget_s = 100;
  TimedSamples t = run_timed(backend, spec, test::harness());
  CHECK(t.samples_s.size() == 7);
  CHECK(t.stop_reason == "max_iterations");

  spec.min_iterations = 5;
  spec.max_iterations = 1000000;
  spec.time_budget_s = 0.05;
  t = run_timed(backend, spec, test::harness());
  CHECK(t.stop_reason == "time_budget");
  CHECK(t.samples_s.size() >= 5);

  // Every rank holds the same samples (the slowest rank's time per iteration).
  double first = t.samples_s.front(), max_first = 0;
  MPI_Allreduce(&first, &max_first, 1, MPI_DOUBLE, MPI_MAX, test::harness());
  CHECK(first == max_first);
  backend.release();
}

namespace {

// A backend whose call is 50 us of host busy-waiting, counted.
class CountingBackend final : public Backend {
 public:
  static constexpr double kCallSeconds = 50e-6;
  void prepare(const Case&, MPI_Comm) override {}
  void run_once() override {
    ++calls;
    const double start = MPI_Wtime();
    while (MPI_Wtime() - start < kCallSeconds) {
    }
  }
  std::uint64_t validate() override { return 0; }
  void release() override {}
  std::int64_t calls = 0;
};

}  // namespace

TEST_CASE("throughput batches time their calls together and report the time per call", "[mpi]") {
  CountingBackend backend;
  TimingSpec spec;
  spec.mode = TimingMode::throughput;
  spec.calls_per_sample = 50;
  spec.warmup = 1;
  spec.min_iterations = 4;
  spec.max_iterations = 4;
  spec.target_ci = 0;
  spec.time_budget_s = 100;
  const Pacing pacing = pacing_of(spec);
  CHECK(method_name(pacing) == "batch");
  CHECK_FALSE(pacing.barrier_each);
  const TimedSamples t = run_timed(backend, spec, test::harness());
  CHECK(backend.calls == (1 + 4) * 50);  // warm-up and timed samples alike hold 50 calls
  REQUIRE(t.samples_s.size() == 4);
  std::vector<double> sorted = t.samples_s;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted.front() >= CountingBackend::kCallSeconds);           // per call, not less
  CHECK(sorted[1] < 20 * CountingBackend::kCallSeconds);             // divided by 50, not the batch's time

  spec.calls_per_sample = 1;
  CHECK(method_name(pacing_of(spec)) == "back_to_back");
  spec.mode = TimingMode::latency;
  CHECK(method_name(pacing_of(spec)) == "barrier_each");
  spec.mode = TimingMode::throughput;
  spec.graph = true;
  spec.calls_per_sample = 8;
  CHECK(method_name(pacing_of(spec)) == "graph");
  CHECK(pacing_of(spec).calls_per_sample == 8);
}

namespace {

// A split call whose communication takes kSeconds from its start, either
// progressing by itself (an offloading network: the wait only waits out what
// is left) or only inside the wait (no asynchronous progress at all).
class SplitBackend final : public Backend {
 public:
  static constexpr double kSeconds = 1e-3;
  explicit SplitBackend(bool progresses_alone) : progresses_alone_(progresses_alone) {}
  void prepare(const Case&, MPI_Comm) override {}
  void run_once() override {
    start_call();
    wait_call();
  }
  bool splits_call() const override { return true; }
  void start_call() override { started_ = MPI_Wtime(); }
  void wait_call() override {
    const double from = progresses_alone_ ? started_ : MPI_Wtime();
    while (MPI_Wtime() - from < kSeconds) {
    }
  }
  std::uint64_t validate() override { return 0; }
  void release() override {}

 private:
  bool progresses_alone_;
  double started_ = 0;
};

}  // namespace

// OSU's two loops and formula on calls whose overlap is known: all of the
// communication hidden, or none. A loaded 2-core machine deschedules ranks
// for milliseconds, which inflates the pure time the exposed case is divided
// by; so that case is asserted by what no descheduling can shorten: its wait
// busy-waits a whole call after the computation.
TEST_CASE("the overlap measurement finds a call that progresses alone hidden, and one that does not exposed",
          "[mpi][overlap]") {
  SplitBackend offloaded(true), stalled(false);
  const Overlap hidden = measure_overlap(offloaded, 40, 2, 100, test::harness());
  const Overlap exposed = measure_overlap(stalled, 40, 2, 100, test::harness());
  INFO(fmt::format("hidden: {}% of {} us; exposed: {}% of {} us", hidden.percent, hidden.pure_comm_s * 1e6,
                   exposed.percent, exposed.pure_comm_s * 1e6));
  for (const Overlap& o : {hidden, exposed}) {
    CHECK(o.iterations == 40);
    CHECK(o.pure_comm_s >= SplitBackend::kSeconds);
    CHECK(o.compute_s >= o.pure_comm_s * (1 - 1e-12));  // each rank computes at least its own pure time
    CHECK(o.overall_s >= o.compute_s);
    CHECK(o.percent == Overlap::osu_percent(o.overall_s, o.compute_s, o.pure_comm_s));
  }
  CHECK(hidden.percent > 70);
  CHECK(exposed.wait_s >= SplitBackend::kSeconds);
  CHECK(exposed.overall_s >= exposed.compute_s + SplitBackend::kSeconds);
  CHECK(exposed.percent < hidden.percent);
  CHECK(hidden.wait_s < exposed.wait_s);
}

// The library's own non-blocking calls, measured the same way: every rank
// returns the same result and OSU's quantities keep their order.
TEST_CASE("the mpi backend's non-blocking calls measure their overlap", "[mpi][overlap]") {
  for (Collective coll : {Collective::allreduce, Collective::bcast, Collective::barrier}) {
    MpiBackend backend;
    const CollectiveSpec& spec = spec_for(coll);
    Case c = make_case(coll, spec.has_payload ? Dtype::float32 : Dtype::none, spec.has_op ? Op::sum : Op::none,
                       spec.has_payload ? 4096 : 0, false);
    c.options[kCall] = std::string(name(CallForm::nonblocking));
    backend.prepare(c, test::measured());
    REQUIRE(backend.splits_call());
    const Overlap o = measure_overlap(backend, 20, 2, 100, test::harness());
    INFO(fmt::format("{}: {}% of {} us", name(coll), o.percent, o.pure_comm_s * 1e6));
    CHECK(o.pure_comm_s > 0);
    CHECK(o.compute_s >= o.pure_comm_s * (1 - 1e-12));
    CHECK(o.overall_s >= o.compute_s + o.init_s * (1 - 1e-9));
    CHECK((o.percent >= 0 && o.percent <= 100));
    double percent = o.percent, highest = 0;
    MPI_Allreduce(&percent, &highest, 1, MPI_DOUBLE, MPI_MAX, test::harness());
    CHECK(percent == highest);
    CHECK(sum_over_ranks(backend.validate()) == 0);  // the calls left the case as it was
    backend.release();
  }
  // The blocking and persistent forms have no halves to put computation between.
  MpiBackend blocking;
  blocking.prepare(make_case(Collective::allreduce, Dtype::float32, Op::sum, 16, false), test::measured());
  CHECK_FALSE(blocking.splits_call());
  blocking.release();
}

TEST_CASE("the overlap loops take OSU's counts, or stop together within the case's time budget", "[mpi][overlap]") {
  CHECK(overlap_iterations(8192) == 1000);  // OSU: 1,000 calls up to 8 KiB
  CHECK(overlap_iterations(8193) == 100);   // 100 above
  SplitBackend slow(false);                 // 1 ms calls: a 30 ms budget allows the first loop about 10
  const double start = MPI_Wtime();
  const Overlap o = measure_overlap(slow, 1000, 1, 0.03, test::harness());
  const double took = MPI_Wtime() - start;
  CHECK(o.iterations >= 1);
  CHECK(o.iterations < 40);
  CHECK(took < 1.0);
  std::int64_t mine = o.iterations, most = 0;
  MPI_Allreduce(&mine, &most, 1, MPI_INT64_T, MPI_MAX, test::harness());
  CHECK(mine == most);  // every rank ran the same number of calls
}

TEST_CASE("the MPI library is recognised from its version string", "[mpi]") {
  CHECK(parse_mpi_library("Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4").name == "openmpi");
  CHECK(parse_mpi_library("Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4").version == "4.1.4");
  CHECK(parse_mpi_library("MPICH Version:\t4.0.2\nMPICH Release date: ...").name == "mpich");
  CHECK(parse_mpi_library("MPICH Version:\t4.0.2\nMPICH Release date: ...").version == "4.0.2");
  CHECK(parse_mpi_library("Intel(R) MPI Library 2021").name == "unknown");
  CHECK(detect_mpi_library().name != "unknown");
}

TEST_CASE("the worker's library agrees with a plan for it and refuses a plan for the other", "[mpi][mpi-identity]") {
  const MpiIdentity running = detect_mpi_library().identity();
  REQUIRE(running.library != "unknown");
  CHECK(mpi_library_mismatch({running.library, ""}, running).empty());
  const MpiIdentity other{running.library == "openmpi" ? "mpich" : "openmpi", ""};
  CHECK_FALSE(mpi_library_mismatch(other, running).empty());
}

TEST_CASE("every backend descriptor has a factory in this worker", "[mpi][backends]") {
  for (const auto& d : known_backends()) {
    CAPTURE(d.name);
    const Case c = test::make_case(d.name, Collective::allreduce, d.algorithms.front(), Dtype::float32, Op::sum, 1, 1);
    // A build without NCCL names what it lacks instead of building a backend.
    if (d.status != nullptr && gpu::nccl_build_version().empty())
      CHECK_THROWS_WITH(make_backend(d.kind, c), Catch::Matchers::Contains("built with the NCCL backend"));
    else
      CHECK(make_backend(d.kind, c) != nullptr);
  }
}
