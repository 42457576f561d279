// SPDX-License-Identifier: BSD-3-Clause
// Experiment and platform files: what they mean, and how mistakes are reported
// (src/config/experiment.hpp, platform.hpp, error.hpp).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "config/data_files.hpp"
#include "config/experiment.hpp"
#include "config/platform.hpp"
#include "config/to_json.hpp"
#include "config_errors.hpp"
#include "core/build_info.hpp"
#include "core/case.hpp"
#include "support/input_error.hpp"

using namespace pico;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

const std::string kDataDir = std::string(PICO_TEST_DATA_DIR) + "/config";

// Sets (or, with nullptr, unsets) an environment variable for one test and
// restores the previous state afterwards, so tests stay independent.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    set(value);
  }
  ~ScopedEnv() { set(old_ ? old_->c_str() : nullptr); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  void set(const char* value) {
    if (value != nullptr)
      setenv(name_, value, 1);
    else
      unsetenv(name_);
  }
  const char* name_;
  std::optional<std::string> old_;
};

using test::experiment_error;
using test::error_of_load;
using test::platform_error;

// Every payload collective needs sizes; tests about other keys start from this.
const std::string kBase = "collectives: [allreduce]\nsizes: [8B]\n";

}  // namespace

// ---- InputError -----------------------------------------------------------

TEST_CASE("pico's data is looked for here, beside an installed pico, then in the source tree", "[config]") {
  namespace fs = std::filesystem;
  const fs::path relative = "platforms/local.yaml";
  // From a directory that is neither of the others (restored after).
  const fs::path was = fs::current_path();
  fs::current_path(fs::temp_directory_path());
  const auto candidates = data_file_candidates(relative);
  const fs::path here = fs::current_path();
  fs::current_path(was);
  const fs::path installed = fs::read_symlink("/proc/self/exe").parent_path() / ".." / "share" / "pico" / relative;
  REQUIRE(candidates.size() == 3);
  CHECK(candidates[0] == (here / relative).lexically_normal());
  CHECK(candidates[1] == installed.lexically_normal());
  CHECK(candidates[2] == (fs::path(std::string(pico::build::source_dir)) / relative).lexically_normal());
}

TEST_CASE("InputError renders compiler-style messages", "[config]") {
  const InputError with_hint("exp.yaml", 3, 8, "unknown size unit 'Q' in '8Q'", "use B, KiB");
  CHECK(std::string(with_hint.what()) == "pico: error: exp.yaml:3:8: unknown size unit 'Q' in '8Q'\n  hint: use B, KiB");
  CHECK(with_hint.file == "exp.yaml");
  CHECK(with_hint.line == 3);
  CHECK(with_hint.column == 8);
  CHECK(with_hint.message == "unknown size unit 'Q' in '8Q'");
  CHECK(with_hint.hint == "use B, KiB");

  CHECK(std::string(InputError("a.yaml", 2, 1, "bad").what()) == "pico: error: a.yaml:2:1: bad");
  CHECK(std::string(InputError("a.yaml", 0, 0, "missing").what()) == "pico: error: a.yaml: missing");
  CHECK(std::string(InputError("a.yaml", 0, 0, "missing", "look").what()) == "pico: error: a.yaml: missing\n  hint: look");
  CHECK(std::string(InputError("--op", "unknown op 'a\nb'").what()) == "pico: error: --op: unknown op 'a\\nb'");
}

TEST_CASE("errors quote input with its control characters escaped: one line, no terminal codes", "[config]") {
  CHECK(pico::printable("a\nb\tc\r") == "a\\nb\\tc\\r");
  CHECK(pico::printable("\x1b[31mred") == "\\x1b[31mred");
  CHECK(pico::printable("descr\xc2\x85ption") == "descr\\u0085ption");  // NEL, a C1 control in UTF-8
  CHECK(pico::printable("caf\xc3\xa9 \xc2\xa0") == "caf\xc3\xa9 \xc2\xa0");  // other UTF-8 stays as it is
}

// ---- experiments: valid documents ------------------------------------------

TEST_CASE("a full experiment file sets every field", "[config]") {
  const std::string path = kDataDir + "/experiment_full.yaml";
  const Experiment e = load_experiment(path);
  CHECK(e.name == "full-example");
  CHECK(e.description == "every setting given");
  CHECK(e.collectives == std::vector<Collective>{Collective::allreduce, Collective::bcast, Collective::barrier});
  CHECK(e.sizes == std::vector<std::uint64_t>{8, 4096, 1048576});
  CHECK(e.counts.empty());
  CHECK(e.dtypes == std::vector<Dtype>{Dtype::int32, Dtype::float64});
  CHECK(e.ops == std::vector<Op>{Op::sum, Op::max});
  CHECK(e.processes == std::vector<int>{2, 4});
  CHECK(e.in_place == std::vector<bool>{false, true});
  REQUIRE(e.backends.size() == 1);
  CHECK(e.backends[0].library == "mpi");
  CHECK(e.backends[0].algorithms == std::vector<std::string>{"default"});
  CHECK(e.timing.mode == TimingMode::throughput);
  CHECK(e.timing.warmup == 3);
  CHECK(e.timing.min_iterations == 20);
  CHECK(e.timing.max_iterations == 5000);
  CHECK(e.timing.time_budget_s == Approx(0.5));
  CHECK(e.timing.target_ci == Approx(0.05));
  CHECK(e.timing.case_timeout_s == Approx(30.0));
  CHECK(e.timing.keep_samples);
  CHECK_FALSE(e.validation);
  CHECK(e.source_path == path);
  CHECK_THAT(e.source_text, Contains("name: full-example") && Contains("validation: false"));
}

