// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/trace_reader.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>
#include <tuple>

#include <fmt/format.h>

#include "simulation/trace_format.hpp"
#include "support/input_error.hpp"

namespace pico {
namespace fs = std::filesystem;
namespace {

constexpr int kMaxRanks = 1 << 20;
constexpr std::size_t kMaxLine = std::size_t{16} << 20;

// A file name as `<prefix><rank><suffix>`, the rank its last run of digits.
struct RankName {
  std::string prefix, suffix;
  int rank = -1;
};

std::optional<RankName> rank_name(const std::string& name) {
  const auto last = name.find_last_of("0123456789");
  if (last == std::string::npos) return std::nullopt;
  auto first = last;
  while (first > 0 && std::isdigit(static_cast<unsigned char>(name[first - 1]))) --first;
  const std::string digits = name.substr(first, last + 1 - first);
  if (digits.size() > 7) return std::nullopt;  // liballprof pads (its generator) or not (mpipclog.c)
  RankName r{name.substr(0, first), name.substr(last + 1), std::stoi(digits)};
  if (r.rank >= kMaxRanks) return std::nullopt;
  return r;
}

const char* kHint = "give the directory of one run's liballprof traces (pmpi-trace-rank-N.txt), or rank 0's file";

// Reads one rank's file: its records, and the functions pico does not replay.
RankRecords read_rank(const std::string& file, UnknownCalls unknown, UnreplayedCalls& unknown_calls,
                      std::atomic<std::uint64_t>& calls) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::status(file, ec)))
    throw InputError(file, "is not a regular file (a FIFO, a device or missing)", kHint);
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file, "cannot read the trace", "check the file's permissions");
  RankRecords t;
  t.file = file;
  std::string text, name;
  int number = 0;
  std::optional<double> previous_end;
  while (true) {
    text.clear();
    // getline with a bound: a file without newlines (or /dev/zero behind a link) stops here.
    char c;
    bool any = false;
    while (in.get(c)) {
      any = true;
      if (c == '\n') break;
      if (text.size() == kMaxLine)
        throw InputError(file, number + 1, 0, "a line longer than 16 MiB", "this is not a liballprof trace");
      text.push_back(c);
    }
    if (!any) break;
    ++number;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.empty() || text[0] == '#') {
      constexpr std::string_view kHost = "# hostname: ";
      if (t.host.empty() && text.starts_with(kHost)) t.host = text.substr(kHost.size());
      continue;
    }
    std::optional<liballprof::Record> r = liballprof::parse_line(text, file, number, &name);
    if (!r) {
      if (unknown != UnknownCalls::skip) {
        UnreplayedCall& u = unknown_calls[name];
        if (u.calls++ == 0) u = {.calls = 1, .file = file, .line = number};
      }
      continue;
    }
    const std::optional<double> start = r->start_us ? r->start_us : r->end_us;
    if (previous_end && start && *start < *previous_end)
      throw InputError(file, number, 0, fmt::format("the call starts at {} us, before the previous one ended ({} us)",
                                                    *start, *previous_end),
                       "liballprof writes a rank's calls in order: is the file from one run?");
    if (r->end_us) previous_end = r->end_us;
    else if (r->start_us) previous_end = r->start_us;
    for (const auto& v : {r->start_us, r->end_us})
      if (v) {
        if (!t.first_us) t.first_us = v;
        t.last_us = v;
      }
    // Local calls and, for a list of the unknown ones, every call: only their times count.
    if (r->role == liballprof::Role::time_only || unknown == UnknownCalls::list) continue;
    if (++calls > kMaxTraceCalls)
      throw InputError(file, number, 0, fmt::format("the traces hold over {} calls pico replays", kMaxTraceCalls),
                       "pico replay keeps a trace in memory (about 450 B per call): trace fewer iterations or ranks");
    t.records.push_back(*r);
  }
  if (in.bad()) throw InputError(file, "read failed", "check the file system");
  return t;
}

}  // namespace

