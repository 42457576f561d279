// SPDX-License-Identifier: BSD-3-Clause
#include "launch/application_report_check.hpp"

#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "config/mpi_libraries.hpp"
#include "core/mpi_identity.hpp"
#include "core/types.hpp"
#include "launch/application_report.hpp"
#include "support/input_error.hpp"

namespace pico {
namespace {

using nlohmann::json;

// A field's place in the report, as a JSON path: "processes[0].variants[1].median".
std::string member_path(const std::string& path, const char* key) { return path.empty() ? key : path + "." + key; }
std::string item_path(const std::string& path, std::size_t i) { return fmt::format("{}[{}]", path, i); }

[[noreturn]] void refuse(const std::string& path, const std::string& what) { throw std::runtime_error(path + " " + what); }

// A value as a message quotes it: short, on one line, its control characters shown.
std::string shown(const json& v) {
  // dump() writes infinity and NaN as null; a report built in memory (pooled runs) can hold them.
  if (v.is_number_float() && !std::isfinite(v.get<double>())) return fmt::format("{}", v.get<double>());
  std::string text = v.dump();
  if (text.size() > 40) {
    text.resize(37);  // resized in place: g++ 12 misreads substr() + "..." as out of bounds (-Warray-bounds)
    text += "...";
  }
  return printable(text);
}

std::string kind_of(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean (" + shown(v) + ")";
    case json::value_t::string: return "a string (" + shown(v) + ")";
    case json::value_t::array: return "a list";
    case json::value_t::object: return "an object";
    default: return "a number (" + shown(v) + ")";
  }
}

const json& member(const json& object, const std::string& path, const char* key) {
  const auto it = object.find(key);
  if (it == object.end()) refuse(member_path(path, key), "is missing");
  return *it;
}

const json& object_at(const json& object, const std::string& path, const char* key) {
  const json& v = member(object, path, key);
  if (!v.is_object()) refuse(member_path(path, key), fmt::format("is {}, not an object", kind_of(v)));
  return v;
}

const json& list_at(const json& object, const std::string& path, const char* key) {
  const json& v = member(object, path, key);
  if (!v.is_array()) refuse(member_path(path, key), fmt::format("is {}, not a list", kind_of(v)));
  return v;
}

void require_text(const json& v, const std::string& path) {
  if (!v.is_string()) refuse(path, fmt::format("is {}, not a string", kind_of(v)));
}

std::string text_at(const json& object, const std::string& path, const char* key) {
  const json& v = member(object, path, key);
  require_text(v, member_path(path, key));
  return v.get<std::string>();
}

void name_at(const json& object, const std::string& path, const char* key, const std::set<std::string>& known,
             const char* what) {
  const std::string name = text_at(object, path, key);
  if (known.count(name) == 0) {
    std::string names;
    for (const std::string& k : known) names += (names.empty() ? "" : ", ") + k;
    refuse(member_path(path, key), fmt::format("is '{}', which is no {} ({})", printable(name), what, names));
  }
}

// What a run's mpi.library may say: a library of configs/mpi_libraries.yaml, or MpiIdentity's unknown.
std::set<std::string> mpi_library_names() {
  std::set<std::string> names{MpiIdentity{}.library};
  for (const MpiLibraryEntry& l : mpi_libraries()) names.insert(l.name);
  return names;
}

// A number at least `lo` (a time, a count of calls, a share: not negative), and finite: a
// report read from a file cannot hold infinity (nlohmann refuses 1e999), one pooled in memory can.
double number_in(const json& v, const std::string& path, double lo, const char* meaning) {
  if (!v.is_number()) refuse(path, fmt::format("is {}, not a number", kind_of(v)));
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < lo) refuse(path, fmt::format("is {}: {}", shown(v), meaning));
  return x;
}

double number_at(const json& object, const std::string& path, const char* key, double lo, const char* meaning) {
  return number_in(member(object, path, key), member_path(path, key), lo, meaning);
}

constexpr double kAnyFinite = -std::numeric_limits<double>::infinity();
constexpr const char* kTime = "a time is a finite number of seconds, not negative";
constexpr const char* kCalls = "a count of calls is finite and not negative";
constexpr const char* kShare = "a share of a run's time is finite and not negative";
constexpr const char* kSpeedup = "a speedup is a finite ratio of two times, not negative";
constexpr const char* kSaving = "a time saved is a finite number of seconds";

