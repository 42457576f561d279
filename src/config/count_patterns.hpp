// SPDX-License-Identifier: BSD-3-Clause
// The experiment's `count_matrix` key: the count-matrix patterns alltoallv
// cases sweep (collectives/count_matrix.hpp; docs/configuration.md#count-matrices).
#pragma once

#include <string>
#include <vector>

#include "config/yaml_reader.hpp"

namespace pico {

// Each item is a pattern name (its defaults) or a map {pattern: NAME, ...its
// keys}; the result is the patterns' canonical texts, in order, without
// repeats. A file pattern's path is resolved from the experiment file's
// directory and its matrix read now for every process count, so that a
// malformed file fails the load with its line and column. Throws InputError.
std::vector<std::string> parse_count_patterns(const yaml::Value& v, const std::vector<int>& processes);
// One pattern (a name or a map), for a collective on `ranks` ranks (a
// workload call): its canonical text; a hot rank outside the ranks or a file
// of another size fails at the item.
std::string parse_count_pattern_item(const yaml::Value& item, int ranks);

}  // namespace pico
