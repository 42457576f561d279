// pico compare: pairing (same case id, else the same size), the speedup and
// its conservative 95% interval, the verdict, and the candidate's breakdown
// and compression metrics carried along.
#include <catch2/catch.hpp>

#include "reports/compare.hpp"

using namespace pico;
using nlohmann::json;
using Catch::Matchers::Contains;

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
  const json rows = compare_reports(report, nullptr, {});
  REQUIRE(rows.size() == 1);  // topk's size has no dense case
  const json& r = rows[0];
  CHECK(r["baseline"] == "compressed/dense");
  CHECK(r["candidate"] == "compressed/global_qsgd[bits=8]");
  CHECK(r["speedup"].get<double>() == Approx(4.0));
  CHECK(r["speedup_ci95"][0].get<double>() == Approx(9.9 / 2.55));
  CHECK(r["speedup_ci95"][1].get<double>() == Approx(10.1 / 2.45));
  CHECK(r["verdict"] == "faster");
  CHECK(r["breakdown"][1]["name"] == "communicate");
  CHECK(r["breakdown"][1]["time_s"].get<double>() == Approx(2e-3));
  CHECK(r["compression"]["bits_per_element"].get<double>() == 8.0);
  const std::string table = render_compare_table(rows);
  CHECK_THAT(table, Contains("4.00x"));
  CHECK_THAT(table, Contains("compress=100.0 communicate=2000.0"));
  CHECK_THAT(render_compare_csv(rows), Contains("[3.88, 4.12]"));
}

TEST_CASE("compare: two reports pair by case id, else by size; overlapping intervals are indistinguishable",
          "[compare]") {
  const json baseline = report_of({measured_case("same", "mpi", "default", 256, 1e-3, 0.95e-3, 1.05e-3),
                                   measured_case("x", "mpi", "default", 512, 2e-3, 1.9e-3, 2.1e-3)});
  const json candidate = report_of({measured_case("same", "mpi", "default", 256, 0.98e-3, 0.9e-3, 1.1e-3),
                                    measured_case("y", "compressed", "topk", 512, 1e-3, 0.99e-3, 1.01e-3),
                                    measured_case("z", "compressed", "topk", 999, 1e-3, 0.99e-3, 1.01e-3)});
  const json rows = compare_reports(baseline, &candidate, {});
  REQUIRE(rows.size() == 2);  // size 999 has no baseline
  CHECK(rows[0]["verdict"] == "indistinguishable");
  CHECK(rows[1]["baseline"] == "mpi/default");
  CHECK(rows[1]["speedup"].get<double>() == Approx(2.0));
  CHECK(rows[1]["verdict"] == "faster");
  CHECK_THROWS_WITH(compare_reports(report_of({}), &candidate, {}), Contains("no measured case"));
}
