// SPDX-License-Identifier: BSD-3-Clause
// GOAL and JSON export of recorded schedules: the exact GOAL text of a small
// case, and every algorithm's output against a GOAL syntax checker.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "collectives/reference/algorithms.hpp"
#include "collectives/reference/recording.hpp"
#include "collectives/schedule_export.hpp"
#include "collectives/spec.hpp"
#include "collectives/transport/recording_transport.hpp"

using namespace pico;

namespace {

// A GOAL checker after LogGOPSim's grammar: `num_ranks N`, then N blocks
// `rank r { ... }` (each r once) holding `label: send <n>b to <peer> tag <t>`,
// `label: recv <n>b from <peer> tag <t>`, `label: calc <t>` and
// `a requires b` / `a irequires b` between labels defined earlier in the
// block. Returns the problem, or "" and the operation counts in `stats`.
struct GoalStats {
  int ranks = 0;
  std::uint64_t sends = 0, recvs = 0, calcs = 0, requires_ = 0, send_bytes = 0, recv_bytes = 0;
};

std::string check_goal(const std::string& text, GoalStats& stats) {
  static const std::regex header(R"(num_ranks (\d+))");
  static const std::regex open(R"(rank (\d+) \{)");
  static const std::regex send(R"(([a-zA-Z][a-zA-Z0-9_]*): send (\d+)b to (\d+) tag (\d+))");
  static const std::regex recv(R"(([a-zA-Z][a-zA-Z0-9_]*): recv (\d+)b from (\d+) tag (\d+))");
  static const std::regex calc(R"(([a-zA-Z][a-zA-Z0-9_]*): calc (\d+))");
  static const std::regex dep(R"(([a-zA-Z][a-zA-Z0-9_]*) i?requires ([a-zA-Z][a-zA-Z0-9_]*))");
  std::istringstream in(text);
  std::string line;
  int num_ranks = -1, line_no = 0;
  bool in_rank = false;
  std::set<int> seen;
  std::set<std::string> labels;
  std::smatch m;
  auto fail = [&](const std::string& why) { return fmt::format("line {}: {}: '{}'", line_no, why, line); };
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    if (num_ranks < 0) {
      if (!std::regex_match(line, m, header)) return fail("expected num_ranks");
      num_ranks = std::stoi(m[1]);
      continue;
    }
    if (!in_rank) {
      if (!std::regex_match(line, m, open)) return fail("expected 'rank r {'");
      const int r = std::stoi(m[1]);
      if (r >= num_ranks || !seen.insert(r).second) return fail("bad or repeated rank");
      in_rank = true;
      labels.clear();
      continue;
    }
    if (line == "}") {
      in_rank = false;
      continue;
    }
    auto define = [&](const std::string& label) { return labels.insert(label).second; };
    if (std::regex_match(line, m, send) || std::regex_match(line, m, recv)) {
      if (!define(m[1])) return fail("label defined twice");
      if (std::stoi(m[3]) >= num_ranks) return fail("peer out of range");
      const bool is_send = line.find(": send ") != std::string::npos;
      (is_send ? stats.sends : stats.recvs) += 1;
      (is_send ? stats.send_bytes : stats.recv_bytes) += std::stoull(m[2]);
    } else if (std::regex_match(line, m, calc)) {
      if (!define(m[1])) return fail("label defined twice");
      ++stats.calcs;
    } else if (std::regex_match(line, m, dep)) {
      if (!labels.count(m[1]) || !labels.count(m[2])) return fail("requires an undefined label");
      ++stats.requires_;
    } else {
      return fail("not a GOAL statement");
    }
  }
  if (in_rank) return "unterminated rank block";
  if (static_cast<int>(seen.size()) != num_ranks) return "missing rank blocks";
  stats.ranks = num_ranks;
  return {};
}

std::string goal_of(const reference::ScheduleRequest& req, int threads = 0) {
  std::ostringstream out;
  write_goal(req, out, threads, GoalOptions{.reduce_ps_per_byte = 1, .tag_base = 0});  // calc = bytes reduced
  return out.str();
}

// The GOAL text as the first, in-memory exporter wrote it: every rank
// recorded up front, lines built with fmt. The streaming writer must match
// it byte for byte.
std::string goal_in_memory(const reference::ScheduleRequest& req) {
  std::string out = fmt::format("num_ranks {}\n\n", req.np);
  for (const transport::RankSchedule& rs : reference::record_all(req)) {
    out += fmt::format("rank {} {{\n", rs.rank);
    std::uint64_t next = 0;
    std::vector<std::uint64_t> previous, deps;
    for (std::size_t begin = 0; begin < rs.ops.size();) {
      std::size_t end = begin, written = 0;
      for (; end < rs.ops.size() && rs.ops[end].step == rs.ops[begin].step; ++end)
        written += rs.ops[end].kind != transport::OpKind::copy;
      if (written > 0) {
        deps.swap(previous);
        previous.clear();
        if (deps.size() > 1 && written > 1 && deps.size() * written > deps.size() + written) {
          const std::uint64_t join = next++;
          out += fmt::format("l{}: calc 0\n", join);
          for (std::uint64_t d : deps) out += fmt::format("l{} requires l{}\n", join, d);
          deps.assign(1, join);
        }
        for (std::size_t i = begin; i < end; ++i) {
          const transport::RecordedOp& op = rs.ops[i];
          if (op.kind == transport::OpKind::copy) continue;
          const std::uint64_t label = next++;
          if (op.kind == transport::OpKind::send)
            out += fmt::format("l{}: send {}b to {} tag {}\n", label, op.bytes, op.peer, op.tag);
          else if (op.kind == transport::OpKind::recv)
            out += fmt::format("l{}: recv {}b from {} tag {}\n", label, op.bytes, op.peer, op.tag);
          else
            out += fmt::format("l{}: calc {}\n", label, op.bytes);
          for (std::uint64_t d : deps) out += fmt::format("l{} requires l{}\n", label, d);
          previous.push_back(label);
        }
      }
      begin = end;
    }
    out += "}\n";
  }
  return out;
}