TEST_CASE("a minimal experiment takes the defaults and is named after its file", "[config]") {
  const Experiment e = parse_experiment(kBase, "dir/latency-sweep.yaml");
  const Experiment defaults;
  CHECK(e.name == "latency-sweep");
  CHECK(e.description.empty());
  CHECK(e.collectives == std::vector<Collective>{Collective::allreduce});
  CHECK(e.sizes == std::vector<std::uint64_t>{8});
  CHECK(e.dtypes == std::vector<Dtype>{Dtype::float32});
  CHECK(e.ops == std::vector<Op>{Op::sum});
  CHECK(e.processes == std::vector<int>{2});
  CHECK(e.in_place == std::vector<bool>{false});
  REQUIRE(e.backends.size() == 1);
  CHECK(e.backends[0].library == "mpi");
  CHECK(e.backends[0].algorithms == std::vector<std::string>{"default"});
  CHECK(e.timing.mode == defaults.timing.mode);
  CHECK(e.timing.warmup == defaults.timing.warmup);
  CHECK(e.timing.min_iterations == defaults.timing.min_iterations);
  CHECK(e.timing.max_iterations == defaults.timing.max_iterations);
  CHECK(e.timing.time_budget_s == defaults.timing.time_budget_s);
  CHECK(e.timing.target_ci == defaults.timing.target_ci);
  CHECK(e.timing.case_timeout_s == defaults.timing.case_timeout_s);
  CHECK(e.timing.keep_samples == defaults.timing.keep_samples);
  CHECK(e.timing.rank_timing);  // on unless turned off: today's runs keep it
  CHECK(e.validation);
  CHECK(e.source_path == "dir/latency-sweep.yaml");
  CHECK(e.source_text == kBase);
}

TEST_CASE("single values stand for one-item lists, and 'all' expands", "[config]") {
  const Experiment e = parse_experiment(
      "collectives: all\nsizes: 4KiB\ndtypes: all\nops: all\nprocesses: 4\nin_place: true\n", "x.yaml");
  CHECK(e.collectives.size() == kCollectiveCount);
  CHECK(e.sizes == std::vector<std::uint64_t>{4096});
  CHECK(e.dtypes.size() == 9);
  CHECK(e.ops == std::vector<Op>{Op::sum, Op::prod, Op::min, Op::max});
  CHECK(e.processes == std::vector<int>{4});
  CHECK(e.in_place == std::vector<bool>{true});

  const Experiment listed = parse_experiment("collectives: [all]\nsizes: [4KiB]\ndtypes: [float32]\n", "x.yaml");
  CHECK(listed.collectives.size() == kCollectiveCount);
  CHECK(listed.dtypes == std::vector<Dtype>{Dtype::float32});
}

TEST_CASE("sizes and counts come as lists, ranges or command-line strings", "[config]") {
  const auto range = parse_experiment("collectives: [allreduce]\nsizes: {from: 8B, to: 1MiB}\n", "x.yaml");
  CHECK(range.sizes.size() == 18);
  CHECK(range.sizes.back() == 1048576u);

  const auto by4 = parse_experiment("collectives: [allreduce]\nsizes:\n  from: 8\n  to: 1KiB\n  factor: 4\n", "x.yaml");
  CHECK(by4.sizes == std::vector<std::uint64_t>{8, 32, 128, 512});

  CHECK(parse_experiment("collectives: [allreduce]\nsizes: 8B:1KiB:4\n", "x.yaml").sizes ==
        std::vector<std::uint64_t>{8, 32, 128, 512});
  CHECK(parse_experiment("collectives: [allreduce]\nsizes: 8B,4KiB\n", "x.yaml").sizes ==
        std::vector<std::uint64_t>{8, 4096});
  CHECK(parse_experiment("collectives: [allreduce]\nsizes: [8, 1KB]\n", "x.yaml").sizes ==
        std::vector<std::uint64_t>{8, 1000});

  const auto counts = parse_experiment("collectives: [allreduce]\ncounts: [0, 1, 1024]\n", "x.yaml");
  CHECK(counts.sizes.empty());
  CHECK(counts.counts == std::vector<std::uint64_t>{0, 1, 1024});
  CHECK(parse_experiment("collectives: [allreduce]\ncounts: {from: 1, to: 16}\n", "x.yaml").counts ==
        std::vector<std::uint64_t>{1, 2, 4, 8, 16});

  const auto barrier = parse_experiment("collectives: [barrier]\n", "x.yaml");
  CHECK(barrier.sizes.empty());
  CHECK(barrier.counts.empty());
}

