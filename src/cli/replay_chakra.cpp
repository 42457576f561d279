// SPDX-License-Identifier: BSD-3-Clause
// pico replay --format chakra: ASTRA-sim 2.x's inputs, a Chakra trace per
// rank and the system files (src/simulation/chakra_replay.hpp).
#include <fmt/format.h>

#include "cli/replay_format.hpp"

namespace pico::cli {
namespace {

void write_chakra(const Replayed& w, const ReplaySettings& s) {
  const std::vector<std::string> algorithms = w.choose(s.chosen);
  w.print_choices(algorithms);
  // The traces hold what the GOAL would (a node per operation), so its estimate weighs them too.
  check_output_size(s.output + ".<rank>.et", w.estimate(algorithms, s.options), s.cap);
  const auto start = std::chrono::steady_clock::now();
  const ChakraReplayOutput out = w.write_chakra(algorithms, {.prefix = s.output,
                                                             .segment_bytes = s.options.segment_bytes,
                                                             .model = s.model});
  fmt::print("{}.<rank>.et: Chakra traces of {} ranks, {} file(s) in all, written in {:.2f} s\n", s.output, w.ranks,
             out.files.size(), seconds_since(start));
  fmt::print("  collective calls: {} run by ASTRA-sim's implementation, {} by pico's schedule as a custom "
             "implementation ({} distinct), {} written out as messages\n",
             out.native, out.custom, out.custom_traces, out.expanded);
  for (const std::string& note : out.notes) fmt::print("  note: {}\n", note);
  fmt::print("Run ASTRA-sim: {}\n", out.command);
}

}  // namespace

extern const ReplayFormat chakra_replay_format{
    .name = "chakra",
    .description = "ASTRA-sim 2.x's Chakra traces and system files, each collective as its chosen algorithm",
    .output_hint = "e.g. -o out/app (writes out/app.0.et, ...)",
    .simulates = false,
    .write = write_chakra};

}  // namespace pico::cli
