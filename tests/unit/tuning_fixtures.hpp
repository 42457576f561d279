// SPDX-License-Identifier: BSD-3-Clause
// Small builders the tuning, export and simulation tests share: a profile
// range, rule and profile, and a measured-looking allreduce record.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/case.hpp"
#include "core/case_result.hpp"
#include "tuning/profile.hpp"

namespace pico::test {

inline ProfileRange profile_range(std::uint64_t lo, std::optional<std::uint64_t> hi, std::string algorithm) {
  ProfileRange r;
  r.min_bytes = lo;
  r.max_bytes = hi;
  r.algorithm = std::move(algorithm);
  return r;
}

inline ProfileRule profile_rule(Collective collective, int comm_size, std::vector<ProfileRange> ranges) {
  ProfileRule rule;
  rule.collective = collective;
  rule.comm_size = comm_size;
  rule.ranges = std::move(ranges);
  return rule;
}

// An Open MPI 4.1.4 profile of these rules.
inline TunedProfile openmpi_profile_of(std::vector<ProfileRule> rules) {
  TunedProfile p;
  p.library = {"mpi", "openmpi", "4.1.4"};
  p.rules = std::move(rules);
  return p;
}

// bcast at 4 ranks: the default below 32 KiB, pipeline from 32 KiB.
inline ProfileRule bcast_pipeline_rule() {
  return profile_rule(Collective::bcast, 4,
                      {profile_range(0, 32767, "default"), profile_range(32768, std::nullopt, "pipeline")});
}

// An Open MPI float32 sum allreduce of `bytes` on 4 ranks, without timing.
inline CaseResult allreduce_record(const std::string& algorithm, std::uint64_t bytes) {
  CaseResult r;
  r.c.backend = "mpi";
  r.c.collective = Collective::allreduce;
  r.c.algorithm = algorithm;
  r.c.dtype = Dtype::float32;
  r.c.op = Op::sum;
  r.c.count = bytes / 4;
  r.c.bytes = bytes;
  r.c.np = 4;
  r.c.case_id = compute_case_id(r.c);
  r.library = "openmpi";
  return r;
}

}  // namespace pico::test