std::vector<std::string> trace_files(const std::string& path) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  std::optional<RankName> wanted;  // rank 0's file given: its prefix and suffix
  fs::path dir = path;
  if (fs::is_regular_file(st)) {
    wanted = rank_name(fs::path(path).filename().string());
    if (!wanted || wanted->rank != 0)
      throw InputError(path, "is not rank 0's trace file (its name does not end in the rank 0 before the suffix)", kHint);
    dir = fs::path(path).parent_path();
    if (dir.empty()) dir = ".";
  } else if (!fs::is_directory(st)) {
    throw InputError(path, "neither a directory of traces nor a trace file", kHint);
  }
  // Sets of files named <prefix><rank><suffix>: (prefix, suffix) -> rank -> file.
  std::map<std::pair<std::string, std::string>, std::map<int, std::vector<std::string>>> sets;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.starts_with(".")) continue;
    const auto r = rank_name(name);
    if (!r || (wanted && (r->prefix != wanted->prefix || r->suffix != wanted->suffix))) continue;
    sets[{r->prefix, r->suffix}][r->rank].push_back(e.path().string());
  }
  if (ec) throw InputError(dir.string(), fmt::format("cannot list the directory: {}", ec.message()), kHint);
  std::vector<const std::pair<const std::pair<std::string, std::string>, std::map<int, std::vector<std::string>>>*> with0;
  for (const auto& s : sets)
    if (s.second.contains(0)) with0.push_back(&s);
  if (with0.empty())
    throw InputError(dir.string(), "no trace files (<prefix>0<suffix>, e.g. pmpi-trace-rank-0.txt)",
                     "trace the run with liballprof");
  if (with0.size() > 1) {
    // liballprof's own name first; else the caller must say.
    const auto own = std::find_if(with0.begin(), with0.end(), [](const auto* s) {
      return s->first.first == "pmpi-trace-rank-" && s->first.second == ".txt";
    });
    if (own == with0.end()) {
      std::vector<std::string> names;
      for (const auto* s : with0) names.push_back(fmt::format("{}0{}", s->first.first, s->first.second));
      throw InputError(dir.string(), fmt::format("holds several sets of traces: {}", fmt::join(names, ", ")),
                       "give rank 0's file of the set to replay");
    }
    with0 = {*own};
  }
  const auto& [names, files] = *with0.front();
  std::vector<std::string> out;
  std::vector<int> missing;
  const int ranks = files.rbegin()->first + 1;
  for (int r = 0; r < ranks; ++r) {
    const auto it = files.find(r);
    if (it == files.end()) {
      if (missing.size() < 10) missing.push_back(r);
      continue;
    }
    if (it->second.size() > 1)
      throw InputError(dir.string(), fmt::format("two files for rank {}: {}", r, fmt::join(it->second, ", ")),
                       "keep one run's traces in the directory");
    out.push_back(it->second.front());
  }
  if (!missing.empty())
    throw InputError(dir.string(), fmt::format("ranks {} of 0..{} have no trace (first missing: {})",
                                               ranks - static_cast<int>(out.size()), ranks - 1, fmt::join(missing, ", ")),
                     "trace every rank of the run");
  return out;
}

