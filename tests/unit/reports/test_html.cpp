// SPDX-License-Identifier: BSD-3-Clause
// The HTML report's parts that need no browser: the page data's tables, the
// escaping that keeps data inside its script element, the template filled
// once, and the missing-library error (tests/e2e: html_report draws it).
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <fstream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "reports/html_report.hpp"
#include "scratch_dir.hpp"
#include "support/input_error.hpp"

using namespace pico;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {

json example_report() {
  std::ifstream in(PICO_TEST_DATA_DIR "/report-example.json");
  REQUIRE(in.good());
  return json::parse(in);
}

// The decoded value of column `column` in row `row` of a page-data table.
json cell(const json& data, const char* table, std::size_t row, const std::string& column) {
  const json& t = data["tables"][table];
  const auto& columns = t["columns"];
  const auto at = static_cast<std::size_t>(std::find(columns.begin(), columns.end(), column) - columns.begin());
  REQUIRE(at < columns.size());
  const json& v = t["rows"][row][at];
  const auto& strings = t["strings"];
  if (std::find(strings.begin(), strings.end(), column) != strings.end() && !v.is_null())
    return data["strings"][v.get<std::size_t>()];
  return v;
}

}  // namespace

TEST_CASE("html page data: one row per case, repeated strings stored once", "[html]") {
  const json report = example_report();
  const json data = html_page_data({{report_label(report, 1), "r.json", report}, {"2: again", "s.json", report}});
  const std::size_t n = report["cases"].size();
  REQUIRE(data["tables"]["cases"]["rows"].size() == 2 * n);
  CHECK(cell(data, "cases", 0, "collective") == report["cases"][0]["collective"]);
  CHECK(cell(data, "cases", 0, "median_s") == report["cases"][0]["timing"]["median_s"]);
  CHECK(cell(data, "cases", 0, "size") == "4KiB");
  CHECK(cell(data, "cases", n, "report") == "2: again");
  // Strings are unique in the list.
  std::set<std::string> unique;
  for (const auto& s : data["strings"]) CHECK(unique.insert(s.get<std::string>()).second);
  CHECK(data["reports"].size() == 2);
  CHECK(data["reports"][0]["cases"] == n);
  bool has_mpi_row = false;
  for (const auto& row : data["reports"][0]["provenance"]) has_mpi_row |= row[0] == "MPI library";
  CHECK(has_mpi_row);
  // A measured case's size has a best row.
  CHECK(data["tables"]["best"]["rows"].size() >= 1);
}

TEST_CASE("html page data: the provenance rows read the report's facts", "[html]") {
  const json report = example_report();
  const json data = html_page_data({{report_label(report, 1), "r.json", report}});
  std::map<std::string, std::string> rows;
  for (const auto& row : data["reports"][0]["provenance"]) rows[row[0]] = row[1];
  // Two runs of one setup differ in their start; a user's --label replaces the rest.
  CHECK(report_label(report, 1) == "1: example on local, openmpi 4.1.4, 2024-05-01 10:00");
  CHECK(report_label(report, 2, "before the upgrade") == "2: before the upgrade");
  CHECK(rows["pico"] == "0.1.0 (0123456789ab, RelWithDebInfo)");
  CHECK(rows["experiment"] == "example (configs/examples/example.yaml)");
  CHECK(rows["platform"] == "local (platforms/local.yaml)");
  CHECK(rows["run"] == "2024-05-01T10:00:00Z to 2024-05-01T10:00:12Z, 12.5 s in 2 launch(es)");
  CHECK(rows["MPI library"].starts_with("Open MPI v4.1.4, package"));
  CHECK(rows["MPI standard"] == "3.1");
  CHECK(rows["hosts"] == "node01: 4 rank(s), 1 package(s), 1 NUMA node(s), 8 cores, 16 PUs");
  CHECK_THAT(rows["launch commands"], Contains("--launch 0\nmpirun -np 4"));
  CHECK(rows["environment (rank 0)"] == "OMPI_MCA_btl=self,vader\nPATH=/usr/local/bin:/usr/bin:/bin");
  CHECK(rows["front end"] == "alice@login01");
  CHECK(rows.count("GPU devices") == 0);  // no GPU in the report: no row
}

