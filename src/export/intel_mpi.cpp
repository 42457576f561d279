// SPDX-License-Identifier: BSD-3-Clause
// Intel MPI's I_MPI_ADJUST_<COLL> strings (documentation only; not run
// here): "<id>:<l>-<m>@<p>-<q>;..." with inclusive message-byte ranges l-m
// and process counts p-q. Intel numbers its algorithms per collective; a
// profile for Intel MPI names them by those ids. Ranges left to the default
// get no entry; an unbounded range ends at 2147483647, and one starting past
// it is refused (it would be written with its start above its end).
#include <climits>
#include <map>

#include <fmt/format.h>

#include "export/export_format.hpp"
#include "export/export_support.hpp"

namespace pico {

namespace {

std::string variable_of(const ProfileRule& rule) {
  return tool_name(rule, &ToolNames::intel_mpi_adjust, "Intel MPI has no I_MPI_ADJUST");
}

bool all_digits(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

std::string write(const TunedProfile& profile, const FormatArgs&) {
  std::map<std::string, std::string> per_variable;
  for (const ProfileRule& rule : profile.rules) {
    require_covering(rule);
    for (const ProfileRange& range : rule.ranges) {
      if (range.algorithm == "default") continue;
      if (!all_digits(range.algorithm) || !range.params.empty())
        throw ExportRefusal(fmt::format("{}: '{}' is not an Intel MPI algorithm id", describe(rule), range.algorithm),
                            "Intel MPI profiles name algorithms by their I_MPI_ADJUST ids (1, 2, ...)");
      // Intel's message size for these is the per-process buffer: pico's bytes.
      const LibraryRange r = library_range(rule, range, 1);
      if (r.min > static_cast<std::uint64_t>(INT_MAX))
        throw ExportRefusal(fmt::format("{}: the range of {} starts at {} B, past Intel MPI's largest message size "
                                        "(2147483647 B)",
                                        describe(rule), range.algorithm, r.min),
                            "keep the library default above 2 GiB, or tune sizes below it, for intel-mpi");
      std::string& v = per_variable[variable_of(rule)];
      v += fmt::format("{}{}:{}-{}@{}-{}", v.empty() ? "" : ";", range.algorithm, r.min,
                       r.max ? std::min<std::uint64_t>(*r.max, INT_MAX) : INT_MAX, rule.comm_size,
                       rule.comm_size);
    }
  }
  std::string out = "# pico export --format intel-mpi: source this file before mpirun\n";
  for (const auto& [variable, value] : per_variable) out += fmt::format("export {}=\"{}\"\n", variable, value);
  if (per_variable.empty()) out += "# the profile keeps Intel MPI's default everywhere: nothing to set\n";
  return out;
}

std::string how_to_load(const TunedProfile&, const FormatArgs&, const std::string& file) {
  return fmt::format("Load it before mpirun:\n  . {}\n  I_MPI_DEBUG=6 prints the algorithms Intel MPI chose.\n",
                     file.empty() ? "FILE" : file);
}

}  // namespace

extern const ExportFormat kIntelMpiFormat{
    .name = "intel-mpi",
    .library = "intelmpi",
    .description = "Intel MPI I_MPI_ADJUST_<COLL> strings",
    .flags = {},
    .directory = false,
    .write = one_file<write>,
    .how_to_load = how_to_load,
    .loading = nullptr};

}  // namespace pico
