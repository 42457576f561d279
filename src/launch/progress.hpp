// SPDX-License-Identifier: BSD-3-Clause
// What the front end shows while workers run, wherever they run: the
// progress line, and reading the JSON lines the worker appends.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/case.hpp"

namespace pico {

using Clock = std::chrono::steady_clock;

// Reads the complete lines appended to a results file since the last call
// (opened as support/results_file.hpp opens them: never through a link).
class JsonLinesTail {
 public:
  // from_start: read what the file already holds too (a job followed after it started).
  explicit JsonLinesTail(std::string path, bool from_start = false);
  std::vector<nlohmann::json> read_new();

 private:
  std::string path_;
  off_t offset_ = 0;
};

// "allreduce float32 sum 1 KiB np=2 mpi/default"
std::string describe_case(const Case& c);

// "[ 12/145] 5s elapsed, ~1m20s left": the counts and times of a progress
// line. The time left is the remaining cases times the mean time of those
// done, or, before any is done, "at most" the time budget per case.
std::string progress_counts(std::size_t done, std::size_t total, double elapsed_s, double time_budget_s);

// "[ 12/145] 0:05 elapsed, ~1m20s left  <current>" on stderr: rewritten in
// place on a terminal, a plain line every 5 s otherwise. total counts the
// cases that run (not those skipped at plan time). The time left is the
// remaining cases times the mean time of those done, or their time budget
// (the timed loop's limit) before any is done.
class Progress {
 public:
  Progress(std::size_t total, double time_budget_s, bool enabled);
  void advance(std::size_t n) { done_ += n; }
  std::size_t done() const { return done_; }
  void show(const std::string& current);
  void finish();

 private:
  std::string counts_and_times() const;

  std::size_t total_, done_ = 0;
  double time_budget_s_;
  bool enabled_, tty_;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_ = Clock::now() - std::chrono::hours(1);
};

}  // namespace pico
