// pico report RESULTS [--format table|csv|json] [-o FILE]
#include <memory>

#include "analysis/report_builder.hpp"
#include "cli/commands.hpp"
#include "cli/rendered_output.hpp"
#include "reports/render.hpp"

namespace pico::cli {

void add_report(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("report", "Print a report as a table, CSV or JSON");
  struct Options {
    std::string results;
    RenderedOutput output;
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("results", opts->results, "Results directory or report.json")->required();
  add_output_options(cmd, opts->output);
  cmd->callback([opts, &exit_code] {
    emit_or_complain("report", opts->output, [&]() -> std::string {
      const nlohmann::json report = load_report(opts->results);
      if (opts->output.format == "csv") return render_csv(report);
      if (opts->output.format == "json") return report.dump(1) + "\n";
      return render_table(report);
    }, exit_code);
  });
}

}  // namespace pico::cli
