// SPDX-License-Identifier: BSD-3-Clause
#include "export/nccl_names.hpp"

#include <map>

#include <fmt/format.h>

#include "config/catalog.hpp"
#include "export/export_support.hpp"

namespace pico {

NcclChoice nccl_choice(const TunedProfile& profile, const ProfileRule& rule, const ProfileRange& range) {
  const AlgorithmEntry& e = catalogue_entry(catalog_for("nccl"), profile, rule, range);
  NcclChoice c{e.value, ""};
  if (auto it = e.env.find("NCCL_PROTO"); it != e.env.end()) c.proto = it->second;
  return c;
}

std::string nccl_collective(const ProfileRule& rule) {
  return tool_name(rule, &ToolNames::nccl_tuner, "NCCL chooses no algorithm");
}

std::string nccl_csv_name(const std::string& algo) {
  static const std::map<std::string, std::string> names{
      {"Ring", "ring"},           {"Tree", "tree"},           {"NVLS", "nvls"},          {"NVLSTree", "nvls_tree"},
      {"CollNetDirect", "collnet_direct"}, {"CollNetChain", "collnet_chain"}, {"PAT", "pat"}};
  if (auto it = names.find(algo); it != names.end()) return it->second;
  throw ExportRefusal(fmt::format("NCCL algorithm '{}' has no tuner name", algo), "");
}

}  // namespace pico
