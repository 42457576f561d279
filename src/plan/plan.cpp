// SPDX-License-Identifier: BSD-3-Clause
#include "plan/plan.hpp"

#include <algorithm>
#include <climits>
#include <filesystem>
#include <map>
#include <random>
#include <set>

#include <fmt/format.h>

#include "collectives/count_matrix.hpp"
#include "collectives/spec.hpp"
#include "config/backends.hpp"
#include "config/catalog.hpp"
#include "config/catalog_choice.hpp"
#include "config/data_files.hpp"
#include "config/units.hpp"
#include "core/guidelines.hpp"
#include "support/checked_math.hpp"
#include "support/counted.hpp"
#include "support/json_file.hpp"
#include "support/wrapped_text.hpp"

namespace pico {
namespace {

// The element counts a case list expands to for one dtype: from `counts`
// directly, or from `sizes` (bytes per rank block) rounded down to whole
// elements. A size below one element yields count 0 with a reason.
struct CountChoice {
  std::uint64_t count;
  std::string skip_reason;
  std::string rounded;  // the size was no whole number of elements: what is measured instead
};

std::vector<CountChoice> counts_for(const Experiment& e, Collective collective, Dtype dtype) {
  std::vector<CountChoice> out;
  if (!e.counts.empty()) {
    for (auto n : e.counts) out.push_back({n, "", ""});
    return out;
  }
  const std::size_t element = dtype_size(dtype);
  const auto own = e.sizes_by_collective.find(collective);
  for (auto bytes : own != e.sizes_by_collective.end() ? own->second : e.sizes) {
    if (bytes < element)
      out.push_back({0, fmt::format("size {} is smaller than one {} element", format_size(bytes), name(dtype)), ""});
    else if (bytes % element != 0)
      out.push_back({bytes / element, "",
                     fmt::format("size {} is not a whole number of {} elements ({} B each): {} ({}) is measured",
                                 format_size(bytes), name(dtype), element, format_size(bytes / element * element),
                                 counted(bytes / element, "element"))});
    else
      out.push_back({bytes / element, "", ""});
  }
  return out;
}

// The catalogue of the MPI library the platform runs, if pico knows it.
const Catalog* platform_mpi_catalog(const PlanTarget& target) {
  return target.mpi_library == "openmpi" || target.mpi_library == "mpich" ? &catalog_for(target.mpi_library) : nullptr;
}

// The catalogue a backend's algorithms come from on this target, if any.
const Catalog* catalog_of(const BackendDescriptor& backend, const PlanTarget& target) {
  switch (backend.catalog_source) {
    case CatalogSource::platform_mpi:
      return platform_mpi_catalog(target);
    case CatalogSource::own:
      return backend.catalogs.empty() ? nullptr : &catalog_for(backend.catalogs.front());
  }
  return nullptr;
}

std::string library_label(const Catalog& cat, const PlanTarget& target) {
  if (cat.mechanism == SelectionMechanism::builtin) return cat.library;
  const std::string& version = target.version_for(cat);
  return fmt::format("{} {}", cat.library, version.empty() ? "(version unknown)" : version);
}

// One algorithm of one collective, resolved against the catalogue: how it is
// selected, or why it cannot run here.
struct ResolvedAlgorithm : CatalogChoice {
  const Catalog* cat = nullptr;  // null: the platform's MPI library is not known
};

ResolvedAlgorithm resolve(const Catalog* cat, Collective coll, const std::string& algorithm, CallForm form,
                          const PlanTarget& target) {
  ResolvedAlgorithm r;
  if (cat == nullptr) {
    if (algorithm != "default")
      r.skip_reason = fmt::format("the platform's MPI library is not known, so '{}' cannot be selected; set the "
                                  "platform's mpi: {{library: openmpi|mpich}}", algorithm);
    return r;
  }
  if (cat->runtime == "nccl" && target.nccl_version.empty())
    r.skip_reason = "this pico was built without the NCCL backend: build it where the CUDA toolkit and NCCL are "
                    "installed (cmake -DPICO_WITH_NCCL=ON, docs/nccl.md)";
  else
    static_cast<CatalogChoice&>(r) =
        choose(*cat, coll, algorithm, form, target.version_for(*cat), library_label(*cat, target));
  r.cat = cat;
  return r;
}

// The values swept for parameter p: the experiment's, else, in an
// `algorithms: all` sweep, the catalogue's grid; null: the library's own value.
const std::vector<double>* parameter_values(const std::string& p, const BackendSpec& backend, const Catalog* cat) {
  if (auto it = backend.params.find(p); it != backend.params.end()) return &it->second;
  if (cat == nullptr || !backend.sweeps_all()) return nullptr;
  const auto it = cat->parameter_grid.find(p);
  return it == cat->parameter_grid.end() ? nullptr : &it->second;
}

// Every combination of the values swept for the parameters an algorithm takes.
std::vector<std::map<std::string, double>> parameter_combinations(const AlgorithmEntry* entry,
                                                                        const BackendSpec& backend, const Catalog* cat) {
  std::vector<std::map<std::string, double>> combos{{}};
  if (entry == nullptr) return combos;
  for (const auto& p : entry->parameters) {
    const std::vector<double>* values = parameter_values(p, backend, cat);
    if (values == nullptr) continue;
    std::vector<std::map<std::string, double>> next;
    for (const auto& combo : combos) {
      for (auto v : *values) {
        auto c = combo;
        c[p] = v;
        next.push_back(std::move(c));
      }
    }
    combos = std::move(next);
  }
  return combos;
}

struct PlanBuilder {
  const Experiment& e;
  const PlanTarget& target;
  Plan plan;
  std::set<std::string> seen;

