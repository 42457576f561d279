// SPDX-License-Identifier: BSD-3-Clause
// pico report RESULTS... [--format table|csv|json|html|term] [-o FILE]
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "analysis/report_builder.hpp"
#include "analysis/reproducibility.hpp"
#include "cli/commands.hpp"
#include "cli/read_report.hpp"
#include "cli/rendered_output.hpp"
#include "reports/application_html.hpp"
#include "reports/application_sweep.hpp"
#include "reports/application_table.hpp"
#include "reports/compare.hpp"
#include "reports/fitted_table.hpp"
#include "reports/guidelines_table.hpp"
#include "reports/html_data.hpp"
#include "reports/html_report.hpp"
#include "reports/render.hpp"
#include "reports/terminal_view.hpp"
#include "support/input_error.hpp"
#include "support/terminal.hpp"

namespace pico::cli {

void add_report(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("report", "Print a report as a table, CSV or JSON, or its answers for a terminal (term), or draw reports as an HTML page");
  struct Options {
    std::vector<std::string> results;
    std::vector<std::string> labels;
    RenderedOutput output;
    bool wide = false;
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("results", opts->results,
                  "Results directory or report.json; several with --format html (one page compares them), two with "
                  "--format table or term (the second against the first, as pico compare)")
      ->required();
  cmd->add_option("--label", opts->labels,
                  "With --format html: how the page names a report, once per report in the order given (default: "
                  "experiment, platform, library and start time)");
  cmd->add_flag("--wide", opts->wide, "Tables in full width (default: fitted to 100 columns)");
  add_output_options(cmd, opts->output, {"table", "csv", "json", "html", "term", "sweep"});
  cmd->callback([opts, &exit_code] {
    emit_or_complain(opts->output, [&]() -> std::string {
      if (!opts->labels.empty() && opts->output.format != "html")
        throw InputError("--label", "names reports on an HTML page", "add --format html, or leave --label out");
      if (opts->labels.size() > opts->results.size())
        throw InputError("--label", fmt::format("{} labels for {} report(s)", opts->labels.size(), opts->results.size()),
                         "give at most one --label per report, in the order of the reports");
      if (opts->output.format == "html") {
        const VegaLibrary library = load_vega_library();  // first: a missing library fails before any reading
        // Several runs of one application experiment make one page, their rounds pooled.
        if (const auto app = application_report_of(opts->results)) {
          const std::string& path = opts->results.front();
          opts->output.described = "HTML page of an application run";
          return render_application_html(
              {application_label(*app, opts->labels.empty() ? "" : opts->labels.front()), path, *app}, library);
        }
        std::vector<LabelledReport> reports;
        for (const auto& path : opts->results) {
          nlohmann::json report = read_report(path);
          const std::size_t i = reports.size();
          reports.push_back({report_label(report, i + 1, i < opts->labels.size() ? opts->labels[i] : ""), path,
                             std::move(report)});
        }
        opts->output.described = fmt::format("HTML page of {} report{}", reports.size(), reports.size() == 1 ? "" : "s");
        return render_html(reports, library, opts->labels);
      }
      if (const auto app = application_report_of(opts->results)) {
        if (opts->output.format == "json") return app->dump(1) + "\n";
        const std::size_t width = opts->wide ? kUnlimitedWidth : kDefaultTableWidth;
        if (opts->output.format == "table") return application_table(*app, false, width);
        if (opts->output.format == "term") return application_table(*app, opts->output.colour(), width);
        if (opts->output.format == "sweep") return application_sweep_experiment(*app);
        throw InputError("--format " + opts->output.format,
                         "an application run's report is shown as a table, a terminal view, JSON or an HTML page, or "
                         "written as the sweep it needs",
                         "use --format table, term, json, html or sweep");
      }
      const bool two_as_text = opts->results.size() == 2 && (opts->output.format == "table" || opts->output.format == "term");
      if (opts->results.size() != 1 && !two_as_text)
        throw InputError("--format " + opts->output.format,
                               fmt::format("takes one results directory or report.json, {} given", opts->results.size()),
                               "draw several reports on one page with --format html, or compare two with pico compare "
                               "(or --format table or term)");
      if (two_as_text) {
        // Two reports: the second's cases against the first's, the speedups pico compare and the HTML page print.
        const nlohmann::json baseline = read_report(opts->results[0]), candidate = read_report(opts->results[1]);
        const std::vector<ComparedPair> rows = compare_reports(baseline, &candidate, {});
        const std::string heading =
            wrapped(fmt::format("baseline report: {} ({})\ncandidate report: {} ({})", opts->results[0],
                                report_label(baseline, 1), opts->results[1], report_label(candidate, 2)),
                    kProseWidth, "  ");
        return heading + (opts->output.format == "term"
                              ? render_compare_summary(rows, opts->wide                 ? kUnlimitedWidth
                                                             : opts->output.path.empty() ? terminal_width(stdout, 120)
                                                                                         : 120)
                              : render_compare_table(rows, opts->wide ? kUnlimitedWidth : kDefaultTableWidth));
      }
      if (opts->output.format == "sweep") {
        throw InputError("--format sweep", "writes the sweep an application run needs, and this is a sweep's report",
                         "give the results directory of an application experiment");
      }
      const nlohmann::json report = read_report(opts->results.front());
      if (opts->output.format == "csv") return render_csv(report);
      if (opts->output.format == "json") return report.dump(1) + "\n";
      if (opts->output.format == "term")  // a file gets 120 columns and no colour
        return render_terminal(report, opts->output.path.empty() ? terminal_width(stdout, 120) : 120,
                               opts->output.colour(), reproducibility_line(report)) +
               render_guidelines(report);
      return render_table(report, TableStyle::cases, opts->output.colour(),
                          opts->wide ? kUnlimitedWidth : kDefaultTableWidth) + reproducibility_line(report) +
             render_guidelines(report);
    }, exit_code);
  });
}

}  // namespace pico::cli
