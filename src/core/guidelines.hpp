// SPDX-License-Identifier: BSD-3-Clause
// Performance guidelines (Hunold and Traeff; ReproMPI's PGMPI): an MPI
// library's collective should never be slower than a mock-up of it composed
// of the library's own other collectives. Each mock-up is a choice of the mpi
// backend beside the library's algorithms, named "guideline:<composition>",
// run with the library's default algorithms for every call it makes
// (backends/mpi/guideline_backend.hpp) and validated like any case. This
// table is the one list of them: the plan expands `guidelines: true` from it,
// the worker runs what it names, the report pairs each with the default.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/case.hpp"

namespace pico {

inline constexpr std::string_view kGuidelinePrefix = "guideline:";

struct Guideline {
  Collective collective;        // the collective the mock-up stands in for
  std::string_view algorithm;   // "guideline:reduce+bcast": the case's algorithm
  std::string_view composition; // "reduce + bcast": what the report's sentence says
  // How the case's bytes map onto the calls the mock-up makes (n: the case's
  // bytes, one rank's block; p: ranks).
  std::string_view sizes;
  // The calls split the case's count into p blocks: the count must be a multiple of p.
  bool splits_count = false;
};

// The standard set, in the order the report lists guidelines.
std::span<const Guideline> guidelines();
// The mock-up a case's algorithm names, or null (the library's own algorithms).
const Guideline* find_guideline(std::string_view algorithm);
bool is_guideline(std::string_view algorithm);
// The mock-ups of one collective, in table order.
std::span<const Guideline> guidelines_of(Collective c);
// Why the mock-up case `c` cannot run, or "": another collective's mock-up,
// an in-place or non-blocking call (mock-ups compose blocking out-of-place
// calls), a count the mock-up cannot split into p blocks, or a buffer past
// MPI's int counts.
std::string guideline_skip_reason(const Case& c);

}  // namespace pico
