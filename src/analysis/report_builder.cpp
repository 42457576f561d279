#include "analysis/report_builder.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "core/case.hpp"
#include "core/case_result.hpp"
#include "core/file_io.hpp"
#include "core/jsonl.hpp"
#include "core/whole_file.hpp"

namespace pico {
namespace fs = std::filesystem;

namespace {

// The largest JSON file (report.json, run.json, plan.json) pico reads. A
// report holds every case, and with keep_samples every timing sample, so a
// large sweep's report reaches hundreds of MiB; 1 GiB keeps those readable
// while `pico report /dev/zero` or a wrong file is refused before reading.
constexpr std::uintmax_t kMaxJsonFileBytes = 1024 * kMiB;

nlohmann::json read_json(const fs::path& p) {
  if (const auto problem = whole_file_problem(p, kMaxJsonFileBytes))
    throw std::runtime_error(fmt::format("{}: {}", p.string(), *problem));
  std::ifstream in(p);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}", p.string()));
  return nlohmann::json::parse(in);
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
  return {{"schema", "pico-report/1"},
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
  if (!fs::exists(p)) throw std::runtime_error(fmt::format("{}: no such report (expected a results directory or report.json)", p.string()));
  return read_json(p);
}

}  // namespace pico
