#include "collectives/schedule_export.hpp"

#include <concepts>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "collectives/schedule_ordered.hpp"
#include "collectives/schedule_text.hpp"

namespace pico {
namespace {

using reference::ScheduleRequest;
using transport::OpKind;
using transport::RankSchedule;
using transport::RecordedOp;
using namespace schedule_text;

std::string_view kind_name(OpKind k) {
  switch (k) {
    case OpKind::send: return "send";
    case OpKind::recv: return "recv";
    case OpKind::reduce: return "reduce";
    case OpKind::copy: return "copy";
  }
  return "?";
}

// Room for the longest GOAL line, plus the slack Label::write stores past its end.
constexpr std::size_t kGoalLine = 2 * (1 + kMaxDecimal) + 64 + 2 * kMaxDecimal + sizeof(Label);

// One rank's GOAL block. Labels count only the operations written.
class GoalRank {
 public:
  GoalRank(TextBuffer& text, const RankSchedule& rs) : text_(text), rs_(rs) {}

  void write() {
    char* p = text_.room(kGoalLine);
    p = put(p, "rank ");
    p = put(p, rs_.rank);
    text_.commit(put(p, " {\n"));
    const auto& ops = rs_.ops;
    for (std::size_t begin = 0; begin < ops.size();) {
      std::size_t end = begin;
      while (end < ops.size() && ops[end].step == ops[begin].step) ++end;
      write_step(begin, end);
      begin = end;
    }
    text_.commit(put(text_.room(2), "}\n"));
  }

 private:
  // Writes a step through a local cursor into room asked for once: the
  // cursor, the operations and the dependencies stay in registers, where
  // members would be reloaded after every character stored (char stores
  // may alias anything).
  void write_step(std::size_t begin, std::size_t end) {
    const RecordedOp* ops = rs_.ops.data();
    std::size_t written = 0;
    for (std::size_t i = begin; i < end; ++i) written += ops[i].kind != OpKind::copy;
    if (written == 0) return;  // copies only: the next step depends on the step before
    deps_.swap(previous_);
    const bool join = deps_.size() > 1 && written > 1 && deps_.size() * written > deps_.size() + written;
    const std::size_t lines = join ? 1 + deps_.size() + 2 * written : written * (1 + deps_.size());
    char* p = text_.room(lines * kGoalLine);
    std::uint64_t next = next_;
    Label last = last_;
    auto new_label = [&] {  // the next operation's label
      last = next == 0 ? Label(0) : last.next(next);
      ++next;
      return last;
    };
    Memos& m = memos_;
    if (join) {
      const Label label = new_label();
      p = put(label.write(p), ": calc 0\n");
      p = write_requires(p, label, deps_.data(), deps_.size());
      deps_.assign(1, label);
    }
    previous_.resize(written);
    Label* defined = previous_.data();
    const Label* deps = deps_.data();
    const std::size_t ndeps = deps_.size();
    for (std::size_t i = begin; i < end; ++i) {
      const RecordedOp& op = ops[i];
      if (op.kind == OpKind::copy) continue;
      const Label label = new_label();
      p = label.write(p);
      if (op.kind == OpKind::send) {
        p = m.send_bytes.put(put(p, ": send "), op.bytes);
        p = m.send_peer.put(put(p, "b to "), static_cast<std::uint32_t>(op.peer));
        p = m.send_tag.put(put(p, " tag "), static_cast<std::uint32_t>(op.tag));
      } else if (op.kind == OpKind::recv) {
        p = m.recv_bytes.put(put(p, ": recv "), op.bytes);
        p = m.recv_peer.put(put(p, "b from "), static_cast<std::uint32_t>(op.peer));
        p = m.recv_tag.put(put(p, " tag "), static_cast<std::uint32_t>(op.tag));
      } else {
        p = m.calc_bytes.put(put(p, ": calc "), op.bytes);
      }
      *p++ = '\n';
      p = write_requires(p, label, deps, ndeps);
      *defined++ = label;
    }
    next_ = next;
    last_ = last;
    text_.commit(p);
  }

  static char* write_requires(char* p, const Label& label, const Label* deps, std::size_t ndeps) {
    for (std::size_t d = 0; d < ndeps; ++d) {
      p = deps[d].write(put(label.write(p), " requires "));
      *p++ = '\n';
    }
    return p;
  }

  // The numbers of the last line of each kind. (Copying them to a local
  // and back per step was slower: the compiler copies with wide loads right
  // after narrow stores, which stalls store forwarding.)
  struct Memos {
    DecimalMemo send_bytes, send_peer, send_tag, recv_bytes, recv_peer, recv_tag, calc_bytes;
  };

  TextBuffer& text_;
  const RankSchedule& rs_;
  std::uint64_t next_ = 0;  // the next label's number
  Label last_;              // the label numbered next_ - 1
  Memos memos_;
  std::vector<Label> previous_;  // labels of the last step written
  std::vector<Label> deps_;      // what the current step requires
};

// Appends string pieces and numbers to a TextBuffer, asking for room per
// piece: for the JSON writer, whose lines hold lists of any length.
class Appender {
 public:
  explicit Appender(TextBuffer& text) : text_(text) {}
  template <std::size_t N>
  Appender& operator<<(const char (&s)[N]) {
    text_.commit(put(text_.room(N), s));
    return *this;
  }
  Appender& operator<<(std::string_view s) {
    text_.commit(put(text_.room(s.size()), s));
    return *this;
  }
  template <std::integral I>
  Appender& operator<<(I v) {
    text_.commit(put(text_.room(kMaxDecimal + 1), v));
    return *this;
  }

