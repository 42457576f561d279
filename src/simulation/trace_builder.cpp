// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/trace_builder.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "core/counted.hpp"
#include "core/input_error.hpp"

namespace pico {
namespace {

using liballprof::CommRef;
using liballprof::Record;
using liballprof::Role;

constexpr std::int64_t kAny = std::numeric_limits<std::int64_t>::min();  // a wildcard, once decoded
constexpr std::int64_t kAnyTag = -1;                                      // MPI_ANY_TAG in both libraries
constexpr std::int64_t kUndefined = -32766;                               // MPI_UNDEFINED in both libraries
// The tag of a v-collective's messages: below every tag MPI allows (>= 0) and MPI_ANY_TAG (-1), so no receive of
// the application's takes one (MPI keeps collectives in a context of their own).
constexpr std::int64_t kVCollectiveTag = -2;
constexpr double kMaxGapS = 1e6;  // beyond ~11 days a gap is a broken clock; GOAL's ps would near 2^63

// What differs between the libraries (trace_reader.hpp: TraceMpi).
struct Library {
  std::int64_t any_source = -1, proc_null = -2;
  std::uint64_t request_bytes = 8;
  bool fortran = false;  // Open MPI's Fortran binding: handles are INTEGERs (4 bytes), the world is 0
  std::int64_t comm_type_shared = 0;  // MPI_COMM_TYPE_SHARED: Open MPI 0 (an enum's first), MPICH 1
};

Library library_of(const std::vector<RankRecords>& ranks, TraceMpi mpi) {
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

// A send or receive as posted, before matching.
struct Posted {
  int comm = 0;
  int rank = 0;             // who posted it (world)
  int peer = 0;             // world rank, or -1 for any source
  std::int64_t tag = 0;     // kAny for any tag
  std::uint64_t bytes = 0;
  double start_us = 0;
  std::size_t op = 0;       // index into the rank's ops
  int line = 0;
  bool cancelled = false;   // a receive MPI_Cancel reached before it matched: it matches nothing
};

struct Creation {  // one MPI_Comm_split / MPI_Comm_dup call on a parent, over its members
  std::vector<std::pair<int, const Record*>> arrived;  // world rank, its record
  bool resolved = false;
};

struct CollectiveArrivals {
  std::vector<std::pair<int, int>> members;  // world rank, line
};

struct Persistent {
  bool send = true;
  Record init;
};

class Builder {
 public:
  Builder(std::vector<RankRecords> ranks, TraceMpi mpi, const std::map<std::uint64_t, std::vector<int>>& known)
      : in_(std::move(ranks)), lib_(library_of(in_, mpi)), state_(in_.size()), known_(known) {
    const int p = static_cast<int>(in_.size());
    TraceCommunicator world;
    for (int r = 0; r < p; ++r) world.ranks.push_back(r);
    out_.comms.push_back(std::move(world));
    out_.ranks.resize(in_.size());
    for (std::size_t r = 0; r < in_.size(); ++r) {
      out_.ranks[r].file = in_[r].file;
      begin_rank(static_cast<int>(r));
    }
    recvs_.resize(in_.size());
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
    for (int r = 0; r < size(); ++r)
      if (state_[static_cast<std::size_t>(r)].cursor < in_[static_cast<std::size_t>(r)].records.size()) stuck(r);
    check_collectives();
    match_messages();
    out_.requests = waits_;
    std::uint64_t untied_frees = 0;
    for (const RankState& s : state_) untied_frees += s.untied_frees;
    if (untied_frees > 0)
      out_.notes.push_back(fmt::format("MPI_Comm_free of a variable no communicator call made (a copy of a handle): {}, "
                                       "each taken to end the rank's oldest communicator made and not yet used "
                                       "(docs/simulation.md#traces)", counted(untied_frees, "call")));
    if (waits_.uncancelled > 0)
      out_.notes.push_back(fmt::format("MPI_Cancel of a send or a collective: {}, replayed as made (liballprof does not "
                                       "record whether the cancel succeeded)", counted(waits_.uncancelled, "call")));
    return std::move(out_);
  }

 private:
  struct RankState {
    std::size_t cursor = 0;
    bool world_bound = false, arrived = false;
    std::unordered_map<std::uint64_t, int> handles;  // comm handle -> comm
    std::deque<int> made;                            // communicators made, not yet bound to a handle
    std::unordered_map<std::uint64_t, int> variables;  // a variable a communicator was made into -> it (until freed)
    std::uint64_t untied_frees = 0;                        // MPI_Comm_free calls of a variable pico did not see made
    std::unordered_map<std::uint64_t, std::uint64_t> bound_at;  // handle -> untied_frees when it was bound
    std::map<int, std::uint64_t> collectives, creations;  // comm -> calls so far
    std::unordered_map<std::uint64_t, std::uint32_t> active;  // request address -> request
    // Waits through a copy of a request (docs/simulation.md#traces): addresses any request was started at, and
    // any wait named; requests whose address a later start took over while they were active; addresses whose
    // request a wait through a copy completed.
    std::unordered_set<std::uint64_t> started, named, copied;
    std::deque<std::uint32_t> displaced;
    std::unordered_map<std::uint32_t, std::size_t> receive_of;  // active non-blocking receive -> its Posted
    std::unordered_map<std::uint64_t, Persistent> persistent;
    std::optional<double> replayed_end;  // of the last replayed call
    std::optional<double> first_us, last_us;
  };

  int size() const { return static_cast<int>(in_.size()); }
  RankState& st(int r) { return state_[static_cast<std::size_t>(r)]; }
  TraceRank& rank_out(int r) { return out_.ranks[static_cast<std::size_t>(r)]; }
  const std::string& file(int r) const { return in_[static_cast<std::size_t>(r)].file; }

  [[noreturn]] void fail(int r, int line, const std::string& what, const std::string& hint = {}) const {
    throw InputError(file(r), line, 0, what, hint);
  }

  // The traced times around the calls: where the first gap starts, where the last ends.
  void begin_rank(int r) {
    RankState& s = st(r);
    TraceRank& t = rank_out(r);
    // The application's run: from MPI_Init's end (else the first time) to MPI_Finalize's start (else the last).
    std::optional<double> init_end, finalize_start;
    const RankRecords& in = in_[static_cast<std::size_t>(r)];
    s.first_us = in.first_us;
    s.last_us = in.last_us;
    for (const Record& rec : in.records) {
      if (!in.first_us)
        for (const auto& v : {rec.start_us, rec.end_us})
          if (v) {
            if (!s.first_us) s.first_us = v;
            s.last_us = v;
          }
      if (rec.role == Role::init && !init_end) init_end = rec.end_us ? rec.end_us : rec.start_us;
      if (rec.role == Role::finalize && !finalize_start) finalize_start = rec.start_us ? rec.start_us : rec.end_us;
    }
    if (init_end) s.first_us = init_end;
    if (finalize_start) s.last_us = finalize_start;
    s.replayed_end = s.first_us;
    t.first_start_s = s.first_us.value_or(0) * 1e-6;
    t.last_end_s = s.last_us.value_or(0) * 1e-6;
  }

  // The compute gap before a replayed call that starts at start_us; the call then ends at end_us.
  double gap(int r, const Record& rec) {
    RankState& s = st(r);
    const double start = rec.start_us.value_or(s.replayed_end.value_or(0));
    double g = (start - s.replayed_end.value_or(start)) * 1e-6;
    if (g < 0) g = 0;  // a call before MPI_Init ended (MPI_Initialized)
    if (g > kMaxGapS)
      fail(r, rec.line, fmt::format("a compute gap of {:.0f} s before this call", g),
           "pico replays gaps up to 1e6 s: are the times of one clock, in microseconds?");
    s.replayed_end = rec.end_us ? rec.end_us : rec.start_us;
    return g;
  }

  TraceOp& push(int r, TraceOpKind kind, double gap_s, int line) {
    TraceOp op;
    op.kind = kind;
    op.gap_s = gap_s;
    op.line = line;
    rank_out(r).ops.push_back(op);
    return rank_out(r).ops.back();
  }

  std::uint32_t start_request(int r, std::uint64_t address) {
    RankState& s = st(r);
    const std::uint32_t id = rank_out(r).requests++;
    auto [it, fresh] = s.active.try_emplace(address, id);
    if (!fresh) {  // the variable's request is still active: only a copy of it (or MPI_Test) can complete it now
      s.displaced.push_back(it->second);
      it->second = id;
    }
    s.started.insert(address);
    s.copied.erase(address);
    return id;
  }

  // ---- communicators ----

  int comm_rank_of(int comm, int world_rank) const {
    const auto& g = out_.comms[static_cast<std::size_t>(comm)].ranks;
    return static_cast<int>(std::find(g.begin(), g.end(), world_rank) - g.begin());
  }
  // Whether a call's `handle,rank,size` can be communicator `comm` (a rank field that disagrees is
  // noted, not refused: the published samples print 0 on every rank).
  bool fits(int comm, int r, const CommRef& ref, bool rank_too) const {
    const auto& g = out_.comms[static_cast<std::size_t>(comm)].ranks;
    const int at = comm_rank_of(comm, r);
    // MPI_Comm_create's group is not traced (MPI_Group_incl prints its ranks as an address): pico takes the
    // parent's ranks in order, and only where the handle's size and every rank's place say so.
    if (created_.contains(comm)) return static_cast<int>(g.size()) == ref.size && at == ref.rank;
    // A Cartesian communicator of fewer ranks than its parent: its first ref.size ranks (the rest got MPI_COMM_NULL).
    const bool size_fits = static_cast<int>(g.size()) == ref.size ||
                           (cartesian_.contains(comm) && ref.size < static_cast<int>(g.size()) && at < ref.size);
    return size_fits && at < static_cast<int>(g.size()) && (!rank_too || at == ref.rank);
  }
  void check_rank_field(int comm, int r, const CommRef& ref, int line) {
    if (comm_rank_of(comm, r) == ref.rank || noted_rank_field_) return;
    noted_rank_field_ = true;
    out_.notes.push_back(fmt::format("{}:{}: the communicator's rank field says {} where pico places the rank at {}; "
                                     "pico goes by the files' ranks and the communicators it rebuilt",
                                     file(r), line, ref.rank, comm_rank_of(comm, r)));
  }

  int bind(int r, const CommRef& ref, int line) {
    if (!known_.empty()) return bind_known(r, ref, line);
    RankState& s = st(r);
    auto take_made = [&](bool rank_too) -> std::optional<int> {
      auto it = std::find_if(s.made.begin(), s.made.end(), [&](int c) { return fits(c, r, ref, true); });
      // Several alike (the same size and place): the first the rank's first peer confirms.
      if (it != s.made.end() && !peer_confirms(r, ref, *it))
        for (auto other = std::next(it); other != s.made.end(); ++other)
          if (fits(*other, r, ref, true) && peer_confirms(r, ref, *other)) {
            it = other;
            break;
          }
      if (it == s.made.end() && !rank_too)
        it = std::find_if(s.made.begin(), s.made.end(), [&](int c) { return fits(c, r, ref, false); });
      if (it == s.made.end()) return std::nullopt;
      const int c = *it;
      s.made.erase(it);
      settle_cartesian(c, ref.size);
      check_rank_field(c, r, ref, line);
      return c;
    };
    if (const auto it = s.handles.find(ref.handle); it != s.handles.end()) {
      // Since the handle was bound, a free pico could not tie (of a copied handle) may have ended its communicator.
      const bool maybe_freed = s.bound_at[ref.handle] != s.untied_frees;
      if (fits(it->second, r, ref, true) && !maybe_freed) return it->second;
      // A handle freed and given to a new communicator whose free pico could not tie to it (a copy of the
      // handle freed): the rank field, then the size, says which.
      if (const auto c = take_made(true)) return bind_handle(s, ref.handle, *c);
      if (fits(it->second, r, ref, false)) {
        check_rank_field(it->second, r, ref, line);
        return bind_handle(s, ref.handle, it->second);
      }
      if (const auto c = take_made(false)) return bind_handle(s, ref.handle, *c);
      const auto& g = out_.comms[static_cast<std::size_t>(it->second)].ranks;
      fail(r, line, fmt::format("communicator {} is rank {} of {} here, but rank {} of {} where it was first used",
                                ref.handle, ref.rank, ref.size, comm_rank_of(it->second, r), g.size()),
           "a handle pico cannot follow: made by a call pico does not rebuild (MPI_Cart_sub, MPI_Graph_create, ...)?");
    }
    if (const auto c = take_made(false)) return bind_handle(s, ref.handle, *c);
    if (!s.world_bound && ref.size == size()) {
      check_rank_field(0, r, ref, line);
      s.world_bound = true;
      return bind_handle(s, ref.handle, 0);
    }
    if (ref.size == 1) {  // MPI_COMM_SELF, or any communicator of this rank alone
      out_.comms.push_back(TraceCommunicator{{r}});
      return bind_handle(s, ref.handle, static_cast<int>(out_.comms.size() - 1));
    }
    fail(r, line, fmt::format("communicator {} (rank {} of {}) was made by no call pico replays", ref.handle, ref.rank, ref.size),
         "pico follows the world, MPI_Comm_split, MPI_Comm_dup and MPI_Cart_create; liballprof does not record who "
         "joins the others (MPI_Comm_create's group, MPI_Cart_sub's remain_dims, ...)");
  }

  // Whether communicator `comm` is the one rank r's handle names, seen from the other side: the rank's first
  // point-to-point call on the handle (from the current one on) names a peer and a tag; in `comm` the peer is
  // world rank w, whose trace must hold a call with that tag on a communicator of that size where w has its
  // place in `comm` and names r's place as its peer (or any source). HPL and PTRANS make two pairs' splits
  // where the rank has the same place in both, and liballprof prints no new handle to tell them apart.
  bool peer_confirms(int r, const CommRef& ref, int comm) const {
    const auto& records = in_[static_cast<std::size_t>(r)].records;
    const auto& g = out_.comms[static_cast<std::size_t>(comm)].ranks;
    for (std::size_t k = state_[static_cast<std::size_t>(r)].cursor; k < records.size(); ++k) {
      const Record& mine = records[k];
      if (mine.comm.handle != ref.handle || (mine.role != Role::send && mine.role != Role::recv)) continue;
      if (mine.peer < 0 || mine.peer >= static_cast<std::int64_t>(g.size())) continue;  // a wildcard or PROC_NULL
      const int w = g[static_cast<std::size_t>(mine.peer)];
      const int w_place = comm_rank_of(comm, w), r_place = comm_rank_of(comm, r);
      const bool sends = mine.role == Role::send;
      for (const Record& theirs : in_[static_cast<std::size_t>(w)].records)
        if ((theirs.role == (sends ? Role::recv : Role::send)) && theirs.tag == mine.tag &&
            theirs.comm.size == ref.size && theirs.comm.rank == w_place &&
            (theirs.peer == r_place || (sends && theirs.peer == lib_.any_source)))
          return true;
      return false;
    }
    return true;  // no point to point on it: nothing tells them apart
  }

  // A Cartesian communicator first used at a size below its parent's holds the parent's first `size` ranks.
  void settle_cartesian(int comm, int size) {
    if (!cartesian_.erase(comm)) return;
    auto& g = out_.comms[static_cast<std::size_t>(comm)].ranks;
    if (size < static_cast<int>(g.size())) g.resize(static_cast<std::size_t>(size));
  }

  // MPI_Comm_free: the communicator made into that variable ends; its handle may come back for another.
  void comm_free(int r, const Record& rec) {
    RankState& s = st(r);
    const auto v = s.variables.find(rec.variable);
    if (v == s.variables.end()) {
      // A copy of a handle freed (HPL keeps its grid's communicators in a struct it copies): which communicator ended
      // is not in the trace. The rank's oldest communicator made and never used is taken to be it (one that is
      // used later is then refused, never bound to another); with none, a bound one may have ended, and its
      // handle may come back for a new communicator (bind() weighs that).
      ++s.untied_frees;
      if (!s.made.empty()) {
        const int comm = s.made.front();
        s.made.pop_front();
        std::erase_if(s.variables, [&](const auto& kv) { return kv.second == comm; });
      }
      return;
    }
    const int comm = v->second;
    s.variables.erase(v);
    if (const auto m = std::find(s.made.begin(), s.made.end(), comm); m != s.made.end()) {
      s.made.erase(m);  // made and freed, never used
      return;
    }
    for (auto h = s.handles.begin(); h != s.handles.end(); ++h)
      if (h->second == comm) {
        s.handles.erase(h);
        return;
      }
  }

  int bind_handle(RankState& s, std::uint64_t handle, int comm) {
    s.bound_at[handle] = s.untied_frees;
    return s.handles[handle] = comm;
  }

  // A communicator the trace defines (OTF2): one program communicator per handle.
  int bind_known(int r, const CommRef& ref, int line) {
    const auto k = known_.find(ref.handle);
    if (k == known_.end())
      fail(r, line, fmt::format("communicator {} is not among the trace's definitions", ref.handle), "is the trace complete?");
    auto [it, fresh] = known_ids_.try_emplace(ref.handle, static_cast<int>(out_.comms.size()));
    if (fresh) out_.comms.push_back(TraceCommunicator{k->second});
    return it->second;
  }

  // A communicator call: true once every member of the parent has made it.
  bool create(int r, const Record& rec) {
    RankState& s = st(r);
    const int parent = bind(r, rec.comm, rec.line);
    const auto key = std::pair{parent, s.creations[parent]};
    Creation& c = creations_[key];
    if (!s.arrived) {
      s.arrived = true;
      if (!c.arrived.empty() && c.arrived.front().second->role != rec.role) {
        const auto& [other, first] = c.arrived.front();
        fail(r, rec.line, "this communicator call differs from the other ranks' at the same place",
             fmt::format("rank {}'s is at {}:{}", other, file(other), first->line));
      }
      c.arrived.emplace_back(r, &rec);
      const auto members = out_.comms[static_cast<std::size_t>(parent)].ranks.size();
      if (c.arrived.size() == members) resolve(parent, c);
    }
    if (!c.resolved) return false;
    s.arrived = false;
    ++s.creations[parent];  // making a communicator is compute time here: it joins the next call's gap
    return true;
  }

  void resolve(int parent, Creation& c) {
    c.resolved = true;
    const auto& parent_ranks = out_.comms[static_cast<std::size_t>(parent)].ranks;
    const Role role = c.arrived.front().second->role;
    if (role == Role::comm_dup || role == Role::comm_cart || role == Role::comm_create) {
      const int comm = static_cast<int>(out_.comms.size());
      out_.comms.push_back(TraceCommunicator{parent_ranks});
      if (role == Role::comm_cart) cartesian_.insert(comm);
      if (role == Role::comm_create) created_.insert(comm);
      for (const auto& [r, rec] : c.arrived) made_by(r, *rec, comm);
      return;
    }
    // MPI_Comm_split: per color, members by (key, parent rank).
    // Members as (key, parent rank, world rank, record); parent ranks are distinct, so sorting never compares records.
    std::map<std::int64_t, std::vector<std::tuple<std::int64_t, int, int, const Record*>>> by_color;
    std::map<std::string, std::int64_t> hosts;  // MPI_Comm_split_type: a host's color
    for (const auto& [r, rec] : c.arrived) {
      if (rec->color == kUndefined) continue;
      std::int64_t color = rec->color;
      if (role == Role::comm_split_type) {
        if (rec->color != lib_.comm_type_shared)
          fail(r, rec->line, fmt::format("split type {}: only MPI_COMM_TYPE_SHARED's groups ({}) follow from the trace",
                                         rec->color, lib_.comm_type_shared),
               "liballprof records each rank's host in its header, nothing finer (NUMA, cache, ...)");
        const std::string& host = in_[static_cast<std::size_t>(r)].host;
        if (host.empty())
          fail(r, rec->line, "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), and the file's header names no host",
               "liballprof writes `# hostname: ...` first: is the header intact?");
        color = hosts.try_emplace(host, static_cast<std::int64_t>(hosts.size())).first->second;
      } else if (color < 0) {
        fail(r, rec->line, fmt::format("color {} is neither MPI_UNDEFINED nor >= 0", rec->color), "");
      }
      by_color[color].emplace_back(rec->key, comm_rank_of(parent, r), r, rec);
    }
    for (auto& [color, members] : by_color) {
      std::sort(members.begin(), members.end());
      TraceCommunicator g;
      for (const auto& [key, parent_rank, r, rec] : members) g.ranks.push_back(r);
      out_.comms.push_back(std::move(g));
      for (const auto& [key, parent_rank, r, rec] : members) made_by(r, *rec, static_cast<int>(out_.comms.size() - 1));
    }
  }

  void made_by(int r, const Record& rec, int comm) {
    st(r).made.push_back(comm);
    st(r).variables[rec.variable] = comm;
  }

  [[noreturn]] void stuck(int r) {
    const Record& rec = in_[static_cast<std::size_t>(r)].records[st(r).cursor];
    const int parent = st(r).handles.count(rec.comm.handle) ? st(r).handles[rec.comm.handle] : 0;
    std::vector<int> absent;
    for (const int m : out_.comms[static_cast<std::size_t>(parent)].ranks) {
      const auto it = creations_.find({parent, st(m).creations[parent]});
      const bool there = it != creations_.end() &&
                         std::any_of(it->second.arrived.begin(), it->second.arrived.end(), [&](const auto& a) { return a.first == m; });
      if (!there && absent.size() < 10) absent.push_back(m);
    }
    fail(r, rec.line, fmt::format("this communicator call is never made by rank(s) {} of its communicator", fmt::join(absent, ", ")),
         "every member makes MPI_Comm_split and MPI_Comm_dup, in the same order");
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
    if (!rec.blocking) op.request = start_request(r, rec.request);
  }

  void check_collectives() {
    for (std::size_t i = 0; i < out_.collectives.size(); ++i) {
      const auto& members = arrivals_[i].members;
      const auto& g = out_.comms[static_cast<std::size_t>(out_.collectives[i].comm)].ranks;
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
    const auto& g = out_.comms[static_cast<std::size_t>(comm)].ranks;
    Posted p{comm, r, -1, tag == kAnyTag && !send ? kAny : tag, bytes, rec.start_us.value_or(0), rank_out(r).ops.size(), rec.line};
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
    if (!blocking) op.request = request ? start_request(r, *request) : rank_out(r).requests++;
    if (send) {
      channels_[{comm, r, p.peer}].add(sends_.size(), tag);
      sources_[{comm, p.peer}].insert(r);
      sends_.push_back(p);
    } else {
      auto& posted = recvs_[static_cast<std::size_t>(r)];
      if (!blocking) st(r).receive_of[op.request] = posted.size();
      posted.push_back(p);
    }
    return true;
  }

  void point_to_point(int r, const Record& rec) {
    const int comm = bind(r, rec.comm, rec.line);
    if (rec.peer == lib_.proc_null) {  // MPI_PROC_NULL: its time joins the next gap; its request is done at once
      if (!rec.blocking) st(r).started.insert(rec.request);
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
    const int p = static_cast<int>(out_.comms[static_cast<std::size_t>(comm)].ranks.size());
    const int me = comm_rank_of(comm, r);
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
    RankState& s = st(r);
    const auto it = s.persistent.find(address);
    if (it == s.persistent.end())
      fail(r, rec.line, fmt::format("MPI_Start of request {}, which no MPI_Send_init or MPI_Recv_init made", address), "");
    const Record& init = it->second.init;
    const int comm = bind(r, init.comm, init.line);
    Record at = init;
    at.line = rec.line;
    at.start_us = rec.start_us;
    if (!post(r, it->second.send, comm, init.peer, init.tag, init.bytes, at, gap_s, false, address))
      st(r).started.insert(address);  // to MPI_PROC_NULL: done at once
  }

  // A wait: the requests its variables name. A wait naming only variables no request was ever started at (a
  // copy of a request, as C++ codes keep them) completes, per such variable, the oldest request that can only be
  // completed through a copy: one a later start displaced from its variable, else one at a variable no wait has
  // named yet. Where there is none the wait completes nothing: counted, and refused unless --unmatched-waits null.
  void wait(int r, const Record& rec) {
    RankState& s = st(r);
    std::vector<std::uint32_t> done;
    std::uint64_t unknown = 0;
    auto finish = [&](std::unordered_map<std::uint64_t, std::uint32_t>::iterator it) {
      done.push_back(it->second);
      s.receive_of.erase(it->second);
      s.active.erase(it);
    };
    auto by_name = [&](std::uint64_t address) {
      s.named.insert(address);
      if (const auto it = s.active.find(address); it != s.active.end()) return finish(it);
      if (s.copied.erase(address)) return lost(r, rec.line, waits_.contradicted, "its request was completed earlier by a wait through a copy");
      if (!s.started.contains(address)) ++unknown;
    };
    const std::uint64_t n = rec.role == Role::wait ? 1 : rec.count;
    const std::uint64_t step = rec.role == Role::wait ? 0 : lib_.request_bytes;
    if (rec.role != Role::waitany) {
      for (std::uint64_t k = 0; k < n; ++k) by_name(rec.request + k * step);
    } else {  // waitany, waitsome: the oldest active request of the array
      std::optional<std::pair<std::uint32_t, std::uint64_t>> oldest;
      for (std::uint64_t k = 0; k < n; ++k) {
        const std::uint64_t a = rec.request + k * step;
        s.named.insert(a);
        if (const auto it = s.active.find(a); it != s.active.end() && (!oldest || it->second < oldest->first))
          oldest = std::pair{it->second, a};
        else if (it == s.active.end() && !s.started.contains(a))
          unknown = 1;
      }
      if (oldest) finish(s.active.find(oldest->second));
    }
    if (done.empty())
      for (std::uint64_t k = 0; k < unknown; ++k) {
        if (const auto id = take_copied(r)) {
          done.push_back(*id);
          ++waits_.through_copy;
        } else {
          lost(r, rec.line, waits_.lost, "no request was started at its variable, and none is left for a copy");
          break;
        }
      }
    if (done.empty()) return;  // MPI_REQUEST_NULL: the time joins the next gap
    wait_for(r, done, gap(r, rec), rec.line);
  }

  // The oldest request only a copy can complete now (see wait()).
  std::optional<std::uint32_t> take_copied(int r) {
    RankState& s = st(r);
    std::optional<std::uint32_t> best;
    auto at = s.active.end();
    if (!s.displaced.empty()) best = s.displaced.front();
    for (auto it = s.active.begin(); it != s.active.end(); ++it)
      if (!s.named.contains(it->first) && (!best || it->second < *best)) {
        best = it->second;
        at = it;
      }
    if (!best) return std::nullopt;
    if (at != s.active.end()) {
      s.copied.insert(at->first);
      s.active.erase(at);
    } else {
      s.displaced.pop_front();
    }
    s.receive_of.erase(*best);
    return best;
  }

  void lost(int r, int line, std::uint64_t& counter, const char* why) {
    if (counter++ == 0 && waits_.first_file.empty()) {
      waits_.first_file = file(r);
      waits_.first_line = line;
      waits_.first_why = why;
    }
  }

  // MPI_Cancel: a receive not yet matched matches nothing (pico assumes the cancel succeeded; were the receive
  // matched, its send is left without a receive and refused). A send or a collective is replayed as made:
  // Open MPI cannot cancel a send once started, and liballprof does not record MPI_Test_cancelled's answer.
  void cancel(int r, const Record& rec) {
    RankState& s = st(r);
    const auto it = s.active.find(rec.request);
    if (it == s.active.end()) return;  // done or null: nothing to cancel
    const auto k = s.receive_of.find(it->second);
    if (k == s.receive_of.end()) {
      ++waits_.uncancelled;
      return;
    }
    Posted& p = recvs_[static_cast<std::size_t>(r)][k->second];
    p.cancelled = true;
    rank_out(r).ops[p.op].kind = TraceOpKind::cancelled;
    s.receive_of.erase(k);
    ++waits_.cancelled;
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
          if (!create(r, rec)) return s.cursor != before;
          break;
        case Role::comm_free: comm_free(r, rec); break;
        case Role::vcollective: vcollective(r, rec); break;
        case Role::cancel: cancel(r, rec); break;
        case Role::collective: collective(r, rec); break;
        case Role::send:
        case Role::recv: point_to_point(r, rec); break;
        case Role::sendrecv: sendrecv(r, rec); break;
        case Role::send_init:
        case Role::recv_init: s.persistent[rec.request] = Persistent{rec.role == Role::send_init, rec}; break;
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
    if (rank_out(r).final_gap_s == 0 && s.last_us && s.replayed_end && *s.last_us > *s.replayed_end)
      rank_out(r).final_gap_s = (*s.last_us - *s.replayed_end) * 1e-6;
    return s.cursor != before;
  }

  // ---- matching ----

  // The sends of one (communicator, source, destination), in the source's order.
  struct Channel {
    std::vector<std::size_t> sends;
    std::size_t first = 0;  // before it, every send is matched
    std::map<std::int64_t, std::deque<std::size_t>> by_tag;
    void add(std::size_t send, std::int64_t tag) {
      if (tag != kVCollectiveTag) sends.push_back(send);  // a wildcard tag takes none of a collective's
      by_tag[tag].push_back(send);
    }
  };

  // The first unmatched send of channel c a receive with `tag` takes.
  std::optional<std::size_t> first_match(Channel& c, std::int64_t tag) {
    if (tag == kAny) {
      while (c.first < c.sends.size() && matched_[c.sends[c.first]]) ++c.first;
      if (c.first == c.sends.size()) return std::nullopt;
      return c.sends[c.first];
    }
    const auto it = c.by_tag.find(tag);
    if (it == c.by_tag.end()) return std::nullopt;
    while (!it->second.empty() && matched_[it->second.front()]) it->second.pop_front();
    if (it->second.empty()) return std::nullopt;
    return it->second.front();
  }

  void match_messages() {
    matched_.assign(sends_.size(), 0);
    std::vector<std::size_t> send_message(sends_.size());
    for (int d = 0; d < size(); ++d) {
      for (const Posted& recv : recvs_[static_cast<std::size_t>(d)]) {
        if (recv.cancelled) continue;
        std::optional<std::size_t> best;
        auto consider = [&](int src) {
          const auto ch = channels_.find({recv.comm, src, d});
          if (ch == channels_.end()) return;
          const auto s = first_match(ch->second, recv.tag);
          if (s && (!best || sends_[*s].start_us < sends_[*best].start_us)) best = s;
        };
        if (recv.peer >= 0) {
          consider(recv.peer);
        } else if (const auto srcs = sources_.find({recv.comm, d}); srcs != sources_.end()) {
          for (const int src : srcs->second) consider(src);
        }
        if (!best)
          fail(d, recv.line,
               fmt::format("no send matches this receive (from {}, tag {})",
                           recv.peer < 0 ? std::string("any source") : fmt::format("rank {}", recv.peer),
                           recv.tag == kAny ? std::string("any") : std::to_string(recv.tag)),
               "the traces of one run hold a send for every receive");
        matched_[*best] = 1;
        const Posted& send = sends_[*best];
        // A v-collective's two sides name one message by their own counts: MPI requires them to agree, and a
        // replay of either would move bytes the other never sent or took.
        if (recv.tag == kVCollectiveTag && send.bytes != recv.bytes)
          fail(d, recv.line,
               fmt::format("this rank's counts take {} B from rank {}, whose counts send it {} B in the same "
                           "v-collective call (its line {})",
                           recv.bytes, send.rank, send.bytes, send.line),
               "the sender's and the receiver's counts of a v-collective must agree, as MPI requires");
        const std::size_t m = out_.messages.size();
        out_.messages.push_back(TraceMessage{send.rank, d, send.bytes});
        rank_out(d).ops[recv.op].index = m;
        send_message[*best] = m;
      }
    }
    for (std::size_t k = 0; k < sends_.size(); ++k) {
      const Posted& s = sends_[k];
      if (!matched_[k])
        fail(s.rank, s.line, fmt::format("no receive matches this send (to rank {}, tag {})", s.peer, s.tag),
             "the traces of one run hold a receive for every send");
      rank_out(s.rank).ops[s.op].index = send_message[k];
    }
  }

  std::vector<RankRecords> in_;
  Library lib_;
  std::vector<RankState> state_;
  TraceProgram out_;
  std::map<std::pair<int, std::uint64_t>, Creation> creations_;
  std::map<std::pair<int, std::uint64_t>, std::size_t> collective_index_;
  std::vector<CollectiveArrivals> arrivals_;
  std::vector<Posted> sends_;
  std::vector<std::vector<Posted>> recvs_;  // per destination, in posting order
  std::map<std::tuple<int, int, int>, Channel> channels_;
  std::map<std::pair<int, int>, std::set<int>> sources_;  // (comm, destination) -> sources
  std::vector<char> matched_;
  bool noted_rank_field_ = false;
  const std::map<std::uint64_t, std::vector<int>>& known_;
  std::map<std::uint64_t, int> known_ids_;
  std::set<int> cartesian_;  // Cartesian communicators no member has used yet: their size is not known
  std::set<int> created_;    // MPI_Comm_create's: the parent's ranks, bound only where size and place agree
  TraceRequests waits_;
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
