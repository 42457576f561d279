// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/trace_replay.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>

#include "collectives/goal_writer.hpp"
#include "collectives/reference/algorithms.hpp"
#include "collectives/schedule_ordered.hpp"
#include "support/input_error.hpp"

namespace pico {
namespace {

using schedule_text::Label;
using schedule_text::TextBuffer;
using transport::RankSchedule;

constexpr std::uint64_t kCollectiveTags = std::uint64_t{1} << 30;  // [0, 2^30): collectives
constexpr std::uint64_t kMessageTagBase = kCollectiveTags;         // [2^30, 2^31): messages

std::uint64_t picoseconds(double s) { return static_cast<std::uint64_t>(std::llround(s * 1e12)); }

}  // namespace

TracePlan::TracePlan(const TraceProgram& t, const std::vector<std::string>& algorithms, const ReplayOptions& o) {
  std::uint64_t cursor = 0;
  for (std::size_t i = 0; i < t.collectives.size(); ++i) {
    const TraceCollective& c = t.collectives[i];
    const int np = static_cast<int>(t.comms[static_cast<std::size_t>(c.comm)].ranks.size());
    requests.push_back(collective_request(c.collective, c.bytes, c.root, algorithms[i], np, o.segment_bytes));
    requests.back().counts = c.counts;
    const std::uint64_t s = tag_span(requests.back());
    if (s > kCollectiveTags) throw std::logic_error("a collective's tag span exceeds GOAL's tags");
    if (cursor + s > kCollectiveTags) cursor = 0;  // reused only ~2^30 tags of calls later
    tag_base.push_back(cursor);
    span.push_back(s);
    cursor += s;
  }
  std::unordered_map<std::uint64_t, std::uint32_t> sent;  // (src, dst) -> messages so far
  message_tag.reserve(t.messages.size());
  for (const TraceMessage& m : t.messages) {
    const auto pair = static_cast<std::uint64_t>(m.src) << 32 | static_cast<std::uint32_t>(m.dst);
    message_tag.push_back(static_cast<std::uint32_t>(kMessageTagBase + sent[pair]++ % kCollectiveTags));
  }
}

void TraceSchedules::begin_rank(int rank) {
  rank_ = rank;
  comm_rank_.clear();
}

const RankSchedule& TraceSchedules::of(std::size_t i) {
  const int comm = t_.collectives[i].comm;
  auto [place, first_call_there] = comm_rank_.try_emplace(comm, 0);
  if (first_call_there) {
    const auto& g = t_.comms[static_cast<std::size_t>(comm)].ranks;
    place->second = static_cast<int>(std::find(g.begin(), g.end(), rank_) - g.begin());
  }
  const int comm_rank = place->second;
  const reference::ScheduleRequest& req = plan_.requests[i];
  auto [it, fresh] = cache_.try_emplace(
      Key{req.collective, req.algorithm, req.count, req.dtype, req.np, req.root, req.counts, comm_rank});
  if (fresh) reference::record_rank(req, comm_rank, it->second);
  return it->second;
}

namespace {

class TraceRankFormatter {
 public:
  TraceRankFormatter(const TraceProgram& t, const TracePlan& plan, const ReplayOptions& o)
      : t_(t), plan_(plan), o_(o), schedules_(t, plan) {}

  // Returns the number of operations written for `rank` (for the estimate).
  void format(int rank, TextBuffer& text) {
    const TraceRank& tr = t_.ranks[static_cast<std::size_t>(rank)];
    requests_.assign(tr.requests, std::nullopt);
    schedules_.begin_rank(rank);
    GoalRankWriter goal(text, rank);
    for (const TraceOp& op : tr.ops) {
      if (op.gap_s > 0) goal.calc(picoseconds(op.gap_s));
      switch (op.kind) {
        case TraceOpKind::send:
        case TraceOpKind::recv: {
          const TraceMessage& m = t_.messages[op.index];
          const bool send = op.kind == TraceOpKind::send;
          const Label l = goal.point_to_point(send, m.bytes, send ? m.dst : m.src, plan_.message_tag[op.index], op.blocking);
          if (!op.blocking) requests_[op.request] = l;
          break;
        }
        case TraceOpKind::cancelled: break;
        case TraceOpKind::collective: collective(op, goal); break;
        case TraceOpKind::wait: {
          done_.clear();
          for (std::uint32_t k = 0; k < op.count; ++k)
            if (const auto& l = requests_[tr.waited[op.index + k]]) done_.push_back(*l);
          goal.wait(done_);
          break;
        }
      }
    }
    if (tr.final_gap_s > 0) goal.calc(picoseconds(tr.final_gap_s));
    goal.finish();
  }

