// SPDX-License-Identifier: BSD-3-Clause
// pico compare BASELINE [CANDIDATE] [--baseline-case BACKEND:ALGORITHM] [--best] [--format table|csv|json] [-o FILE]
#include <memory>

#include <fmt/format.h>

#include "analysis/report_builder.hpp"
#include "cli/commands.hpp"
#include "cli/read_report.hpp"
#include "cli/rendered_output.hpp"
#include "reports/application_table.hpp"
#include "reports/compare.hpp"
#include "reports/fitted_table.hpp"
#include "reports/html_data.hpp"
#include "support/input_error.hpp"

namespace pico::cli {

void add_compare(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "compare", "Speedup, time breakdown and error of candidates against a baseline (two reports, or one report's "
                 "compressed cases against its dense ones)");
  struct Options {
    std::string baseline, candidate;
    std::vector<std::string> labels;
    CompareOptions compare;
    bool best = false, wide = false;
    RenderedOutput output;
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("baseline", opts->baseline, "Baseline results directory or report.json")->required();
  cmd->add_option("candidate", opts->candidate, "Candidate results directory or report.json (default: the baseline's own other cases)");
  cmd->add_option("--baseline-case", opts->compare.baseline,
                  "BACKEND:ALGORITHM of the baseline where several cases share a size (default compressed:dense, "
                  "nccl_compressed:dense, then mpi:default)");
  cmd->add_flag("--best", opts->best,
                "Per size, the fastest algorithm and what the reference (--baseline-case, else the default) loses "
                "against it; of each report given");
  cmd->add_option("--label", opts->labels,
                  "How to name the baseline report, then the candidate (default: experiment, platform, library and "
                  "start time)");
  cmd->add_flag("--wide", opts->wide, "Print the table in full width (default: fitted to 100 columns)");
  add_output_options(cmd, opts->output);
  cmd->callback([opts, &exit_code] {
    const std::size_t width = opts->wide ? kUnlimitedWidth : kDefaultTableWidth;
    emit_or_complain(opts->output, [&]() -> std::string {
      if (!opts->labels.empty() && opts->candidate.empty() && !opts->best)
        throw InputError("--label", "names reports, and one report compared with itself is not named",
                         "give a candidate report or --best, or leave --label out");
      const std::size_t report_count = opts->candidate.empty() ? 1 : 2;
      if (opts->labels.size() > report_count)
        throw InputError("--label", fmt::format("{} labels for {} report(s)", opts->labels.size(), report_count),
                         "give at most one --label per report: the baseline's, then the candidate's");
      const auto label_of = [&](const nlohmann::json& report, std::size_t number) {
        return report_label(report, number, number <= opts->labels.size() ? opts->labels[number - 1] : "");
      };
      if (const auto app = application_report_at(opts->baseline)) {
        // An application run compares its own variants with its default, round by round.
        if (!opts->candidate.empty() || opts->best || opts->output.format != "table")
          throw InputError(opts->baseline, "an application run is compared within itself: its variants against its "
                                           "default, as the table of pico report shows",
                           "pico compare APP_RUN (no candidate, no --best), or pico report APP_RUN --format json");
        return application_table(*app);
      }
      const nlohmann::json baseline = read_report(opts->baseline);
      if (opts->best) {
        // Rows name their report by path, or by the label given for it.
        const auto name_of = [&](const std::string& path, std::size_t number) {
          return number <= opts->labels.size() ? opts->labels[number - 1] : path;
        };
        std::vector<BestRow> rows = best_per_size_rows(baseline, name_of(opts->baseline, 1), opts->compare);
        if (!opts->candidate.empty())
          for (BestRow& row : best_per_size_rows(read_report(opts->candidate), name_of(opts->candidate, 2), opts->compare))
            rows.push_back(std::move(row));
        if (opts->output.format == "csv") return render_best_csv(rows);
        if (opts->output.format == "json") return nlohmann::json(rows).dump(1) + "\n";
        return render_best_table(rows, width);
      }
      nlohmann::json candidate;
      if (!opts->candidate.empty()) candidate = read_report(opts->candidate);
      const std::vector<ComparedPair> rows =
          compare_reports(baseline, opts->candidate.empty() ? nullptr : &candidate, opts->compare);
      if (opts->output.format == "csv") return render_compare_csv(rows);
      if (opts->output.format == "json") return nlohmann::json(rows).dump(1) + "\n";
      // Which report is the baseline, said first (the table's rows name algorithms only).
      const std::string reports =
          opts->candidate.empty()
              ? ""
              : wrapped(fmt::format("baseline report: {} ({})\ncandidate report: {} ({})", opts->baseline,
                                    label_of(baseline, 1), opts->candidate, label_of(candidate, 2)),
                        kProseWidth, "  ");
      return reports + render_compare_table(rows, width);
    }, exit_code);
  });
}

}  // namespace pico::cli
