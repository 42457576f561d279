// SPDX-License-Identifier: BSD-3-Clause
// What the rest of pico may ask about reference algorithms without
// instantiating them: which exist, and what each needs.
#pragma once

#include <string>
#include <vector>

#include "core/types.hpp"

namespace pico::reference {

struct AlgorithmTraits;

}  // namespace pico::reference

namespace pico {

bool reference_algorithm_exists(Collective c, const std::string& name);
// In table order (the first is the suggested default).
std::vector<std::string> reference_algorithm_names(Collective c);
struct CollectiveSpec;
// Whether pico has a reference algorithm for the collective (a collective_names filter).
bool has_reference_algorithms(const CollectiveSpec& spec);
// The algorithm's traits, or nullptr for an unknown (collective, name).
const reference::AlgorithmTraits* reference_algorithm_traits(Collective c, const std::string& name);

}  // namespace pico
