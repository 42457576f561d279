// SPDX-License-Identifier: BSD-3-Clause
// The table of the libraries' export formats: adding one is a file defining
// its ExportFormat (src/export/<format>.cpp) and one line here.
#include <fmt/format.h>

#include "core/input_error.hpp"
#include "export/export_format.hpp"
#include "export/export_support.hpp"

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
