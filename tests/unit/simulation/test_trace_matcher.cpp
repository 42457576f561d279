// SPDX-License-Identifier: BSD-3-Clause
// The message matcher of traced programs (simulation/trace_matcher.hpp): MPI's order per (communicator, source,
// tag), wildcards, cancels and refusals.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "simulation/trace_matcher.hpp"
#include "support/input_error.hpp"

using namespace pico;

namespace {

// A program of `ranks` ranks with `ops` operations each, for the matcher to point at.
TraceProgram program(int ranks, std::size_t ops) {
  TraceProgram t;
  t.ranks.resize(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    t.ranks[static_cast<std::size_t>(r)].file = "rank" + std::to_string(r) + ".txt";
    t.ranks[static_cast<std::size_t>(r)].ops.resize(ops);
  }
  return t;
}

PostedMessage posted(int comm, int rank, int peer, std::int64_t tag, std::uint64_t bytes, std::size_t op,
                     double start_us = 0) {
  return PostedMessage{comm, rank, peer, tag, bytes, start_us, op, static_cast<int>(op) + 1};
}

// The message rank r's op points at.
const TraceMessage& message_of(const TraceProgram& t, int r, std::size_t op) {
  return t.messages.at(t.ranks[static_cast<std::size_t>(r)].ops[op].index);
}

std::string refusal(MessageMatcher& m, TraceProgram& t) {
  try {
    m.match(t);
  } catch (const InputError& e) {
    return e.file + ":" + std::to_string(e.line) + ": " + e.message;
  }
  return {};
}

}  // namespace

TEST_CASE("trace matcher: receives take sends in order per (source, tag, communicator)", "[trace]") {
  MessageMatcher m(2);
  TraceProgram t = program(2, 4);
  m.send(posted(0, 0, 1, 1, 10, 0));
  m.send(posted(0, 0, 1, 2, 20, 1));
  m.send(posted(0, 0, 1, 1, 30, 2));
  m.send(posted(1, 0, 1, 1, 40, 3));  // the same source and tag on another communicator
  m.receive(posted(1, 1, 0, 1, 40, 0));
  m.receive(posted(0, 1, 0, 1, 10, 1));
  m.receive(posted(0, 1, 0, 1, 30, 2));
  m.receive(posted(0, 1, 0, 2, 20, 3));
  m.match(t);
  REQUIRE(t.messages.size() == 4);
  CHECK(message_of(t, 1, 0).bytes == 40);
  CHECK(message_of(t, 1, 1).bytes == 10);
  CHECK(message_of(t, 1, 2).bytes == 30);
  CHECK(message_of(t, 1, 3).bytes == 20);
  // Each send points at the message its receive took.
  for (std::size_t op = 0; op < 4; ++op) {
    CHECK(message_of(t, 0, op).src == 0);
    CHECK(message_of(t, 0, op).dst == 1);
  }
  CHECK(message_of(t, 0, 2).bytes == 30);
  CHECK(t.ranks[0].ops[3].index == t.ranks[1].ops[0].index);
}

TEST_CASE("trace matcher: a wildcard receive takes the earliest matching send", "[trace]") {
  MessageMatcher m(3);
  TraceProgram t = program(3, 4);
  m.send(posted(0, 1, 0, 5, 11, 0, 300));
  m.send(posted(0, 1, 0, 8, 44, 1, 500));
  m.send(posted(0, 2, 0, 6, 22, 0, 200));
  m.send(posted(0, 2, 0, 7, 33, 1, 400));
  // Any source, tag 5: only rank 1's send has it, though rank 2's started first.
  m.receive(posted(0, 0, -1, 5, 11, 0));
  // Any source and tag: of each source's first unmatched send (rank 1's at 500, rank 2's at 200), the earliest.
  m.receive(posted(0, 0, -1, MessageMatcher::any_tag, 22, 1));
  m.receive(posted(0, 0, 2, MessageMatcher::any_tag, 33, 2));
  m.receive(posted(0, 0, -1, MessageMatcher::any_tag, 44, 3));
  m.match(t);
  CHECK(message_of(t, 0, 0).src == 1);
  CHECK(message_of(t, 0, 1).src == 2);
  CHECK(message_of(t, 0, 1).bytes == 22);
  CHECK(message_of(t, 0, 2).bytes == 33);
  CHECK(message_of(t, 0, 3).bytes == 44);
  CHECK(message_of(t, 1, 1).bytes == 44);
}

TEST_CASE("trace matcher: a wildcard tag takes no v-collective message", "[trace]") {
  MessageMatcher m(2);
  TraceProgram t = program(2, 2);
  m.send(posted(0, 1, 0, MessageMatcher::vcollective_tag, 8, 0, 100));
  m.send(posted(0, 1, 0, 3, 16, 1, 200));
  m.receive(posted(0, 0, -1, MessageMatcher::any_tag, 16, 0));
  m.receive(posted(0, 0, 1, MessageMatcher::vcollective_tag, 8, 1));
  m.match(t);
  CHECK(message_of(t, 0, 0).bytes == 16);
  CHECK(message_of(t, 0, 1).bytes == 8);
}

TEST_CASE("trace matcher: a cancelled receive matches nothing, what is left unmatched is refused", "[trace]") {
  {
    MessageMatcher m(2);
    TraceProgram t = program(2, 2);
    m.send(posted(0, 0, 1, 1, 10, 0));
    const std::size_t first = m.receive(posted(0, 1, 0, 1, 99, 0));
    m.receive(posted(0, 1, 0, 1, 10, 1));
    CHECK(m.cancel(1, first) == 0);  // its op
    m.match(t);
    REQUIRE(t.messages.size() == 1);
    CHECK(message_of(t, 1, 1).bytes == 10);
  }
  {
    MessageMatcher m(2);
    TraceProgram t = program(2, 2);
    m.receive(posted(0, 1, 0, 4, 10, 1));
    CHECK(refusal(m, t) == "rank1.txt:2: no send matches this receive (from rank 0, tag 4)");
  }
  {
    MessageMatcher m(2);
    TraceProgram t = program(2, 2);
    m.send(posted(0, 0, 1, 4, 10, 0));
    m.receive(posted(0, 1, 0, 5, 10, 0));  // another tag
    CHECK(refusal(m, t) == "rank1.txt:1: no send matches this receive (from rank 0, tag 5)");
  }
  {
    MessageMatcher m(2);
    TraceProgram t = program(2, 2);
    m.send(posted(0, 0, 1, 4, 10, 1));
    CHECK(refusal(m, t) == "rank0.txt:2: no receive matches this send (to rank 1, tag 4)");
  }
  {
    MessageMatcher m(2);
    TraceProgram t = program(2, 1);
    m.send(posted(0, 0, 1, MessageMatcher::vcollective_tag, 16, 0));
    m.receive(posted(0, 1, 0, MessageMatcher::vcollective_tag, 24, 0));
    CHECK_THAT(refusal(m, t), Catch::Contains("this rank's counts take 24 B from rank 0, whose counts send it 16 B"));
  }
}
