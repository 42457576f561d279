// SPDX-License-Identifier: BSD-3-Clause
// pico replay --format goal (the default): one GOAL program (LogGOPSim's
// input, src/simulation/replay.hpp); with --simulate, it and the baseline
// (ATLAHS's fixed algorithms, or the default the profile recorded) simulated
// and compared.
#include <cerrno>
#include <chrono>
#include <fstream>

#include <fmt/format.h>

#include "simulation/replay_format.hpp"
#include "support/elapsed.hpp"
#include "support/file_io.hpp"
#include "support/input_error.hpp"
#include "support/size_text.hpp"

namespace pico {
namespace {

constexpr std::uint64_t kStreamedRankBytes = std::uint64_t{256} << 20;

// Writes the GOAL to path, saying first how big it will be; refuses past the cap.
double write_goal_file(const ReplaySource& r, const std::vector<std::string>& algorithms, const ReplayOptions& ro,
                       const std::string& path, std::optional<std::uint64_t> cap, std::FILE* log) {
  const std::uint64_t estimate = r.estimate_bytes(algorithms, ro);
  fmt::print(log, "{}: about {} of GOAL for {} ranks, {} communication calls\n", path, size_text(estimate), r.ranks(),
             r.communication_calls());
  check_output_size(path, estimate, cap);
  const auto start = std::chrono::steady_clock::now();
  std::ofstream out(path, std::ios::binary);
  if (!out) throw InputError(path, "cannot open for writing", "check the directory exists and is writable");
  // Each thread holds whole rank texts; ranks of 256 MiB or more are streamed
  // by one thread instead (a 1 TiB chain bcast held 11 GB for 6.9 GB of GOAL).
  ReplayOptions streamed = ro;
  if (estimate / static_cast<std::uint64_t>(std::max(1, r.ranks())) >= kStreamedRankBytes) streamed.threads = 1;
  r.write_goal(algorithms, streamed, out);
  out.close();
  if (!out) throw WriteError(path, errno != 0 ? errno : EIO);  // exit 3, the reason when the system gave one
  return seconds_since(start);
}

void write_goal(const ReplaySource& w, const ReplaySettings& s, std::FILE* log) {
  struct Variant {
    std::string label, path;
    std::vector<std::string> algorithms;
  };
  std::vector<Variant> variants{{s.from_profile ? "profile" : "chosen", s.output, w.choose(s.chosen)}};
  for (const std::string& line : w.describe(variants.front().algorithms)) fmt::print(log, "{}\n", line);
  if (w.traced_s())
    fmt::print(log, "  traced: {:.6f} s (the slowest rank's last time minus its first){}\n", *w.traced_s(),
               s.compute_scale == 1 ? "" : fmt::format("; compute scaled by {}", s.compute_scale));
  if (s.simulator)
    variants.push_back({"baseline (" + s.baseline_label + ")", s.output + ".baseline.goal", w.choose(s.baseline)});
  std::vector<double> times;
  for (const Variant& v : variants) {
    const double generation = write_goal_file(w, v.algorithms, s.options, v.path, s.cap, log);
    fmt::print(log, "  written in {:.2f} s\n", generation);
    if (!s.simulator) continue;
    const auto start = std::chrono::steady_clock::now();
    const double t = static_cast<double>(simulate_goal(*s.simulator, v.path, s.model.params, 3600)) * 1e-12;
    fmt::print(log, "  {}: predicted {:.6f} s (LogGOPSim, {:.2f} s to simulate)\n", v.label, t, seconds_since(start));
    times.push_back(t);
  }
  const std::string model_name = s.model_path.empty() ? "built-in (ATLAHS AI)" : s.model_path;
  if (!times.empty()) fmt::print(log, "model {}: {}\n", model_name, accuracy_text(s.model, s.model_path));
  if (times.size() == 2)
    fmt::print(log, "{} vs baseline: {:.6f} s vs {:.6f} s ({:+.1f}%), model {}\n", variants.front().label, times[0],
               times[1], 100 * (times[0] / times[1] - 1), model_name);
  if (!times.empty() && w.traced_s() && *w.traced_s() > 0)
    fmt::print(log, "traced vs simulated: {:.6f} s traced, {:.6f} s simulated ({}), {:.3f}x the trace, model {}\n",
               *w.traced_s(), times[0], variants.front().label, times[0] / *w.traced_s(), model_name);
}

}  // namespace

extern const ReplayFormat goal_replay_format{
    .name = "goal",
    .description = "one GOAL program (LogGOPSim)",
    .output_hint = "e.g. -o app.goal",
    .simulates = true,
    .write = write_goal};

}  // namespace pico
