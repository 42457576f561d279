// SPDX-License-Identifier: BSD-3-Clause
// pico tune RESULTS... [-o PROFILE] [--objective median|p95] [--min-gain 5%] [--predict-np N...]
// pico tune --check RESULTS... --profile PROFILE
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "analysis/report_builder.hpp"
#include "analysis/reproducibility.hpp"
#include "cli/commands.hpp"
#include "cli/read_report.hpp"
#include "cli/tune_for_application.hpp"
#include "config/units.hpp"
#include "core/build_info.hpp"
#include "instrumentation/provenance.hpp"
#include "support/file_io.hpp"
#include "support/input_error.hpp"
#include "support/wrapped_text.hpp"
#include "tuning/check.hpp"
#include "tuning/comm_size_prediction.hpp"
#include "tuning/profile_hash.hpp"
#include "tuning/run_evidence.hpp"
#include "tuning/tune.hpp"

namespace pico::cli {

namespace {

// "5%", "5 %" or a fraction "0.05"; `flag` names the option in errors.
double parse_fraction_flag(const std::string& text, const char* flag, const char* what) {
  std::string t = text;
  const bool percent = !t.empty() && t.back() == '%';
  if (percent) t.pop_back();
  std::size_t used = 0;
  double v = -1;
  try {
    v = std::stod(t, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != t.size() || v < 0)
    throw InputError(flag, fmt::format("'{}' is not a {}", text, what), "give a percentage (5%) or a fraction (0.05)");
  return percent ? v / 100 : v;
}

}  // namespace

void add_tune(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "tune", "Pick per size the algorithm that beats the library default with confidence: a tuned profile");
  struct Options {
    std::vector<std::string> results;
    std::string output, objective = "median", min_gain = "5%", decide_from = "80%", profile, application, min_saving;
    std::vector<int> predict_np;
    bool check = false, quiet = false, wide = false;
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("results", opts->results, "Sweep results directories or report.json files")->required();
  cmd->add_option("-o,--output", opts->output, "Write the profile here (default: print the summary only)");
  cmd->add_option("--objective", opts->objective, "What to minimise: median or p95")->capture_default_str();
  cmd->add_option("--min-gain", opts->min_gain, "Keep an algorithm only if it beats the default by more than this")
      ->capture_default_str();
  cmd->add_option("--decide-from", opts->decide_from,
                  "Keep a size's choice only where at least this share of the bootstrap puts it within 5% of the "
                  "fastest; elsewhere the size is undecided and keeps the default")
      ->capture_default_str();
  cmd->add_flag("--check", opts->check,
                "Compare runs made with --profile against the sweep: per size tuned default vs best vs old default");
  cmd->add_option("--profile", opts->profile, "The profile the --check runs loaded");
  cmd->add_option("--predict-np", opts->predict_np,
                  "Also fill in rules for these communicator sizes from the measured ones, marked predicted "
                  "(docs/tuning.md#communicator-sizes-not-measured)");
  cmd->add_option("--for-application", opts->application,
                  "An application run (pico run APP.yaml): weigh each choice by what the application's default spent "
                  "at its sizes, and say what the profile saves it per launch (docs/applications.md)");
  cmd->add_option("--min-saving", opts->min_saving,
                  "With --for-application: keep at the default every choice that saves the application less than "
                  "this per launch (e.g. 1ms), sizes it never calls included");
  cmd->add_flag("-q,--quiet", opts->quiet, "No summary");
  cmd->add_flag("--wide", opts->wide, "Print the table in full width (default: fitted to 100 columns)");
  cmd->callback([opts, &exit_code] {
    TuneOptions options;
    const std::size_t width = opts->wide ? kUnlimitedWidth : kDefaultTableWidth;
    const auto objective = parse_objective(opts->objective);
    if (!objective) throw InputError("--objective", fmt::format("unknown objective '{}'", opts->objective), "median or p95");
    options.objective = *objective;
    options.min_gain = parse_fraction_flag(opts->min_gain, "--min-gain", "gain");
    options.decide_from = parse_fraction_flag(opts->decide_from, "--decide-from", "probability");
    if (options.decide_from > 1)
      throw InputError("--decide-from", fmt::format("{} is above 100%", opts->decide_from), "give e.g. 80% or 0.8");
    std::vector<LoadedReport> reports;
    for (const std::string& r : opts->results) reports.push_back({r, read_report(r)});
    if (opts->check) {
      if (opts->profile.empty()) throw InputError("--check", "no profile given", "pico tune --check RESULTS... --profile PROFILE");
      if (!opts->predict_np.empty())
        throw InputError("--predict-np", "--predict-np makes a profile; --check checks one",
                         "pico tune RESULTS... --predict-np N -o PROFILE, then pico tune --check ... --profile PROFILE");
      std::string profile_text;
      const TunedProfile profile = cli::read_profile(opts->profile, &profile_text);
      const CheckResult result =
          check_profile_against(profile, opts->profile, profile_file_hash(profile_text), reports, options);
      std::cout << render_check(result, options, width);
      exit_code = result.failed > 0 ? 1 : 0;  // a size confidently slower than the bounds fails the check
      return;
    }
    if (!opts->profile.empty())
      throw InputError("--profile", "--profile goes with --check", "pico tune RESULTS... -o PROFILE makes one");
    for (int np : opts->predict_np)
      if (np < 1 || np > (1 << 30))
        throw InputError("--predict-np", fmt::format("{} is not a communicator size", np),
                         fmt::format("give sizes from 1 to {}, e.g. --predict-np 8", 1 << 30));
    const TuneAnalysis analysis = analyse_reports(reports, options);
    require_rivals(analysis, reports.front().path);
    if (!opts->quiet) {
      std::cout << render_tune_summary(analysis, options, width);
      for (const LoadedReport& r : distinct_runs(reports).reports)
        if (const std::string line = reproducibility_line(r.report); !line.empty())
          std::cout << wrapped(r.path + ": " + line, kProseWidth, "  ");
    }
    TunedProfile profile = profile_from_analysis(analysis, options);
    for (const std::string& note : add_predicted_rules(profile, opts->predict_np))
      if (!opts->quiet) std::cout << note << "\n";
    if (!opts->min_saving.empty() && opts->application.empty())
      throw InputError("--min-saving", "--min-saving weighs choices by an application's calls, and none was given",
                       "add --for-application APP_RUN");
    if (!opts->application.empty()) {
      const nlohmann::json application = application_for_tuning(opts->application);
      if (!opts->min_saving.empty()) {
        std::string why;
        const auto min_saving = parse_duration_s(opts->min_saving, &why);
        if (!min_saving)
          throw InputError("--min-saving", fmt::format("bad duration '{}': {}", opts->min_saving, why), "e.g. 1ms");
        for (const std::string& line : keep_choices_that_pay(profile, application, *min_saving))
          if (!opts->quiet) std::cout << wrapped(line, width, "  ");
      }
      if (!opts->quiet) std::cout << application_weights_text(profile, application, opts->application, width);
    }
    profile.created = utc_timestamp_iso();
    profile.pico_version = std::string(build::version);
    check_profile(profile, "pico tune");
    if (!opts->output.empty()) {
      write_text_file(opts->output, to_json(profile).dump(2) + "\n");
      if (!opts->quiet) std::cout << render_profile_written(profile, opts->output);
    }
    exit_code = 0;
  });
}

}  // namespace pico::cli