// Rank r of the 3-rank ring allreduce of 3 floats: two reduce-scatter steps
// (sendrecv, then reduce the 4 bytes received), two allgather steps.
std::string ring3_rank(int r) {
  const int right = (r + 1) % 3, left = (r + 2) % 3;
  return fmt::format(
      "rank {0} {{\n"
      "l0: send 4b to {1} tag 0\n"
      "l1: recv 4b from {2} tag 0\n"
      "l2: calc 4\n"
      "l2 requires l0\n"
      "l2 requires l1\n"
      "l3: send 4b to {1} tag 1\n"
      "l3 requires l2\n"
      "l4: recv 4b from {2} tag 1\n"
      "l4 requires l2\n"
      "l5: calc 4\n"
      "l5 requires l3\n"
      "l5 requires l4\n"
      "l6: send 4b to {1} tag 2\n"
      "l6 requires l5\n"
      "l7: recv 4b from {2} tag 2\n"
      "l7 requires l5\n"
      "l8: send 4b to {1} tag 3\n"
      "l8 requires l6\n"
      "l8 requires l7\n"
      "l9: recv 4b from {2} tag 3\n"
      "l9 requires l6\n"
      "l9 requires l7\n"
      "}}\n",
      r, right, left);
}

}  // namespace

TEST_CASE("GOAL of the 3-rank ring allreduce of 12 bytes, exactly", "[schedule]") {
  const reference::ScheduleRequest req{Collective::allreduce, "ring", 3, 3, Dtype::float32};
  const std::string goal = goal_of(req);
  CHECK(goal == "num_ranks 3\n\n" + ring3_rank(0) + ring3_rank(1) + ring3_rank(2));
  GoalStats stats;
  CHECK(check_goal(goal, stats).empty());
}

TEST_CASE("a collective without reference algorithms has no schedule to record", "[schedule]") {
  const reference::ScheduleRequest req{Collective::sendrecv, "ring", 4, 16, Dtype::float32};
  CHECK_THROWS_WITH(reference::record_all(req), "pico has no reference sendrecv algorithm");
}

TEST_CASE("the GOAL checker rejects broken input", "[schedule]") {
  GoalStats s;
  CHECK_FALSE(check_goal("rank 0 {\n}\n", s).empty());
  CHECK_FALSE(check_goal("num_ranks 1\nrank 0 {\nl0: send 4b to 0 tag 0\nl0: calc 1\n}\n", s).empty());
  CHECK_FALSE(check_goal("num_ranks 1\nrank 0 {\nl1 requires l0\n}\n", s).empty());
  CHECK_FALSE(check_goal("num_ranks 2\nrank 0 {\n}\n", s).empty());
  CHECK_FALSE(check_goal("num_ranks 1\nrank 0 {\n0x: calc 1\n}\n", s).empty());
  CHECK(check_goal("num_ranks 1\nrank 0 {\nl0: calc 1\nl1: calc 2\nl1 requires l0\n}\n", s).empty());
}

TEST_CASE("every algorithm exports valid GOAL with matching sends and receives", "[schedule]") {
  for (Collective c : all_collectives()) {
    const CollectiveSpec& spec = spec_for(c);
    for (const std::string& alg : reference_algorithm_names(c)) {
      for (int p : {1, 2, 5, 8, 13}) {
        for (bool in_place : {false, true}) {
          if (in_place && !spec.supports_in_place()) continue;
          const reference::ScheduleRequest req{c, alg, p, spec.has_payload ? 1001u : 0u,
                                               spec.has_payload ? Dtype::float64 : Dtype::none, in_place,
                                               p > 1 ? 1 : 0, 2048};
          INFO(fmt::format("{} {} p={} in_place={}", name(c), alg, p, in_place));
          GoalStats stats;
          REQUIRE(check_goal(goal_of(req), stats) == "");
          CHECK(stats.ranks == p);
          CHECK(stats.sends == stats.recvs);
          CHECK(stats.send_bytes == stats.recv_bytes);
          if (p > 1) CHECK(stats.sends > 0);
        }
      }
    }
  }
}

