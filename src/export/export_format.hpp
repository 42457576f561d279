// SPDX-License-Identifier: BSD-3-Clause
// pico export: a tuned profile written in a library's or a simulator's own
// input. Each format is one descriptor in one file: its name, the profile
// library it accepts, its description, the flags it takes beside --format
// and --output, its writer and how to load what it wrote. The libraries'
// formats are listed in src/export/formats.cpp, the simulators' (above this
// layer) in src/simulation/simulator_exports.cpp; `pico export` registers
// the two lists as one (src/cli/export.cpp), flags and help included. A
// writer refuses (ExportRefusal, InputError) anything the library would
// silently ignore or misread, so a file pico writes is one it acts on.
//
// A format pico run --profile loads into its library also carries how the
// library loads it (ProfileLoading: the versions that read it, its file, the
// variables, how to see it was read), written once: src/launch/profile_loading.cpp
// reads it to set a run's variables and the format's how-to-load text is
// rendered from it.
#pragma once

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/format_args.hpp"
#include "tuning/profile.hpp"

namespace pico {

// What a format wrote: one text (to standard output or -o FILE) or, for a
// format that writes several files, each {name, text} into the directory -o
// names; and what it could not express, for standard error.
struct ExportOutput {
  std::vector<std::pair<std::string, std::string>> files;
  std::vector<std::string> notes;
};

// Environment variables in the order a how-to-load text shows them.
using LoadVariables = std::vector<std::pair<std::string, std::string>>;

struct ProfileLoading {
  // rules: the library's own rules file (one per profile, the first whose
  // versions take the profile's); component: the file of another component,
  // loaded after the rules where the profile chooses one (chooses_component).
  enum class Role { rules, component };
  Role role;
  std::string_view versions;   // the library versions that read it (version_in_range); "" any
  std::string_view file_name;  // its name in a run's results directory
  // The variables that make the library read the file at `file`.
  LoadVariables (*variables)(const TunedProfile& profile, const std::string& file);
  // Variables every launch group of the run needs beside them (ProfileLoad::launch_env); null: none.
  std::map<std::string, std::string> (*launch_env)(const TunedProfile& profile);
  std::string_view check;  // how to see that the library read it, for the text
};

struct ExportFormat {
  std::string_view name;         // --format value
  std::string_view library;      // the profile library it accepts (ProfileLibrary::name); "" = any
  std::string_view description;  // one line, for --help and docs
  std::span<const FormatFlag> flags;
  bool directory;  // writes several files: -o names their directory and is required
  // Throws ExportRefusal (or InputError with its own WHERE) for anything the
  // tool would ignore, misread or abort on.
  // `profile_path` names the profile in errors.
  ExportOutput (*write)(const TunedProfile& profile, const std::string& profile_path, const FormatArgs& args);
  // What to do with the output (a file or, for `directory`, the directory).
  std::string (*how_to_load)(const TunedProfile& profile, const FormatArgs& args, const std::string& output);
  const ProfileLoading* loading;  // how pico run loads it; null: pico run does not
};

// A single-file format's writer from its text function.
template <std::string (*Text)(const TunedProfile&, const FormatArgs&)>
ExportOutput one_file(const TunedProfile& profile, const std::string&, const FormatArgs& args) {
  return {{{"", Text(profile, args)}}, {}};
}

// The libraries' formats, in the order `pico export --help` lists them.
const std::vector<const ExportFormat*>& export_formats();
// The format named among `formats`, or InputError naming the choices (WHERE "--format").
const ExportFormat& export_format(std::string_view name,
                                  const std::vector<const ExportFormat*>& formats = export_formats());

// The formats pico run loads `profile` through: its library's rules format
// (the first whose versions take the profile's) and, where the profile
// chooses another component at some sizes, that component's format after it.
// Empty where pico run loads no format of the profile's library.
std::vector<const ExportFormat*> loading_formats(const TunedProfile& profile);

// " --mca NAME VALUE" for each of the variables (OMPI_MCA_NAME), as mpirun takes them.
std::string mca_flags(const LoadVariables& variables);
// "NAME=VALUE NAME=VALUE", as export takes them.
std::string assignments(const LoadVariables& variables);
// "  export NAME=VALUE" a line each, `first_note` after the first's and `note` after the others' ("" none).
std::string export_lines(const LoadVariables& variables, std::string_view first_note = "", std::string_view note = "");

// The format's output, after checking the profile's library is the format's
// (InputError at `profile_path` otherwise); an ExportRefusal becomes an
// InputError at `profile_path` naming the format.
ExportOutput export_profile(const TunedProfile& profile, const std::string& profile_path, const ExportFormat& format,
                            const FormatArgs& args);

}  // namespace pico
