// SPDX-License-Identifier: BSD-3-Clause
// A tuned profile for other simulators (pico export --format astra-sim |
// schedgen2): two export formats (export/export_format.hpp) that `pico
// export` lists beside the libraries'. Both go through the profile's
// reference equivalents (profile_choice.hpp), then to the simulator's own
// algorithm names.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "export/export_format.hpp"
#include "simulation/loggp_model.hpp"
#include "tuning/profile.hpp"

namespace pico {

// Schedgen2's --ptrn-config (spcl/LogGOPSim src/Schedgen2): a JSON list of
// {algorithm, ptrn, lower_bounds{comm_size, datasize}, upper_bounds{...}},
// lower inclusive, upper exclusive, -1 unbounded. One entry per profile range
// whose choice Schedgen2 has an algorithm for (allreduce: ring, recdoub) on
// the comm sizes the profile's export applies its rule to
// (applied_comm_sizes, tuning/exported_choice.hpp: what pico predict
// --profile reads), and one of ATLAHS's algorithm where no rule applies (the
// library's own decision). `skipped` gets why a range was left out (no
// Schedgen2 algorithm).
nlohmann::json schedgen2_ptrn_config(const TunedProfile& p, const std::string& where,
                                     std::vector<std::string>* skipped = nullptr);

// ASTRA-sim 2.x inputs: the system JSON with, per collective it names
// (all-reduce, reduce-scatter, all-gather, all-to-all), the implementation
// closest to the profile's choice for the largest messages (the dominant
// sizes of a training step) in the rule its export applies on `npus` ranks
// (loaded_rule; none: ATLAHS's algorithm) on every one of `dimensions` network dimensions;
// a one-dimension Switch network of the rule's comm size with the model's
// bandwidth (1/G) and latency (L); no remote memory.
struct AstraSimInputs {
  nlohmann::json system;
  std::string network_yaml;
  nlohmann::json memory;
  std::vector<std::string> notes;  // collectives left at ASTRA-sim's ring, and why
};
// splits: the system's preferred-dataset-splits, the chunks ASTRA-sim cuts
// each collective into (1 unless the workload is bandwidth-bound:
// docs/simulation.md#other-simulators-astra-sim-and-schedgen2).
AstraSimInputs astra_sim_inputs(const TunedProfile& p, const std::string& where, const LogGPModel& model,
                                int npus, int splits = 1);
// The same files without the implementations: the system JSON's scheduling,
// chunking and delays, the network and the memory.
AstraSimInputs astra_sim_platform(const LogGPModel& model, int npus, int splits);
// The bandwidth a model with G = 0 is written with (ASTRA-sim asserts one above 0), in its GB/s; noted.
inline constexpr double kUnboundedAstraBandwidth = 1e6;
// ASTRA-sim's native implementation that runs a reference algorithm's
// pattern (ring, halvingDoubling, doubleBinaryTree, direct), "" where none does.
std::string astra_sim_implementation(const std::string& reference);
// Why ASTRA-sim's `impl` cannot run collective `c` on `npus` NPUs with a
// buffer of comm_size bytes (as astra_comm_size counts it; nullopt: the size
// is not known, only the NPUs are checked), "" where it can. From astra-sim
// 518bd51's collective_algorithm/, and seen there: halvingDoubling on NPUs
// that are not a power of two finishes no rank (exit 0, no rank done); a
// message of 0 bytes trips the analytical frontend's `chunk_size > 0`
// assertion (exit 134), and ring and direct send comm_size / p per step
// (all-gather: its whole block).
std::string astra_sim_refuses(const std::string& impl, Collective c, std::optional<std::uint64_t> comm_size, int npus);

// The simulators' export formats (astra-sim, schedgen2), in `pico export --help` order.
const std::vector<const ExportFormat*>& simulator_export_formats();

}  // namespace pico
