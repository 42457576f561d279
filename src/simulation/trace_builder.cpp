// SPDX-License-Identifier: BSD-3-Clause
// The orchestration of build_trace_program: ranks advance through their records until each meets a communicator
// call the other members have not reached; each record goes to the part that keeps its state: the communicator
// table (simulation/trace_communicators.hpp), the request tables (simulation/trace_requests.hpp), the rank's clock
// (simulation/trace_clock.hpp) and the message matcher (simulation/trace_matcher.hpp). Collective calls are tied
// here, in call order per communicator.
#include "simulation/trace_builder.hpp"

#include <map>
#include <optional>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "simulation/trace_clock.hpp"
#include "simulation/trace_communicators.hpp"
#include "simulation/trace_library.hpp"
#include "simulation/trace_matcher.hpp"
#include "simulation/trace_requests.hpp"
#include "support/counted.hpp"
#include "support/input_error.hpp"

namespace pico {
namespace {

using liballprof::CommRef;
using liballprof::Record;
using liballprof::Role;

constexpr std::int64_t kAnyTag = -1;  // MPI_ANY_TAG in both libraries
constexpr std::int64_t kVCollectiveTag = MessageMatcher::vcollective_tag;

TraceLibrary library_of(const std::vector<RankRecords>& ranks, TraceMpi mpi) {
  constexpr std::uint64_t kMpichWorld = 0x44000000;
  // Open MPI's C handles are addresses; its Fortran handles small indices (MPI_COMM_WORLD is 0).
  constexpr std::uint64_t kLargestFortranHandle = 1 << 20;
  std::optional<std::uint64_t> first_handle;
  for (const Record& r : ranks.front().records)
    if (r.comm.size != 0) {
      first_handle = r.comm.handle;
      break;
    }
  if (mpi == TraceMpi::automatic) mpi = first_handle == kMpichWorld ? TraceMpi::mpich : TraceMpi::openmpi;
  if (mpi == TraceMpi::mpich) return {-2, -1, 4, false, 1};
  if (first_handle && *first_handle <= kLargestFortranHandle) return {-1, -2, 4, true, 0};
  return {};
}

struct CollectiveArrivals {
  std::vector<std::pair<int, int>> members;  // world rank, line
};

std::vector<std::string> files_of(const std::vector<RankRecords>& ranks) {
  std::vector<std::string> files;
  for (const RankRecords& r : ranks) files.push_back(r.file);
  return files;
}

class Builder {
 public:
  Builder(std::vector<RankRecords> ranks, TraceMpi mpi, const std::map<std::uint64_t, std::vector<int>>& known)
      : in_(std::move(ranks)),
        lib_(library_of(in_, mpi)),
        state_(in_.size()),
        comms_(in_, lib_, known),
        requests_(files_of(in_), lib_.request_bytes),
        persistent_(size()),
        matcher_(size()) {
    out_.ranks.resize(in_.size());
    for (std::size_t r = 0; r < in_.size(); ++r) {
      out_.ranks[r].file = in_[r].file;
      clocks_.emplace_back(in_[r]);
      out_.ranks[r].first_start_s = clocks_.back().first_start_s();
      out_.ranks[r].last_end_s = clocks_.back().last_end_s();
    }
    if (lib_.fortran)
      out_.notes.push_back("the communicator handles are Open MPI's Fortran ones (the world is 0): request arrays are "
                           "read in 4-byte INTEGER steps");
  }

  TraceProgram build() {
    // Ranks advance until each meets a communicator call the other members have not reached.
    for (bool progress = true; progress;) {
      progress = false;
      for (int r = 0; r < size(); ++r) progress |= advance(r);
    }
    for (int r = 0; r < size(); ++r) {
      const std::size_t cursor = st(r).cursor;
      if (cursor < in_[static_cast<std::size_t>(r)].records.size())
        comms_.stuck(r, in_[static_cast<std::size_t>(r)].records[cursor]);
    }
    check_collectives();
    matcher_.match(out_);
    for (int r = 0; r < size(); ++r) rank_out(r).requests = requests_.count(r);
    out_.requests = requests_.summary();
    if (const auto& note = comms_.rank_field_note()) out_.notes.push_back(*note);
    if (const std::uint64_t untied_frees = comms_.untied_frees(); untied_frees > 0)
      out_.notes.push_back(
          fmt::format("MPI_Comm_free of a variable no communicator call made (a copy of a handle): "
                      "{}, each taken to end the rank's oldest communicator made and not yet used "
                      "(docs/simulation.md#traces)",
                      counted(untied_frees, "call")));
    if (out_.requests.uncancelled > 0)
      out_.notes.push_back(
          fmt::format("MPI_Cancel of a send or a collective: {}, replayed as made (liballprof does not "
                      "record whether the cancel succeeded)",
                      counted(out_.requests.uncancelled, "call")));
    out_.comms = comms_.take();
    return std::move(out_);
  }

