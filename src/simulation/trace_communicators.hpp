// SPDX-License-Identifier: BSD-3-Clause
// The communicators of a traced program (simulation/trace_builder.hpp), and
// which one each rank's handles name. liballprof prints a call's handle, the
// rank's place in it and its size, and for MPI_Comm_split & co. the address
// of the new communicator's variable, not its handle: the table rebuilds each
// new communicator's ranks once every member of the parent has made the call,
// and binds a handle first seen to the rank's oldest communicator made and
// not yet used whose size and place match (docs/simulation.md#traces).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "simulation/liballprof.hpp"
#include "simulation/trace_builder.hpp"
#include "simulation/trace_library.hpp"
#include "simulation/trace_program.hpp"

namespace pico {

class CommunicatorTable {
 public:
  // `ranks` (build_trace_program's) outlives the table; `known` as build_trace_program's. Communicator 0 is the
  // world.
  CommunicatorTable(const std::vector<RankRecords>& ranks, const TraceLibrary& lib,
                    std::map<std::uint64_t, std::vector<int>> known);

  // The communicator rank r's handle `ref` names at its record `cursor` (line `line`); throws InputError for one
  // no call pico follows made.
  int bind(int r, const liballprof::CommRef& ref, int line, std::size_t cursor);
  // A communicator call (MPI_Comm_split, _split_type, _dup, MPI_Cart_create, MPI_Comm_create) of rank r at its
  // record `cursor`: false until every member of the parent has made it, then true (once per call).
  bool create(int r, const liballprof::Record& rec, std::size_t cursor);
  // MPI_Comm_free: the communicator made into the variable ends; its handle may come back for another.
  void free(int r, const liballprof::Record& rec);
  // Rank r waits at communicator call `rec` for members that never make it: throws InputError naming them.
  [[noreturn]] void stuck(int r, const liballprof::Record& rec) const;

  const std::vector<int>& ranks(int comm) const { return comms_[static_cast<std::size_t>(comm)].ranks; }
  int rank_in(int comm, int world_rank) const;  // ranks(comm).size() if not a member
  // MPI_Comm_free calls of a variable no communicator call made (a copy of a handle), all ranks.
  std::uint64_t untied_frees() const;
  // Where a rank field first disagreed with the rebuilt communicators, for the user.
  const std::optional<std::string>& rank_field_note() const { return rank_field_note_; }
  std::vector<TraceCommunicator> take() { return std::move(comms_); }

 private:
  struct Rank {
    bool world_bound = false, arrived = false;
    std::unordered_map<std::uint64_t, int> handles;    // comm handle -> comm
    std::deque<int> made;                              // communicators made, not yet bound to a handle
    std::unordered_map<std::uint64_t, int> variables;  // a variable a communicator was made into -> it (until freed)
    std::uint64_t untied_frees = 0;                    // MPI_Comm_free calls of a variable pico did not see made
    std::unordered_map<std::uint64_t, std::uint64_t> bound_at;  // handle -> untied_frees when it was bound
    std::map<int, std::uint64_t> creations;                     // comm -> communicator calls so far
  };
  struct Creation {  // one communicator call on a parent, over its members
    std::vector<std::pair<int, const liballprof::Record*>> arrived;  // world rank, its record
    bool resolved = false;
  };

  [[noreturn]] void fail(int r, int line, const std::string& what, const std::string& hint = {}) const;
  bool fits(int comm, int r, const liballprof::CommRef& ref, bool rank_too) const;
  void check_rank_field(int comm, int r, const liballprof::CommRef& ref, int line);
  bool peer_confirms(int r, const liballprof::CommRef& ref, int comm, std::size_t cursor) const;
  void settle_cartesian(int comm, int size);
  int bind_handle(Rank& s, std::uint64_t handle, int comm);
  int bind_known(int r, const liballprof::CommRef& ref, int line);
  void resolve(int parent, Creation& c);
  void made_by(int r, const liballprof::Record& rec, int comm);
  Rank& st(int r) { return state_[static_cast<std::size_t>(r)]; }
  int size() const { return static_cast<int>(in_.size()); }

  const std::vector<RankRecords>& in_;
  TraceLibrary lib_;
  std::map<std::uint64_t, std::vector<int>> known_;
  std::vector<TraceCommunicator> comms_;
  std::vector<Rank> state_;
  std::map<std::pair<int, std::uint64_t>, Creation> creations_;
  std::map<std::uint64_t, int> known_ids_;
  std::set<int> cartesian_;  // Cartesian communicators no member has used yet: their size is not known
  std::set<int> created_;    // MPI_Comm_create's: the parent's ranks, bound only where size and place agree
  std::optional<std::string> rank_field_note_;
};

}  // namespace pico
