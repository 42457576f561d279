// SPDX-License-Identifier: BSD-3-Clause
// Which of a profile's rules a library applies once the profile is exported
// for it: the one resolution of "what does the library run with this profile
// loaded", which the exports write and every verb that answers it reads
// (pico predict --profile, pico replay --profile, pico tune --check, the
// simulator exports astra-sim and schedgen2, the application report and
// pico tune --for-application), so they cannot disagree. Open MPI before 6.0
// reads coll/tuned's classic rules file (ompi-rules:
// ompi_comm_size_blocks, whose first block serves smaller communicators and
// whose default blocks leave tuned's own decision); Open MPI 6.0 reads
// ompi-json, which keys each rule on its communicator size and the placement
// it was measured on (tuning/ompi_rank_distribution.hpp); every other format
// pico writes (mpich-json, mpich-ch4-json, ucc-tune, nccl-tuner, intel-mpi)
// keys each rule on its communicator size alone.
// TunedProfile::choose is not this: it reads the nearest rule.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "tuning/profile.hpp"

namespace pico {

// Rules ordered by collective, then comm size ascending (libraries read
// blocks in order). ExportRefusal where two rules of a collective share a
// comm size (two placements: the formats that call this key on the size alone).
std::vector<const ProfileRule*> rules_by_collective(const TunedProfile& profile);

// Communicator sizes [from, to) on which the library applies one rule of a
// collective, or (rule nullptr) its own decision.
struct AppliedCommSizes {
  int from = 1;
  std::optional<int> to;              // exclusive; nullopt: every larger size
  const ProfileRule* rule = nullptr;  // nullptr: the library's own decision
};
// Ascending and contiguous from 1 rank, every size once; empty where the
// profile has no rule for the collective. Where several rules share a size
// (a format that keys on nodes: nccl-tuner), the first. ExportRefusal as
// exported_rule.
std::vector<AppliedCommSizes> applied_comm_sizes(const TunedProfile& profile, Collective collective);
// The same, the refusal an InputError at `where`, as loaded_rule.
std::vector<AppliedCommSizes> loaded_comm_sizes(const TunedProfile& profile, const std::string& where,
                                                Collective collective);

struct ExportedRule {
  const ProfileRule* rule = nullptr;  // the rule the library applies; nullptr: the library's own choice runs
  std::string why;                    // where rule is nullptr: why no rule applies, for the reader
  int np = 0;                         // the communicator size it applies to

  // Whether the rule is the communicator size's own (tuned at np): only there
  // does the profile know what the library's default ran (default_ran). A
  // rule the library applies to another size runs tuned's own decision there
  // for its "default" ranges, which no report saw.
  bool own_size() const { return rule != nullptr && rule->comm_size == np; }
  // The rule's range holding `bytes`; nullptr where no rule applies.
  const ProfileRange* range_for(std::uint64_t bytes) const;
  // What the library runs for `bytes`, in catalogue names: the range's
  // algorithm, for a "default" range what the default ran there at the
  // rule's own size (ProfileRange::algorithm_at), else "default"; "default"
  // where no rule applies.
  std::string algorithm_at(std::uint64_t bytes) const;
  // The same in words: "default (ran ring)" (ProfileRange::choice_at).
  std::string choice_at(std::uint64_t bytes) const;
  // A range of the rule cut by what runs (ProfileRange::spans) at the rule's
  // own size; elsewhere the whole range, its algorithm as the profile names it.
  std::vector<ProfileRange::Span> spans(const ProfileRange& range) const;
};

// The rule applied to `collective` on a communicator of np ranks (where
// several rules share its size, the one of `nodes` when given, else the first,
// as nccl-tuner keys them). For Open MPI 6.0, none where `nodes` is given and
// the rule's measured placement does not match it. ExportRefusal where the export pico loads for the
// library (ompi-rules, mpich-json) refuses the rules of the collective: two
// placements of one communicator size.
ExportedRule exported_rule(const TunedProfile& profile, Collective collective, int np, int nodes = 0);
// The same, the refusal an InputError at `where` (the profile's path): no
// file says what a profile the library cannot load picks.
ExportedRule loaded_rule(const TunedProfile& profile, const std::string& where, Collective collective, int np,
                         int nodes = 0);

}  // namespace pico
