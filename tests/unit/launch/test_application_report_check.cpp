// SPDX-License-Identifier: BSD-3-Clause
// An application run's report.json read back as untrusted input (issue 66): the
// report pico builds passes, and each field edited out of shape (a negative
// time, a null, a string for a number, an unknown collective or variant, a
// number past its range, infinity) is refused naming the file and its JSON path.
#include <catch2/catch.hpp>

#include <limits>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/read_report.hpp"
#include "launch/application_report.hpp"
#include "launch/application_report_check.hpp"
#include "launch/application_run.hpp"
#include "scratch_dir.hpp"
#include "support/input_error.hpp"
#include "support/results_file.hpp"

using namespace pico;
using nlohmann::json;
using Catch::Matchers::Contains;

namespace {

json launch(int index, int round, const std::string& variant, double wall_s) {
  json call = {{"collective", "allreduce"}, {"comm_size", 2}, {"bytes", 1024}, {"calls", 100},
               {"seconds", 0.25 * wall_s}, {"functions", json::array()}};
  return {{"launch", index}, {"np", 2}, {"round", round}, {"variant", variant}, {"status", "ok"}, {"wall_s", wall_s},
          {"counts", {{"ranks", 2}, {"interposer", false}, {"calls", {call}},
                      {"collective_s_by_rank", {0.25 * wall_s, 0.25 * wall_s}},
                      {"mpi_s_by_rank", {wall_s, 0.9 * wall_s}}}}};
}

// application.json of a run of two variants over three rounds (MPICH: no interposer, no catalogue read).
json app_run() {
  const json variant = {{"profile", nullptr}, {"algorithms", json::object()}, {"env_given", json::object()},
                        {"env", json::object()}};
  json base = variant, ring = variant;
  base["name"] = "default";
  ring["name"] = "ring";
  ring["algorithms"] = {{"allreduce", "ring"}};
  ring["env"] = {{"MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM", "ring"}};
  const json run = {{"experiment", {{"name", "app"}, {"command", {"./app", "-n", "4"}}, {"processes", {2}},
                                    {"rounds", 3}, {"repetitions", 1}}},
                    {"platform", "local-mpich"},
                    {"mpi", {{"library", "mpich"}, {"version", "4.0.2"}}},
                    {"started_utc", "2026-12-02T14:00:00Z"},
                    {"variants", {base, ring}}};
  return run;
}

std::vector<json> app_launches() {
  std::vector<json> launches;
  for (int round = 0; round < 3; ++round) {
    launches.push_back(launch(2 * round, round, "default", 2.0 + 0.1 * round));
    launches.push_back(launch(2 * round + 1, round, "ring", 1.5 + 0.1 * round));
  }
  return launches;
}

// What pico writes for that run.
json built_report() { return build_application_report(app_run(), app_launches()); }

std::string refusal(const json& report) {
  try {
    check_application_report(report, "run/report.json");
  } catch (const InputError& e) {
    CHECK(e.file == "run/report.json");
    return e.message;
  }
  FAIL("accepted:\n" << report.dump(1));
  return "";
}

}  // namespace

TEST_CASE("application report check: the report pico builds is read back whole", "[application][report]") {
  const json report = built_report();
  CHECK_NOTHROW(check_application_report(report, "run/report.json"));
  REQUIRE(report["processes"][0]["variants"].size() == 2);
  REQUIRE(report["processes"][0]["variants"][1].contains("speedup"));
}

TEST_CASE("application report check: a field out of shape is refused by its JSON path", "[application][report]") {
  const json good = built_report();
  const auto with = [&](const json::json_pointer& at, const json& value) {
    json r = good;
    r[at] = value;
    return refusal(r);
  };
  using P = json::json_pointer;
  CHECK_THAT(with(P("/processes/0/variants/0/wall_s_median"), -1.5),
             Contains("processes[0].variants[0].wall_s_median is -1.5: a time is a finite number of seconds, not negative"));
  CHECK_THAT(with(P("/processes/0/variants/1/median"), nullptr),
             Contains("processes[0].variants[1].median is null, not a number"));
  CHECK_THAT(with(P("/processes/0/variants/0/calls/0/seconds"), "fast"),
             Contains("processes[0].variants[0].calls[0].seconds is a string (\"fast\"), not a number"));
  CHECK_THAT(with(P("/processes/0/variants/0/calls/0/collective"), "allfoo"),
             Contains("processes[0].variants[0].calls[0].collective is 'allfoo', which is no collective"));
  CHECK_THAT(with(P("/processes/0/variants/1/variant"), "tree"),
             Contains("processes[0].variants[1].variant is 'tree', which is no variant the report lists"));
  CHECK_THAT(with(P("/processes/0/variants/1/verdict"), "much faster"),
             Contains("processes[0].variants[1].verdict is 'much faster', which is no verdict"));
  CHECK_THAT(with(P("/processes/0/np"), 0), Contains("processes[0].np is 0: it must be a whole number from 1 to"));
  // As read from a file: nlohmann holds a parsed 0 as unsigned.
  CHECK_THAT(with(P("/processes/0/np"), json::parse("0")), Contains("processes[0].np is 0: it must be a whole number"));
  CHECK_THAT(with(P("/rounds"), json::parse("0")), Contains("rounds is 0"));
  CHECK_THAT(with(P("/processes/0/np"), 2.5), Contains("processes[0].np is 2.5: it must be a whole number"));
  CHECK_THAT(with(P("/processes/0/variants/0/calls/0/bytes"), -8), Contains("calls[0].bytes is -8"));
  CHECK_THAT(with(P("/processes/0/variants/0/calls/0/ran/unknown (no interposer)"), -100),
             Contains("calls[0].ran[\"unknown (no interposer)\"] is -100"));
  CHECK_THAT(with(P("/processes/0/variants/1/speedup/estimate"), -2), Contains("speedup.estimate is -2"));
  CHECK_THAT(with(P("/processes/0/variants/1/collective_share"), std::numeric_limits<double>::infinity()),
             Contains("collective_share is inf: a share"));
  CHECK_THAT(with(P("/launches_run"), -3), Contains("launches_run is -3"));
  CHECK_THAT(with(P("/rounds"), "3"), Contains("rounds is a string (\"3\"), not a number"));
  CHECK_THAT(with(P("/mpi/library"), "lam"), Contains("mpi.library is 'lam', which is no MPI library"));
  CHECK_THAT(with(P("/figure_of_merit"), json{{"better", "more"}}), Contains("figure_of_merit.better is 'more'"));
  CHECK_THAT(with(P("/processes/0/variants"), json::array()), Contains("processes[0].variants is empty"));
  json missing = good;
  missing["processes"][0]["variants"][0].erase("median");
  CHECK_THAT(refusal(missing), Contains("processes[0].variants[0].median is missing"));
  CHECK_THAT(with(P("/schema"), "pico-application-report/9"), Contains("a report of schema 'pico-application-report/9'"));
}

