// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/profile_choice.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "collectives/reference/algorithms.hpp"
#include "config/data_files.hpp"
#include "config/yaml_reader.hpp"
#include "support/input_error.hpp"
#include "tuning/exported_choice.hpp"

namespace pico {

namespace {
constexpr const char* kEquivalentsFile = "configs/simulation/reference-equivalents.yaml";
}

ReferenceEquivalents load_reference_equivalents(const std::string& library, const std::string& where) {
  std::string path;
  for (const auto& candidate : data_file_candidates(kEquivalentsFile))
    if (std::filesystem::exists(candidate)) {
      path = candidate.string();
      break;
    }
  if (path.empty()) throw InputError(kEquivalentsFile, "not found", "reinstall pico: it is one of its data files");
  const yaml::Value doc = yaml::Value::parse_document(read_config_file(path, "the reference equivalents", ""), path);
  ReferenceEquivalents eq{library, {}};
  std::vector<std::string> libraries;
  for (const auto& [lib, table] : doc.as_entries("reference equivalents")) {
    const std::string lib_name = lib.as_string("library");
    libraries.push_back(lib_name);
    if (lib_name != library) continue;
    for (const auto& [coll, algorithms] : table.as_entries("library")) {
      const auto c = parse_collective(coll.as_string("collective"));
      if (!c) coll.fail(fmt::format("unknown collective '{}'", coll.as_string("collective")));
      for (const auto& [from, to] : algorithms.as_entries("collective")) {
        const std::string ref = to.as_string("reference algorithm");
        if (!reference_algorithm_exists(*c, ref)) to.fail(fmt::format("no reference {} algorithm '{}'", name(*c), ref));
        eq.map[{*c, from.as_string("algorithm")}] = ref;
      }
    }
  }
  if (library != "reference" && std::find(libraries.begin(), libraries.end(), library) == libraries.end())
    throw InputError(where, fmt::format("a profile for {}, whose algorithms pico has no reference equivalents for", library),
                     fmt::format("profiles of {} and of pico's reference algorithms replay; "
                                 "add the library to {}", yaml::join(libraries), kEquivalentsFile));
  return eq;
}

std::string reference_equivalent(const ReferenceEquivalents& eq, Collective c, const std::string& algorithm) {
  if (reference_algorithm_exists(c, algorithm)) return algorithm;
  if (auto it = eq.map.find({c, algorithm}); it != eq.map.end()) return it->second;
  return "";
}

namespace {

// What a call runs, in the library's names, and whether it is what the library's default ran there; "" or
// "default" where the profile says nothing (the fallback decides).
struct RangeAlgorithm {
  std::string library;
  bool default_ran = false;
};
using RangeReading = RangeAlgorithm (*)(const ExportedRule& applied, std::uint64_t bytes);

// The choice function reading each call with `read` from the rule the profile's export applies to the call's
// communicator (loaded_rule: what predict reports and the library runs), as a reference algorithm; InputError
// where the library algorithm has no reference equivalent.
AlgorithmChoice reference_choice(const TunedProfile& p, ReferenceEquivalents eq, std::string where,
                                 AlgorithmChoice fallback, RangeReading read) {
  // Shared, so that the cached rules point into the profile whichever copy of the function asks (the replay
  // asks from one thread).
  auto profile = std::make_shared<const TunedProfile>(p);
  auto applied = std::make_shared<std::map<std::pair<Collective, int>, ExportedRule>>();  // one resolution per size
  return [profile, applied, eq = std::move(eq), where = std::move(where), fallback = std::move(fallback), read](
             Collective c, int np, std::uint64_t bytes) -> std::string {
    auto it = applied->find({c, np});
    if (it == applied->end()) it = applied->emplace(std::pair{c, np}, loaded_rule(*profile, where, c, np)).first;
    const RangeAlgorithm a = it->second.range_for(bytes) != nullptr ? read(it->second, bytes) : RangeAlgorithm{};
    if (a.library.empty() || a.library == "default") return fallback(c, np, bytes);
    std::string ref = reference_equivalent(eq, c, a.library);
    if (ref.empty())
      throw InputError(where, fmt::format("the profile {} {} {} for {} bytes on {} ranks, which has no reference "
                                          "equivalent", a.default_ran ? "says the library's default ran" : "chooses",
                                          name(c), a.library, bytes, np),
                       "add it to configs/simulation/reference-equivalents.yaml");
    return ref;
  };
}

}  // namespace

AlgorithmChoice profile_choice(const TunedProfile& p, ReferenceEquivalents eq, std::string where,
                               AlgorithmChoice fallback) {
  return reference_choice(p, std::move(eq), std::move(where), std::move(fallback),
                          [](const ExportedRule& applied, std::uint64_t bytes) {
                            return RangeAlgorithm{applied.algorithm_at(bytes),
                                                  applied.range_for(bytes)->algorithm == "default"};
                          });
}

AlgorithmChoice profile_default_choice(const TunedProfile& p, ReferenceEquivalents eq, std::string where,
                                       AlgorithmChoice fallback) {
  return reference_choice(p, std::move(eq), std::move(where), std::move(fallback),
                          [](const ExportedRule& applied, std::uint64_t bytes) {
                            // The sweep saw the default at the rule's own size only: elsewhere the fallback, as
                            // the profile's own "default" there, so that the two differ only where it chose.
                            if (!applied.own_size()) return RangeAlgorithm{};
                            return RangeAlgorithm{applied.range_for(bytes)->default_ran_at(bytes), true};
                          });
}

}  // namespace pico
