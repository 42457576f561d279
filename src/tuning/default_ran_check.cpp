// SPDX-License-Identifier: BSD-3-Clause
#include "tuning/default_ran_check.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "config/catalog.hpp"
#include "support/input_error.hpp"

namespace pico {

namespace {

bool is_plain_name(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

}  // namespace

void check_default_ran(const TunedProfile& profile, const std::string& where) {
  const std::vector<std::string> libraries = catalog_libraries();
  const bool catalogued =
      std::find(libraries.begin(), libraries.end(), profile.library.name) != libraries.end();
  for (std::size_t r = 0; r < profile.rules.size(); ++r) {
    const ProfileRule& rule = profile.rules[r];
    std::vector<std::string> names;
    if (catalogued) names = catalog_for(profile.library.name).algorithm_names(rule.collective, profile.library.version);
    for (std::size_t k = 0; k < rule.ranges.size(); ++k)
      for (std::size_t d = 0; d < rule.ranges[k].default_ran.size(); ++d) {
        const std::string& ran = rule.ranges[k].default_ran[d].algorithm;
        const bool known =
            catalogued ? std::find(names.begin(), names.end(), ran) != names.end() : is_plain_name(ran);
        if (known) continue;
        const std::string path = fmt::format("rules/{}/ranges/{}/default_ran/{}/algorithm", r, k, d);
        if (!catalogued)
          throw InputError(where, fmt::format("{}: '{}' is not an algorithm name", path, ran),
                           "an algorithm name is letters, digits and '_' (as pico tune writes them)");
        throw InputError(where,
                         fmt::format("{}: '{}' is no {} algorithm of {} {}", path, ran, name(rule.collective),
                                     profile.library.name, profile.library.version),
                         names.empty() ? std::string("the catalogue has no algorithm choice for it")
                                       : fmt::format("the catalogue has: {}", fmt::join(names, ", ")));
      }
  }
}

}  // namespace pico