// A whole number from lo to hi (a process count, a round, bytes): 3.5 and -1 are neither.
std::int64_t whole_in(const json& v, const std::string& path, std::int64_t lo, std::int64_t hi) {
  if (!v.is_number()) refuse(path, fmt::format("is {}, not a number", kind_of(v)));
  if (!v.is_number_integer()) refuse(path, fmt::format("is {}: it must be a whole number", shown(v)));
  // A parsed 0 or 5 is unsigned to nlohmann, a -1 signed: each compared in its own type.
  const bool outside = v.is_number_unsigned()
                           ? v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi) ||
                                 (lo > 0 && v.get<std::uint64_t>() < static_cast<std::uint64_t>(lo))
                           : v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi;
  if (outside)
    refuse(path, fmt::format("is {}: it must be a whole number from {} to {}", shown(v), lo, hi));
  return v.get<std::int64_t>();
}

std::int64_t whole_at(const json& object, const std::string& path, const char* key, std::int64_t lo, std::int64_t hi) {
  return whole_in(member(object, path, key), member_path(path, key), lo, hi);
}

// Each check runs where the key is present: keys a later pico added, or that only some variants have.
template <class Check>
void if_present(const json& object, const char* key, Check&& check) {
  if (object.contains(key)) check();
}

// The collectives the app counter files calls under (instrumentation/app_counter/app_counter.c's
// kCollectiveNames): pico's names, and MPI's for the v-forms pico has no case of.
bool counted_collective(const std::string& name) {
  static const std::set<std::string> v_forms = {"allgatherv", "gatherv", "scatterv"};
  return parse_collective(name).has_value() || v_forms.count(name) > 0;
}

void check_call(const json& call, const std::string& path) {
  if (!call.is_object()) refuse(path, fmt::format("is {}, not an object", kind_of(call)));
  const std::string collective = text_at(call, path, "collective");
  if (!counted_collective(collective))
    refuse(member_path(path, "collective"),
           fmt::format("is '{}', which is no collective the app counter counts", printable(collective)));
  whole_at(call, path, "comm_size", 1, INT_MAX);
  whole_at(call, path, "bytes", 0, INT64_MAX);
  number_at(call, path, "calls", 0, kCalls);
  number_at(call, path, "seconds", 0, kTime);
  const json& ran = object_at(call, path, "ran");
  for (const auto& [algorithm, calls] : ran.items())
    number_in(calls, fmt::format("{}.ran[\"{}\"]", path, printable(algorithm)), 0, kCalls);
  if_present(call, "default_ran", [&] { text_at(call, path, "default_ran"); });
  if_present(call, "default_seconds", [&] { number_at(call, path, "default_seconds", 0, kTime); });
  if_present(call, "call_speedup", [&] { number_at(call, path, "call_speedup", 0, kSpeedup); });
  if_present(call, "profile_choice", [&] { text_at(call, path, "profile_choice"); });
  if_present(call, "profile_speedup", [&] { number_at(call, path, "profile_speedup", 0, kSpeedup); });
  for (const char* flag : {"changed", "taken"})
    if_present(call, flag, [&] {
      if (!call[flag].is_boolean()) refuse(member_path(path, flag), fmt::format("is {}, not true or false", kind_of(call[flag])));
    });
}

void check_failure(const json& failure, const std::string& path) {
  if (!failure.is_object()) refuse(path, fmt::format("is {}, not an object", kind_of(failure)));
  whole_at(failure, path, "launch", 0, INT_MAX);
  whole_at(failure, path, "round", 1, INT_MAX);
  text_at(failure, path, "reason");
  for (const char* key : {"exit_code", "signal"})
    if (const json& v = member(failure, path, key); !v.is_null()) whole_in(v, member_path(path, key), INT_MIN, INT_MAX);
  if_present(failure, "output_tail", [&] { text_at(failure, path, "output_tail"); });
}

// The speedup over the default with its interval; a bound is null where none could be drawn
// (a ratio over a zero time, which JSON writes as null).
void check_speedup(const json& variant, const std::string& path) {
  const json& s = object_at(variant, path, "speedup");
  const std::string at = member_path(path, "speedup");
  for (const char* key : {"estimate", "low", "high"})
    if (const json& v = member(s, at, key); !v.is_null()) number_in(v, member_path(at, key), 0, kSpeedup);
  text_at(s, at, "method");
  whole_at(s, at, "paired_rounds", 0, INT_MAX);
}

