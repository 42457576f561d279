// SPDX-License-Identifier: BSD-3-Clause
// The plotting libraries the HTML report inlines (vega, vega-lite,
// vega-embed), read at render time from where scripts/setup-vega.sh put them.
#pragma once

#include <filesystem>
#include <string>

namespace pico {

struct VegaLibrary {
  std::string vega, vega_lite, vega_embed;  // each minified script, whole
};

// The node_modules directory holding vega/, vega-lite/ and vega-embed/:
// $PICO_VEGA_DIR when set, else the one configured at build time
// (CMake PICO_VEGA_DIR, default third_party/vega/node_modules of the source tree).
std::filesystem::path vega_library_dir();

// The three minified scripts from vega_library_dir(). Throws
// InputError naming the missing file and how to install it.
VegaLibrary load_vega_library();

}  // namespace pico
