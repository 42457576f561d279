// SPDX-License-Identifier: BSD-3-Clause
// A tuned profile's choices as reference algorithms, for simulators: the
// profile names its library's algorithms (catalogue names), a simulator runs
// pico's reference algorithms, and configs/simulation/reference-equivalents.yaml
// says which reference algorithm stands for which library algorithm.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "simulation/replay.hpp"
#include "tuning/profile.hpp"

namespace pico {

// library algorithm -> reference algorithm, per collective, of one library.
struct ReferenceEquivalents {
  std::string library;
  std::map<std::pair<Collective, std::string>, std::string> map;
};

// The library's table from the data file; InputError (where = `where`, the
// profile) when the library has none: pico cannot replay its profiles.
ReferenceEquivalents load_reference_equivalents(const std::string& library, const std::string& where);

// The reference algorithm for a library algorithm: itself when it is one,
// else the table's; "" when neither.
std::string reference_equivalent(const ReferenceEquivalents& eq, Collective c, const std::string& algorithm);

// The profile's choice for (collective, comm size, bytes) as a reference
// algorithm, from the rule its export makes the library apply on that
// communicator (loaded_rule, tuning/exported_choice.hpp: what pico predict
// --profile reports). "default" is what the library's default ran there when
// the profile records it at that communicator size (ExportedRule::algorithm_at),
// else `fallback`'s, as where no rule applies.
// Throws InputError (where = the profile) when a chosen algorithm has no
// reference equivalent.
AlgorithmChoice profile_choice(const TunedProfile& p, ReferenceEquivalents eq, std::string where,
                               AlgorithmChoice fallback);

// The library default's choice as the profile's sweep saw it run
// (ProfileRange::default_ran_at) as a reference algorithm: a like-for-like
// baseline for the profile's own choice. `fallback`'s where no rule of the
// communicator's own size applies (profile_choice's rule, which the sweep saw
// at its own size only) or the profile did not record the default;
// InputError as profile_choice.
AlgorithmChoice profile_default_choice(const TunedProfile& p, ReferenceEquivalents eq, std::string where,
                                       AlgorithmChoice fallback);

}  // namespace pico
