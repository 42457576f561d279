// SPDX-License-Identifier: BSD-3-Clause
// The table of the libraries' export formats: adding one is a file defining
// its ExportFormat (src/export/<format>.cpp) and one line here.
#include <fmt/format.h>

#include "config/catalog.hpp"
#include "export/export_format.hpp"
#include "export/export_support.hpp"
#include "support/input_error.hpp"

namespace pico {

extern const ExportFormat kOmpiRulesFormat, kOmpiHanRulesFormat, kOmpiJsonFormat, kMpichJsonFormat,
    kMpichCh4JsonFormat, kUccTuneFormat, kNcclTunerFormat, kNcclEnvFormat, kIntelMpiFormat;

const std::vector<const ExportFormat*>& export_formats() {
  static const std::vector<const ExportFormat*> formats{
      &kOmpiRulesFormat, &kOmpiHanRulesFormat, &kOmpiJsonFormat, &kMpichJsonFormat, &kMpichCh4JsonFormat,
      &kUccTuneFormat,   &kNcclTunerFormat,   &kNcclEnvFormat,  &kIntelMpiFormat,
  };
  return formats;
}

std::vector<const ExportFormat*> loading_formats(const TunedProfile& profile) {
  const auto loadable = [&](const ExportFormat* f, ProfileLoading::Role role) {
    return f->loading && f->library == profile.library.name && f->loading->role == role;
  };
  std::vector<const ExportFormat*> out;
  for (const ExportFormat* f : export_formats())
    if (loadable(f, ProfileLoading::Role::rules) &&
        version_in_range(profile.library.version, std::string(f->loading->versions))) {
      out.push_back(f);
      break;
    }
  if (out.empty() || !chooses_component(profile)) return out;
  for (const ExportFormat* f : export_formats())
    if (loadable(f, ProfileLoading::Role::component)) {
      out.push_back(f);
      break;
    }
  return out;
}

std::string mca_flags(const LoadVariables& variables) {
  std::string out;
  for (const auto& [name, value] : variables)
    out += fmt::format(" --mca {} {}", std::string_view(name).substr(name.starts_with("OMPI_MCA_") ? 9 : 0), value);
  return out;
}

std::string assignments(const LoadVariables& variables) {
  std::string out;
  for (const auto& [name, value] : variables) out += fmt::format("{}{}={}", out.empty() ? "" : " ", name, value);
  return out;
}

std::string export_lines(const LoadVariables& variables, std::string_view first_note, std::string_view note) {
  std::string out;
  for (const auto& [name, value] : variables) {
    const std::string_view after = out.empty() ? first_note : note;
    out += fmt::format("  export {}={}{}{}\n", name, value, after.empty() ? "" : "   # ", after);
  }
  return out;
}

const ExportFormat& export_format(std::string_view format, const std::vector<const ExportFormat*>& formats) {
  return find_format(format, formats, "export");
}

ExportOutput export_profile(const TunedProfile& profile, const std::string& profile_path, const ExportFormat& format,
                            const FormatArgs& args) {
  if (!format.library.empty() && profile.library.name != format.library)
    throw InputError(profile_path,
                     fmt::format("the profile is for {} {}, but --format {} writes {}'s input", profile.library.name,
                                 profile.library.version, format.name, format.library),
                     fmt::format("tune reports of {} for this format, or pick a format for {}", format.library,
                                 profile.library.name));
  try {
    return format.write(profile, profile_path, args);
  } catch (const ExportRefusal& e) {
    throw InputError(profile_path, fmt::format("--format {}: {}", format.name, e.what()), e.hint);
  }
}

}  // namespace pico
