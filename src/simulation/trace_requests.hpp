// SPDX-License-Identifier: BSD-3-Clause
// The requests of a traced program's ranks (simulation/trace_builder.hpp):
// which request each non-blocking call starts, which a wait or a cancel
// reaches. liballprof names a request by its variable's address, so a wait
// names variables; a wait through a copy of a request (C++ codes keep them in
// containers) names a variable no request was started at, and is tied to the
// oldest request only a copy can complete now (docs/simulation.md#traces).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "simulation/liballprof.hpp"
#include "simulation/trace_program.hpp"

namespace pico {

class RequestTable {
 public:
  // files[r]: rank r's trace file (for where a lost wait was); request_bytes: a request array's step.
  RequestTable(std::vector<std::string> files, std::uint64_t request_bytes);

  // A request of rank r started at `address` (a variable) or at none (MPI_Sendrecv's, a v-collective's):
  // its id, the rank's requests counted from 0.
  std::uint32_t start(int r, std::uint64_t address);
  std::uint32_t start_unnamed(int r) { return ranks_[static_cast<std::size_t>(r)].count++; }
  // A request started at `address` and done at once (to MPI_PROC_NULL): a wait on it completes nothing.
  void done_at_once(int r, std::uint64_t address) { ranks_[static_cast<std::size_t>(r)].started.insert(address); }
  // Active request `id` is a non-blocking receive, the matcher's `receive` (what cancel() returns).
  void receive(int r, std::uint32_t id, std::size_t receive) {
    ranks_[static_cast<std::size_t>(r)].receive_of[id] = receive;
  }

  // The requests wait call `rec` (MPI_Wait, MPI_Waitall, MPI_Waitany, MPI_Waitsome) completes; none for
  // MPI_REQUEST_NULL, or a wait pico cannot tie (counted in summary()).
  std::vector<std::uint32_t> wait(int r, const liballprof::Record& rec);
  // MPI_Cancel of the request at `address`: the matcher's receive to cancel, if it is an active receive (a send or
  // a collective is replayed as made, counted in summary()).
  std::optional<std::size_t> cancel(int r, std::uint64_t address);

  std::uint32_t count(int r) const { return ranks_[static_cast<std::size_t>(r)].count; }
  const TraceRequests& summary() const { return summary_; }

 private:
  struct Rank {
    std::uint32_t count = 0;
    std::unordered_map<std::uint64_t, std::uint32_t> active;  // request address -> request
    // Addresses any request was started at, and any wait named; requests whose address a later start took over
    // while they were active; addresses whose request a wait through a copy completed.
    std::unordered_set<std::uint64_t> started, named, copied;
    std::deque<std::uint32_t> displaced;
    std::unordered_map<std::uint32_t, std::size_t> receive_of;  // active non-blocking receive -> the matcher's
  };
  std::optional<std::uint32_t> take_copied(Rank& s);
  void lost(int r, int line, std::uint64_t& counter, const char* why);

  std::vector<std::string> files_;
  std::uint64_t request_bytes_;
  std::vector<Rank> ranks_;
  TraceRequests summary_;
};

// The persistent requests MPI_Send_init and MPI_Recv_init made, per rank and address: MPI_Start posts the
// init's call again, each time as a new request.
class PersistentRequests {
 public:
  explicit PersistentRequests(int ranks) : ranks_(static_cast<std::size_t>(ranks)) {}
  void init(int r, const liballprof::Record& rec) { ranks_[static_cast<std::size_t>(r)][rec.request] = rec; }
  // The init call of the request at `address`; nullptr if none made it.
  const liballprof::Record* find(int r, std::uint64_t address) const {
    const auto& made = ranks_[static_cast<std::size_t>(r)];
    const auto it = made.find(address);
    return it == made.end() ? nullptr : &it->second;
  }

 private:
  std::vector<std::unordered_map<std::uint64_t, liballprof::Record>> ranks_;
};

}  // namespace pico
