// SPDX-License-Identifier: BSD-3-Clause
#include "collectives/goal_writer.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace pico {
namespace {

using transport::OpKind;
using transport::RankSchedule;
using transport::RecordedOp;
using namespace schedule_text;

// Room for the longest GOAL line, plus the slack Label::write stores past its end.
constexpr std::size_t kGoalLine = 2 * (1 + kMaxDecimal) + 64 + 2 * kMaxDecimal + sizeof(Label);

char* write_requires(char* p, const Label& label, const Label* deps, std::size_t ndeps) {
  for (std::size_t d = 0; d < ndeps; ++d) {
    p = deps[d].write(put(label.write(p), " requires "));
    *p++ = '\n';
  }
  return p;
}

std::uint64_t ps_of(std::uint64_t bytes, double ps_per_byte) {
  return static_cast<std::uint64_t>(std::llround(static_cast<double>(bytes) * ps_per_byte));
}

}  // namespace

std::uint64_t tag_span(const reference::ScheduleRequest& req) {
  std::uint64_t pieces = 0;
  if (req.count != 0) {
    const std::uint64_t element = req.dtype == Dtype::none ? 1 : dtype_size(req.dtype);
    const std::uint64_t seg = req.segment_bytes == 0 ? req.count : std::max<std::uint64_t>(1, req.segment_bytes / element);
    pieces = (req.count + seg - 1) / seg;
  }
  return 2 * static_cast<std::uint64_t>(req.np) + pieces + 1;
}

// `: send Bb to P tag T` or `: recv Bb from P tag T`, after the label; one
// writer for a collective's messages and a trace's point to point.
char* GoalRankWriter::write_message(char* p, Memos& m, bool send, std::uint64_t bytes, std::uint32_t peer,
                                    std::uint64_t tag) {
  if (send) {
    p = m.send_bytes.put(put(p, ": send "), bytes);
    p = m.send_peer.put(put(p, "b to "), peer);
    return m.send_tag.put(put(p, " tag "), tag);
  }
  p = m.recv_bytes.put(put(p, ": recv "), bytes);
  p = m.recv_peer.put(put(p, "b from "), peer);
  return m.recv_tag.put(put(p, " tag "), tag);
}

GoalRankWriter::GoalRankWriter(TextBuffer& text, int rank) : text_(text) {
  char* p = put(text_.room(kGoalLine), "rank ");
  p = put(p, rank);
  text_.commit(put(p, " {\n"));
}

Label GoalRankWriter::new_label() {
  last_ = next_ == 0 ? Label(0) : last_.next(next_);
  ++next_;
  return last_;
}

void GoalRankWriter::collective(const RankSchedule& rs, std::uint64_t tag_base, std::uint64_t span,
                                double reduce_ps_per_byte, std::span<const int> global_rank) {
  if (tag_base + span - 1 > kMaxGoalTag)
    throw std::logic_error(fmt::format("GOAL tags [{}, {}) exceed {}", tag_base, tag_base + span, kMaxGoalTag));
  tag_base_ = tag_base;
  span_ = span;
  reduce_ps_per_byte_ = reduce_ps_per_byte;
  global_rank_ = global_rank;
  const auto& ops = rs.ops;
  for (std::size_t begin = 0; begin < ops.size();) {
    std::size_t end = begin;
    while (end < ops.size() && ops[end].step == ops[begin].step) ++end;
    write_step(rs, begin, end);
    begin = end;
  }
}

