// SPDX-License-Identifier: BSD-3-Clause
// The load beside a run on the front end's host: the kernel's 1-minute load
// average when the run started and when its launches ended, recorded in
// run.json's `host_load` (docs/report.md#run) and read by the noise guard
// (core/noise_guard.hpp). Ranks that wait for a core measure descheduling,
// and an oversubscription check (ranks against cores) alone does not see the
// other jobs beside them (issue 65: a build running beside np 2 on 2 cores).
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace pico {

struct HostLoad {
  std::string host;              // the front end's host name: the figures hold for ranks on it only
  int cores = 0;                 // that host's cores
  double before = 0;             // the 1-minute load average as the run started (its ranks not yet running)
  std::optional<double> after;   // as its launches ended (its ranks counted in)
  double wall_s = 0;             // the time between the two

  // The load of other work beside `ranks` busy ranks: the load before the run,
  // and, for a run of a minute or more, what the average's rise says ran
  // beside them (the average decays with a 60 s time constant, so a shorter
  // run's rise says too little to be read).
  double beside(int ranks) const;
};

nlohmann::json to_json(const HostLoad& load);
// Nullopt for anything but an object with the keys above (a report of an older pico has none).
std::optional<HostLoad> host_load_from_json(const nlohmann::json& j);

}  // namespace pico