  // Once per fact, however many collectives, ops and backends meet it.
  void warn(const std::string& what) {
    const std::string line = fmt::format("{}: {}", e.source_path.empty() ? "sizes" : e.source_path, what);
    if (std::find(plan.warnings.begin(), plan.warnings.end(), line) == plan.warnings.end())
      plan.warnings.push_back(line);
  }

  void add(Case c, std::string skip_reason, const std::map<std::string, std::string>& env) {
    c.case_id = compute_case_id(c);
    if (!seen.insert(c.case_id).second) return;  // two sizes that round to the same count
    c.index = static_cast<int>(plan.cases.size());
    plan.cases.push_back(c);
    const int per_process = ranks_per_process(c);
    if (skip_reason.empty() && c.np % per_process != 0)
      skip_reason = fmt::format("np {} is not a multiple of gpus_per_process {} (each process drives that many GPUs)",
                                c.np, per_process);
    if (!skip_reason.empty()) {
      plan.skipped.push_back({c, skip_reason});
      return;
    }
    const int processes = c.np / per_process;
    auto it = std::find_if(plan.groups.begin(), plan.groups.end(),
                           [&](const LaunchGroup& g) { return g.np == processes && g.env == env; });
    if (it == plan.groups.end()) it = plan.groups.insert(plan.groups.end(), LaunchGroup{processes, env, {}});
    it->cases.push_back(c);
  }

  // The environment a case's launch needs: the catalogue's launch variables,
  // plus the selection itself where it can only be made before MPI_Init.
  // `forced`: the case forces one of the catalogue's own algorithms (not its default, a mock-up on the
  // default, or a component's algorithm), where `forced_only` launch variables apply (Open MPI 5's ^han).
  std::map<std::string, std::string> launch_env(const Catalog* cat, const Selection& s, bool forced) const {
    // Backends without a library selection share the library's launch, so a
    // mixed experiment still needs one launch per process count.
    if (cat == nullptr || cat->mechanism == SelectionMechanism::builtin) {
      cat = platform_mpi_catalog(target);
      forced = false;  // the library runs its own default under them
    }
    if (cat == nullptr) return {};
    auto env = cat->launch_env_for(target.version_for(*cat), forced);
    if (s.mechanism == name(SelectionMechanism::env)) {  // an mpi_t catalogue's keep their prefix there (OMPI_MCA_)
      if (!s.variable.empty()) env[cat->env_prefix + s.variable] = s.value;
      for (const auto& [k, v] : s.parameters) env[cat->env_prefix + k] = v;
    }
    return env;
  }

