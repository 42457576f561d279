// SPDX-License-Identifier: BSD-3-Clause
// The CSV of NCCL's example tuner plugin (NCCL_TUNER_CONFIG_FILE):
// coll,min_bytes,max_bytes,algo,proto,channels,nNodes,nRanks, lowercase,
// inclusive bytes, -1 = any; the first matching row wins. Unknown strings
// silently become allreduce/ring/simple, so every name comes from the
// catalogue; every version returns one channel unless the row sets it, so
// every row carries an explicit channel count. Ranges left to the default
// get no row (NCCL's own model decides).
#include <fmt/format.h>

#include "collectives/spec.hpp"
#include "export/export_format.hpp"
#include "export/export_support.hpp"
#include "export/nccl_names.hpp"

namespace pico {

namespace {

std::uint64_t nccl_factor(const ProfileRule& rule) {
  return size_factor(spec_for(rule.collective).names.nccl_size, rule.comm_size);
}

std::string protocol_of(const ProfileRule& rule, const ProfileRange& range, const NcclChoice& choice) {
  if (!choice.proto.empty()) return choice.proto == "Simple" ? "simple" : choice.proto == "LL" ? "ll" : "ll128";
  // NVLS and CollNet run the Simple protocol only.
  if (choice.algo.starts_with("NVLS") || choice.algo.starts_with("CollNet")) return "simple";
  throw ExportRefusal(fmt::format("{}: '{}' let NCCL pick the protocol when pico measured it, but a tuner row must "
                                  "name one (an unnamed one reads as simple)",
                                  describe(rule), range.algorithm),
                      fmt::format("sweep {0}_ll, {0}_ll128 and {0}_simple and tune from those", range.algorithm));
}

int channels_of(const ProfileRule& rule, const ProfileRange& range, const FormatArgs& args) {
  if (auto it = range.params.find("channels"); it != range.params.end()) return static_cast<int>(it->second);
  if (const auto channels = args.integer("nccl-channels")) return static_cast<int>(*channels);
  throw ExportRefusal(fmt::format("{}: no channel count for {} (the plugin would run one channel)", describe(rule),
                                  range.algorithm),
                      "give --nccl-channels N (e.g. what NCCL_DEBUG=INFO reports as nChannels)");
}

std::string write(const TunedProfile& profile, const FormatArgs& args) {
  std::string rows = "# coll,min_bytes,max_bytes,algo,proto,channels,nNodes,nRanks\n";
  for (const ProfileRule& rule : profile.rules) {
    require_covering(rule);
    for (const ProfileRange& range : rule.ranges) {
      if (range.algorithm == "default") continue;
      const NcclChoice choice = nccl_choice(profile, rule, range);
      const LibraryRange r = library_range(rule, range, nccl_factor(rule));
      rows += fmt::format("{},{},{},{},{},{},{},{}\n", nccl_collective(rule), r.min,
                          r.max ? std::to_string(*r.max) : "-1", nccl_csv_name(choice.algo),
                          protocol_of(rule, range, choice), channels_of(rule, range, args), rule.nodes,
                          rule.comm_size);
    }
  }
  return rows;
}

std::string how_to_load(const TunedProfile&, const FormatArgs&, const std::string& file) {
  return fmt::format(
      "Load it with NCCL's example tuner plugin (build ext-tuner/example, or plugins/tuner/example from 2.29.7;\n"
      "its 2.28.3-2.29.7 versions crash when loaded, fixed in 2.30):\n"
      "  export NCCL_TUNER_PLUGIN=/path/to/libnccl-tuner-example.so NCCL_TUNER_CONFIG_FILE={}\n"
      "  NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,TUNING shows \"Loaded N tuning configurations\" and each applied row.\n",
      file.empty() ? "FILE" : file);
}

constexpr FormatFlag kFlags[] = {
    {"nccl-channels", "channels for rules that carry none (1 to 64)", FlagKind::integer, 1, 64},
};

}  // namespace

extern const ExportFormat kNcclTunerFormat{
    .name = "nccl-tuner",
    .library = "nccl",
    .description = "NCCL example tuner plugin CSV (explicit channels)",
    .flags = kFlags,
    .directory = false,
    .write = one_file<write>,
    .how_to_load = how_to_load,
    .loading = nullptr};

}  // namespace pico
