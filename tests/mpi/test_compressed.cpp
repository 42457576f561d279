// SPDX-License-Identifier: BSD-3-Clause
// Compressed allreduce under mpirun with 1..5 ranks: every algorithm, for
// counts 0, 1, p+1, 1000 and 4099, for each input distribution and
// correlation: the result is within what the algorithm guarantees (Top-k
// bit for bit its replay), identical on all ranks, its error within the
// theoretical variance bound where there is one, and unbiased methods show
// no bias beyond the noise of the averaged calls.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <mpi.h>

#include <cmath>

#include "compression/allreduce/compressed_allreduce.hpp"
#include "compression/backends/compressed_backend.hpp"
#include "compression/families/adaptive_topk.hpp"
#include "compression/families/registry.hpp"
#include "compression/families/ef_sign.hpp"
#include "compression/families/hard_threshold.hpp"
#include "compression/families/powersgd.hpp"
#include "compression/kernels/kernels.hpp"
#include "compression/options/options.hpp"
#include "mpi_test_util.hpp"

namespace {

using namespace pico;

Case compressed_case(const std::string& algorithm, std::uint64_t count, int np, std::map<std::string, double> params,
                     const compressed::Options& options) {
  Case c = test::make_case("compressed", Collective::allreduce, algorithm, Dtype::float32, Op::sum, count, np);
  c.params = std::move(params);
  c.options = compressed::options_to_case(options);
  return c;
}

struct Variant {
  const char* algorithm;
  std::map<std::string, double> params;
  bool unbiased;
};

const Variant kVariants[] = {
    {"dense", {}, true},
    {"global_qsgd", {{"bits", 8}}, true},
    {"global_qsgd", {{"bits", 16}}, true},
    {"global_qsgd_ring", {{"bits", 8}}, true},
    {"global_qsgd_rabenseifner", {{"bits", 16}}, true},
    {"global_qsgd_recursive_doubling", {{"bits", 8}}, true},
    {"global_qsgd_segmented_ring", {{"bits", 16}}, true},
    {"global_qsgd_reduce_bcast", {{"bits", 8}}, true},
    {"global_qsgd_exponential", {}, true},
    {"global_qsgd_pipelined", {{"bits", 8}, {"chunks", 3}}, true},
    {"global_qsgd_pipelined", {{"bits", 16}, {"chunks", 1}}, true},
    {"randomk", {{"topk_ratio", 0.3}}, true},
    {"sign_majority", {}, false},
    {"topk", {{"topk_ratio", 0.05}, {"error_feedback", 1}}, false},
    {"topk", {{"topk_ratio", 0.3}, {"error_feedback", 0}}, false},
    {"topk_sparse", {{"topk_ratio", 0.05}, {"error_feedback", 1}}, false},
    {"topk_sparse", {{"topk_ratio", 0.9}, {"error_feedback", 0}}, false},  // fill-in: blocks go dense
    {"adaptive_topk", {{"time_target", 0.001}, {"error_feedback", 1}}, false},  // k as timed: the check replays it
    {"hard_threshold", {{"threshold", 1.0}, {"error_feedback", 1}}, false},
    {"ef_sign", {{"error_feedback", 1}}, false},
    {"powersgd", {{"powersgd_rank", 2}, {"error_feedback", 1}}, false},
    {"powersgd", {{"powersgd_rank", 64}, {"error_feedback", 0}}, false},  // full rank at these counts
};

}  // namespace

