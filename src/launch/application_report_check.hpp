// SPDX-License-Identifier: BSD-3-Clause
// An application run's report.json read back as untrusted input (issue 66):
// every field its readers use (pico report, compare, tune --for-application,
// the HTML page, the sweep it needs) is checked where it is read, so that a
// report cut short or edited is refused naming the file and the field's JSON
// path ("processes[0].variants[1].median is -1: ...") instead of printing a
// negative time, a NaN or nlohmann's "type must be number".
#pragma once

#include <cstddef>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace pico {

// InputError at `file` ("malformed application report: PATH ...") where a field
// is missing, of the wrong type, negative or non-finite where a time, count or
// size is, out of its range, or a name outside its set (a collective, a verdict,
// a variant the report does not list).
void check_application_report(const nlohmann::json& report, const std::string& file);

// What the report is built from, checked as it is read (pico report RUN_A RUN_B pools runs from these,
// and a resume reads them back): application.json's fields the report and pooling read (returning
// its variants' names), and a record of launches.jsonl (`index`: its place in the file, from 0).
// InputError at `file` ("malformed run record: experiment.rounds is 0: ...", "malformed launch record 3: ...").
std::set<std::string> check_application_run(const nlohmann::json& run, const std::string& file);
void check_application_launch(const nlohmann::json& record, const std::string& file, std::size_t index,
                              const std::set<std::string>& variants);

}  // namespace pico
