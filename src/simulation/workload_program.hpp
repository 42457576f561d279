// SPDX-License-Identifier: BSD-3-Clause
// A workload (simulation/workload.hpp) as a trace program
// (simulation/trace_program.hpp): every rank's calls of every iteration in
// order, each group's collective call one entry (so every member names the
// same call), each hop of a pipeline shift one message. What a writer that
// takes a program needs from a workload (pico replay --format chakra); the
// GOAL writer streams a workload itself, without holding every iteration.
#pragma once

#include <string>
#include <vector>

#include "simulation/trace_program.hpp"
#include "simulation/workload.hpp"

namespace pico {

struct WorkloadProgram {
  TraceProgram program;
  std::vector<std::string> algorithms;  // per program collective: its call's algorithm
};

// `call_algorithms`: one per workload call (choose_algorithms). A call on
// groups of one rank writes nothing; its compute gap carries to the next call.
WorkloadProgram workload_program(const Workload& w, const std::vector<std::string>& call_algorithms);

}  // namespace pico