 private:
  void collective(const TraceOp& op, GoalRankWriter& goal) {
    const TraceCollective& c = t_.collectives[op.index];
    const std::vector<int>& group = t_.comms[static_cast<std::size_t>(c.comm)].ranks;
    if (group.size() < 2) return;
    const RankSchedule& rs = schedules_.of(op.index);
    const double reduce = o_.reduce_ps_per_byte;
    if (op.blocking) {
      goal.collective(rs, plan_.tag_base[op.index], plan_.span[op.index], reduce, group);
      goal.join();
    } else {
      requests_[op.request] = goal.detached_collective(rs, plan_.tag_base[op.index], plan_.span[op.index], reduce, group);
    }
  }

  const TraceProgram& t_;
  const TracePlan& plan_;
  const ReplayOptions& o_;
  TraceSchedules schedules_;
  std::vector<std::optional<Label>> requests_;
  std::vector<Label> done_;
};

}  // namespace

std::vector<std::string> choose_trace_algorithms(const TraceProgram& t, const AlgorithmChoice& choose) {
  std::vector<std::string> out;
  out.reserve(t.collectives.size());
  std::map<std::tuple<Collective, int, std::uint64_t>, std::string> chosen;  // one question per distinct call
  for (const TraceCollective& c : t.collectives) {
    const int np = static_cast<int>(t.comms[static_cast<std::size_t>(c.comm)].ranks.size());
    auto [it, fresh] = chosen.try_emplace({c.collective, np, c.bytes});
    if (fresh) {
      it->second = choose(c.collective, np, c.bytes);
      if (!reference_algorithm_exists(c.collective, it->second))
        throw InputError("pico replay", fmt::format("'{}' is no reference {} algorithm", it->second, name(c.collective)),
                         fmt::format("one of {}", fmt::join(reference_algorithm_names(c.collective), ", ")));
    }
    out.push_back(it->second);
  }
  return out;
}

void write_trace_goal(const TraceProgram& t, const std::vector<std::string>& algorithms, const ReplayOptions& o,
                      std::ostream& out) {
  out << "num_ranks " << t.size() << "\n\n";
  const TracePlan plan(t, algorithms, o);
  const int workers = schedule_text::worker_count(t.size(), o.threads);
  std::vector<TraceRankFormatter> formatters;
  formatters.reserve(static_cast<std::size_t>(workers));
  for (int k = 0; k < workers; ++k) formatters.emplace_back(t, plan, o);
  schedule_text::format_ranks_in_order(
      t.size(), o.threads,
      [&](int worker, int rank, TextBuffer& text) { formatters[static_cast<std::size_t>(worker)].format(rank, text); },
      [&](std::string_view text) { out.write(text.data(), static_cast<std::streamsize>(text.size())); });
}

std::uint64_t estimate_trace_goal_bytes(const TraceProgram& t, const std::vector<std::string>& algorithms,
                                        const ReplayOptions& o) {
  const TracePlan plan(t, algorithms, o);
  TraceRankFormatter f(t, plan, o);
  std::uint64_t sampled_bytes = 0, sampled_ops = 0, all_ops = 0;
  for (const int r : {0, t.size() - 1}) {
    TextBuffer text = TextBuffer::counting();
    f.format(r, text);
    sampled_bytes += text.size();
    sampled_ops += t.ranks[static_cast<std::size_t>(r)].ops.size() + 1;
    if (t.size() == 1) break;
  }
  for (const TraceRank& r : t.ranks) all_ops += r.ops.size() + 1;
  return static_cast<std::uint64_t>(static_cast<double>(sampled_bytes) / static_cast<double>(sampled_ops) *
                                    static_cast<double>(all_ops));
}

}  // namespace pico
