#include "collectives/schedule_export.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace pico {
namespace {

using reference::ScheduleRequest;
using transport::OpKind;
using transport::RankSchedule;
using transport::RecordedOp;

// Buffers output and hands it to the stream in large pieces: schedules run
// to billions of lines, so every append is an inlined copy into a flat
// buffer (string literals copy a length known at compile time) and integers
// go through write_decimal.
class Sink {
 public:
  explicit Sink(std::ostream& out) : out_(out), buf_(kSize), cur_(buf_.data()), end_(buf_.data() + kSize) {}
  ~Sink() { flush(); }
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;

  template <std::size_t N>
  Sink& operator<<(const char (&s)[N]) {
    return put(s, N - 1);
  }
  Sink& operator<<(std::string_view s) { return put(s.data(), s.size()); }
  Sink& operator<<(std::uint64_t v) {
    if (end_ - cur_ < 20) flush();
    cur_ = write_decimal(cur_, v);
    return *this;
  }
  Sink& operator<<(std::int64_t v) {
    if (v >= 0) return *this << static_cast<std::uint64_t>(v);
    return put("-", 1) << (~static_cast<std::uint64_t>(v) + 1);
  }
  Sink& operator<<(int v) { return *this << static_cast<std::int64_t>(v); }
  Sink& operator<<(std::uint32_t v) { return *this << static_cast<std::uint64_t>(v); }
  void flush() {
    out_.write(buf_.data(), cur_ - buf_.data());
    cur_ = buf_.data();
  }

 private:
  static constexpr std::size_t kSize = std::size_t{1} << 20;
  // Writes v's digits at `at`, two at a time; returns the end.
  static char* write_decimal(char* at, std::uint64_t v) {
    static constexpr char kPairs[] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    int digits = 1;
    for (std::uint64_t x = v; x >= 10; x /= 10) ++digits;
    char* p = at + digits;
    while (v >= 100) {
      const auto pair = static_cast<std::size_t>(v % 100) * 2;
      v /= 100;
      *--p = kPairs[pair + 1];
      *--p = kPairs[pair];
    }
    if (v >= 10) {
      *--p = kPairs[v * 2 + 1];
      *--p = kPairs[v * 2];
    } else {
      *--p = static_cast<char>('0' + v);
    }
    return at + digits;
  }
  Sink& put(const char* s, std::size_t n) {
    if (static_cast<std::size_t>(end_ - cur_) < n) {
      flush();
      if (n > kSize) {
        out_.write(s, static_cast<std::streamsize>(n));
        return *this;
      }
    }
    std::memcpy(cur_, s, n);
    cur_ += n;
    return *this;
  }

  std::ostream& out_;
  std::vector<char> buf_;
  char* cur_;
  char* end_;
};

std::string_view kind_name(OpKind k) {
  switch (k) {
    case OpKind::send: return "send";
    case OpKind::recv: return "recv";
    case OpKind::reduce: return "reduce";
    case OpKind::copy: return "copy";
  }
  return "?";
}

// One rank's GOAL block. Labels count only the operations written.
class GoalRank {
 public:
  GoalRank(Sink& sink, const RankSchedule& rs) : sink_(sink), rs_(rs) {}

  void write() {
    sink_ << "rank " << rs_.rank << " {\n";
    const auto& ops = rs_.ops;
    for (std::size_t begin = 0; begin < ops.size();) {
      std::size_t end = begin;
      while (end < ops.size() && ops[end].step == ops[begin].step) ++end;
      write_step(begin, end);
      begin = end;
    }
    sink_ << "}\n";
  }

