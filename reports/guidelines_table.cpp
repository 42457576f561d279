// SPDX-License-Identifier: BSD-3-Clause
#include "reports/guidelines_table.hpp"

#include <array>

#include <fmt/format.h>

#include "core/speedup.hpp"
#include "reports/text_table.hpp"
#include "support/size_text.hpp"

namespace pico {
namespace {

constexpr std::array<TextColumn, 8> kGuidelineColumns = {{
    {"collective", false},
    {"mock-up", false},
    {"np", true},
    {"size", true},
    {"dtype", false},
    {"default/mock-up", true},
    {"95% CI", false},
    {"verdict", false},
}};

// As core/speedup.hpp's texts print a speedup, from the section's numbers.
std::string interval_text(const nlohmann::json& check) {
  if (!check.at("ratio_low").is_number()) return "none";
  return fmt::format("[{}, {}]", speedup_figure(check.at("ratio_low").get<double>()),
                     speedup_figure(check.at("ratio_high").get<double>()));
}

}  // namespace

std::string render_guidelines(const nlohmann::json& report) {
  const auto it = report.find("guidelines");
  if (it == report.end() || !it->is_object()) return "";
  const nlohmann::json& g = *it;
  std::string out = fmt::format("\nperformance guidelines: {} checked, {} violated ({})\n", g.at("checked").get<int>(),
                                g.at("violated").get<int>(), g.at("rule").get<std::string>());
  std::vector<std::vector<std::string>> rows;
  std::string violations;
  for (const nlohmann::json& k : g.at("checks")) {
    rows.push_back({k.at("collective").get<std::string>(), k.at("composition").get<std::string>(),
                    fmt::format("{}", k.at("np").get<int>()), size_text(k.at("bytes").get<std::uint64_t>()),
                    k.at("dtype").get<std::string>(), speedup_figure(k.at("ratio").get<double>()) + "x",
                    interval_text(k), k.at("verdict").get<std::string>()});
    if (k.at("verdict") == "violated")
      violations += fmt::format("  {} (sizes: {})\n", k.at("text").get<std::string>(), k.at("sizes").get<std::string>());
  }
  if (!rows.empty()) out += aligned_table(kGuidelineColumns, rows);
  if (!violations.empty()) out += "violations:\n" + violations;
  for (const nlohmann::json& u : g.at("unchecked")) out += fmt::format("  not checked: {}\n", u.get<std::string>());
  if (const int skipped = g.at("skipped").get<int>(); skipped > 0)
    out += fmt::format("  {} mock-up case(s) skipped by the plan (each case says why)\n", skipped);
  return out;
}

}  // namespace pico
