// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/profile_choice.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "collectives/reference/algorithms.hpp"
#include "config/data_files.hpp"
#include "config/yaml_reader.hpp"
#include "core/input_error.hpp"

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

// The reference algorithm standing for `library` (the algorithm range says ran
// or chose at these bytes); InputError where there is none.
std::string reference_for(const ReferenceEquivalents& eq, const std::string& where, Collective c, int np,
                          std::uint64_t bytes, const std::string& library, bool default_ran) {
  std::string ref = reference_equivalent(eq, c, library);
  if (ref.empty())
    throw InputError(where, fmt::format("the profile {} {} {} for {} bytes on {} ranks, which has no reference "
                                        "equivalent", default_ran ? "says the library's default ran" : "chooses",
                                        name(c), library, bytes, np),
                     "add it to configs/simulation/reference-equivalents.yaml");
  return ref;
}

}  // namespace

AlgorithmChoice profile_choice(const TunedProfile& p, ReferenceEquivalents eq, std::string where,
                               AlgorithmChoice fallback) {
  return [p, eq = std::move(eq), where = std::move(where), fallback = std::move(fallback)](
             Collective c, int np, std::uint64_t bytes) -> std::string {
    const ProfileRange* range = p.choose(c, np, bytes);
    const std::string library = range ? range->algorithm_at(bytes) : "default";
    if (library == "default") return fallback(c, np, bytes);
    return reference_for(eq, where, c, np, bytes, library, range->algorithm == "default");
  };
}

AlgorithmChoice profile_default_choice(const TunedProfile& p, ReferenceEquivalents eq, std::string where,
                                       AlgorithmChoice fallback) {
  return [p, eq = std::move(eq), where = std::move(where), fallback = std::move(fallback)](
             Collective c, int np, std::uint64_t bytes) -> std::string {
    const ProfileRange* range = p.choose(c, np, bytes);
    const std::string ran = range ? range->default_ran_at(bytes) : "";
    if (ran.empty() || ran == "default") return fallback(c, np, bytes);
    return reference_for(eq, where, c, np, bytes, ran, true);
  };
}

}  // namespace pico