TEST_CASE("compressed allreduce: within its guarantee, identical on all ranks", "[compressed]") {
  int np = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  const auto p = static_cast<std::uint64_t>(np);
  for (const auto& v : kVariants) {
    for (auto distribution : {compressed::Distribution::normal, compressed::Distribution::laplace,
                              compressed::Distribution::student_t}) {
      for (auto correlation : {compressed::Correlation::independent, compressed::Correlation::correlated,
                               compressed::Correlation::identical}) {
        for (std::uint64_t count : {std::uint64_t{0}, std::uint64_t{1}, p + 1, std::uint64_t{1000}, std::uint64_t{4099}}) {
          compressed::Options options;
          options.inputs.distribution = distribution;
          options.inputs.correlation = correlation;
          options.inputs.seed = 7 + count;
          options.bias_calls = 4;
          const Case c = compressed_case(v.algorithm, count, np, v.params, options);
          INFO(fmt::format("{} {} {} {} count {}", v.algorithm, c.params.size(), compressed::name(distribution),
                           compressed::name(correlation), count));
          CompressedBackend backend;
          backend.prepare(c, test::measured());
          backend.run_once();
          CHECK(test::sum_over_ranks(backend.validate()) == 0);
          const auto metrics = backend.compression(test::harness());
          CHECK(metrics["identical_across_ranks"].get<bool>());
          // A hard threshold sends nothing when no entry reaches it (count 1 often).
          if (count > 0 && std::string(v.algorithm) != "hard_threshold")
            CHECK(metrics["payload_bytes_per_rank"].get<double>() > 0);
          backend.release();
        }
      }
    }
  }
}

// The error of one call against the closed-form MSE bound, and the average of
// many calls against the exact mean: an unbiased quantiser's average error
// falls as 1/sqrt(calls), a biased one's stays.
TEST_CASE("Global-QSGD: MSE within the variance bound, unbiased over calls", "[compressed]") {
  int np = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  for (int bits : {8, 16}) {
    if (bits == 8 && np > 127) continue;
    compressed::Options options;
    options.bias_calls = 64;
    const Case c = compressed_case("global_qsgd", 20000, np, {{"bits", bits}}, options);
    CompressedBackend backend;
    backend.prepare(c, test::measured());
    const auto m = backend.compression(test::harness());
    INFO(m.dump());
    // 20000 elements: the observed MSE concentrates within a few percent of its expectation.
    CHECK(m["mse"].get<double>() <= 1.2 * m["mse_bound"].get<double>());
    CHECK(m["bias_rel_l2"].get<double>() <= 1.5 * m["bias_noise_floor_rel_l2"].get<double>());
    backend.release();
  }
}

// Random-k with the 1/q scaling: one call's error is large, the average of
// many calls (different shared subsets) falls as 1/sqrt(calls).
TEST_CASE("Random-k: unbiased over calls", "[compressed]") {
  int np = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  compressed::Options options;
  options.bias_calls = 64;
  const Case c = compressed_case("randomk", 20000, np, {{"topk_ratio", 0.25}}, options);
  CompressedBackend backend;
  backend.prepare(c, test::measured());
  const auto m = backend.compression(test::harness());
  INFO(m.dump());
  CHECK(m["bias_rel_l2"].get<double>() <= 1.5 * m["bias_noise_floor_rel_l2"].get<double>());
  CHECK(m["rel_l2_error"].get<double>() > 0.5);  // one call: most entries dropped, the rest scaled by 4
  backend.release();
}

// Sign majority is deterministic: the average of calls is one call, so its
// bias is its error (a biased method, unlike the dithered ones).
TEST_CASE("Sign majority: deterministic, its bias is its error", "[compressed]") {
  int np = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  compressed::Options options;
  options.bias_calls = 8;
  const Case c = compressed_case("sign_majority", 20000, np, {}, options);
  CompressedBackend backend;
  backend.prepare(c, test::measured());
  const auto m = backend.compression(test::harness());
  INFO(m.dump());
  CHECK(m["bias_rel_l2"].get<double>() == Approx(m["rel_l2_error"].get<double>()).epsilon(1e-6));
  CHECK(m["bits_per_element"].get<double>() < 1.01);
  backend.release();
}

