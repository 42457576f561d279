// SPDX-License-Identifier: BSD-3-Clause
// The worker's side of the Open MPI interposer (instrumentation/ompi_interposer,
// docs/verification.md): reset its counters before a case's calls, read which
// functions ran after them (coll/base's, han's and adapt's entry points), and
// name the algorithm that did the work.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ran_algorithm.hpp"
#include "core/types.hpp"

struct pico_interposer_table;

namespace pico {

struct FunctionCalls {
  std::string function;
  std::uint64_t calls = 0;
};

class InterposerProbe {
 public:
  // The interposer preloaded into this process, or nullopt with why not in `why_not`.
  static std::optional<InterposerProbe> find(std::string& why_not);
  // Zeroes every counter: no allocation, a few hundred bytes written.
  void reset();
  // The functions called since the last reset, in the order of their first call.
  std::vector<FunctionCalls> seen() const;

 private:
  explicit InterposerProbe(const pico_interposer_table* table) : table_(table) {}
  const pico_interposer_table* table_;
};

// What the functions seen say ran for a call of `collective`.
struct RanAlgorithm {
  std::string algorithm;               // the catalogue's name; "" when no catalogued function of the collective ran
  std::vector<std::string> functions;  // every function seen, in call order, as "name x calls"
  std::string note;
  std::string handed_back_by;  // the component algorithm that ran some calls and handed the rest back; "" if none
};

// Of the functions seen that run an algorithm of `collective`, the last one
// entered: an algorithm that cannot run a case delegates to another (Open
// MPI's segmented ring to its ring, the ring to recursive doubling when count
// < np), and that one does the work. Functions of other collectives (the
// reduce and bcast that `nonoverlapping` calls) and helpers the catalogue
// does not name (bcast's generic tree) are listed but never chosen. Where the
// entry point of another component (Open MPI's han, adapt) ran at each of the
// `calls` calls made, that component's algorithm is what ran: coll/base
// functions after it are its steps on sub-communicators (han's intra-node
// bcast through tuned, once per segment). Entered fewer times, it handed the
// communicator back to the previous component (han's fallback), and what ran
// is the last coll/base algorithm entered.
RanAlgorithm ran_algorithm(const std::vector<FunctionCalls>& seen, const AlgorithmFunctions& functions,
                           Collective collective, std::int64_t calls);

}  // namespace pico
