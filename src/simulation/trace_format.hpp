// SPDX-License-Identifier: BSD-3-Clause
// The trace readers of pico replay TRACE, one descriptor each: liballprof's
// (trace_reader.cpp) and Score-P's OTF2 (otf2_trace.cpp). load_trace
// (trace_reader.hpp) reads a path with the first that recognises it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "simulation/trace_builder.hpp"
#include "simulation/trace_reader.hpp"

namespace pico {

// A function pico does not replay: its calls, and where the first is (file
// empty where the format does not say).
struct UnreplayedCall {
  std::uint64_t calls = 0;
  std::string file;
  int rank = 0, line = 0;
};
using UnreplayedCalls = std::map<std::string, UnreplayedCall>;

// What a trace format reads, before the ranks' calls are tied together.
struct TraceRead {
  std::vector<RankRecords> ranks;
  UnreplayedCalls unreplayed;
  std::map<std::uint64_t, std::vector<int>> comms;  // communicators the format defines (build_trace_program's `known`)
  std::optional<TraceMpi> mpi;                      // the library, where the format knows it; else TraceOptions::mpi
};

// One way to read traces: a descriptor in its reader's file, listed by
// trace_formats() (trace_reader.cpp), where load_trace takes the first that
// recognises the path. Adding a reader is its file and its row there.
struct TraceFormat {
  std::string_view name;
  bool (*recognises)(const std::string& path);
  // Throws InputError naming the file (and line) it cannot read.
  TraceRead (*read)(const std::string& path, const TraceOptions& o);
};
const std::vector<const TraceFormat*>& trace_formats();

}  // namespace pico