 private:
  void write_step(std::size_t begin, std::size_t end) {
    std::size_t written = 0;
    for (std::size_t i = begin; i < end; ++i) written += rs_.ops[i].kind != OpKind::copy;
    if (written == 0) return;  // copies only: the next step depends on the step before
    deps_.swap(previous_);
    previous_.clear();
    if (deps_.size() > 1 && written > 1 && deps_.size() * written > deps_.size() + written) {
      const std::uint64_t join = label_++;
      sink_ << "l" << join << ": calc 0\n";
      for (std::uint64_t d : deps_) sink_ << "l" << join << " requires l" << d << "\n";
      deps_.assign(1, join);
    }
    for (std::size_t i = begin; i < end; ++i) {
      const RecordedOp& op = rs_.ops[i];
      if (op.kind == OpKind::copy) continue;
      const std::uint64_t label = label_++;
      sink_ << "l" << label << ": ";
      if (op.kind == OpKind::send) sink_ << "send " << op.bytes << "b to " << op.peer << " tag " << op.tag << "\n";
      if (op.kind == OpKind::recv) sink_ << "recv " << op.bytes << "b from " << op.peer << " tag " << op.tag << "\n";
      if (op.kind == OpKind::reduce) sink_ << "calc " << op.bytes << "\n";
      for (std::uint64_t d : deps_) sink_ << "l" << label << " requires l" << d << "\n";
      previous_.push_back(label);
    }
  }

  Sink& sink_;
  const RankSchedule& rs_;
  std::uint64_t label_ = 0;
  std::vector<std::uint64_t> previous_;  // labels of the last step written
  std::vector<std::uint64_t> deps_;      // what the current step requires
};

void write_json_rank(Sink& sink, const RankSchedule& rs) {
  sink << "{\"rank\":" << rs.rank << ",\"phases\":[";
  for (std::size_t i = 0; i < rs.phases.size(); ++i) sink << (i ? ",\"" : "\"") << rs.phases[i] << "\"";
  sink << "],\"ops\":[";
  for (std::size_t i = 0; i < rs.ops.size(); ++i) {
    const RecordedOp& op = rs.ops[i];
    sink << (i ? ",\n" : "\n") << "{\"id\":" << static_cast<std::uint64_t>(i) << ",\"kind\":\"" << kind_name(op.kind)
         << "\"";
    if (op.peer >= 0) sink << ",\"peer\":" << op.peer << ",\"tag\":" << op.tag;
    sink << ",\"bytes\":" << op.bytes << ",\"step\":" << op.step << ",\"phase\":" << op.phase << ",\"deps\":[";
    for (std::uint32_t d = op.dep_begin; d < op.dep_end; ++d) sink << (d != op.dep_begin ? "," : "") << d;
    sink << "]}";
  }
  sink << "]}";
}

}  // namespace

std::optional<ScheduleFormat> parse_schedule_format(std::string_view s) {
  if (s == "goal") return ScheduleFormat::goal;
  if (s == "json") return ScheduleFormat::json;
  return std::nullopt;
}

void write_goal(const ScheduleRequest& req, std::ostream& out) {
  reference::check_request(req);
  Sink sink(out);
  sink << "num_ranks " << req.np << "\n\n";
  RankSchedule rs;
  for (int r = 0; r < req.np; ++r) {
    reference::record_rank(req, r, rs);
    GoalRank(sink, rs).write();
  }
}

void write_json(const ScheduleRequest& req, std::ostream& out) {
  reference::check_request(req);
  Sink sink(out);
  sink << "{\"format\":\"pico-schedule\",\"version\":1,\"collective\":\"" << name(req.collective)
       << "\",\"algorithm\":\"" << req.algorithm << "\",\"num_ranks\":" << req.np << ",\"count\":" << req.count
       << ",\"dtype\":\"" << name(req.dtype) << "\",\"in_place\":" << (req.in_place ? "true" : "false")
       << ",\"root\":" << req.root << ",\"segment_bytes\":" << req.segment_bytes << ",\"ranks\":[\n";
  RankSchedule rs;
  for (int r = 0; r < req.np; ++r) {
    reference::record_rank(req, r, rs);
    if (r != 0) sink << ",\n";
    write_json_rank(sink, rs);
  }
  sink << "]}\n";
}

void write_schedule(const ScheduleRequest& req, ScheduleFormat format, std::ostream& out) {
  if (format == ScheduleFormat::goal) write_goal(req, out);
  else write_json(req, out);
}

}  // namespace pico