TEST_CASE("timing accepts plain numbers for durations and fractions", "[config]") {
  const auto e =
      parse_experiment(kBase + "timing:\n  time_budget: 2\n  target_ci: 0.01\n  case_timeout: 1min\n", "x.yaml");
  CHECK(e.timing.time_budget_s == Approx(2.0));
  CHECK(e.timing.target_ci == Approx(0.01));
  CHECK(e.timing.case_timeout_s == Approx(60.0));
  // The docs' `race: 10m` (issue 53, finding 3), in both spellings.
  CHECK(parse_experiment(kBase + "timing: {race: 10m}\n", "x.yaml").timing.race->budget_s == Approx(600.0));
  CHECK(parse_experiment(kBase + "timing: {race: {budget: 10m}}\n", "x.yaml").timing.race->budget_s == Approx(600.0));
  CHECK_THROWS_WITH(parse_experiment(kBase + "timing: {race: 99999999999999999999s}\n", "x.yaml"),
                    Catch::Matchers::Contains("longer than 30 days"));
}

TEST_CASE("test-only backends are accepted when enabled", "[config]") {
  ScopedEnv enable("PICO_ENABLE_TEST_BACKENDS", "1");
  const auto e = parse_experiment(kBase +
                                      "backends:\n"
                                      "  - library: mpi\n"
                                      "  - library: fault\n"
                                      "    algorithms: all\n",
                                  "x.yaml");
  REQUIRE(e.backends.size() == 2);
  CHECK(e.backends[0].library == "mpi");
  CHECK(e.backends[0].algorithms == std::vector<std::string>{"default"});
  CHECK(e.backends[1].library == "fault");
  CHECK(e.backends[1].algorithms == std::vector<std::string>{"corrupt", "crash", "hang", "late", "slow"});
}

// ---- experiments: errors point at the offending spot -------------------------

TEST_CASE("a stray ',' where a value starts is a syntax error, not an endless parse", "[config]") {
  // yaml-cpp 0.7's LoadAll never returns on these (jbeder/yaml-cpp#1040); found by tests/fuzz.
  const auto alone = experiment_error(",\n");
  CHECK(alone.line == 1);
  CHECK(alone.column == 1);
  CHECK(alone.message == "invalid YAML: ',' cannot start a value here");
  const auto after_comment = experiment_error("# a comment\n, partition debug\ncollectives: [allreduce]\n");
  CHECK(after_comment.line == 2);
  CHECK(after_comment.column == 1);
}

TEST_CASE("a second YAML document is refused where it starts", "[config]") {
  const auto e = experiment_error("collectives: [allreduce]\n---\nsizes: [8B]\n");
  CHECK(e.line == 2);
  CHECK(e.message == "the file holds more than one YAML document");
  CHECK(experiment_error("collectives: [allreduce]\n---\n").message == "the file holds more than one YAML document");
  CHECK(experiment_error("# only a comment\n").message == "the file is empty");
}

TEST_CASE("a YAML syntax error reports the parser's line and column", "[config]") {
  const auto e = experiment_error(
      "collectives: [allreduce]\n"  // 1
      "sizes: [8B]\n"               // 2
      "timing:\n"                   // 3
      "  mode: latency\n"           // 4
      " warmup: 3\n");              // 5: indented less than 'mode', more than 'timing'
  CHECK(e.file == "exp.yaml");
  CHECK(e.line == 5);
  CHECK(e.column == 2);
  CHECK_THAT(e.message, Contains("invalid YAML"));
  CHECK_THAT(e.hint, Contains("indentation"));
}

TEST_CASE("an unknown key is reported at the key with a did-you-mean", "[config]") {
  const auto e = experiment_error("collectives: [allreduce]\nsizez: [8B]\n");
  CHECK(e.line == 2);
  CHECK(e.column == 1);
  CHECK(e.message == "unknown key 'sizez' in the experiment");
  CHECK(e.hint == "did you mean 'sizes'?");

  const auto far = experiment_error(kBase + "timing:\n  colour: blue\n");
  CHECK(far.line == 4);
  CHECK(far.column == 3);
  CHECK(far.message == "unknown key 'colour' in timing");
  CHECK_THAT(far.hint, Contains("allowed keys: mode, warmup,") && Contains("keep_samples"));
}

