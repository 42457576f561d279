// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/replay.hpp"

#include <cmath>
#include <limits>
#include <tuple>

#include <fmt/format.h>

#include "collectives/goal_writer.hpp"
#include "collectives/reference/algorithms.hpp"
#include "collectives/reference/table.hpp"
#include "collectives/schedule_ordered.hpp"
#include "collectives/spec.hpp"
#include "support/input_error.hpp"

namespace pico {
namespace {

using schedule_text::TextBuffer;
using transport::OpKind;
using transport::RankSchedule;
using transport::RecordedOp;

struct CallRequest {
  reference::ScheduleRequest req;
  std::uint64_t span = 1;
};

}  // namespace

reference::ScheduleRequest collective_request(Collective collective, std::uint64_t bytes, int root,
                                              const std::string& algorithm, int np, std::uint64_t segment_bytes) {
  reference::ScheduleRequest req;
  req.collective = collective;
  req.algorithm = algorithm;
  req.np = np;
  req.root = root;
  if (!spec_for(collective).has_payload) {
    req.dtype = Dtype::none;
  } else {
    req.dtype = bytes % 4 == 0 ? Dtype::float32 : Dtype::int8;  // whole elements, as a case's count
    req.count = bytes / dtype_size(req.dtype);
  }
  const auto* traits = reference_algorithm_traits(collective, algorithm);
  req.segment_bytes = traits && traits->segmented ? segment_bytes : 0;
  return req;
}

namespace {

// A pipeline shift: comm rank k receives from k-1 then sends to k+1 (up), or
// the mirror (down).
void record_shift(bool up, int k, int n, std::uint64_t bytes, RankSchedule& rs) {
  rs.ops.clear();
  const int from = up ? k - 1 : k + 1, to = up ? k + 1 : k - 1;
  std::uint32_t step = 0;
  if (from >= 0 && from < n) {
    rs.ops.push_back(RecordedOp{OpKind::recv, 0, from, 0, step, bytes, 0, 0});
    ++step;
  }
  if (to >= 0 && to < n) rs.ops.push_back(RecordedOp{OpKind::send, 0, to, 0, step, bytes, 0, 0});
}

class RankFormatter {
 public:
  RankFormatter(const Workload& w, const std::vector<std::string>& algorithms, const ReplayOptions& o)
      : w_(w), algorithms_(algorithms), o_(o) {
    for (std::size_t i = 0; i < w.calls.size(); ++i) {
      const WorkloadCall& c = w.calls[i];
      CallRequest cr;
      const int np = w.partitions[static_cast<std::size_t>(c.partition)].group_size;
      if (c.kind == CallKind::collective) {
        cr.req = collective_request(c.collective, c.bytes, c.root, algorithms[i], np, o.segment_bytes);
        cr.req.counts = c.counts;
        cr.span = tag_span(cr.req);
      }
      if (cr.span > kMaxGoalTag) throw std::logic_error("a call's tag span exceeds GOAL's tags");
      calls_.push_back(cr);
    }
  }

  // `iterations`: how many of the workload's iterations to write (the estimate writes one).
  void format(int rank, TextBuffer& text, std::int64_t iterations) {
    cache_.clear();
    std::vector<std::vector<int>> groups(w_.partitions.size());
    std::vector<int> comm_rank(w_.partitions.size());
    for (std::size_t p = 0; p < w_.partitions.size(); ++p)
      groups[p] = w_.group_of(static_cast<int>(p), rank, &comm_rank[p]);
    GoalRankWriter goal(text, rank);
    std::uint64_t cursor = 0;  // the next call's first tag
    for (std::int64_t it = 0; it < iterations; ++it) {
      for (std::size_t i = 0; i < w_.calls.size(); ++i) {
        const WorkloadCall& c = w_.calls[i];
        if (const double gap = c.gap_s; gap > 0) goal.calc(static_cast<std::uint64_t>(std::llround(gap * 1e12)));
        if (c.kind == CallKind::compute) continue;
        const auto p = static_cast<std::size_t>(c.partition);
        const std::vector<int>& group = groups[p];
        const std::uint64_t span = calls_[i].span;
        if (cursor + span > kMaxGoalTag + 1) cursor = 0;
        const std::uint64_t base = cursor;
        cursor += span;
        if (group.size() < 2) continue;
        const RankSchedule& rs = schedule(i, comm_rank[p], static_cast<int>(group.size()));
        goal.collective(rs, base, span, o_.reduce_ps_per_byte, group);
        goal.join();
      }
    }
    if (w_.final_gap_s > 0) goal.calc(static_cast<std::uint64_t>(std::llround(w_.final_gap_s * 1e12)));
    goal.finish();
  }