void check_variant_result(const json& v, const std::string& path, const std::set<std::string>& variants) {
  if (!v.is_object()) refuse(path, fmt::format("is {}, not an object", kind_of(v)));
  name_at(v, path, "variant", variants, "variant the report lists under \"variants\"");
  whole_at(v, path, "launches_ok", 0, INT_MAX);
  whole_at(v, path, "launches_failed", 0, INT_MAX);
  const json& failures = list_at(v, path, "failures");
  for (std::size_t i = 0; i < failures.size(); ++i) check_failure(failures[i], item_path(member_path(path, "failures"), i));
  const auto rounds = [&](const char* key) {
    const json& values = list_at(v, path, key);
    for (std::size_t i = 0; i < values.size(); ++i)
      number_in(values[i], item_path(member_path(path, key), i), 0, "a round's value is finite and not negative");
  };
  rounds("value_by_round");
  if_present(v, "figure_by_round", [&] { rounds("figure_by_round"); });
  number_at(v, path, "median", 0, kTime);
  for (const char* key : {"wall_s_median", "run_s", "collective_s"})
    if_present(v, key, [&] { number_at(v, path, key, 0, kTime); });
  if_present(v, "median_figure", [&] { number_at(v, path, "median_figure", 0, "a figure of merit is finite and not negative"); });
  number_at(v, path, "collective_share", 0, kShare);
  number_at(v, path, "changed_share", 0, kShare);
  const json& calls = list_at(v, path, "calls");
  for (std::size_t i = 0; i < calls.size(); ++i) check_call(calls[i], item_path(member_path(path, "calls"), i));
  name_at(v, path, "verdict", {"baseline", "faster", "slower", "undecided", "not measured"}, "verdict");
  if_present(v, "verdict_reason", [&] { text_at(v, path, "verdict_reason"); });
  if_present(v, "speedup", [&] { check_speedup(v, path); });
  if_present(v, "profile_calls", [&] {
    const json& p = object_at(v, path, "profile_calls");
    const std::string at = member_path(path, "profile_calls");
    number_at(p, at, "chosen", 0, kCalls);
    if (const json& taken = member(p, at, "taken"); !taken.is_null()) number_in(taken, member_path(at, "taken"), 0, kCalls);
    number_at(p, at, "left_at_default", 0, kCalls);
  });
  if_present(v, "predicted", [&] {
    const json& p = object_at(v, path, "predicted");
    const std::string at = member_path(path, "predicted");
    number_at(p, at, "speedup", 0, kSpeedup);
    number_at(p, at, "saved_s", kAnyFinite, kSaving);
    text_at(p, at, "method");
  });
  if_present(v, "realized_saving", [&] {
    const json& r = object_at(v, path, "realized_saving");
    const std::string at = member_path(path, "realized_saving");
    for (const char* key : {"run_s", "in_collectives_s", "outside_collectives_s"}) number_at(r, at, key, kAnyFinite, kSaving);
    text_at(r, at, "method");
  });
  if_present(v, "selected_by", [&] {
    for (const auto& [name, value] : object_at(v, path, "selected_by").items())
      require_text(value, fmt::format("{}.selected_by[\"{}\"]", path, printable(name)));
  });
  if_present(v, "changes_calls", [&] {
    if (!v["changes_calls"].is_boolean())
      refuse(member_path(path, "changes_calls"), fmt::format("is {}, not true or false", kind_of(v["changes_calls"])));
  });
}

// The variants the run measured (application.json's): their names, unique, are the set results name.
std::set<std::string> check_variants(const json& report) {
  std::set<std::string> names;
  const json& variants = list_at(report, "", "variants");
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const std::string path = item_path("variants", i);
    const json& v = variants[i];
    if (!v.is_object()) refuse(path, fmt::format("is {}, not an object", kind_of(v)));
    const std::string name = text_at(v, path, "name");
    if (!names.insert(name).second) refuse(member_path(path, "name"), fmt::format("'{}' is listed twice", printable(name)));
    for (const char* key : {"algorithms", "env_given", "env"})
      if_present(v, key, [&] {
        for (const auto& [k, value] : object_at(v, path, key).items())
          require_text(value, fmt::format("{}.{}[\"{}\"]", path, key, printable(k)));
      });
    if_present(v, "profile", [&] {
      if (!v["profile"].is_null() && !v["profile"].is_object())
        refuse(member_path(path, "profile"), fmt::format("is {}, not an object or null", kind_of(v["profile"])));
    });
  }
  return names;
}