TEST_CASE("a bad size unit is reported at the scalar", "[config]") {
  const auto scalar = experiment_error("collectives: [allreduce]\nsizes: 8Q\n");
  CHECK(scalar.line == 2);
  CHECK(scalar.column == 8);
  CHECK(scalar.message == "unknown size unit 'Q' in '8Q'");
  CHECK(scalar.hint == "use B, KiB, MiB, GiB (or KB, MB, GB)");

  const auto listed = experiment_error("collectives: [allreduce]\nsizes: [8B, 8Q]\n");
  CHECK(listed.line == 2);
  CHECK(listed.column == 13);
  CHECK(listed.message == "unknown size unit 'Q' in '8Q'");
  CHECK(listed.hint == "use B, KiB, MiB, GiB (or KB, MB, GB)");
}

TEST_CASE("wrong types and out-of-range numbers are reported at the value", "[config]") {
  const auto word = experiment_error(kBase + "processes: two\n");
  CHECK(word.line == 3);
  CHECK(word.column == 12);
  CHECK(word.message == "processes must be an integer, got 'two'");

  const auto zero = experiment_error(kBase + "processes: [2, 0]\n");
  CHECK(zero.line == 3);
  CHECK(zero.column == 16);
  CHECK(zero.message == "processes must be at least 1, got 0");

  const auto map = experiment_error(kBase + "validation: {a: 1}\n");
  CHECK(map.line == 3);
  CHECK(map.column == 13);
  CHECK(map.message == "validation must be a single value, got a map");

  const auto empty = experiment_error(kBase + "description:\n");
  CHECK(empty.line == 3);  // at the key, not where yaml-cpp puts the missing value
  CHECK(empty.column == 1);
  CHECK(empty.message == "description needs a value");
}

TEST_CASE("values outside the allowed set name it, with a did-you-mean", "[config]") {
  const auto dtype = experiment_error(kBase + "dtypes: [flaot32]\n");
  CHECK(dtype.line == 3);
  CHECK(dtype.column == 10);
  CHECK(dtype.message == "unknown dtype 'flaot32'");
  CHECK(dtype.hint == "did you mean 'float32'? allowed: int8, uint8, int16, int32, int64, float32, float64, float16, bfloat16, all");

  const auto op = experiment_error(kBase + "ops: [average]\n");
  CHECK(op.message == "unknown op 'average'");
  CHECK(op.hint == "allowed: sum, prod, min, max, all");

  const auto coll = experiment_error("collectives: [allreduce, alltoal]\nsizes: [8B]\n");
  CHECK(coll.line == 1);
  CHECK(coll.column == 26);
  CHECK_THAT(coll.hint, Contains("did you mean 'alltoall'?"));

  const auto mode = experiment_error(kBase + "timing: {mode: bandwidth}\n");
  CHECK(mode.message == "unknown timing mode 'bandwidth'");

  const auto in_place = experiment_error(kBase + "in_place: sometimes\n");
  CHECK(in_place.message == "in_place must be false, true or both, got 'sometimes'");
}

TEST_CASE("duplicates in lists are errors at the repeat", "[config]") {
  const auto dtypes = experiment_error(kBase + "dtypes: [int32, float32, int32]\n");
  CHECK(dtypes.line == 3);
  CHECK(dtypes.column == 26);
  CHECK(dtypes.message == "dtype 'int32' is listed twice");

  const auto sizes = experiment_error("collectives: [allreduce]\nsizes: [8B, 8]\n");
  CHECK(sizes.column == 13);
  CHECK(sizes.message == "size '8' is listed twice");

  const auto keys = experiment_error(kBase + "sizes: [16B]\n");
  CHECK(keys.line == 3);
  CHECK(keys.message == "'sizes' is given twice in the experiment");

  const auto all = experiment_error("collectives: [allreduce, all]\nsizes: [8B]\n");
  CHECK(all.message == "'all' cannot be combined with other collective names");
}

TEST_CASE("sizes and counts are checked for shape and presence", "[config]") {
  const auto neither = experiment_error("collectives: [allreduce, barrier]\n");
  CHECK(neither.line == 1);
  CHECK(neither.message == "the experiment needs 'sizes' or 'counts'");

  const auto both = experiment_error(kBase + "counts: [1]\n");
  CHECK(both.line == 3);
  CHECK(both.column == 1);
  CHECK(both.message == "give either sizes or counts, not both");

  const auto reversed = experiment_error("collectives: [allreduce]\nsizes: {from: 1MiB, to: 8B}\n");
  CHECK(reversed.column == 25);
  CHECK(reversed.message == "'to' must not be below 'from' in a size range");

  CHECK(experiment_error("collectives: [allreduce]\nsizes: {from: 8B, to: 1MiB, factor: 1}\n").message ==
        "factor must be at least 2, got 1");
  CHECK(experiment_error("collectives: [allreduce]\nsizes: {from: 8B}\n").message ==
        "the size range is missing the required key 'to'");
  CHECK(experiment_error("collectives: [allreduce]\nsizes: [0]\n").message == "a size must be at least 1, got 0");
  CHECK(experiment_error("collectives: [allreduce]\nsizes: []\n").message == "sizes must not be empty");
  CHECK(experiment_error("collectives: [allreduce]\ncounts: [1KiB]\n").message ==
        "count must be an integer, got '1KiB'");
}

