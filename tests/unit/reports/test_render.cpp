// SPDX-License-Identifier: BSD-3-Clause
#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "reports/render.hpp"
#include "reports/terminal_view.hpp"

using nlohmann::json;

namespace {

json load_example_report() {
  std::ifstream in(PICO_TEST_DATA_DIR "/report-example.json");
  REQUIRE(in.good());
  return json::parse(in);
}

std::vector<std::string> split(std::string_view text, std::string_view separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find(separator, start)) != std::string_view::npos; start = end + separator.size())
    parts.emplace_back(text.substr(start, end - start));
  if (start < text.size()) parts.emplace_back(text.substr(start));
  return parts;
}

json report_with_one_case(json c) { return json{{"schema", "pico-report/1"}, {"cases", json::array({std::move(c)})}}; }

const char* const kCsvHeader =
    "case_id,status,reason,backend,library,collective,algorithm,dtype,op,count,bytes,np,in_place,mode,"
    "iterations,min_s,median_s,mean_s,max_s,p5_s,p95_s,p99_s,stddev_s,ci95_low_s,ci95_high_s,algbw_GBps,"
    "busbw_GBps,validation,mismatches,elapsed_s,params";

}  // namespace

TEST_CASE("render_table of the example report", "[render]") {
  const auto lines = split(pico::render_table(load_example_report()), "\n");
  REQUIRE(lines.size() == 6);  // header, rule, 3 cases, summary
  CHECK(lines[0] ==
        "collective  backend/algorithm  dtype    op    np  size  in_place  iterations  median(us)  p95(us)  "
        "busbw(GB/s)  status                                            validation");
  CHECK(lines[1] == std::string(lines[0].size(), '-'));
  CHECK(lines[2] ==
        "allreduce   mpi/default        float32  sum    4  4KiB  no               200       16.00    19.00  "
        "       0.38  ok                                                passed");
  CHECK(lines[3] ==
        "bcast       mpi/default        int32    none   4  1MiB  no                50      125.00   150.00  "
        "       8.39  failed: validation: 1 mismatching element         failed (1)");
  // Null timing and bandwidth print as "-"; the long reason is cut to 40 characters.
  CHECK(lines[4] ==
        "alltoall    mpi/default        float64  none   4   64B  no                 0           -        -  "
        "          -  failed: launch 1 exited with signal 9 before ...  skipped");
  CHECK(lines[5] == "3 cases: 1 ok, 2 failed, 0 skipped");
}

TEST_CASE("render_table cells for sizes, in_place and skipped cases", "[render]") {
  json c = load_example_report()["cases"][0];
  c["bytes"] = 1536;
  c["in_place"] = true;
  c["status"] = "skipped";
  c["reason"] = "not supported";
  c["validation"] = {{"status", "skipped"}, {"mismatches", 0}};
  const auto lines = split(pico::render_table(report_with_one_case(c)), "\n");
  REQUIRE(lines.size() == 4);
  CHECK(lines[2].find("  1.5KiB  yes  ") != std::string::npos);
  CHECK(lines[2].ends_with("  skipped: not supported  skipped"));
  CHECK(lines[3] == "1 case: 0 ok, 0 failed, 1 skipped");

  c["bytes"] = 1000;  // not a multiple of 1024: stays in bytes
  CHECK(pico::render_table(report_with_one_case(c)).find("  1000B  ") != std::string::npos);
}

TEST_CASE("a compressed case's validation cell carries its error (issue 51)", "[render]") {
  json c = load_example_report()["cases"][0];
  c["backend"] = "compressed";
  c["algorithm"] = "topk";
  c["compression"] = {{"rel_l2_error", 0.958}, {"bits_per_element", 2.5}};
  CHECK_THAT(pico::render_table(report_with_one_case(c)), Catch::Matchers::Contains("passed (rel L2 9.58e-01)"));
  c.erase("compression");
  CHECK(split(pico::render_table(report_with_one_case(c)), "\n")[2].ends_with("passed"));
}

TEST_CASE("render_table of a report without cases", "[render]") {
  const auto lines = split(pico::render_table(json{{"cases", json::array()}}), "\n");
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].starts_with("collective  backend/algorithm  dtype  op  np  size"));
  CHECK(lines[2] == "0 cases: 0 ok, 0 failed, 0 skipped");
}

