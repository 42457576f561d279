// SPDX-License-Identifier: BSD-3-Clause
// The typed case record: it reads every form pico has written to cases.jsonl
// and writes each back byte for byte, so reports stay compatible; the forms
// the worker and the executor produce now are those forms.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "core/case_result.hpp"

using namespace pico;
using nlohmann::json;

namespace {

std::string record_line(const std::string& name) {
  std::ifstream in(std::string(PICO_TEST_DATA_DIR) + "/case-records/" + name + ".json");
  REQUIRE(in.good());
  std::string line;
  std::getline(in, line);
  return line;
}

// The measured record's case: allreduce of 2 float32 on 2 ranks, selected through MPI_T.
Case allreduce_case() { return case_from_json(json::parse(record_line("measured"))); }

}  // namespace

TEST_CASE("case records of every form read and write back byte for byte", "[case_result]") {
  for (const char* form : {"measured", "compressed-phases", "skipped", "failed", "refused"}) {
    INFO(form);
    const std::string line = record_line(form);
    const CaseResult r = case_result_from_json(json::parse(line));
    CHECK(to_json(r).dump() == line);
  }
}

TEST_CASE("the typed fields of a measured and a compressed record", "[case_result]") {
  const CaseResult m = case_result_from_json(json::parse(record_line("measured")));
  CHECK(m.status == CaseStatus::ok);
  CHECK(m.measured());
  CHECK(m.library == "openmpi");
  CHECK(m.iterations == 5120);
  REQUIRE(m.timing);
  CHECK(m.timing->median_s == Approx(3.01e-07));
  CHECK(m.timing->iterations == 5120);
  REQUIRE(m.busbw_GBps);
  CHECK(m.validation.status == "passed");
  REQUIRE(m.selection);
  CHECK(m.selection->verified);
  CHECK(m.selection->applied == "0");
  CHECK_FALSE(m.compression);

  const CaseResult q = case_result_from_json(json::parse(record_line("compressed-phases")));
  CHECK(q.c.backend == "compressed");
  CHECK(q.c.params.at("bits") == 8);
  REQUIRE(q.phases);
  CHECK(q.phases->size() == 4);
  REQUIRE(q.compression);
  CHECK(q.compression->at("bits_per_element").get<double>() == Approx(8.0019531));
}

TEST_CASE("a result without a measurement: skipped at plan time or failed by the front end", "[case_result]") {
  const Case c = allreduce_case();
  const json skipped = to_json(unmeasured_result(c, CaseStatus::skipped, "not supported", -1, 0));
  CHECK(skipped.at("status") == "skipped");
  CHECK(skipped.at("reason") == "not supported");
  CHECK(skipped.at("timing").is_null());
  CHECK(skipped.at("busbw_GBps").is_null());
  CHECK(skipped.at("launch") == -1);
  CHECK(skipped.at("library") == "");
  CHECK(skipped.at("validation") == json{{"status", "skipped"}, {"mismatches", 0}});
  // The planned selection, without what a worker would have seen.
  CHECK_FALSE(skipped.at("selection").contains("verified"));
  CHECK(skipped.at("selection").at("fallback") == "");

  const CaseResult failed = unmeasured_result(c, CaseStatus::failed, "timeout", 3, 2.5);
  CHECK_FALSE(failed.measured());
  const CaseResult back = case_result_from_json(to_json(failed));
  CHECK(back.status == CaseStatus::failed);
  CHECK(back.launch == 3);
  CHECK(back.elapsed_s == 2.5);
  CHECK_FALSE(back.selection);
}