TEST_CASE("backends are checked against the known libraries and algorithms", "[config]") {
  SECTION("a test-only backend needs PICO_ENABLE_TEST_BACKENDS") {
    ScopedEnv disable("PICO_ENABLE_TEST_BACKENDS", nullptr);
    const auto e = experiment_error(kBase +
                                    "backends:\n"               // 3
                                    "  - library: fault\n"      // 4
                                    "    algorithms: [crash]\n");
    CHECK(e.line == 4);
    CHECK(e.column == 14);
    CHECK(e.message == "backend 'fault' exists only for pico's own tests");
    CHECK(e.hint == "set PICO_ENABLE_TEST_BACKENDS=1 (tests only)");
  }
  SECTION("an unknown algorithm lists only the near names of the experiment's collectives") {
    const auto e = experiment_error(kBase +
                                    "backends:\n"
                                    "  - library: mpi\n"
                                    "    algorithms: [rnig]\n");  // 5
    CHECK(e.line == 5);
    CHECK(e.column == 18);
    CHECK(e.message == "backend 'mpi' has no algorithm 'rnig'");
    // Issue 65: the hint listed ~80 names of every library and collective; now the near ones and where the rest are.
    CHECK_THAT(e.hint, StartsWith("did you mean 'ring'? near names for allreduce: ring"));
    CHECK_THAT(e.hint, Contains("`pico list algorithms --collective allreduce` lists them all"));
    CHECK_THAT(e.hint, !Contains("scatter_recursive_doubling_allgather"));
    CHECK(e.hint.size() < 160);
    // A word many names hold: those, nearest first, at most six, of allreduce's (no bcast-only scatter_allgather).
    const auto d = experiment_error(kBase + "backends: [{library: mpi, algorithms: [doubling]}]\n");
    CHECK_THAT(d.hint, Contains("near names for allreduce: recursive_doubling"));
  }
  SECTION("an unknown library") {
    const auto e = experiment_error(kBase + "backends: [{library: mpii}]\n");
    CHECK(e.line == 3);
    CHECK(e.column == 22);
    CHECK(e.message == "unknown backend library 'mpii'");
    CHECK_THAT(e.hint, Contains("did you mean 'mpi'?"));
  }
  SECTION("the same library twice") {
    const auto e = experiment_error(kBase + "backends: [{library: mpi}, {library: mpi}]\n");
    CHECK(e.column == 38);
    CHECK(e.message == "backend 'mpi' is listed twice");
  }
}

TEST_CASE("timing settings are range-checked against each other", "[config]") {
  const auto iters = experiment_error(kBase + "timing:\n  min_iterations: 100\n  max_iterations: 50\n");
  CHECK(iters.line == 5);
  CHECK(iters.column == 19);
  CHECK(iters.message == "max_iterations (50) is below min_iterations (100)");

  CHECK(experiment_error(kBase + "timing: {max_iterations: 10000001}\n").message ==
        "max_iterations must be at most 10000000, got 10000001");
  CHECK(experiment_error(kBase + "timing: {warmup: -1}\n").message == "warmup must be at least 0, got -1");
  CHECK(experiment_error(kBase + "timing: {time_budget: 0s}\n").message == "time_budget must be longer than zero");
  CHECK(experiment_error(kBase + "timing: {target_ci: 100%}\n").message ==
        "target_ci must lie strictly between 0 and 1 (0% and 100%), got '100%'");
  CHECK(experiment_error(kBase + "timing: {keep_samples: maybe}\n").message ==
        "keep_samples must be true or false, got 'maybe'");
  const auto rank_timing = experiment_error(kBase + "timing:\n  rank_timing: 0\n");
  CHECK(rank_timing.line == 4);
  CHECK(rank_timing.column == 16);
  CHECK(rank_timing.message == "rank_timing must be true or false, got '0'");
  CHECK_FALSE(parse_experiment(kBase + "timing: {rank_timing: false}\n", "x.yaml").timing.rank_timing);

  const auto timeout = experiment_error(kBase + "timing:\n  time_budget: 10s\n  case_timeout: 5s\n");
  CHECK(timeout.line == 5);
  CHECK(timeout.column == 17);
  CHECK(timeout.message == "case_timeout (5s) must be longer than time_budget (10s)");
  CHECK_THAT(timeout.hint, Contains("whole case"));
}

