// SPDX-License-Identifier: BSD-3-Clause
// Which of a profile's rules a library applies once the profile is exported
// for it: the one resolution of "what does this profile pick here" that the
// exports write and pico predict --profile reports, so the two cannot
// disagree. Open MPI before 6.0 reads coll/tuned's classic rules file
// (ompi-rules: ompi_comm_size_blocks, whose first block serves smaller
// communicators and whose default blocks leave tuned's own decision); every
// other format pico writes (ompi-json, mpich-json, mpich-ch4-json, ucc-tune,
// nccl-tuner, intel-mpi) keys each rule on its communicator size alone.
#pragma once

#include <string>

#include "core/types.hpp"
#include "tuning/profile.hpp"

namespace pico {

struct ExportedRule {
  const ProfileRule* rule = nullptr;  // the rule the library applies; nullptr: the library's own choice runs
  std::string why;                    // where rule is nullptr: why no rule applies, for the reader
};

// The rule applied to `collective` on a communicator of np ranks (where
// several rules share its size, the one of `nodes` when given, else the first,
// as nccl-tuner keys them). ExportRefusal where the export pico loads for the
// library (ompi-rules, mpich-json) refuses the rules of the collective: two
// placements of one communicator size.
ExportedRule exported_rule(const TunedProfile& profile, Collective collective, int np, int nodes = 0);

}  // namespace pico