  void add_algorithm(Case base, const Catalog* cat, const BackendSpec& backend, const BackendDescriptor& descriptor,
                     const std::string& algorithm) {
    base.algorithm = algorithm;
    const CallForm form = call_form(backend.options);
    // A mock-up runs the library's default for each call it makes (core/guidelines.hpp).
    const bool on_default = descriptor.rides_on_library_default || is_guideline(algorithm);
    const ResolvedAlgorithm r = resolve(cat, base.collective, on_default ? "default" : algorithm, form, target);
    for (const auto& combo : parameter_combinations(r.entry, backend, cat)) {
      base.params = combo;
      base.options = backend.options;
      base.selection = r.selection;
      for (const auto& [p, v] : combo)
        if (const auto it = r.parameter_variables.find(p); it != r.parameter_variables.end())
          base.selection.parameters[it->second] = param_text(v);
      const bool component = r.entry != nullptr && !r.entry->component.empty();
      const bool forced = algorithm != "default" && !on_default && !component;
      add_payloads(base, r, launch_env(cat, base.selection, forced));
    }
  }

  void add_payloads(Case base, const ResolvedAlgorithm& r, const std::map<std::string, std::string>& env) {
    const CollectiveSpec& spec = spec_for(base.collective);
    if (!spec.has_payload) {
      base.dtype = Dtype::none;
      base.op = Op::none;
      base.count = 0;
      base.bytes = 0;
      base.in_place = false;
      add(base, r.skip_reason.empty() ? violation(r, base) : r.skip_reason, env);
      return;
    }
    const std::vector<Op> no_op{Op::none};
    const std::vector<std::string> kNoPattern{""};  // a collective without a count matrix
    for (Dtype dtype : e.dtypes) {
      base.dtype = dtype;
      for (Op op : spec.has_op ? e.ops : no_op) {
        base.op = op;
        for (bool in_place : e.in_place) {
          std::string in_place_reason;
          if (in_place && !spec.supports_in_place()) {
            if (std::find(e.in_place.begin(), e.in_place.end(), false) != e.in_place.end()) continue;
            in_place_reason = spec.no_in_place_reason;
          }
          base.in_place = in_place;
          for (const auto& choice : counts_for(e, base.collective, dtype)) {
            if (!choice.rounded.empty()) warn(choice.rounded);
            for (const std::string& pattern : spec.count_matrix ? e.count_patterns : kNoPattern) {
              if (!pattern.empty()) base.options[kCountsOption] = pattern;
              base.count = choice.count;
              const auto bytes = checked_mul(choice.count, dtype_size(dtype));
              base.bytes = bytes.value_or(0);
              const PayloadFacts facts{base, r, in_place_reason, choice, bytes, pattern};
              std::string reason;
              for (const PayloadSkipRule& rule : kPayloadSkipRules) {
                reason = (this->*rule.reason)(facts);
                if (!reason.empty()) break;
              }
              add(base, reason, env);
            }
          }
        }
      }
    }
  }