TEST_CASE("timing batches and CUDA graphs: defaults, conflicts and the backends that take them", "[config]") {
  // Throughput mode times batches of nccl-tests' 20 calls unless calls_per_sample says; latency times each call.
  CHECK(parse_experiment(kBase, "x.yaml").timing.calls_per_sample == 1);
  CHECK(parse_experiment(kBase + "timing: {mode: throughput}\n", "x.yaml").timing.calls_per_sample == kDefaultCallsPerSample);
  CHECK(parse_experiment(kBase + "timing: {mode: throughput, calls_per_sample: 1}\n", "x.yaml").timing.calls_per_sample == 1);
  const Experiment graph = parse_experiment(
      kBase + "backends: [{library: nccl}]\ntiming: {mode: throughput, graph: 50}\n", "x.yaml");
  CHECK(graph.timing.graph);
  CHECK(graph.timing.calls_per_sample == 50);
  CHECK_FALSE(parse_experiment(kBase + "timing: {mode: throughput}\n", "x.yaml").timing.graph);

  // The worker reads the timing from the launch file: graph and calls_per_sample survive the trip,
  // and a file from before them times every call on its own.
  const TimingSpec back = timing_from_json(timing_to_json(graph.timing));
  CHECK(back.graph);
  CHECK(back.calls_per_sample == 50);
  CHECK(timing_to_json(graph.timing).at("graph") == 50);
  nlohmann::json old = timing_to_json(TimingSpec{});
  old.erase("calls_per_sample");
  old.erase("graph");
  const TimingSpec before = timing_from_json(old);
  CHECK(before.calls_per_sample == 1);
  CHECK_FALSE(before.graph);

  const auto latency = experiment_error(kBase + "timing: {calls_per_sample: 5}\n");
  CHECK(latency.message == "latency mode times every call on its own, after a barrier");
  CHECK(latency.line == 3);
  CHECK(latency.column == 28);
  CHECK(experiment_error(kBase + "timing: {mode: throughput, calls_per_sample: 0}\n").message == "calls_per_sample must be at least 1, got 0");
  CHECK(experiment_error(kBase + "backends: [{library: nccl}]\ntiming: {mode: throughput, calls_per_sample: 2, graph: 3}\n")
            .message == "graph and calls_per_sample both say how many calls one sample holds");
  const auto host = experiment_error(kBase + "timing: {mode: throughput, graph: 10}\n");
  CHECK(host.message == "backend 'mpi' cannot be captured in a CUDA graph");
  CHECK_THAT(host.hint, Contains("'nccl'") && Contains("'nccl_compressed'"));
  CHECK(experiment_error(kBase + "backends: [{library: nccl, gpus_per_process: 2}]\ntiming: {mode: throughput, graph: 10}\n")
            .message == "graph timing captures one GPU's stream per process");
}

TEST_CASE("nccl's rotate_buffers is a size kept in the case's options, for nccl only", "[config]") {
  const Experiment e = parse_experiment(kBase + "backends: [{library: nccl, rotate_buffers: 1GiB}]\n", "x.yaml");
  CHECK(e.backends.front().options.at(kRotateBuffers) == std::to_string(std::uint64_t{1} << 30));
  CHECK(parse_experiment(kBase + "backends: [{library: nccl, rotate_buffers: 0}]\n", "x.yaml")
            .backends.front()
            .options.empty());
  const auto unit = experiment_error(kBase + "backends: [{library: nccl, rotate_buffers: 1Gx}]\n");
  CHECK(unit.message == "unknown size unit 'Gx' in '1Gx'");
  CHECK_THAT(unit.hint, Contains("nccl-tests' -e"));
  CHECK_THAT(experiment_error(kBase + "backends: [{library: nccl, rotate_buffers: 100GiB}]\n").message,
             Contains("more than any GPU holds"));
  CHECK(experiment_error(kBase + "backends: [{library: mpi, rotate_buffers: 1GiB}]\n").message ==
        "'rotate_buffers' applies to backend 'nccl' only");
}

TEST_CASE("empty files, non-map documents and missing files are errors", "[config]") {
  const auto empty = experiment_error("");
  CHECK(empty.line == 0);
  CHECK(empty.message == "the file is empty");
  CHECK(experiment_error("# just a comment\n").message == "the file is empty");

  const auto list = experiment_error("- allreduce\n- bcast\n");
  CHECK(list.line == 1);
  CHECK(list.column == 1);
  CHECK(list.message == "the experiment must be a map of 'key: value' lines, got a list");

  CHECK(experiment_error("sizes: [8B]\n").message == "the experiment is missing the required key 'collectives'");

  try {
    load_experiment(kDataDir + "/no-such-file.yaml");
    FAIL("load_experiment accepted a missing file");
  } catch (const InputError& e) {
    CHECK(e.line == 0);
    CHECK(e.file == kDataDir + "/no-such-file.yaml");
    CHECK(e.message == "cannot open the experiment file");
    CHECK_FALSE(e.hint.empty());
  }
}

TEST_CASE("a NUL byte anywhere is an error at its line and column", "[config]") {
  // yaml-cpp would read "\0e" in a quoted string as ESC and keep it.
  const auto quoted = experiment_error(kBase + std::string("name: \"a\0e\"\n", 12));
  CHECK(quoted.line == 3);
  CHECK(quoted.column == 9);
  CHECK(quoted.message == "the file contains a NUL byte");
  CHECK_FALSE(quoted.hint.empty());
  const auto comment = platform_error(std::string("name: x\n# \0\n", 12));
  CHECK(comment.line == 2);
  CHECK(comment.column == 3);
}

