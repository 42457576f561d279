// SPDX-License-Identifier: BSD-3-Clause
// pico replay --format chakra: ASTRA-sim 2.x's inputs, a Chakra trace per
// rank and the system files (src/simulation/chakra_replay.hpp).
#include <chrono>

#include <fmt/format.h>

#include "simulation/chakra_replay.hpp"
#include "simulation/replay_format.hpp"
#include "support/elapsed.hpp"

namespace pico {
namespace {

void write_chakra(const ReplaySource& w, const ReplaySettings& s, std::FILE* log) {
  const std::vector<std::string> algorithms = w.choose(s.chosen);
  for (const std::string& line : w.describe(algorithms)) fmt::print(log, "{}\n", line);
  // The traces hold what the GOAL would (a node per operation), so its estimate weighs them too.
  check_output_size(s.output + ".<rank>.et", w.estimate_bytes(algorithms, s.options), s.cap);
  const auto start = std::chrono::steady_clock::now();
  const ReplayProgram p = w.program(algorithms);
  const ChakraReplayOutput out = write_chakra_replay(
      *p.program, p.algorithms, {.prefix = s.output, .segment_bytes = s.options.segment_bytes, .model = s.model});
  fmt::print(log, "{}.<rank>.et: Chakra traces of {} ranks, {} file(s) in all, written in {:.2f} s\n", s.output,
             w.ranks(), out.files.size(), seconds_since(start));
  fmt::print(log,
             "  collective calls: {} run by ASTRA-sim's implementation, {} by pico's schedule as a custom "
             "implementation ({} distinct), {} written out as messages\n",
             out.native, out.custom, out.custom_traces, out.expanded);
  for (const std::string& note : out.notes) fmt::print(log, "  note: {}\n", note);
  fmt::print(log, "Run ASTRA-sim: {}\n", out.command);
}

}  // namespace

extern const ReplayFormat chakra_replay_format{
    .name = "chakra",
    .description = "ASTRA-sim 2.x's Chakra traces and system files, each collective as its chosen algorithm",
    .output_hint = "e.g. -o out/app (writes out/app.0.et, ...)",
    .simulates = false,
    .write = write_chakra};

}  // namespace pico
