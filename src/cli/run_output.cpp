#include "cli/run_output.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "launch/mpi_detect.hpp"
#include "reports/render.hpp"

namespace pico::cli {

int execute_and_print(const RunRequest& request, bool dry_run, bool quiet) {
  if (dry_run) {
    const PlanTarget target = plan_target_for(request.platform);
    fmt::print("{}", dry_run_text(make_plan(request.experiment, target), request.platform, target,
                                  request.output_dir.empty() ? "RESULTS_DIR" : request.output_dir));
    return 0;
  }
  const RunResult result = run_experiment(request);
  if (!quiet) fmt::print("{}", render_table(result.report));
  fmt::print("report: {}\n", (std::filesystem::path(result.dir) / "report.json").string());
  return result.exit_code;
}

}  // namespace pico::cli
