// SPDX-License-Identifier: BSD-3-Clause
// Writes one rank's GOAL program (LogGOPSim, ATLAHS) as a chain of pieces:
// recorded collective calls, compute gaps and joins. GOAL has one time unit
// and LogGOPSim's parameters are integers, so pico writes time in
// picoseconds: a local reduction of n bytes is `calc round(n x
// reduce_ps_per_byte)`, a compute gap of t seconds is `calc round(t x 1e12)`.
//
// Program order: every operation of a step requires each operation of the
// step before (a `calc 0` join node stands in when that takes fewer lines);
// the first step of a call requires what ended the piece before it. Local
// copies are not written (they cost no network time). Labels are numbered per
// rank (`l0`, `l1`, ...) across all the rank's pieces.
//
// Tags: a call's recorded tags (step numbers, < tag_span of its request) are
// written as tag_base + tag, so calls given disjoint ranges never match each
// other's messages, however far one rank runs ahead.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "collectives/pair_exchange.hpp"
#include "collectives/reference/recording.hpp"
#include "collectives/schedule_text.hpp"

namespace pico {

// The tags a call of `req` uses are [0, tag_span(req)): its algorithms tag
// messages by step (at most 2p), segment (at most bytes / segment) or 0.
std::uint64_t tag_span(const reference::ScheduleRequest& req);

// The largest tag GOAL carries through LogGOPSim (which keeps tags in an int
// and reserves ~0 for "any tag").
inline constexpr std::uint64_t kMaxGoalTag = 0x7fffffff;

class GoalRankWriter {
 public:
  // Writes `rank r {` into `text`.
  GoalRankWriter(schedule_text::TextBuffer& text, int rank);

  // One collective call as recorded for this rank. `global_rank` maps the
  // call's communicator ranks to GOAL ranks (empty: the identity). Throws
  // std::logic_error when a recorded tag is outside [0, span).
  void collective(const transport::RankSchedule& rs, std::uint64_t tag_base, std::uint64_t span,
                  double reduce_ps_per_byte, std::span<const int> global_rank = {});
  // A collective call started without waiting for it (MPI_Iallreduce & co.):
  // written as collective(), but what follows requires only what came before
  // it, so it overlaps the rank's later work. Returns the label that ends it
  // (a join where several operations do) for wait(); nullopt when the call
  // wrote nothing (a group of one rank).
  std::optional<schedule_text::Label> detached_collective(const transport::RankSchedule& rs, std::uint64_t tag_base,
                                                          std::uint64_t span, double reduce_ps_per_byte,
                                                          std::span<const int> global_rank = {});
  // A send (or receive) of `bytes` to (from) GOAL rank `peer` with GOAL tag
  // `tag`, after what came before. Blocking (MPI_Send, MPI_Recv): what
  // follows requires it. Not blocking (MPI_Isend, MPI_Irecv): what follows
  // does not; the returned label is what the request's wait() requires.
  schedule_text::Label point_to_point(bool send, std::uint64_t bytes, int peer, std::uint64_t tag, bool blocking);
  // MPI_Wait and co.: what follows requires `done` too.
  void wait(std::span<const schedule_text::Label> done);
  // A compute gap of `ps` picoseconds after what came before.
  void calc(std::uint64_t ps);
  // One `calc 0` node requiring every operation that ended the last piece, so
  // that what follows depends on the whole call (not written when one
  // operation ended it).
  void join();
  // Writes `}`.
  void finish();
  // From now on a collective's pair exchanges (collectives/pair_exchange.hpp)
  // are written `factor` times their size, so that LogGOPSim charges them the
  // model's measured exchange cost. 1 (the default): as recorded.
  void charge_exchanges(double factor) { exchange_factor_ = factor; }

 private:
  void write_step(const transport::RankSchedule& rs, std::size_t begin, std::size_t end);
  schedule_text::Label new_label();

  // The numbers of the last line of each kind: most lines repeat them.
  struct Memos {
    schedule_text::DecimalMemo send_bytes, send_peer, send_tag, recv_bytes, recv_peer, recv_tag, calc;
  };
  static char* write_message(char* p, Memos& m, bool send, std::uint64_t bytes, std::uint32_t peer, std::uint64_t tag);

  schedule_text::TextBuffer& text_;
  std::uint64_t next_ = 0;  // the next label's number
  schedule_text::Label last_;  // the label numbered next_ - 1
  Memos memos_;
  std::vector<schedule_text::Label> frontier_;  // what the next operation requires
  std::vector<schedule_text::Label> deps_;
  // Per call: how tags, peers and reductions are written.
  std::uint64_t tag_base_ = 0;
  std::uint64_t span_ = 0;
  double reduce_ps_per_byte_ = 0;
  std::span<const int> global_rank_;
  double exchange_factor_ = 1;
  PairExchanges pairs_;
};

}  // namespace pico
