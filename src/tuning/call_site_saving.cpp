// SPDX-License-Identifier: BSD-3-Clause
#include "tuning/call_site_saving.hpp"

#include <algorithm>

#include "tuning/exported_choice.hpp"

namespace pico {

double predicted_saving_at(const ProfileRange* range, const ApplicationCallSite& site) {
  if (range == nullptr || range->algorithm == "default" || !range->speedup || range->speedup->estimate <= 0) return 0;
  // An empty message runs no algorithm (Open MPI returns at once): nothing to save there but a barrier.
  if (site.bytes == 0 && site.collective != Collective::barrier) return 0;
  // The sweep's default may differ from the application's: where the application ran the choice already, nothing.
  if (range->algorithm_at(site.bytes) == site.default_ran) return 0;
  return site.default_seconds * (1 - 1 / range->speedup->estimate);
}

std::vector<WeightedChoice> weigh_choices(const TunedProfile& profile, const std::string& where,
                                          const std::vector<ApplicationCallSite>& sites) {
  std::vector<WeightedChoice> out;
  out.reserve(sites.size());
  for (const ApplicationCallSite& site : sites) {
    // What the library runs at the site with the profile loaded: the rule its export applies there.
    const ExportedRule applied = loaded_rule(profile, where, site.collective, site.comm_size);
    const ProfileRange* range = applied.range_for(site.bytes);
    WeightedChoice w{site, range != nullptr ? applied.choice_at(site.bytes) : "default (no rule)", 0,
                     predicted_saving_at(range, site)};
    if (range != nullptr && range->speedup) w.speedup = range->speedup->estimate;
    out.push_back(std::move(w));
  }
  std::stable_sort(out.begin(), out.end(), [](const WeightedChoice& a, const WeightedChoice& b) {
    if (a.saving_s != b.saving_s) return a.saving_s > b.saving_s;
    return a.site.default_seconds > b.site.default_seconds;
  });
  return out;
}

}  // namespace pico
