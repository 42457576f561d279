// SPDX-License-Identifier: BSD-3-Clause
// pico compare: pairing (same case id, else the same size), the speedup and
// its conservative 95% interval, the verdict, and the candidate's breakdown
// and compression metrics carried along.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include <cstring>

#include <fmt/format.h>

#include "reports/compare.hpp"

using namespace pico;
using nlohmann::json;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

json measured_case(const std::string& id, const std::string& backend, const std::string& algorithm, std::uint64_t count,
                   double median, double low, double high) {
  return {{"case_id", id},      {"backend", backend}, {"algorithm", algorithm}, {"collective", "allreduce"},
          {"dtype", "float32"}, {"op", "sum"},        {"count", count},         {"bytes", 4 * count},
          {"np", 4},            {"mode", "latency"},  {"in_place", false},      {"status", "ok"},
          {"params", json::object()},
          {"timing", {{"median_s", median}, {"ci95_low_s", low}, {"ci95_high_s", high}}}};
}

json report_of(std::vector<json> cases) { return {{"cases", cases}}; }

}  // namespace

TEST_CASE("compare: one report, compressed cases against the dense one of their size", "[compare]") {
  json qsgd = measured_case("b", "compressed", "global_qsgd", 1024, 2.5e-3, 2.45e-3, 2.55e-3);
  qsgd["params"] = {{"bits", 8}};
  qsgd["phases"] = json::array({{{"name", "compress"}, {"time_s", 1e-4}}, {{"name", "communicate"}, {"time_s", 2e-3}}});
  qsgd["compression"] = {{"bits_per_element", 8.0}, {"rel_l2_error", 0.01}, {"identical_across_ranks", true}};
  const json report = report_of({measured_case("a", "compressed", "dense", 1024, 10e-3, 9.9e-3, 10.1e-3), qsgd,
                                 measured_case("c", "compressed", "topk", 4096, 1e-3, 0.9e-3, 1.1e-3)});
  const std::vector<ComparedPair> rows = compare_reports(report, nullptr, {});
  REQUIRE(rows.size() == 1);  // topk's size has no dense case
  const ComparedPair& r = rows[0];
  CHECK(r.baseline == "compressed/dense");
  CHECK(r.candidate == "compressed/global_qsgd[bits=8]");
  REQUIRE(r.speedup);
  CHECK(r.speedup->estimate == Approx(4.0));
  CHECK(r.speedup->low == Approx(9.9 / 2.55));
  CHECK(r.speedup->high == Approx(10.1 / 2.45));
  CHECK(r.verdict() == "faster");
  REQUIRE(r.breakdown.size() == 2);
  CHECK(r.breakdown[1].name == "communicate");
  CHECK(r.breakdown[1].time_s == Approx(2e-3));
  CHECK(r.compression.bits_per_element == 8.0);
  // --format json: the row under its documented names, the candidate's record as written.
  const json out = r;
  CHECK(out["collective"] == "allreduce");
  CHECK(out["bytes"] == 4096);
  CHECK(out["speedup"].get<double>() == Approx(4.0));
  CHECK(out["speedup_ci95"][0].get<double>() == Approx(9.9 / 2.55));
  CHECK(out["verdict"] == "faster");
  CHECK(out["breakdown"][1]["name"] == "communicate");
  CHECK(out["compression"] == qsgd["compression"]);
  CHECK(out["library"].is_null());
  const std::string table = render_compare_table(rows);
  CHECK_THAT(table, Contains("4.000x"));
  CHECK_THAT(table, Contains("[3.882, 4.122]"));
  CHECK_THAT(table, Contains("compress=100.000 communicate=2000.000"));
}