TEST_CASE("the worker's selection outcome: optional keys only when they say something", "[case_result]") {
  CaseResult r;
  r.c = allreduce_case();
  r.selection = SelectionOutcome{};
  r.selection->verified = true;
  r.selection->applied = "0";
  json j = to_json(r);
  CHECK(j.at("selection").at("verified") == true);
  for (const char* absent : {"fallback", "note", "refused", "reported", "actual"}) CHECK_FALSE(j.at("selection").contains(absent));

  r.c.selection.fallback = "MPI_T writing was refused; selected through the environment at launch";
  r.selection->note = "wrote 4 but read back 0";
  r.selection->refused = true;
  r.selection->reported = json{{"algorithm", "Ring"}};
  r.selection->actual = ActualSelection{"ring", {"ompi_coll_base_allreduce_intra_ring"}, "interposer", ""};
  j = to_json(r);
  CHECK(j.at("selection").at("actual").at("algorithm") == "ring");
  CHECK_FALSE(j.at("selection").at("actual").contains("note"));
  CHECK(j.at("selection").at("fallback") == r.c.selection.fallback);
  CHECK(j.at("selection").at("refused") == true);
  CHECK(j.at("selection").at("reported").at("algorithm") == "Ring");
  const CaseResult back = case_result_from_json(j);
  REQUIRE(back.selection);
  CHECK(back.selection->refused);
  CHECK(back.selection->note == "wrote 4 but read back 0");
  CHECK(back.selection->reported == r.selection->reported);
  REQUIRE(back.selection->actual);
  CHECK(back.selection->actual->functions == std::vector<std::string>{"ompi_coll_base_allreduce_intra_ring"});
  CHECK(back.selection->actual->source == "interposer");
}

TEST_CASE("malformed records are errors that say which record and why", "[case_result]") {
  json j = json::parse(record_line("measured"));
  j["status"] = "finished";
  CHECK_THROWS_WITH(case_result_from_json(j), Catch::Matchers::Contains("536188ffb88f1e0c") &&
                                                  Catch::Matchers::Contains("unknown status 'finished'"));
  CHECK_THROWS_WITH(case_result_from_json(json::array()), Catch::Matchers::Contains("not a JSON object"));
  j = json::parse(record_line("measured"));
  j.erase("collective");
  CHECK_THROWS_AS(case_result_from_json(j), std::runtime_error);
}

TEST_CASE("a report's cases in report order", "[case_result]") {
  const json report = {{"cases", json::array({json::parse(record_line("skipped")), json::parse(record_line("measured"))})}};
  const auto cases = case_results_of(report);
  REQUIRE(cases.size() == 2);
  CHECK(cases[0].status == CaseStatus::skipped);
  CHECK(cases[1].status == CaseStatus::ok);
  CHECK(case_results_of(json::object()).empty());
}

// OSU 7.4's print_stats_nbc on figures of its own form: overall 12, compute 10 (test time 0), pure 4 -> 50%.
TEST_CASE("the overlap percentage is OSU's", "[case_result][overlap]") {
  CHECK(Overlap::osu_percent(12, 10, 4) == Approx(50));
  CHECK(Overlap::osu_percent(10, 10, 4) == Approx(100));  // the whole communication hidden
  CHECK(Overlap::osu_percent(14, 10, 4) == Approx(0));    // none of it
  CHECK(Overlap::osu_percent(20, 10, 4) == 0);             // clamped at 0, as OSU's max(0, ...)
  CHECK(Overlap::osu_percent(5, 10, 0) == 0);              // no pure time measured
}

TEST_CASE("a non-blocking record carries its overlap and reads back", "[case_result][overlap]") {
  CaseResult r = case_result_from_json(json::parse(record_line("measured")));
  REQUIRE_FALSE(r.overlap);
  CHECK_FALSE(to_json(r).contains("overlap"));
  r.overlap = Overlap{.iterations = 40, .pure_comm_s = 4e-6, .overall_s = 12e-6, .compute_s = 10e-6,
                      .init_s = 1e-6, .wait_s = 1e-6, .percent = 50};
  const json j = to_json(r);
  CHECK(j.at("overlap").at("percent") == 50);
  CHECK(j.at("overlap").at("pure_comm_s") == 4e-6);
  const CaseResult back = case_result_from_json(j);
  REQUIRE(back.overlap);
  CHECK(back.overlap->iterations == 40);
  CHECK(back.overlap->overall_s == 12e-6);
  CHECK(back.overlap->wait_s == 1e-6);
  CHECK(to_json(back).dump() == j.dump());
}