// Pipelining changes when codes travel, not what they are: one global scale,
// draws indexed by position in the whole vector, an exact integer sum.
TEST_CASE("Global-QSGD pipelined equals unpipelined bit for bit", "[compressed]") {
  int np = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::size_t n = 300007;  // chunks span several progress pieces
  std::vector<float> in(n), whole(n), piped(n);
  compressed::InputSpec spec;
  compressed::generate_input(spec, rank, in);
  for (const int bits : {8, 16}) {
    if (bits == 8 && np > 127) continue;
    for (const double chunks : {1.0, 3.0, 7.0}) {
      compressed::Setup setup{MPI_COMM_WORLD, rank, np, n, 99, {{"bits", bits}, {"chunks", chunks}}};
      auto unpipelined = compressed::make_compressed_allreduce("global_qsgd", setup);
      auto pipelined = compressed::make_compressed_allreduce("global_qsgd_pipelined", setup);
      for (std::uint64_t call : {0, 5}) {
        unpipelined->run(in, whole, call);
        pipelined->run(in, piped, call);
        INFO(fmt::format("bits {} chunks {} call {}", bits, chunks, call));
        CHECK(compressed::count_unequal_bits(piped, whole) == 0);
      }
    }
  }
}

// The generic Global-QSGD over ReferenceSumCollectives (the codes' SUM by a
// reference allreduce) and over MpiCollectives (the library's): an integer
// sum is exact, so only the transport differs and the bits may not.
TEST_CASE("Global-QSGD over a reference allreduce equals the library's bit for bit", "[compressed]") {
  int np = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::size_t n = 4099;
  std::vector<float> in(n), library(n), reference(n);
  compressed::InputSpec spec;
  compressed::generate_input(spec, rank, in);
  for (const int bits : {8, 16}) {
    if (bits == 8 && np > 127) continue;
    compressed::Setup setup{MPI_COMM_WORLD, rank, np, n, 7, {{"bits", bits}}};
    auto by_library = compressed::make_compressed_allreduce("global_qsgd", setup);
    for (const char* algorithm : {"global_qsgd_ring", "global_qsgd_recursive_doubling"}) {
      auto by_reference = compressed::make_compressed_allreduce(algorithm, setup);
      for (std::uint64_t call : {0, 3}) {
        by_library->run(in, library, call);
        by_reference->run(in, reference, call);
        INFO(fmt::format("{} bits {} call {}", algorithm, bits, call));
        CHECK(compressed::count_unequal_bits(reference, library) == 0);
      }
    }
  }
}

TEST_CASE("Top-k with error feedback: the average over calls approaches the mean", "[compressed]") {
  int np = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  compressed::Options options;
  options.bias_calls = 50;
  for (double feedback : {0.0, 1.0}) {
    const Case c = compressed_case("topk", 2000, np, {{"topk_ratio", 0.1}, {"error_feedback", feedback}}, options);
    CompressedBackend backend;
    backend.prepare(c, test::measured());
    const auto m = backend.compression(test::harness());
    INFO(m.dump());
    const double one_call = m["rel_l2_error"].get<double>(), averaged = m["bias_rel_l2"].get<double>();
    if (feedback == 0.0)
      CHECK(averaged == Approx(one_call).epsilon(1e-6));  // deterministic: every call the same, the bias is the error
    else
      CHECK(averaged < 0.5 * one_call);  // the residual gets sent in later calls
    backend.release();
  }
}

