// SPDX-License-Identifier: BSD-3-Clause
// Formats ranks on several threads and writes them in rank order. Each
// rank's text depends only on the rank (the algorithm is replayed for it
// alone), so ranks format independently; the calling thread writes the
// finished texts 0, 1, 2, ... while workers format the next ones. Memory
// holds two texts per worker; with one worker a rank's text is written in
// chunks of kStreamedChunkBytes as it is formatted, so a caller whose ranks
// are GBs each asks for one thread.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

#include "collectives/schedule_text.hpp"

namespace pico::schedule_text {

inline constexpr std::size_t kStreamedChunkBytes = std::size_t{16} << 20;

// Fills `text` (empty on entry) with rank `rank`'s part. Runs on a worker
// thread, one call per rank; `worker` in [0, threads) names the thread, so
// per-thread state (a RankSchedule, say) can be indexed by it.
using FormatRank = std::function<void(int worker, int rank, TextBuffer& text)>;
// Receives the ranks' texts, on the calling thread, in rank order (a rank in
// several pieces where one thread streams it).
using WriteText = std::function<void(std::string_view text)>;

// threads = 0: one per hardware thread. An exception from `format` or
// `write` stops the workers and is rethrown here.
void format_ranks_in_order(int np, int threads, const FormatRank& format, const WriteText& write);

// How many workers format_ranks_in_order uses for `threads` and np ranks.
int worker_count(int np, int threads);

}  // namespace pico::schedule_text
