// SPDX-License-Identifier: BSD-3-Clause
// What a catalogue answers a plan about one algorithm of one collective: how
// the library is made to run it on a given version, or why it cannot; and
// whether a case's size and shape let the library run it as itself. The plan
// asks these two questions and reads nothing else of the catalogue's
// per-collective tables (which call form's variables, constraints, ids).
#pragma once

#include <map>
#include <string>

#include "config/catalog.hpp"
#include "core/case.hpp"
#include "core/rank_placement.hpp"

namespace pico {

struct CatalogChoice {
  const AlgorithmEntry* entry = nullptr;  // null for "default"
  Selection selection;
  std::string skip_reason;  // non-empty: the library cannot run it here
  // Algorithm parameter -> the library variable that sets it (segment_size -> ..._segmentsize).
  std::map<std::string, std::string> parameter_variables;
};

// `algorithm` ("default" or a catalogue name) of `coll` called in `form`, on
// `version` of the catalogue's library; `library_label` names the library and
// version in a skip reason.
CatalogChoice choose(const Catalog& cat, Collective coll, const std::string& algorithm, CallForm form,
                     const std::string& version, const std::string& library_label);

// Why the library would not run the chosen algorithm as itself for case `c`
// with its ranks placed as `placement` says (its collective's, the
// catalogue's and the algorithm's constraints), or "".
std::string constraint_violation(const Catalog& cat, const AlgorithmEntry* entry, const Case& c,
                                 const RankPlacement& placement);

}  // namespace pico
