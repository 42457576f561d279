// SPDX-License-Identifier: BSD-3-Clause
#include "launch/pilot.hpp"

#include <algorithm>
#include <chrono>
#include <map>

#include <fmt/format.h>

#include "config/units.hpp"
#include "core/case_result.hpp"
#include "launch/executor.hpp"
#include "support/interrupt.hpp"
#include "support/jsonl.hpp"
#include "support/temp_dir.hpp"
#include "support/wrapped_text.hpp"

namespace pico {
namespace {

// A case's last record is its whole record. An interleaved case's record goes out after each of its rounds but
// its last, and once more when its rounds end (after all of them, or settled after three or more): one stopped
// between its rounds has as many records as rounds, fewer than the plan's.
bool complete(const CaseResult& r, int rounds, int records) {
  if (r.status != CaseStatus::ok || !r.timing) return false;
  if (!r.rounds) return true;
  const auto done = static_cast<int>(r.rounds->samples.size());
  return done >= rounds || records > done;
}

PilotOutcome calibrate(const Plan& pilot, double plan_budget_s, const std::string& dir, const ExecutionLog& log) {
  if (log.times.empty() || log.times.front().first_start_s < 0)
    return {std::nullopt,
            fmt::format("the pilot did not run: no case started within {}", format_duration(kPilotSeconds))};
  const LaunchTimes& times = log.times.front();
  std::map<std::string, CaseResult> last;
  std::map<std::string, double> first_round_s;  // an interleaved case's first record: its round 0
  std::map<std::string, int> records;
  for (const auto& line : read_json_lines(dir + "/cases.jsonl")) {
    CaseResult r = case_result_from_json(line);
    if (r.launch != 0) continue;
    first_round_s.try_emplace(r.c.case_id, r.elapsed_s);
    ++records[r.c.case_id];
    last.insert_or_assign(r.c.case_id, std::move(r));
  }
  std::map<std::string, double> arrived;  // each case's last result line
  for (const auto& [id, at] : times.results_s) arrived[id] = at;
  // The cases measured whole, and when the last of them came: the time between cases is what that window
  // holds beyond every case recorded in it (the rounds' reductions and records, the worker's writes).
  double window_end = -1;
  for (const auto& [id, r] : last)
    if (complete(r, pilot.timing.rounds, records[id]) && arrived.contains(id))
      window_end = std::max(window_end, arrived[id]);
  double in_cases = 0;
  int in_window = 0;
  for (const auto& [id, r] : last)
    if (arrived.contains(id) && arrived[id] <= window_end) in_cases += r.elapsed_s, ++in_window;
  const double between =
      window_end >= 0 && in_window > 0 ? std::max(0.0, window_end - times.first_start_s - in_cases) / in_window : 0.0;
  Calibration c;
  c.pilot_budget_s = pilot.timing.time_budget_s;
  c.wall_s = times.wall_s;
  c.np = pilot.groups.front().np;
  // A launch stopped by the pilot's bound has no end of its own to measure: its start stands for both.
  const double last_result = times.results_s.empty() ? times.first_start_s : times.results_s.back().second;
  c.launch_s = times.first_start_s + (times.stopped ? 0.0 : std::max(0.0, times.wall_s - last_result));
  for (const auto& [id, r] : last) {
    if (r.status != CaseStatus::ok || !r.timing || !arrived.contains(id)) continue;
    // An interleaved case the pilot's bound stopped between its rounds (a compressed allreduce's take a
    // second or more each): round 0 warms up and validates, so from a later round on the rounds left are
    // taken at the later ones' mean; from round 0 alone, at its time (an overestimate).
    const int all_rounds = pilot.timing.rounds;
    const int rounds = r.rounds ? static_cast<int>(r.rounds->samples.size()) : all_rounds;
    const bool cut = !complete(r, all_rounds, records[id]) && rounds > 0;
    const double scale = cut ? static_cast<double>(all_rounds) / rounds : 1.0;
    double elapsed = r.elapsed_s;
    if (cut) {
      ++c.scaled;
      const double round0 = first_round_s[id];
      elapsed = rounds >= 2 ? round0 + (r.elapsed_s - round0) * (all_rounds - 1) / (rounds - 1) : round0 * all_rounds;
    }
    const bool budget_cut =
        pilot.timing.time_budget_s < plan_budget_s && (r.stop_reason == "time_budget" || r.stop_reason == "rounds");
    c.cases.push_back(PilotCase{.backend = r.c.backend,
                                .bytes = r.c.bytes,
                                .case_s = elapsed + between,
                                .iterations = static_cast<std::int64_t>(static_cast<double>(r.iterations) * scale),
                                .budget_cut = budget_cut,
                                .nonblocking = call_form(r.c) == CallForm::nonblocking});
  }
  if (c.cases.empty())
    return {std::nullopt,
            fmt::format("the pilot measured no case within {} (a case takes longer)", format_duration(kPilotSeconds))};
  return {c, ""};
}

}  // namespace

PilotOutcome run_pilot(const Plan& plan, const Platform& platform, const PlanTarget& target, bool say) {
  if (platform.scheduler == "slurm")
    return {std::nullopt, "no pilot on a Slurm platform: it would be a job of its own"};
  if (plan.timing.race) return {std::nullopt, "a race spends its own budget"};
  const Plan pilot = pilot_plan(plan);
  if (pilot.groups.empty() || pilot.groups.front().cases.empty()) return {std::nullopt, "no case to run"};
  if (say)
    fmt::print(stderr, "{}",
               wrapped(fmt::format("pilot: running {} of its cases on '{}' to calibrate the estimate (MPI processes, "
                                   "{} at most)",
                                   pilot.cases.size(), platform.name, format_duration(kPilotSeconds)),
                       kProseWidth, "  "));
  // Ctrl-C stops the pilot's worker as it stops a run's (its process group is its own), not pico alone.
  install_interrupt_handlers();
  try {
    // Its results directory: a scratch one, removed with what the launch wrote.
    const TempDir scratch("pico-pilot");
    const std::string dir = scratch.path().string();
    const ExecutionLog log =
        execute_plan(pilot, platform, target, dir,
                     ExecutorOptions{.progress = false,
                                     .stop_at = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                                   std::chrono::duration<double>(kPilotSeconds))});
    if (interrupt_requested()) return {std::nullopt, "the pilot was interrupted"};
    return calibrate(pilot, plan.timing.time_budget_s, dir, log);
  } catch (const std::exception& e) {
    return {std::nullopt, fmt::format("the pilot did not run: {}", e.what())};
  }
}

}  // namespace pico