TEST_CASE("streamed GOAL is byte-identical to the in-memory exporter, on any number of threads", "[schedule]") {
  for (Collective c : all_collectives()) {
    const CollectiveSpec& spec = spec_for(c);
    for (const std::string& alg : reference_algorithm_names(c)) {
      for (int p : {1, 3, 8, 17}) {
        // Ring labels pass 9, 99 and 999 at p = 17 (the writer increments label text).
        const reference::ScheduleRequest req{c, alg, p, spec.has_payload ? 1000u : 0u,
                                             spec.has_payload ? Dtype::float32 : Dtype::none, false,
                                             p > 1 ? 1 : 0, 256};
        INFO(fmt::format("{} {} p={}", name(c), alg, p));
        const std::string expected = goal_in_memory(req);
        for (int threads : {1, 2, 3}) CHECK(goal_of(req, threads) == expected);
      }
    }
  }
  // Blocks over 10^8 bytes (integers past the one-word fast path) and labels past 999.
  const reference::ScheduleRequest big{Collective::allreduce, "ring", 150, 10'000'000'000u, Dtype::float32};
  CHECK(goal_of(big, 2) == goal_in_memory(big));
}

TEST_CASE("a step after a wide step goes through one join node", "[schedule]") {
  // Linear alltoall posts 2(p-1) operations in one step; nothing follows it,
  // so no join. The segmented ring's overlapped steps (recv, send, calc)
  // followed by the same shape take 3 x 3 = 9 requires > 3 + 3: joined.
  const reference::ScheduleRequest req{Collective::allreduce, "segmented_ring", 2, 64, Dtype::float32, false, 0, 16};
  const std::string goal = goal_of(req);
  CHECK(goal.find(": calc 0\n") != std::string::npos);
  GoalStats stats;
  CHECK(check_goal(goal, stats).empty());
}

TEST_CASE("JSON export holds every recorded operation", "[schedule]") {
  const reference::ScheduleRequest req{Collective::allreduce, "rabenseifner", 6, 100, Dtype::int32, true};
  std::ostringstream out, one_thread;
  write_json(req, out, 3);
  write_json(req, one_thread, 1);
  CHECK(out.str() == one_thread.str());
  const auto j = nlohmann::json::parse(out.str());
  CHECK(j["format"] == "pico-schedule");
  CHECK(j["num_ranks"] == 6);
  CHECK(j["algorithm"] == "rabenseifner");
  CHECK(j["in_place"] == true);
  REQUIRE(j["ranks"].size() == 6);
  const auto all = reference::record_all(req);
  for (int r = 0; r < 6; ++r) {
    const auto& rank = j["ranks"][static_cast<std::size_t>(r)];
    const auto& recorded = all[static_cast<std::size_t>(r)];
    CHECK(rank["rank"] == r);
    REQUIRE(rank["ops"].size() == recorded.ops.size());
    for (std::size_t i = 0; i < recorded.ops.size(); ++i) {
      const auto& op = rank["ops"][i];
      CHECK(op["id"] == i);
      CHECK(op["bytes"] == recorded.ops[i].bytes);
      CHECK(op["deps"].size() == recorded.ops[i].dep_end - recorded.ops[i].dep_begin);
      CHECK(op["phase"].get<std::size_t>() < rank["phases"].size());
    }
  }
  // Rank 0 folds out: it sends its 400 bytes to rank 1 and gets the result back.
  CHECK(j["ranks"][0]["ops"][0]["kind"] == "send");
  CHECK(j["ranks"][0]["ops"][0]["peer"] == 1);
  CHECK(j["ranks"][0]["ops"][0]["bytes"] == 400);
}

TEST_CASE("the recording transport enforces buffer bounds and in-place absence", "[schedule]") {
  transport::RankSchedule out;
  transport::RecordingTransport t(0, 2, 4, transport::BufferCapacity{10, 10, 5}, out);
  CHECK_NOTHROW(t.send(1, transport::ConstBlock{t.send_buffer(), 0, 10}, 0));
  CHECK_THROWS_AS(t.send(1, transport::ConstBlock{t.send_buffer(), 5, 6}, 0), std::logic_error);
  CHECK_THROWS_AS(t.recv(1, transport::Block{const_cast<void*>(t.send_buffer()), 0, 1}, 0), std::logic_error);
  CHECK_THROWS_AS(t.recv(1, transport::Block{t.scratch(), 3, 3}, 0), std::logic_error);
  CHECK_THROWS_AS(t.send(1, transport::ConstBlock{nullptr, 0, 1}, 0), std::logic_error);
  CHECK_THROWS_AS(t.send(0, transport::ConstBlock{t.send_buffer(), 0, 1}, 0), std::logic_error);  // to itself
  CHECK_THROWS_AS(t.reduce_local(transport::Block{t.recv_buffer(), 0, 4}, transport::ConstBlock{t.recv_buffer(), 2, 4}),
                  std::logic_error);
  t.post_send(1, transport::ConstBlock{t.send_buffer(), 0, 1}, 0);
  CHECK_THROWS_AS(t.finish(), std::logic_error);
  t.wait_all();
  CHECK_NOTHROW(t.finish());
}