// Writes a step through a local cursor into room asked for once: the cursor,
// the operations and the dependencies stay in registers, where members would
// be reloaded after every character stored (char stores may alias anything).
void GoalRankWriter::write_step(const RankSchedule& rs, std::size_t begin, std::size_t end) {
  const RecordedOp* ops = rs.ops.data();
  std::size_t written = 0;
  for (std::size_t i = begin; i < end; ++i) written += ops[i].kind != OpKind::copy;
  if (written == 0) return;  // copies only: the next step depends on the step before
  deps_.swap(frontier_);
  const bool join = deps_.size() > 1 && written > 1 && deps_.size() * written > deps_.size() + written;
  const std::size_t lines = join ? 1 + deps_.size() + 2 * written : written * (1 + deps_.size());
  if (exchange_factor_ != 1) pairs_.scan(rs.ops.data() + begin, rs.ops.data() + end);
  char* p = text_.room(lines * kGoalLine);
  Memos& m = memos_;
  if (join) {
    const Label label = new_label();
    p = put(label.write(p), ": calc 0\n");
    p = write_requires(p, label, deps_.data(), deps_.size());
    deps_.assign(1, label);
  }
  frontier_.resize(written);
  Label* defined = frontier_.data();
  const Label* deps = deps_.data();
  const std::size_t ndeps = deps_.size();
  const std::uint64_t base = tag_base_, span = span_;
  const bool mapped = !global_rank_.empty();
  for (std::size_t i = begin; i < end; ++i) {
    const RecordedOp& op = ops[i];
    if (op.kind == OpKind::copy) continue;
    const Label label = new_label();
    p = label.write(p);
    if (op.kind == OpKind::reduce) {
      p = m.calc.put(put(p, ": calc "), ps_of(op.bytes, reduce_ps_per_byte_));
    } else {
      if (static_cast<std::uint64_t>(op.tag) >= span)
        throw std::logic_error(fmt::format("rank {}: tag {} outside the call's span {}", rs.rank, op.tag, span));
      const auto peer = static_cast<std::uint32_t>(mapped ? global_rank_[static_cast<std::size_t>(op.peer)] : op.peer);
      const std::uint64_t tag = base + static_cast<std::uint64_t>(op.tag);
      p = write_message(p, m, op.kind == OpKind::send, pairs_.charged_bytes(op, exchange_factor_), peer, tag);
    }
    *p++ = '\n';
    p = write_requires(p, label, deps, ndeps);
    *defined++ = label;
  }
  text_.commit(p);
}

std::optional<Label> GoalRankWriter::detached_collective(const RankSchedule& rs, std::uint64_t tag_base,
                                                         std::uint64_t span, double reduce_ps_per_byte,
                                                         std::span<const int> global_rank) {
  std::vector<Label> before = frontier_;
  const std::uint64_t labels_before = next_;
  collective(rs, tag_base, span, reduce_ps_per_byte, global_rank);
  std::optional<Label> end;
  if (next_ != labels_before) {
    join();
    end = frontier_.front();
  }
  frontier_ = std::move(before);
  return end;
}

Label GoalRankWriter::point_to_point(bool send, std::uint64_t bytes, int peer, std::uint64_t tag, bool blocking) {
  if (tag > kMaxGoalTag) throw std::logic_error(fmt::format("GOAL tag {} exceeds {}", tag, kMaxGoalTag));
  char* p = text_.room((1 + frontier_.size()) * kGoalLine);
  const Label label = new_label();
  p = label.write(p);
  Memos& m = memos_;
  p = write_message(p, m, send, bytes, static_cast<std::uint32_t>(peer), tag);
  *p++ = '\n';
  p = write_requires(p, label, frontier_.data(), frontier_.size());
  text_.commit(p);
  if (blocking) frontier_.assign(1, label);
  return label;
}

void GoalRankWriter::wait(std::span<const Label> done) { frontier_.insert(frontier_.end(), done.begin(), done.end()); }

void GoalRankWriter::calc(std::uint64_t ps) {
  char* p = text_.room((1 + frontier_.size()) * kGoalLine);
  const Label label = new_label();
  p = memos_.calc.put(put(label.write(p), ": calc "), ps);
  *p++ = '\n';
  p = write_requires(p, label, frontier_.data(), frontier_.size());
  text_.commit(p);
  frontier_.assign(1, label);
}

void GoalRankWriter::join() {
  if (frontier_.size() <= 1) return;
  calc(0);
}

void GoalRankWriter::finish() { text_.commit(put(text_.room(2), "}\n")); }

}  // namespace pico
