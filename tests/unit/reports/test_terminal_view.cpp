// SPDX-License-Identifier: BSD-3-Clause
// `pico report --format term` (reports/terminal_view.hpp): the summary and
// every algorithm over the fastest, fitted to the width given, coloured on
// request.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "reports/terminal_view.hpp"

using namespace pico;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {

// The example report's first case (an ok allreduce on 4 ranks), as each of these algorithms at
// each size: median_us[algorithm index][size index].
json report_of(const std::vector<std::pair<std::string, json>>& algorithms, const std::vector<std::uint64_t>& sizes,
               const std::vector<std::vector<double>>& median_us) {
  std::ifstream in(PICO_TEST_DATA_DIR "/report-example.json");
  REQUIRE(in.good());
  json report = json::parse(in);
  const json model = report["cases"][0];
  report["cases"] = json::array();
  for (std::size_t a = 0; a < algorithms.size(); ++a)
    for (std::size_t s = 0; s < sizes.size(); ++s) {
      json c = model;
      c["index"] = report["cases"].size();
      c["case_id"] = fmt::format("{:016x}", report["cases"].size() + 1);
      c["algorithm"] = algorithms[a].first;
      c["params"] = algorithms[a].second;
      c["bytes"] = sizes[s];
      c["count"] = sizes[s] / 4;
      // Every figure scaled with the median: a median alone moved off its interval and p95 reads as noise
      // (core/noise_guard.hpp).
      const double scale = median_us[a][s] * 1e-6 / model["timing"]["median_s"].get<double>();
      for (auto& [key, value] : c["timing"].items())
        if (key.size() > 2 && key.substr(key.size() - 2) == "_s") value = value.get<double>() * scale;
      report["cases"].push_back(c);
    }
  return report;
}

const std::vector<std::pair<std::string, json>> kAlgorithms = {
    {"default", json::object()},
    {"ring", json::object()},
    {"segmented_ring", {{"segment_size", 8192}}},
    {"segmented_ring", {{"segment_size", 65536}}},
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("terminal view: the summary, then every algorithm over the fastest, best first", "[report][term]") {
  const json report = report_of(kAlgorithms, {1024, 1048576}, {{10, 200}, {12, 100}, {20, 150}, {10, 400}});
  const std::string text = render_terminal(report, 200, false);
  CHECK_THAT(text, Contains("pico report: example on local, openmpi 4.1.4"));
  // One collective, variant and default throughout: said once, above the table.
  CHECK_THAT(text, Contains("collective: allreduce, variant: float32 sum, default: mpi/default"));
  // 1 MiB: ring at 100 us is the fastest, the default loses 2.00x.
  CHECK_THAT(text, Contains(" 4  1MiB  mpi/ring     100         200         2.00x\n"));  // no "default ran": none said
  // Rows by the geometric mean of median over fastest: ring (1.2, 1) then default (1, 2), ...
  const auto lines = lines_of(text);
  const auto row = [&](const std::string& name) {
    return std::find_if(lines.begin(), lines.end(), [&](const std::string& l) { return l.rfind(name + " ", 0) == 0; });
  };
  REQUIRE(row("mpi/ring") != lines.end());
  CHECK(*row("mpi/ring") == fmt::format("{:<38}  1.20  1.00      1.10", "mpi/ring"));
  CHECK(*row("mpi/segmented_ring[segment_size=65536]") == "mpi/segmented_ring[segment_size=65536]  1.00  4.00      2.00");
  CHECK(row("mpi/ring") < row("mpi/default"));
  CHECK(row("mpi/default") < row("mpi/segmented_ring[segment_size=8192]"));
  CHECK(row("mpi/segmented_ring[segment_size=8192]") < row("mpi/segmented_ring[segment_size=65536]"));
  CHECK_THAT(text, Contains("8 cases: 8 ok"));
  CHECK(text.find('\033') == std::string::npos);  // no colour unless asked
}

TEST_CASE("terminal view: narrow, names keep their parameters' values, colour marks the fastest", "[report][term]") {
  const json report = report_of(kAlgorithms, {1024, 1048576}, {{10, 200}, {12, 100}, {20, 150}, {10, 400}});
  const std::string text = render_terminal(report, 50, true);
  // Parameter names by their initials, said once under the table; the values that tell variants apart kept.
  CHECK_THAT(text, Contains("mpi/segmented_ring[ss=8192]") && Contains("mpi/segmented_ring[ss=65536]"));
  CHECK_THAT(text, Contains("parameters: ss segment_size"));
  CHECK_THAT(text, Contains("\033[1;32m1.00\033[0m"));  // the fastest, bold green
  CHECK_THAT(text, Contains("\033[31m4.00\033[0m"));    // twice the fastest or more, red
  for (const std::string& line : lines_of(render_terminal(report, 50, false)))
    if (line.rfind("pico report: ", 0) != 0) CHECK(line.size() <= 50);
}

TEST_CASE("terminal view: sizes past the width go on to a further block of the same rows", "[report][term]") {
  std::vector<std::uint64_t> sizes;
  std::vector<std::vector<double>> medians(kAlgorithms.size());
  for (std::uint64_t bytes = 8; bytes <= (1u << 22); bytes *= 2) {
    sizes.push_back(bytes);
    for (std::size_t a = 0; a < kAlgorithms.size(); ++a) medians[a].push_back(10.0 + static_cast<double>(a));
  }
  const std::string text = render_terminal(report_of(kAlgorithms, sizes, medians), 80, false);
  std::size_t blocks = 0;
  for (const std::string& line : lines_of(text)) {
    CHECK(line.size() <= 80);
    if (line.rfind("algorithm ", 0) == 0) ++blocks;
  }
  CHECK(blocks >= 3);  // 20 sizes of 4-6 columns each beside the names
  CHECK_THAT(text, Contains("geo.mean"));
}

TEST_CASE("terminal view: compressed lines fit with their error column, and like initials stay apart", "[report][term]") {
  // adaptive_topk's min_ratio and max_ratio share initials: the second keeps its name.
  const std::vector<std::pair<std::string, json>> algorithms = {
      {"default", json::object()},
      {"adaptive_topk", {{"min_ratio", 0.001}, {"max_ratio", 0.1}}},
  };
  json report = report_of(algorithms, {1024, 65536, 1048576}, {{10, 20, 40}, {8, 30, 35}});
  for (json& c : report["cases"]) {
    c["backend"] = c["algorithm"] == "default" ? "mpi" : "compressed";
    if (c["backend"] == "compressed") c["compression"] = {{"rel_l2_error", 0.25}, {"bits_per_element", 4.0}};
  }
  for (const std::size_t width : {60, 90}) {
    const std::string text = render_terminal(report, width, false);
    for (const std::string& line : lines_of(text))
      if (line.rfind("pico report: ", 0) != 0) CHECK(line.size() <= width);
    CHECK_THAT(text, Contains("rel L2 (largest)") && Contains("2.50e-01"));
  }
  // At 90 columns the name gives up its algorithm's letters before its parameters' values.
  const std::string text = render_terminal(report, 90, false);
  CHECK_THAT(text, Contains("compressed/adapti..[mr=0.1;min_ratio=0.001]"));
  CHECK_THAT(text, Contains("parameters: mr max_ratio\n"));
}

TEST_CASE("terminal view: a median of tens of milliseconds is digits, never an exponent", "[report][term]") {
  // Issue 65: a 20 ms median printed "2.025e+04" in the summary's us column.
  const json report = report_of(kAlgorithms, {1048576}, {{20250}, {12345.6}, {30000}, {40000}});
  const std::string text = render_terminal(report, 200, false);
  CHECK_THAT(text, Contains("20250"));
  CHECK_THAT(text, Contains("12346"));
  CHECK(text.find("e+0") == std::string::npos);
}

TEST_CASE("terminal view: a fastest whose answer is mostly error is marked, not coloured the winner", "[report][term]") {
  // Issue 65: a compressed winner with relative L2 error 0.96 was shown green "1.00" with nothing flagging it.
  json report = report_of(kAlgorithms, {1048576}, {{200}, {100}, {150}, {400}});
  for (json& c : report["cases"])
    if (c["algorithm"] == "ring") c["compression"] = {{"rel_l2_error", 0.96}, {"bits_per_element", 1}};
  const std::string text = render_terminal(report, 200, true);
  CHECK_THAT(text, Contains("mpi/ring!"));
  CHECK_THAT(text, Contains("!: relative L2 error above 0.5"));
  CHECK(text.find("\033[1;32m1.00") == std::string::npos);  // its 1.00 is not the winner's bold green
  for (json& c : report["cases"])
    if (c["algorithm"] == "ring") c["compression"]["rel_l2_error"] = 0.01;
  const std::string fine = render_terminal(report, 200, true);
  CHECK(fine.find("mpi/ring!") == std::string::npos);
  CHECK_THAT(fine, Contains("\033[1;32m1.00"));
}