TEST_CASE("a device, a directory or an oversized file is refused before it is read", "[config]") {
  // /dev/zero would otherwise be read until memory runs out.
  const auto device = error_of_load(load_experiment, "/dev/zero");
  CHECK(device.line == 0);
  CHECK(device.message == "the experiment file is a FIFO, device or socket, not a regular file");
  CHECK(device.hint == "give a YAML file of at most 16 MiB");
  CHECK(error_of_load(load_platform, kDataDir).message == "the platform file is a directory, not a file");
  CHECK(kMaxConfigFileBytes == 16 * kMiB);
}

// ---- platforms -------------------------------------------------------------

TEST_CASE("a full platform file sets every field", "[config]") {
  const std::string path = kDataDir + "/platform_test.yaml";
  const Platform p = load_platform(path);
  CHECK(p.name == "test-host");
  CHECK(p.description == "a platform for the unit tests");
  CHECK(p.scheduler == "local");
  CHECK(p.launcher.kind == "mpirun");
  CHECK(p.launcher.command == "/opt/mpi/bin/mpirun");
  CHECK(p.launcher.args == std::vector<std::string>{"--bind-to", "core"});
  CHECK_FALSE(p.launcher.allow_run_as_root);
  CHECK_FALSE(p.launcher.oversubscribe);
  CHECK(p.env == std::map<std::string, std::string>{{"OMP_NUM_THREADS", "1"}, {"UCX_TLS", "self,sm"}});
  CHECK(p.worker == "/opt/pico/bin/pico-worker");
  CHECK(p.source_path == path);
  CHECK_THAT(p.source_text, Contains("name: test-host"));
}

TEST_CASE("platform mistakes are reported at the value", "[config]") {
  const auto scheduler = platform_error("name: cluster\nscheduler: slurmm\n");
  CHECK(scheduler.line == 2);
  CHECK(scheduler.column == 12);
  CHECK_THAT(scheduler.hint, Contains("slurm"));

  const auto kind = platform_error("name: x\nlauncher:\n  kind: srun\n");
  CHECK(kind.line == 3);
  CHECK(kind.column == 9);
  CHECK(kind.message == "launcher kind srun needs a Slurm allocation");

  const auto key = platform_error("name: x\nlauncher:\n  comand: mpiexec\n");
  CHECK(key.line == 3);
  CHECK(key.column == 3);
  CHECK(key.hint == "did you mean 'command'?");

  const auto env = platform_error("name: x\nenv:\n  BAD-NAME: 1\n");
  CHECK(env.line == 3);
  CHECK(env.message == "'BAD-NAME' is not a valid environment variable name");

  CHECK(platform_error("description: nameless\n").message == "the platform is missing the required key 'name'");
  CHECK(platform_error("name: x\nenv: [A]\n").message == "env must be a map of 'key: value' lines, got a list");
}

TEST_CASE("a platform says where its ranks go, for hosts pico cannot see", "[config][placement]") {
  const Platform p = parse_platform("name: hosts\nplacement: {ranks_per_node: 8, fill: evenly}\n", "hosts.yaml");
  REQUIRE(p.placement.has_value());
  CHECK(p.placement->ranks_per_node == 8);
  CHECK(p.placement->fill == RankPlacement::Fill::evenly);
  CHECK(p.placement->text(12) == "2 nodes x 6 ranks");
  CHECK_FALSE(parse_platform("name: local\n", "p.yaml").placement.has_value());
  const auto zero = platform_error("name: x\nplacement:\n  ranks_per_node: 0\n");
  CHECK(zero.line == 3);
  CHECK(zero.column == 19);
  const auto fill = platform_error("name: x\nplacement: {ranks_per_node: 2, fill: by_socket}\n");
  CHECK(fill.line == 2);
  CHECK_THAT(fill.hint, Contains("node_after_node"));
  const Platform cyclic = parse_platform("name: rr\nplacement: {ranks_per_node: 2, fill: cyclic}\n", "rr.yaml");
  CHECK(cyclic.placement->fill == RankPlacement::Fill::cyclic);
}

TEST_CASE("a platform name must be one safe directory name", "[config]") {
  // It becomes results/<name>/: a path in it would put runs outside -o.
  for (const std::string name : {"\"/elsewhere/x\"", "../../x", "a/b", "\"a b\"", "\"x\\ty\"", ".hidden", "\"\\e[2J\""}) {
    const auto e = platform_error("name: " + name + "\n");
    CHECK(e.line == 1);
    CHECK(e.column == 7);
    CHECK_THAT(e.message, StartsWith("platform name '"));
    CHECK_THAT(e.message, Contains("it becomes a directory name"));
    CHECK_THAT(e.hint, Contains("letters, digits"));
  }
  CHECK_THAT(platform_error("name: \"\\e[2J\"\n").message, Contains("'\\x1b[2J'"));
  CHECK_THAT(platform_error("name: " + std::string(65, 'a') + "\n").message, Contains("longer than 64"));
  CHECK(parse_platform("name: " + std::string(64, 'a') + "\n", "p.yaml").name == std::string(64, 'a'));
  CHECK(parse_platform("name: my_site-2.v1\n", "p.yaml").name == "my_site-2.v1");
}