namespace {

// Runs `calls` calls of `algorithm` on fresh inputs (seed, call) and checks
// that error feedback lost nothing: p * sum of the outputs + the sum over
// ranks of the final residuals == the sum over ranks and calls of the inputs,
// up to fp32 rounding (of forming x + r, of the sums over ranks, of the
// products for PowerSGD) -- the property these biased methods do have.
template <class Algorithm>
void check_nothing_lost(const std::string& algorithm, std::map<std::string, double> params, std::size_t n,
                        std::uint64_t seed, double relative_tolerance) {
  int np = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const compressed::Setup setup{test::measured(), rank, np, n, seed, std::move(params)};
  auto made = compressed::make_compressed_allreduce(algorithm, setup);
  const auto* typed = dynamic_cast<const Algorithm*>(made.get());
  REQUIRE(typed != nullptr);
  const int calls = 24;
  std::vector<double> given(n, 0.0), output(n, 0.0), magnitude(n, 0.0);
  std::vector<float> in(n), out(n);
  compressed::InputSpec spec;
  for (int c = 0; c < calls; ++c) {
    spec.seed = seed * 100 + static_cast<std::uint64_t>(c);
    compressed::generate_input(spec, rank, in);
    made->run(in, out, static_cast<std::uint64_t>(c));
    for (std::size_t i = 0; i < n; ++i) {
      given[i] += in[i];
      magnitude[i] += std::fabs(in[i]);
      output[i] += static_cast<double>(out[i]) * np;  // every rank holds the mean: p * it is the sum
    }
  }
  std::vector<double> residual(typed->residual().begin(), typed->residual().end());
  MPI_Allreduce(MPI_IN_PLACE, given.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, test::harness());
  MPI_Allreduce(MPI_IN_PLACE, magnitude.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, test::harness());
  MPI_Allreduce(MPI_IN_PLACE, residual.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM, test::harness());
  double worst = 0, scale = 0;
  for (std::size_t i = 0; i < n; ++i) {
    worst = std::max(worst, std::fabs(output[i] + residual[i] - given[i]));
    scale = std::max(scale, magnitude[i]);
  }
  INFO(fmt::format("{} seed {}: worst |sum out + residual - sum in| {} against sum |x| up to {}", algorithm, seed,
                   worst, scale));
  CHECK(worst <= relative_tolerance * scale);
}

}  // namespace

// Over many seeds: the methods are biased per call, but error feedback only delays.
TEST_CASE("Error feedback families: outputs + final residual == inputs, over many seeds", "[compressed]") {
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    check_nothing_lost<compressed::Threshold>("hard_threshold", {{"threshold", 1.5}}, 3001, seed, 1e-5);
    check_nothing_lost<compressed::EfSign>("ef_sign", {}, 3001, seed, 1e-5);
    check_nothing_lost<compressed::PowerSgd>("powersgd", {{"powersgd_rank", 2}}, 3001, seed, 1e-4);
  }
}

// Biased in one call, but the average of calls (error feedback carried, the
// same input) approaches the mean: the residual is bounded, so the average's
// error falls as 1/calls.
TEST_CASE("Error feedback families: the average over calls approaches the mean", "[compressed]") {
  int np = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  struct Family {
    const char* algorithm;
    std::map<std::string, double> params;
  };
  for (const Family& f : {Family{"hard_threshold", {{"threshold", 1.0}}}, Family{"ef_sign", {}},
                          Family{"powersgd", {{"powersgd_rank", 4}}}}) {
    compressed::Options options;
    options.bias_calls = 64;
    const Case c = compressed_case(f.algorithm, 4000, np, f.params, options);
    CompressedBackend backend;
    backend.prepare(c, test::measured());
    const auto m = backend.compression(test::harness());
    INFO(m.dump());
    CHECK(m["bias_rel_l2"].get<double>() < 0.5 * m["rel_l2_error"].get<double>());
    backend.release();
  }
}

// r = min(rows, cols) = rows: P is an orthonormal basis of the whole column
// space, so P P^T mean = mean, up to fp32 rounding, for any inputs.
TEST_CASE("PowerSGD at full rank reproduces the mean", "[compressed]") {
  int np = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  for (const std::uint64_t seed : {1, 2, 3}) {
    compressed::Options options;
    options.inputs.seed = seed;
    options.bias_calls = 2;
    const Case c = compressed_case("powersgd", 1000, np, {{"powersgd_rank", 1000}, {"error_feedback", 0}}, options);
    CompressedBackend backend;
    backend.prepare(c, test::measured());
    const auto m = backend.compression(test::harness());
    INFO(m.dump());
    CHECK(m["parameters"]["powersgd_rank"].get<int>() == 31);
    CHECK(m["rel_l2_error"].get<double>() < 1e-5);
    backend.release();
  }
}
