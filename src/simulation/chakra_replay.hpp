// SPDX-License-Identifier: BSD-3-Clause
// pico replay --format chakra: an application (a trace program, or a workload
// through simulation/workload_program.hpp) as ASTRA-sim 2.x runs it, with
// each collective call run by the algorithm pico chose for it:
//
//   PREFIX.<rank>.et         the workload, one Chakra trace per NPU
//   PREFIX.system.json       the system: per collective type the native
//                            implementation most of the world's calls chose,
//                            one chunk per collective, and the custom table
//   PREFIX.custom.yaml       per-node-custom-implementation: node id -> trace
//   PREFIX.custom/NAME.<r>.et  pico's reference schedule of a chosen algorithm
//                            ASTRA-sim does not run natively, one per size
//   PREFIX.comm-groups.json  --comm-group-configuration, where calls run on groups
//   PREFIX.network.yml, PREFIX.memory.json  from the model (as pico export)
//
// Each collective call becomes one of:
//   native   a collective node ASTRA-sim's own implementation runs, where it
//            is the chosen algorithm at the same cost (ring; recursive
//            doubling's all-gather; the linear all-to-all) and can run it
//            (no 0-byte message, halvingDoubling on a power of two, one
//            native sub-communicator per NPU and type), on the world or a group;
//   custom   any other call of the world: a collective node given pico's
//            schedule of it through the custom table (ASTRA-sim selects an
//            implementation per node this way only), on an all-reduce node
//            where ASTRA-sim has no node for the collective (broadcast, reduce,
//            gather, scatter, barrier, scans, alltoallv);
//   expanded the schedule's sends, receives and reductions written into the
//            workload itself: any other call of a group (a group's custom
//            implementation is looked up once per type, not per call).
// A collective node has the same id on every rank (its index among the
// program's collective calls), which the custom table names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "simulation/loggp_model.hpp"
#include "simulation/trace_program.hpp"

namespace pico {

struct ChakraReplayOptions {
  std::string prefix;                        // the files' common path prefix
  std::uint64_t segment_bytes = 64 * 1024;   // for segmented algorithms
  // The network file's bandwidth and latency, and the cost of a local
  // reduction (reduce_ps_per_byte) on both paths: pico's schedules charge it
  // in their compute nodes, ASTRA-sim's own implementations through the
  // system file's local-mem-bw (simulation/simulator_exports.hpp).
  LogGPModel model;
};

struct ChakraReplayOutput {
  std::vector<std::string> files;  // every file written, in order
  std::uint64_t native = 0, custom = 0, expanded = 0;  // collective calls by form
  std::uint64_t custom_traces = 0;  // distinct custom implementations written
  std::vector<std::string> notes;   // the system's choices and what is approximated
  std::string command;              // the ASTRA-sim command line that runs them (shell-quoted)
};

// ASTRA-sim's comm_size of a collective node of `bytes` per rank block on np
// ranks (its spec's names.chakra_size): each NPU's input buffer, as
// ASTRA-sim's implementations divide it (all-gather: one block; reduce-scatter
// and all-to-all: p blocks; all-reduce: the vector).
std::uint64_t astra_comm_size(Collective c, std::uint64_t bytes, int np);

// Throws InputError when a file cannot be written.
ChakraReplayOutput write_chakra_replay(const TraceProgram& t, const std::vector<std::string>& algorithms,
                                       const ChakraReplayOptions& o);

}  // namespace pico
