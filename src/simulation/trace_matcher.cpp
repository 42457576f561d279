// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/trace_matcher.hpp"

#include <string>

#include <fmt/format.h>

#include "support/input_error.hpp"

namespace pico {
namespace {

[[noreturn]] void fail(const TraceProgram& out, int r, int line, const std::string& what, const std::string& hint) {
  throw InputError(out.ranks[static_cast<std::size_t>(r)].file, line, 0, what, hint);
}

}  // namespace

void MessageMatcher::send(const PostedMessage& p) {
  Channel& c = channels_[{p.comm, p.rank, p.peer}];
  if (p.tag != vcollective_tag) c.sends.push_back(sends_.size());  // a wildcard tag takes none of a collective's
  c.by_tag[p.tag].push_back(sends_.size());
  sources_[{p.comm, p.peer}].insert(p.rank);
  sends_.push_back(p);
}

std::size_t MessageMatcher::receive(const PostedMessage& p) {
  auto& posted = recvs_[static_cast<std::size_t>(p.rank)];
  posted.push_back(p);
  return posted.size() - 1;
}

std::size_t MessageMatcher::cancel(int rank, std::size_t receive) {
  PostedMessage& p = recvs_[static_cast<std::size_t>(rank)][receive];
  p.cancelled = true;
  return p.op;
}

// The first unmatched send of channel c a receive with `tag` takes.
std::optional<std::size_t> MessageMatcher::first_match(Channel& c, std::int64_t tag) const {
  if (tag == any_tag) {
    while (c.first < c.sends.size() && matched_[c.sends[c.first]]) ++c.first;
    if (c.first == c.sends.size()) return std::nullopt;
    return c.sends[c.first];
  }
  const auto it = c.by_tag.find(tag);
  if (it == c.by_tag.end()) return std::nullopt;
  while (!it->second.empty() && matched_[it->second.front()]) it->second.pop_front();
  if (it->second.empty()) return std::nullopt;
  return it->second.front();
}

void MessageMatcher::match(TraceProgram& out) {
  matched_.assign(sends_.size(), 0);
  std::vector<std::size_t> send_message(sends_.size());
  for (std::size_t dst = 0; dst < recvs_.size(); ++dst) {
    const int d = static_cast<int>(dst);
    for (const PostedMessage& recv : recvs_[dst]) {
      if (recv.cancelled) continue;
      std::optional<std::size_t> best;
      auto consider = [&](int src) {
        const auto ch = channels_.find({recv.comm, src, d});
        if (ch == channels_.end()) return;
        const auto s = first_match(ch->second, recv.tag);
        if (s && (!best || sends_[*s].start_us < sends_[*best].start_us)) best = s;
      };
      if (recv.peer >= 0) {
        consider(recv.peer);
      } else if (const auto srcs = sources_.find({recv.comm, d}); srcs != sources_.end()) {
        for (const int src : srcs->second) consider(src);
      }
      if (!best)
        fail(out, d, recv.line,
             fmt::format("no send matches this receive (from {}, tag {})",
                         recv.peer < 0 ? std::string("any source") : fmt::format("rank {}", recv.peer),
                         recv.tag == any_tag ? std::string("any") : std::to_string(recv.tag)),
             "the traces of one run hold a send for every receive");
      matched_[*best] = 1;
      const PostedMessage& send = sends_[*best];
      // A v-collective's two sides name one message by their own counts: MPI requires them to agree, and a
      // replay of either would move bytes the other never sent or took.
      if (recv.tag == vcollective_tag && send.bytes != recv.bytes)
        fail(out, d, recv.line,
             fmt::format("this rank's counts take {} B from rank {}, whose counts send it {} B in the same "
                         "v-collective call (its line {})",
                         recv.bytes, send.rank, send.bytes, send.line),
             "the sender's and the receiver's counts of a v-collective must agree, as MPI requires");
      const std::size_t m = out.messages.size();
      out.messages.push_back(TraceMessage{send.rank, d, send.bytes});
      out.ranks[dst].ops[recv.op].index = m;
      send_message[*best] = m;
    }
  }
  for (std::size_t k = 0; k < sends_.size(); ++k) {
    const PostedMessage& s = sends_[k];
    if (!matched_[k])
      fail(out, s.rank, s.line, fmt::format("no receive matches this send (to rank {}, tag {})", s.peer, s.tag),
           "the traces of one run hold a receive for every send");
    out.ranks[static_cast<std::size_t>(s.rank)].ops[s.op].index = send_message[k];
  }
}

}  // namespace pico