 private:
  TextBuffer& text_;
};

void write_json_rank(TextBuffer& text, const RankSchedule& rs) {
  Appender out(text);
  out << "{\"rank\":" << rs.rank << ",\"phases\":[";
  for (std::size_t i = 0; i < rs.phases.size(); ++i) out << (i ? ",\"" : "\"") << rs.phases[i] << "\"";
  out << "],\"ops\":[";
  for (std::size_t i = 0; i < rs.ops.size(); ++i) {
    const RecordedOp& op = rs.ops[i];
    out << (i ? ",\n" : "\n") << "{\"id\":" << static_cast<std::uint64_t>(i) << ",\"kind\":\"" << kind_name(op.kind)
        << "\"";
    if (op.peer >= 0) out << ",\"peer\":" << op.peer << ",\"tag\":" << op.tag;
    out << ",\"bytes\":" << op.bytes << ",\"step\":" << op.step << ",\"phase\":" << op.phase << ",\"deps\":[";
    for (std::uint32_t d = op.dep_begin; d < op.dep_end; ++d) out << (d != op.dep_begin ? "," : "") << d;
    out << "]}";
  }
  out << "]}";
}

// Gathers small rank texts into chunks of about 8 MiB for the stream: a
// rank of a logarithmic algorithm is a few KB, and a write per rank was a
// system call per rank (16384 of them for recursive doubling at p = 16384).
// Texts of 64 KiB or more go straight through, a system call costing little
// beside formatting them: copying them once more cost the ring (650 KB a
// rank at p = 2048) 30% more time.
class ChunkedWriter {
 public:
  explicit ChunkedWriter(std::ostream& out) : out_(out) {}

  void write(std::string_view text) {
    if (text.size() >= kDirect) {
      flush();
      out_.write(text.data(), static_cast<std::streamsize>(text.size()));
      return;
    }
    if (chunk_.size() + text.size() > kChunk) flush();
    chunk_.commit(put(chunk_.room(text.size()), text));
  }
  void flush() {
    if (chunk_.size() == 0) return;
    out_.write(chunk_.view().data(), static_cast<std::streamsize>(chunk_.size()));
    chunk_.clear();
  }

 private:
  static constexpr std::size_t kChunk = std::size_t{8} << 20;
  static constexpr std::size_t kDirect = std::size_t{64} << 10;
  std::ostream& out_;
  TextBuffer chunk_;
};

// Replays the request for each rank (one RankSchedule per worker) and
// writes the ranks' texts to `out` in order.
template <class FormatOne>
void stream_ranks(const ScheduleRequest& req, int threads, std::ostream& out, FormatOne format_one) {
  std::vector<RankSchedule> recorded(static_cast<std::size_t>(schedule_text::worker_count(req.np, threads)));
  ChunkedWriter chunks(out);
  schedule_text::format_ranks_in_order(
      req.np, threads,
      [&](int worker, int rank, TextBuffer& text) {
        RankSchedule& rs = recorded[static_cast<std::size_t>(worker)];
        reference::record_rank(req, rank, rs);
        format_one(rs, text);
      },
      [&](std::string_view text) { chunks.write(text); });
  chunks.flush();
}

}  // namespace

std::optional<ScheduleFormat> parse_schedule_format(std::string_view s) {
  if (s == "goal") return ScheduleFormat::goal;
  if (s == "json") return ScheduleFormat::json;
  return std::nullopt;
}

void write_goal(const ScheduleRequest& req, std::ostream& out, int threads) {
  reference::check_request(req);
  out << "num_ranks " << req.np << "\n\n";
  stream_ranks(req, threads, out, [](const RankSchedule& rs, TextBuffer& text) { GoalRank(text, rs).write(); });
}

void write_json(const ScheduleRequest& req, std::ostream& out, int threads) {
  reference::check_request(req);
  out << "{\"format\":\"pico-schedule\",\"version\":1,\"collective\":\"" << name(req.collective)
      << "\",\"algorithm\":\"" << req.algorithm << "\",\"num_ranks\":" << req.np << ",\"count\":" << req.count
      << ",\"dtype\":\"" << name(req.dtype) << "\",\"in_place\":" << (req.in_place ? "true" : "false")
      << ",\"root\":" << req.root << ",\"segment_bytes\":" << req.segment_bytes << ",\"ranks\":[\n";
  stream_ranks(req, threads, out, [](const RankSchedule& rs, TextBuffer& text) {
    if (rs.rank != 0) text.commit(put(text.room(2), ",\n"));
    write_json_rank(text, rs);
  });
  out << "]}\n";
}

void write_schedule(const ScheduleRequest& req, ScheduleFormat format, std::ostream& out, int threads) {
  if (format == ScheduleFormat::goal) write_goal(req, out, threads);
  else write_json(req, out, threads);
}
}  // namespace pico
