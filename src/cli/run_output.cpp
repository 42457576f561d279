// SPDX-License-Identifier: BSD-3-Clause
#include "cli/run_output.hpp"

#include <cstdio>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/reproducibility.hpp"
#include "cli/read_report.hpp"
#include "core/host_load.hpp"
#include "core/report_facts.hpp"
#include "launch/launcher.hpp"
#include "launch/mpi_detect.hpp"
#include "launch/pilot.hpp"
#include "launch/profile_loading.hpp"
#include "reports/render.hpp"
#include "support/load_average.hpp"
#include "support/terminal.hpp"
#include "support/wrapped_text.hpp"

namespace pico::cli {

int execute_and_print(const RunRequest& request, bool dry_run, bool quiet, TableStyle style, std::size_t width) {
  if (dry_run) {
    const PlanTarget target = plan_target_for(request.platform);
    Plan plan = make_plan(request.experiment, target);
    std::fputs(warnings_text(plan).c_str(), stderr);
    // A dry run shows what a run would do, so it refuses what a run would refuse.
    check_launches_fit(request.platform, process_counts(plan));
    worker_path(request.platform, target.mpi_library);
    // Before the profile's variables: they name files of a results directory the pilot does not have.
    std::optional<PilotOutcome> pilot;
    if (request.estimate) pilot = run_pilot(plan, request.platform, target, request.progress);
    const std::string profile = !request.profile.empty() ? request.profile : request.platform.tuning_profile;
    std::string loads;
    // The launch commands shown carry what the real launch sets, the profile's variables included.
    Platform platform = request.platform;
    if (!profile.empty()) {
      const ProfileLoad load = prepare_profile_load(profile, request.profile.empty() ? "tuning.profile" : "--profile",
                                                    target, plan);
      apply_launch_env(load, plan);
      std::vector<std::string> files;
      for (const LoadedFile& f : load.files) files.push_back("RESULTS_DIR/" + f.file_name);
      for (const auto& [k, v] : profile_variables(load, files)) platform.env[k] = v;
      loads = "\n" + wrapped(fmt::format("profile: {} loaded as {} ({}) on every launch", profile, load.formats(),
                                         fmt::join(files, ", ")),
                             kProseWidth, "  ");
    }
    const std::string text =
        dry_run_text(plan, platform, target, request.output_dir.empty() ? "RESULTS_DIR" : request.output_dir,
                     request.experiment.name, 0, request.output_base, width, pilot ? &*pilot : nullptr);
    // Ranks that would wait for cores, said before anything runs (the run says it again as it starts), and
    // after every refusal: a warning ahead of an error would break the one error format.
    std::fputs(crowding_warnings(request.platform, process_counts(plan), load_average_1min()).c_str(), stderr);
    fmt::print("{}{}", text, loads);
    return 0;
  }
  return print_result(run_experiment(request), quiet, style, width);
}

int print_result(const RunResult& result, bool quiet, TableStyle style, std::size_t width) {
  if (result.report.is_null()) {
    fmt::print("job: {} {}\nresults: {}\n", result.job_id, result.job_state, result.dir);
    return 0;
  }
  if (!result.job_id.empty()) fmt::print("job: {} {}\n", result.job_id, result.job_state);
  // std::fputs, not fmt::print: a reader that went away (SIGPIPE, handled as an
  // interruption) must not turn a written report into an error exit.
  if (!quiet) {
    std::fputs(render_table(result.report, style, colour_allowed(stdout), width).c_str(), stdout);
    std::fputs(reproducibility_line(result.report).c_str(), stdout);
  }
  // What the library ran under: a tuned profile loaded (run --profile, a platform's tuning.profile).
  if (const auto profile = report_facts(result.report).profile) {
    const nlohmann::json& p = *profile;
    std::fputs(wrapped(fmt::format("profile: {} loaded into {} {} as {} ({}; its variables in report.json's "
                                   "provenance.profile.env)",
                                   p.value("path", "?"), p.value("library", "?"), p.value("version", ""),
                                   p.value("format", "?"), p.value("file", "?")),
                       kProseWidth, "  ")
                   .c_str(),
               stdout);
  }
  warn_about(result.report, result.dir);
  if (result.report_written) fmt::print("report: {}\n", (std::filesystem::path(result.dir) / "report.json").string());
  if (!result.write_error.empty()) fmt::print(stderr, "pico: error: could not write results: {}\n", result.write_error);
  return result.exit_code;
}

}  // namespace pico::cli
