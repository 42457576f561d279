// SPDX-License-Identifier: BSD-3-Clause
// pico replay's inputs behind one interface: a workload (a YAML file, or the
// built-in LLM step) or a traced application (liballprof's or OTF2's traces).
// The output formats (simulation/replay_format.hpp) read a source through
// this interface only, so a new format needs no edit here: it takes the
// application as a traced program (program()) or its GOAL (write_goal()).
//
// GOAL has a writer of its own because a workload's GOAL is streamed
// iteration by iteration (simulation/replay.hpp) without the whole program
// in memory; every other view of a workload goes through program().
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "simulation/replay.hpp"
#include "simulation/trace_program.hpp"
#include "simulation/trace_reader.hpp"
#include "simulation/workload.hpp"

namespace pico {

// The application as a traced program, each of its collective calls with the
// algorithm chosen for it (the program may be the source's own).
struct ReplayProgram {
  std::shared_ptr<const TraceProgram> program;
  std::vector<std::string> algorithms;  // per program collective call
};

class ReplaySource {
 public:
  virtual ~ReplaySource() = default;

  virtual int ranks() const = 0;
  virtual std::uint64_t communication_calls() const = 0;
  // A trace's own runtime (the slowest rank's last time minus its first); none for a workload.
  virtual std::optional<double> traced_s() const = 0;
  // What reading the input assumed where it was unclear, for standard error.
  virtual std::vector<std::string> notes() const { return {}; }
  // What reading it found that the user should see (how waits were tied to requests).
  virtual std::vector<std::string> summary() const { return {}; }

  // The algorithm of each of its collective calls, in the order the other
  // members take them. Throws InputError when a choice is no reference algorithm.
  virtual std::vector<std::string> choose(const AlgorithmChoice& choice) const = 0;
  // What was chosen, a line each (indented two spaces): per collective,
  // group size and bytes, its algorithm and how many calls.
  virtual std::vector<std::string> describe(const std::vector<std::string>& algorithms) const = 0;
  // About how many bytes its GOAL takes: the size every format checks
  // against --max-output (each writes about a node per GOAL operation).
  virtual std::uint64_t estimate_bytes(const std::vector<std::string>& algorithms, const ReplayOptions& o) const = 0;
  // The whole GOAL program.
  virtual void write_goal(const std::vector<std::string>& algorithms, const ReplayOptions& o,
                          std::ostream& out) const = 0;
  // The application as a traced program (a workload's every iteration written out).
  virtual ReplayProgram program(const std::vector<std::string>& algorithms) const = 0;
};

std::unique_ptr<ReplaySource> workload_source(Workload w);   // replay_source_workload.cpp
std::unique_ptr<ReplaySource> trace_source(TraceProgram t);  // replay_source_trace.cpp

// What pico replay reads.
struct ReplayInput {
  std::string path;  // a workload YAML, traces (their directory or rank 0's file), or "llm"
  TraceOptions trace;
  LlmStep llm;               // for path "llm"
  double compute_scale = 1;  // every compute gap multiplied by it
};

// A directory, or a file that is no workload YAML (rank 0's trace file).
bool is_trace_path(const std::string& path);

// The input read (load_trace, load_workload_yaml or llm_step_workload), its
// compute scaled. Throws InputError.
std::unique_ptr<ReplaySource> open_replay_source(const ReplayInput& in);

// One line per (collective, group size, bytes, algorithm), at most 12 and a
// line saying how many more: "  allreduce 1KiB on 4 ranks: ring (2 calls<per>)".
using ChoiceCounts = std::map<std::tuple<Collective, int, std::uint64_t, std::string>, std::uint64_t>;
std::vector<std::string> choice_lines(const ChoiceCounts& calls, const char* per);

}  // namespace pico
