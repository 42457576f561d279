// SPDX-License-Identifier: BSD-3-Clause
// The communicator-size blocks of Open MPI coll/tuned's classic rules file:
// ompi-rules (src/export) writes them, ompi-han-rules follows them, and the
// one resolution of what a loaded profile makes Open MPI before 6.0 run
// (tuning/exported_choice.hpp) reads them.
#pragma once

#include <vector>

#include "tuning/profile.hpp"

namespace pico {

// One comm-size block of coll/tuned's classic rules file: Open MPI applies the
// last block at or below a communicator's size, and the first block to every
// smaller one. `rule` drives it, scaled for comm_size, or (nullptr) it is a
// default block: tuned's own fixed decision.
struct OmpiCommSizeBlock {
  int comm_size;
  const ProfileRule* rule;
};
// The blocks of one collective's rules (ascending comm size, one rule each),
// as ompi-rules writes them and Open MPI applies them. Where tuned compares a
// block's bounds times the communicator size, a rule drives the sizes from
// its own up to twice it (at most 64 more) or the next rule's, whichever comes
// first, and only while its ranges fit 2^63-1 there; a default block sits
// below the smallest rule and past each rule's reach. Otherwise each rule is
// one block and the first serves every smaller communicator too.
std::vector<OmpiCommSizeBlock> ompi_comm_size_blocks(const std::vector<const ProfileRule*>& rules);

}  // namespace pico
