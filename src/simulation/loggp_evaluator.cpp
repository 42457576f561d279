// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/loggp_evaluator.hpp"

#include "collectives/pair_exchange.hpp"
#include "simulation/size_bands.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

namespace pico {

using transport::OpKind;
using transport::RankSchedule;

std::uint64_t evaluate_loggp(const reference::ScheduleRequest& req, const LogGPParams& model) {
  const std::vector<RankSchedule> ranks = reference::record_all(req);
  const LogGPParams p = model.bands.empty() ? model : model.for_message(largest_message(ranks.front()));
  PairExchanges pairs;
  const auto n = ranks.size();
  struct State {
    std::size_t begin = 0;     // first op of the current step
    double ready = 0;          // when the current step may start
    double step_end = 0;       // latest end among its finished ops
    double cpu = 0, nic = 0;   // when the CPU and the NIC (sending) are next free
    double nic_in = 0;         // when the NIC is next free to receive
    std::vector<char> done;    // per op of the current step
  };
  std::vector<State> s(n);
  // (src, dst, tag) -> the first bytes' arrivals of messages in flight; a drained channel is
  // dropped, so memory follows the messages in flight, not the p^2 channels of an alltoall.
  struct Key {
    int src, dst, tag;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      return std::hash<std::uint64_t>()((static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.src)) << 32 |
                                         static_cast<std::uint32_t>(k.dst)) * 0x9E3779B97F4A7C15ull ^
                                        static_cast<std::uint32_t>(k.tag));
    }
  };
  struct Queue {  // FIFO; most channels hold one message at a time, which a deque's 512-byte block wastes
    std::vector<double> arrivals;
    std::size_t head = 0;
  };
  std::unordered_map<Key, Queue, KeyHash> channel;
  const auto L = static_cast<double>(p.L), o = static_cast<double>(p.o), G = static_cast<double>(p.G),
             O = static_cast<double>(p.O);
  std::size_t finished = 0;
  for (std::size_t r = 0; r < n; ++r)
    if (ranks[r].ops.empty()) ++finished;
  while (finished < n) {
    bool progress = false;
    for (std::size_t r = 0; r < n; ++r) {
      const auto& ops = ranks[r].ops;
      State& st = s[r];
      while (st.begin < ops.size()) {
        std::size_t end = st.begin;
        while (end < ops.size() && ops[end].step == ops[st.begin].step) ++end;
        st.done.resize(end - st.begin, 0);
        if (p.exchange_factor != 1) pairs.scan(ops.data() + st.begin, ops.data() + end);
        bool blocked = false;
        // Sends and reductions first, then receives: the step's operations are
        // concurrent, and a receive waiting for its message holds no CPU.
        for (std::size_t k = 0; k < 2 * (end - st.begin); ++k) {
          const std::size_t i = st.begin + k % (end - st.begin);
          const bool receives = k >= end - st.begin;
          char& d = st.done[i - st.begin];
          if (d || receives != (ops[i].kind == OpKind::recv)) continue;
          const auto& op = ops[i];
          double t = 0;
          if (op.kind == OpKind::copy) {
            t = st.ready;
          } else if (op.kind == OpKind::reduce) {
            st.cpu = std::max(st.cpu, st.ready) + static_cast<double>(op.bytes) * p.reduce_ps_per_byte;
            t = st.cpu;
          } else if (op.kind == OpKind::send) {
            const auto bytes = static_cast<double>(std::max<std::uint64_t>(pairs.charged_bytes(op, p.exchange_factor), 1) - 1);
            const double begin = std::max(st.cpu, st.ready);
            st.cpu = begin + o + bytes * O;
            const double start = std::max(st.nic, begin + o);  // the first byte leaves
            st.nic = start + bytes * G;
            channel[{static_cast<int>(r), op.peer, op.tag}].arrivals.push_back(start + L);
            t = st.cpu;
          } else {
            const auto it = channel.find({op.peer, static_cast<int>(r), op.tag});
            if (it == channel.end()) {
              blocked = true;
              continue;
            }
            Queue& q = it->second;
            const double arrival = q.arrivals[q.head];
            // The receiving NIC takes the bytes as they come, one message at a
            // time; the CPU copies them out at O per byte where that is slower.
            const auto bytes = static_cast<double>(std::max<std::uint64_t>(pairs.charged_bytes(op, p.exchange_factor), 1) - 1);
            const double first = std::max(st.nic_in, arrival);
            st.nic_in = first + bytes * G;
            st.cpu = std::max(st.cpu, std::max(st.ready, first + bytes * std::max(G, O))) + o;
            if (++q.head == q.arrivals.size()) channel.erase(it);
            t = st.cpu;
          }
          d = 1;
          st.step_end = std::max(st.step_end, t);
          progress = true;
        }
        if (blocked) break;
        st.begin = end;
        st.ready = st.step_end;
        st.done.clear();
        if (st.begin == ops.size()) ++finished;
      }
    }
    if (!progress && finished < n)
      throw std::logic_error(fmt::format("{} {} on {} ranks: a receive no send matches", name(req.collective),
                                         req.algorithm, req.np));
  }
  double latest = 0;
  for (const State& st : s) latest = std::max(latest, st.step_end);
  return static_cast<std::uint64_t>(std::llround(latest));
}

}  // namespace pico
