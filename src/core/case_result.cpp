// SPDX-License-Identifier: BSD-3-Clause
#include "core/case_result.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "core/rank_timing.hpp"
#include "support/json_file.hpp"
#include "support/jsonl.hpp"

namespace pico {
namespace {

using nlohmann::json;

constexpr std::array<std::pair<CaseStatus, std::string_view>, 3> kStatuses{
    {{CaseStatus::ok, "ok"}, {CaseStatus::failed, "failed"}, {CaseStatus::skipped, "skipped"}}};

json optional_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

std::optional<double> optional_number(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::optional<json> optional_member(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return *it;
}

// The worker's form of `selection`: the planned selection and what applying it gave.
json selection_json(const Selection& s, const SelectionOutcome& a) {
  json j = {{"mechanism", s.mechanism}, {"variable", s.variable}, {"value", s.value},
            {"readback", s.readback},   {"parameters", s.parameters}, {"verified", a.verified},
            {"applied", a.applied},     {"verify", s.verify}};
  if (!s.fallback.empty()) j["fallback"] = s.fallback;
  if (!a.note.empty()) j["note"] = a.note;
  if (a.refused) j["refused"] = true;
  if (!a.reported.is_null()) j["reported"] = a.reported;
  if (a.actual) {
    json actual = {{"algorithm", a.actual->algorithm}, {"functions", a.actual->functions},
                   {"source", a.actual->source}};
    if (!a.actual->note.empty()) actual["note"] = a.actual->note;
    j["actual"] = std::move(actual);
  }
  return j;
}

std::optional<ActualSelection> actual_selection_from_json(const json& selection) {
  const auto it = selection.find("actual");
  if (it == selection.end() || !it->is_object()) return std::nullopt;
  ActualSelection a;
  a.algorithm = json_field_or<std::string>(*it, "algorithm", "");
  a.functions = json_field_or(*it, "functions", std::vector<std::string>{});
  a.source = json_field_or<std::string>(*it, "source", "");
  a.note = json_field_or<std::string>(*it, "note", "");
  return a;
}

std::optional<SelectionOutcome> selection_outcome_from_json(const json& record) {
  const auto it = record.find("selection");
  if (it == record.end() || !it->is_object() || !it->contains("verified")) return std::nullopt;
  SelectionOutcome a;
  a.verified = json_field_or(*it, "verified", false);
  a.refused = json_field_or(*it, "refused", false);
  a.applied = json_field_or<std::string>(*it, "applied", "");
  a.note = json_field_or<std::string>(*it, "note", "");
  if (auto reported = optional_member(*it, "reported")) a.reported = std::move(*reported);
  a.actual = actual_selection_from_json(*it);
  return a;
}

json overlap_json(const Overlap& o) {
  return {{"iterations", o.iterations}, {"pure_comm_s", o.pure_comm_s}, {"overall_s", o.overall_s},
          {"compute_s", o.compute_s},   {"init_s", o.init_s},           {"wait_s", o.wait_s},
          {"percent", o.percent}};
}

std::optional<Overlap> overlap_from_json(const json& record) {
  const auto it = record.find("overlap");
  if (it == record.end() || !it->is_object()) return std::nullopt;
  Overlap o;
  o.iterations = json_field_or(*it, "iterations", std::int64_t{0});
  o.pure_comm_s = json_field_or(*it, "pure_comm_s", 0.0);
  o.overall_s = json_field_or(*it, "overall_s", 0.0);
  o.compute_s = json_field_or(*it, "compute_s", 0.0);
  o.init_s = json_field_or(*it, "init_s", 0.0);
  o.wait_s = json_field_or(*it, "wait_s", 0.0);
  o.percent = json_field_or(*it, "percent", 0.0);
  return o;
}

json race_json(const RaceRecord& r) {
  return {{"fate", name(r.fate)},         {"reason", r.reason},     {"rounds", r.rounds},
          {"race_rounds", r.race_rounds}, {"entrants", r.entrants}, {"winner", r.winner},
          {"stop", r.stop},               {"budget_s", r.budget_s}, {"spent_s", r.spent_s}};
}

std::optional<RaceRecord> race_from_json(const json& j) {
  const auto it = j.find("race");
  if (it == j.end() || !it->is_object()) return std::nullopt;
  RaceRecord r;
  const std::string fate = json_field_or<std::string>(*it, "fate", "");
  const auto parsed = parse_race_fate(fate);
  if (!parsed) throw std::runtime_error(fmt::format("fate: unknown value '{}'", fate));
  r.fate = *parsed;
  r.reason = json_field_or<std::string>(*it, "reason", "");
  r.rounds = json_field_or(*it, "rounds", 0);
  r.race_rounds = json_field_or(*it, "race_rounds", 0);
  r.entrants = json_field_or(*it, "entrants", 0);
  r.winner = json_field_or<std::string>(*it, "winner", "");
  r.stop = json_field_or<std::string>(*it, "stop", "");
  r.budget_s = json_field_or(*it, "budget_s", 0.0);
  r.spent_s = json_field_or(*it, "spent_s", 0.0);
  return r;
}

json rounds_json(const RoundsRecord& r) {
  return {{"seed", r.seed}, {"order", r.order}, {"median_s", r.median_s}, {"samples", r.samples}};
}

std::optional<RoundsRecord> rounds_from_json(const json& j) {
  const auto it = j.find("rounds");
  if (it == j.end() || !it->is_object()) return std::nullopt;
  RoundsRecord r;
  r.seed = json_field_or(*it, "seed", std::uint64_t{0});
  r.order = json_field_or(*it, "order", std::vector<int>{});
  r.median_s = json_field_or(*it, "median_s", std::vector<double>{});
  r.samples = json_field_or(*it, "samples", std::vector<std::int64_t>{});
  if (r.samples.size() != r.median_s.size())
    throw std::runtime_error(fmt::format("{} medians but {} sample counts", r.median_s.size(), r.samples.size()));
  return r;
}

}  // namespace

double Overlap::osu_percent(double overall_s, double compute_s, double pure_comm_s) {
  if (!(pure_comm_s > 0)) return 0;
  return std::max(0.0, 100.0 - ((overall_s - compute_s) / pure_comm_s) * 100.0);
}

std::string_view name(CaseStatus s) {
  for (const auto& [v, n] : kStatuses)
    if (v == s) return n;
  return "?";
}

std::optional<CaseStatus> parse_case_status(std::string_view s) {
  for (const auto& [v, n] : kStatuses)
    if (n == s) return v;
  return std::nullopt;
}

std::string sampling_text(std::string_view method, std::int64_t calls) {
  if (method == timing_method::kBarrierEach) return "sample: one call after a barrier (latency)";
  if (method == timing_method::kBackToBack) return "sample: one call of back-to-back calls";
  if (method == timing_method::kBatch)
    return fmt::format("sample: {} back-to-back calls timed together, time / {}", calls, calls);
  if (method == timing_method::kGraph)
    return fmt::format("sample: one replay of a CUDA graph of {} calls, time / {}", calls, calls);
  return "";
}

void CaseResult::fail(std::string why) {
  status = CaseStatus::failed;
  reason = std::move(why);
}

CaseResult unmeasured_result(const Case& c, CaseStatus status, std::string reason, int launch, double elapsed_s) {
  CaseResult r;
  r.c = c;
  r.status = status;
  r.reason = std::move(reason);
  r.launch = launch;
  r.elapsed_s = elapsed_s;
  return r;
}

json to_json(const CaseResult& r) {
  json j = case_to_json(r.c);
  if (r.selection) j["selection"] = selection_json(r.c.selection, *r.selection);
  j["library"] = r.library;
  j["status"] = name(r.status);
  j["reason"] = r.reason;
  j["iterations"] = r.iterations;
  j["warmup"] = r.warmup;
  j["stop_reason"] = r.stop_reason;
  if (!r.timing_method.empty()) {
    j["timing_method"] = r.timing_method;
    j["calls_per_sample"] = r.calls_per_sample;
  }
  j["timing"] = r.timing ? stats_to_json(*r.timing) : json(nullptr);
  j["algbw_GBps"] = optional_json(r.algbw_GBps);
  j["busbw_GBps"] = optional_json(r.busbw_GBps);
  j["validation"] = {{"status", r.validation.status}, {"mismatches", r.validation.mismatches}};
  j["elapsed_s"] = r.elapsed_s;
  j["launch"] = r.launch;
  if (r.samples_s) j["samples_s"] = *r.samples_s;
  if (r.phases) j["phases"] = *r.phases;
  if (r.phases_note) j["phases_note"] = *r.phases_note;
  if (r.device) j["device"] = *r.device;
  if (r.compression) j["compression"] = *r.compression;
  if (r.overlap) j["overlap"] = overlap_json(*r.overlap);
  if (r.race) j["race"] = race_json(*r.race);
  if (r.rounds) j["rounds"] = rounds_json(*r.rounds);
  if (r.rank_timing) j["rank_timing"] = *r.rank_timing;
  if (r.rank_samples) j["rank_samples"] = *r.rank_samples;
  if (r.rank_timing_off) j["rank_timing_off"] = true;
  return j;
}

CaseResult case_result_from_json(const json& j) {
  if (!j.is_object()) throw std::runtime_error("malformed case record: not a JSON object");
  CaseResult r;
  r.c = case_from_json(j);
  try {
    const std::string status = json_field_or<std::string>(j, "status", "ok");
    const auto parsed = parse_case_status(status);
    if (!parsed) throw std::runtime_error(fmt::format("unknown status '{}'", status));
    r.status = *parsed;
    r.library = json_field_or<std::string>(j, "library", "");
    r.reason = json_field_or<std::string>(j, "reason", "");
    r.iterations = json_field_or(j, "iterations", std::int64_t{0});
    r.warmup = json_field_or(j, "warmup", 0);
    r.stop_reason = json_field_or<std::string>(j, "stop_reason", "");
    r.timing_method = json_field_or<std::string>(j, "timing_method", "");
    r.calls_per_sample = json_field_or(j, "calls_per_sample", std::int64_t{0});
    if (const auto t = j.find("timing"); t != j.end() && t->is_object()) {
      r.timing = json_section("timing", [&] { return stats_from_json(*t); });
      r.timing->iterations = r.iterations;
    }
    r.algbw_GBps = optional_number(j, "algbw_GBps");
    r.busbw_GBps = optional_number(j, "busbw_GBps");
    if (const auto v = j.find("validation"); v != j.end() && v->is_object()) {
      json_section("validation", [&] {
        r.validation.status = json_field_or<std::string>(*v, "status", "skipped");
        r.validation.mismatches = json_field_or(*v, "mismatches", std::uint64_t{0});
      });
    }
    r.elapsed_s = json_field_or(j, "elapsed_s", 0.0);
    r.launch = json_field_or(j, "launch", -1);
    r.selection = json_section("selection", [&] { return selection_outcome_from_json(j); });
    if (const auto s = j.find("samples_s"); s != j.end() && s->is_array())
      r.samples_s = json_field<std::vector<double>>(j, "samples_s");
    r.phases = optional_member(j, "phases");
    if (const auto note = j.find("phases_note"); note != j.end() && note->is_string()) r.phases_note = note->get<std::string>();
    r.device = optional_member(j, "device");
    r.compression = optional_member(j, "compression");
    r.overlap = json_section("overlap", [&] { return overlap_from_json(j); });
    r.race = json_section("race", [&] { return race_from_json(j); });
    r.rounds = json_section("rounds", [&] { return rounds_from_json(j); });
    r.rank_timing = optional_member(j, "rank_timing");
    if (r.rank_timing) json_section("rank_timing", [&] { return rank_timing_from_json(*r.rank_timing); });
    r.rank_samples = optional_member(j, "rank_samples");
    r.rank_timing_off = json_field_or(j, "rank_timing_off", false);
  } catch (const std::exception& e) {  // a json type error, or an unknown status
    throw std::runtime_error(fmt::format("malformed case record {}: {}", r.c.case_id, json_error_text(e)));
  }
  return r;
}

std::vector<CaseResult> case_results_of(const json& report) {
  std::vector<CaseResult> out;
  const auto it = report.find("cases");
  if (it == report.end() || !it->is_array()) return out;
  for (const json& c : *it) out.push_back(case_result_from_json(c));
  return out;
}

}  // namespace pico
