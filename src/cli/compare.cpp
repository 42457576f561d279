// SPDX-License-Identifier: BSD-3-Clause
// pico compare BASELINE [CANDIDATE] [--baseline-case BACKEND:ALGORITHM] [--best] [--format table|csv|json] [-o FILE]
#include <memory>

#include <fmt/format.h>

#include "analysis/report_builder.hpp"
#include "cli/commands.hpp"
#include "cli/read_report.hpp"
#include "cli/rendered_output.hpp"
#include "reports/compare.hpp"
#include "reports/html_data.hpp"

namespace pico::cli {

void add_compare(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "compare", "Speedup, time breakdown and error of candidates against a baseline (two reports, or one report's "
                 "compressed cases against its dense ones)");
  struct Options {
    std::string baseline, candidate;
    CompareOptions compare;
    bool best = false;
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
  add_output_options(cmd, opts->output);
  cmd->callback([opts, &exit_code] {
    emit_or_complain("compare", opts->output, [&]() -> std::string {
      const nlohmann::json baseline = read_report(opts->baseline);
      if (opts->best) {
        nlohmann::json rows = best_per_size_rows(baseline, opts->baseline, opts->compare);
        if (!opts->candidate.empty())
          for (auto& row : best_per_size_rows(read_report(opts->candidate), opts->candidate, opts->compare))
            rows.push_back(std::move(row));
        if (opts->output.format == "csv") return render_best_csv(rows);
        if (opts->output.format == "json") return rows.dump(1) + "\n";
        return render_best_table(rows);
      }
      nlohmann::json candidate;
      if (!opts->candidate.empty()) candidate = read_report(opts->candidate);
      const nlohmann::json rows =
          compare_reports(baseline, opts->candidate.empty() ? nullptr : &candidate, opts->compare);
      if (opts->output.format == "csv") return render_compare_csv(rows);
      if (opts->output.format == "json") return rows.dump(1) + "\n";
      // Which report is the baseline, said first (the table's rows name algorithms only).
      const std::string reports =
          opts->candidate.empty()
              ? ""
              : fmt::format("baseline report: {} ({})\ncandidate report: {} ({})\n", opts->baseline,
                            report_label(baseline, 1), opts->candidate, report_label(candidate, 2));
      return reports + render_compare_table(rows);
    }, exit_code);
  });
}

}  // namespace pico::cli