  // What the skip rules of one payload case read.
  struct PayloadFacts {
    const Case& c;
    const ResolvedAlgorithm& r;
    const std::string& in_place_reason;  // the collective has no in-place form (and only in place was asked)
    const CountChoice& choice;
    std::optional<std::uint64_t> bytes;  // count x element size; none where it overflows
    const std::string& pattern;          // the count matrix's pattern, "" for none
  };
  // One reason a case of one payload is recorded skipped instead of run, ""
  // where it does not apply. The first rule that applies gives the reason:
  // the case's own shape first (in place, size, buffers), then what the
  // algorithm, the library's datatypes and MPI's counts allow, the count
  // matrix, and last the catalogue's constraints and the guideline's.
  struct PayloadSkipRule {
    const char* name;
    std::string (PlanBuilder::*reason)(const PayloadFacts&) const;
  };
  std::string in_place_rule(const PayloadFacts& f) const { return f.in_place_reason; }
  std::string size_rule(const PayloadFacts& f) const { return f.choice.skip_reason; }
  std::string buffers_rule(const PayloadFacts& f) const { return buffer_overflow_reason(f.c, f.bytes); }
  std::string algorithm_rule(const PayloadFacts& f) const { return f.r.skip_reason; }
  std::string dtype_rule(const PayloadFacts& f) const { return dtype_reason(f.r.cat, f.c.dtype); }
  std::string mpi_count_rule(const PayloadFacts& f) const {
    // NCCL counts are size_t; MPI's are int.
    const bool mpi_counts = f.r.cat == nullptr || f.r.cat->runtime == "mpi";
    return mpi_counts && f.c.count > static_cast<std::uint64_t>(INT_MAX) ? "count exceeds the MPI int count range"
                                                                          : "";
  }
  std::string count_matrix_rule(const PayloadFacts& f) const {
    return f.pattern.empty() ? "" : pattern_fit_reason(parse_count_pattern(f.pattern), f.c.np);
  }
  std::string constraint_rule(const PayloadFacts& f) const { return violation(f.r, f.c); }
  static constexpr PayloadSkipRule kPayloadSkipRules[] = {
      {"in_place", &PlanBuilder::in_place_rule},       {"size", &PlanBuilder::size_rule},
      {"buffers", &PlanBuilder::buffers_rule},         {"algorithm", &PlanBuilder::algorithm_rule},
      {"dtype", &PlanBuilder::dtype_rule},             {"mpi_count", &PlanBuilder::mpi_count_rule},
      {"count_matrix", &PlanBuilder::count_matrix_rule}, {"constraint", &PlanBuilder::constraint_rule},
  };

  std::string violation(const ResolvedAlgorithm& r, const Case& c) const {
    if (is_guideline(c.algorithm))
      if (std::string why = guideline_skip_reason(c); !why.empty()) return why;
    return r.cat == nullptr ? "" : constraint_violation(*r.cat, r.entry, c, target.placement);
  }

  // The largest buffer any collective uses is a block per rank (gather,
  // alltoall); a reference algorithm's scratch holds up to three of those.
  static std::string buffer_overflow_reason(const Case& c, std::optional<std::uint64_t> bytes) {
    constexpr std::uint64_t kBuffersOfAllRanks = 3;
    const auto all_ranks = bytes ? checked_mul(*bytes, static_cast<std::uint64_t>(c.np)) : std::nullopt;
    if (all_ranks && checked_mul(*all_ranks, kBuffersOfAllRanks)) return "";
    return fmt::format("{} elements of {} on {} ranks is more bytes than 64 bits can count", c.count, name(c.dtype),
                       c.np);
  }

  static std::string dtype_reason(const Catalog* cat, Dtype dtype) {
    if (cat == nullptr ? is_host_dtype(dtype) : cat->has_dtype(dtype)) return "";
    if (!is_host_dtype(dtype))
      return fmt::format("{} has no {} datatype (MPI defines none); the nccl backend has",
                         cat == nullptr ? "the MPI library" : cat->library, name(dtype));
    return fmt::format("{} has no {} datatype", cat->library, name(dtype));
  }

  std::vector<std::string> algorithms_for(const BackendSpec& backend, const Catalog* cat, Collective coll) const {
    std::vector<std::string> names = library_algorithms_for(backend, cat, coll);
    if (backend.guidelines)  // the collective's mock-ups beside them (an experiment may name some too)
      for (const Guideline& g : guidelines_of(coll))
        if (std::find(names.begin(), names.end(), g.algorithm) == names.end()) names.emplace_back(g.algorithm);
    return names;
  }

