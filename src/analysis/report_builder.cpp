// SPDX-License-Identifier: BSD-3-Clause
#include "analysis/report_builder.hpp"
#include "analysis/guidelines_check.hpp"
#include "analysis/reproducibility.hpp"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/case.hpp"
#include "core/case_result.hpp"
#include "core/link_probe.hpp"
#include "core/oversubscription.hpp"
#include "core/placement_mismatch.hpp"
#include "core/run_stragglers.hpp"
#include "support/file_io.hpp"
#include "support/input_error.hpp"
#include "support/json_file.hpp"
#include "support/jsonl.hpp"
#include "support/results_file.hpp"

namespace pico {
namespace fs = std::filesystem;

namespace {

// Sizes past this cannot be a case pico ran (nor one a library reads).
constexpr std::uint64_t kMaxReportBytes = (std::uint64_t{1} << 63) - 1;

// More launches than a run could make: a run.json claiming more was edited.
constexpr int kMaxLaunches = 1 << 20;

constexpr const char* kDirHint = "give a results directory or the report.json in it";

// A file pico wrote in the results directory, read as results files are (never through a link).
nlohmann::json read_written(const fs::path& p) {
  std::optional<nlohmann::json> j = read_results_json(p.string(), "");
  if (!j) throw InputError(p.string(), "no such file: not a complete pico results directory", kDirHint);
  return std::move(*j);
}

// Why a case's numbers cannot be what pico measured, or "": the renderers,
// compare and tune divide by the objectives (median, mean, p95) and take
// logarithms, so one of 0 or below (-inf, 0.000x speedups), any negative or
// infinite time, or a size past 2^63 is refused by name. A single sample, or
// the minimum, may read 0 on a coarse clock.
std::string implausible(const CaseResult& r) {
  if (r.c.bytes > kMaxReportBytes) return fmt::format("bytes {} is past 2^63-1", r.c.bytes);
  const auto negative = [](double t) { return !std::isfinite(t) || t < 0; };
  if (r.timing) {
    const TimingStats& t = *r.timing;
    for (const auto& [key, v] : {std::pair{"median_s", t.median_s}, {"mean_s", t.mean_s}, {"p95_s", t.p95_s}})
      if (negative(v) || v == 0)
        return fmt::format("timing.{} is {}: a measured time is a positive number of seconds", key, v);
    for (const auto& [key, v] : {std::pair{"min_s", t.min_s}, {"max_s", t.max_s}, {"p5_s", t.p5_s},
                                 {"p99_s", t.p99_s}, {"stddev_s", t.stddev_s}, {"cv", t.cv},
                                 {"ci95_low_s", t.ci95_low_s}, {"ci95_high_s", t.ci95_high_s}})
      if (negative(v)) return fmt::format("timing.{} is {}: it must be finite and not negative", key, v);
  }
  if (r.samples_s)
    for (const double s : *r.samples_s)
      if (negative(s)) return fmt::format("samples_s holds {}: a measured time is not negative", s);
  for (const auto& [key, v] : {std::pair{"algbw_GBps", r.algbw_GBps}, {"busbw_GBps", r.busbw_GBps}})
    if (v && (!std::isfinite(*v) || *v < 0)) return fmt::format("{} is {}: a bandwidth is not negative", key, *v);
  return "";
}

// What pico report, compare and the HTML page rely on, checked once where a
// report is read, so that a report of another tool, another schema version
// or a damaged one is refused by name rather than rendered empty.
void check_report(const nlohmann::json& report, const std::string& file) {
  const char* hint = "pico reads the report.json it writes (schema pico-report/1): give a results directory";
  if (!report.is_object()) throw InputError(file, "not a pico report: the JSON is not an object", hint);
  const auto schema = report.find("schema");
  if (schema == report.end() || !schema->is_string())
    throw InputError(file, "not a pico report: no \"schema\" member", hint);
  if (*schema != kReportSchema)
    throw InputError(file, fmt::format("a report of schema '{}', not {}", schema->get<std::string>(), kReportSchema),
                     schema->get<std::string>().rfind("pico-report/", 0) == 0
                         ? "use the pico version that wrote it, or rebuild the report with this one: pico collect DIR"
                         : hint);
  const auto cases = report.find("cases");
  if (cases == report.end() || !cases->is_array())
    throw InputError(file, "malformed report: \"cases\" is missing or not a list", hint);
  for (const char* section : {"experiment", "platform", "provenance", "run"}) {
    const auto it = report.find(section);
    if (it == report.end() || !it->is_object())
      throw InputError(file, fmt::format("malformed report: \"{}\" is missing or not an object", section), hint);
  }
  // Printed by report, run and tune: read here once, so that a damaged one is refused by name.
  if (const auto it = report.find("reproducibility"); it != report.end()) {
    try {
      if (!it->is_object()) throw std::runtime_error("not an object");
      reproducibility_from_json(*it);
    } catch (const std::exception& e) {
      throw InputError(file, fmt::format("malformed report: reproducibility: {}", json_error_text(e)), hint);
    }
  }
  std::size_t index = 0;
  std::map<std::string, std::size_t> first_of;  // run key -> index, for duplicates
  try {
    for (; index < cases->size(); ++index) {
      const CaseResult r = case_result_from_json((*cases)[index]);
      if (const std::string why = implausible(r); !why.empty()) throw std::runtime_error(why);
      if (const auto [it, fresh] = first_of.try_emplace(run_key(r.c), index); !fresh)
        throw std::runtime_error(fmt::format("case {} appears twice (cases[{}] too): a report has one record per case",
                                             r.c.case_id, it->second));
    }
  } catch (const std::exception& e) {
    throw InputError(file, fmt::format("malformed report: cases[{}]: {}", index, json_error_text(e)), hint);
  }
}

// Launch info files in launch order; provenance comes from the first one, the rest are listed.
std::vector<nlohmann::json> launch_infos(const fs::path& dir, int launches) {
  std::vector<nlohmann::json> out;
  for (int k = 0; k < launches; ++k) {
    const auto p = dir / fmt::format("launch-{}.info.json", k);
    if (auto info = read_results_json(p.string(), "")) out.push_back(std::move(*info));
  }
  return out;
}

// run.mpi_target, and what the launcher's --version said (null where it was
// not asked, and in runs from before pico recorded it).
nlohmann::json planned_mpi(const nlohmann::json& run) {
  nlohmann::json planned = run.at("run").at("mpi_target");
  planned["launcher"] = run.at("front_end").value("mpi_launcher", nlohmann::json(nullptr));
  return planned;
}

nlohmann::json provenance(const nlohmann::json& run, const std::vector<nlohmann::json>& infos) {
  nlohmann::json p = {{"mpi", {{"library_version", ""}, {"library", "unknown"}, {"version", ""}, {"mpi_standard", ""}}},
                      {"hosts", nlohmann::json::array()},
                      {"ranks", nlohmann::json::array()},
                      {"topology", nlohmann::json::object()},
                      {"env", nlohmann::json::object()}};
  if (!infos.empty()) {
    const auto& first = infos.front();
    for (const char* key : {"mpi", "hosts", "ranks", "topology", "env"}) p[key] = first.at(key);
    if (first.contains("gpu") && !first.at("gpu").is_null()) p["gpu"] = first.at("gpu");
  }
  // Each np has its own placement; keep them all.
  nlohmann::json per_launch = nlohmann::json::array();
  for (const auto& info : infos) {
    per_launch.push_back({{"launch", info.value("launch", -1)}, {"hosts", info.at("hosts")}, {"ranks", info.at("ranks")}});
    // Per-rank timing's clock offsets (docs/report.md#per-rank-timing); absent from launches before pico took them.
    if (info.contains("clock_sync") && !info.at("clock_sync").is_null()) per_launch.back()["clock_sync"] = info.at("clock_sync");
    // The pairwise link probe beside them (docs/report.md#slow-links); absent before pico took it.
    if (info.contains("link_probe") && !info.at("link_probe").is_null()) per_launch.back()["link_probe"] = info.at("link_probe");
  }
  p["launches"] = per_launch;
  // The library the front end planned for beside `mpi`, the one the worker met
  // (a launch whose worker met another failed its cases, core/mpi_identity.hpp).
  p["mpi_planned"] = planned_mpi(run);
  p["front_end_env"] = run.at("front_end").at("env");
  // The tuned profile the run loaded into the library (pico run --profile).
  if (run.at("front_end").contains("profile")) p["profile"] = run.at("front_end").at("profile");
  p["launch_commands"] = run.at("front_end").at("launch_commands");
  if (run.at("front_end").contains("catalogs")) p["catalogs"] = run.at("front_end").at("catalogs");
  p["user"] = run.at("front_end").at("user");
  p["hostname"] = run.at("front_end").at("hostname");
  p["started_utc"] = run.at("run").at("started_utc");
  // A Slurm run: job id, node list and allocation, as Slurm reported them when the job ended.
  if (run.contains("slurm")) p["slurm"] = run.at("slurm");
  // An emulated cluster: its nodes, addresses and link rates, as its script built them.
  if (run.contains("emulated")) p["emulated"] = run.at("emulated");
  // The placement the plan assumed (nodes, balance) for the constraints of hierarchical algorithms.
  if (run.contains("placement")) p["placement_planned"] = run.at("placement");
  // Launches whose ranks outnumbered a host's cores (their times measure descheduling too).
  p["oversubscribed"] = to_json(oversubscribed(p));
  // Launches whose ranks ran on other hosts than the placement planned (a platform claiming nodes it did not use).
  p["placement_mismatch"] = to_json(placement_mismatches(p));
  return p;
}

}  // namespace

nlohmann::json build_report(const std::string& dir_string) {
  const fs::path dir(dir_string);
  const nlohmann::json run = read_written(dir / "run.json");
  const nlohmann::json plan = read_written(dir / "plan.json");

  // The last record of a case wins: a resumed run may have measured it again.
  std::map<std::string, CaseResult> results;
  const std::string cases_file = (dir / "cases.jsonl").string();
  reading_file(cases_file, [&] {
    std::size_t record = 0;
    for (const auto& line : read_json_lines(cases_file)) {
      ++record;
      CaseResult r = case_result_from_json(line);
      // Refused here, not copied: a report holding it is one pico report refuses.
      if (const std::string why = implausible(r); !why.empty())
        throw std::runtime_error(fmt::format("record {} (case {}): {}", record, r.c.case_id, why));
      const std::string id = run_key(r.c);
      results.insert_or_assign(id, std::move(r));
    }
  });

  nlohmann::json cases = nlohmann::json::array();
  std::vector<CaseResult> recorded;  // the planned cases' records, for the reproducibility
  reading_file((dir / "plan.json").string(), [&] {
    std::map<std::string, std::string> planned_ids;  // run key -> case id, for duplicates
    for (const auto& planned : plan.at("cases")) {
      const Case c = case_from_json(planned);
      if (!planned_ids.try_emplace(run_key(c), c.case_id).second)
        throw std::runtime_error(fmt::format("case {} is planned twice: a plan lists each case once", c.case_id));
      if (auto it = results.find(run_key(c)); it != results.end()) {
        cases.push_back(to_json(it->second));
        recorded.push_back(std::move(it->second));  // each run key is planned once (above)
      } else {
        cases.push_back(to_json(unmeasured_result(c, CaseStatus::failed,
                                                  "no result: the run ended before this case finished", -1, 0)));
      }
    }
  });

  return reading_file((dir / "run.json").string(), [&]() -> nlohmann::json {
    // What the report copies must be what a report holds, or pico writes a report it cannot read.
    for (const char* section : {"experiment", "platform", "run"})
      if (!run.at(section).is_object()) throw std::runtime_error(fmt::format("\"{}\" is not an object", section));
    const auto launches = static_cast<int>(json_int(run.at("run").at("launches"), 0, kMaxLaunches));
    nlohmann::json prov = provenance(run, launch_infos(dir, launches));
    nlohmann::json report = {{"schema", kReportSchema},
                             {"pico", run.at("pico")},
                             {"experiment", run.at("experiment")},
                             {"platform", run.at("platform")},
                             {"provenance", prov},
                             {"run", run.at("run")},
                             {"cases", cases},
                             {"reproducibility", to_json(split_half_agreement(recorded))}};
    // Only where the experiment ran mock-ups (docs/report.md#guidelines).
    const nlohmann::json& mpi = prov.at("mpi");
    if (nlohmann::json g = guidelines_to_json(check_guidelines(recorded, mpi.value("library", ""), mpi.value("version", "")));
        !g.is_null())
      report["guidelines"] = std::move(g);
    // Only where some case has per-rank timing (docs/report.md#stragglers).
    if (nlohmann::json s = to_json(find_stragglers(report)); !s.is_null()) report["stragglers"] = std::move(s);
    // Only where some launch probed its links or per-rank timing was off (docs/report.md#slow-links).
    if (nlohmann::json l = to_json(find_slow_links(report)); !l.is_null()) report["slow_links"] = std::move(l);
    return report;
  });
}

void write_json_atomically(const std::string& path, const nlohmann::json& j) {
  const std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  try {
    write_results_file(tmp, j.dump(1) + "\n");
  } catch (const WriteError&) {
    std::remove(tmp.c_str());
    throw;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int rename_errno = errno;
    std::remove(tmp.c_str());
    throw WriteError(path, rename_errno);
  }
}

nlohmann::json load_report(const std::string& dir_or_file, std::uintmax_t max_bytes) {
  fs::path p(dir_or_file);
  if (fs::is_directory(p)) p /= "report.json";
  if (!fs::exists(p))
    throw InputError(p.string(), "no such report", "give a results directory (results/<platform>/<run>/) or its report.json");
  nlohmann::json report = read_json_file(p, kDirHint, max_bytes);
  check_report(report, p.string());
  return report;
}

}  // namespace pico
