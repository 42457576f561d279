// SPDX-License-Identifier: BSD-3-Clause
#include "core/observation.hpp"

namespace pico {

Observation observation_of(const CaseResult& r, const std::string& report_id) {
  Observation o{*r.timing, r.samples_s, r.launch, report_id, r.c.case_id, {}};
  if (r.rounds) o.round_medians_s = r.rounds->median_s;
  return o;
}

}  // namespace pico
