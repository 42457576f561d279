// SPDX-License-Identifier: BSD-3-Clause
// A profile that chooses another Open MPI component than coll/tuned at some
// sizes (han, adapt: algorithms with a `component` in the catalogue) loads
// through coll/han's dynamic rules file, which picks the component per
// collective, communicator size and message size; tuned's own rules file
// still picks tuned's algorithm where han's file hands a size to tuned.
#pragma once

#include <map>
#include <string>

#include "export/export_format.hpp"
#include "tuning/profile.hpp"

namespace pico {

// The MCA variables (without OMPI_MCA_) that make Open MPI read han's rules
// file at `file` and set the chosen components' own variables (han's modules,
// segment sizes, simple variants). ExportRefusal where two ranges need
// different values of one variable (han's are one value per collective).
std::map<std::string, std::string> han_rules_variables(const TunedProfile& profile, const std::string& file);

// The MCA variables (without OMPI_MCA_) a profile of tuned's algorithms needs beside its rules file: the
// catalogue's variables for forced algorithms only (Open MPI 5's coll=^han). They force the algorithms as pico
// measured them; without them 5.0's han, above tuned, runs the profile's sizes itself (seen: 13 of 13 sizes on
// 2 x 2). Empty for a profile that chooses han at some sizes (han's rules hand the others to tuned) and for a
// version that needs none (4.1).
std::map<std::string, std::string> han_excluded_variables(const TunedProfile& profile);
// The line of a rules file's "how to load" that says so ("... add --mca coll ^han ..."); "" where none is needed.
std::string han_excluded_line(const TunedProfile& profile);

// Open MPI's MCA variables as a launch's environment (OMPI_MCA_ before each).
std::map<std::string, std::string> mca_env(const std::map<std::string, std::string>& variables);

// How Open MPI loads tuned's rules file (ompi-rules, ompi-json: the same variables) and han's
// (ompi-han-rules): the variables that read the file at `file`, and what a launch of a profile of
// tuned's algorithms needs beside them (han_excluded_variables as OMPI_MCA_ variables).
LoadVariables tuned_rules_variables(const TunedProfile& profile, const std::string& file);
LoadVariables han_rules_load_variables(const TunedProfile& profile, const std::string& file);
std::map<std::string, std::string> han_excluded_env(const TunedProfile& profile);

// ExportRefusal for a range choosing adapt: no rules file makes Open MPI 4.1.4 run it at some sizes only.
[[noreturn]] void refuse_adapt(const ProfileRule& rule, const ProfileRange& range);

}  // namespace pico
