// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/liballprof.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "collectives/spec.hpp"
#include "simulation/workload.hpp"
#include "support/checked_math.hpp"
#include "support/counted.hpp"
#include "support/input_error.hpp"

namespace pico::liballprof {
namespace {

constexpr std::uint8_t kAnyArity = 255;

// Where a replayed function's arguments are (0 = the first after tstart; -1 = not there), as
// liballprof's wrapper generator prints the C binding (mpipclog.c). count/type are the send side
// (or the only side), count2/type2 the receive side.
struct Layout {
  std::string_view name = {};
  Role role = Role::time_only;
  std::uint8_t args = kAnyArity;
  bool blocking = true;
  Collective collective = Collective::barrier;
  std::int8_t count = -1, type = -1, peer = -1, tag = -1, comm = -1, req = -1, root = -1;
  std::int8_t count2 = -1, type2 = -1, peer2 = -1, tag2 = -1;
  std::int8_t color = -1, key = -1, nreq = -1;
  std::int8_t variable = -1;  // a communicator's variable (MPI_Comm_split's newcomm, MPI_Comm_free's comm)
  // A v-collective's count arrays (the field of their values; count/count2 then unset) and which it is.
  std::int8_t counts = -1, counts2 = -1;
  VCollective vcollective = VCollective::gatherv;
};

// buf:count:type:peer:tag:comm, then :request (non-blocking, persistent) or :status (MPI_Recv).
constexpr Layout p2p(std::string_view name, Role role, bool blocking) {
  return {.name = name, .role = role, .args = 7, .blocking = blocking, .count = 1, .type = 2, .peer = 3, .tag = 4,
          .comm = 5, .req = static_cast<std::int8_t>(blocking && role != Role::send_init && role != Role::recv_init ? -1 : 6)};
}
constexpr Layout blocking_send(std::string_view name) {
  Layout l = p2p(name, Role::send, true);
  l.args = 6;  // no status
  return l;
}
// A collective and its MPI_I form (one more argument: the request, last).
struct CollectivePair {
  Layout blocking, nonblocking;
};

// The collectives' layouts, from their MPI bindings in the descriptors
// (collectives/spec.hpp: liballprof prints the C binding's arguments in order);
// point to point (MPI_Sendrecv) is below, with the messages it matches.
const std::vector<CollectivePair>& collective_layouts() {
  static const std::vector<CollectivePair> pairs = [] {
    std::vector<CollectivePair> out;
    for (const Collective c : all_collectives()) {
      const CollectiveSpec& spec = spec_for(c);
      // A count-matrix collective (MPI_Alltoallv) passes arrays, which this
      // reader does not take (no trace at hand records one), and liballprof
      // prints MPI_Reduce_scatter's recvcounts as an address only: they stay
      // unknown, and a trace holding one is refused.
      if (spec.point_to_point || spec.count_matrix || spec.rank_count != nullptr) continue;
      const MpiBinding& m = spec.mpi;
      const Layout l{.name = m.function, .role = Role::collective, .args = static_cast<std::uint8_t>(m.args),
                     .collective = c, .count = m.count, .type = m.type, .comm = m.comm, .root = m.root,
                     .count2 = m.count2, .type2 = m.type2};
      Layout i = l;
      i.name = m.nonblocking;
      i.blocking = false;
      i.req = m.args;
      i.args = static_cast<std::uint8_t>(m.args + 1);
      out.push_back({l, i});
    }
    return out;
  }();
  return pairs;
}

constexpr Layout kOthers[] = {
    blocking_send("MPI_Send"), blocking_send("MPI_Bsend"), blocking_send("MPI_Ssend"), blocking_send("MPI_Rsend"),
    p2p("MPI_Isend", Role::send, false), p2p("MPI_Ibsend", Role::send, false), p2p("MPI_Issend", Role::send, false),
    p2p("MPI_Irsend", Role::send, false),
    p2p("MPI_Send_init", Role::send_init, true), p2p("MPI_Bsend_init", Role::send_init, true),
    p2p("MPI_Ssend_init", Role::send_init, true), p2p("MPI_Rsend_init", Role::send_init, true),
    p2p("MPI_Recv", Role::recv, true), p2p("MPI_Irecv", Role::recv, false), p2p("MPI_Recv_init", Role::recv_init, true),
    // sbuf:scount:stype:dest:stag:rbuf:rcount:rtype:source:rtag:comm:status
    {.name = "MPI_Sendrecv", .role = Role::sendrecv, .args = 12, .count = 1, .type = 2, .peer = 3, .tag = 4, .comm = 10,
     .count2 = 6, .type2 = 7, .peer2 = 8, .tag2 = 9},
    // buf:count:type:dest:stag:source:rtag:comm:status (the receive fills the same buffer)
    {.name = "MPI_Sendrecv_replace", .role = Role::sendrecv, .args = 9, .count = 1, .type = 2, .peer = 3, .tag = 4,
     .comm = 7, .count2 = 1, .type2 = 2, .peer2 = 5, .tag2 = 6},
    {.name = "MPI_Wait", .role = Role::wait, .args = 2, .req = 0},
    {.name = "MPI_Waitall", .role = Role::waitall, .args = 3, .req = 1, .nreq = 0},
    {.name = "MPI_Waitany", .role = Role::waitany, .args = 4, .req = 1, .nreq = 0},
    {.name = "MPI_Waitsome", .role = Role::waitany, .args = 5, .req = 1, .nreq = 0},
    {.name = "MPI_Start", .role = Role::start, .args = 1, .req = 0},
    {.name = "MPI_Startall", .role = Role::startall, .args = 2, .req = 1, .nreq = 0},
    {.name = "MPI_Cancel", .role = Role::cancel, .args = 1, .req = 0},
    // comm:color:key:newcomm, comm:newcomm, comm:info:newcomm, comm:newcomm:request
    {.name = "MPI_Comm_split", .role = Role::comm_split, .args = 4, .comm = 0, .color = 1, .key = 2, .variable = 3},
    {.name = "MPI_Comm_dup", .role = Role::comm_dup, .args = 2, .comm = 0, .variable = 1},
    // comm:split_type:key:info:newcomm (the split type read as a color)
    {.name = "MPI_Comm_split_type", .role = Role::comm_split_type, .args = 5, .comm = 0, .color = 1, .key = 2,
     .variable = 4},
    {.name = "MPI_Comm_dup_with_info", .role = Role::comm_dup, .args = 3, .comm = 0, .variable = 2},
    {.name = "MPI_Comm_idup", .role = Role::comm_dup, .args = 3, .comm = 0, .variable = 1},
    // comm:ndims:dims:periods:reorder:newcomm (dims and periods as addresses: their values are not traced)
    {.name = "MPI_Cart_create", .role = Role::comm_cart, .args = 6, .comm = 0, .variable = 5},
    {.name = "MPI_Comm_free", .role = Role::comm_free, .args = 1, .variable = 0},
    // An array is two fields, address:values. sbuf:scount:stype:rbuf:rcounts:displs:rtype:root:comm
    {.name = "MPI_Gatherv", .role = Role::vcollective, .args = 11, .count = 1, .type = 2, .comm = 10, .root = 9,
     .type2 = 8, .counts2 = 5, .vcollective = VCollective::gatherv},
    // sbuf:scounts:displs:stype:rbuf:rcount:rtype:root:comm
    {.name = "MPI_Scatterv", .role = Role::vcollective, .args = 11, .type = 5, .comm = 10, .root = 9, .count2 = 7,
     .type2 = 8, .counts = 2, .vcollective = VCollective::scatterv},
    // sbuf:scount:stype:rbuf:rcounts:displs:rtype:comm
    {.name = "MPI_Allgatherv", .role = Role::vcollective, .args = 10, .count = 1, .type = 2, .comm = 9, .type2 = 8,
     .counts2 = 5, .vcollective = VCollective::allgatherv},
    // sbuf:scounts:sdispls:stype:rbuf:rcounts:rdispls:rtype:comm
    {.name = "MPI_Alltoallv", .role = Role::vcollective, .args = 13, .type = 5, .comm = 12, .type2 = 11, .counts = 2,
     .counts2 = 8, .vcollective = VCollective::alltoallv},
    // comm:group:newcomm (the group a handle: MPI_Group_incl prints its ranks as an address)
    {.name = "MPI_Comm_create", .role = Role::comm_create, .args = 3, .comm = 0, .variable = 2},
    {.name = "MPI_Init", .role = Role::init},
    {.name = "MPI_Init_thread", .role = Role::init},
    {.name = "MPI_Finalize", .role = Role::finalize},
};

// Calls that do not communicate: their time joins the next compute gap. Test and
// its kin too: liballprof does not record whether they found the request done,
// so a later wait (or nothing) completes it.
constexpr std::string_view kLocalPrefixes[] = {
    "MPI_Type_", "MPI_Group_", "MPI_Info_", "MPI_Errhandler_", "MPI_Status_", "MPI_Op_", "MPI_Keyval_", "MPI_Attr_",
    "MPI_Pack", "MPI_Unpack", "MPI_Test", "MPI_Comm_get_", "MPI_Comm_set_", "MPI_Comm_create_keyval",
    "MPI_Comm_free_keyval", "MPI_Comm_delete_attr", "MPI_Add_error_", "MPI_Error_", "MPI_Cart_", "MPI_Graph",
    "MPI_Dist_graph_neighbors", "MPI_Get_"};
constexpr std::string_view kLocal[] = {
    "MPI_Comm_rank", "MPI_Comm_size", "MPI_Comm_group", "MPI_Comm_compare", "MPI_Comm_test_inter",
    "MPI_Comm_remote_size", "MPI_Wtime", "MPI_Wtick", "MPI_Initialized", "MPI_Finalized", "MPI_Query_thread",
    "MPI_Is_thread_main", "MPI_Alloc_mem", "MPI_Free_mem", "MPI_Buffer_attach", "MPI_Buffer_detach",
    "MPI_Request_get_status", "MPI_Request_free", "MPI_Address", "MPI_Dims_create", "MPI_Topo_test",
    "MPI_Reduce_local", "MPI_Pcontrol"};
// Not local despite the prefixes above: they make communicators whose members
// liballprof does not record (MPI_Cart_sub's remain_dims and MPI_Graph_create's
// edges are printed as addresses).
constexpr std::string_view kNotLocal[] = {"MPI_Cart_sub", "MPI_Graph_create"};

const Layout* find_layout(std::string_view name) {
  for (const CollectivePair& c : collective_layouts()) {
    if (c.blocking.name == name) return &c.blocking;
    if (c.nonblocking.name == name) return &c.nonblocking;
  }
  for (const Layout& l : kOthers)
    if (l.name == name) return &l;
  return nullptr;
}

bool is_local(std::string_view name) {
  if (std::find(std::begin(kNotLocal), std::end(kNotLocal), name) != std::end(kNotLocal)) return false;
  if (std::find(std::begin(kLocal), std::end(kLocal), name) != std::end(kLocal)) return true;
  return std::any_of(std::begin(kLocalPrefixes), std::end(kLocalPrefixes),
                     [&](std::string_view p) { return name.starts_with(p); });
}

struct Field {
  std::string_view text;
  int column = 0;  // 1-based
};

class LineReader {
 public:
  LineReader(const std::string& file, int line) : file_(file), line_(line) {}

