// SPDX-License-Identifier: BSD-3-Clause
// NCCL_ALGO / NCCL_PROTO with per-collective lists (NCCL 2.24+):
// NCCL_ALGO="allreduce:tree;broadcast:ring". One choice per collective for
// every size and communicator: a profile that chooses by size (or leaves
// some sizes to the default) cannot be said this way and is refused.
#include <map>

#include <fmt/format.h>

#include "export/export_format.hpp"
#include "export/export_support.hpp"
#include "export/nccl_names.hpp"

namespace pico {

namespace {

std::string write(const TunedProfile& profile, const FormatArgs&) {
  std::map<std::string, std::pair<NcclChoice, std::string>> per_collective;  // collective -> choice, its algorithm
  std::map<std::string, bool> has_default;
  for (const ProfileRule& rule : profile.rules) {
    require_covering(rule);
    const std::string coll = nccl_collective(rule);
    for (const ProfileRange& range : rule.ranges) {
      if (range.algorithm == "default") {
        has_default[coll] = true;
        continue;
      }
      const NcclChoice c = nccl_choice(profile, rule, range);
      auto [it, fresh] = per_collective.try_emplace(coll, c, range.algorithm);
      if (!fresh && it->second.second != range.algorithm)
        throw ExportRefusal(fmt::format("{}: the profile chooses {} and {} by size, but NCCL_ALGO sets one algorithm "
                                        "per collective",
                                        describe(rule), it->second.second, range.algorithm),
                            "export --format nccl-tuner (rules per size)");
    }
  }
  std::string algo, proto;
  for (const auto& [coll, choice] : per_collective) {
    if (has_default[coll])
      throw ExportRefusal(fmt::format("{}: the profile keeps NCCL's default at some sizes and {} at others; NCCL_ALGO "
                                      "would force {} everywhere",
                                      coll, choice.second, choice.second),
                          "export --format nccl-tuner (rules per size)");
    algo += fmt::format("{}{}:{}", algo.empty() ? "" : ";", coll, nccl_csv_name(choice.first.algo));
    if (!choice.first.proto.empty())
      proto += fmt::format("{}{}:{}", proto.empty() ? "" : ";", coll, choice.first.proto);
  }
  std::string out = "# pico export --format nccl-env: source this file before starting the job\n";
  if (!algo.empty()) out += fmt::format("export NCCL_ALGO=\"{}\"\n", algo);
  if (!proto.empty()) out += fmt::format("export NCCL_PROTO=\"{}\"\n", proto);
  if (algo.empty()) out += "# the profile keeps NCCL's default everywhere: nothing to set\n";
  return out;
}

std::string how_to_load(const TunedProfile&, const FormatArgs&, const std::string& file) {
  return fmt::format("Load it (NCCL 2.24+ for per-collective lists) before the job starts:\n  . {}\n",
                     file.empty() ? "FILE" : file);
}

}  // namespace

extern const ExportFormat kNcclEnvFormat{
    .name = "nccl-env",
    .library = "nccl",
    .description = "per-collective NCCL_ALGO / NCCL_PROTO (NCCL 2.24+)",
    .flags = {},
    .directory = false,
    .write = one_file<write>,
    .how_to_load = how_to_load,
    .loading = nullptr};

}  // namespace pico
