// SPDX-License-Identifier: BSD-3-Clause
#include "launch/application_run.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "analysis/report_builder.hpp"
#include "config/catalog.hpp"
#include "config/catalog_choice.hpp"
#include "config/emulated_cluster.hpp"
#include "config/mpi_libraries.hpp"
#include "config/yaml_reader.hpp"
#include "instrumentation/provenance.hpp"
#include "launch/application_report.hpp"
#include "launch/application_report_check.hpp"
#include "launch/executor.hpp"
#include "launch/launcher.hpp"
#include "launch/mpi_detect.hpp"
#include "launch/new_results_dir.hpp"
#include "launch/profile_loading.hpp"
#include "launch/results_lock.hpp"
#include "launch/resume.hpp"
#include "support/executable_search.hpp"
#include "support/file_io.hpp"
#include "support/input_error.hpp"
#include "support/interrupt.hpp"
#include "support/json_file.hpp"
#include "support/jsonl.hpp"
#include "support/process.hpp"
#include "support/results_file.hpp"
#include "support/shell_words.hpp"
#include "support/wrapped_text.hpp"

namespace pico {
namespace fs = std::filesystem;

namespace {

constexpr const char* kApplicationFile = "application.json";
constexpr const char* kLaunchesFile = "launches.jsonl";

// launches.jsonl's records, each checked as the report reads it (launch/application_report_check.hpp).
std::vector<nlohmann::json> checked_launches(const std::string& dir, const std::set<std::string>& variants) {
  const std::string path = (fs::path(dir) / kLaunchesFile).string();
  std::vector<nlohmann::json> launches = read_json_lines(path);
  for (std::size_t k = 0; k < launches.size(); ++k) check_application_launch(launches[k], path, k, variants);
  return launches;
}

constexpr const char* kOutputLog = "output.log";
// What a launch record keeps of the application's output.
constexpr std::size_t kOutputTailBytes = 4000;
std::string library_beside_pico(const std::string& name) {
  const fs::path dir = this_program_dir();
  std::error_code ec;
  return !dir.empty() && fs::exists(dir / name, ec) ? (dir / name).string() : "";
}

// A variant as it launches: the variables that make it what it is.
struct PreparedVariant {
  ApplicationVariant variant;
  std::optional<ProfileLoad> profile;
  std::map<std::string, std::string> env;  // the algorithms' and the variant's own; the profile's added at install
  nlohmann::json profile_record;            // what install_profile recorded
};

InputError variant_error(const ApplicationVariant& v, const std::string& message, const std::string& hint) {
  return InputError(v.file, v.line, v.column, message, hint);
}

// The catalogue's variables that force `algorithm` of `c` at launch (Open MPI:
// coll_tuned_use_dynamic_rules and coll_tuned_<coll>_algorithm).
std::map<std::string, std::string> forcing_env(const ApplicationVariant& v, Collective c, const std::string& algorithm,
                                               const PlanTarget& target) {
  const Catalog& catalog = catalog_for(target.mpi_library);
  const auto names = catalog.algorithm_names(c, target.mpi_version);
  if (algorithm == "default")
    throw variant_error(v, fmt::format("'default' is the library's own choice for {}", name(c)),
                        "leave the collective out of the variant's algorithms");
  const CatalogChoice choice = choose(catalog, c, algorithm, CallForm::blocking, target.mpi_version,
                                      fmt::format("{} {}", target.mpi_library, target.mpi_version));
  if (!choice.skip_reason.empty()) throw variant_error(v, choice.skip_reason, yaml::suggest(algorithm, names, "algorithms"));
  if (!choice.entry->component.empty() || catalog.mechanism == SelectionMechanism::builtin ||
      choice.selection.variable.empty())
    throw variant_error(v, fmt::format("{} is chosen by a component or at run time only; a variant cannot force it",
                                       algorithm),
                        "tune a profile that chooses it and give the variant that profile");
  // As a sweep's launch sets an env selection (plan.cpp), whatever the mechanism: an application has no MPI_T.
  std::map<std::string, std::string> env = catalog.launch_env_for(target.mpi_version);
  env[catalog.env_prefix + choice.selection.variable] = choice.selection.value;
  for (const auto& [k, val] : choice.selection.parameters) env[catalog.env_prefix + k] = val;
  return env;
}

std::vector<PreparedVariant> prepare_variants(const ApplicationExperiment& e, const PlanTarget& target) {
  std::vector<PreparedVariant> out;
  for (const ApplicationVariant& v : e.variants) {
    PreparedVariant p;
    p.variant = v;
    if (!v.profile.empty()) {
      p.profile = prepare_profile_load(v.profile, fmt::format("variant {}", v.name), target, Plan{});
      for (const auto& [k, val] : p.profile->launch_env) p.env[k] = val;
    }
    for (const auto& [c, algorithm] : v.algorithms)
      for (const auto& [k, val] : forcing_env(v, c, algorithm, target)) p.env[k] = val;
    for (const auto& [k, val] : v.env) p.env[k] = val;
    out.push_back(std::move(p));
  }
  return out;
}

// The profile files of each variant in DIR/variants/NAME/, their variables added to the variant's.
void install_variants(std::vector<PreparedVariant>& variants, const std::string& dir) {
  for (PreparedVariant& p : variants) {
    if (!p.profile) continue;
    const std::string vdir = (fs::path(dir) / "variants" / p.variant.name).string();
    fs::create_directories(vdir);
    nlohmann::json record;
    for (const auto& [k, val] : install_profile(*p.profile, vdir, record)) p.env.try_emplace(k, val);
    p.profile_record = record["front_end"]["profile"];
    // The report reads the profile's choices from this copy, not from a file that may change after the run.
    const std::string copy = (fs::path(vdir) / "profile.json").string();
    write_results_file(copy, read_text_file(p.variant.profile));
    p.profile_record["copy"] = fs::absolute(copy).string();
  }
}

nlohmann::json variant_json(const PreparedVariant& p) {
  nlohmann::json algorithms = nlohmann::json::object();
  for (const auto& [c, a] : p.variant.algorithms) algorithms[std::string(name(c))] = a;
  return {{"name", p.variant.name},  {"profile", p.profile_record.is_null() ? nlohmann::json() : p.profile_record},
          {"algorithms", algorithms}, {"env_given", p.variant.env},
          {"env", p.env}};
}

nlohmann::json experiment_json(const ApplicationExperiment& e) {
  nlohmann::json j = {{"name", e.name},        {"description", e.description}, {"command", e.command},
                      {"inputs", e.inputs},    {"timeout_s", e.timeout_s},     {"trace", e.trace},
                      {"processes", e.processes},
                      {"rounds", e.rounds},    {"repetitions", e.repetitions}, {"seed", e.seed},
                      {"source_path", fs::absolute(e.source_path).string()}};
  if (e.figure_of_merit)
    j["figure_of_merit"] = {{"pattern", e.figure_of_merit->pattern},
                            {"file", e.figure_of_merit->file},
                            {"better", e.figure_of_merit->higher_is_better ? "higher" : "lower"},
                            {"unit", e.figure_of_merit->unit}};
  return j;
}

// What a resume needs of application.json, read back; InputError where it was edited out of shape.
struct StoredRun {
  ApplicationExperiment experiment;
  std::map<std::string, std::map<std::string, std::string>> env;  // by variant
  Platform platform;
  PlanTarget target;
};

StoredRun read_stored_run(const std::string& dir) {
  const std::string path = (fs::path(dir) / kApplicationFile).string();
  const auto text = read_results_file(path);
  if (!text) throw InputError(dir, "not an application run (no application.json)", "give the directory pico run printed");
  StoredRun s;
  try {
    const nlohmann::json j = nlohmann::json::parse(*text);
    const nlohmann::json& x = j.at("experiment");
    ApplicationExperiment& e = s.experiment;
    e.name = x.at("name").get<std::string>();
    e.description = x.at("description").get<std::string>();
    e.command = x.at("command").get<std::vector<std::string>>();
    e.inputs = x.at("inputs").get<std::vector<std::string>>();
    e.timeout_s = x.at("timeout_s").get<double>();
    e.trace = x.value("trace", false);
    e.processes = x.at("processes").get<std::vector<int>>();
    e.rounds = x.at("rounds").get<int>();
    e.repetitions = x.at("repetitions").get<int>();
    e.seed = x.at("seed").get<std::uint64_t>();
    e.source_path = x.at("source_path").get<std::string>();
    if (x.contains("figure_of_merit")) {
      const auto& f = x["figure_of_merit"];
      e.figure_of_merit = FigureOfMerit{f.at("pattern").get<std::string>(), f.at("file").get<std::string>(),
                                        f.at("better").get<std::string>() == "higher", f.at("unit").get<std::string>()};
    }
    for (const auto& v : j.at("variants")) {
      ApplicationVariant variant;
      variant.name = v.at("name").get<std::string>();
      e.variants.push_back(variant);
      s.env[variant.name] = v.at("env").get<std::map<std::string, std::string>>();
      // Edited since the run? Names by the platform rule and no LD_* (pico adds its own LD_PRELOAD at launch).
      check_resumed_env(s.env[variant.name], path);
    }
    s.target.mpi_library = j.at("mpi").at("library").get<std::string>();
    s.target.mpi_version = j.at("mpi").at("version").get<std::string>();
  } catch (const nlohmann::json::exception& err) {
    throw InputError(path, fmt::format("cannot be read back: {}", json_error_text(err)),
                     "the file was edited or cut short; start a new run");
  }
  s.platform = load_platform((fs::path(dir) / "platform.yaml").string());
  check_resumed_platform(dir, s.platform);
  return s;
}

// The last match's first capture group, as a number; nullopt when none matches.
std::optional<double> read_figure(const FigureOfMerit& f, const std::string& text) {
  const std::regex re(f.pattern, std::regex::ECMAScript);
  std::optional<double> value;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
    try {
      std::size_t used = 0;
      const std::string group = (*it)[1].str();
      const double v = std::stod(group, &used);
      if (used > 0) value = v;
    } catch (const std::exception&) {
    }
  }
  return value;
}

std::string file_text_or_empty(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return "";
  return read_text_file(p.string());
}

std::string tail(const std::string& text, std::size_t n) { return text.size() <= n ? text : text.substr(text.size() - n); }

// What the app counter wrote, one file per rank: rank 0's calls, with every rank's time in them.
nlohmann::json read_counts(const fs::path& launch_dir, int np) {
  nlohmann::json counts = {{"ranks", 0}, {"interposer", false}, {"calls", nlohmann::json::array()}};
  std::vector<double> collective_s, mpi_s;
  for (int r = 0; r < np; ++r) {
    const std::string text = file_text_or_empty(launch_dir / fmt::format("rank-{}.json", r));
    if (text.empty()) continue;
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
      continue;  // a rank killed while writing
    }
    double in_collectives = 0;
    for (const auto& c : j.at("calls")) in_collectives += c.at("seconds").get<double>();
    collective_s.push_back(in_collectives);
    mpi_s.push_back(j.at("mpi_s").get<double>());
    if (r == 0) {
      counts["calls"] = j.at("calls");
      counts["interposer"] = j.at("interposer");
      counts["overflow_calls"] = j.at("overflow_calls");
    }
    counts["ranks"] = counts["ranks"].get<int>() + 1;
  }
  counts["collective_s_by_rank"] = collective_s;
  counts["mpi_s_by_rank"] = mpi_s;
  if (counts["ranks"] == 0) counts["note"] = "no rank wrote its counts (the application did not reach MPI_Finalize)";
  return counts;
}