TEST_CASE("compare: two reports pair by case id, else by size, an interval across 1 is undecided",
          "[compare]") {
  const json baseline = report_of({measured_case("same", "mpi", "default", 256, 1e-3, 0.95e-3, 1.05e-3),
                                   measured_case("x", "mpi", "default", 512, 2e-3, 1.9e-3, 2.1e-3)});
  const json candidate = report_of({measured_case("same", "mpi", "default", 256, 0.98e-3, 0.9e-3, 1.1e-3),
                                    measured_case("y", "compressed", "topk", 512, 1e-3, 0.99e-3, 1.01e-3),
                                    measured_case("z", "compressed", "topk", 999, 1e-3, 0.99e-3, 1.01e-3)});
  const std::vector<ComparedPair> rows = compare_reports(baseline, &candidate, {});
  REQUIRE(rows.size() == 2);  // size 999 has no baseline
  CHECK(rows[0].verdict() == "undecided");
  CHECK(rows[1].baseline == "mpi/default");
  CHECK(rows[1].speedup->estimate == Approx(2.0));
  CHECK(rows[1].verdict() == "faster");
  // The table says the baseline is the other report's same case, not a list of every algorithm in it (issue 51).
  CHECK_THAT(render_compare_table(rows), StartsWith("baseline: the same case in the baseline report"));
  CHECK_THROWS_WITH(compare_reports(report_of({}), &candidate, {}), Contains("no measured case"));
}

namespace {

std::vector<std::string> lines_of(const std::string& text, const char* end) {
  std::vector<std::string> lines;
  for (std::size_t at = 0, next; (next = text.find(end, at)) != std::string::npos; at = next + std::strlen(end))
    lines.push_back(text.substr(at, next - at));
  return lines;
}

}  // namespace

TEST_CASE("compare: rows sorted by size as a number, with dtype, op, in-place and mode", "[compare]") {
  // Sizes given out of order, and 65536 > 8192 although "65536" < "8192" as text.
  std::vector<json> cases;
  for (std::uint64_t count : {16384ULL, 2ULL, 2048ULL}) {
    cases.push_back(measured_case(fmt::format("d{}", count), "mpi", "default", count, 2e-6, 1.9e-6, 2.1e-6));
    cases.push_back(measured_case(fmt::format("r{}", count), "mpi", "ring", count, 1e-6, 0.9e-6, 1.1e-6));
  }
  json int_case = measured_case("i", "mpi", "ring", 2, 1.234567e-6, 1.2e-6, 1.3e-6);
  int_case["dtype"] = "int32";
  json int_default = measured_case("j", "mpi", "default", 2, 2e-6, 1.9e-6, 2.1e-6);
  int_default["dtype"] = "int32";
  cases.push_back(int_case);
  cases.push_back(int_default);
  const std::vector<ComparedPair> rows = compare_reports(report_of(cases), nullptr, {});
  REQUIRE(rows.size() == 4);
  // Datatypes in the order of the Dtype enumeration: int32 before float32.
  CHECK(rows[0].size.dtype == "int32");
  std::vector<std::uint64_t> float_bytes;
  for (const ComparedPair& r : rows)
    if (r.size.dtype == "float32") float_bytes.push_back(r.size.bytes);
  CHECK(float_bytes == std::vector<std::uint64_t>{8, 8192, 65536});
  const std::string table = render_compare_table(rows);
  const auto lines = lines_of(table, "\n");
  // What the speedup, its interval and the verdict are, said above them (issue 65), then the table.
  const std::size_t definition = std::count(kSpeedupDefinition.begin(), kSpeedupDefinition.end(), '\n') + 1;
  // Intervals of +-5 to 10% are past twice the default target_ci (2%): the noise guard's five lines (a reason,
  // how to measure better) close the table.
  REQUIRE(lines.size() == 7 + definition + 1 + 5);
  CHECK_THAT(lines[lines.size() - 5], StartsWith("?: 4 of 4 size(s) measured too noisily"));
  CHECK_THAT(lines[0], Contains("baseline: mpi/default"));
  CHECK_THAT(lines[1], StartsWith("speedup = baseline time / candidate time"));
  for (const std::string& line : lines) CHECK(line.size() <= 200);
  const std::size_t at = definition + 1;
  CHECK_THAT(lines[at], Contains("intervals here: envelope of the medians' 95% intervals"));
  CHECK_THAT(lines[at + 1], Contains("collective  dtype    op   in_place  mode"));
  CHECK_THAT(lines[at + 3], Contains("int32"));
  CHECK_THAT(lines[at + 3], Contains("1.235"));  // ns precision in us: 1.234567 us
  CHECK_THAT(lines[at + 4], Contains("8B"));
  CHECK_THAT(lines[at + 5], Contains("8KiB"));
  CHECK_THAT(lines[at + 6], Contains("64KiB"));
  CHECK_THAT(lines[at + 6], Contains("latency"));
  CHECK_THAT(lines[at + 6], Contains("2.000x"));
}