TEST_CASE("application report check: pico report's reader refuses an edited report.json", "[application][report]") {
  const test::ScratchDir dir("app-report-check");
  json report = built_report();
  report["processes"][0]["variants"][0]["run_s"] = -1;
  write_results_file(dir.file("application.json"), "{}\n");
  write_results_file(dir.file("report.json"), report.dump());
  try {
    (void)cli::application_report_at(dir.path().string());
    FAIL("an application report with a negative run_s was read");
  } catch (const InputError& e) {
    CHECK_THAT(e.file, Contains("report.json"));
    CHECK_THAT(e.message, Contains("processes[0].variants[0].run_s is -1"));
  }
}

TEST_CASE("application report check: the run and launch records a report is built from", "[application][report]") {
  const std::set<std::string> variants = check_application_run(app_run(), "run/application.json");
  CHECK(variants == std::set<std::string>{"default", "ring"});
  for (const json& l : app_launches()) CHECK_NOTHROW(check_application_launch(l, "run/launches.jsonl", 0, variants));
  const auto launch_refusal = [&](const json::json_pointer& at, const json& value) {
    json l = app_launches()[3];
    l[at] = value;
    try {
      check_application_launch(l, "run/launches.jsonl", 3, variants);
    } catch (const InputError& e) {
      CHECK(e.file == "run/launches.jsonl");
      return e.message;
    }
    FAIL("accepted:\n" << l.dump(1));
    return std::string();
  };
  using P = json::json_pointer;
  CHECK_THAT(launch_refusal(P("/wall_s"), "slow"), Contains("malformed launch record 3: wall_s is a string (\"slow\")"));
  CHECK_THAT(launch_refusal(P("/wall_s"), -2.0), Contains("wall_s is -2"));
  CHECK_THAT(launch_refusal(P("/np"), json::parse("0")), Contains("np is 0"));
  CHECK_THAT(launch_refusal(P("/variant"), "tree"), Contains("variant is 'tree', which is no variant application.json lists"));
  CHECK_THAT(launch_refusal(P("/status"), "fine"), Contains("status is 'fine'"));
  CHECK_THAT(launch_refusal(P("/counts/calls/0/seconds"), nullptr), Contains("counts.calls[0].seconds is null"));
  CHECK_THAT(launch_refusal(P("/counts/calls/0/collective"), "allfoo"), Contains("counts.calls[0].collective is 'allfoo'"));
  CHECK_THAT(launch_refusal(P("/counts/mpi_s_by_rank/1"), -1), Contains("counts.mpi_s_by_rank[1] is -1"));
  json run = app_run();
  run["experiment"]["rounds"] = json::parse("0");
  CHECK_THROWS_WITH(check_application_run(run, "run/application.json"),
                    Contains("malformed run record: experiment.rounds is 0"));
  run = app_run();
  run["variants"][1].erase("name");
  CHECK_THROWS_WITH(check_application_run(run, "run/application.json"), Contains("variants[1].name is missing"));
}

TEST_CASE("application report check: runs pooled from edited launch records are refused by name", "[application][report]") {
  // Before the check, pico report RUN_A RUN_B met nlohmann's "type must be number" as an internal error (exit 70).
  const test::ScratchDir a("app-pool-a"), b("app-pool-b");
  for (const test::ScratchDir* d : {&a, &b}) {
    write_results_file(d->file("application.json"), app_run().dump());
    std::string lines;
    for (json l : app_launches()) {
      if (d == &b && l["launch"] == 4) l["wall_s"] = "slow";
      lines += l.dump() + "\n";
    }
    write_results_file(d->file("launches.jsonl"), lines);
  }
  CHECK_NOTHROW(pooled_application_report({a.path().string()}));
  try {
    (void)pooled_application_report({a.path().string(), b.path().string()});
    FAIL("a launch record with a wall time of \"slow\" was pooled");
  } catch (const InputError& e) {
    CHECK(e.file == b.file("launches.jsonl"));
    CHECK_THAT(e.message, Contains("malformed launch record 4: wall_s is a string"));
  }
}
