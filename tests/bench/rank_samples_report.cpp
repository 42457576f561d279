// SPDX-License-Identifier: BSD-3-Clause
// A synthetic report of 1,000 ranks x 10,000 samples with keep_samples
// (per-rank timing, docs/benchmarks.md#per-rank-timing): one case built on a
// model report's first case, with samples_s, rank_timing and rank_samples;
// prints what the summary, the compact form and the dump cost.
//
//   pico-rank-report-bench MODEL_REPORT.json OUT_REPORT.json
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "core/rank_samples.hpp"
#include "core/rank_timing.hpp"

using namespace pico;
int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: pico-rank-report-bench MODEL_REPORT.json OUT_REPORT.json\n");
    return 2;
  }
  const int ranks = 1000;
  const std::int64_t samples = 10000;
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> jitter(0, 2e-6);
  RankTimes t;
  t.ranks = ranks;
  t.samples = samples;
  t.arrival_s.resize(static_cast<std::size_t>(ranks * samples));
  t.exit_s.resize(t.arrival_s.size());
  std::vector<double> samples_s(static_cast<std::size_t>(samples));
  for (std::int64_t i = 0; i < samples; ++i) {
    const double start = 1000.0 + static_cast<double>(i) * 1e-3;
    double last = 0;
    for (int r = 0; r < ranks; ++r) {
      const double a = start + jitter(rng) + (r == 17 ? 50e-6 : 0);  // rank 17 arrives late
      t.arrival_s[static_cast<std::size_t>(r * samples + i)] = a;
      last = std::max(last, a);
    }
    double longest = 0;
    for (int r = 0; r < ranks; ++r) {
      const auto k = static_cast<std::size_t>(r * samples + i);
      t.exit_s[k] = last + 30e-6 + jitter(rng);
      longest = std::max(longest, t.exit_s[k] - t.arrival_s[k]);
    }
    samples_s[static_cast<std::size_t>(i)] = longest;
  }
  std::vector<std::string> hosts;
  for (int r = 0; r < ranks; ++r) hosts.push_back("node" + std::to_string(r / 8));  // 8 ranks a node
  const auto t0 = std::chrono::steady_clock::now();
  const RankTimingBasis basis{
      .clock_residual_s = 1e-6, .barrier_stagger_s = 2e-6, .judges_late_arrival = true, .judges_slow_progress = true};
  const RankTimingSummary s = summarize_rank_times(t, hosts, basis);
  const auto t1 = std::chrono::steady_clock::now();
  const nlohmann::json compact = compact_rank_samples(t);
  const auto t2 = std::chrono::steady_clock::now();
  std::ifstream in(argv[1]);
  nlohmann::json report = nlohmann::json::parse(in);
  nlohmann::json c = report["cases"][0];
  c["samples_s"] = samples_s;
  c["iterations"] = samples;
  c["np"] = ranks;
  c["rank_timing"] = to_json(s);
  c["rank_samples"] = compact;
  report["cases"] = nlohmann::json::array({c});
  std::ofstream(argv[2]) << report.dump(1) << "\n";
  const auto t3 = std::chrono::steady_clock::now();
  const RankTimes back = rank_samples_from_json(compact);
  const auto t4 = std::chrono::steady_clock::now();
  auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  std::printf(
      "stragglers %zu (rank %d), summary %.0f ms, compact %.0f ms, dump %.0f ms, decode %.0f ms (%lld samples), "
      "rank_samples %zu bytes, rank_timing %zu bytes\n",
      s.stragglers.size(), s.stragglers.empty() ? -1 : s.stragglers[0].rank, ms(t0, t1), ms(t1, t2), ms(t2, t3),
      ms(t3, t4), static_cast<long long>(back.samples), compact.dump().size(), to_json(s).dump().size());
  return 0;
}
