// SPDX-License-Identifier: BSD-3-Clause
// MPICH 4.x collective selection JSON: the library's whole default tree
// (a file replaces it entirely; a missing collective aborts that collective)
// with each tuned collective's intra-communicator subtree swapped for
//
//   "is_op_built_in=no": <default>      (reductions: user ops keep the default; some algorithms assert on them;
//                                        reduce_scatter's "is_commutative=no": csel.c has no is_op_built_in for it)
//   "comm_size<N": <default>            (other communicator sizes keep it)
//   "comm_size<=N": {"avg_msg_size<=HI": {algorithm or <default>}, ..., "avg_msg_size=any": {...}}
//   "comm_size=any": <default>
//
// Siblings are tried in file order, the first match wins, "<=" is inclusive
// and every chain ends in "=any".
#include <algorithm>
#include <climits>

#include <fmt/format.h>

#include "core/types.hpp"
#include "collectives/spec.hpp"
#include "export/export_format.hpp"
#include "export/export_support.hpp"
#include "export/mpich_defaults.hpp"

namespace pico {

extern const ExportFormat kMpichCh4JsonFormat;  // mpich_ch4_json.cpp: the compositions' tree

namespace {

struct MpichKey {
  std::string function;  // MPIR_<Function>_intra_<algorithm>
  std::string size_key;  // avg_msg_size (bytes per rank) or total_msg_size
  std::uint64_t factor;
};

// MPICH's message keys (the descriptor's mpich_*, from src/mpi/coll/src/csel.c):
// avg_msg_size exists only for allreduce, bcast, reduce and alltoall (per-peer
// bytes); allgather has total_msg_size (x comm size); gather and scatter count
// elements, which a profile keyed on bytes cannot say.
MpichKey mpich_key(const ProfileRule& rule) {
  const ToolNames& n = spec_for(rule.collective).names;
  if (n.mpich_size == SizeBasis::untuned)
    throw ExportRefusal(fmt::format("{}: MPICH's selection tree has no byte size for {} (only {})", describe(rule),
                                    name(rule.collective), collective_names(
                                        [](const CollectiveSpec& s) { return !s.names.mpich_csel.empty(); }, "and")),
                        "leave it out of the profile for mpich-json");
  return {std::string(n.mpich_csel), std::string(n.mpich_size_key), size_factor(n.mpich_size, rule.comm_size)};
}

nlohmann::ordered_json leaf(const std::string& algorithm) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  j["algorithm=" + algorithm] = nlohmann::ordered_json::object();
  return j;
}

nlohmann::ordered_json tuned_chain(const TunedProfile& profile, const ProfileRule& rule,
                                   const nlohmann::ordered_json& default_intra, const MpichDefaults& defaults) {
  const Catalog& catalog = catalog_for("mpich");
  const MpichKey key = mpich_key(rule);
  nlohmann::ordered_json chain = nlohmann::ordered_json::object();
  for (const ProfileRange& range : rule.ranges) {
    nlohmann::ordered_json target = default_intra;
    // A ch4 composition (mpich-ch4-json) ran MPICH's own MPIR choice on its pieces, as here.
    const bool composition =
        range.algorithm != "default" && !catalogue_entry(catalog, profile, rule, range).component.empty();
    if (range.algorithm != "default" && !composition) {
      if (!range.params.empty())
        throw ExportRefusal(fmt::format("{}: {} carries parameters the MPICH tree cannot set here", describe(rule),
                                        range.algorithm),
                            "tune MPICH algorithms without parameters");
      const std::string function =
          fmt::format("MPIR_{}_intra_{}", key.function, catalogue_entry(catalog, profile, rule, range).value);
      if (!defaults.library_bytes.empty() && defaults.library_bytes.find(function) == std::string::npos)
        throw ExportRefusal(fmt::format("{}: {} does not know {} (MPICH aborts at MPI_Init on an unknown algorithm)",
                                        describe(rule), defaults.source, function),
                            "tune with the MPICH version you export for");
      target = leaf(function);
    }
    const LibraryRange r = library_range(rule, range, key.factor);
    if (!r.max) {
      chain[key.size_key + "=any"] = target;
    } else {
      if (*r.max > static_cast<std::uint64_t>(INT_MAX))
        throw ExportRefusal(fmt::format("{}: MPICH reads sizes with atoi; {} B is past 2^31-1", describe(rule), *r.max),
                            "tune sizes below 2 GiB for mpich-json");
      chain[fmt::format("{}<={}", key.size_key, *r.max)] = target;
    }
  }
  return chain;
}

std::string write(const TunedProfile& profile, const FormatArgs& args) {
  MpichDefaults defaults = load_mpich_defaults(args.text("mpich-defaults"), args.text("mpich-library"));
  // A rule choosing only ch4 compositions (and the default) leaves the MPIR tree as the library has it:
  // the compositions ran MPICH's own MPIR choice (mpich-ch4-json chooses them).
  const Catalog& catalog = catalog_for("mpich");
  auto rules = rules_by_collective(profile);
  std::erase_if(rules, [&](const ProfileRule* rule) {
    return std::none_of(rule->ranges.begin(), rule->ranges.end(), [&](const ProfileRange& range) {
      return range.algorithm != "default" && catalogue_entry(catalog, profile, *rule, range).component.empty();
    });
  });
  swap_tuned_subtrees(
      defaults, rules,  // some algorithms assert on user ops; csel.c asks reduce_scatter only is_commutative
      [](Collective c) { return spec_for(c).names.mpich_op_guard; },
      [&](const ProfileRule& rule, const nlohmann::ordered_json& default_intra) {
        return tuned_chain(profile, rule, default_intra, defaults);
      },
      "give MPICH's own tree with --mpich-defaults");
  return defaults.tree.dump(1) + "\n";
}

LoadVariables variables(const TunedProfile&, const std::string& file) {
  return {{"MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE", file}};
}

// Read with the ch4 tree (mpich-ch4-json) where the profile chooses a composition.
const ProfileLoading kLoading{.role = ProfileLoading::Role::rules,
                              .versions = "",
                              .file_name = "tuned-selection.json",
                              .variables = variables,
                              .launch_env = nullptr,
                              .check = "read at MPI_Init; any error there aborts"};

std::string how_to_load(const TunedProfile& profile, const FormatArgs&, const std::string& file) {
  const std::string own = export_lines(variables(profile, file.empty() ? "FILE" : file));
  if (chooses_component(profile)) {
    const ExportFormat& ch4 = kMpichCh4JsonFormat;
    return fmt::format(
        "Load it in MPICH {} beside the profile's {} export, which chooses the compositions\n"
        "({}, so a run that starts has read them):\n{}{}",
        profile.library.version, ch4.name, kLoading.check, own,
        export_lines(ch4.loading->variables(profile, "CH4_SELECTION"), fmt::format("pico export --format {}", ch4.name)));
  }
  return fmt::format(
      "Load it in MPICH {} ({}, so a run that starts has read it):\n{}"
      "  export MPIR_CVAR_DEVICE_COLLECTIVES=none   # as pico measured: the ch4 device's own tree would run first\n"
      "The file replaces MPICH's whole tree (it holds the defaults of the library it was made from);\n"
      "a forced MPIR_CVAR_<COLL>_INTRA_ALGORITHM other than auto bypasses it.\n",
      profile.library.version, kLoading.check, own);
}

constexpr FormatFlag kFlags[] = {
    {"mpich-defaults", "MPICH's default selection tree (default: read from the installed libmpich)", FlagKind::text, 0, 0},
    {"mpich-library", "the libmpich.so.12 to read the default tree from", FlagKind::text, 0, 0},
};

}  // namespace

extern const ExportFormat kMpichJsonFormat{
    .name = "mpich-json",
    .library = "mpich",
    .description = "MPICH selection tree: the library's defaults with the tuned subtrees swapped in",
    .flags = kFlags,
    .directory = false,
    .write = one_file<write>,
    .how_to_load = how_to_load,
    .loading = &kLoading};

}  // namespace pico
