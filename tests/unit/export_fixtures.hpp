// SPDX-License-Identifier: BSD-3-Clause
// What the export tests share: the folder of the goldens and of the libraries'
// own default trees (tests/data/export/), and the MPICH export's arguments that
// name those trees.
#pragma once

#include <string>

#include "export/export_format.hpp"

namespace pico::test {

inline const std::string kExportDir = std::string(PICO_TEST_DATA_DIR) + "/export/";

inline FormatArgs mpich_options(const std::string& mpir_tree = "mpich-4.0.2-defaults.json",
                                const std::string& ch4_tree = "mpich-4.0.2-ch4-defaults.json") {
  FormatArgs o;
  o.set("mpich-defaults", kExportDir + mpir_tree);
  o.set("mpich-ch4-defaults", kExportDir + ch4_tree);
  return o;
}

}  // namespace pico::test
