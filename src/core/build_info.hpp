// SPDX-License-Identifier: BSD-3-Clause
// Facts about this build, fixed at configure time, recorded in every report.
#pragma once

#include <string_view>

namespace pico::build {

extern const std::string_view version;
extern const std::string_view git_hash;
extern const std::string_view compiler;
extern const std::string_view cxx_flags;
extern const std::string_view build_type;
extern const std::string_view source_dir;
extern const std::string_view embedded_local_platform;  // platforms/local.yaml as built

}  // namespace pico::build
