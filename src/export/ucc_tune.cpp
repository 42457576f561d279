// SPDX-License-Identifier: BSD-3-Clause
// UCC's UCC_TL_UCP_TUNE string: '#'-separated tokens, each ':'-separated
// qualifiers: collective, memory type (host), team sizes [N], message range
// start-end (end exclusive, "inf" for none, as UCC's own examples chain
// 0-64k#64k-inf), score (inf: always preferred) and @algorithm. An unknown
// algorithm or memory type drops the WHOLE string, so names are checked to
// be plain identifiers; ranges left to the default get no token.
#include <fmt/format.h>

#include "collectives/spec.hpp"
#include "export/export_format.hpp"
#include "export/export_support.hpp"

namespace pico {

namespace {

// UCC's message size: destination count x type size (the descriptor's ucc_size).
std::uint64_t ucc_factor(const ProfileRule& rule) {
  return size_factor(spec_for(rule.collective).names.ucc_size, rule.comm_size);
}

bool plain_identifier(const std::string& s) {
  if (s.empty()) return false;
  for (char ch : s)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_')) return false;
  return true;
}

std::string write(const TunedProfile& profile, const FormatArgs&) {
  std::string tokens;
  for (const ProfileRule* rule : rules_by_collective(profile)) {
    require_covering(*rule);
    for (const ProfileRange& range : rule->ranges) {
      if (range.algorithm == "default") continue;
      if (!plain_identifier(range.algorithm) || !range.params.empty())
        throw ExportRefusal(fmt::format("{}: '{}'{} is not a UCC algorithm name UCC_TL_UCP_TUNE can carry (an "
                                        "unknown one drops the whole string)",
                                        describe(*rule), range.algorithm, range.params.empty() ? "" : " with parameters"),
                            "use UCC's names: `ucc_info -A` lists them");
      const std::string collective = tool_name(*rule, &ToolNames::ucc, "UCC has no collective");
      const LibraryRange r = library_range(*rule, range, ucc_factor(*rule));
      tokens += fmt::format("{}{}:host:[{}]:{}-{}:inf:@{}", tokens.empty() ? "" : "#", collective,
                            rule->comm_size, r.min, r.max ? std::to_string(*r.max + 1) : "inf", range.algorithm);
    }
  }
  return tokens + "\n";
}

std::string how_to_load(const TunedProfile&, const FormatArgs&, const std::string& file) {
  return fmt::format(
      "Load it in UCC (Open MPI's coll/ucc, or any UCC user):\n"
      "  export UCC_TL_UCP_TUNE=\"$(cat {})\"\n"
      "  mpirun --mca coll_ucc_enable 1 --mca coll_ucc_priority 100 ...\n"
      "UCC_LOG_LEVEL=info prints the score map it built; an invalid string is dropped whole\n"
      "(\"failed to parse UCC_*_TUNE parameter\").\n",
      file.empty() ? "FILE" : file);
}

}  // namespace

extern const ExportFormat kUccTuneFormat{
    .name = "ucc-tune",
    .library = "ucc",
    .description = "UCC_TL_UCP_TUNE string (UCC's TL/UCP scores)",
    .flags = {},
    .directory = false,
    .write = one_file<write>,
    .how_to_load = how_to_load,
    .loading = nullptr};

}  // namespace pico