  std::vector<std::string> library_algorithms_for(const BackendSpec& backend, const Catalog* cat,
                                                  Collective coll) const {
    if (!backend.sweeps_all()) return backend.algorithms;
    if (cat == nullptr) return {"default"};
    // One case that resolve() records skipped with the catalogue's reason, where
    // a built-in catalogue would otherwise expand to nothing and say nothing.
    if (cat->unsupported.contains(coll)) return {"default"};
    const CallForm form = call_form(backend.options);
    std::vector<std::string> names;
    for (std::string& name : cat->algorithm_names(coll, target.version_for(*cat), form)) {
      // Another component's algorithms run in launches of their own, never measured in the same rounds as
      // the catalogue's: they join a sweep only where named.
      const AlgorithmEntry* entry = cat->find(coll, name, form);
      if (entry == nullptr || entry->component.empty()) names.push_back(std::move(name));
    }
    if (cat->mechanism == SelectionMechanism::builtin)
      names.erase(names.begin());  // no library default to fall back on
    for (auto it = backend.algorithms.begin() + 1; it != backend.algorithms.end(); ++it)
      if (std::find(names.begin(), names.end(), *it) == names.end()) names.push_back(*it);
    return names;
  }
};

// Repetitions 1..N-1 of every case and launch group, each repetition's cases
// (within each group) and groups in an order shuffled from the seed; with
// repetitions, the first run is shuffled too. Case indices stay positions in
// plan.cases (repetition-major).
void repeat(Plan& plan) {
  if (plan.repetitions <= 1) return;
  const std::size_t per_run = plan.cases.size();
  const std::vector<Case> base_cases = plan.cases;
  const std::vector<SkippedCase> base_skipped = plan.skipped;
  const std::vector<LaunchGroup> base_groups = plan.groups;
  std::mt19937_64 rng(plan.repetition_seed);
  plan.cases.clear();
  plan.skipped.clear();
  plan.groups.clear();
  for (int r = 0; r < plan.repetitions; ++r) {
    auto again = [&](Case c) {
      c.repetition = r;
      c.index = static_cast<int>(static_cast<std::size_t>(r) * per_run) + c.index;
      return c;
    };
    for (const auto& c : base_cases) plan.cases.push_back(again(c));
    for (const auto& s : base_skipped) plan.skipped.push_back({again(s.c), s.reason});
    std::vector<LaunchGroup> groups;
    for (const auto& g : base_groups) {
      LaunchGroup copy{g.np, g.env, {}};
      for (const auto& c : g.cases) copy.cases.push_back(again(c));
      std::shuffle(copy.cases.begin(), copy.cases.end(), rng);
      groups.push_back(std::move(copy));
    }
    std::shuffle(groups.begin(), groups.end(), rng);
    plan.groups.insert(plan.groups.end(), groups.begin(), groups.end());
  }
}

}  // namespace

Plan make_plan(const Experiment& e, const PlanTarget& target) {
  PlanBuilder b{e, target, {}, {}};
  b.plan.warnings = e.warnings;
  b.plan.timing = e.timing;
  b.plan.timing.order_seed = e.repetition_seed;  // one seed orders repetitions, launches and rounds
  b.plan.validation = e.validation;
  b.plan.instrumentation = e.instrumentation;
  b.plan.repetitions = e.repetitions;
  b.plan.repetition_seed = e.repetition_seed;
  for (int np : e.processes) {
    for (const auto& backend : e.backends) {
      const BackendDescriptor& descriptor = backend_descriptor(backend.library);
      const Catalog* cat = catalog_of(descriptor, target);
      for (Collective coll : e.collectives) {
        for (const auto& algorithm : b.algorithms_for(backend, cat, coll)) {
          Case base;
          base.backend = backend.library;
          base.collective = coll;
          base.np = np;
          base.mode = e.timing.mode;
          base.root = 0;
          b.add_algorithm(base, cat, backend, descriptor, algorithm);
        }
      }
    }
  }
  repeat(b.plan);
  return std::move(b.plan);
}

std::size_t runnable_cases(const Plan& p) {
  std::size_t n = 0;
  for (const auto& g : p.groups) n += g.cases.size();
  return n;
}

double timed_loops_s(const Plan& p) {
  // A non-blocking case's overlap loops take up to one more time_budget (worker/overlap.hpp).
  double budgets = 0;
  for (const auto& g : p.groups)
    for (const auto& c : g.cases) budgets += call_form(c) == CallForm::nonblocking ? 2 : 1;
  return budgets * p.timing.time_budget_s;
}

std::string plan_duration_text(const Plan& p) {
  const double loops = timed_loops_s(p);
  const auto n = static_cast<double>(runnable_cases(p));
  if (p.timing.race) {
    const double launches = static_cast<double>(p.groups.size());
    return fmt::format(
        "{} case(s) to race in {} launch(es): about {} of measurement ({} per launch, timing.race; round 0 measures "
        "every candidate whatever the budget), against about {} of timed loops measuring every case to the end",
        runnable_cases(p), p.groups.size(), format_duration(launches * p.timing.race->budget_s),
        format_duration(p.timing.race->budget_s), format_duration(loops));
  }
  return fmt::format("{} case(s) to run: about {} of timed loops (time_budget {} each{}); at most {} (case_timeout {} "
                     "each)",
                     runnable_cases(p), format_duration(loops),
                     format_duration(p.timing.time_budget_s),
                     p.timing.rounds > 1
                         ? fmt::format(", the candidates of each choice in {} interleaved rounds", p.timing.rounds)
                         : "",
                     format_duration(n * p.timing.case_timeout_s), format_duration(p.timing.case_timeout_s));
}

std::string warnings_text(const Plan& p) {
  std::string out;
  for (const std::string& w : p.warnings) out += warning_text(w);
  return out;
}

std::string skipped_text(const std::vector<SkippedCase>& skipped) {
  if (skipped.empty()) return "";
  std::map<std::string, std::vector<std::string>> ids;  // reason -> case ids, in plan order
  std::vector<std::string> order;                        // reasons as first met, to break ties
  for (const SkippedCase& s : skipped) {
    auto [it, added] = ids.try_emplace(s.reason);
    if (added) order.push_back(s.reason);
    it->second.push_back(s.c.case_id);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](const std::string& a, const std::string& b) { return ids[a].size() > ids[b].size(); });
  constexpr std::size_t kShownIds = 3;
  std::string out = fmt::format("skipped: {} for {}:\n", counted(skipped.size(), "case"), counted(order.size(), "reason"));
  for (const std::string& reason : order) {
    const std::vector<std::string>& cases = ids[reason];
    std::string shown;
    for (std::size_t i = 0; i < std::min(cases.size(), kShownIds); ++i) shown += (i == 0 ? "" : ", ") + cases[i];
    // Wrapped, its further lines under the reason's first word (a reason with its condition took 375 columns).
    const std::string more = cases.size() > kShownIds ? ", ..." : "";
    out += wrapped(fmt::format("  {:>4} x {} ({}{})", cases.size(), reason, shown, more), kProseWidth, "         ");
  }
  return out;
}

