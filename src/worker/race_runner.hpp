// SPDX-License-Identifier: BSD-3-Clause
// A launch's cases raced (timing.race; docs/tuning.md#racing) instead of each
// measured to the end. The cases that differ only in algorithm and parameters
// are one choice; each choice is a race (stats/race.hpp) run through
// run_case, one short round at a time, its rounds pooled into one record per
// case. The budget is the launch's, shared by the choices still to race.
// With refine, each series (a collective with its datatype, op, ... over
// sizes) races every other size first, then a size between two only where
// their winners differ; the others are recorded skipped, saying why.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "core/case.hpp"
#include "core/case_result.hpp"
#include "stats/race.hpp"
#include "worker/case_runner.hpp"

namespace pico {

struct RaceSink {
  // Before each round of a case (progress); nullopt: a case measured in one go.
  std::function<void(const Case&, std::optional<int> round)> round_started;
  std::function<void(const CaseResult&)> finished;           // once per case, when its race ends
};

// Collective over ctx.harness, like run_case. The sink's calls are
// meaningful on rank 0 (the records are rank 0's), made on every rank.
void run_races(const std::vector<Case>& cases, const CaseContext& ctx, const RaceSpec& spec, const RaceSink& sink);

// A launch's cases in interleaved rounds (timing.rounds; docs/methodology.md#rounds):
// each choice of two or more candidates (cases that differ only in backend,
// algorithm and parameters) is a race that drops nobody, ctx.timing.rounds
// rounds, each round every candidate once in an order shuffled from the
// choice's seed, recorded per case (CaseResult::rounds); a choice of one
// candidate, or rounds: 1, is measured case by case. Collective, like run_case.
void run_interleaved(const std::vector<Case>& cases, const CaseContext& ctx, const RaceSink& sink);

}  // namespace pico
