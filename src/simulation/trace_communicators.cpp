// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/trace_communicators.hpp"

#include <algorithm>
#include <iterator>
#include <tuple>

#include <fmt/format.h>

#include "support/input_error.hpp"

namespace pico {
namespace {

using liballprof::CommRef;
using liballprof::Record;
using liballprof::Role;

constexpr std::int64_t kUndefined = -32766;  // MPI_UNDEFINED in both libraries

}  // namespace

CommunicatorTable::CommunicatorTable(const std::vector<RankRecords>& ranks, const TraceLibrary& lib,
                                     std::map<std::uint64_t, std::vector<int>> known)
    : in_(ranks), lib_(lib), known_(std::move(known)), state_(ranks.size()) {
  TraceCommunicator world;
  for (int r = 0; r < size(); ++r) world.ranks.push_back(r);
  comms_.push_back(std::move(world));
}

void CommunicatorTable::fail(int r, int line, const std::string& what, const std::string& hint) const {
  throw InputError(in_[static_cast<std::size_t>(r)].file, line, 0, what, hint);
}

int CommunicatorTable::rank_in(int comm, int world_rank) const {
  const auto& g = ranks(comm);
  return static_cast<int>(std::find(g.begin(), g.end(), world_rank) - g.begin());
}

std::uint64_t CommunicatorTable::untied_frees() const {
  std::uint64_t n = 0;
  for (const Rank& s : state_) n += s.untied_frees;
  return n;
}

// Whether a call's `handle,rank,size` can be communicator `comm` (a rank field that disagrees is
// noted, not refused: the published samples print 0 on every rank).
bool CommunicatorTable::fits(int comm, int r, const CommRef& ref, bool rank_too) const {
  const auto& g = ranks(comm);
  const int at = rank_in(comm, r);
  // MPI_Comm_create's group is not traced (MPI_Group_incl prints its ranks as an address): pico takes the
  // parent's ranks in order, and only where the handle's size and every rank's place say so.
  if (created_.contains(comm)) return static_cast<int>(g.size()) == ref.size && at == ref.rank;
  // A Cartesian communicator of fewer ranks than its parent: its first ref.size ranks (the rest got MPI_COMM_NULL).
  const bool size_fits = static_cast<int>(g.size()) == ref.size ||
                         (cartesian_.contains(comm) && ref.size < static_cast<int>(g.size()) && at < ref.size);
  return size_fits && at < static_cast<int>(g.size()) && (!rank_too || at == ref.rank);
}

void CommunicatorTable::check_rank_field(int comm, int r, const CommRef& ref, int line) {
  if (rank_in(comm, r) == ref.rank || rank_field_note_) return;
  rank_field_note_ = fmt::format(
      "{}:{}: the communicator's rank field says {} where pico places the rank at {}; "
      "pico goes by the files' ranks and the communicators it rebuilt",
      in_[static_cast<std::size_t>(r)].file, line, ref.rank, rank_in(comm, r));
}

int CommunicatorTable::bind(int r, const CommRef& ref, int line, std::size_t cursor) {
  if (!known_.empty()) return bind_known(r, ref, line);
  Rank& s = st(r);
  auto take_made = [&](bool rank_too) -> std::optional<int> {
    auto it = std::find_if(s.made.begin(), s.made.end(), [&](int c) { return fits(c, r, ref, true); });
    // Several alike (the same size and place): the first the rank's first peer confirms.
    if (it != s.made.end() && !peer_confirms(r, ref, *it, cursor))
      for (auto other = std::next(it); other != s.made.end(); ++other)
        if (fits(*other, r, ref, true) && peer_confirms(r, ref, *other, cursor)) {
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
    fail(r, line,
         fmt::format("communicator {} is rank {} of {} here, but rank {} of {} where it was first used", ref.handle,
                     ref.rank, ref.size, rank_in(it->second, r), ranks(it->second).size()),
         "a handle pico cannot follow: made by a call pico does not rebuild (MPI_Cart_sub, MPI_Graph_create, ...)?");
  }
  if (const auto c = take_made(false)) return bind_handle(s, ref.handle, *c);
  if (!s.world_bound && ref.size == size()) {
    check_rank_field(0, r, ref, line);
    s.world_bound = true;
    return bind_handle(s, ref.handle, 0);
  }
  if (ref.size == 1) {  // MPI_COMM_SELF, or any communicator of this rank alone
    comms_.push_back(TraceCommunicator{{r}});
    return bind_handle(s, ref.handle, static_cast<int>(comms_.size() - 1));
  }
  fail(r, line,
       fmt::format("communicator {} (rank {} of {}) was made by no call pico replays", ref.handle, ref.rank, ref.size),
       "pico follows the world, MPI_Comm_split, MPI_Comm_dup and MPI_Cart_create; liballprof does not record who "
       "joins the others (MPI_Comm_create's group, MPI_Cart_sub's remain_dims, ...)");
}

// Whether communicator `comm` is the one rank r's handle names, seen from the other side: the rank's first
// point-to-point call on the handle (from record `cursor` on) names a peer and a tag; in `comm` the peer is
// world rank w, whose trace must hold a call with that tag on a communicator of that size where w has its
// place in `comm` and names r's place as its peer (or any source). HPL and PTRANS make two pairs' splits
// where the rank has the same place in both, and liballprof prints no new handle to tell them apart.
bool CommunicatorTable::peer_confirms(int r, const CommRef& ref, int comm, std::size_t cursor) const {
  const auto& records = in_[static_cast<std::size_t>(r)].records;
  const auto& g = ranks(comm);
  for (std::size_t k = cursor; k < records.size(); ++k) {
    const Record& mine = records[k];
    if (mine.comm.handle != ref.handle || (mine.role != Role::send && mine.role != Role::recv)) continue;
    if (mine.peer < 0 || mine.peer >= static_cast<std::int64_t>(g.size())) continue;  // a wildcard or PROC_NULL
    const int w = g[static_cast<std::size_t>(mine.peer)];
    const int w_place = rank_in(comm, w), r_place = rank_in(comm, r);
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
void CommunicatorTable::settle_cartesian(int comm, int size) {
  if (!cartesian_.erase(comm)) return;
  auto& g = comms_[static_cast<std::size_t>(comm)].ranks;
  if (size < static_cast<int>(g.size())) g.resize(static_cast<std::size_t>(size));
}

void CommunicatorTable::free(int r, const Record& rec) {
  Rank& s = st(r);
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

int CommunicatorTable::bind_handle(Rank& s, std::uint64_t handle, int comm) {
  s.bound_at[handle] = s.untied_frees;
  return s.handles[handle] = comm;
}

// A communicator the trace defines (OTF2): one program communicator per handle.
int CommunicatorTable::bind_known(int r, const CommRef& ref, int line) {
  const auto k = known_.find(ref.handle);
  if (k == known_.end())
    fail(r, line, fmt::format("communicator {} is not among the trace's definitions", ref.handle),
         "is the trace complete?");
  auto [it, fresh] = known_ids_.try_emplace(ref.handle, static_cast<int>(comms_.size()));
  if (fresh) comms_.push_back(TraceCommunicator{k->second});
  return it->second;
}

bool CommunicatorTable::create(int r, const Record& rec, std::size_t cursor) {
  Rank& s = st(r);
  const int parent = bind(r, rec.comm, rec.line, cursor);
  const auto key = std::pair{parent, s.creations[parent]};
  Creation& c = creations_[key];
  if (!s.arrived) {
    s.arrived = true;
    if (!c.arrived.empty() && c.arrived.front().second->role != rec.role) {
      const auto& [other, first] = c.arrived.front();
      fail(r, rec.line, "this communicator call differs from the other ranks' at the same place",
           fmt::format("rank {}'s is at {}:{}", other, in_[static_cast<std::size_t>(other)].file, first->line));
    }
    c.arrived.emplace_back(r, &rec);
    if (c.arrived.size() == ranks(parent).size()) resolve(parent, c);
  }
  if (!c.resolved) return false;
  s.arrived = false;
  ++s.creations[parent];  // making a communicator is compute time here: it joins the next call's gap
  return true;
}

void CommunicatorTable::resolve(int parent, Creation& c) {
  c.resolved = true;
  const Role role = c.arrived.front().second->role;
  if (role == Role::comm_dup || role == Role::comm_cart || role == Role::comm_create) {
    const int comm = static_cast<int>(comms_.size());
    comms_.push_back(TraceCommunicator{ranks(parent)});
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
        fail(r, rec->line,
             fmt::format("split type {}: only MPI_COMM_TYPE_SHARED's groups ({}) follow from the trace", rec->color,
                         lib_.comm_type_shared),
             "liballprof records each rank's host in its header, nothing finer (NUMA, cache, ...)");
      const std::string& host = in_[static_cast<std::size_t>(r)].host;
      if (host.empty())
        fail(r, rec->line, "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), and the file's header names no host",
             "liballprof writes `# hostname: ...` first: is the header intact?");
      color = hosts.try_emplace(host, static_cast<std::int64_t>(hosts.size())).first->second;
    } else if (color < 0) {
      fail(r, rec->line, fmt::format("color {} is neither MPI_UNDEFINED nor >= 0", rec->color), "");
    }
    by_color[color].emplace_back(rec->key, rank_in(parent, r), r, rec);
  }
  for (auto& [color, members] : by_color) {
    std::sort(members.begin(), members.end());
    TraceCommunicator g;
    for (const auto& [key, parent_rank, r, rec] : members) g.ranks.push_back(r);
    comms_.push_back(std::move(g));
    for (const auto& [key, parent_rank, r, rec] : members) made_by(r, *rec, static_cast<int>(comms_.size() - 1));
  }
}

void CommunicatorTable::made_by(int r, const Record& rec, int comm) {
  st(r).made.push_back(comm);
  st(r).variables[rec.variable] = comm;
}

void CommunicatorTable::stuck(int r, const Record& rec) const {
  const Rank& s = state_[static_cast<std::size_t>(r)];
  const auto h = s.handles.find(rec.comm.handle);
  const int parent = h != s.handles.end() ? h->second : 0;
  auto calls_so_far = [&](int m) {
    const auto& made = state_[static_cast<std::size_t>(m)].creations;
    const auto it = made.find(parent);
    return it == made.end() ? std::uint64_t{0} : it->second;
  };
  std::vector<int> absent;
  for (const int m : ranks(parent)) {
    const auto it = creations_.find({parent, calls_so_far(m)});
    const bool there = it != creations_.end() && std::any_of(it->second.arrived.begin(), it->second.arrived.end(),
                                                             [&](const auto& a) { return a.first == m; });
    if (!there && absent.size() < 10) absent.push_back(m);
  }
  fail(r, rec.line,
       fmt::format("this communicator call is never made by rank(s) {} of its communicator", fmt::join(absent, ", ")),
       "every member makes MPI_Comm_split and MPI_Comm_dup, in the same order");
}

}  // namespace pico