std::vector<int> process_counts(const Plan& p) {
  std::vector<int> counts;
  for (const auto& g : p.groups) counts.push_back(g.np);
  return counts;
}

nlohmann::json plan_to_json(const Plan& p) {
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : p.cases) cases.push_back(case_to_json(c));
  nlohmann::json skipped = nlohmann::json::array();
  for (const auto& s : p.skipped) skipped.push_back({{"case_id", run_key(s.c)}, {"reason", s.reason}});
  nlohmann::json groups = nlohmann::json::array();
  for (const auto& g : p.groups) {
    nlohmann::json ids = nlohmann::json::array();
    for (const auto& c : g.cases) ids.push_back(run_key(c));
    groups.push_back({{"np", g.np}, {"env", g.env}, {"cases", ids}});
  }
  return {{"timing", timing_to_json(p.timing)},
          {"instrumentation", instrumentation_to_json(p.instrumentation)},
          {"validation", p.validation},
          {"repetitions", {{"count", p.repetitions}, {"seed", p.repetition_seed}}},
          {"cases", cases},
          {"skipped", skipped},
          {"launch_groups", groups}};
}

Plan plan_from_json(const nlohmann::json& j) {
  Plan p;
  p.timing = timing_from_json(j.at("timing"));
  p.instrumentation = instrumentation_from_json(j.at("instrumentation"));
  p.validation = j.at("validation").get<bool>();
  if (j.contains("repetitions")) {
    p.repetitions = j.at("repetitions").at("count").get<int>();
    p.repetition_seed = j.at("repetitions").at("seed").get<std::uint64_t>();
  }
  std::map<std::string, Case> by_id;
  for (const auto& c : j.at("cases")) {
    p.cases.push_back(case_from_json(c));
    by_id[run_key(p.cases.back())] = p.cases.back();
  }
  for (const auto& s : j.at("skipped")) {
    const auto it = by_id.find(s.at("case_id").get<std::string>());
    if (it == by_id.end()) throw std::runtime_error("a skipped case is not planned");
    p.skipped.push_back({it->second, s.at("reason")});
  }
  for (const auto& g : j.at("launch_groups")) {
    LaunchGroup group{static_cast<int>(json_int(g.at("np"), 1, INT_MAX)),
                      g.at("env").get<std::map<std::string, std::string>>(), {}};
    for (const auto& id : g.at("cases")) {
      const std::string case_id = id.get<std::string>();
      const auto it = by_id.find(case_id);
      if (it == by_id.end())
        throw std::runtime_error(fmt::format("a launch group names case '{}', which is not planned", case_id));
      if (it->second.np != group.np)
        throw std::runtime_error(fmt::format("case {} has np {} in a launch group of np {}", it->second.case_id,
                                             it->second.np, group.np));
      group.cases.push_back(it->second);
    }
    p.groups.push_back(std::move(group));
  }
  return p;
}