 private:
  struct RankState {
    std::size_t cursor = 0;
    std::map<int, std::uint64_t> collectives;  // comm -> calls so far
  };

  int size() const { return static_cast<int>(in_.size()); }
  RankState& st(int r) { return state_[static_cast<std::size_t>(r)]; }
  TraceRank& rank_out(int r) { return out_.ranks[static_cast<std::size_t>(r)]; }
  const std::string& file(int r) const { return in_[static_cast<std::size_t>(r)].file; }
  double gap(int r, const Record& rec) { return clocks_[static_cast<std::size_t>(r)].gap(rec); }
  int bind(int r, const CommRef& ref, int line) { return comms_.bind(r, ref, line, st(r).cursor); }

  [[noreturn]] void fail(int r, int line, const std::string& what, const std::string& hint = {}) const {
    throw InputError(file(r), line, 0, what, hint);
  }

  TraceOp& push(int r, TraceOpKind kind, double gap_s, int line) {
    TraceOp op;
    op.kind = kind;
    op.gap_s = gap_s;
    op.line = line;
    rank_out(r).ops.push_back(op);
    return rank_out(r).ops.back();
  }

  // ---- collectives ----

  void collective(int r, const Record& rec) {
    const int comm = bind(r, rec.comm, rec.line);
    const auto key = std::pair{comm, st(r).collectives[comm]++};
    auto [it, fresh] = collective_index_.try_emplace(key, out_.collectives.size());
    if (fresh) {
      out_.collectives.push_back(TraceCollective{rec.collective, rec.bytes, comm, static_cast<int>(rec.root), {}});
      arrivals_.emplace_back();
    } else {
      const TraceCollective& c = out_.collectives[it->second];
      const auto& [other, line] = arrivals_[it->second].members.front();
      const std::string there = fmt::format("rank {}'s is at {}:{}", other, file(other), line);
      if (c.collective != rec.collective)
        fail(r, rec.line, fmt::format("this {} is where the communicator's other ranks call {}", name(rec.collective), name(c.collective)), there);
      if (c.bytes != rec.bytes || c.root != rec.root)
        fail(r, rec.line, fmt::format("{} bytes, root {} where the other ranks have {} bytes, root {}", rec.bytes, rec.root, c.bytes, c.root),
             there + "; pico replays collectives whose ranks agree on the size");
    }
    arrivals_[it->second].members.emplace_back(r, rec.line);
    TraceOp& op = push(r, TraceOpKind::collective, gap(r, rec), rec.line);
    op.index = it->second;
    op.blocking = rec.blocking;
    if (!rec.blocking) op.request = requests_.start(r, rec.request);
  }

  void check_collectives() {
    for (std::size_t i = 0; i < out_.collectives.size(); ++i) {
      const auto& members = arrivals_[i].members;
      const auto& g = comms_.ranks(out_.collectives[i].comm);
      if (members.size() == g.size()) continue;
      std::set<int> made;
      for (const auto& [r, line] : members) made.insert(r);
      std::vector<int> absent;
      for (const int m : g)
        if (!made.count(m) && absent.size() < 10) absent.push_back(m);
      const auto& [r, line] = members.front();
      fail(r, line, fmt::format("rank(s) {} of this call's communicator never make it", fmt::join(absent, ", ")),
           "every member calls a communicator's collectives, in the same order");
    }
  }

  // ---- point to point ----

