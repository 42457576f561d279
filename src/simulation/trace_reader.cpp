#include "simulation/trace_reader.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "core/input_error.hpp"

namespace pico {
namespace fs = std::filesystem;
namespace {

enum class Func { allreduce, bcast, reduce, barrier, allgather, alltoall, comm_split, comm_dup };

struct TraceCall {
  Func func = Func::barrier;
  int line = 0;
  double gap_s = 0;  // since the end of the previous replayed call
  std::uint64_t bytes = 0;
  int root = 0;
  std::string comm, newcomm;
  long color = 0, key = 0;
};

struct RankTrace {
  std::string file;
  std::vector<TraceCall> calls;
  std::map<std::string, std::uint64_t> unknown;  // function -> calls
};

const std::map<std::string, Func, std::less<>>& replayed() {
  static const std::map<std::string, Func, std::less<>> m{
      {"MPI_Allreduce", Func::allreduce}, {"MPI_Bcast", Func::bcast},         {"MPI_Reduce", Func::reduce},
      {"MPI_Barrier", Func::barrier},     {"MPI_Allgather", Func::allgather}, {"MPI_Alltoall", Func::alltoall},
      {"MPI_Comm_split", Func::comm_split}, {"MPI_Comm_dup", Func::comm_dup}};
  return m;
}

bool time_only(std::string_view f) {
  return f == "MPI_Init" || f == "MPI_Init_thread" || f == "MPI_Finalize" || f == "MPI_Comm_rank" ||
         f == "MPI_Comm_size" || f == "MPI_Wtime" || f == "MPI_Initialized";
}

// The arguments each replayed call has between tstart and tend.
std::size_t arity(Func f) {
  switch (f) {
    case Func::allreduce: return 6;
    case Func::bcast: return 5;
    case Func::reduce: return 7;
    case Func::barrier: return 1;
    case Func::allgather:
    case Func::alltoall: return 7;
    case Func::comm_split: return 4;
    case Func::comm_dup: return 2;
  }
  return 0;
}

class LineReader {
 public:
  LineReader(const std::string& file, int line) : file_(file), line_(line) {}
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(file_, line_, 0, what, "liballprof lines are MPI_Func:tstart:args...:tend (docs/simulation.md#traces)");
  }
  double number(std::string_view s, const char* what) const {
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || !(v >= -1e18 && v <= 1e18))
      fail(fmt::format("{} '{}' is not a number", what, s));
    return v;
  }
  long integer(std::string_view s, const char* what) const {
    long v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) fail(fmt::format("{} '{}' is not an integer", what, s));
    return v;
  }
  // `handle,size[,...]`: the size in bytes.
  std::uint64_t type_size(std::string_view s) const {
    const auto comma = s.find(',');
    if (comma == std::string_view::npos) fail(fmt::format("datatype '{}' is not handle,size", s));
    std::string_view rest = s.substr(comma + 1);
    rest = rest.substr(0, rest.find(','));
    const long v = integer(rest, "datatype size");
    if (v < 1 || v > 1 << 20) fail(fmt::format("datatype size {} is outside [1, 2^20]", v));
    return static_cast<std::uint64_t>(v);
  }
  std::uint64_t bytes(std::string_view count, std::string_view type) const {
    const long n = integer(count, "count");
    if (n < 0) fail(fmt::format("count {} is negative", n));
    const std::uint64_t size = type_size(type);
    if (static_cast<std::uint64_t>(n) > kMaxCallBytes / size)
      fail(fmt::format("count {} x {} bytes is beyond the 1 TiB per rank pico schedules", n, size));
    return static_cast<std::uint64_t>(n) * size;
  }
  static std::string handle(std::string_view s) { return std::string(s.substr(0, s.find(','))); }

 private:
  const std::string& file_;
  int line_;
};

