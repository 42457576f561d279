// pico report RESULTS [--format table|csv|json] [-o FILE]
#include <fstream>
#include <iostream>

#include <memory>

#include <fmt/format.h>

#include "analysis/report_builder.hpp"
#include "cli/commands.hpp"
#include "reports/render.hpp"

namespace pico::cli {

void add_report(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("report", "Print a report as a table, CSV or JSON");
  struct Options {
    std::string results, format = "table", output;
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("results", opts->results, "Results directory or report.json")->required();
  cmd->add_option("-f,--format", opts->format, "table | csv | json")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", opts->output, "Write to FILE instead of standard output");
  cmd->callback([opts, &exit_code] {
    nlohmann::json report;
    try {
      report = load_report(opts->results);
    } catch (const std::exception& e) {
      std::cerr << "pico report: " << e.what() << "\n";
      exit_code = 2;
      return;
    }
    std::string text = opts->format == "csv"    ? render_csv(report)
                       : opts->format == "json" ? report.dump(1) + "\n"
                                                : render_table(report);
    if (opts->output.empty()) {
      fmt::print("{}", text);
    } else {
      std::ofstream(opts->output) << text;
    }
  });
}

}  // namespace pico::cli