  // Returns false for MPI_PROC_NULL (nothing to replay).
  bool post(int r, bool send, int comm, std::int64_t peer, std::int64_t tag, std::uint64_t bytes, const Record& rec,
            double gap_s, bool blocking, std::optional<std::uint64_t> request) {
    if (peer == lib_.proc_null) return false;
    const auto& g = comms_.ranks(comm);
    PostedMessage p{comm,
                    r,
                    -1,
                    tag == kAnyTag && !send ? MessageMatcher::any_tag : tag,
                    bytes,
                    rec.start_us.value_or(0),
                    rank_out(r).ops.size(),
                    rec.line};
    if (!send && peer == lib_.any_source) {
      p.peer = -1;
    } else {
      if (peer < 0 || peer >= static_cast<std::int64_t>(g.size()))
        fail(r, rec.line, fmt::format("rank {} is outside the communicator's {} ranks", peer, g.size()),
             fmt::format("is the trace from {}? (--trace-mpi)", lib_.any_source == -1 ? "MPICH" : "Open MPI"));
      p.peer = g[static_cast<std::size_t>(peer)];
    }
    if (send && tag < 0 && tag != kVCollectiveTag) fail(r, rec.line, fmt::format("a send with tag {}", tag), "");
    TraceOp& op = push(r, send ? TraceOpKind::send : TraceOpKind::recv, gap_s, rec.line);
    op.blocking = blocking;
    if (!blocking) op.request = request ? requests_.start(r, *request) : requests_.start_unnamed(r);
    if (send) {
      matcher_.send(p);
    } else {
      const std::size_t k = matcher_.receive(p);
      if (!blocking) requests_.receive(r, op.request, k);
    }
    return true;
  }

  void point_to_point(int r, const Record& rec) {
    const int comm = bind(r, rec.comm, rec.line);
    if (rec.peer == lib_.proc_null) {  // MPI_PROC_NULL: its time joins the next gap; its request is done at once
      if (!rec.blocking) requests_.done_at_once(r, rec.request);
      return;
    }
    post(r, rec.role == Role::send, comm, rec.peer, rec.tag, rec.bytes, rec, gap(r, rec), rec.blocking,
         rec.blocking ? std::nullopt : std::optional(rec.request));
  }

  // MPI_Sendrecv: a send and a receive started together, waited for together.
  void sendrecv(int r, const Record& rec) {
    const int comm = bind(r, rec.comm, rec.line);
    if (rec.peer == lib_.proc_null && rec.peer2 == lib_.proc_null) return;
    double g = gap(r, rec);
    std::vector<std::uint32_t> both;
    if (post(r, true, comm, rec.peer, rec.tag, rec.bytes, rec, g, false, std::nullopt)) {
      both.push_back(rank_out(r).ops.back().request);
      g = 0;
    }
    if (post(r, false, comm, rec.peer2, rec.tag2, rec.bytes2, rec, g, false, std::nullopt)) {
      both.push_back(rank_out(r).ops.back().request);
      g = 0;
    }
    if (both.empty()) return;
    wait_for(r, both, 0, rec.line);
  }

  // A v-collective as the messages of the linear algorithms (Open MPI's basic gatherv and scatterv, and
  // alltoallv's default for few ranks): gatherv's members send the root their block, scatterv's root sends each
  // its block, allgatherv and alltoallv send every other member theirs, each side by the counts the call printed
  // (a count of 0 sends nothing); all of a call's messages start together, and the call waits for them.
  void vcollective(int r, const Record& rec) {
    using liballprof::VCollective;
    const int comm = bind(r, rec.comm, rec.line);
    const int p = static_cast<int>(comms_.ranks(comm).size());
    const int me = comms_.rank_in(comm, r);
    const auto root = static_cast<int>(rec.root);
    std::vector<std::pair<int, bool>> pieces;  // comm rank, send
    for (int i = 0; i < p; ++i) {
      if (i == me) continue;
      const auto k = static_cast<std::size_t>(i);
      switch (rec.vcollective) {
        case VCollective::gatherv:
          if (me != root && i == root && rec.send_bytes[k]) pieces.emplace_back(i, true);
          if (me == root && rec.recv_bytes[k]) pieces.emplace_back(i, false);
          break;
        case VCollective::scatterv:
          if (me == root && rec.send_bytes[k]) pieces.emplace_back(i, true);
          if (me != root && i == root && rec.recv_bytes[k]) pieces.emplace_back(i, false);
          break;
        case VCollective::allgatherv:
        case VCollective::alltoallv:
          if (rec.send_bytes[k]) pieces.emplace_back(i, true);
          if (rec.recv_bytes[k]) pieces.emplace_back(i, false);
          break;
      }
    }
    if (pieces.empty()) return;  // nothing leaves the rank: its time joins the next gap
    double g = gap(r, rec);
    std::vector<std::uint32_t> started;
    for (const auto& [i, send] : pieces) {
      const auto k = static_cast<std::size_t>(i);
      post(r, send, comm, i, kVCollectiveTag, send ? rec.send_bytes[k] : rec.recv_bytes[k], rec, g, false, std::nullopt);
      started.push_back(rank_out(r).ops.back().request);
      g = 0;
    }
    wait_for(r, started, 0, rec.line);
  }