RankTrace read_rank(const std::string& file, UnknownCalls unknown) {
  std::ifstream in(file);
  if (!in) throw InputError(file, "cannot read the trace", "check the trace directory");
  RankTrace t;
  t.file = file;
  std::string text;
  int number = 0;
  std::optional<double> previous_end;  // of the last call of any kind
  std::optional<double> replayed_end;  // of the last replayed call (or MPI_Init)
  std::vector<std::string_view> f;
  while (std::getline(in, text)) {
    ++number;
    if (text.empty() || text[0] == '#') continue;
    const LineReader r(file, number);
    f.clear();
    std::string_view rest = text;
    for (std::size_t colon; (colon = rest.find(':')) != std::string_view::npos; rest.remove_prefix(colon + 1))
      f.push_back(rest.substr(0, colon));
    f.push_back(rest);
    if (f.size() < 3) r.fail("fewer than three fields");
    const double start = r.number(f[1], "tstart") * 1e-6, end = r.number(f.back(), "tend") * 1e-6;
    if (end < start) r.fail(fmt::format("the call ends ({} us) before it starts ({} us)", f.back(), f[1]));
    if (previous_end && start < *previous_end)
      r.fail(fmt::format("the call starts at {} us, before the previous one ended", f[1]));
    previous_end = end;
    if (!replayed_end) replayed_end = start;
    const std::string_view name = f[0];
    const auto it = replayed().find(name);
    if (it == replayed().end()) {
      if (name == "MPI_Init" || name == "MPI_Init_thread") replayed_end = end;
      else if (!time_only(name)) {
        if (unknown != UnknownCalls::skip) ++t.unknown[std::string(name)];
      }
      continue;
    }
    const Func func = it->second;
    if (f.size() != arity(func) + 3)
      r.fail(fmt::format("{} has {} arguments, pico reads {}", name, f.size() - 3, arity(func)));
    TraceCall c;
    c.func = func;
    c.line = number;
    c.gap_s = start - *replayed_end;
    const auto a = [&](std::size_t k) { return f[2 + k]; };
    switch (func) {
      case Func::allreduce: c.bytes = r.bytes(a(2), a(3)); c.comm = r.handle(a(5)); break;
      case Func::bcast: c.bytes = r.bytes(a(1), a(2)); c.root = static_cast<int>(r.integer(a(3), "root")); c.comm = r.handle(a(4)); break;
      case Func::reduce: c.bytes = r.bytes(a(2), a(3)); c.root = static_cast<int>(r.integer(a(5), "root")); c.comm = r.handle(a(6)); break;
      case Func::barrier: c.comm = r.handle(a(0)); break;
      case Func::allgather:
      case Func::alltoall: c.bytes = r.bytes(a(1), a(2)); c.comm = r.handle(a(6)); break;
      case Func::comm_split:
        c.comm = r.handle(a(0));
        c.color = r.integer(a(1), "color");
        c.key = r.integer(a(2), "key");
        c.newcomm = r.handle(a(3));
        if (c.color < 0) r.fail("a negative color (MPI_UNDEFINED): pico replays ranks that all join a group");
        break;
      case Func::comm_dup: c.comm = r.handle(a(0)); c.newcomm = r.handle(a(1)); break;
    }
    // Making a communicator is compute time here: it stays in the next call's gap.
    if (func == Func::comm_split || func == Func::comm_dup) c.gap_s = 0;
    else replayed_end = end;
    t.calls.push_back(std::move(c));
  }
  return t;
}

Collective collective_of(Func f) {
  switch (f) {
    case Func::allreduce: return Collective::allreduce;
    case Func::bcast: return Collective::bcast;
    case Func::reduce: return Collective::reduce;
    case Func::barrier: return Collective::barrier;
    case Func::allgather: return Collective::allgather;
    case Func::alltoall: return Collective::alltoall;
    case Func::comm_split:
    case Func::comm_dup: break;
  }
  return Collective::barrier;
}

}  // namespace