void check_figure(const json& report) {
  const json& f = member(report, "", "figure_of_merit");
  if (f.is_null()) return;
  if (!f.is_object()) refuse("figure_of_merit", fmt::format("is {}, not an object or null", kind_of(f)));
  name_at(f, "figure_of_merit", "better", {"higher", "lower"}, "direction");
  for (const char* key : {"unit", "pattern", "file"})
    if_present(f, key, [&] { text_at(f, "figure_of_merit", key); });
}

void check_fields(const json& report) {
  name_at(report, "", "kind", {"application"}, "kind of application report");
  text_at(report, "", "name");
  const json& command = list_at(report, "", "command");
  for (std::size_t i = 0; i < command.size(); ++i) require_text(command[i], item_path("command", i));
  text_at(report, "", "platform");
  const json& mpi = object_at(report, "", "mpi");
  name_at(mpi, "mpi", "library", mpi_library_names(), "MPI library pico runs");
  text_at(mpi, "mpi", "version");
  if_present(report, "started_utc", [&] { text_at(report, "", "started_utc"); });
  if_present(report, "metric", [&] { name_at(report, "", "metric", {"figure_of_merit", "wall_s"}, "metric"); });
  check_figure(report);
  whole_at(report, "", "rounds", 1, INT_MAX);
  whole_at(report, "", "repetitions", 1, INT_MAX);
  for (const char* key : {"launches_planned", "launches_run", "failed_launches"}) whole_at(report, "", key, 0, INT_MAX);
  if_present(report, "pooled_from", [&] {
    const json& runs = list_at(report, "", "pooled_from");
    for (std::size_t i = 0; i < runs.size(); ++i) require_text(runs[i], item_path("pooled_from", i));
  });
  const std::set<std::string> variants = check_variants(report);
  const json& processes = list_at(report, "", "processes");
  for (std::size_t i = 0; i < processes.size(); ++i) {
    const std::string path = item_path("processes", i);
    const json& per_np = processes[i];
    if (!per_np.is_object()) refuse(path, fmt::format("is {}, not an object", kind_of(per_np)));
    whole_at(per_np, path, "np", 1, INT_MAX);
    const json& results = list_at(per_np, path, "variants");
    // Every view takes the first as the default the others are weighed against.
    if (results.empty()) refuse(member_path(path, "variants"), "is empty: the default's results come first");
    for (std::size_t k = 0; k < results.size(); ++k)
      check_variant_result(results[k], item_path(member_path(path, "variants"), k), variants);
  }
}

// A launch's counts as the app counter's files gave them (application_run.cpp's read_counts).
void check_counts(const json& record) {
  const json& counts = member(record, "", "counts");
  if (!counts.is_object()) refuse("counts", fmt::format("is {}, not an object", kind_of(counts)));
  whole_at(counts, "counts", "ranks", 0, INT_MAX);
  if_present(counts, "interposer", [&] {
    if (!counts["interposer"].is_boolean())
      refuse("counts.interposer", fmt::format("is {}, not true or false", kind_of(counts["interposer"])));
  });
  const json& calls = list_at(counts, "counts", "calls");
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const std::string path = item_path("counts.calls", i);
    const json& c = calls[i];
    if (!c.is_object()) refuse(path, fmt::format("is {}, not an object", kind_of(c)));
    const std::string collective = text_at(c, path, "collective");
    if (!counted_collective(collective))
      refuse(member_path(path, "collective"),
             fmt::format("is '{}', which is no collective the app counter counts", printable(collective)));
    whole_at(c, path, "comm_size", 1, INT_MAX);
    whole_at(c, path, "bytes", 0, INT64_MAX);
    number_at(c, path, "calls", 0, kCalls);
    number_at(c, path, "seconds", 0, kTime);
    if_present(c, "functions", [&] {
      const json& functions = list_at(c, path, "functions");
      for (std::size_t k = 0; k < functions.size(); ++k)
        require_text(functions[k], item_path(member_path(path, "functions"), k));
    });
  }
  for (const char* key : {"collective_s_by_rank", "mpi_s_by_rank"})
    if_present(counts, key, [&] {
      const json& by_rank = list_at(counts, "counts", key);
      for (std::size_t r = 0; r < by_rank.size(); ++r) number_in(by_rank[r], item_path(member_path("counts", key), r), 0, kTime);
    });
}

