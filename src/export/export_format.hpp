// SPDX-License-Identifier: BSD-3-Clause
// pico export: a tuned profile written in a library's own tuning input.
// Each format is one descriptor in one file (src/export/<format>.cpp) and
// one line in the table (src/export/formats.cpp): its name, the profile
// library it accepts, its writer and how to load what it wrote. A writer
// refuses (InputError) anything the library would silently ignore or
// misread, so a file pico writes is one the library acts on.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tuning/profile.hpp"

namespace pico {

// Format-specific inputs from the command line.
struct ExportOptions {
  std::string mpich_defaults;  // mpich-json: a file with MPICH's default tree; "" = read the installed libmpich
  std::string mpich_library;   // mpich-json: the libmpich to read when no file is given; "" = search the usual places
  std::optional<int> nccl_channels;  // nccl-tuner: channel count for rules that carry none
};

struct ExportFormat {
  std::string_view name;         // --format value
  std::string_view library;      // the profile library (ProfileLibrary::name) it accepts
  std::string_view description;  // one line, for --help and docs
  // The file's text. Throws InputError (WHERE = the profile path) for
  // anything the library would ignore, misread or abort on.
  std::string (*write)(const TunedProfile& profile, const ExportOptions& options);
  // What to do with the file: the variables or flags that load it.
  std::string (*how_to_load)(const TunedProfile& profile, const std::string& file);
};

// Every format, in the order `pico export --help` lists them.
const std::vector<const ExportFormat*>& export_formats();
// The format named, or InputError naming the choices (WHERE "--format").
const ExportFormat& export_format(std::string_view name);

// The format's text, after checking the profile's library is the format's
// (InputError at `profile_path` otherwise).
std::string export_profile(const TunedProfile& profile, const std::string& profile_path, const ExportFormat& format,
                           const ExportOptions& options);

}  // namespace pico