namespace {

// What pico does not replay: listed, refused at the first such call, or (skip) nothing.
void handle_unknown(const std::string& path, const TraceOptions& o, const UnreplayedCalls& unknown_calls,
                    std::map<std::string, std::uint64_t>* listed) {
  if (o.unknown == UnknownCalls::list) {
    if (listed)
      for (const auto& [name, u] : unknown_calls) (*listed)[name] = u.calls;
    return;
  }
  if (o.unknown == UnknownCalls::skip || unknown_calls.empty()) return;
  std::vector<std::string> list;
  const UnreplayedCall* first = nullptr;
  for (const auto& [name, u] : unknown_calls) {
    list.push_back(fmt::format("{} ({})", name, u.calls));
    if (!u.file.empty() && (!first || std::tie(first->rank, first->line) > std::tie(u.rank, u.line))) first = &u;
  }
  const std::string what = fmt::format("the traces hold calls pico does not replay: {}", fmt::join(list, ", "));
  const char* hint = "--unknown skip folds their time into the compute gaps (docs/simulation.md#traces says why each is not replayed)";
  if (!first) throw InputError(path, what, hint);
  throw InputError(first->file, first->line, 0, what + " (the first here)", hint);
}

// A wait that completed nothing is never silent: refused, or counted as on MPI_REQUEST_NULL.
void handle_unmatched_waits(const TraceProgram& t, const TraceOptions& o) {
  const TraceRequests& q = t.requests;
  if (q.lost + q.contradicted == 0 || o.unmatched_waits == UnmatchedWaits::null) return;
  throw InputError(q.first_file, q.first_line, 0,
                   fmt::format("a wait completes nothing: {} (waits completing nothing: {} naming no started request, "
                               "{} naming one a copy took)", q.first_why, q.lost, q.contradicted),
                   "liballprof names a request by its variable; if these are waits on MPI_REQUEST_NULL, "
                   "--unmatched-waits null replays them as such (docs/simulation.md#traces)");
}

// liballprof's traces: one file per rank, read by as many threads as the options give.
TraceRead read_liballprof(const std::string& path, const TraceOptions& o) {
  const std::vector<std::string> files = trace_files(path);
  const int ranks = static_cast<int>(files.size());
  TraceRead out;
  out.ranks.resize(files.size());
  std::vector<UnreplayedCalls> unknown(files.size());
  std::atomic<int> next{0};
  std::atomic<std::uint64_t> calls{0};
  std::exception_ptr failure;
  std::mutex m;
  auto work = [&] {
    for (int r; (r = next++) < ranks;) {
      try {
        const auto k = static_cast<std::size_t>(r);
        out.ranks[k] = read_rank(files[k], o.unknown, unknown[k], calls);
      } catch (...) {
        std::lock_guard lock(m);
        if (!failure) failure = std::current_exception();
        next = ranks;
      }
    }
  };
  const int n = std::min(ranks, o.threads > 0 ? o.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  {
    std::vector<std::jthread> pool;
    for (int t = 1; t < n; ++t) pool.emplace_back(work);
    work();
  }
  if (failure) std::rethrow_exception(failure);
  for (std::size_t r = 0; r < unknown.size(); ++r)  // the refusal names the lowest rank's first call
    for (const auto& [name, u] : unknown[r]) {
      UnreplayedCall& all = out.unreplayed[name];
      if (all.calls == 0) {
        all = u;
        all.rank = static_cast<int>(r);
      } else {
        all.calls += u.calls;
      }
    }
  return out;
}

// Whatever OTF2 does not claim: a directory, or one rank's file.
bool any_path(const std::string&) { return true; }

}  // namespace

extern const TraceFormat liballprof_trace_format{
    .name = "liballprof",
    .recognises = any_path,
    .read = read_liballprof};
extern const TraceFormat otf2_trace_format;  // simulation/otf2_trace.cpp

// Most specific first: liballprof takes any path, so it comes last.
const std::vector<const TraceFormat*>& trace_formats() {
  static const std::vector<const TraceFormat*> formats{&otf2_trace_format, &liballprof_trace_format};
  return formats;
}

TraceProgram load_trace(const std::string& path, const TraceOptions& o, std::map<std::string, std::uint64_t>* listed) {
  const auto& formats = trace_formats();
  const auto format = std::find_if(formats.begin(), formats.end(), [&](const TraceFormat* f) { return f->recognises(path); });
  TraceRead t = (*format)->read(path, o);
  handle_unknown(path, o, t.unreplayed, listed);
  if (o.unknown == UnknownCalls::list) return TraceProgram{};
  TraceProgram program = build_trace_program(std::move(t.ranks), t.mpi.value_or(o.mpi), t.comms);
  handle_unmatched_waits(program, o);
  return program;
}

}  // namespace pico
