// SPDX-License-Identifier: BSD-3-Clause
// How the worker tells which algorithm a library actually ran for a case
// (the case's selection.actual; docs/verification.md). Decided when the run
// is planned, from the catalogues, and handed to the worker in its launch
// request: the library functions that stand for an algorithm (Open MPI's
// coll/base entry points, seen by the interposer), and per backend where the
// evidence comes from, or why there is none.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "core/types.hpp"

namespace pico {

// A library function that runs one algorithm of one collective.
struct AlgorithmFunction {
  Collective collective = Collective::allreduce;
  std::string algorithm;  // the catalogue's name
  // The coll component it belongs to where that is not the catalogue's own
  // (han, adapt): its function is the algorithm's entry point, and coll/base
  // functions seen beneath it are its parts on sub-communicators.
  std::string component;
};
using AlgorithmFunctions = std::map<std::string, AlgorithmFunction>;  // function name -> what it runs

// Where a backend's selection.actual comes from.
struct RanAlgorithmSource {
  std::string source;  // interposer (the functions seen) | pico (pico's own code) | none
  std::string why;     // none: why nothing shows which algorithm ran
};

nlohmann::json to_json(const AlgorithmFunctions& functions);
AlgorithmFunctions algorithm_functions_from_json(const nlohmann::json& j);
nlohmann::json to_json(const RanAlgorithmSource& s);
RanAlgorithmSource ran_algorithm_source_from_json(const nlohmann::json& j);

}  // namespace pico
