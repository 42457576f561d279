// SPDX-License-Identifier: BSD-3-Clause
// Writes one rank's Chakra execution trace (ASTRA-sim 2.x's workload input,
// one file per NPU: PREFIX.<rank>.et) as pico replays an application: the
// messages and local reductions of a recorded schedule, point-to-point
// messages, collective nodes ASTRA-sim runs itself, and compute gaps.
//
// The file (schema: simulation/chakra_et.proto) is a GlobalMetadata message,
// then one Node per operation, each preceded by its length as a varint, as
// Chakra's feeder reads it. Dependencies are data_deps, with the same program
// order as the GOAL writer (collectives/goal_writer.hpp): each operation of
// a schedule's step depends on every operation of the step before; the first
// step on what ended the piece before it. Local copies are not written.
//
// Size: ASTRA-sim's network refuses a message of 0 bytes, so a message pico
// records with none (a barrier's) is written as 1 byte.
//
// Time: Chakra's durations are whole microseconds (ASTRA-sim ticks
// nanoseconds and runs a 0 as 1 ns), so a compute gap or a reduction is
// rounded to a whole microsecond, what is rounded off carried into the next
// one of the file: a rank's durations up to any node sum to within 0.5 us of
// the exact ones (a ring's seven 16.4 us reductions: 16, 17, 16, ... not 7 x 16).
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "collectives/transport/recording_transport.hpp"
#include "core/types.hpp"

namespace ChakraProtoMsg {
class Node;
}

namespace pico {

// Chakra's CollectiveCommType of a collective (its spec's names.chakra, parsed
// by the schema's enum); nullopt where an ASTRA-sim workload has no node for it.
std::optional<int> chakra_comm_type(Collective c);

// What an ASTRA-sim collective node says beside its type.
struct ChakraCollective {
  Collective collective = Collective::allreduce;
  std::uint64_t comm_size = 0;  // bytes, as ASTRA-sim reads them (simulation/chakra_replay.cpp)
  std::string pg_name;          // "" for all ranks, else the comm-groups file's id
  // A collective ASTRA-sim has no node for (a broadcast, a gather, ...), run
  // by the custom implementation the custom table names for this node only:
  // written as an ALL_REDUCE node, a type whose own implementation never runs it.
  bool custom_only = false;
};

class ChakraRankWriter {
 public:
  // Opens `path` and writes the GlobalMetadata; ids of the nodes it numbers
  // itself start at `first_id` (collective nodes bring their own, below it).
  // Throws std::runtime_error when the file cannot be written.
  ChakraRankWriter(const std::string& path, std::uint64_t first_id);
  ~ChakraRankWriter();
  ChakraRankWriter(const ChakraRankWriter&) = delete;
  ChakraRankWriter& operator=(const ChakraRankWriter&) = delete;

  // One collective call as recorded for this rank, expanded into sends,
  // receives and reductions. `global_rank` maps the schedule's ranks to the
  // file's ranks (empty: the identity); tags are tag_base + the schedule's.
  void schedule(const transport::RankSchedule& rs, std::uint64_t tag_base, double reduce_ps_per_byte,
                std::span<const int> global_rank = {});
  // The same, started without waiting for it: what follows requires only what
  // came before; returns the nodes that end it, for wait().
  std::vector<std::uint64_t> detached_schedule(const transport::RankSchedule& rs, std::uint64_t tag_base,
                                               double reduce_ps_per_byte, std::span<const int> global_rank = {});
  // A collective node ASTRA-sim runs with its own (or a custom) implementation,
  // with node id `id` (the same on every rank, so that a per-node custom
  // implementation finds it). Blocking: what follows requires it.
  std::uint64_t collective(std::uint64_t id, const ChakraCollective& c, bool blocking);
  // A send (receive) of `bytes` to (from) rank `peer` with tag `tag`.
  std::uint64_t point_to_point(bool send, std::uint64_t bytes, int peer, std::uint64_t tag, bool blocking);
  // MPI_Wait and co.: what follows requires `done` too.
  void wait(std::span<const std::uint64_t> done);
  // A compute gap of `seconds` after what came before (none when it rounds to 0 us).
  void compute(double seconds, const char* name = "compute");
  // Flushes and closes; throws std::runtime_error when the write failed.
  void finish();

  std::uint64_t nodes() const { return nodes_; }

 private:
  ChakraProtoMsg::Node& begin_node(std::uint64_t id, std::string_view name, int type);
  void end_node();
  // A send (receive) node's type and attributes: the peer's rank, the bytes, the tag.
  void message_node(std::uint64_t id, bool send, std::uint64_t bytes, int peer, std::uint64_t tag);

  // The duration of the next compute node in whole microseconds, the rounding carried (above).
  std::uint64_t whole_micros(double seconds);

  std::string path_;
  std::ofstream out_;
  std::uint64_t next_id_;
  std::uint64_t nodes_ = 0;
  std::unique_ptr<ChakraProtoMsg::Node> node_;  // reused for every node
  std::string buffer_;
  std::vector<std::uint64_t> frontier_;  // what the next operation requires
  std::vector<std::uint64_t> step_;
  double rounded_off_us_ = 0;  // exact minus written durations so far
};

}  // namespace pico