TEST_CASE("render_csv header and records of the example report", "[render]") {
  const std::string csv = pico::render_csv(load_example_report());
  CHECK(csv.ends_with("\r\n"));
  const auto records = split(csv, "\r\n");
  REQUIRE(records.size() == 4);
  CHECK(records[0] == kCsvHeader);
  CHECK(records[1] ==
        "a1b2c3d4e5f60718,ok,,mpi,openmpi,allreduce,default,float32,sum,1024,4096,4,false,latency,200,"
        "1.2e-05,1.6e-05,1.65e-05,4.1e-05,1.3e-05,1.9e-05,2.5e-05,2.5e-06,1.58e-05,1.62e-05,0.256,0.384,"
        "passed,0,0.0042,");
  // Null timing and bandwidths are empty fields.
  CHECK(records[3] ==
        "fedcba9876543210,failed,launch 1 exited with signal 9 before the case ran,mpi,openmpi,alltoall,"
        "default,float64,none,8,64,4,false,throughput,0,,,,,,,,,,,,,skipped,0,0,");
}

TEST_CASE("render_csv quotes fields with commas, quotes and newlines", "[render]") {
  json c = load_example_report()["cases"][1];
  c["reason"] = "validation: \"x\" differs, 1 element";
  auto records = split(pico::render_csv(report_with_one_case(c)), "\r\n");
  REQUIRE(records.size() == 2);
  CHECK(records[1].starts_with("0f1e2d3c4b5a6978,failed,\"validation: \"\"x\"\" differs, 1 element\",mpi,"));

  c["reason"] = "line one\nline two";
  CHECK(pico::render_csv(report_with_one_case(c)).find(",\"line one\nline two\",") != std::string::npos);
}

TEST_CASE("render_csv writes nine significant digits, without a round trip's float noise", "[render]") {
  // issue 36: 1.8000000000240046e-07 in a CSV for 180 ns.
  json c = load_example_report()["cases"][0];
  c["timing"]["median_s"] = 0.1 + 0.2;
  c["timing"]["min_s"] = 1.8000000000240046e-07;
  c["busbw_GBps"] = 1.0 / 3.0;
  const auto records = split(pico::render_csv(report_with_one_case(c)), "\r\n");
  REQUIRE(records.size() == 2);
  const auto fields = split(records[1], ",");
  REQUIRE(fields.size() == 30);
  CHECK(fields[16] == "0.3");          // median_s
  CHECK(fields[15] == "1.8e-07");      // min_s
  CHECK(fields[26] == "0.333333333");  // busbw_GBps
}

TEST_CASE("algorithm parameters show in the table and the CSV", "[render]") {
  CHECK(pico::params_text({{"segment_size", 4096}, {"chain_fanout", 2}}) == "chain_fanout=2;segment_size=4096");
  CHECK(pico::params_text({{"topk_ratio", 0.01}}) == "topk_ratio=0.01");
  CHECK(pico::params_text({}).empty());
}

TEST_CASE("render_table colours status and validation only when asked", "[render]") {
  const json report = load_example_report();
  CHECK(pico::render_table(report).find('\033') == std::string::npos);
  const std::string coloured = pico::render_table(report, pico::TableStyle::cases, true);
  CHECK(coloured.find("\033[32mok") != std::string::npos);
  CHECK(coloured.find("\033[31mfailed") != std::string::npos);
  // Escapes wrap padded cells: without them the table is the plain one.
  std::string stripped;
  for (std::size_t i = 0; i < coloured.size(); ++i) {
    if (coloured[i] == '\033') {
      i = coloured.find('m', i);
      continue;
    }
    stripped += coloured[i];
  }
  CHECK(stripped == pico::render_table(report));
}

