#include "analysis/report_builder.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "core/case.hpp"
#include "core/case_result.hpp"
#include "core/file_io.hpp"
#include "core/input_error.hpp"
#include "core/json_file.hpp"
#include "core/jsonl.hpp"

namespace pico {
namespace fs = std::filesystem;

namespace {

nlohmann::json read_json(const fs::path& p) {
  return read_json_file(p, "give a results directory or the report.json in it");
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
  std::size_t index = 0;
  try {
    for (; index < cases->size(); ++index) case_result_from_json((*cases)[index]);
  } catch (const std::exception& e) {
    throw InputError(file, fmt::format("malformed report: cases[{}]: {}", index, json_error_text(e)), hint);
  }
}

// Launch info files in launch order; provenance comes from the first one, the rest are listed.
std::vector<nlohmann::json> launch_infos(const fs::path& dir, int launches) {
  std::vector<nlohmann::json> out;
  for (int k = 0; k < launches; ++k) {
    const auto p = dir / fmt::format("launch-{}.info.json", k);
    if (fs::exists(p)) out.push_back(read_json(p));
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
  for (const auto& info : infos)
    per_launch.push_back({{"launch", info.value("launch", -1)}, {"hosts", info.at("hosts")}, {"ranks", info.at("ranks")}});
  p["launches"] = per_launch;
  // The library the front end planned for beside `mpi`, the one the worker met
  // (a launch whose worker met another failed its cases, core/mpi_identity.hpp).
  p["mpi_planned"] = planned_mpi(run);
  p["front_end_env"] = run.at("front_end").at("env");
  p["launch_commands"] = run.at("front_end").at("launch_commands");
  p["user"] = run.at("front_end").at("user");
  p["hostname"] = run.at("front_end").at("hostname");
  p["started_utc"] = run.at("run").at("started_utc");
  // A Slurm run: job id, node list and allocation, as Slurm reported them when the job ended.
  if (run.contains("slurm")) p["slurm"] = run.at("slurm");
  // An emulated cluster: its nodes, addresses and link rates, as its script built them.
  if (run.contains("emulated")) p["emulated"] = run.at("emulated");
  return p;
}

}  // namespace

nlohmann::json build_report(const std::string& dir_string) {
  const fs::path dir(dir_string);
  const nlohmann::json run = read_json(dir / "run.json");
  const nlohmann::json plan = read_json(dir / "plan.json");

  // The last record of a case wins: a resumed run may have measured it again.
  std::map<std::string, CaseResult> results;
  for (const auto& line : read_json_lines((dir / "cases.jsonl").string())) {
    CaseResult r = case_result_from_json(line);
    const std::string id = r.c.case_id;
    results.insert_or_assign(id, std::move(r));
  }

  nlohmann::json cases = nlohmann::json::array();
  for (const auto& planned : plan.at("cases")) {
    const Case c = case_from_json(planned);
    if (auto it = results.find(c.case_id); it != results.end()) {
      cases.push_back(to_json(it->second));
    } else {
      cases.push_back(to_json(unmeasured_result(c, CaseStatus::failed,
                                                "no result: the run ended before this case finished", -1, 0)));
    }
  }

  const int launches = run.at("run").at("launches").get<int>();
  return {{"schema", kReportSchema},
          {"pico", run.at("pico")},
          {"experiment", run.at("experiment")},
          {"platform", run.at("platform")},
          {"provenance", provenance(run, launch_infos(dir, launches))},
          {"run", run.at("run")},
          {"cases", cases}};
}

void write_json_atomically(const std::string& path, const nlohmann::json& j) {
  const std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  try {
    write_text_file(tmp, j.dump(1) + "\n");
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

nlohmann::json load_report(const std::string& dir_or_file) {
  fs::path p(dir_or_file);
  if (fs::is_directory(p)) p /= "report.json";
  if (!fs::exists(p))
    throw InputError(p.string(), "no such report", "give a results directory (results/<platform>/<run>/) or its report.json");
  nlohmann::json report = read_json(p);
  check_report(report, p.string());
  return report;
}

}  // namespace pico
