// SPDX-License-Identifier: BSD-3-Clause
// Rules for communicator sizes no report measured (pico tune --predict-np;
// docs/tuning.md#communicator-sizes-not-measured), filled in from the
// measured rules of the same collective: from the two measured sizes around
// it, or the two nearest beyond them, a size range keeps a choice both made
// (stable across communicator sizes there) and takes the nearer size's
// (in ratio) where they differ. Each filled rule is marked predicted_from
// with the sizes it came from, and carries their evidence; `pico tune
// --check` at such a size says how good it was.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "tuning/profile.hpp"

namespace pico {

// Adds a predicted rule per collective for each communicator size in
// `comm_sizes` that its measured rules (two or more sizes) do not hold,
// placed as its sources share (their processes per node, or their nodes).
// Returns one line per rule added or size refused, saying which.
std::vector<std::string> add_predicted_rules(TunedProfile& profile, std::span<const int> comm_sizes);

}  // namespace pico
