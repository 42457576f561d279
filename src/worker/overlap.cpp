// SPDX-License-Identifier: BSD-3-Clause
#include "worker/overlap.hpp"

#include <array>

#include "harness/harness.hpp"

namespace pico {
namespace {

// The computation put between start and wait: floating-point work on data
// that stays in L1, with no MPI call, so that only the library's own
// asynchronous progress (a progress thread, the network's offload) can move
// the communication on meanwhile. Like OSU's dummy_compute (a loop of
// compute_on_host until the target has elapsed), it runs in small units and
// stops at the first clock reading past the target, so it lasts at least
// `seconds` and at most one unit (well under a microsecond) more.
class BusyCompute {
 public:
  BusyCompute() {
    for (std::size_t i = 0; i < values_.size(); ++i) values_[i] = 1.0 + 1e-9 * static_cast<double>(i);
  }
  void run_for(double seconds) {
    const double start = MPI_Wtime();
    do {
      for (double& v : values_) v = v * 0.999999999 + 1e-9;
    } while (MPI_Wtime() - start < seconds);
    sink_ = values_[0];  // the work's result is used, so the compiler keeps it
  }

 private:
  std::array<double, 64> values_{};
  volatile double sink_ = 0;
};

struct OverlapTimes {  // sums over the timed calls on this rank, in seconds
  double pure = 0, overall = 0, compute = 0, init = 0, wait = 0;
};

}  // namespace

std::int64_t overlap_iterations(std::uint64_t bytes) {
  // COLL_LOOP_SMALL and COLL_LOOP_LARGE, switched above LARGE_MESSAGE_SIZE (osu_util.h).
  return bytes > 8192 ? 100 : 1000;
}

Overlap measure_overlap(Backend& backend, std::int64_t max_iterations, std::int64_t skip, double budget_s,
                        MPI_Comm harness) {
  BusyCompute compute;
  OverlapTimes t;
  // After each call, every rank learns the slowest rank's elapsed time, so
  // that all stop together; then the barrier OSU has, which releases the
  // ranks together (a reduction leaves them skewed by its tree, and that
  // skew would show in the next call's time).
  const auto elapsed_everywhere = [&](double since) {
    double elapsed = MPI_Wtime() - since;
    harness::allreduce(harness, &elapsed, 1, harness::Reduction::max);
    harness::barrier(harness);
    return elapsed;
  };
  harness::barrier(harness);
  std::int64_t iterations = 0;
  const double first_start = MPI_Wtime();
  for (std::int64_t i = 0; iterations < max_iterations; ++i) {
    const double start = MPI_Wtime();
    backend.start_call();
    backend.wait_call();
    const double pure = MPI_Wtime() - start;
    if (i >= skip) {
      t.pure += pure;
      ++iterations;
    }
    if (elapsed_everywhere(first_start) >= budget_s / 3 && iterations > 0) break;
  }
  // Each rank computes for its own mean pure time, as OSU's init_arrays(latency) calibrates per rank.
  const double target = t.pure / static_cast<double>(iterations);
  harness::barrier(harness);
  for (std::int64_t i = 0; i < skip + iterations; ++i) {
    const double start = MPI_Wtime();
    backend.start_call();
    const double started = MPI_Wtime();
    compute.run_for(target);
    const double computed = MPI_Wtime();
    backend.wait_call();
    const double stop = MPI_Wtime();
    if (i >= skip) {
      t.overall += stop - start;
      t.init += started - start;
      t.compute += computed - started;
      t.wait += stop - computed;
    }
    harness::barrier(harness);
  }
  // Per-call means, averaged over ranks (OSU reduces each with MPI_SUM and divides by the size).
  std::array<double, 5> means = {t.pure, t.overall, t.compute, t.init, t.wait};
  harness::allreduce(harness, means.data(), static_cast<int>(means.size()), harness::Reduction::sum);
  int ranks = 1;
  MPI_Comm_size(harness, &ranks);
  for (double& m : means) m /= static_cast<double>(iterations) * ranks;
  Overlap o;
  o.iterations = iterations;
  o.pure_comm_s = means[0];
  o.overall_s = means[1];
  o.compute_s = means[2];
  o.init_s = means[3];
  o.wait_s = means[4];
  o.percent = Overlap::osu_percent(o.overall_s, o.compute_s, o.pure_comm_s);
  return o;
}

}  // namespace pico