TEST_CASE("html page data: a non-blocking case's overlap row points at its case", "[html][overlap]") {
  json report = example_report();
  CHECK(html_page_data({{"1", "r.json", report}})["tables"]["overlap"]["rows"].empty());
  report["cases"][0]["options"] = {{"call", "nonblocking"}};
  report["cases"][0]["overlap"] = {{"iterations", 40}, {"pure_comm_s", 4e-6}, {"overall_s", 12e-6},
                                   {"compute_s", 10e-6}, {"init_s", 1e-6},     {"wait_s", 1e-6},
                                   {"percent", 50}};
  const json data = html_page_data({{"1", "r.json", report}});
  REQUIRE(data["tables"]["overlap"]["rows"].size() == 1);
  CHECK(cell(data, "overlap", 0, "case") == 0);
  CHECK(cell(data, "overlap", 0, "overlap_percent") == 50);
  CHECK(cell(data, "overlap", 0, "pure_comm_s") == 4e-6);
  CHECK(cell(data, "cases", 0, "algorithm") == "mpi/default (nonblocking)");
}

TEST_CASE("html: data cannot end its script element", "[html]") {
  const std::string text = script_safe_json(json{{"reason", "</script><script>alert(1)</script>"}});
  CHECK(text.find('<') == std::string::npos);
  CHECK(json::parse(text)["reason"] == "</script><script>alert(1)</script>");
  CHECK(html_escaped("a<b & \"c\"") == "a&lt;b &amp; &quot;c&quot;");
}

TEST_CASE("html: the page inlines the libraries, the data and the charts once", "[html]") {
  const json report = example_report();
  const VegaLibrary library{"/*VEGA-LIB*/", "/*VEGA-LITE-LIB*/", "/*VEGA-EMBED-LIB*/"};
  const std::string page = render_html({{report_label(report, 1), "r.json", report}}, library);
  CHECK(page.starts_with("<!doctype html>"));
  for (const char* part : {"/*VEGA-LIB*/", "/*VEGA-LITE-LIB*/", "/*VEGA-EMBED-LIB*/", "vegaEmbed(", "id=\"pico-data\""})
    CHECK_THAT(page, Contains(part));
  CHECK(page.find("@@DATA@@") == std::string::npos);
  CHECK(page.find("@@CHARTS@@") == std::string::npos);
  const auto open = page.find("id=\"pico-data\">") + 15;
  const json data = json::parse(page.substr(open, page.find("</script>", open) - open));
  CHECK(data["tables"]["cases"]["rows"].size() == report["cases"].size());
  CHECK_THROWS(render_html({}, VegaLibrary{"x</script>", "", ""}));
}

TEST_CASE("html: the title names one run by its experiment, several by their labels", "[html]") {
  const json report = example_report();
  const LabelledReport one{report_label(report, 1), "r.json", report};
  CHECK(html_title({one}, {}) == "pico report: example");  // no "1:" where nothing else is numbered
  CHECK(html_title({{report_label(report, 1, "before"), "r.json", report}}, {"before"}) == "pico report: before");
  CHECK(html_title({one, {report_label(report, 2), "s.json", report}}, {}) ==
        "pico report: 1: example on local, openmpi 4.1.4, 2024-05-01 10:00; "
        "2: example on local, openmpi 4.1.4, 2024-05-01 10:00");
  const std::string page = render_html({one}, VegaLibrary{"", "", ""});
  CHECK_THAT(page, Contains("<title>pico report: example</title>"));
}

TEST_CASE("html: a missing plotting library names the file and how to install it", "[html]") {
  test::ScratchDir dir("html");
  ::setenv("PICO_VEGA_DIR", dir.path().c_str(), 1);
  try {
    load_vega_library();
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK_THAT(e.file, Contains("vega/build/vega.min.js"));
    CHECK_THAT(e.hint, Contains("scripts/setup-vega.sh"));
  }
  // Issue 53, finding 9: a FIFO hung the report, /dev/zero ran out of memory.
  std::filesystem::create_directories(dir.path() / "vega" / "build");
  const std::string fifo = (dir.path() / "vega" / "build" / "vega.min.js").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(load_vega_library(), Contains("vega.min.js: the HTML report's plotting library is a FIFO"));
  std::filesystem::remove(fifo);
  std::filesystem::create_symlink("/dev/zero", fifo);
  CHECK_THROWS_WITH(load_vega_library(), Contains("is a FIFO, device or socket"));
  ::unsetenv("PICO_VEGA_DIR");
}
