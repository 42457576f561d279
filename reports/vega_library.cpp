// SPDX-License-Identifier: BSD-3-Clause
#include "reports/vega_library.hpp"

#include <array>
#include <cstdlib>

#include "support/input_error.hpp"
#include "support/whole_file.hpp"

namespace pico {

std::filesystem::path vega_library_dir() {
  const char* env = std::getenv("PICO_VEGA_DIR");
  if (env != nullptr && *env != '\0') return env;
  return PICO_VEGA_DIR;
}

VegaLibrary load_vega_library() {
  const std::filesystem::path dir = vega_library_dir();
  VegaLibrary library;
  const std::array<std::pair<const char*, std::string*>, 3> files = {{{"vega/build/vega.min.js", &library.vega},
                                                                     {"vega-lite/build/vega-lite.min.js", &library.vega_lite},
                                                                     {"vega-embed/build/vega-embed.min.js", &library.vega_embed}}};
  constexpr const char* kHint =
      "run scripts/setup-vega.sh (npm installs the pinned vega, vega-lite and vega-embed into "
      "third_party/vega/node_modules), or point PICO_VEGA_DIR at a node_modules directory holding them";
  // Each is under 1 MiB; the bound and the reader's refusal of FIFOs and
  // devices keep a wrong PICO_VEGA_DIR from hanging or filling memory.
  constexpr std::uintmax_t kMaxLibraryFileBytes = 64 * kMiB;
  for (const auto& [relative, text] : files) {
    const std::filesystem::path path = dir / relative;
    *text = read_whole_file(path, kMaxLibraryFileBytes, "the HTML report's plotting library", kHint);
    if (text->empty()) throw InputError(path.string(), "the HTML report's plotting library is empty", kHint);
  }
  return library;
}

}  // namespace pico
