// SPDX-License-Identifier: BSD-3-Clause
// Ranks outnumbering a host's cores: every rank then waits for a core, and the
// times measure descheduling as much as the collective (a 39x "speedup" from
// --np 8 on 2 cores). Found from what the worker recorded (provenance: each
// launch's hosts, their ranks and hwloc core counts), recorded in the report
// (provenance.oversubscribed) and said by every verb that reads one.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace pico {

struct Oversubscription {
  int launch = -1;  // -1: the run's hosts (a report without per-launch placement)
  std::string host;
  int ranks = 0;
  int cores = 0;
};

// Each (launch, host) whose ranks outnumber its cores, from a report's
// provenance; empty where the hosts' core counts are unknown.
std::vector<Oversubscription> oversubscribed(const nlohmann::json& provenance);

nlohmann::json to_json(const std::vector<Oversubscription>& found);

// One line for a user ("launch 0: 4 ranks on host vm with 2 cores; ..."), or ""
// when nothing was oversubscribed.
std::string oversubscription_text(const std::vector<Oversubscription>& found);

// The same line for a report (from its provenance), as every reader of one
// says it: the verbs on stderr, the HTML page, a tuned profile's warnings.
std::string report_oversubscription_text(const nlohmann::json& report);

}  // namespace pico
