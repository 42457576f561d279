// SPDX-License-Identifier: BSD-3-Clause
// Point-to-point matching of a traced program (simulation/trace_builder.hpp):
// the sends and receives the ranks posted, tied into messages in MPI's order.
// Per (communicator, source, tag) the k-th send goes to the k-th receive
// that can take it; a receive from any source takes, of each source's first
// matching send, the one that started first by the trace's clock
// (liballprof records no status).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "simulation/trace_program.hpp"

namespace pico {

// A send or receive as posted, before matching.
struct PostedMessage {
  int comm = 0;
  int rank = 0;          // who posted it (world)
  int peer = 0;          // world rank, or -1 for any source
  std::int64_t tag = 0;  // MessageMatcher::any_tag for any tag
  std::uint64_t bytes = 0;
  double start_us = 0;
  std::size_t op = 0;  // index into the rank's ops
  int line = 0;
  bool cancelled = false;  // a receive MPI_Cancel reached before it matched: it matches nothing
};

class MessageMatcher {
 public:
  static constexpr std::int64_t any_tag = std::numeric_limits<std::int64_t>::min();  // a wildcard, once decoded
  // The tag of a v-collective's messages: below every tag MPI allows (>= 0) and MPI_ANY_TAG (-1), so no receive
  // of the application's takes one (MPI keeps collectives in a context of their own).
  static constexpr std::int64_t vcollective_tag = -2;

  explicit MessageMatcher(int ranks) : recvs_(static_cast<std::size_t>(ranks)) {}

  void send(const PostedMessage& p);
  // Returns the receive's place among its rank's receives (for cancel()).
  std::size_t receive(const PostedMessage& p);
  // The receive matches nothing; returns its op.
  std::size_t cancel(int rank, std::size_t receive);

  // Appends one message per matched pair to out.messages and points both ops (out.ranks[*].ops[op].index) at it.
  // Throws InputError at the file (out.ranks[r].file) and line of a send or receive nothing matches.
  void match(TraceProgram& out);

 private:
  // The sends of one (communicator, source, destination), in the source's order.
  struct Channel {
    std::vector<std::size_t> sends;
    std::size_t first = 0;  // before it, every send is matched
    std::map<std::int64_t, std::deque<std::size_t>> by_tag;
  };
  std::optional<std::size_t> first_match(Channel& c, std::int64_t tag) const;

  std::vector<PostedMessage> sends_;
  std::vector<std::vector<PostedMessage>> recvs_;  // per destination, in posting order
  std::map<std::tuple<int, int, int>, Channel> channels_;
  std::map<std::pair<int, int>, std::set<int>> sources_;  // (comm, destination) -> sources
  std::vector<char> matched_;
};

}  // namespace pico
