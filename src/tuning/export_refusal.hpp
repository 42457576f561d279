// SPDX-License-Identifier: BSD-3-Clause
// A profile that a library's tuning input cannot carry as the library would
// act on it. Raised by the export writers (src/export) and by the one
// resolution of what a loaded profile makes the library run
// (tuning/exported_choice.hpp), which every verb reads: both refuse alike.
#pragma once

#include <stdexcept>
#include <string>

#include "tuning/profile.hpp"

namespace pico {

// The format's name and the profile's path are added by export_profile.
struct ExportRefusal : std::runtime_error {
  ExportRefusal(std::string message, std::string hint);
  std::string hint;
};

// "allreduce np 4 (1x4)" for messages.
std::string describe(const ProfileRule& rule);

}  // namespace pico
