// SPDX-License-Identifier: BSD-3-Clause
// A workload (a YAML file or the LLM step) as a replay source: every rank the
// same calls, per iteration; its GOAL streamed by simulation/replay.hpp, its
// program written out by simulation/workload_program.hpp.
#include "simulation/replay_source.hpp"
#include "simulation/workload_program.hpp"

namespace pico {
namespace {

class WorkloadSource final : public ReplaySource {
 public:
  explicit WorkloadSource(Workload w) : w_(std::move(w)) {}

  int ranks() const override { return w_.ranks; }
  std::uint64_t communication_calls() const override { return w_.communication_calls(); }
  std::optional<double> traced_s() const override { return std::nullopt; }

  std::vector<std::string> choose(const AlgorithmChoice& choice) const override {
    return choose_algorithms(w_, choice);
  }

  std::vector<std::string> describe(const std::vector<std::string>& algorithms) const override {
    ChoiceCounts calls;
    for (std::size_t i = 0; i < w_.calls.size(); ++i)
      if (w_.calls[i].kind == CallKind::collective)
        ++calls[{w_.calls[i].collective, w_.partitions[static_cast<std::size_t>(w_.calls[i].partition)].group_size,
                 w_.calls[i].bytes, algorithms[i]}];
    return choice_lines(calls, " per iteration");
  }

  std::uint64_t estimate_bytes(const std::vector<std::string>& algorithms, const ReplayOptions& o) const override {
    return estimate_replay_bytes(w_, algorithms, o);
  }

  void write_goal(const std::vector<std::string>& algorithms, const ReplayOptions& o,
                  std::ostream& out) const override {
    write_replay_goal(w_, algorithms, o, out);
  }

  ReplayProgram program(const std::vector<std::string>& algorithms) const override {
    WorkloadProgram p = workload_program(w_, algorithms);
    return {std::make_shared<const TraceProgram>(std::move(p.program)), std::move(p.algorithms)};
  }

 private:
  Workload w_;
};

}  // namespace

std::unique_ptr<ReplaySource> workload_source(Workload w) { return std::make_unique<WorkloadSource>(std::move(w)); }

}  // namespace pico