namespace {

// Where each backend's selection.actual comes from on this target.
void add_ran_algorithm_sources(LaunchRequest& r, const PlanTarget& target) {
  for (const Case& c : r.cases) {
    if (r.ran_algorithm.contains(c.backend)) continue;
    const BackendDescriptor& descriptor = backend_descriptor(c.backend);
    const Catalog* cat = catalog_of(descriptor, target);
    if (cat == nullptr) {
      r.ran_algorithm[c.backend] = {"none", "the platform's MPI library is not one pico knows"};
      continue;
    }
    r.ran_algorithm[c.backend] = cat->ran_algorithm;
    if (cat->ran_algorithm.source == "interposer")
      r.algorithm_functions.merge(cat->algorithm_functions(target.version_for(*cat)));
  }
}

}  // namespace

LaunchRequest launch_request_for(int launch, const LaunchGroup& group, std::vector<Case> cases, const Plan& plan,
                                 const PlanTarget& target) {
  LaunchRequest r{.launch = launch,
          .np = group.np,
          .env = group.env,
          .timing = plan.timing,
          .validation = plan.validation,
          .cases = std::move(cases),
          .instrumentation = plan.instrumentation,
          .planned_mpi = target.mpi(),
          .ran_algorithm = {},
          .algorithm_functions = {}};
  add_ran_algorithm_sources(r, target);
  return r;
}

nlohmann::json launch_request_to_json(const LaunchRequest& r) {
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : r.cases) cases.push_back(case_to_json(c));
  nlohmann::json ran_algorithm = nlohmann::json::object();
  for (const auto& [backend, source] : r.ran_algorithm) ran_algorithm[backend] = to_json(source);
  return {{"launch", r.launch},
          {"np", r.np},
          {"env", r.env},
          {"timing", timing_to_json(r.timing)},
          {"instrumentation", instrumentation_to_json(r.instrumentation)},
          {"validation", r.validation},
          {"planned_mpi", to_json(r.planned_mpi)},
          {"ran_algorithm", ran_algorithm},
          {"algorithm_functions", to_json(r.algorithm_functions)},
          {"cases", cases}};
}

LaunchRequest launch_request_from_json(const nlohmann::json& j) {
  LaunchRequest r;
  r.launch = static_cast<int>(json_int(j.at("launch"), 0, INT_MAX));
  r.np = static_cast<int>(json_int(j.at("np"), 1, INT_MAX));
  r.env = j.value("env", std::map<std::string, std::string>{});
  r.timing = timing_from_json(j.at("timing"));
  r.validation = j.at("validation").get<bool>();
  if (j.contains("instrumentation")) r.instrumentation = instrumentation_from_json(j.at("instrumentation"));
  if (j.contains("planned_mpi")) r.planned_mpi = mpi_identity_from_json(j.at("planned_mpi"));
  if (j.contains("ran_algorithm"))
    for (const auto& [backend, source] : j.at("ran_algorithm").items())
      r.ran_algorithm[backend] = ran_algorithm_source_from_json(source);
  if (j.contains("algorithm_functions")) r.algorithm_functions = algorithm_functions_from_json(j.at("algorithm_functions"));
  for (const auto& c : j.at("cases")) r.cases.push_back(case_from_json(c));
  return r;
}

}  // namespace pico