TEST_CASE("non-blocking cases add OSU's overlap table under the cases", "[render][overlap]") {
  json c = load_example_report()["cases"][0];
  CHECK(pico::render_table(report_with_one_case(c)).find("overlap") == std::string::npos);
  c["options"] = {{"call", "nonblocking"}};
  c["overlap"] = {{"iterations", 40}, {"pure_comm_s", 4e-6},  {"overall_s", 12e-6}, {"compute_s", 10e-6},
                  {"init_s", 1e-6},   {"wait_s", 1.5e-6}, {"percent", 50}};
  for (auto style : {pico::TableStyle::cases, pico::TableStyle::benchmark, pico::TableStyle::nccl_tests}) {
    const std::string text = pico::render_table(report_with_one_case(c), style);
    const auto at = text.find("(OSU 7.4's overlap):\n");
    REQUIRE(at != std::string::npos);
    const auto lines = split(text.substr(at), "\n");
    REQUIRE(lines.size() >= 5);
    CHECK(lines[1] ==
          "collective  backend/algorithm          np  size  overall(us)  compute(us)  init(us)  wait(us)  pure comm(us)  "
          "overlap(%)");
    CHECK(lines[3] ==
          "allreduce   mpi/default (nonblocking)   4  4KiB        12.00        10.00      1.00      1.50           4.00  "
          "      50.0");
    CHECK(lines[4].rfind("overlap = max(0, 100 - (overall - compute) / pure comm x 100)", 0) == 0);
  }
}

TEST_CASE("table, terminal view and CSV escape a report's control characters instead of sending them", "[render]") {
  // issue 66: a reason or platform name holding a terminal title sequence and "clear screen" was printed raw.
  json report = load_example_report();
  const std::string hostile = "\x1b]0;PWNED\x07\x1b[2J\xc2\x9b" "6n";
  report["platform"]["name"] = hostile;
  report["experiment"]["name"] = hostile;
  report["cases"][0]["status"] = "failed";
  report["cases"][0]["reason"] = hostile;
  for (const std::string& text : {pico::render_table(report), pico::render_csv(report),
                                  pico::render_terminal(report, 120, false)}) {
    CHECK(text.find('\x1b') == std::string::npos);
    CHECK(text.find('\x07') == std::string::npos);
    CHECK(text.find("\xc2\x9b") == std::string::npos);
  }
  CHECK_THAT(pico::render_csv(report), Catch::Matchers::Contains("\\x1b]0;PWNED\\x07\\x1b[2J\\u009b6n"));
  CHECK_THAT(pico::render_table(report), Catch::Matchers::Contains("\\x1b]0;PWNED"));
  CHECK_THAT(pico::render_terminal(report, 120, false), Catch::Matchers::Contains("\\x1b]0;PWNED"));
}

TEST_CASE("render_table fitted to 100 columns: reasons as notes with counts, one-value columns said once",
          "[render][width]") {
  // Issue 65: a sweep's run table was 220 columns wide, its skip reasons cut with "..." and repeated per case.
  json report = load_example_report();
  const json model = report["cases"][0];
  report["cases"] = json::array();
  const std::string reason = "Open MPI's segmented ring runs the plain ring unless the segment size is below the "
                             "message size per rank: measured as ring, so not measured twice";
  for (int i = 0; i < 6; ++i) {
    json c = model;
    c["case_id"] = fmt::format("{:016x}", i + 1);
    c["algorithm"] = "segmented_ring";
    c["params"] = {{"segment_size", 8192 * (i + 1)}};
    if (i % 3 != 0) {
      c["status"] = "skipped";
      c["reason"] = i % 3 == 1 ? reason : "not supported by this library version";
      c["timing"] = nullptr;
      c["validation"] = {{"status", "skipped"}, {"mismatches", 0}};
    }
    report["cases"].push_back(c);
  }
  const std::string wide = pico::render_table(report);
  CHECK_THAT(wide, Catch::Matchers::Contains("skipped: Open MPI's segmented ring"));  // full width: as before
  const std::string fitted = pico::render_table(report, pico::TableStyle::cases, false, 100);
  for (const std::string& line : split(fitted, "\n")) CHECK(line.size() <= 100);
  // Each reason once, whole, with its count; the cells point at it.
  CHECK_THAT(fitted, Catch::Matchers::Contains("[1] 2 cases skipped: Open MPI's segmented ring runs the plain ring"));
  CHECK_THAT(fitted, Catch::Matchers::Contains("so not measured twice"));
  CHECK_THAT(fitted, Catch::Matchers::Contains("[2] 2 cases skipped: not supported by this library version"));
  CHECK_THAT(fitted, Catch::Matchers::Contains("skipped [1]") && Catch::Matchers::Contains("skipped [2]"));
  CHECK(fitted.find("...") == std::string::npos);
  // A column with one value in every row is said above the table.
  CHECK_THAT(fitted, Catch::Matchers::Contains("collective: allreduce"));
  CHECK_THAT(fitted, Catch::Matchers::Contains("6 cases: 2 ok, 0 failed, 4 skipped"));
}
