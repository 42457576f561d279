// SPDX-License-Identifier: BSD-3-Clause
// A profile's `default_ran` names what the library's default ran at each
// measured size (selection.actual, catalogue names): predict, replay and the
// simulator exports (astra-sim, schedgen2) stand it for "default". A name the
// library's catalogue does not have for the collective on the profile's
// version (`no_such_alg`, `../../x`) is refused where the profile is read,
// not written into a simulator's input or silently dropped there.
#pragma once

#include <string>

#include "tuning/profile.hpp"

namespace pico {

// InputError at `where` (the profile file), naming the JSON path
// (rules/R/ranges/K/default_ran/D/algorithm) and the names the catalogue
// has. Libraries without a catalogue of pico's (UCC, Intel MPI) take names
// of letters, digits and '_' only.
void check_default_ran(const TunedProfile& profile, const std::string& where);

}  // namespace pico