TEST_CASE("compare: CSV columns are named once and numbers stay numbers", "[compare]") {
  const std::vector<ComparedPair> rows =
      compare_reports(report_of({measured_case("a", "mpi", "default", 256, 3e-6, 2.9e-6, 3.1e-6),
                                 measured_case("b", "mpi", "ring", 256, 1e-6, 0.9e-6, 1.1e-6)}),
                      nullptr, {});
  const auto records = lines_of(render_compare_csv(rows), "\r\n");
  REQUIRE(records.size() == 2);
  CHECK(records[0] ==
        "collective,dtype,op,in_place,mode,np,bytes,baseline,candidate,baseline_median_s,candidate_median_s,speedup,"
        "speedup_ci95_low,speedup_ci95_high,verdict,bits_per_element,rel_l2_error,bias_rel_l2,"
        "identical_across_ranks,breakdown_us,library,library_speedup");
  CHECK_THAT(records[1], Contains("allreduce,float32,sum,false,latency,4,1024,mpi/default,mpi/ring,3e-06,1e-06,"));
  const auto speedup = records[1].substr(records[1].find("1e-06,") + 6);
  CHECK(std::stod(speedup.substr(0, speedup.find(','))) == Approx(3.0));
}

TEST_CASE("compare --best: alltoallv's count matrices are separate problems", "[compare][alltoallv]") {
  auto alltoallv = [](const std::string& id, const std::string& algorithm, const std::string& counts, double t) {
    json c = measured_case(id, "mpi", algorithm, 256, t, t * 0.95, t * 1.05);
    c["collective"] = "alltoallv";
    c["op"] = "none";
    c["options"] = {{"counts", counts}};
    return c;
  };
  // The hot matrix is slower whatever the algorithm; it must not lose to the uniform one.
  const json report = report_of({alltoallv("a", "default", "uniform", 1e-3), alltoallv("b", "pairwise", "uniform", 2e-3),
                                 alltoallv("c", "default", "hot:rank=0,factor=8", 4e-3),
                                 alltoallv("d", "pairwise", "hot:rank=0,factor=8", 3e-3)});
  const std::vector<BestRow> rows = best_per_size_rows(report, "r1", {});
  REQUIRE(rows.size() == 2);
  std::set<std::string> best;
  for (const BestRow& r : rows) best.insert(r.best);
  CHECK(best == std::set<std::string>{"mpi/default (counts uniform)", "mpi/pairwise (counts hot:rank=0,factor=8)"});
}