struct LaunchContext {
  const ApplicationExperiment& experiment;
  const Platform& platform;
  const PlanTarget& target;
  const std::map<std::string, std::map<std::string, std::string>>& env;  // by variant
  std::string dir;
};

// What is preloaded into an application of this MPI library (instrumentation/app_counter,
// instrumentation/ompi_interposer; configs/mpi_libraries.yaml names them): the interposer where the
// library has one, then its counter; nothing into a library pico cannot name.
std::vector<std::string> preloaded_libraries(const std::string& mpi_library) {
  const MpiLibraryEntry* library = find_mpi_library(mpi_library);
  if (library == nullptr) return {};
  std::vector<std::string> names;
  if (!library->interposer.empty()) names.push_back(library->interposer);
  names.push_back(library->counter);
  return names;
}

std::vector<std::string> launch_argv(const LaunchContext& ctx, const PlannedLaunch& l, const std::string& workdir,
                                     std::map<std::string, std::string>& launcher_env) {
  LaunchCommand cmd = launcher_prefix(ctx.platform, ctx.target.mpi_library, l.np, this_host());
  launcher_env = cmd.env;
  // GNU env starts the program in its working directory with the variant's
  // variables: on every rank, whichever launcher and host (mpirun forwards
  // only OMPI_* variables to other nodes).
  cmd.argv.insert(cmd.argv.end(), {"env", "--chdir=" + workdir, "--"});
  std::map<std::string, std::string> env = ctx.env.at(l.variant);
  // Each library's own counter (it links that libmpi); the interposer, which says what ran inside
  // the call, is Open MPI's only. Another library's application runs without them, and has no counts.
  std::string preload;
  if (const std::vector<std::string> libraries = preloaded_libraries(ctx.target.mpi_library); !libraries.empty()) {
    for (const std::string& name : libraries)
      if (const std::string p = library_beside_pico(name); !p.empty()) preload += (preload.empty() ? "" : ":") + p;
    env["PICO_APP_COUNTS_DIR"] = workdir;
    // The default's run is the one a replay predicts from (its compute gaps, its calls).
    if (ctx.experiment.trace && l.variant == "default") env["PICO_APP_TRACE_DIR"] = workdir;
  }
  if (const char* user = std::getenv("LD_PRELOAD"); user != nullptr && *user != '\0')
    preload += (preload.empty() ? "" : ":") + std::string(user);
  if (!preload.empty()) env["LD_PRELOAD"] = preload;
  for (const auto& [k, v] : env) cmd.argv.push_back(k + "=" + v);
  cmd.argv.insert(cmd.argv.end(), ctx.experiment.command.begin(), ctx.experiment.command.end());
  return cmd.argv;
}

