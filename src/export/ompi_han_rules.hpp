// SPDX-License-Identifier: BSD-3-Clause
// A profile that chooses another Open MPI component than coll/tuned at some
// sizes (han, adapt: algorithms with a `component` in the catalogue) loads
// through coll/han's dynamic rules file, which picks the component per
// collective, communicator size and message size; tuned's own rules file
// still picks tuned's algorithm where han's file hands a size to tuned.
#pragma once

#include <map>
#include <string>

#include "tuning/profile.hpp"

namespace pico {

// The MCA variables (without OMPI_MCA_) that make Open MPI read han's rules
// file at `file` and set the chosen components' own variables (han's modules,
// segment sizes, simple variants). ExportRefusal where two ranges need
// different values of one variable (han's are one value per collective).
std::map<std::string, std::string> han_rules_variables(const TunedProfile& profile, const std::string& file);

// ExportRefusal for a range choosing adapt: no rules file makes Open MPI 4.1.4 run it at some sizes only.
[[noreturn]] void refuse_adapt(const ProfileRule& rule, const ProfileRange& range);

}  // namespace pico
