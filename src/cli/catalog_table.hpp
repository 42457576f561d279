// SPDX-License-Identifier: BSD-3-Clause
// The algorithm catalogues as a text table (pico list algorithms) or as the
// Markdown that docs/algorithms.md embeds and a test keeps in step.
#pragma once

#include <string>

namespace pico {

// library / collective: "" = all. version: only the algorithms a library of that version has ("" = every version).
std::string render_algorithms_text(const std::string& library, const std::string& collective,
                                   const std::string& version = "");
std::string render_algorithms_markdown(const std::string& library, const std::string& collective,
                                       const std::string& version = "");

}  // namespace pico