// Runs one launch to its end (or its timeout) and returns its record.
nlohmann::json run_launch(const LaunchContext& ctx, const PlannedLaunch& l, int attempt) {
  const fs::path workdir = fs::absolute(fs::path(ctx.dir) / "launches" / fmt::format("{}.{}", l.index, attempt));
  fs::create_directories(workdir);
  for (const std::string& input : ctx.experiment.inputs)
    fs::copy_file(input, workdir / fs::path(input).filename(), fs::copy_options::overwrite_existing);
  std::map<std::string, std::string> launcher_env;
  const auto argv = launch_argv(ctx, l, workdir.string(), launcher_env);
  nlohmann::json record = {{"launch", l.index},      {"attempt", attempt}, {"np", l.np},
                           {"round", l.round},       {"repetition", l.repetition},
                           {"variant", l.variant},   {"workdir", workdir.string()},
                           {"command", argv},        {"started_utc", utc_timestamp_iso()}};
  const auto start = std::chrono::steady_clock::now();
  ExitStatus status;
  std::string failure;
  {
    ChildProcess child(argv, launcher_env, (workdir / kOutputLog).string());
    for (;;) {
      if (auto s = child.poll()) {
        status = *s;
        break;
      }
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (interrupt_requested()) {
        status = child.terminate(5);
        failure = "interrupted by a signal";
        break;
      }
      if (elapsed > ctx.experiment.timeout_s) {
        status = child.terminate(5);
        failure = fmt::format("timed out after {:.0f} s (application timeout)", ctx.experiment.timeout_s);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  record["wall_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  record["exit_code"] = status.code;
  record["signal"] = status.signal;
  const std::string output = file_text_or_empty(workdir / kOutputLog);
  record["output_tail"] = tail(output, kOutputTailBytes);
  if (failure.empty() && !status.ok()) failure = status.describe();
  if (failure.empty() && ctx.experiment.figure_of_merit) {
    const FigureOfMerit& f = *ctx.experiment.figure_of_merit;
    const std::string text = f.file.empty() ? output : file_text_or_empty(workdir / f.file);
    if (const auto v = read_figure(f, text))
      record["figure_of_merit"] = *v;
    else {
      failure = f.file.empty() ? "the figure_of_merit pattern matched nothing in the output"
                               : fmt::format("the figure_of_merit pattern matched nothing in {}", f.file);
      record["figure_of_merit_missing"] = true;
    }
  }
  record["status"] = failure.empty() ? "ok" : "failed";
  if (!failure.empty()) record["reason"] = failure;
  record["counts"] = read_counts(workdir, l.np);
  return record;
}

// Runs the planned launches that have no ok record in DIR, then writes the report.
ApplicationRunResult run_launches(const LaunchContext& ctx, bool progress) {
  install_interrupt_handlers();
  const std::string launches_path = (fs::path(ctx.dir) / kLaunchesFile).string();
  std::map<int, int> attempts;
  std::set<int> settled;
  std::set<std::string> variants;
  for (const ApplicationVariant& v : ctx.experiment.variants) variants.insert(v.name);
  for (const auto& r : checked_launches(ctx.dir, variants)) {
    const int index = r.value("launch", -1);
    attempts[index] += 1;
    if (r.value("status", "") == "ok") settled.insert(index);
  }
  JsonLinesFile log(launches_path);
  const auto plan = plan_application(ctx.experiment);
  std::size_t done = 0;
  const std::size_t todo = static_cast<std::size_t>(std::count_if(
      plan.begin(), plan.end(), [&](const PlannedLaunch& l) { return settled.count(l.index) == 0; }));
  std::optional<std::string> unmatched;  // the first ok launch whose figure of merit did not match
  for (const PlannedLaunch& l : plan) {
    if (settled.count(l.index) > 0) continue;
    if (interrupt_requested()) break;
    if (progress)
      fmt::print(stderr, "[{:>3}/{}] np {} round {} {} ...\n", ++done, todo, l.np, l.round + 1, l.variant);
    const nlohmann::json record = run_launch(ctx, l, attempts[l.index]);
    log.append(record);
    if (progress && record["status"] != "ok")
      fmt::print(stderr, "        failed: {}\n", record["reason"].get<std::string>());
    if (record.value("figure_of_merit_missing", false)) {
      unmatched = fmt::format("launch {} ran to its end but {} (its output: {}/{})", l.index,
                              record["reason"].get<std::string>(), record["workdir"].get<std::string>(),
                              ctx.experiment.figure_of_merit->file.empty() ? kOutputLog
                                                                           : ctx.experiment.figure_of_merit->file);
      break;
    }
  }
  ApplicationRunResult result = report_application(ctx.dir);
  if (unmatched)
    throw InputError(ctx.experiment.source_path.empty() ? ctx.dir : ctx.experiment.source_path, *unmatched,
                     "fix figure_of_merit (pattern or file) in the experiment and run it anew (a resume keeps "
                     "the pattern the run started with)");
  return result;
}

}  // namespace

std::vector<PlannedLaunch> plan_application(const ApplicationExperiment& e) {
  std::vector<PlannedLaunch> plan;
  std::mt19937_64 rng(e.seed);
  for (int np : e.processes)
    for (int round = 0; round < e.rounds; ++round)
      for (int rep = 0; rep < e.repetitions; ++rep) {
        std::vector<std::string> order;
        for (const auto& v : e.variants) order.push_back(v.name);
        std::shuffle(order.begin(), order.end(), rng);
        for (const auto& name : order)
          plan.push_back({static_cast<int>(plan.size()), np, round, rep, name});
      }
  return plan;
}

bool is_application_run(const std::string& dir) {
  std::error_code ec;
  return fs::is_regular_file(fs::path(dir) / kApplicationFile, ec);
}

ApplicationRunResult report_application(const std::string& dir) {
  ApplicationRunResult result;
  result.dir = dir;
  const auto text = read_results_file((fs::path(dir) / kApplicationFile).string());
  if (!text) throw InputError(dir, "not an application run (no application.json)", "give the directory pico run printed");
  const std::string run_path = (fs::path(dir) / kApplicationFile).string();
  const nlohmann::json run = parse_json_text(*text, run_path, "give the directory pico run printed");
  const auto launches = checked_launches(dir, check_application_run(run, run_path));
  result.report = build_application_report(run, launches);
  // A launch that failed and then ran ok on a resume no longer counts as failed.
  result.exit_code = result.report["failed_launches"].get<int>() > 0 ? 1 : 0;
  write_json_atomically((fs::path(dir) / "report.json").string(), result.report);
  return result;
}

namespace {

// What must agree for runs to be pooled, and what may differ (paths, times, seeds, rounds).
nlohmann::json pooling_identity(const nlohmann::json& run) {
  const nlohmann::json& e = run["experiment"];
  nlohmann::json variants = nlohmann::json::array();
  for (const auto& v : run["variants"])
    variants.push_back({{"name", v["name"]},
                        {"algorithms", v.value("algorithms", nlohmann::json::object())},
                        {"env_given", v.value("env_given", nlohmann::json::object())},
                        {"profile_hash", v["profile"].is_object() ? v["profile"].value("hash", "") : ""}});
  return {{"command", e["command"]},
          {"processes", e["processes"]},
          {"figure of merit", e.value("figure_of_merit", nlohmann::json())},
          {"repetitions", e["repetitions"]},
          {"platform", run["platform"]},
          {"MPI library", run["mpi"]},
          {"variants", variants}};
}

}  // namespace

nlohmann::json pooled_application_report(const std::vector<std::string>& dirs) {
  if (dirs.empty()) throw std::logic_error("pooled_application_report: no runs");
  nlohmann::json first;
  nlohmann::json identity;
  std::vector<nlohmann::json> launches;
  int rounds = 0, launch_offset = 0;
  std::set<fs::path> seen;
  for (const std::string& dir : dirs) {
    std::error_code ec;
    if (!seen.insert(fs::weakly_canonical(dir, ec)).second)
      throw InputError(dir, "is given twice: a run's rounds count once", "give each run once");
    const auto text = read_results_file((fs::path(dir) / kApplicationFile).string());
    if (!text)
      throw InputError(dir, "not an application run (no application.json)", "give the directories pico run printed");
    nlohmann::json run = nlohmann::json::parse(*text, nullptr, false);
    if (!run.is_object() || !run.contains("experiment") || !run.contains("variants"))
      throw InputError(dir + "/" + kApplicationFile, "not an application run's record",
                       "give the directories pico run printed");
    // Every field pooling and the report read, checked here: runs given are untrusted input.
    const std::set<std::string> variant_names = check_application_run(run, dir + "/" + kApplicationFile);
    const nlohmann::json id = pooling_identity(run);
    if (first.is_null()) {
      first = run, identity = id;
    } else {
      for (const auto& [key, value] : identity.items())
        if (id[key] != value)
          throw InputError(dir, fmt::format("is not a run of the same experiment as {}: they differ in {}",
                                            dirs.front(), key),
                           "pool only runs of one application experiment file, unchanged between them");
    }
    int most_round = -1, most_launch = -1;
    for (nlohmann::json l : checked_launches(dir, variant_names)) {
      most_round = std::max(most_round, l["round"].get<int>());
      most_launch = std::max(most_launch, l["launch"].get<int>());
      l["round"] = l["round"].get<int>() + rounds;
      l["launch"] = l["launch"].get<int>() + launch_offset;
      launches.push_back(std::move(l));
    }
    rounds += std::max(run["experiment"]["rounds"].get<int>(), most_round + 1);
    launch_offset += most_launch + 1;
  }
  first["experiment"]["rounds"] = rounds;
  nlohmann::json report = build_application_report(first, launches);
  if (dirs.size() > 1) report["pooled_from"] = dirs;
  return report;
}

ApplicationRunResult run_application(const ApplicationRunRequest& request) {
  const ApplicationExperiment& e = request.experiment;
  if (request.platform.scheduler == "slurm")
    throw InputError(request.platform.source_path.empty() ? request.platform.name : request.platform.source_path,
                     "application experiments run on platforms that launch at once (mpirun, srun inside an "
                     "allocation); this one submits a Slurm job",
                     "run pico inside an allocation (salloc) with a platform whose launcher is srun and whose "
                     "scheduler is local");
  const PlanTarget target = plan_target_for(request.platform);
  check_launches_fit(request.platform, e.processes);
  // An emulated cluster that is not up is bad input now, as for a sweep (launch/run.cpp), not a failed launch each round.
  std::optional<EmulatedCluster> emulated;
  if (!request.platform.emulated.empty()) emulated = read_emulated_cluster(request.platform.emulated);
  std::vector<PreparedVariant> variants = prepare_variants(e, target);
  const std::string dir = new_results_dir_path(request.output_dir, request.output_base, request.platform.name);
  make_new_results_dir(dir);
  const ResultsDirLock lock(dir);
  install_variants(variants, dir);
  // The counter of the library the launches start as (unknown_as's for one pico cannot name), the interposer
  // of the library named only.
  const MpiLibraryEntry* library = find_mpi_library(target.mpi_library);
  const std::string interposer = library != nullptr ? library->interposer : "";
  nlohmann::json run = {{"schema", "pico-application-run/1"},
                        {"experiment", experiment_json(e)},
                        {"platform", request.platform.name},
                        {"mpi", {{"library", target.mpi_library}, {"version", target.mpi_version}}},
                        {"started_utc", utc_timestamp_iso()},
                        {"counter", library_beside_pico(launched_as(target.mpi_library).counter)},
                        {"interposer", interposer.empty() ? "" : library_beside_pico(interposer)},
                        {"environment", relevant_environment()},
                        {"variants", nlohmann::json::array()}};
  if (emulated) run["emulated"] = to_json(*emulated);
  std::map<std::string, std::map<std::string, std::string>> env;
  for (const PreparedVariant& p : variants) {
    run["variants"].push_back(variant_json(p));
    env[p.variant.name] = p.env;
  }
  write_results_file((fs::path(dir) / "experiment.yaml").string(), e.source_text);
  write_results_file((fs::path(dir) / "platform.yaml").string(), request.platform.source_text);
  write_results_file((fs::path(dir) / kApplicationFile).string(), run.dump(1) + "\n");
  return run_launches(LaunchContext{e, request.platform, target, env, dir}, request.progress);
}

ApplicationRunResult resume_application(const std::string& dir, bool progress) {
  const ResultsDirLock lock(dir);
  check_results_dir(dir);
  const StoredRun s = read_stored_run(dir);
  check_launches_fit(s.platform, s.experiment.processes);
  return run_launches(LaunchContext{s.experiment, s.platform, s.target, s.env, dir}, progress);
}

std::string application_dry_run_text(const ApplicationRunRequest& request, std::size_t width) {
  const ApplicationExperiment& e = request.experiment;
  const PlanTarget target = plan_target_for(request.platform);
  check_launches_fit(request.platform, e.processes);
  const std::vector<PreparedVariant> variants = prepare_variants(e, target);
  const auto plan = plan_application(e);
  // In 100 columns as a run's dry run (launch/run.hpp): the prose wrapped, each command broken between its words.
  std::string out = wrapped(fmt::format("application '{}': {} launch(es) of {} variant(s) x {} round(s) x {} "
                                        "repetition(s) on platform '{}' ({} {}), each at most {:.0f} s",
                                        e.name, plan.size(), e.variants.size(), e.rounds, e.repetitions,
                                        request.platform.name, target.mpi_library, target.mpi_version, e.timeout_s),
                            kProseWidth, "  ") +
                    "\n";
  std::map<std::string, std::map<std::string, std::string>> env;
  for (const PreparedVariant& p : variants) env[p.variant.name] = p.env;
  const LaunchContext ctx{e, request.platform, target, env, "DIR"};
  for (const PreparedVariant& p : variants) {
    std::map<std::string, std::string> launcher_env;
    const PlannedLaunch first{0, e.processes.front(), 0, 0, p.variant.name};
    const auto argv = launch_argv(ctx, first, "DIR/launches/N", launcher_env);
    std::vector<std::string> words;
    for (const auto& [k, v] : launcher_env) words.push_back(fmt::format("{}={}", k, shell_quote(v)));
    for (const auto& arg : argv) words.push_back(shell_quote(arg));
    out += wrapped(fmt::format("variant {}{}:", p.variant.name,
                               p.profile ? fmt::format(" (profile {}, loaded as {})", p.variant.profile,
                                                       p.profile->formats())
                                         : ""),
                   kProseWidth, "  ") +
           wrapped_command("  ", words, width, "      ");
  }
  // Six launches a line, fewer where their names would take more than the width.
  out += "\norder (np round variant):";
  std::string line;
  std::size_t on_line = 0;
  for (const auto& l : plan) {
    const std::string entry = fmt::format("{} {} {}", l.np, l.round + 1, l.variant);
    if (on_line == 6 || (on_line > 0 && line.size() + 2 + entry.size() > width)) {
      out += "\n" + line;
      on_line = 0;
    }
    line = on_line == 0 ? "  " + entry : line + "; " + entry;
    ++on_line;
  }
  if (on_line > 0) out += "\n" + line;
  return out + "\n";
}

}  // namespace pico
