// SPDX-License-Identifier: BSD-3-Clause
// A traced application (liballprof's or OTF2's traces, simulation/trace_reader.hpp)
// as a replay source: the program is the source itself, its GOAL written by
// simulation/trace_replay.hpp.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "simulation/replay_source.hpp"
#include "simulation/trace_replay.hpp"
#include "support/counted.hpp"
#include "support/size_text.hpp"

namespace pico {
namespace {

class TraceSource final : public ReplaySource {
 public:
  explicit TraceSource(TraceProgram t) : t_(std::make_shared<const TraceProgram>(std::move(t))) {}

  int ranks() const override { return t_->size(); }
  std::uint64_t communication_calls() const override { return t_->collectives.size() + t_->messages.size(); }
  std::optional<double> traced_s() const override { return t_->traced_runtime_s(); }
  std::vector<std::string> notes() const override { return t_->notes; }

  // How waits and cancels were tied to requests, where any rule beyond a wait naming its request's variable applied.
  std::vector<std::string> summary() const override {
    const TraceRequests& q = t_->requests;
    std::vector<std::string> parts;
    if (q.through_copy) parts.push_back(fmt::format("{} through a copy of the request", counted(q.through_copy, "wait")));
    if (q.lost) parts.push_back(fmt::format("{} completing nothing (MPI_REQUEST_NULL)", counted(q.lost, "wait")));
    if (q.contradicted)
      parts.push_back(fmt::format("{} on a request a copy completed earlier", counted(q.contradicted, "wait")));
    if (q.cancelled) parts.push_back(fmt::format("{} cancelled unmatched", counted(q.cancelled, "receive")));
    if (parts.empty()) return {};
    return {fmt::format("requests: {} (docs/simulation.md#traces)", fmt::join(parts, ", "))};
  }

  std::vector<std::string> choose(const AlgorithmChoice& choice) const override {
    return choose_trace_algorithms(*t_, choice);
  }

  std::vector<std::string> describe(const std::vector<std::string>& algorithms) const override {
    std::uint64_t bytes = 0, started = 0;
    for (const TraceMessage& m : t_->messages) bytes += m.bytes;
    for (const TraceRank& rank : t_->ranks)
      for (const TraceOp& op : rank.ops) started += !op.blocking;
    ChoiceCounts calls;
    for (std::size_t i = 0; i < t_->collectives.size(); ++i) {
      const TraceCollective& c = t_->collectives[i];
      ++calls[{c.collective, static_cast<int>(t_->comms[static_cast<std::size_t>(c.comm)].ranks.size()), c.bytes,
               algorithms[i]}];
    }
    std::vector<std::string> lines{
        fmt::format("  {} messages ({}), {} collective calls, {} non-blocking starts, {} communicators",
                    t_->messages.size(), size_text(bytes), t_->collectives.size(), started, t_->comms.size())};
    for (std::string& line : choice_lines(calls, "")) lines.push_back(std::move(line));
    return lines;
  }

  std::uint64_t estimate_bytes(const std::vector<std::string>& algorithms, const ReplayOptions& o) const override {
    return estimate_trace_goal_bytes(*t_, algorithms, o);
  }

  void write_goal(const std::vector<std::string>& algorithms, const ReplayOptions& o,
                  std::ostream& out) const override {
    write_trace_goal(*t_, algorithms, o, out);
  }

  ReplayProgram program(const std::vector<std::string>& algorithms) const override { return {t_, algorithms}; }

 private:
  std::shared_ptr<const TraceProgram> t_;
};

}  // namespace

std::unique_ptr<ReplaySource> trace_source(TraceProgram t) { return std::make_unique<TraceSource>(std::move(t)); }

}  // namespace pico