Workload load_trace_workload(const std::string& dir, UnknownCalls unknown, std::map<std::string, std::uint64_t>* listed,
                             int threads) {
  auto path_of = [&](int r) { return (fs::path(dir) / fmt::format("pmpi-trace-rank-{}.txt", r)).string(); };
  if (!fs::is_directory(dir)) throw InputError(dir, "not a directory of traces", "give the directory holding pmpi-trace-rank-N.txt");
  int ranks = 0;
  std::vector<int> present;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string n = e.path().filename().string();
    int r = -1;
    if (n.starts_with("pmpi-trace-rank-") && n.ends_with(".txt") &&
        std::sscanf(n.c_str(), "pmpi-trace-rank-%d.txt", &r) == 1 && r >= 0 && r < (1 << 20)) {
      present.push_back(r);
      ranks = std::max(ranks, r + 1);
    }
  }
  if (present.empty()) throw InputError(dir, "no pmpi-trace-rank-N.txt files", "trace the run with liballprof");
  if (static_cast<int>(present.size()) != ranks) {
    std::sort(present.begin(), present.end());
    std::vector<int> missing;
    for (int r = 0, k = 0; r < ranks && missing.size() < 10; ++r) {
      if (k < static_cast<int>(present.size()) && present[static_cast<std::size_t>(k)] == r) ++k;
      else missing.push_back(r);
    }
    throw InputError(dir, fmt::format("ranks {} of 0..{} have no trace (first missing: {})", ranks - present.size(),
                                      ranks - 1, fmt::join(missing, ", ")),
                     "trace every rank of the run");
  }
  // Read the ranks' files in parallel.
  std::vector<RankTrace> traces(static_cast<std::size_t>(ranks));
  std::atomic<int> next{0};
  std::exception_ptr failure;
  std::mutex m;
  auto work = [&] {
    for (int r; (r = next++) < ranks;) {
      try {
        traces[static_cast<std::size_t>(r)] = read_rank(path_of(r), unknown);
      } catch (...) {
        std::lock_guard lock(m);
        if (!failure) failure = std::current_exception();
        next = ranks;
      }
    }
  };
  const int n = std::min(ranks, threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  {
    std::vector<std::jthread> pool;
    for (int t = 1; t < n; ++t) pool.emplace_back(work);
    work();
  }
  if (failure) std::rethrow_exception(failure);

  std::map<std::string, std::uint64_t> unknown_calls;
  for (const RankTrace& t : traces)
    for (const auto& [name, count] : t.unknown) unknown_calls[name] += count;
  if (unknown == UnknownCalls::list) {
    if (listed) *listed = std::move(unknown_calls);
    return Workload{};
  }
  if (!unknown_calls.empty()) {
    std::vector<std::string> list;
    for (const auto& [name, count] : unknown_calls) list.push_back(fmt::format("{} ({})", name, count));
    throw InputError(dir, fmt::format("the traces hold calls pico does not replay: {}", fmt::join(list, ", ")),
                     "--unknown skip folds their time into the compute gaps");
  }

  Workload w;
  w.name = "trace";
  w.ranks = ranks;
  w.partitions.push_back(regular_partition("world", ranks, 1));
  const std::vector<TraceCall>& first = traces[0].calls;
  for (const RankTrace& t : traces) {
    if (t.calls.size() != first.size())
      throw InputError(t.file, fmt::format("{} replayed calls where rank 0 has {}", t.calls.size(), first.size()),
                       "pico replays traces whose ranks make the same collective calls in one order");
    for (std::size_t k = 0; k < first.size(); ++k)
      if (t.calls[k].func != first[k].func)
        throw InputError(t.file, t.calls[k].line, 0, "this call differs from rank 0's at the same place",
                         fmt::format("rank 0's is at {}:{}", traces[0].file, first[k].line));
  }
  // Each rank's communicator handles -> partition index; the world is the first handle not created.
  std::vector<std::map<std::string, int>> comms(static_cast<std::size_t>(ranks));
  auto comm_of = [&](int r, const TraceCall& c) {
    auto& map = comms[static_cast<std::size_t>(r)];
    if (auto it = map.find(c.comm); it != map.end()) return it->second;
    bool has_world = false;
    for (const auto& [h, p] : map) has_world |= p == 0;
    if (has_world)
      throw InputError(traces[static_cast<std::size_t>(r)].file, c.line, 0,
                       fmt::format("communicator {} was made by no MPI_Comm_split or MPI_Comm_dup", c.comm),
                       "pico knows the world and communicators the trace shows being made");
    map[c.comm] = 0;
    return 0;
  };
  std::vector<std::size_t> call_index;  // trace call k -> workload call
  for (std::size_t k = 0; k < first.size(); ++k) {
    const TraceCall& c0 = first[k];
    const int parent = comm_of(0, c0);
    for (int r = 1; r < ranks; ++r)
      if (comm_of(r, traces[static_cast<std::size_t>(r)].calls[k]) != parent)
        throw InputError(traces[static_cast<std::size_t>(r)].file, traces[static_cast<std::size_t>(r)].calls[k].line, 0,
                         "this call is on another communicator than rank 0's", "");
    if (c0.func == Func::comm_dup) {
      for (int r = 0; r < ranks; ++r) comms[static_cast<std::size_t>(r)][traces[static_cast<std::size_t>(r)].calls[k].newcomm] = parent;
      continue;
    }
    if (c0.func == Func::comm_split) {
      // Groups: per parent group and color, ranks by (key, world rank).
      std::map<std::pair<int, long>, std::vector<std::pair<long, int>>> by;
      for (int r = 0; r < ranks; ++r) {
        const TraceCall& c = traces[static_cast<std::size_t>(r)].calls[k];
        int ignored = 0;
        const std::vector<int> g = w.group_of(parent, r, &ignored);
        by[{g.front(), c.color}].push_back({c.key, r});
      }
      Partition p = regular_partition(fmt::format("split-{}", w.partitions.size()), 0, 1);
      p.group_of_rank.assign(static_cast<std::size_t>(ranks), 0);
      for (auto& [id, members] : by) {
        std::sort(members.begin(), members.end());
        std::vector<int> g;
        for (const auto& [key, r] : members) {
          p.group_of_rank[static_cast<std::size_t>(r)] = static_cast<int>(p.groups.size());
          g.push_back(r);
        }
        if (p.group_size != 0 && static_cast<int>(g.size()) != p.group_size)
          throw InputError(traces[0].file, c0.line, 0,
                           fmt::format("MPI_Comm_split makes groups of {} and {} ranks", p.group_size, g.size()),
                           "pico replays splits into groups of one size");
        p.group_size = static_cast<int>(g.size());
        p.groups.push_back(std::move(g));
      }
      const int index = static_cast<int>(w.partitions.size());
      w.partitions.push_back(std::move(p));
      for (int r = 0; r < ranks; ++r) comms[static_cast<std::size_t>(r)][traces[static_cast<std::size_t>(r)].calls[k].newcomm] = index;
      continue;
    }
    WorkloadCall call{CallKind::collective, collective_of(c0.func), c0.bytes, parent, c0.root, 0};
    for (int r = 1; r < ranks; ++r) {
      const TraceCall& c = traces[static_cast<std::size_t>(r)].calls[k];
      if (c.bytes != c0.bytes || c.root != c0.root)
        throw InputError(traces[static_cast<std::size_t>(r)].file, c.line, 0,
                         fmt::format("{} bytes, root {} where rank 0 has {} bytes, root {}", c.bytes, c.root, c0.bytes, c0.root),
                         "pico replays collectives whose ranks agree on the size");
    }
    if (call.root < 0 || call.root >= w.partitions[static_cast<std::size_t>(parent)].group_size)
      throw InputError(traces[0].file, c0.line, 0, fmt::format("root {} is outside the communicator", call.root), "");
    call_index.push_back(k);
    w.calls.push_back(call);
  }
  // Per-rank gaps: a replayed call's gap, plus those of the communicator calls folded before it.
  w.rank_gaps_s.assign(static_cast<std::size_t>(ranks) * w.calls.size(), 0);
  for (int r = 0; r < ranks; ++r) {
    const auto& calls = traces[static_cast<std::size_t>(r)].calls;
    double pending = 0;
    std::size_t i = 0;
    for (std::size_t k = 0; k < calls.size(); ++k) {
      pending += calls[k].gap_s;
      if (i < call_index.size() && call_index[i] == k) {
        w.rank_gaps_s[static_cast<std::size_t>(r) * w.calls.size() + i] = pending;
        pending = 0;
        ++i;
      }
    }
  }
  if (w.calls.empty()) throw InputError(dir, "the traces hold no collective pico replays", "");
  return w;
}

}  // namespace pico
