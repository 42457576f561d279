// SPDX-License-Identifier: BSD-3-Clause
// The plan tests' target with NCCL installed: Open MPI 4.1.4 beside the given
// NCCL version.
#pragma once

#include <string>

#include "plan/plan.hpp"

namespace pico::test {

inline PlanTarget nccl_target(const std::string& nccl_version) {
  PlanTarget t{"openmpi", "4.1.4"};
  t.nccl_version = nccl_version;
  return t;
}

}  // namespace pico::test
