// SPDX-License-Identifier: BSD-3-Clause
// MPICH 4.0's ch4 selection tree (MPIR_CVAR_CH4_COLL_SELECTION_TUNING_JSON_FILE):
// how the ch4 device splits a call by node before the MPIR level's algorithm
// runs on the pieces. A profile choosing a composition at some sizes
// (configs/catalog/mpich.yaml, `component: ch4_*`) loads this beside
// mpich-json, with MPIR_CVAR_DEVICE_COLLECTIVES=all. The library's whole
// default tree, with each tuned collective that has compositions given
//
//   "is_commutative=no": <default>      (reductions: pico tuned a commutative op)
//   "comm_size<N": <default>
//   "comm_size<=N": {"avg_msg_size<=HI": <range>, ..., "avg_msg_size=any": <range>}
//   "comm_size=any": <default>
//
// where a range that chose a composition is
//   {"comm_hierarchy=parent": {"composition=MPIDI_<Coll>_intra_<letter>": {}}, "comm_hierarchy=any": <default>}
// (a composition on a node's own sub-communicator, which has no node structure,
// computes wrong results: seen with a scan whose MPIR algorithm bcasts on
// node sub-communicators), a range that chose an MPIR algorithm is the
// collective's `flat` composition (the whole call to MPIR, whose tree
// mpich-json writes), and `default` is <default>.
#include <cctype>
#include <climits>
#include <vector>

#include <fmt/format.h>

#include "collectives/spec.hpp"
#include "config/catalog.hpp"
#include "core/types.hpp"
#include "export/export_format.hpp"
#include "export/export_support.hpp"
#include "export/mpich_defaults.hpp"

namespace pico {

extern const ExportFormat kMpichJsonFormat;  // mpich_json.cpp: the rules file it is read beside

namespace {

nlohmann::ordered_json composition(const ProfileRule& rule, const std::string& algorithm,
                                   const MpichDefaults& defaults) {
  std::string coll(name(rule.collective));  // MPICH's spelling: MPIDI_Reduce_scatter_..., MPIDI_Barrier_...
  coll.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(coll.front())));
  const std::string function = fmt::format("MPIDI_{}_intra_{}", coll, algorithm);
  if (!defaults.library_bytes.empty() && defaults.library_bytes.find(function) == std::string::npos)
    throw ExportRefusal(fmt::format("{}: {} does not know {} (MPICH aborts at MPI_Init on an unknown composition)",
                                    describe(rule), defaults.source, function),
                        "tune with the MPICH version you export for");
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  j["composition=" + function] = nlohmann::ordered_json::object();
  return j;
}

// The composition of the collective that hands the whole call to MPIR's algorithm.
const AlgorithmEntry& flat_composition(const Catalog& catalog, const TunedProfile& profile, const ProfileRule& rule) {
  for (const std::string& name : catalog.algorithm_names(rule.collective, profile.library.version))
    if (const AlgorithmEntry* e = catalog.find(rule.collective, name); e != nullptr && e->flat) return *e;
  throw ExportRefusal(fmt::format("{}: the catalogue marks no composition of {} as flat", describe(rule),
                                  name(rule.collective)),
                      "mark the one that hands the call to MPIR with `flat: true` (configs/catalog/mpich.yaml)");
}

nlohmann::ordered_json range_target(const Catalog& catalog, const TunedProfile& profile, const ProfileRule& rule,
                                    const ProfileRange& range, const nlohmann::ordered_json& default_intra,
                                    const MpichDefaults& defaults) {
  if (range.algorithm == "default") return default_intra;
  const AlgorithmEntry& entry = catalogue_entry(catalog, profile, rule, range);
  require_placement(catalog, rule, range, entry);
  if (entry.component.empty())  // an MPIR algorithm: mpich-json chooses it once ch4 hands over the whole call
    return composition(rule, flat_composition(catalog, profile, rule).name, defaults);
  nlohmann::ordered_json target = nlohmann::ordered_json::object();
  target["comm_hierarchy=parent"] = composition(rule, entry.name, defaults);
  target["comm_hierarchy=any"] = default_intra;
  return target;
}

nlohmann::ordered_json tuned_chain(const Catalog& catalog, const TunedProfile& profile, const ProfileRule& rule,
                                   const nlohmann::ordered_json& default_intra, const MpichDefaults& defaults) {
  const CollectiveSpec& spec = spec_for(rule.collective);
  if (!spec.has_payload) {  // barrier: one range, no size to key on
    if (rule.ranges.size() != 1)
      throw ExportRefusal(fmt::format("{} has {} ranges; a call without a payload has one", describe(rule),
                                      rule.ranges.size()),
                          "tune barrier as one range");
    return range_target(catalog, profile, rule, rule.ranges.front(), default_intra, defaults);
  }
  if (spec.names.mpich_size == SizeBasis::untuned || spec.names.mpich_size_key.empty())
    throw ExportRefusal(fmt::format("{}: MPICH's selection tree has no byte size for {}", describe(rule),
                                    name(rule.collective)),
                        "leave it out of the profile for mpich-ch4-json");
  const std::string size_key(spec.names.mpich_size_key);
  nlohmann::ordered_json chain = nlohmann::ordered_json::object();
  for (const ProfileRange& range : rule.ranges) {
    const nlohmann::ordered_json target = range_target(catalog, profile, rule, range, default_intra, defaults);
    const LibraryRange r = library_range(rule, range, size_factor(spec.names.mpich_size, rule.comm_size));
    if (!r.max) {
      chain[size_key + "=any"] = target;
    } else {
      if (*r.max > static_cast<std::uint64_t>(INT_MAX))
        throw ExportRefusal(fmt::format("{}: MPICH reads sizes with atoi; {} B is past 2^31-1", describe(rule), *r.max),
                            "tune sizes below 2 GiB for mpich-ch4-json");
      chain[fmt::format("{}<={}", size_key, *r.max)] = target;
    }
  }
  return chain;
}

