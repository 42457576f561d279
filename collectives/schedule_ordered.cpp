// SPDX-License-Identifier: BSD-3-Clause
#include "collectives/schedule_ordered.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace pico::schedule_text {
namespace {

// Rank r goes through slot r mod (2 x workers): worker w formats ranks w,
// w + K, w + 2K, ... and alternates between its two slots, so it formats
// one rank while the writer is still writing its previous one.
struct Slot {
  TextBuffer text;
  int rank = -1;  // the rank whose text is ready in it; -1: free
};

class OrderedRun {
 public:
  OrderedRun(int np, int workers, const FormatRank& format)
      : np_(np), workers_(workers), format_(format), slots_(static_cast<std::size_t>(2 * workers)) {}

  void worker(int w) {
    try {
      for (int r = w; r < np_; r += workers_) {
        Slot& slot = slot_of(r);
        {
          std::unique_lock lock(mutex_);
          changed_.wait(lock, [&] { return slot.rank == -1 || stop_; });
          if (stop_) return;
        }
        slot.text.clear();  // free: only this worker touches it until it is handed over
        format_(w, r, slot.text);
        std::lock_guard lock(mutex_);
        slot.rank = r;
        changed_.notify_all();
      }
    } catch (...) {
      fail(std::current_exception());
    }
  }

  // On the calling thread: rank texts in order, each handed to `write`.
  void write_all(const WriteText& write) {
    try {
      for (int r = 0; r < np_; ++r) {
        Slot& slot = slot_of(r);
        {
          std::unique_lock lock(mutex_);
          changed_.wait(lock, [&] { return slot.rank == r || stop_; });
          if (stop_) return;
        }
        write(slot.text.view());
        std::lock_guard lock(mutex_);
        slot.rank = -1;
        changed_.notify_all();
      }
    } catch (...) {
      fail(std::current_exception());
    }
  }

  void fail(std::exception_ptr e) {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = e;
    stop_ = true;
    changed_.notify_all();
  }

  std::exception_ptr error() const { return error_; }

 private:
  Slot& slot_of(int rank) { return slots_[static_cast<std::size_t>(rank % (2 * workers_))]; }

  int np_;
  int workers_;
  const FormatRank& format_;
  std::vector<Slot> slots_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool stop_ = false;
  std::exception_ptr error_;
};

}  // namespace

int worker_count(int np, int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max(1, std::min(threads, np));
}

void format_ranks_in_order(int np, int threads, const FormatRank& format, const WriteText& write) {
  const int workers = worker_count(np, threads);
  if (workers == 1) {  // no threads to start: format and write in turn, streamed in chunks
    TextBuffer text = TextBuffer::draining(write, kStreamedChunkBytes);
    for (int r = 0; r < np; ++r) {
      text.clear();
      format(0, r, text);
      text.drain();
    }
    return;
  }
  OrderedRun run(np, workers, format);
  {
    std::vector<std::jthread> pool;  // joined when the scope ends
    pool.reserve(static_cast<std::size_t>(workers));
    try {
      for (int w = 0; w < workers; ++w) pool.emplace_back([&run, w] { run.worker(w); });
    } catch (...) {  // a thread that did not start: stop the others
      run.fail(std::current_exception());
    }
    run.write_all(write);
  }
  if (run.error()) std::rethrow_exception(run.error());
}

}  // namespace pico::schedule_text
