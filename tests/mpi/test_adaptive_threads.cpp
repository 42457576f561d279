// SPDX-License-Identifier: BSD-3-Clause
// Adaptive Top-k's choice of k under an injected link (its clock is the
// seam: the communicate phase takes what a link of a given bandwidth would
// take, per rank), and the kernels' threads per rank through the backend.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <vector>

#include "compression/backends/compressed_backend.hpp"
#include "compression/families/adaptive_topk.hpp"
#include "compression/families/registry.hpp"
#include "compression/kernels/kernel_threads.hpp"
#include "compression/kernels/kernels.hpp"
#include "compression/options/options.hpp"
#include "mpi_test_util.hpp"

namespace {

using namespace pico;

// A link of `bytes_per_second` as the algorithm's clock: the second reading
// of each pair (the end of the allgather) is later by the call's wire bytes
// over the bandwidth, whatever the real transfer took.
struct InjectedLink {
  double bytes_per_second = 0;
  const compressed::AdaptiveTopk* algorithm = nullptr;
  bool started = false;
  double read() {
    started = !started;
    return started ? 0.0 : algorithm->wire().wire_bytes / bytes_per_second;
  }
};

struct Trace {
  std::vector<std::size_t> k;  // per call
  nlohmann::json described;
};

// `calls` calls of adaptive_topk on a link whose bandwidth on rank r is base (1 + r / 2).
Trace run_on_link(double base, int calls, const std::map<std::string, double>& params) {
  int np = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::size_t n = 100000;
  std::vector<float> in(n), out(n);
  compressed::generate_input(compressed::InputSpec{}, rank, in);
  InjectedLink link{.bytes_per_second = base * (1 + 0.5 * rank)};
  compressed::AdaptiveTopk algorithm(compressed::Setup{MPI_COMM_WORLD, rank, np, n, 5, params},
                                     [&link] { return link.read(); });
  link.algorithm = &algorithm;
  Trace trace;
  for (int c = 0; c < calls; ++c) {
    algorithm.run(in, out, static_cast<std::uint64_t>(c));
    // Every rank chose the same k.
    unsigned long long k[2] = {algorithm.k(), ~static_cast<unsigned long long>(algorithm.k())};
    MPI_Allreduce(MPI_IN_PLACE, k, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    INFO(fmt::format("call {}", c));
    CHECK(k[0] == ~k[1]);
    trace.k.push_back(algorithm.k());
  }
  trace.described = algorithm.describe();
  return trace;
}

}  // namespace

TEST_CASE("Adaptive Top-k: ranks agree on k, which follows the measured bandwidth", "[compressed]") {
  int np = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  const std::size_t n = 100000;
  const std::map<std::string, double> params{
      {"time_target", 0.001}, {"min_ratio", 0.001}, {"max_ratio", 0.2}, {"topk_ratio", 0.01}};
  const compressed::RatioRule rule{.time_target_s = 0.001, .min_ratio = 0.001, .max_ratio = 0.2};
  const compressed::WireModel wire{8.0 * (np - 1), 8.0 * (np - 1)};
  const std::size_t start_k = compressed::elements_for_ratio(0.01, n);
  // 40 MB/s per peer sends about 5000 pairs in 1 ms; the slow link a quarter. Not
  // round numbers, so that no k lies within rounding of a whole number.
  const double fast = 41.77e6 * std::max(1, np - 1) + 123.4, slow = fast / 4;
  const Trace on_fast = run_on_link(fast, 6, params);
  const Trace on_slow = run_on_link(slow, 6, params);
  // Calls 0 and 1 use topk_ratio: call 1's allgather brings call 0's times.
  CHECK(on_fast.k[0] == start_k);
  CHECK(on_fast.k[1] == start_k);
  if (np == 1) {  // nothing crosses a wire: nothing measured, the start ratio throughout
    CHECK(std::all_of(on_fast.k.begin(), on_fast.k.end(), [&](std::size_t k) { return k == start_k; }));
    return;
  }
  // From call 2 on: the fastest rank's bandwidth (the one that waited least)
  // in the rule; the link's time is linear in bytes, so the estimate is exact.
  const double fastest = fast * (1 + 0.5 * (np - 1));
  const std::size_t expected = compressed::elements_for_ratio(compressed::choose_ratio(rule, fastest, wire, n), n);
  for (std::size_t c = 2; c < on_fast.k.size(); ++c) CHECK(on_fast.k[c] == expected);
  CHECK(on_slow.k.back() < on_fast.k.back());
  CHECK(on_slow.k.back() > static_cast<std::size_t>(rule.min_ratio * n));  // not clamped: the rule chose it
  // describe() shows the adaptation call by call.
  INFO(on_fast.described.dump());
  const auto& per_call = on_fast.described.at("ratio_per_call");
  CHECK(per_call.at("calls").get<int>() == 6);
  CHECK(per_call.at("first").at(0).get<double>() == Approx(static_cast<double>(start_k) / n));
  CHECK(per_call.at("last").get<double>() == Approx(static_cast<double>(expected) / n));
  CHECK(on_fast.described.at("bandwidth_Bps").get<double>() == Approx(fastest));
}

TEST_CASE("Adaptive Top-k: the checked call replays exactly, after adapting", "[compressed]") {
  int np = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  compressed::Options options;
  options.bias_calls = 4;
  Case c = test::make_case("compressed", Collective::allreduce, "adaptive_topk", Dtype::float32, Op::sum, 50000, np);
  c.params = {{"time_target", 0.0002}, {"min_ratio", 0.002}, {"max_ratio", 0.3}};
  c.options = compressed::options_to_case(options);
  CompressedBackend backend;
  backend.prepare(c, test::measured());
  for (int i = 0; i < 5; ++i) backend.run_once();  // real timing: whatever k, the ranks agree and the check replays it
  CHECK(test::sum_over_ranks(backend.validate()) == 0);
  const auto metrics = backend.compression(test::harness());
  INFO(metrics.dump());
  CHECK(metrics["identical_across_ranks"].get<bool>());
  CHECK(metrics["parameters"]["ratio_per_call"]["calls"].get<int>() == 5);
  backend.release();
}

TEST_CASE("threads per rank: set for the case, results as on one thread", "[compressed]") {
  int np = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // The option reaches the kernels for the case's lifetime.
  compressed::Options options;
  options.threads = 3;
  Case c = test::make_case("compressed", Collective::allreduce, "global_qsgd", Dtype::float32, Op::sum, 1000, np);
  c.options = compressed::options_to_case(options);
  {
    CompressedBackend backend;
    backend.prepare(c, test::measured());
    CHECK(compressed::kernel_threads() == 3);
    backend.release();
  }
  CHECK(compressed::kernel_threads() == 1);
  // Whole algorithms, stochastic and deterministic, on 1 and 3 threads: the same bits.
  const std::size_t n = 200003;
  std::vector<float> in(n), one(n), three(n);
  compressed::generate_input(compressed::InputSpec{}, rank, in);
  const compressed::Setup setup{MPI_COMM_WORLD, rank, np, n, 99, {{"bits", 8}, {"topk_ratio", 0.01}}};
  for (const char* name : {"global_qsgd", "global_qsgd_exponential", "topk"}) {
    auto single = compressed::make_compressed_allreduce(name, setup);
    auto threaded = compressed::make_compressed_allreduce(name, setup);
    for (std::uint64_t call : {0, 1, 2}) {
      single->run(in, one, call);
      {
        const compressed::ScopedKernelThreads threads(3);
        threaded->run(in, three, call);
      }
      INFO(fmt::format("{} call {}", name, call));
      CHECK(compressed::count_unequal_bits(three, one) == 0);
    }
  }
}
