// SPDX-License-Identifier: BSD-3-Clause
// What a profile's choices buy an application at the call sites it makes:
// the sweep's speedup at each size applied to the time the application's
// default spent there. One definition, read by the application report's
// prediction and by pico tune --for-application.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tuning/profile.hpp"

namespace pico {

// One call site of an application's default run (the app counter's figures).
struct ApplicationCallSite {
  Collective collective{};
  int comm_size = 0;
  std::uint64_t bytes = 0;
  double calls = 0;            // per launch
  double default_seconds = 0;  // per launch, in the default's calls at this site
  std::string default_ran;     // the catalogue algorithm the default ran there ("" unknown)
};

// The seconds per launch the sweep says the range's choice saves at a site:
// default_seconds x (1 - 1/speedup) where the range chooses an algorithm,
// other than the one the default ran there, with a measured speedup; 0
// elsewhere (no range, "default", no speedup, or what the default ran already).
double predicted_saving_at(const ProfileRange* range, const ApplicationCallSite& site);

struct WeightedChoice {
  ApplicationCallSite site;
  std::string choice;        // the profile's choice there in words (ProfileRange::choice_at), "default (no rule)"
  double speedup = 0;        // the sweep's, where the range has one
  double saving_s = 0;       // predicted_saving_at
};

// Every site with the profile's choice and saving, the largest saving first
// (then the most time at the default). The choice is the rule the profile's
// export applies at the site's communicator (loaded_rule,
// tuning/exported_choice.hpp; InputError at `where` where the export refuses it).
std::vector<WeightedChoice> weigh_choices(const TunedProfile& profile, const std::string& where,
                                          const std::vector<ApplicationCallSite>& sites);

}  // namespace pico
