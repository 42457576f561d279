// SPDX-License-Identifier: BSD-3-Clause
#include "collectives/schedule_export.hpp"

#include <concepts>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "collectives/goal_writer.hpp"
#include "collectives/schedule_ordered.hpp"
#include "collectives/schedule_text.hpp"
#include "support/input_error.hpp"

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

void write_goal(const ScheduleRequest& req, std::ostream& out, int threads, const GoalOptions& options) {
  reference::check_request(req);
  const std::uint64_t span = tag_span(req);
  if (options.tag_base + span - 1 > kMaxGoalTag)
    throw std::invalid_argument(fmt::format("tags from {} to {} exceed GOAL's largest tag {}", options.tag_base,
                                            options.tag_base + span - 1, kMaxGoalTag));
  out << "num_ranks " << req.np << "\n\n";
  stream_ranks(req, threads, out, [&](const RankSchedule& rs, TextBuffer& text) {
    GoalRankWriter rank(text, rs.rank);
    rank.charge_exchanges(options.exchange_factor);
    rank.collective(rs, options.tag_base, span, options.reduce_ps_per_byte);
    rank.finish();
  });
}

void write_json(const ScheduleRequest& req, std::ostream& out, int threads) {
  reference::check_request(req);
  out << "{\"format\":\"pico-schedule\",\"version\":1,\"collective\":\"" << name(req.collective)
      << "\",\"algorithm\":\"" << req.algorithm << "\",\"num_ranks\":" << req.np << ",\"count\":" << req.count
      << ",\"dtype\":\"" << name(req.dtype) << "\",\"in_place\":" << (req.in_place ? "true" : "false")
      << ",\"root\":" << req.root << ",\"segment_bytes\":" << req.segment_bytes;
  // A count-matrix collective's pattern, JSON-escaped (a file pattern holds a path).
  if (!req.counts.empty()) out << ",\"counts\":" << nlohmann::json(req.counts).dump();
  out << ",\"ranks\":[\n";
  stream_ranks(req, threads, out, [](const RankSchedule& rs, TextBuffer& text) {
    if (rs.rank != 0) text.commit(put(text.room(2), ",\n"));
    write_json_rank(text, rs);
  });
  out << "]}\n";
}

namespace {

// GOAL's own flags: the reduction cost and the first tag of the call's range.
void write_goal_format(const ScheduleRequest& req, const FormatArgs& args, std::ostream& out, int threads) {
  GoalOptions options;
  if (const auto ps = args.number("reduce-ps-per-byte")) options.reduce_ps_per_byte = *ps;
  if (const auto tag = args.integer("tag-base")) options.tag_base = static_cast<std::uint64_t>(*tag);
  if (const auto factor = args.number("exchange-factor")) options.exchange_factor = *factor;
  reference::check_request(req);
  if (options.tag_base + tag_span(req) - 1 > kMaxGoalTag)
    throw InputError("--tag-base", fmt::format("the call's {} tags from {} pass GOAL's largest tag {}", tag_span(req),
                                               options.tag_base, kMaxGoalTag),
                     "give a smaller --tag-base");
  write_goal(req, out, threads, options);
}

void write_json_format(const ScheduleRequest& req, const FormatArgs&, std::ostream& out, int threads) {
  write_json(req, out, threads);
}

constexpr FormatFlag kGoalFlags[] = {
    {"reduce-ps-per-byte", "a local reduction's cost in ps per byte (calc time; default 250, 4 GB/s)",
     FlagKind::number, 0, 1e6},
    {"tag-base", "first tag of the call's range (to chain calls)", FlagKind::integer, 0,
     static_cast<double>(kMaxGoalTag)},
    {"exchange-factor",
     "write a message exchanged both ways with one peer in a step at this many times its size (a model's "
     "measured same-pair cost; default 1)",
     FlagKind::number, 1, 100},
};

const ScheduleFormat kGoal{.name = "goal",
                           .description = "LogGOPSim's GOAL text (ATLAHS)",
                           .flags = kGoalFlags,
                           .write = write_goal_format};
const ScheduleFormat kJson{.name = "json",
                           .description = "pico's JSON: every operation with its dependencies",
                           .flags = {},
                           .write = write_json_format};

}  // namespace

const std::vector<const ScheduleFormat*>& schedule_formats() {
  static const std::vector<const ScheduleFormat*> formats{&kGoal, &kJson};
  return formats;
}

const ScheduleFormat& schedule_format(std::string_view name) {
  return find_format(name, schedule_formats(), "schedule");
}

}  // namespace pico
