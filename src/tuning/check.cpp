// SPDX-License-Identifier: BSD-3-Clause
#include "tuning/check.hpp"

#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "core/input_error.hpp"

namespace pico {

namespace {

// The acceptance bounds of a loaded profile: the tuned default within 10% of
// the sweep's best, and never more than 5% slower than the old default.
constexpr double kNearBest = 1.10;
constexpr double kNoWorseThanDefault = 1.05;

bool ran_with_profile(const LoadedReport& r) {
  const auto& prov = r.report.value("provenance", nlohmann::json::object());
  return prov.contains("profile") && prov["profile"].is_object();
}

using SizeKey = std::tuple<Collective, int, int, int, std::uint64_t>;

std::map<SizeKey, const SizeChoice*> by_size(const TuneAnalysis& a) {
  std::map<SizeKey, const SizeChoice*> m;
  for (const KeyChoices& kc : a.keys)
    for (const SizeChoice& s : kc.sizes)
      m[{kc.key.collective, kc.key.comm_size, kc.key.nodes, kc.key.ppn, s.bytes}] = &s;
  return m;
}

std::string ran_text(const std::string& choice, const std::vector<std::string>& actual) {
  if (choice == "default" || actual.empty()) return "";
  std::set<std::string> other;
  for (const std::string& a : actual)
    if (a != choice) other.insert(a);
  if (other.empty()) return "yes";
  std::string names;
  for (const std::string& o : other) names += (names.empty() ? "" : ",") + o;
  return "no: ran " + names;
}

}  // namespace

CheckResult check_profile_against(const TunedProfile& profile, const std::string& profile_path,
                                  const std::vector<LoadedReport>& reports, const TuneOptions& options) {
  std::vector<LoadedReport> tuned, sweeps;
  for (const LoadedReport& r : reports) (ran_with_profile(r) ? tuned : sweeps).push_back(r);
  if (tuned.empty())
    throw InputError("pico tune --check", "no report ran with a profile loaded",
                     "give the results of `pico run EXPERIMENT --profile PROFILE` beside the sweep's");
  if (sweeps.empty())
    throw InputError("pico tune --check", "no sweep report (one run without a profile) to compare with",
                     "give the sweep's results the profile was tuned from beside the tuned run's");
  const TuneAnalysis t = analyse_reports(tuned, options);
  const TuneAnalysis s = analyse_reports(sweeps, options);
  if (t.library.name != profile.library.name || t.library.version != profile.library.version)
    throw InputError(profile_path,
                     fmt::format("the profile is for {} {}, the tuned runs measured {} {}", profile.library.name,
                                 profile.library.version, t.library.name, t.library.version),
                     "check a profile against runs of its own library");
  CheckResult result;
  const auto sweep_sizes = by_size(s);
  for (const auto& [key, tuned_size] : by_size(t)) {
    const auto it = sweep_sizes.find(key);
    const auto& [coll, np, nodes, ppn, bytes] = key;
    if (it == sweep_sizes.end()) {
      result.unmatched.push_back(fmt::format("{} np {} {} B: measured tuned only", name(coll), np, bytes));
      continue;
    }
    CheckRow row;
    row.key = {coll, np, nodes, ppn};
    row.bytes = bytes;
    const ProfileRange* range = profile.choose(coll, np, bytes, nodes);
    row.profile_choice = range ? range->algorithm : "(no rule)";
    row.tuned_s = tuned_size->default_time_s;
    row.best_s = it->second->fastest_time_s;
    row.best = it->second->fastest;
    row.old_default_s = it->second->default_time_s;
    row.tuned_launches = tuned_size->default_launches;
    row.sweep_launches = it->second->default_launches;
    row.ran = ran_text(row.profile_choice, tuned_size->default_actual);
    result.rows.push_back(row);
  }
  return result;
}

std::string render_check(const CheckResult& result, const TuneOptions& options) {
  std::string out = fmt::format("objective {}; tuned = the library default with the profile loaded\n",
                                name(options.objective));
  out += fmt::format("{:<10} {:>4} {:>10}  {:<22} {:>11} {:>11} {:>11}  {:<22} {:>9} {:>9}  {:<8} {}\n", "collective",
                     "np", "bytes", "profile", "tuned_s", "best_s", "default_s", "best", "tuned/bst", "tuned/def",
                     "verdict", "ran");
  int bad = 0;
  for (const CheckRow& r : result.rows) {
    const double vs_best = r.best_s > 0 ? r.tuned_s / r.best_s : 0;
    const double vs_default = r.old_default_s > 0 ? r.tuned_s / r.old_default_s : 0;
    std::string verdict = "ok";
    if (vs_default > kNoWorseThanDefault) verdict = "SLOWER";
    else if (vs_best > kNearBest) verdict = "FAR";
    if (verdict != "ok") ++bad;
    out += fmt::format("{:<10} {:>4} {:>10}  {:<22} {:>11.4e} {:>11.4e} {:>11.4e}  {:<22} {:>9.3f} {:>9.3f}  {:<8} {}\n",
                       name(r.key.collective), r.key.comm_size, r.bytes, r.profile_choice, r.tuned_s, r.best_s,
                       r.old_default_s, r.best, vs_best, vs_default, verdict, r.ran);
  }
  for (const std::string& u : result.unmatched) out += u + "\n";
  out += fmt::format("{} of {} sizes within {:.0f}% of the sweep's best and at most {:.0f}% slower than the old "
                     "default (SLOWER: worse than the old default; FAR: far from the best)\n",
                     result.rows.size() - static_cast<std::size_t>(bad), result.rows.size(), (kNearBest - 1) * 100,
                     (kNoWorseThanDefault - 1) * 100);
  return out;
}

}  // namespace pico