  void wait_for(int r, const std::vector<std::uint32_t>& requests, double gap_s, int line) {
    TraceRank& t = rank_out(r);
    TraceOp& op = push(r, TraceOpKind::wait, gap_s, line);
    op.index = t.waited.size();
    op.count = static_cast<std::uint32_t>(requests.size());
    t.waited.insert(t.waited.end(), requests.begin(), requests.end());
  }

  void start(int r, std::uint64_t address, const Record& rec, double gap_s) {
    const Record* init = persistent_.find(r, address);
    if (!init)
      fail(r, rec.line, fmt::format("MPI_Start of request {}, which no MPI_Send_init or MPI_Recv_init made", address));
    const int comm = bind(r, init->comm, init->line);
    Record at = *init;
    at.line = rec.line;
    at.start_us = rec.start_us;
    if (!post(r, init->role == Role::send_init, comm, init->peer, init->tag, init->bytes, at, gap_s, false, address))
      requests_.done_at_once(r, address);  // to MPI_PROC_NULL: done at once
  }

  void wait(int r, const Record& rec) {
    const std::vector<std::uint32_t> done = requests_.wait(r, rec);
    if (done.empty()) return;  // MPI_REQUEST_NULL: the time joins the next gap
    wait_for(r, done, gap(r, rec), rec.line);
  }

  void cancel(int r, const Record& rec) {
    if (const auto receive = requests_.cancel(r, rec.request))
      rank_out(r).ops[matcher_.cancel(r, *receive)].kind = TraceOpKind::cancelled;
  }

  // Processes rank r's records until one waits for other ranks. True if it moved.
  bool advance(int r) {
    RankState& s = st(r);
    const auto& records = in_[static_cast<std::size_t>(r)].records;
    const std::size_t before = s.cursor;
    for (; s.cursor < records.size(); ++s.cursor) {
      const Record& rec = records[s.cursor];
      switch (rec.role) {
        case Role::time_only:
        case Role::init: break;
        case Role::finalize: rank_out(r).final_gap_s = gap(r, rec); break;
        case Role::comm_split:
        case Role::comm_split_type:
        case Role::comm_dup:
        case Role::comm_cart:
        case Role::comm_create:
          if (!comms_.create(r, rec, s.cursor)) return s.cursor != before;
          break;
        case Role::comm_free:
          comms_.free(r, rec);
          break;
        case Role::vcollective: vcollective(r, rec); break;
        case Role::cancel: cancel(r, rec); break;
        case Role::collective: collective(r, rec); break;
        case Role::send:
        case Role::recv: point_to_point(r, rec); break;
        case Role::sendrecv: sendrecv(r, rec); break;
        case Role::send_init:
        case Role::recv_init:
          persistent_.init(r, rec);
          break;
        case Role::start: start(r, rec.request, rec, gap(r, rec)); break;
        case Role::startall: {
          double g = gap(r, rec);
          for (std::uint64_t k = 0; k < rec.count; ++k, g = 0) start(r, rec.request + k * lib_.request_bytes, rec, g);
          break;
        }
        case Role::wait:
        case Role::waitall:
        case Role::waitany: wait(r, rec); break;
      }
    }
    if (rank_out(r).final_gap_s == 0) rank_out(r).final_gap_s = clocks_[static_cast<std::size_t>(r)].remaining_s();
    return s.cursor != before;
  }

  std::vector<RankRecords> in_;
  TraceLibrary lib_;
  std::vector<RankState> state_;
  TraceProgram out_;
  std::vector<RankClock> clocks_;
  CommunicatorTable comms_;
  RequestTable requests_;
  PersistentRequests persistent_;
  MessageMatcher matcher_;
  std::map<std::pair<int, std::uint64_t>, std::size_t> collective_index_;
  std::vector<CollectiveArrivals> arrivals_;
};

}  // namespace

TraceProgram build_trace_program(std::vector<RankRecords> ranks, TraceMpi mpi,
                                 const std::map<std::uint64_t, std::vector<int>>& known) {
  if (ranks.empty()) return {};
  TraceProgram t = Builder(std::move(ranks), mpi, known).build();
  std::uint64_t calls = t.collectives.size() + t.messages.size();
  if (calls == 0)
    throw InputError(t.ranks.front().file, "the traces hold no communication pico replays",
                     "pico replays point to point, collectives and their waits (docs/simulation.md#traces)");
  return t;
}

}  // namespace pico
