// SPDX-License-Identifier: BSD-3-Clause
#include "core/rank_timing.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace pico {
namespace {

using nlohmann::json;

// The median of v, reordering v in place (no copy of a large vector of rank-samples).
double median_in_place(std::vector<double>& v) {
  if (v.empty()) return 0;
  const auto mid = v.begin() + static_cast<long>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  if (v.size() % 2 == 1) return *mid;
  return (*mid + *std::max_element(v.begin(), mid)) / 2;
}

std::size_t argmax(const std::vector<double>& v) {
  return static_cast<std::size_t>(std::max_element(v.begin(), v.end()) - v.begin());
}

// The index whose count is largest (the lowest on a tie).
std::size_t most_often(const std::vector<std::int64_t>& counts) {
  return static_cast<std::size_t>(std::max_element(counts.begin(), counts.end()) - counts.begin());
}

Share share_from_json(const json& j) {
  return {.calls = j.at("calls").get<std::int64_t>(),
          .of = j.at("of").get<std::int64_t>(),
          .low = j.at("ci95_low").get<double>(),
          .high = j.at("ci95_high").get<double>()};
}

}  // namespace

json share_json(const Share& s) {
  return {{"calls", s.calls}, {"of", s.of}, {"share", s.value()}, {"ci95_low", s.low}, {"ci95_high", s.high}};
}

Share wilson_share(std::int64_t calls, std::int64_t of) {
  Share s{.calls = calls, .of = of};
  if (of <= 0) return s;
  constexpr double z = 1.959963984540054;
  const double n = static_cast<double>(of), p = static_cast<double>(calls) / n;
  const double centre = p + z * z / (2 * n);
  const double spread = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n));
  const double scale = 1 + z * z / n;
  s.low = std::max(0.0, (centre - spread) / scale);
  s.high = std::min(1.0, (centre + spread) / scale);
  return s;
}

double lateness_threshold_s(const RankTimingBasis& basis, double fastest_s) {
  return std::max({kResidualsPerThreshold * basis.clock_residual_s, kStaggersPerThreshold * basis.barrier_stagger_s,
                   kThresholdOfFastest * fastest_s});
}

RankTimingSummary summarize_rank_times(const RankTimes& t, std::span<const std::string> hosts,
                                       const RankTimingBasis& basis) {
  RankTimingSummary s;
  s.ranks = t.ranks;
  s.samples = t.samples;
  s.basis = basis;
  const auto ranks = static_cast<std::size_t>(t.ranks);
  s.slowest_calls.assign(ranks, 0);
  s.late_arrival_calls.assign(ranks, 0);
  s.slow_progress_calls.assign(ranks, 0);
  if (t.ranks == 0 || t.samples == 0) return s;

  std::vector<double> arrival(ranks), exit(ranks), duration(ranks), scratch(ranks);
  std::vector<std::vector<double>> late_by(ranks), slow_by(ranks);  // each counted call's lateness
  std::vector<double> imbalances, medians;
  imbalances.reserve(static_cast<std::size_t>(t.samples));
  medians.reserve(static_cast<std::size_t>(t.samples));
  double previous_exit_wait = 0;  // the previous sample's last exit - first exit
  for (std::int64_t i = 0; i < t.samples; ++i) {
    for (int r = 0; r < t.ranks; ++r) {
      const auto k = static_cast<std::size_t>(r);
      arrival[k] = t.arrival(r, i);
      exit[k] = t.exit(r, i);
      duration[k] = exit[k] - arrival[k];
    }
    scratch = duration;
    const double median_duration = median_in_place(scratch);
    const std::size_t slowest = argmax(duration);
    ++s.slowest_calls[slowest];
    medians.push_back(median_duration);
    if (median_duration > 0) imbalances.push_back(duration[slowest] / median_duration);
    const double first_in = *std::min_element(arrival.begin(), arrival.end());
    const double first_out = *std::min_element(exit.begin(), exit.end());
    const double threshold = lateness_threshold_s(basis, *std::min_element(duration.begin(), duration.end()));
    // A rank that waited long for another wakes up late (on this project's loaded VM by 2-3.5 ms after 10 ms):
    // entering after waiting for the previous sample's last to leave, or leaving after waiting for this one's
    // last to enter, is counted only beyond half that wait.
    const std::size_t last_in = argmax(arrival);
    const double arrival_threshold = std::max(threshold, kOfWaitPerThreshold * previous_exit_wait);
    const double exit_threshold = std::max(threshold, kOfWaitPerThreshold * (arrival[last_in] - first_in));
    previous_exit_wait = *std::max_element(exit.begin(), exit.end()) - first_out;
    if (arrival[last_in] - first_in > arrival_threshold) {
      ++s.late_arrival_calls[last_in];
      late_by[last_in].push_back(arrival[last_in] - first_in);
    }
    // Slow progress: the last to leave among those that entered on time.
    std::size_t last_out = ranks;
    for (std::size_t k = 0; k < ranks; ++k)
      if (arrival[k] - first_in <= arrival_threshold && (last_out == ranks || exit[k] > exit[last_out])) last_out = k;
    if (last_out < ranks && exit[last_out] - first_out > exit_threshold) {
      ++s.slow_progress_calls[last_out];
      slow_by[last_out].push_back(exit[last_out] - first_out);
    }
  }
  s.median_call_s = median_in_place(medians);
  if (!imbalances.empty()) s.imbalance = median_in_place(imbalances);

  s.slowest_rank = static_cast<int>(most_often(s.slowest_calls));
  s.slowest_rank_share = wilson_share(s.slowest_calls[static_cast<std::size_t>(s.slowest_rank)], t.samples);
  auto host_of = [&](std::size_t r) { return r < hosts.size() ? hosts[r] : std::string(); };
  if (hosts.size() == ranks) {
    std::map<std::string, std::int64_t> by_host;
    for (std::size_t r = 0; r < ranks; ++r) by_host[hosts[r]] += s.slowest_calls[r];
    const auto top = std::max_element(by_host.begin(), by_host.end(),
                                      [](const auto& a, const auto& b) { return a.second < b.second; });
    s.slowest_host = top->first;
    s.slowest_host_share = wilson_share(top->second, t.samples);
  }
  auto name = [&](const std::vector<std::int64_t>& calls, std::vector<std::vector<double>>& by, std::string_view kind) {
    for (std::size_t r = 0; r < ranks; ++r) {
      const Share share = wilson_share(calls[r], t.samples);
      if (share.low < kStragglerShare) continue;
      s.stragglers.push_back({.rank = static_cast<int>(r),
                              .host = host_of(r),
                              .kind = std::string(kind),
                              .share = share,
                              .excess_s = median_in_place(by[r])});
    }
  };
  if (basis.judges_late_arrival) name(s.late_arrival_calls, late_by, kLateArrival);
  if (basis.judges_slow_progress) name(s.slow_progress_calls, slow_by, kSlowProgress);
  return s;
}

