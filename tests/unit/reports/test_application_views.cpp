// SPDX-License-Identifier: BSD-3-Clause
// An application report's views that need no run: its numbers written without
// exponents, the terminal view's colours (a verdict's, never an undecided's),
// and the HTML page's data: the text table's cells, the report's strings kept
// inside the data's script element (tests/e2e: application_html draws it).
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "reports/application_html.hpp"
#include "reports/application_table.hpp"
#include "reports/application_texts.hpp"
#include "reports/html_report.hpp"

using namespace pico;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {

json variant(const std::string& name, const std::string& verdict, double estimate, double low, double high) {
  json v = {{"variant", name},      {"launches_ok", 3},         {"launches_failed", 0}, {"median", 20250.0},
            {"verdict", verdict},   {"collective_share", 0.25}, {"changed_share", 0.1}, {"failures", json::array()},
            {"calls", json::array()}, {"value_by_round", {20000.0, 20250.0, 20500.0}}};
  if (verdict != "baseline")
    v["speedup"] = {{"estimate", estimate}, {"low", low}, {"high", high}, {"method", "bootstrap"}, {"paired_rounds", 3}};
  return v;
}

json example_report(const std::string& command_word) {
  json call = {{"collective", "allreduce"}, {"comm_size", 2}, {"bytes", 262144}, {"calls", 20250.0},
               {"seconds", 1.2e-05},        {"ran", {{"ring", 20.0}}}, {"default_ran", "recursive_doubling"},
               {"call_speedup", 1.5}};
  json faster = variant("fast", "faster", 1.25, 1.1, 1.4), undecided = variant("unsure", "undecided", 1.02, 0.9, 1.2);
  faster["calls"].push_back(call);
  return {{"schema", "pico-application-report/1"},
          {"kind", "application"},
          {"name", "app"},
          {"command", {"app", command_word}},
          {"platform", "local"},
          {"mpi", {{"library", "openmpi"}, {"version", "4.1.4"}}},
          {"started_utc", "2026-12-02T02:07:34Z"},
          {"figure_of_merit", nullptr},
          {"rounds", 3},
          {"repetitions", 1},
          {"launches_run", 9},
          {"launches_planned", 9},
          {"failed_launches", 0},
          {"variants", json::array()},
          {"processes", {{{"np", 2}, {"variants", {variant("default", "baseline", 0, 0, 0), faster, undecided}}}}}};
}

}  // namespace

TEST_CASE("application views: numbers without exponents", "[application][report]") {
  CHECK(number_text(20250) == "20250");
  CHECK(number_text(1.2e-05) == "0.000012");
  CHECK(number_text(0.0009182) == "0.0009182");
  CHECK(number_text(2.44) == "2.44");
  CHECK(number_text(-0.0009513) == "-0.0009513");
  CHECK(number_text(0) == "0");
  const std::string text = application_table(example_report("x"));
  CHECK_THAT(text, Contains("20250"));
  CHECK(text.find("e+0") == std::string::npos);
  CHECK(text.find("e-0") == std::string::npos);
}

TEST_CASE("application views: the terminal view colours a verdict, never an undecided one", "[application][report]") {
  const std::string plain = application_table(example_report("x"));
  CHECK(plain.find('\033') == std::string::npos);
  const std::string coloured = application_table(example_report("x"), true);
  const auto line_of = [&](const std::string& name) {
    const auto at = coloured.find("\n" + name + " ");
    REQUIRE(at != std::string::npos);
    return coloured.substr(at + 1, coloured.find('\n', at + 1) - at - 1);
  };
  CHECK_THAT(line_of("fast"), Contains("\033[1;32m"));
  CHECK(line_of("unsure").find('\033') == std::string::npos);
  // A report's escape sequence is shown, not sent.
  CHECK(application_table(example_report("\033]0;title\007"), true).find("\033]0;") == std::string::npos);
}

TEST_CASE("application views: the page's cells are the text table's, its strings stay data", "[application][html]") {
  const std::string hostile = "</script><img src=x onerror=alert(1)>";
  const json report = example_report(hostile);
  const json data = application_page_data({application_label(report), "r", report});
  CHECK(data["label"] == "1: app on local, openmpi 4.1.4, 2026-12-02 02:07");
  const json& fast = data["processes"][0]["variants"][1];
  CHECK(fast["cells"] == json(variant_cells(report["processes"][0]["variants"][1])));
  CHECK(fast["speedup_text"] == "1.250x");
  CHECK(fast["interval_text"] == "[1.100, 1.400]");
  CHECK(fast["calls"][0][3] == "20250");
  CHECK(fast["calls"][0][6] == "0.000012");
  CHECK(data["processes"][0]["variants"][0]["speedup"].is_null());  // the baseline has none of its own
  const std::string page = render_application_html({application_label(report), "r", report}, {"", "", ""});
  CHECK(page.find(hostile) == std::string::npos);
  const auto open = page.find("id=\"pico-data\">") + 15;
  const json embedded = json::parse(page.substr(open, page.find("</script>", open) - open));
  CHECK_THAT(embedded["heading"].get<std::string>(), Contains(hostile));
  CHECK_THAT(page, Contains("picoApplicationPage"));
}