void check_launch_fields(const json& record, const std::set<std::string>& variants) {
  if (!record.is_object()) refuse("the record", fmt::format("is {}, not an object", kind_of(record)));
  whole_at(record, "", "launch", 0, INT_MAX);
  whole_at(record, "", "np", 1, INT_MAX);
  whole_at(record, "", "round", 0, INT_MAX);
  name_at(record, "", "variant", variants, "variant application.json lists");
  name_at(record, "", "status", {"failed", "ok"}, "launch status");
  number_at(record, "", "wall_s", 0, kTime);
  if_present(record, "figure_of_merit", [&] { number_at(record, "", "figure_of_merit", kAnyFinite, "a figure of merit is finite"); });
  for (const char* key : {"reason", "output_tail"})
    if_present(record, key, [&] { text_at(record, "", key); });
  for (const char* key : {"exit_code", "signal"})
    if (record.contains(key) && !record[key].is_null()) whole_in(record[key], key, INT_MIN, INT_MAX);
  if_present(record, "counts", [&] { check_counts(record); });
}

std::set<std::string> check_run_fields(const json& run) {
  if (!run.is_object()) refuse("the record", fmt::format("is {}, not an object", kind_of(run)));
  const json& e = object_at(run, "", "experiment");
  text_at(e, "experiment", "name");
  const json& command = list_at(e, "experiment", "command");
  for (std::size_t i = 0; i < command.size(); ++i) require_text(command[i], item_path("experiment.command", i));
  const json& processes = list_at(e, "experiment", "processes");
  for (std::size_t i = 0; i < processes.size(); ++i) whole_in(processes[i], item_path("experiment.processes", i), 1, INT_MAX);
  whole_at(e, "experiment", "rounds", 1, INT_MAX);
  whole_at(e, "experiment", "repetitions", 1, INT_MAX);
  if (e.contains("figure_of_merit")) {
    const json& f = object_at(e, "experiment", "figure_of_merit");
    name_at(f, "experiment.figure_of_merit", "better", {"higher", "lower"}, "direction");
  }
  text_at(run, "", "platform");
  const json& mpi = object_at(run, "", "mpi");
  name_at(mpi, "mpi", "library", mpi_library_names(), "MPI library pico runs");
  text_at(mpi, "mpi", "version");
  if_present(run, "started_utc", [&] { text_at(run, "", "started_utc"); });
  const std::set<std::string> names = check_variants(run);
  if (names.empty()) refuse("variants", "is empty: the default comes first");
  const json& variants = run["variants"];
  for (std::size_t i = 0; i < variants.size(); ++i)
    if (const json& p = variants[i].value("profile", json()); p.is_object())
      for (const char* key : {"copy", "hash"})
        if (p.contains(key)) require_text(p[key], fmt::format("variants[{}].profile.{}", i, key));
  return names;
}

}  // namespace

std::set<std::string> check_application_run(const json& run, const std::string& file) {
  try {
    return check_run_fields(run);
  } catch (const std::runtime_error& e) {
    throw InputError(file, fmt::format("malformed run record: {}", e.what()),
                     "pico reads the application.json pico run wrote, unedited; run the experiment anew");
  }
}

void check_application_launch(const json& record, const std::string& file, std::size_t index,
                              const std::set<std::string>& variants) {
  try {
    check_launch_fields(record, variants);
  } catch (const std::runtime_error& e) {
    throw InputError(file, fmt::format("malformed launch record {}: {}", index, e.what()),
                     "pico reads the launches.jsonl pico run appends to, unedited; remove the record (its launch "
                     "runs again on pico run --resume DIR) or run the experiment anew");
  }
}

void check_application_report(const json& report, const std::string& file) {
  const char* hint =
      "pico reads the report.json an application run writes, unedited (docs/applications.md#the-report); "
      "pico run --resume DIR writes it anew from the run's application.json and launches.jsonl";
  if (!report.is_object()) throw InputError(file, "not an application report: the JSON is not an object", hint);
  const auto schema = report.find("schema");
  if (schema == report.end() || !schema->is_string())
    throw InputError(file, "not an application report: no \"schema\" member", hint);
  if (*schema != kApplicationReportSchema)
    throw InputError(file, fmt::format("a report of schema '{}', not {}", printable(schema->get<std::string>()),
                                       kApplicationReportSchema),
                     hint);
  try {
    check_fields(report);
  } catch (const std::runtime_error& e) {
    throw InputError(file, fmt::format("malformed application report: {}", e.what()), hint);
  }
}

}  // namespace pico
