// pico report RESULTS [--format table|csv|json] [-o FILE]
#include <iostream>
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
    nlohmann::json report;
    try {
      report = load_report(opts->results);
    } catch (const std::exception& e) {
      std::cerr << "pico report: " << e.what() << "\n";
      exit_code = 2;
      return;
    }
    emit(opts->output, opts->output.format == "csv"    ? render_csv(report)
                       : opts->output.format == "json" ? report.dump(1) + "\n"
                                                       : render_table(report));
  });
}

}  // namespace pico::cli