TEST_CASE("compare --best: the fastest algorithm per size and the default's loss", "[compare]") {
  const json report = report_of({measured_case("a", "mpi", "default", 2048, 3e-6, 2.9e-6, 3.1e-6),
                                 measured_case("b", "mpi", "ring", 2048, 2e-6, 1.9e-6, 2.1e-6),
                                 measured_case("c", "mpi", "default", 2, 1e-6, 0.9e-6, 1.1e-6),
                                 measured_case("d", "mpi", "ring", 2, 1.5e-6, 1.4e-6, 1.6e-6)});
  const std::vector<BestRow> rows = best_per_size_rows(report, "r1", {});
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].size.bytes == 8);
  CHECK(rows[0].best == "mpi/default");
  CHECK(rows[0].reference_loss == Approx(0.0));
  CHECK(rows[1].best == "mpi/ring");
  CHECK(rows[1].reference == "mpi/default");
  CHECK(rows[1].reference_loss == Approx(0.5));
  const json out = rows[1];  // --format json
  CHECK(out["report"] == "r1");
  CHECK(out["reference_loss"].get<double>() == Approx(0.5));
  CHECK(out["measured"] == 2);
  CHECK(out["compression"].is_null());
  CHECK_THAT(render_best_table(rows), Contains("+50.0%"));
  const auto records = lines_of(render_best_csv(rows), "\r\n");
  CHECK(records[0] ==
        "report,collective,dtype,op,in_place,mode,np,bytes,best,best_median_s,best_rel_l2_error,reference,"
        "reference_median_s,reference_loss,measured");
  CHECK_THAT(records[2], Contains("r1,allreduce,float32,sum,false,latency,4,8192,mpi/ring,2e-06,,mpi/default,3e-06,0.5"));
}

TEST_CASE("compare --best: a compressed run's default is the library's own collective where it was measured",
          "[compare]") {
  // issue 51: "default / fastest 1.67x" against compressed/dense where mpi/default was the fastest.
  const std::vector<BestRow> rows =
      best_per_size_rows(report_of({measured_case("d", "compressed", "dense", 1024, 16.7e-3, 16.6e-3, 16.8e-3),
                                    measured_case("m", "mpi", "default", 1024, 10e-3, 9.9e-3, 10.1e-3)}),
                         "r1", {});
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].best == "mpi/default");
  CHECK(rows[0].reference == "mpi/default");
  CHECK(rows[0].reference_loss == Approx(0.0));
}

TEST_CASE("compare --best: a compressed best shows its error in the table and the CSV (issue 51)", "[compare]") {
  json q = measured_case("q", "compressed", "global_qsgd", 1024, 5e-3, 4.9e-3, 5.1e-3);
  q["compression"] = {{"rel_l2_error", 0.0123}, {"bits_per_element", 8}};
  const std::vector<BestRow> rows =
      best_per_size_rows(report_of({measured_case("d", "compressed", "dense", 1024, 15e-3, 14.9e-3, 15.1e-3), q}),
                         "r1", {});
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].best == "compressed/global_qsgd");
  CHECK(rows[0].compression.rel_l2_error == 0.0123);
  CHECK_THAT(render_best_table(rows), Contains("best rel L2") && Contains("1.230e-02"));
  CHECK_THAT(render_best_csv(rows), Contains("compressed/global_qsgd,0.005,0.0123,compressed/dense"));
}

TEST_CASE("compare: a compressed run names its baseline and shows the gap to the library's own allreduce",
          "[compare]") {
  // issue 36: against compressed/dense (1.54x slower than mpi/default) 4 of 5 variants "won", silently.
  const json report = report_of({measured_case("d", "compressed", "dense", 1024, 15.4e-3, 15.3e-3, 15.5e-3),
                                 measured_case("q", "compressed", "global_qsgd", 1024, 12e-3, 11.9e-3, 12.1e-3),
                                 measured_case("m", "mpi", "default", 1024, 10e-3, 9.9e-3, 10.1e-3)});
  const std::vector<ComparedPair> rows = compare_reports(report, nullptr, {});
  REQUIRE(rows.size() == 2);  // qsgd and mpi/default, each against compressed/dense
  const ComparedPair& qsgd = rows[0].candidate == "compressed/global_qsgd" ? rows[0] : rows[1];
  CHECK(qsgd.verdict() == "faster");
  CHECK(qsgd.library == "mpi/default");
  CHECK(qsgd.library_speedup == Approx(10.0 / 12.0));
  const ComparedPair& library = rows[0].candidate == "mpi/default" ? rows[0] : rows[1];
  CHECK_FALSE(library.library.has_value());  // the library's own case against itself says nothing
  const std::string table = render_compare_table(rows);
  CHECK_THAT(table, Contains("baseline: compressed/dense"));
  CHECK_THAT(table, Contains("vs library: mpi/default"));
  CHECK_THAT(table, Contains("0.833x"));
  CHECK_THAT(render_compare_csv(rows), Contains(",mpi/default,0.8333"));
}