TEST_CASE("resolve_platform finds 'local' by name", "[config]") {
  const Platform p = resolve_platform("local");
  CHECK(p.name == "local");
  CHECK(p.scheduler == "local");
  CHECK(p.launcher.kind == "mpirun");
  CHECK(p.launcher.command == "mpirun");
  CHECK(p.launcher.args.empty());
  CHECK(p.env.empty());
  CHECK_THAT(p.source_path, Contains("platforms/local.yaml"));

  // The copy built into the binary says the same, for installs without the source tree.
  const Platform embedded =
      parse_platform(std::string(build::embedded_local_platform), "<embedded>/platforms/local.yaml");
  CHECK(embedded.name == p.name);
  CHECK(embedded.launcher.command == p.launcher.command);
  CHECK(embedded.scheduler == p.scheduler);
  CHECK(embedded.source_path == "<embedded>/platforms/local.yaml");
}

TEST_CASE("resolve_platform takes paths and reports where it looked", "[config]") {
  CHECK(resolve_platform(kDataDir + "/platform_test.yaml").name == "test-host");
  try {
    resolve_platform("no-such-platform");
    FAIL("resolve_platform accepted an unknown name");
  } catch (const InputError& e) {
    CHECK(e.line == 0);
    CHECK(e.message == "unknown platform 'no-such-platform'");
    CHECK_THAT(e.hint, Contains("platforms/no-such-platform.yaml"));
    CHECK_THAT(e.hint, Contains("`pico list platforms` names them"));
  }
}

TEST_CASE("sizes in KB, MB or GB are read as decimal and warned of, where they were written (issue 65)", "[config]") {
  const Experiment e = parse_experiment("collectives: [allreduce]\nsizes: [8B, 64KB]\n", "x.yaml");
  CHECK(e.sizes == std::vector<std::uint64_t>{8, 64000});
  REQUIRE(e.warnings.size() == 1);
  CHECK(e.warnings[0] == "x.yaml:2:13: '64KB' is 64000 B (KB, MB and GB are powers of 1000); 64KiB is 65536 B");
  const Experiment range = parse_experiment("collectives: [allreduce]\nsizes: {from: 1KB, to: 4KiB}\n", "r.yaml");
  REQUIRE(range.warnings.size() == 1);
  CHECK_THAT(range.warnings[0], Contains("r.yaml:2:15: '1KB' is 1000 B"));
  CHECK(parse_experiment(kBase, "x.yaml").warnings.empty());
}

TEST_CASE("an unknown platform suggests the near name and pico list platforms (issue 65)", "[config]") {
  try {
    resolve_platform("local-mpi");
    FAIL("resolve_platform accepted an unknown name");
  } catch (const InputError& e) {
    CHECK_THAT(e.hint, Contains("did you mean 'local-mpich'? `pico list platforms` names them"));
  }
  bool found = false;
  for (const KnownPlatform& p : known_platforms()) found = found || p.name == "local-mpich";
  CHECK(found);
}

TEST_CASE("timing.rounds interleaves sweeps by default, 1 turns it off, and travels to the worker", "[config]") {
  CHECK(parse_experiment(kBase, "x.yaml").timing.rounds == kDefaultRounds);
  const Experiment off = parse_experiment(kBase + "timing: {rounds: 1}\n", "x.yaml");
  CHECK(off.timing.rounds == 1);
  const Experiment ten = parse_experiment(kBase + "timing: {rounds: 10}\n", "x.yaml");
  const TimingSpec back = timing_from_json(timing_to_json(ten.timing));
  CHECK(back.rounds == 10);
  // A report written before rounds existed measured each case in one go.
  nlohmann::json old = timing_to_json(ten.timing);
  old.erase("rounds");
  CHECK(timing_from_json(old).rounds == 1);
  const InputError e = experiment_error(kBase + "timing: {rounds: 0}\n");
  CHECK(e.line == 3);
  CHECK_THAT(e.message, Contains("rounds"));
}

// Issue 51's loose end: a file that is no YAML map (/etc/passwd) was echoed whole in the error.
TEST_CASE("a long scalar where a map belongs is quoted by its start and its size", "[config]") {
  std::string passwd;
  for (int i = 0; i < 40; ++i) passwd += fmt::format("user{}:x:{}:{}::/home/user{}:/bin/sh\n", i, i, i, i);
  try {
    parse_experiment(passwd, "passwd");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK_THAT(e.message, Catch::Matchers::Contains("got 'user0:x:0:0::/home/user0:/bin/sh") &&
                              Catch::Matchers::Contains(fmt::format("...' ({} bytes)", passwd.size() - 1)));
    CHECK(e.message.size() < 200);
  }
}
