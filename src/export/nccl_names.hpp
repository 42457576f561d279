// SPDX-License-Identifier: BSD-3-Clause
// NCCL's names for a profile's algorithm, from the nccl catalogue (value =
// NCCL_ALGO, env NCCL_PROTO) as the tuner CSV and the env variables spell them.
#pragma once

#include <string>

#include "tuning/profile.hpp"

namespace pico {

struct NcclChoice {
  std::string algo;   // NCCL_ALGO spelling: Ring, Tree, NVLS, ...
  std::string proto;  // LL, LL128, Simple; "" when NCCL picked it
};
NcclChoice nccl_choice(const TunedProfile& profile, const ProfileRule& rule, const ProfileRange& range);

// The collective as NCCL's tuner and per-collective env spell it
// (broadcast, reducescatter), or ExportRefusal for one NCCL_ALGO does not apply to.
std::string nccl_collective(const ProfileRule& rule);

// tree, ring, nvls_tree, collnet_direct: the tuner CSV's lowercase names.
std::string nccl_csv_name(const std::string& nccl_algo);

}  // namespace pico
