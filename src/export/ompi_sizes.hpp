// SPDX-License-Identifier: BSD-3-Clause
// What Open MPI's coll/tuned keys its rules on, per collective (both the
// classic file and the JSON of main/6.0), and a profile range's columns.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/catalog.hpp"
#include "core/types.hpp"
#include "tuning/ompi_comm_size_blocks.hpp"
#include "tuning/profile.hpp"

namespace pico {

// The collective's id in the classic rules file and its key in the JSON rules
// of main/6.0, from its descriptor (collectives/spec.hpp); ExportRefusal for a
// collective tuned has no dynamic rules for.
int ompi_collective_id(Collective c);
std::string ompi_json_key(Collective c);

// Message size tuned compares with the rules, per pico byte (one rank's
// block): the descriptor's ompi_size.
std::uint64_t ompi_size_factor(Collective c, int comm_size);
// The rule's size factor at comm_size (a block the classic file writes for a
// communicator size the rule drives), the rule's own by default; where it is 0
// (tuned reads the rules with message size 0: barrier, alltoallv) only the
// first range can apply, so a rule that chooses differently by size is refused.
std::uint64_t ompi_rule_size_factor(const ProfileRule& rule, int comm_size);
inline std::uint64_t ompi_rule_size_factor(const ProfileRule& rule) {
  return ompi_rule_size_factor(rule, rule.comm_size);
}

struct OmpiRuleColumns {
  std::string algorithm;  // catalogue value (the coll_tuned_<coll>_algorithm id); "0" for default
  long long faninout = 0;
  long long segsize = 0;
};
// ExportRefusal for an algorithm the version lacks or a parameter the file cannot carry.
OmpiRuleColumns ompi_rule_columns(const Catalog& catalog, const TunedProfile& profile, const ProfileRule& rule,
                                  const ProfileRange& range);

}  // namespace pico