 private:
  // The rank's part of call i, recorded once per distinct request.
  const RankSchedule& schedule(std::size_t i, int comm_rank, int np) {
    const WorkloadCall& c = w_.calls[i];
    const auto& req = calls_[i].req;
    const auto key = std::tuple{static_cast<int>(c.kind), req.collective, req.algorithm, req.count, req.dtype, np,
                                req.root, c.bytes};
    auto [it, fresh] = cache_.try_emplace(key);
    if (!fresh) return it->second;
    RankSchedule& rs = it->second;
    if (c.kind == CallKind::collective) reference::record_rank(req, comm_rank, rs);
    else record_shift(c.kind == CallKind::shift_up, comm_rank, np, c.bytes, rs);
    return rs;
  }

  using Key = std::tuple<int, Collective, std::string, std::uint64_t, Dtype, int, int, std::uint64_t>;
  const Workload& w_;
  const std::vector<std::string>& algorithms_;
  const ReplayOptions& o_;
  std::vector<CallRequest> calls_;
  std::map<Key, RankSchedule> cache_;
};

}  // namespace

AlgorithmChoice atlahs_choice() {
  return [](Collective c, int, std::uint64_t) { return std::string(spec_for(c).names.replay_default); };
}

AlgorithmChoice fixed_choice(std::map<Collective, std::string> fixed, AlgorithmChoice fallback) {
  return [fixed = std::move(fixed), fallback = std::move(fallback)](Collective c, int np, std::uint64_t bytes) {
    if (auto it = fixed.find(c); it != fixed.end()) return it->second;
    return fallback(c, np, bytes);
  };
}

std::vector<std::string> choose_algorithms(const Workload& w, const AlgorithmChoice& choose) {
  std::vector<std::string> out;
  for (const WorkloadCall& c : w.calls) {
    if (c.kind != CallKind::collective) {
      out.emplace_back();
      continue;
    }
    const int np = w.partitions[static_cast<std::size_t>(c.partition)].group_size;
    std::string a = choose(c.collective, np, c.bytes);
    if (!reference_algorithm_exists(c.collective, a))
      throw InputError("pico replay", fmt::format("'{}' is no reference {} algorithm", a, name(c.collective)),
                       fmt::format("one of {}", fmt::join(reference_algorithm_names(c.collective), ", ")));
    out.push_back(std::move(a));
  }
  return out;
}

void write_replay_ranks(const Workload& w, const std::vector<std::string>& algorithms, const ReplayOptions& o,
                        int first, int last, std::ostream& out) {
  const int n = last - first;
  if (n <= 0) return;
  const int workers = schedule_text::worker_count(n, o.threads);
  std::vector<RankFormatter> formatters;
  formatters.reserve(static_cast<std::size_t>(workers));
  for (int k = 0; k < workers; ++k) formatters.emplace_back(w, algorithms, o);
  schedule_text::format_ranks_in_order(
      n, o.threads,
      [&](int worker, int index, TextBuffer& text) {
        formatters[static_cast<std::size_t>(worker)].format(first + index, text, w.iterations);
      },
      [&](std::string_view text) { out.write(text.data(), static_cast<std::streamsize>(text.size())); });
}

void write_replay_goal(const Workload& w, const std::vector<std::string>& algorithms, const ReplayOptions& o,
                       std::ostream& out) {
  out << "num_ranks " << w.ranks << "\n\n";
  write_replay_ranks(w, algorithms, o, 0, w.ranks, out);
}

std::uint64_t estimate_replay_bytes(const Workload& w, const std::vector<std::string>& algorithms,
                                   const ReplayOptions& o) {
  // One iteration of rank 0 and of the last rank, times the iterations: writing them all
  // to weigh them would take as long as writing the file (2^31 iterations: hours).
  RankFormatter f(w, algorithms, o);
  auto weigh = [&](int rank) {
    TextBuffer one = TextBuffer::counting();
    f.format(rank, one, 1);
    TextBuffer none = TextBuffer::counting();
    f.format(rank, none, 0);
    const auto per_iteration = static_cast<double>(one.size() - none.size());
    return static_cast<double>(none.size()) + per_iteration * static_cast<double>(w.iterations);
  };
  const double first = weigh(0), last = w.ranks == 1 ? first : weigh(w.ranks - 1);
  const double total = (first + last) / 2 * static_cast<double>(w.ranks);
  return total >= 1.8e19 ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(total);
}

}  // namespace pico