// Whether the catalogue has compositions for the collective (on the profile's version).
bool has_compositions(const Catalog& catalog, const TunedProfile& profile, Collective c) {
  for (const std::string& name : catalog.algorithm_names(c, profile.library.version))
    if (const AlgorithmEntry* e = catalog.find(c, name); e != nullptr && !e->component.empty()) return true;
  return false;
}

// ExportRefusal unless the catalogue has ch4 compositions on the profile's version: without them the tree
// would be MPICH's own, every tuned choice dropped.
void require_compositions(const Catalog& catalog, const TunedProfile& profile) {
  for (const auto& [collective, entries] : catalog.collectives)
    if (has_compositions(catalog, profile, collective)) return;
  std::string versions;
  for (const auto& [collective, entries] : catalog.collectives)
    for (const AlgorithmEntry& e : entries.algorithms)
      if (!e.component.empty() && versions.find(e.versions) == std::string::npos)
        versions += (versions.empty() ? "" : ", ") + e.versions;
  throw ExportRefusal(fmt::format("the catalogue ({}) has no ch4 compositions for MPICH {} (it has them for {}), so "
                                  "the file would be MPICH's own tree with every tuned choice dropped",
                                  catalog.source_path, profile.library.version,
                                  versions.empty() ? "no version" : versions),
                      "tune on an MPICH the catalogue's compositions cover, or export --format mpich-json alone");
}

std::string write(const TunedProfile& profile, const FormatArgs& args) {
  const Catalog& catalog = catalog_for("mpich");
  require_compositions(catalog, profile);
  // Every choice names an algorithm of the profile's version (catalogue_entry refuses the others), also in the
  // collectives the ch4 tree leaves to MPIR: mpich-json refuses the same profile.
  for (const ProfileRule& rule : profile.rules)
    for (const ProfileRange& range : rule.ranges)
      if (range.algorithm != "default") catalogue_entry(catalog, profile, rule, range);
  MpichDefaults defaults = load_mpich_defaults(args.text("mpich-ch4-defaults"), args.text("mpich-library"),
                                               MpichTree::ch4);
  auto rules = rules_by_collective(profile);
  // A collective without compositions: ch4 hands it to MPIR as the library does.
  std::erase_if(rules, [&](const ProfileRule* rule) { return !has_compositions(catalog, profile, rule->collective); });
  swap_tuned_subtrees(
      defaults, rules, [](Collective) { return std::string_view("is_commutative=no"); },
      [&](const ProfileRule& rule, const nlohmann::ordered_json& default_intra) {
        return tuned_chain(catalog, profile, rule, default_intra, defaults);
      },
      "give MPICH's own ch4 tree with --mpich-ch4-defaults");
  return defaults.tree.dump(1) + "\n";
}

// How MPICH loads a ch4 tree: the catalogue's composition components all set
// the same variable (the file) and the same launch variables.
const ComponentSelection& ch4_selection() { return catalog_for("mpich").components.at("ch4_alpha"); }

// The tree's file, then the launch variables it needs (the ch4 device's collectives on).
LoadVariables variables(const TunedProfile&, const std::string& file) {
  LoadVariables out{{ch4_selection().variable, file}};
  for (const auto& [name, value] : ch4_selection().env) out.emplace_back(name, value);
  return out;
}

std::map<std::string, std::string> launch_env(const TunedProfile&) { return ch4_selection().env; }

// Read after the rules (mpich-json) where the profile chooses a composition.
const ProfileLoading kLoading{.role = ProfileLoading::Role::component,
                              .versions = "",
                              .file_name = "ch4-selection.json",
                              .variables = variables,
                              .launch_env = launch_env,
                              .check = "read at MPI_Init; any error there aborts"};

std::string how_to_load(const TunedProfile& profile, const FormatArgs&, const std::string& file) {
  const ExportFormat& tuned = kMpichJsonFormat;
  LoadVariables own = variables(profile, file.empty() ? "FILE" : file);
  const LoadVariables launch(own.begin() + 1, own.end());
  own.resize(1);
  return fmt::format(
      "Load it in MPICH {} beside the profile's {} export (both {}):\n{}{}{}"
      "The file replaces the ch4 device's whole tree (it holds the defaults of the library it was made from).\n",
      profile.library.version, tuned.name, kLoading.check, export_lines(own),
      export_lines(tuned.loading->variables(profile, "TUNED_SELECTION"), fmt::format("pico export --format {}", tuned.name)),
      export_lines(launch, "the ch4 device's tree is read only then", "the ch4 device's tree is read only then"));
}

constexpr FormatFlag kFlags[] = {
    {"mpich-ch4-defaults", "MPICH's default ch4 selection tree (default: read from the installed libmpich)",
     FlagKind::text, 0, 0},
    {"mpich-library", "the libmpich.so.12 to read the default tree from", FlagKind::text, 0, 0},
};

}  // namespace

extern const ExportFormat kMpichCh4JsonFormat{
    .name = "mpich-ch4-json",
    .library = "mpich",
    .description = "MPICH ch4 composition tree: the library's defaults with the tuned compositions swapped in",
    .flags = kFlags,
    .directory = false,
    .write = one_file<write>,
    .how_to_load = how_to_load,
    .loading = &kLoading};

}  // namespace pico
