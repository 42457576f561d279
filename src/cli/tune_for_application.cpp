// SPDX-License-Identifier: BSD-3-Clause
#include "cli/tune_for_application.hpp"

#include <map>

#include <fmt/format.h>

#include "cli/read_report.hpp"
#include "core/speedup.hpp"
#include "reports/fitted_table.hpp"
#include "reports/text_table.hpp"
#include "support/input_error.hpp"
#include "support/size_text.hpp"
#include "tuning/call_site_saving.hpp"
#include "tuning/exported_choice.hpp"

namespace pico::cli {

namespace {

using nlohmann::json;

constexpr std::size_t kSitesShown = 12;

// Where a profile the library cannot load is refused: the one pico tune is writing.
constexpr const char* kTunedProfile = "pico tune";

struct NpSites {
  int np = 0;
  double run_s = 0;  // the default's MPI_Init to MPI_Finalize, median per launch
  std::vector<ApplicationCallSite> sites;
};

// The default variant's call sites per process count.
std::vector<NpSites> default_sites(const json& application) {
  std::vector<NpSites> out;
  for (const json& per_np : application["processes"]) {
    const json& base = per_np["variants"].at(0);  // the default comes first
    NpSites n{per_np["np"].get<int>(), base.value("run_s", 0.0), {}};
    for (const json& c : base["calls"]) {
      const auto collective = parse_collective(c["collective"].get<std::string>());
      if (!collective) continue;
      n.sites.push_back({*collective, c["comm_size"].get<int>(), c["bytes"].get<std::uint64_t>(),
                         c["calls"].get<double>(), c["seconds"].get<double>(), c.value("default_ran", "")});
    }
    out.push_back(std::move(n));
  }
  return out;
}

}  // namespace

json application_for_tuning(const std::string& path) {
  std::optional<json> app = application_report_at(path);
  if (!app)
    throw InputError(path, "not an application run",
                     "give the directory pico run printed for an application experiment (docs/applications.md)");
  bool any = false;
  for (const NpSites& n : default_sites(*app)) any = any || !n.sites.empty();
  if (!any)
    throw InputError(path, "its default recorded no call sites (the app counter runs with Open MPI only)",
                     "run the application experiment on an Open MPI platform");
  return *app;
}

std::vector<std::string> keep_choices_that_pay(TunedProfile& profile, const json& application, double min_saving_s) {
  std::map<const ProfileRange*, double> saving;
  for (const NpSites& n : default_sites(application))
    for (const ApplicationCallSite& site : n.sites) {
      // The range the library applies at the site with the profile loaded (tuning/exported_choice.hpp).
      const ProfileRange* range =
          loaded_rule(profile, kTunedProfile, site.collective, site.comm_size).range_for(site.bytes);
      if (range != nullptr) saving[range] += predicted_saving_at(range, site);
    }
  std::vector<std::string> lines;
  for (ProfileRule& rule : profile.rules)
    for (ProfileRange& range : rule.ranges) {
      if (range.algorithm == "default") continue;
      const double s = saving.count(&range) > 0 ? saving.at(&range) : 0.0;
      if (s >= min_saving_s) continue;
      lines.push_back(fmt::format("{} np {} {}-{}: {} kept at the default: saves the application {:.3g} s per launch",
                                  name(rule.collective), rule.comm_size, size_text(range.min_bytes),
                                  range.max_bytes ? size_text(*range.max_bytes) : "", range.algorithm, s));
      range.algorithm = "default";
      range.params.clear();
      range.speedup.reset();
    }
  return lines;
}

std::string application_weights_text(const TunedProfile& profile, const json& application, const std::string& path,
                                     std::size_t width) {
  std::string out;
  for (const NpSites& n : default_sites(application)) {
    const std::vector<WeightedChoice> weighed = weigh_choices(profile, kTunedProfile, n.sites);
    double saving = 0, in_collectives = 0;
    for (const WeightedChoice& w : weighed) saving += w.saving_s, in_collectives += w.site.default_seconds;
    out += "\n" + wrapped(fmt::format("for application '{}' ({}), np {}: the profile at its default's call sites, "
                                     "per launch",
                                     application["name"].get<std::string>(), path, n.np),
                         width, "  ");
    static constexpr TextColumn kColumns[] = {{"collective", false},     {"comm", true},  {"bytes", true},
                                              {"calls/launch", true},    {"default ran", false},
                                              {"s/launch", true},        {"profile chose", false},
                                              {"sweep said", true},      {"saves s/launch", true}};
    std::vector<std::vector<std::string>> rows;
    for (std::size_t k = 0; k < weighed.size() && k < kSitesShown; ++k) {
      const WeightedChoice& w = weighed[k];
      rows.push_back({std::string(name(w.site.collective)), std::to_string(w.site.comm_size), size_text(w.site.bytes),
                      fmt::format("{:.0f}", w.site.calls), w.site.default_ran.empty() ? "-" : w.site.default_ran,
                      fmt::format("{:.4g}", w.site.default_seconds), w.choice,
                      w.speedup > 0 ? fmt::format("{:.2f}x", w.speedup) : "-",
                      w.saving_s > 0 ? fmt::format("{:.4g}", w.saving_s) : "-"});
    }
    // Fitted (reports/fitted_table.hpp): the algorithms are the names; the calls and the default's time per
    // launch go first where it is still too wide (what the profile saves stays).
    out += fitted_table(kColumns, rows, width, {}, {4, 6}, {3, 5});
    if (weighed.size() > rows.size()) out += fmt::format("... and {} more call site(s)\n", weighed.size() - rows.size());
    std::string predicted =
        fmt::format("predicted: {:.3g} s saved of the default's {:.3g} s in collectives", saving, in_collectives);
    if (n.run_s > saving && n.run_s > 0)
      predicted += fmt::format(" and {:.3g} s run, {}x (the sweep's speedup at each size applied to the default's "
                               "time there)", n.run_s, speedup_figure(n.run_s / (n.run_s - saving)));
    out += wrapped(predicted, width, "  ");
  }
  return out;
}

}  // namespace pico::cli
