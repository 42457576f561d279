// SPDX-License-Identifier: BSD-3-Clause
// `pico report --format term`: the HTML page's answers for a login node
// without a browser. The summary (per size the fastest algorithm, the
// default and what it loses) and, per collective and process count with two
// or more algorithms, every algorithm against the fastest at each size; in
// colour where the output is a terminal, fitted to its width.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace pico {

// width: the columns a line may take (at least 40 are used); names longer
// than their share are cut with "..", and sizes that do not fit beside the
// names go on to a further block of the same rows. `reproducibility`: the
// report's reproducibility line (analysis/reproducibility.hpp), wrapped to the width.
std::string render_terminal(const nlohmann::json& report, std::size_t width, bool colour,
                            const std::string& reproducibility = "");

}  // namespace pico