  [[noreturn]] void fail(const Field& at, const std::string& what) const {
    throw InputError(file_, line_, at.column, what,
                     "liballprof lines are MPI_Func:tstart:args...:tend (docs/simulation.md#traces)");
  }
  std::optional<double> time(const Field& f, const char* what) const {
    if (f.text == "-") return std::nullopt;
    double v = 0;
    const auto [end, ec] = std::from_chars(f.text.data(), f.text.data() + f.text.size(), v);
    // Wtime in microseconds: ~2e15 today; beyond 1e18 us no clock reads.
    if (ec != std::errc() || end != f.text.data() + f.text.size() || !(v >= 0 && v <= 1e18))
      fail(f, fmt::format("{} '{}' is not a time in microseconds (or '-')", what, f.text));
    return v;
  }
  std::int64_t integer(const Field& f, const char* what, std::int64_t lo, std::int64_t hi) const {
    return integer(f.text, f, what, lo, hi);
  }
  std::int64_t integer(std::string_view s, const Field& f, const char* what, std::int64_t lo, std::int64_t hi) const {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) fail(f, fmt::format("{} '{}' is not an integer", what, s));
    if (v < lo || v > hi) fail(f, fmt::format("{} {} is outside [{}, {}]", what, v, lo, hi));
    return v;
  }
  // A handle or address: liballprof prints %lu, so MPICH's negative handles arrive as 20 digits.
  std::uint64_t address(const Field& f, const char* what) const { return handle(f.text, f, what); }
  std::uint64_t handle(std::string_view s, const Field& f, const char* what) const {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec == std::errc() && end == s.data() + s.size()) return v;
    return static_cast<std::uint64_t>(integer(s, f, what, INT64_MIN, INT64_MAX));
  }
  // `code,size[,extent]`: the size in bytes. Each part a number, no fourth
  // part, the extent not negative: liballprof prints nothing else.
  std::uint64_t type_size(const Field& f) const {
    std::array<std::string_view, 3> part;
    std::size_t parts = 0;
    for (std::string_view rest = f.text;;) {
      const auto comma = rest.find(',');
      if (parts == part.size()) fail(f, fmt::format("datatype '{}' is not code,size,extent", f.text));
      part[parts++] = rest.substr(0, comma);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    if (parts < 2) fail(f, fmt::format("datatype '{}' is not code,size,extent", f.text));
    handle(part[0], f, "datatype code");
    if (parts == 3) integer(part[2], f, "datatype extent", 0, INT64_MAX);
    // 0: an empty type (MPI_DATATYPE_NULL beside a count of 0, as Quantum ESPRESSO's MPI_Gatherv passes it);
    // derived types are large (HPCC's PTRANS sends one struct of 1.28 MB): the call's bytes are bounded instead.
    return static_cast<std::uint64_t>(integer(part[1], f, "datatype size", 0, static_cast<std::int64_t>(kMaxCallBytes)));
  }
  std::uint64_t bytes(const Field& count, const Field& type) const {
    return times_size(static_cast<std::uint64_t>(integer(count, "count", 0, INT64_MAX)), type_size(type), count);
  }
  // n elements of `size` bytes, within the 1 TiB a call may move.
  std::uint64_t times_size(std::uint64_t n, std::uint64_t size, const Field& at) const {
    const auto b = checked_mul(n, size);
    if (!b || *b > kMaxCallBytes)
      fail(at, fmt::format("count {} x {} bytes is beyond the 1 TiB per rank pico schedules", n, size));
    return *b;
  }
  // `v0,v1,...`, one count per rank of the communicator, each times the type's size.
  std::vector<std::uint64_t> byte_list(const Field& values, const Field& type, std::size_t ranks) const {
    const std::uint64_t size = type_size(type);
    std::vector<std::uint64_t> out;
    out.reserve(ranks);
    for (std::string_view rest = values.text;;) {
      const auto comma = rest.find(',');
      if (out.size() == ranks)
        fail(values, fmt::format("'{}' holds more counts than the communicator's {} ranks", values.text, ranks));
      out.push_back(times_size(static_cast<std::uint64_t>(integer(rest.substr(0, comma), values, "count", 0, INT32_MAX)),
                               size, values));
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    if (out.size() != ranks)
      fail(values, fmt::format("'{}' holds {} for a communicator of {}", values.text, counted(out.size(), "count"),
                               counted(ranks, "rank")));
    return out;
  }

  // `handle,rank,size`.
  CommRef comm(const Field& f) const {
    std::array<std::string_view, 3> part;
    std::string_view rest = f.text;
    for (std::size_t k = 0; k < 3; ++k) {
      const auto comma = rest.find(',');
      part[k] = rest.substr(0, comma);
      if (comma == std::string_view::npos) {
        if (k != 2) fail(f, fmt::format("communicator '{}' is not handle,rank,size", f.text));
        break;
      }
      rest.remove_prefix(comma + 1);
      if (k == 2) fail(f, fmt::format("communicator '{}' is not handle,rank,size", f.text));
    }
    CommRef c;
    c.handle = address({part[0], f.column}, "communicator handle");
    c.size = static_cast<int>(integer(part[2], f, "communicator size", 1, 1 << 20));
    c.rank = static_cast<int>(integer(part[1], f, "rank in the communicator", 0, c.size - 1));
    return c;
  }

 private:
  const std::string& file_;
  int line_;
};

}  // namespace

std::optional<Function> find_function(std::string_view name) {
  if (const Layout* l = find_layout(name)) return Function{l->name, l->role};
  if (is_local(name)) return Function{name, Role::time_only};
  return std::nullopt;
}

std::vector<std::string_view> replayed_functions() {
  std::vector<std::string_view> out;
  for (const CollectivePair& c : collective_layouts()) {
    out.push_back(c.blocking.name);
    if (!c.nonblocking.name.empty()) out.push_back(c.nonblocking.name);  // a collective MPI has no MPI_I form of
  }
  for (const Layout& l : kOthers) out.push_back(l.name);
  return out;
}

std::optional<Record> parse_line(std::string_view text, const std::string& file, int line, std::string* unknown) {
  const LineReader r(file, line);
  // Split at ':' (a datatype's and a communicator's parts are ','-separated within one field).
  std::vector<Field> f;
  f.reserve(16);
  for (std::size_t at = 0;;) {
    const auto colon = text.find(':', at);
    f.push_back({text.substr(at, colon == std::string_view::npos ? std::string_view::npos : colon - at),
                 static_cast<int>(at) + 1});
    if (colon == std::string_view::npos) break;
    at = colon + 1;
  }
  if (f.size() < 3) r.fail(f.front(), "fewer than three fields (MPI_Func:tstart:...:tend)");
  const std::string_view name = f[0].text;
  if (!name.starts_with("MPI_")) r.fail(f[0], fmt::format("'{}' is no MPI function", name));
  Record rec;
  rec.line = line;
  const Layout* layout = find_layout(name);
  if (!layout) {
    if (!is_local(name)) {
      if (unknown) *unknown = std::string(name);
      return std::nullopt;
    }
    rec.role = Role::time_only;
  } else {
    rec.role = layout->role;
  }
  // MPI_Initialized and MPI_Finalized print '-' for both times outside Init..Finalize.
  rec.start_us = r.time(f[1], "tstart");
  rec.end_us = r.time(f.back(), "tend");
  if (rec.start_us && rec.end_us && *rec.end_us < *rec.start_us)
    r.fail(f.back(), fmt::format("the call ends ({} us) before it starts ({} us)", f.back().text, f[1].text));
  if (!layout || layout->args == kAnyArity) return rec;
  const std::size_t args = f.size() - 3;
  if (args != layout->args)
    r.fail(f[0], fmt::format("{} has {} arguments, liballprof writes {}", name, args, layout->args));
  const auto a = [&](std::int8_t k) -> const Field& { return f[2 + static_cast<std::size_t>(k)]; };
  const Layout& l = *layout;
  rec.blocking = l.blocking;
  rec.collective = l.collective;
  if (l.comm >= 0) rec.comm = r.comm(a(l.comm));
  if (l.req >= 0) rec.request = r.address(a(l.req), "request");
  if (l.nreq >= 0) rec.count = static_cast<std::uint64_t>(r.integer(a(l.nreq), "requests", 0, 1 << 24));
  if (l.peer >= 0) rec.peer = r.integer(a(l.peer), "rank", INT32_MIN, INT32_MAX);
  if (l.tag >= 0) rec.tag = r.integer(a(l.tag), "tag", INT32_MIN, INT32_MAX);
  if (l.peer2 >= 0) rec.peer2 = r.integer(a(l.peer2), "rank", INT32_MIN, INT32_MAX);
  if (l.tag2 >= 0) rec.tag2 = r.integer(a(l.tag2), "tag", INT32_MIN, INT32_MAX);
  if (l.root >= 0) rec.root = r.integer(a(l.root), "root", 0, rec.comm.size - 1);
  if (l.color >= 0) rec.color = r.integer(a(l.color), "color", INT32_MIN, INT32_MAX);
  if (l.key >= 0) rec.key = r.integer(a(l.key), "key", INT32_MIN, INT32_MAX);
  if (l.variable >= 0) rec.variable = r.address(a(l.variable), "communicator variable");
  if (l.count >= 0) rec.bytes = r.bytes(a(l.count), a(l.type));
  if (l.count2 >= 0) rec.bytes2 = r.bytes(a(l.count2), a(l.type2));
  if (rec.role == Role::vcollective) {
    rec.vcollective = l.vcollective;
    const auto p = static_cast<std::size_t>(rec.comm.size);
    rec.send_bytes = l.counts >= 0 ? r.byte_list(a(l.counts), a(l.type), p) : std::vector<std::uint64_t>(p, rec.bytes);
    rec.recv_bytes = l.counts2 >= 0 ? r.byte_list(a(l.counts2), a(l.type2), p) : std::vector<std::uint64_t>(p, rec.bytes2);
    return rec;
  }
  if (rec.role == Role::collective) {
    // The side whose count the call uses at this rank: allgather and alltoall the
    // receive side (the send side is ignored in place); gather the root's receive
    // side, scatter the root's send side.
    // That is the receive side, but at a rooted collective's root only where
    // the root receives (gather's), and at the others where it sends (scatter's).
    if (l.count2 >= 0) {
      const bool root = rec.comm.rank == rec.root;
      switch (spec_for(rec.collective).root) {
        case RootRole::none: rec.bytes = rec.bytes2; break;
        case RootRole::destination: if (root) rec.bytes = rec.bytes2; break;
        case RootRole::source: if (!root) rec.bytes = rec.bytes2; break;
      }
    }
  }
  return rec;
}

}  // namespace pico::liballprof
