// SPDX-License-Identifier: BSD-3-Clause
// report.json's experiment (config/to_json.hpp) records every key the
// experiment parser takes, and reads back to the same experiment: a key added
// to the parser without to_json and from_json fails here (issue 69: repetitions
// and repetition_seed were left out, so a report did not say how its run was
// repeated).
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "config/experiment.hpp"
#include "config/to_json.hpp"

using namespace pico;

namespace {

// Between them every key of experiment_keys(), each away from its default
// (sizes, counts and sizes_by_collective exclude each other; graph excludes
// calls_per_sample): the round trip below would not see a key read back as
// its default otherwise.
const std::vector<std::string> kEveryKey{
    R"(name: every-key
description: each key away from its default
collectives: [allreduce, alltoallv]
sizes: [8B, 1KiB]
dtypes: [float32, int32]
ops: [sum, max]
processes: [2, 4]
in_place: both
count_matrix: [uniform, {pattern: hot, rank: 1, factor: 4}]
backends:
  - {library: mpi, algorithms: [default, ring]}
  - {library: reference, algorithms: [ring]}
timing: {mode: throughput, warmup: 3, min_iterations: 7, max_iterations: 900, time_budget: 300ms, target_ci: 5%,
         case_timeout: 20s, keep_samples: true, calls_per_sample: 4, rounds: 3, race: {budget: 10s, refine: false},
         rank_timing: false}
validation: false
instrumentation: {phases: true, papi: [perf::TASK-CLOCK], calls: 4}
repetitions: 3
repetition_seed: 42
)",
    R"(collectives: [bcast]
counts: [1, 100]
backends: [{library: nccl, rotate_buffers: 1GiB}]
timing: {mode: throughput, graph: 10}
)",
    R"(collectives: [allreduce, bcast]
sizes_by_collective: {allreduce: [4B, 1KiB], bcast: [64B]}
)"};

std::set<std::string> top_level_keys(const std::string& yaml) {
  std::set<std::string> keys;
  for (const auto& kv : YAML::Load(yaml)) keys.insert(kv.first.as<std::string>());
  return keys;
}

bool has(const std::set<std::string>& keys, const std::string& key) { return keys.contains(key); }

}  // namespace

TEST_CASE("the test experiments set every key the experiment parser takes", "[config][report]") {
  std::set<std::string> given, timing;
  for (const std::string& yaml : kEveryKey) {
    for (const std::string& k : top_level_keys(yaml)) given.insert(k);
    if (const YAML::Node t = YAML::Load(yaml)["timing"])
      for (const auto& kv : t) timing.insert(kv.first.as<std::string>());
  }
  for (const std::string& key : experiment_keys()) CHECK(has(given, key));  // a new key: set it in kEveryKey
  for (const std::string& key : timing_keys()) CHECK(has(timing, key));
}

TEST_CASE("report.json's experiment records every key the experiment parser takes", "[config][report]") {
  for (const std::string& yaml : kEveryKey) {
    const Experiment e = parse_experiment(yaml, "every-key.yaml");
    const nlohmann::json j = experiment_to_json(e);
    INFO(j.dump());
    for (const std::string& key : top_level_keys(yaml)) {
      INFO(key);
      CHECK(j.contains(key));
    }
    if (top_level_keys(yaml).contains("timing"))
      for (const auto& kv : YAML::Load(yaml)["timing"]) {
        const std::string key = kv.first.as<std::string>();
        INFO("timing." << key);
        CHECK((j.at("timing").contains(key) || j.at("timing").contains(key + "_s")));  // time_budget_s
      }
    if (top_level_keys(yaml).contains("instrumentation"))
      for (const std::string& key : instrumentation_keys()) CHECK(j.at("instrumentation").contains(key));
  }
}

TEST_CASE("report.json's experiment reads back to the experiment it records", "[config][report]") {
  for (const std::string& yaml : kEveryKey) {
    const Experiment e = parse_experiment(yaml, "every-key.yaml");
    const nlohmann::json j = experiment_to_json(e);
    // Every value set away from its default survives: a key from_json leaves out comes back as the default.
    CHECK(experiment_to_json(experiment_from_json(j)) == j);
  }
  const Experiment repeated = experiment_from_json(experiment_to_json(parse_experiment(kEveryKey[0], "x.yaml")));
  CHECK(repeated.repetitions == 3);
  CHECK(repeated.repetition_seed == 42);
  CHECK(repeated.timing.race->refine == false);
  CHECK_FALSE(repeated.timing.rank_timing);
  CHECK(repeated.instrumentation.papi == std::vector<std::string>{"perf::TASK-CLOCK"});
}

TEST_CASE("a report from before repetitions were recorded reads as one repetition, seed 1", "[config][report]") {
  // The keys reports gained after the first: absent in an older report's experiment.
  nlohmann::json old = experiment_to_json(parse_experiment(kEveryKey[0], "x.yaml"));
  for (const char* key : {"repetitions", "repetition_seed", "count_matrix", "instrumentation"}) old.erase(key);
  const Experiment e = experiment_from_json(old);
  CHECK(e.repetitions == 1);
  CHECK(e.repetition_seed == 1);
  CHECK(e.count_patterns == std::vector<std::string>{"uniform"});
  CHECK_FALSE(e.instrumentation.phases);
  CHECK(e.name == "every-key");
  // Before timing.rank_timing every run took per-rank timing.
  nlohmann::json before = experiment_to_json(parse_experiment(kEveryKey[0], "x.yaml"));
  before.at("timing").erase("rank_timing");
  CHECK(experiment_from_json(before).timing.rank_timing);
}
