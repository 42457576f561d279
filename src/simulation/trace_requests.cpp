// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/trace_requests.hpp"

#include <utility>

namespace pico {

using liballprof::Record;
using liballprof::Role;

RequestTable::RequestTable(std::vector<std::string> files, std::uint64_t request_bytes)
    : files_(std::move(files)), request_bytes_(request_bytes), ranks_(files_.size()) {}

std::uint32_t RequestTable::start(int r, std::uint64_t address) {
  Rank& s = ranks_[static_cast<std::size_t>(r)];
  const std::uint32_t id = s.count++;
  auto [it, fresh] = s.active.try_emplace(address, id);
  if (!fresh) {  // the variable's request is still active: only a copy of it (or MPI_Test) can complete it now
    s.displaced.push_back(it->second);
    it->second = id;
  }
  s.started.insert(address);
  s.copied.erase(address);
  return id;
}

// A wait naming only variables no request was ever started at (a copy of a request) completes, per such variable,
// the oldest request that can only be completed through a copy: one a later start displaced from its variable,
// else one at a variable no wait has named yet. Where there is none the wait completes nothing: counted, and
// refused unless --unmatched-waits null.
std::vector<std::uint32_t> RequestTable::wait(int r, const Record& rec) {
  Rank& s = ranks_[static_cast<std::size_t>(r)];
  std::vector<std::uint32_t> done;
  std::uint64_t unknown = 0;
  auto finish = [&](std::unordered_map<std::uint64_t, std::uint32_t>::iterator it) {
    done.push_back(it->second);
    s.receive_of.erase(it->second);
    s.active.erase(it);
  };
  auto by_name = [&](std::uint64_t address) {
    s.named.insert(address);
    if (const auto it = s.active.find(address); it != s.active.end()) return finish(it);
    if (s.copied.erase(address))
      return lost(r, rec.line, summary_.contradicted, "its request was completed earlier by a wait through a copy");
    if (!s.started.contains(address)) ++unknown;
  };
  const std::uint64_t n = rec.role == Role::wait ? 1 : rec.count;
  const std::uint64_t step = rec.role == Role::wait ? 0 : request_bytes_;
  if (rec.role != Role::waitany) {
    for (std::uint64_t k = 0; k < n; ++k) by_name(rec.request + k * step);
  } else {  // waitany, waitsome: the oldest active request of the array
    std::optional<std::pair<std::uint32_t, std::uint64_t>> oldest;
    for (std::uint64_t k = 0; k < n; ++k) {
      const std::uint64_t a = rec.request + k * step;
      s.named.insert(a);
      if (const auto it = s.active.find(a); it != s.active.end() && (!oldest || it->second < oldest->first))
        oldest = std::pair{it->second, a};
      else if (it == s.active.end() && !s.started.contains(a))
        unknown = 1;
    }
    if (oldest) finish(s.active.find(oldest->second));
  }
  if (done.empty())
    for (std::uint64_t k = 0; k < unknown; ++k) {
      if (const auto id = take_copied(s)) {
        done.push_back(*id);
        ++summary_.through_copy;
      } else {
        lost(r, rec.line, summary_.lost, "no request was started at its variable, and none is left for a copy");
        break;
      }
    }
  return done;
}

// The oldest request only a copy can complete now (see wait()).
std::optional<std::uint32_t> RequestTable::take_copied(Rank& s) {
  std::optional<std::uint32_t> best;
  auto at = s.active.end();
  if (!s.displaced.empty()) best = s.displaced.front();
  for (auto it = s.active.begin(); it != s.active.end(); ++it)
    if (!s.named.contains(it->first) && (!best || it->second < *best)) {
      best = it->second;
      at = it;
    }
  if (!best) return std::nullopt;
  if (at != s.active.end()) {
    s.copied.insert(at->first);
    s.active.erase(at);
  } else {
    s.displaced.pop_front();
  }
  s.receive_of.erase(*best);
  return best;
}

void RequestTable::lost(int r, int line, std::uint64_t& counter, const char* why) {
  if (counter++ == 0 && summary_.first_file.empty()) {
    summary_.first_file = files_[static_cast<std::size_t>(r)];
    summary_.first_line = line;
    summary_.first_why = why;
  }
}

// A receive not yet matched matches nothing (pico assumes the cancel succeeded; were the receive matched, its send
// is left without a receive and refused). A send or a collective is replayed as made: Open MPI cannot cancel a
// send once started, and liballprof does not record MPI_Test_cancelled's answer.
std::optional<std::size_t> RequestTable::cancel(int r, std::uint64_t address) {
  Rank& s = ranks_[static_cast<std::size_t>(r)];
  const auto it = s.active.find(address);
  if (it == s.active.end()) return std::nullopt;  // done or null: nothing to cancel
  const auto k = s.receive_of.find(it->second);
  if (k == s.receive_of.end()) {
    ++summary_.uncancelled;
    return std::nullopt;
  }
  const std::size_t receive = k->second;
  s.receive_of.erase(k);
  ++summary_.cancelled;
  return receive;
}

}  // namespace pico
