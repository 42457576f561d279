// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/otf2_trace.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "simulation/trace_format.hpp"
#include "support/input_error.hpp"

#ifdef PICO_WITH_OTF2
#include <algorithm>
#include <array>
#include <cstdarg>
#include <cstdio>
#include <memory>
#include <optional>
#include <exception>
#include <unordered_map>

#include <otf2/otf2.h>
#endif

namespace pico {

bool is_otf2_archive(const std::string& path) {
  std::error_code ec;
  return std::filesystem::path(path).extension() == ".otf2" && std::filesystem::is_regular_file(path, ec);
}

#ifndef PICO_WITH_OTF2

bool otf2_supported() { return false; }

Otf2Trace read_otf2(const std::string& anchor) {
  throw InputError(anchor, "this pico was built without the OTF2 library",
                   "install libotf2-trace-dev (scripts/setup.sh does) and build again");
}

#else

bool otf2_supported() { return true; }

namespace {

using liballprof::Record;
using liballprof::Role;

// RAII for the library's handles.
struct CloseReader {
  void operator()(OTF2_Reader* r) const { OTF2_Reader_Close(r); }
};
struct DeleteDefCallbacks {
  void operator()(OTF2_GlobalDefReaderCallbacks* c) const { OTF2_GlobalDefReaderCallbacks_Delete(c); }
};
struct DeleteEvtCallbacks {
  void operator()(OTF2_GlobalEvtReaderCallbacks* c) const { OTF2_GlobalEvtReaderCallbacks_Delete(c); }
};

// The global definitions pico needs.
struct Definitions {
  std::unordered_map<OTF2_StringRef, std::string> strings;
  std::unordered_map<OTF2_RegionRef, std::pair<OTF2_StringRef, OTF2_Paradigm>> regions;
  struct Group {
    OTF2_GroupType type;
    OTF2_Paradigm paradigm;
    std::vector<std::uint64_t> members;
  };
  std::unordered_map<OTF2_GroupRef, Group> groups;
  std::unordered_map<OTF2_CommRef, OTF2_GroupRef> comms;
  std::uint64_t resolution = 1, offset = 0;
};

OTF2_CallbackCode on_clock(void* d, std::uint64_t resolution, std::uint64_t offset, std::uint64_t, std::uint64_t) {
  auto& defs = *static_cast<Definitions*>(d);
  defs.resolution = resolution == 0 ? 1 : resolution;
  defs.offset = offset;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_string(void* d, OTF2_StringRef self, const char* s) {
  static_cast<Definitions*>(d)->strings[self] = s;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_region(void* d, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef,
                            OTF2_RegionRole, OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef, std::uint32_t,
                            std::uint32_t) {
  static_cast<Definitions*>(d)->regions[self] = {name, paradigm};
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_group(void* d, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type, OTF2_Paradigm paradigm,
                           OTF2_GroupFlag, std::uint32_t n, const std::uint64_t* members) {
  static_cast<Definitions*>(d)->groups[self] = {type, paradigm, std::vector<std::uint64_t>(members, members + n)};
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode on_comm(void* d, OTF2_CommRef self, OTF2_StringRef, OTF2_GroupRef group, OTF2_CommRef, OTF2_CommFlag) {
  static_cast<Definitions*>(d)->comms[self] = group;
  return OTF2_CALLBACK_SUCCESS;
}

// Score-P's sizeSent/sizeReceived (its scorep_mpi_coll_bytes_*) back to pico's rank block.
std::optional<std::pair<Collective, std::uint64_t>> collective_of(OTF2_CollectiveOp op, std::uint64_t sent,
                                                                  std::uint64_t received, std::uint64_t p) {
  const std::uint64_t others = p > 1 ? p - 1 : 1;
  switch (op) {
    case OTF2_COLLECTIVE_OP_BARRIER: return std::pair{Collective::barrier, std::uint64_t{0}};
    case OTF2_COLLECTIVE_OP_BCAST: return std::pair{Collective::bcast, received != 0 ? received : sent / p};
    case OTF2_COLLECTIVE_OP_REDUCE: return std::pair{Collective::reduce, sent != 0 ? sent : received / others};
    case OTF2_COLLECTIVE_OP_GATHER: return std::pair{Collective::gather, sent != 0 ? sent : received / others};
    case OTF2_COLLECTIVE_OP_SCATTER: return std::pair{Collective::scatter, received != 0 ? received : sent / others};
    case OTF2_COLLECTIVE_OP_ALLREDUCE: return std::pair{Collective::allreduce, received / p};
    case OTF2_COLLECTIVE_OP_ALLGATHER: return std::pair{Collective::allgather, received / p};
    case OTF2_COLLECTIVE_OP_ALLTOALL: return std::pair{Collective::alltoall, received / p};
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK: return std::pair{Collective::reduce_scatter, received / p};
    // Score-P counts p - me blocks sent and me + 1 received for a scan, one fewer
    // of each in place (and always for exscan), without saying which form ran:
    // the usual form where its block divides both counts, else the in-place one.
    case OTF2_COLLECTIVE_OP_SCAN: {
      const std::uint64_t total = sent + received, block = total / (p + 1);
      if (block != 0 && total % (p + 1) == 0 && sent % block == 0) return std::pair{Collective::scan, block};
      return std::pair{Collective::scan, total / others};
    }
    case OTF2_COLLECTIVE_OP_EXSCAN: return std::pair{Collective::exscan, (sent + received) / others};
    default: break;
  }
  return std::nullopt;
}

// Turns one location's events into records, call by call.
class Collector {
 public:
  Collector(const Definitions& defs, std::unordered_map<OTF2_LocationRef, int> rank_of,
            std::map<std::uint64_t, std::vector<int>> comms, std::string anchor)
      : defs_(defs), rank_of_(std::move(rank_of)), comms_(std::move(comms)), anchor_(std::move(anchor)),
        state_(rank_of_.size()) {
    // Errors name the archive, the rank and the call's number on it (as a line).
    for (std::size_t r = 0; r < state_.size(); ++r) state_[r].out.file = fmt::format("{} (rank {})", anchor_, r);
  }

  struct Rank {
    RankRecords out;
    bool in_call = false;
    std::string function;
    double start_us = 0;
    std::size_t first = 0;  // the call's first record
    bool communicated = false;
    std::unordered_map<std::uint64_t, std::size_t> pending;  // request -> its record (irecv, collective)
  };

  Rank* rank(OTF2_LocationRef l) {
    const auto it = rank_of_.find(l);
    return it == rank_of_.end() ? nullptr : &state_[static_cast<std::size_t>(it->second)];
  }
  int rank_number(OTF2_LocationRef l) const { return rank_of_.at(l); }
  double us(OTF2_TimeStamp t) const {
    return static_cast<double>(t - std::min(t, defs_.offset)) * 1e6 / static_cast<double>(defs_.resolution);
  }

  void enter(OTF2_LocationRef l, OTF2_TimeStamp t, OTF2_RegionRef region) {
    Rank* r = rank(l);
    if (!r || r->in_call) return;  // MPI calls do not nest; user regions are compute
    const auto it = defs_.regions.find(region);
    if (it == defs_.regions.end()) return;
    const std::string& name = string(it->second.first);
    if (it->second.second != OTF2_PARADIGM_MPI && !name.starts_with("MPI_")) return;
    r->in_call = true;
    r->function = name;
    r->start_us = us(t);
    r->first = r->out.records.size();
    r->communicated = false;
  }

  void leave(OTF2_LocationRef l, OTF2_TimeStamp t, OTF2_RegionRef region) {
    Rank* r = rank(l);
    if (!r || !r->in_call) return;
    const auto it = defs_.regions.find(region);
    if (it == defs_.regions.end() || string(it->second.first) != r->function) return;
    r->in_call = false;
    auto& records = r->out.records;
    const double end = us(t);
    // A call with a blocking send and a blocking receive is MPI_Sendrecv: both, waited for together.
    if (records.size() == r->first + 2 && records[r->first].role == Role::send && records[r->first].blocking &&
        records[r->first + 1].role == Role::recv && records[r->first + 1].blocking) {
      Record& s = records[r->first];
      const Record& v = records[r->first + 1];
      s.role = Role::sendrecv;
      s.bytes2 = v.bytes;
      s.peer2 = v.peer;
      s.tag2 = v.tag;
      records.pop_back();
    }
    for (std::size_t k = r->first; k < records.size(); ++k) {
      records[k].start_us = r->start_us;
      records[k].end_us = end;
    }
    if (r->communicated) return;
    // No event pico reads: MPI_Init/Finalize, a local call or one with nothing to replay (a send to
    // MPI_PROC_NULL, a wait on MPI_REQUEST_NULL, a communicator call: the archive defines its
    // communicators), whose time joins the next gap; or a call pico does not replay.
    const auto f = liballprof::find_function(r->function);
    if (!f) {
      ++unknown_[r->function];
    } else if (f->role == Role::init || f->role == Role::finalize) {
      Record rec;
      rec.role = f->role;
      rec.start_us = r->start_us;
      rec.end_us = end;
      records.push_back(rec);
    }
  }

  Record& add(OTF2_LocationRef l, Role role, OTF2_CommRef comm) {
    if (++calls_ > kMaxTraceCalls)
      throw InputError(anchor_, fmt::format("the trace holds over {} calls pico replays", kMaxTraceCalls),
                       "pico replay keeps a trace in memory (about 450 B per call): trace fewer iterations or ranks");
    Rank& r = *rank(l);
    r.communicated = true;
    Record rec;
    rec.role = role;
    rec.line = static_cast<int>(r.out.records.size()) + 1;
    if (comm != OTF2_UNDEFINED_COMM) rec.comm = comm_ref(l, comm);
    r.out.records.push_back(rec);
    return r.out.records.back();
  }

  void p2p(OTF2_LocationRef l, bool send, std::uint32_t peer, OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes,
           std::optional<std::uint64_t> request) {
    if (!usable(l)) return;
    Record& rec = add(l, send ? Role::send : Role::recv, comm);
    rec.peer = peer;
    rec.tag = tag;
    rec.bytes = bytes;
    rec.blocking = !request;
    if (request) rec.request = *request;
  }

  void irecv_request(OTF2_LocationRef l, std::uint64_t request) {
    if (!usable(l)) return;
    Record& rec = add(l, Role::recv, OTF2_UNDEFINED_COMM);
    rec.blocking = false;
    rec.request = request;
    rank(l)->pending[request] = rank(l)->out.records.size() - 1;
  }

  // MpiIrecv: the receive's source, tag and size, now known; and the wait for it.
  void irecv_complete(OTF2_LocationRef l, std::uint32_t sender, OTF2_CommRef comm, std::uint32_t tag,
                      std::uint64_t bytes, std::uint64_t request) {
    if (!usable(l)) return;
    Rank& r = *rank(l);
    if (const auto it = r.pending.find(request); it != r.pending.end()) {
      Record& rec = r.out.records[it->second];
      rec.comm = comm_ref(l, comm);
      rec.peer = sender;
      rec.tag = tag;
      rec.bytes = bytes;
      r.pending.erase(it);
    }
    complete(l, request);
  }

  void complete(OTF2_LocationRef l, std::uint64_t request) {
    if (!usable(l)) return;
    add(l, Role::wait, OTF2_UNDEFINED_COMM).request = request;
  }

  void collective(OTF2_LocationRef l, OTF2_CollectiveOp op, OTF2_CommRef comm, std::uint32_t root, std::uint64_t sent,
                  std::uint64_t received, std::optional<std::uint64_t> request) {
    if (!usable(l)) return;
    Rank& r = *rank(l);
    Record* rec = nullptr;
    if (request) {
      const auto it = r.pending.find(*request);
      if (it == r.pending.end()) return;  // a completion without its start: nothing to replay
      rec = &r.out.records[it->second];
      r.pending.erase(it);
    } else {
      rec = &add(l, Role::collective, comm);
    }
    rec->comm = comm_ref(l, comm);
    const auto c = collective_of(op, sent, received, static_cast<std::uint64_t>(rec->comm.size));
    if (!c) {
      ++unknown_[r.function];
      rec->role = Role::time_only;
      return;
    }
    rec->collective = c->first;
    rec->bytes = c->second;
    rec->root = root == OTF2_UNDEFINED_UINT32 ? 0 : root;
    if (request) complete(l, *request);
  }

  void collective_request(OTF2_LocationRef l, std::uint64_t request) {
    if (!usable(l)) return;
    Record& rec = add(l, Role::collective, OTF2_UNDEFINED_COMM);
    rec.blocking = false;
    rec.request = request;
    rank(l)->pending[request] = rank(l)->out.records.size() - 1;
  }

  Otf2Trace finish() {
    Otf2Trace t;
    for (Rank& r : state_) {
      // Starts never completed (a request freed unwaited): their details are unknown; pico drops them.
      std::vector<std::size_t> dropped;
      for (const auto& [request, k] : r.pending) dropped.push_back(k);
      std::sort(dropped.rbegin(), dropped.rend());
      for (const std::size_t k : dropped) r.out.records.erase(r.out.records.begin() + static_cast<std::ptrdiff_t>(k));
      t.ranks.push_back(std::move(r.out));
    }
    t.comms = comms_;
    t.unknown = std::move(unknown_);
    return t;
  }

 private:
  bool usable(OTF2_LocationRef l) { return rank(l) && rank(l)->in_call; }

  liballprof::CommRef comm_ref(OTF2_LocationRef l, OTF2_CommRef comm) const {
    const auto it = comms_.find(comm);
    if (it == comms_.end())
      throw InputError(anchor_, fmt::format("an event names communicator {}, which the archive does not define", comm),
                       "is the archive complete?");
    const auto& g = it->second;
    const int me = rank_number(l);
    const auto pos = std::find(g.begin(), g.end(), me);
    if (pos == g.end())
      throw InputError(anchor_, fmt::format("rank {} uses communicator {}, which does not hold it", me, comm), "");
    return {comm, static_cast<int>(pos - g.begin()), static_cast<int>(g.size())};
  }

  const std::string& string(OTF2_StringRef s) const {
    static const std::string none;
    const auto it = defs_.strings.find(s);
    return it == defs_.strings.end() ? none : it->second;
  }

  const Definitions& defs_;
  std::unordered_map<OTF2_LocationRef, int> rank_of_;
  std::map<std::uint64_t, std::vector<int>> comms_;
  std::string anchor_;
  std::vector<Rank> state_;
  std::map<std::string, std::uint64_t> unknown_;
  std::uint64_t calls_ = 0;

 public:
  std::exception_ptr failure;
};

// Exceptions must not cross the OTF2 library's C frames: a callback keeps the
// first one and asks the reader to stop; read_otf2 rethrows it.
template <class F>
OTF2_CallbackCode guarded(void* user, F&& f) {
  auto& c = *static_cast<Collector*>(user);
  try {
    f(c);
  } catch (...) {
    c.failure = std::current_exception();
    return OTF2_CALLBACK_INTERRUPT;
  }
  return OTF2_CALLBACK_SUCCESS;
}

#define PICO_COLLECTOR(call) return guarded(user, [&](Collector& self) { self.call; })

OTF2_CallbackCode ev_enter(OTF2_LocationRef l, OTF2_TimeStamp t, void* user, OTF2_AttributeList*, OTF2_RegionRef region) {
  PICO_COLLECTOR(enter(l, t, region));
}
OTF2_CallbackCode ev_leave(OTF2_LocationRef l, OTF2_TimeStamp t, void* user, OTF2_AttributeList*, OTF2_RegionRef region) {
  PICO_COLLECTOR(leave(l, t, region));
}
OTF2_CallbackCode ev_send(OTF2_LocationRef l, OTF2_TimeStamp, void* user, OTF2_AttributeList*, std::uint32_t to,
                          OTF2_CommRef c, std::uint32_t tag, std::uint64_t n) {
  PICO_COLLECTOR(p2p(l, true, to, c, tag, n, std::nullopt));
}
OTF2_CallbackCode ev_isend(OTF2_LocationRef l, OTF2_TimeStamp, void* user, OTF2_AttributeList*, std::uint32_t to,
                           OTF2_CommRef c, std::uint32_t tag, std::uint64_t n, std::uint64_t request) {
  PICO_COLLECTOR(p2p(l, true, to, c, tag, n, request));
}
OTF2_CallbackCode ev_isend_complete(OTF2_LocationRef l, OTF2_TimeStamp, void* user, OTF2_AttributeList*,
                                    std::uint64_t request) {
  PICO_COLLECTOR(complete(l, request));
}
OTF2_CallbackCode ev_recv(OTF2_LocationRef l, OTF2_TimeStamp, void* user, OTF2_AttributeList*, std::uint32_t from,
                          OTF2_CommRef c, std::uint32_t tag, std::uint64_t n) {
  PICO_COLLECTOR(p2p(l, false, from, c, tag, n, std::nullopt));
}
OTF2_CallbackCode ev_irecv_request(OTF2_LocationRef l, OTF2_TimeStamp, void* user, OTF2_AttributeList*,
                                   std::uint64_t request) {
  PICO_COLLECTOR(irecv_request(l, request));
}
OTF2_CallbackCode ev_irecv(OTF2_LocationRef l, OTF2_TimeStamp, void* user, OTF2_AttributeList*, std::uint32_t from,
                           OTF2_CommRef c, std::uint32_t tag, std::uint64_t n, std::uint64_t request) {
  PICO_COLLECTOR(irecv_complete(l, from, c, tag, n, request));
}
OTF2_CallbackCode ev_collective(OTF2_LocationRef l, OTF2_TimeStamp, void* user, OTF2_AttributeList*,
                                OTF2_CollectiveOp op, OTF2_CommRef c, std::uint32_t root, std::uint64_t sent,
                                std::uint64_t received) {
  PICO_COLLECTOR(collective(l, op, c, root, sent, received, std::nullopt));
}
OTF2_CallbackCode ev_nbc_request(OTF2_LocationRef l, OTF2_TimeStamp, void* user, OTF2_AttributeList*,
                                 std::uint64_t request) {
  PICO_COLLECTOR(collective_request(l, request));
}
OTF2_CallbackCode ev_nbc_complete(OTF2_LocationRef l, OTF2_TimeStamp, void* user, OTF2_AttributeList*,
                                  OTF2_CollectiveOp op, OTF2_CommRef c, std::uint32_t root, std::uint64_t sent,
                                  std::uint64_t received, std::uint64_t request) {
  PICO_COLLECTOR(collective(l, op, c, root, sent, received, request));
}

#undef PICO_COLLECTOR

// OTF2 prints its errors to stderr ("[OTF2] src/OTF2_Buffer.c:2218: error:
// ...") unless a callback takes them: while an archive is read, this one keeps
// the first for pico's own message, and the previous handler is restored after.
class Otf2Errors {
 public:
  Otf2Errors() : previous_(OTF2_Error_RegisterCallback(&Otf2Errors::take, this)) {}
  ~Otf2Errors() { OTF2_Error_RegisterCallback(previous_, nullptr); }
  Otf2Errors(const Otf2Errors&) = delete;
  Otf2Errors& operator=(const Otf2Errors&) = delete;
  // ": <OTF2's first message>", or "" when it said nothing.
  std::string said() const { return first_.empty() ? "" : ": " + first_; }

 private:
  static OTF2_ErrorCode take(void* self, const char*, std::uint64_t, const char*, OTF2_ErrorCode code,
                             const char* format, va_list args) {
    auto* errors = static_cast<Otf2Errors*>(self);
    if (errors->first_.empty()) {
      std::array<char, 512> text{};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
      std::vsnprintf(text.data(), text.size(), format, args);  // OTF2's own printf format
#pragma GCC diagnostic pop
      errors->first_ = text.data();
    }
    return code;
  }
  OTF2_ErrorCallback previous_;
  std::string first_;
};

void check(OTF2_ErrorCode code, const std::string& anchor, const char* what, const Otf2Errors& errors) {
  if (code != OTF2_SUCCESS)
    throw InputError(anchor, fmt::format("{}: {}{}", what, OTF2_Error_GetDescription(code), errors.said()),
                     "give the archive's anchor file (traces.otf2) of a complete Score-P trace");
}

// OTF2 opens the archive's member files itself: the global definitions
// beside the anchor (NAME.def) and an event and a definition file per
// location in NAME/. A FIFO among them would block the reader forever and a
// device never end, so every member must be a regular file (a link to one is
// followed), checked before OTF2 opens any.
void check_members(const std::string& anchor) {
  namespace fs = std::filesystem;
  const fs::path a(anchor);
  const fs::path stem = a.parent_path() / a.stem();
  std::vector<fs::path> members{fs::path(stem).concat(".def")};
  std::error_code ec;
  if (fs::is_directory(stem, ec))
    for (const auto& entry : fs::directory_iterator(stem, ec)) members.push_back(entry.path());
  for (const fs::path& m : members) {
    const fs::file_type type = fs::status(m, ec).type();
    if (ec || type == fs::file_type::not_found || type == fs::file_type::directory || type == fs::file_type::regular)
      continue;
    throw InputError(m.string(), "a member of the OTF2 archive is a FIFO, device or socket, not a regular file",
                     "give the archive's files as Score-P wrote them");
  }
}

// The location's own definition file (NAME/LOCATION.def), where OTF2 keeps it.
bool has_local_definitions(const std::string& anchor, OTF2_LocationRef location) {
  const std::filesystem::path a(anchor);
  std::error_code ec;
  return std::filesystem::exists(a.parent_path() / a.stem() / fmt::format("{}.def", location), ec);
}

}  // namespace

Otf2Trace read_otf2(const std::string& anchor) {
  check_members(anchor);
  const Otf2Errors errors;
  std::unique_ptr<OTF2_Reader, CloseReader> reader(OTF2_Reader_Open(anchor.c_str()));
  if (!reader)
    throw InputError(anchor, "OTF2 cannot open this archive" + errors.said(),
                     "give the anchor file (traces.otf2) of a Score-P trace");
  check(OTF2_Reader_SetSerialCollectiveCallbacks(reader.get()), anchor, "OTF2", errors);
  Definitions defs;
  {
    OTF2_GlobalDefReader* gdr = OTF2_Reader_GetGlobalDefReader(reader.get());
    if (!gdr) throw InputError(anchor, "OTF2 finds no global definitions", "is the archive complete?");
    std::unique_ptr<OTF2_GlobalDefReaderCallbacks, DeleteDefCallbacks> cb(OTF2_GlobalDefReaderCallbacks_New());
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb.get(), on_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb.get(), on_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb.get(), on_region);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb.get(), on_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb.get(), on_comm);
    check(OTF2_Reader_RegisterGlobalDefCallbacks(reader.get(), gdr, cb.get(), &defs), anchor, "OTF2 definitions", errors);
    std::uint64_t read = 0;
    check(OTF2_Reader_ReadAllGlobalDefinitions(reader.get(), gdr, &read), anchor, "OTF2 definitions", errors);
  }
  // The ranks: the MPI COMM_LOCATIONS group, rank i its i-th location.
  const Definitions::Group* world = nullptr;
  for (const auto& [ref, g] : defs.groups)
    if (g.type == OTF2_GROUP_TYPE_COMM_LOCATIONS && g.paradigm == OTF2_PARADIGM_MPI) world = &g;
  if (!world || world->members.empty())
    throw InputError(anchor, "the archive defines no MPI ranks (no MPI COMM_LOCATIONS group)", "trace an MPI run with Score-P");
  std::unordered_map<OTF2_LocationRef, int> rank_of;
  for (std::size_t r = 0; r < world->members.size(); ++r) rank_of[world->members[r]] = static_cast<int>(r);
  std::map<std::uint64_t, std::vector<int>> comms;
  for (const auto& [comm, group] : defs.comms) {
    const auto it = defs.groups.find(group);
    if (it == defs.groups.end()) continue;
    std::vector<int> ranks;
    if (it->second.type == OTF2_GROUP_TYPE_COMM_SELF) {
      ranks.push_back(-1);  // every rank alone: bound per rank below
    } else if (it->second.type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
      for (std::size_t r = 0; r < world->members.size(); ++r) ranks.push_back(static_cast<int>(r));
    } else {
      for (const std::uint64_t m : it->second.members) ranks.push_back(static_cast<int>(m));
    }
    if (ranks != std::vector<int>{-1}) comms[comm] = std::move(ranks);
  }
  Collector collector(defs, rank_of, comms, anchor);
  for (const auto& [location, rank] : rank_of) check(OTF2_Reader_SelectLocation(reader.get(), location), anchor, "OTF2 locations", errors);
  const bool defs_open = OTF2_Reader_OpenDefFiles(reader.get()) == OTF2_SUCCESS;
  check(OTF2_Reader_OpenEvtFiles(reader.get()), anchor, "OTF2 event files", errors);
  for (const auto& [location, rank] : rank_of) {
    if (defs_open) {
      // Local definitions carry the mapping tables Score-P writes; reading them applies them.
      // A location without a file has no mapping tables; one whose file is
      // corrupt would lose them silently and replay the wrong communicators.
      const std::string what = fmt::format("OTF2 local definitions of rank {} (location {})", rank, location);
      if (OTF2_DefReader* dr = OTF2_Reader_GetDefReader(reader.get(), location)) {
        std::uint64_t n = 0;
        const OTF2_ErrorCode read = OTF2_Reader_ReadAllLocalDefinitions(reader.get(), dr, &n);
        OTF2_Reader_CloseDefReader(reader.get(), dr);
        if (has_local_definitions(anchor, location)) check(read, anchor, what.c_str(), errors);
      } else if (has_local_definitions(anchor, location)) {
        throw InputError(anchor, fmt::format("{}: OTF2 cannot read them{}", what, errors.said()),
                         "give the archive's files as Score-P wrote them");
      }
    }
    OTF2_Reader_GetEvtReader(reader.get(), location);
  }
  if (defs_open) OTF2_Reader_CloseDefFiles(reader.get());
  OTF2_GlobalEvtReader* ger = OTF2_Reader_GetGlobalEvtReader(reader.get());
  if (!ger) throw InputError(anchor, "OTF2 finds no events", "is the archive complete?");
  {
    std::unique_ptr<OTF2_GlobalEvtReaderCallbacks, DeleteEvtCallbacks> cb(OTF2_GlobalEvtReaderCallbacks_New());
    OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(cb.get(), ev_enter);
    OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(cb.get(), ev_leave);
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(cb.get(), ev_send);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(cb.get(), ev_isend);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(cb.get(), ev_isend_complete);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(cb.get(), ev_recv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(cb.get(), ev_irecv_request);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(cb.get(), ev_irecv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(cb.get(), ev_collective);
    OTF2_GlobalEvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb.get(), ev_nbc_request);
    OTF2_GlobalEvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(cb.get(), ev_nbc_complete);
    check(OTF2_Reader_RegisterGlobalEvtCallbacks(reader.get(), ger, cb.get(), &collector), anchor, "OTF2 events", errors);
    std::uint64_t read = 0;
    const OTF2_ErrorCode code = OTF2_Reader_ReadAllGlobalEvents(reader.get(), ger, &read);
    if (collector.failure) std::rethrow_exception(collector.failure);
    check(code, anchor, "OTF2 events", errors);
  }
  OTF2_Reader_CloseGlobalEvtReader(reader.get(), ger);
  OTF2_Reader_CloseEvtFiles(reader.get());
  return collector.finish();
}

#endif

namespace {

TraceRead read_otf2_format(const std::string& path, const TraceOptions&) {
  Otf2Trace t = read_otf2(path);
  TraceRead out;
  out.ranks = std::move(t.ranks);
  out.comms = std::move(t.comms);  // the archive defines its communicators: none is rebuilt
  out.mpi = TraceMpi::openmpi;     // the records this reader writes use Open MPI's constants
  for (const auto& [name, calls] : t.unknown) out.unreplayed[name].calls = calls;
  return out;
}

}  // namespace

extern const TraceFormat otf2_trace_format{
    .name = "otf2",
    .recognises = is_otf2_archive,
    .read = read_otf2_format};

}  // namespace pico