TEST_CASE("compare: two cases of one launch measured in the same rounds are compared round by round", "[compare]") {
  // A slow period (rounds 2 and 3 at 2.5x) spreads both medians' intervals
  // over each other, but in every round the candidate took 0.9 of the baseline.
  json base = measured_case("a", "mpi", "default", 1024, 10e-6, 10e-6, 25e-6);
  json cand = measured_case("b", "mpi", "ring", 1024, 9e-6, 9e-6, 22.5e-6);
  base["launch"] = cand["launch"] = 0;
  base["rounds"] = {{"seed", 7}, {"order", {0, 1, 0, 1, 0}}, {"median_s", {10e-6, 10e-6, 25e-6, 25e-6, 10e-6}},
                    {"samples", {5, 5, 5, 5, 5}}};
  cand["rounds"] = {{"seed", 7}, {"order", {1, 0, 1, 0, 1}}, {"median_s", {9e-6, 9e-6, 22.5e-6, 22.5e-6, 9e-6}},
                    {"samples", {5, 5, 5, 5, 5}}};
  const std::vector<ComparedPair> rows = compare_reports(report_of({base, cand}), nullptr, {});
  REQUIRE(rows.size() == 1);
  REQUIRE(rows[0].speedup);
  CHECK(rows[0].speedup->method == "bootstrap of paired rounds");
  CHECK(rows[0].speedup->estimate == Approx(1 / 0.9));
  CHECK(rows[0].speedup->low > 1.1);
  CHECK(rows[0].verdict() == "faster");
  // Without the rounds, the medians' intervals overlap: undecided.
  base.erase("rounds");
  cand.erase("rounds");
  const std::vector<ComparedPair> envelope = compare_reports(report_of({base, cand}), nullptr, {});
  CHECK(envelope[0].verdict() == "undecided");
}

TEST_CASE("compare: a compressed winner whose error is past the bound is marked, never a plain winner", "[compare]") {
  // Issue 65: a compressed winner with relative L2 error 0.96 was shown as the fastest with nothing flagging it.
  json s = measured_case("s", "compressed", "sign_majority", 1024, 5e-3, 4.9e-3, 5.1e-3);
  s["compression"] = {{"rel_l2_error", 0.96}, {"bits_per_element", 1}};
  json q = measured_case("q", "compressed", "global_qsgd", 2048, 5e-3, 4.9e-3, 5.1e-3);
  q["compression"] = {{"rel_l2_error", 0.0123}, {"bits_per_element", 8}};
  const json report = report_of({measured_case("d", "compressed", "dense", 1024, 15e-3, 14.9e-3, 15.1e-3), s,
                                 measured_case("e", "compressed", "dense", 2048, 15e-3, 14.9e-3, 15.1e-3), q});
  const std::string best = render_best_table(best_per_size_rows(report, "r1", {}));
  CHECK_THAT(best, Contains("compressed/sign_majority!"));
  CHECK_THAT(best, !Contains("compressed/global_qsgd!"));  // within the bound: unmarked
  CHECK_THAT(best, Contains("!: relative L2 error above 0.5"));
  const std::vector<ComparedPair> rows = compare_reports(report, nullptr, {});
  const std::string table = render_compare_table(rows);
  CHECK_THAT(table, Contains("faster!"));
  CHECK_THAT(table, Contains("!: relative L2 error above 0.5"));
  CHECK(std::count(table.begin(), table.end(), '!') == 2);  // sign_majority's verdict and the legend, not qsgd's
}
