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

// What a range runs at these bytes, in the library's names, and whether it is what the library's
// default ran there; "" or "default" where the range says nothing (the fallback decides).
struct RangeAlgorithm {
  std::string library;
  bool default_ran = false;
};
using RangeReading = RangeAlgorithm (*)(const ProfileRange& range, std::uint64_t bytes);

// The choice function reading each call's range with `read`, as a reference algorithm; InputError
// where the library algorithm has no reference equivalent.
AlgorithmChoice reference_choice(const TunedProfile& p, ReferenceEquivalents eq, std::string where,
                                 AlgorithmChoice fallback, RangeReading read) {
  return [p, eq = std::move(eq), where = std::move(where), fallback = std::move(fallback), read](
             Collective c, int np, std::uint64_t bytes) -> std::string {
    const ProfileRange* range = p.choose(c, np, bytes);
    const RangeAlgorithm a = range != nullptr ? read(*range, bytes) : RangeAlgorithm{};
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
                          [](const ProfileRange& r, std::uint64_t bytes) {
                            return RangeAlgorithm{r.algorithm_at(bytes), r.algorithm == "default"};
                          });
}

AlgorithmChoice profile_default_choice(const TunedProfile& p, ReferenceEquivalents eq, std::string where,
                                       AlgorithmChoice fallback) {
  return reference_choice(p, std::move(eq), std::move(where), std::move(fallback),
                          [](const ProfileRange& r, std::uint64_t bytes) {
                            return RangeAlgorithm{r.default_ran_at(bytes), true};
                          });
}

}  // namespace pico
