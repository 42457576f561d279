// SPDX-License-Identifier: BSD-3-Clause
// Facts about the environment a run happened in.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace pico {

// Environment variables that change how MPI, NCCL, the network stack or the
// scheduler behave: OMPI_*, MPICH_*, MPIR_CVAR_*, NCCL_*, UCX_*, FI_*, SLURM_*, PMIX_*, PICO_*.
// InputError naming the variable when one is not UTF-8 (support/plain_text.hpp):
// pico run and --resume ask first, before a results directory is touched.
nlohmann::json relevant_environment();
bool is_relevant_env_name(const std::string& name);

std::string host_name();
std::string utc_timestamp_iso();  // 2026-11-21T19:32:05Z
std::string utc_timestamp_compact();  // 20261121T193205Z

// pico's own build facts: version, git hash, compiler, flags, build type.
nlohmann::json build_provenance();

}  // namespace pico
