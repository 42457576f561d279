// SPDX-License-Identifier: BSD-3-Clause
// An application run's report.json read back as untrusted input (issue 66):
// every field its readers use (pico report, compare, tune --for-application,
// the HTML page, the sweep it needs) is checked where it is read, so that a
// report cut short or edited is refused naming the file and the field's JSON
// path ("processes[0].variants[1].median is -1: ...") instead of printing a
// negative time, a NaN or nlohmann's "type must be number".
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace pico {

// InputError at `file` ("malformed application report: PATH ...") where a field
// is missing, of the wrong type, negative or non-finite where a time, count or
// size is, out of its range, or a name outside its set (a collective, a verdict,
// a variant the report does not list).
void check_application_report(const nlohmann::json& report, const std::string& file);

}  // namespace pico