json to_json(const RankTimingSummary& s) {
  json stragglers = json::array();
  for (const Straggler& st : s.stragglers)
    stragglers.push_back({{"rank", st.rank}, {"host", st.host}, {"kind", st.kind}, {"share", share_json(st.share)},
                          {"excess_s", st.excess_s}});
  return {{"ranks", s.ranks},
          {"samples", s.samples},
          {"clock_residual_s", s.basis.clock_residual_s},
          {"barrier_stagger_s", s.basis.barrier_stagger_s},
          {"judged",
           {{std::string(kLateArrival), s.basis.judges_late_arrival},
            {std::string(kSlowProgress), s.basis.judges_slow_progress}}},
          {"threshold",
           {{"residuals", kResidualsPerThreshold},
            {"barrier_staggers", kStaggersPerThreshold},
            {"of_fastest_call", kThresholdOfFastest},
            {"of_wait", kOfWaitPerThreshold},
            {"straggler_share_ci95_low", kStragglerShare}}},
          {"median_call_s", s.median_call_s},
          {"imbalance", s.imbalance},
          {"slowest_rank", {{"rank", s.slowest_rank}, {"share", share_json(s.slowest_rank_share)}}},
          {"slowest_host", s.slowest_host.empty()
                               ? json(nullptr)
                               : json{{"host", s.slowest_host}, {"share", share_json(s.slowest_host_share)}}},
          {"per_rank",
           {{"slowest_calls", s.slowest_calls},
            {"late_arrival_calls", s.late_arrival_calls},
            {"slow_progress_calls", s.slow_progress_calls}}},
          {"stragglers", stragglers}};
}

RankTimingSummary rank_timing_from_json(const json& j) {
  if (!j.is_object()) throw std::runtime_error("rank_timing is not an object");
  RankTimingSummary s;
  s.ranks = j.at("ranks").get<int>();
  s.samples = j.at("samples").get<std::int64_t>();
  s.basis.clock_residual_s = j.at("clock_residual_s").get<double>();
  s.basis.barrier_stagger_s = j.at("barrier_stagger_s").get<double>();
  s.basis.judges_late_arrival = j.at("judged").at(std::string(kLateArrival)).get<bool>();
  s.basis.judges_slow_progress = j.at("judged").at(std::string(kSlowProgress)).get<bool>();
  s.median_call_s = j.at("median_call_s").get<double>();
  s.imbalance = j.at("imbalance").get<double>();
  s.slowest_rank = j.at("slowest_rank").at("rank").get<int>();
  s.slowest_rank_share = share_from_json(j.at("slowest_rank").at("share"));
  if (const json& h = j.at("slowest_host"); !h.is_null()) {
    s.slowest_host = h.at("host").get<std::string>();
    s.slowest_host_share = share_from_json(h.at("share"));
  }
  const json& per_rank = j.at("per_rank");
  s.slowest_calls = per_rank.at("slowest_calls").get<std::vector<std::int64_t>>();
  s.late_arrival_calls = per_rank.at("late_arrival_calls").get<std::vector<std::int64_t>>();
  s.slow_progress_calls = per_rank.at("slow_progress_calls").get<std::vector<std::int64_t>>();
  for (const json& st : j.at("stragglers")) {
    const std::string kind = st.at("kind").get<std::string>();
    if (kind != kLateArrival && kind != kSlowProgress) throw std::runtime_error("rank_timing: unknown straggler kind '" + kind + "'");
    s.stragglers.push_back({.rank = st.at("rank").get<int>(),
                            .host = st.at("host").get<std::string>(),
                            .kind = kind,
                            .share = share_from_json(st.at("share")),
                            .excess_s = st.at("excess_s").get<double>()});
  }
  return s;
}

}  // namespace pico
