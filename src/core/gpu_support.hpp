// SPDX-License-Identifier: BSD-3-Clause
// What this build knows about GPUs: whether it has the NCCL backend, the NCCL
// and CUDA versions it was compiled against, and the devices this machine has.
// The front end uses it without linking NCCL (login nodes have no libnccl).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pico::gpu {

// "2.28.9"; empty when this build has no NCCL backend.
std::string_view nccl_build_version();
// "13.0"; empty when this build has no NCCL backend.
std::string_view cuda_build_version();

struct DeviceCensus {
  int count = 0;
  std::vector<std::string> names;  // per device: "NVIDIA H200 (sm_90, 139.8 GiB)"
  std::string error;               // why there are none, from the CUDA runtime
};

// The CUDA devices visible to this process (CUDA_VISIBLE_DEVICES applies).
// Without the NCCL backend: count 0 and the reason.
DeviceCensus census();

// One line for `pico list backends`: built or not, and devices present.
std::string backend_status();

}  // namespace pico::gpu
