// SPDX-License-Identifier: BSD-3-Clause
#include "core/report_facts.hpp"
#include "collectives/count_matrix.hpp"
#include "collectives/spec.hpp"
#include "simulation/fit.hpp"

#include "simulation/loggp_evaluator.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <exception>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "collectives/reference/algorithms.hpp"
#include "config/units.hpp"
#include "simulation/evaluator_budget.hpp"
#include "simulation/size_bands.hpp"
#include "support/command_output.hpp"
#include "support/input_error.hpp"
#include "support/temp_dir.hpp"

namespace pico {
namespace {

constexpr std::int64_t kMaxParameter = kMaxLogGOPSimParameter;
constexpr std::int64_t kEagerAlways = kMaxLogGOPSimParameter;  // S: every message eager

// "intra-node" when every rank ran on one host, "inter-node" when each host ran one rank.
std::string scope_of(const nlohmann::json& report) {
  const std::vector<ReportHost> hosts = report_facts(report).hosts;
  if (hosts.empty()) return "unknown";
  if (hosts.size() == 1) return "intra-node";
  for (const ReportHost& h : hosts)
    if (h.ranks != 1) return "mixed";
  return "inter-node";
}

// Solves the n x n system a x = b by Gaussian elimination with partial
// pivoting; a singular direction gets 0.
template <std::size_t n>
std::array<double, n> solve(std::array<std::array<double, n>, n> a, std::array<double, n> b) {
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (std::abs(a[r][c]) > std::abs(a[pivot][c])) pivot = r;
    std::swap(a[c], a[pivot]);
    std::swap(b[c], b[pivot]);
    if (!(std::abs(a[c][c]) > 1e-300)) continue;
    for (std::size_t r = c + 1; r < n; ++r) {
      const double f = a[r][c] / a[c][c];
      for (std::size_t k = c; k < n; ++k) a[r][k] -= f * a[c][k];
      b[r] -= f * b[c];
    }
  }
  std::array<double, n> x{};
  for (std::size_t c = n; c-- > 0;) {
    if (!(std::abs(a[c][c]) > 1e-300)) continue;
    double v = b[c];
    for (std::size_t k = c + 1; k < n; ++k) v -= a[c][k] * x[k];
    x[c] = v / a[c][c];
  }
  return x;
}

// One sendrecv as LogGOPSim times it (each rank sends n bytes and receives n
// at once): the send holds the CPU o + (n-1)O, the message's first byte is in
// o + L after its start, and its receipt takes o + (n-1)max(G, O) once the
// CPU is free. `pair`: both directions with one peer (np 2), an exchange.
double sendrecv_ps(const LogGPParams& model, double bytes, bool pair) {
  const LogGPParams p = model.for_message(static_cast<std::uint64_t>(bytes));
  const double n = std::max(bytes * (pair ? p.exchange_factor : 1.0), 1.0) - 1;
  const auto L = static_cast<double>(p.L), o = static_cast<double>(p.o), G = static_cast<double>(p.G),
             O = static_cast<double>(p.O);
  return 2 * o + std::max(L, n * O) + n * std::max(G, O);
}

}  // namespace

reference::ScheduleRequest request_of(const Case& c) {
  reference::ScheduleRequest req;
  req.collective = c.collective;
  req.algorithm = c.algorithm;
  req.np = c.np;
  req.count = c.count;
  req.dtype = c.dtype;
  req.in_place = c.in_place;
  req.root = c.root;
  if (auto it = c.params.find("segment_size"); it != c.params.end())
    req.segment_bytes = static_cast<std::uint64_t>(it->second);
  req.counts = counts_option(c);
  return req;
}

std::vector<MeasuredSchedule> reference_cases(const std::vector<CaseResult>& cases) {
  std::vector<MeasuredSchedule> out;
  for (const CaseResult& r : cases) {
    if (r.c.backend != "reference" || !r.measured() || r.c.np < 2) continue;
    if (!reference_algorithm_exists(r.c.collective, r.c.algorithm)) continue;
    out.push_back({request_of(r.c), r.timing->median_s,
                   fmt::format("{} {} {} np={}", name(r.c.collective), r.c.algorithm, format_size(r.c.bytes), r.c.np)});
  }
  return out;
}

std::vector<double> simulate_all(const std::optional<LogGOPSimTools>& tools, const std::vector<MeasuredSchedule>& cases,
                                 const LogGPParams& p, int threads) {
  std::vector<double> out(cases.size());
  int n = threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (!tools) {
    // pico's evaluator holds a whole schedule: as many at once as the budget allows, none beyond it.
    std::uint64_t largest = 1;
    for (const MeasuredSchedule& c : cases) {
      const std::uint64_t ops = estimated_operations(c.request);
      if (ops > kEvaluatorBudgetOperations)
        throw InputError(c.label, fmt::format("{} in pico's LogGP evaluator, over its {}", operations_text(ops),
                                              format_size(kEvaluatorBudgetBytes)),
                         "give --loggopsim DIR (LogGOPSim reads the schedule from a file), or fewer ranks");
      largest = std::max(largest, ops * kEvaluatorBytesPerOperation);
    }
    n = static_cast<int>(std::clamp<std::uint64_t>(kEvaluatorBudgetBytes / largest, 1, static_cast<std::uint64_t>(n)));
  }
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto work = [&] {
    // Everything that can throw is caught here: an exception leaving a thread would terminate pico.
    try {
      std::optional<TempDir> dir;  // LogGOPSim's files, one directory per thread
      if (tools) dir.emplace("pico-sim");
      for (std::size_t i; (i = next++) < cases.size();) {
        throw_if_interrupted();
        out[i] = static_cast<double>(tools ? simulate_request(*tools, cases[i].request, p, dir->path())
                                           : evaluate_loggp(cases[i].request, p)) *
                 1e-12;
      }
    } catch (...) {
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next = cases.size();
    }
  };
  std::vector<std::jthread> pool;
  for (int t = 1; t < std::min<int>(n, static_cast<int>(cases.size())); ++t) pool.emplace_back(work);
  work();
  pool.clear();
  if (failure) std::rethrow_exception(failure);
  return out;
}

FitError relative_error(const std::vector<double>& predicted, const std::vector<double>& measured) {
  FitError e;
  std::vector<double> rel;
  for (std::size_t i = 0; i < predicted.size(); ++i) rel.push_back(std::abs(predicted[i] / measured[i] - 1));
  e.points = static_cast<int>(rel.size());
  if (rel.empty()) return e;
  std::sort(rel.begin(), rel.end());
  const std::size_t m = rel.size() / 2;
  e.median_rel = rel.size() % 2 ? rel[m] : (rel[m - 1] + rel[m]) / 2;
  e.max_rel = rel.back();
  return e;
}

FitOutcome fit_model(const nlohmann::json& report, const std::string& report_path, const FitOptions& options) {
  const std::vector<CaseResult> cases = case_results_of(report);
  FitOutcome out;
  LogGPModel& m = out.model;
  m.source = report_path;
  m.platform = report.value("platform", nlohmann::json::object()).value("name", "");
  m.scope = scope_of(report);
  for (const CaseResult& r : cases)
    if (!r.library.empty()) m.library = r.library;

  // Point to point: one line over every size (the model's L, o, G, what a
  // replay's mixed sizes take), and size bands where one line does not fit.
  struct P2P {
    SizePoint point;
    bool pair;  // np 2: each rank sends to and receives from the same peer
  };
  std::vector<P2P> p2p;
  std::vector<SizePoint> points;
  std::set<std::uint64_t> sizes;
  for (const CaseResult& r : cases)
    if (spec_for(r.c.collective).point_to_point && r.measured() && r.c.np >= 2 && r.timing->median_s > 0) {
      p2p.push_back({{static_cast<double>(r.c.bytes), r.timing->median_s}, r.c.np == 2});
      points.push_back(p2p.back().point);
      sizes.insert(r.c.bytes);
    }
  if (sizes.size() < 2)
    throw InputError(report_path,
                     fmt::format("the report has {} measured sendrecv size(s); the fit needs at least two", sizes.size()),
                     "measure point to point first: pico run configs/examples/fit.yaml");
  const BandLine whole = fit_line(points);
  std::vector<BandLine> bands = fit_size_bands(points);
  if (bands.size() == 1) bands.clear();  // the whole line is the only band
  for (const BandLine& line : bands.empty() ? std::vector<BandLine>{whole} : bands)
    if (line.latency_ps > static_cast<double>(kMaxParameter) || line.G > static_cast<double>(kMaxParameter))
      throw InputError(report_path,
                       fmt::format("the sendrecv cases give L + 2o = {:.3f} ms and G = {:.3f} ns/B; LogGOPSim takes its "
                                   "parameters as 32-bit integers of ps, at most {:.3f} ms",
                                   line.latency_ps * 1e-9, line.G * 1e-3, static_cast<double>(kMaxParameter) * 1e-9),
                       "a latency of milliseconds is no network's: check the run (an oversubscribed or loaded machine, "
                       "TCP delayed acknowledgements) with pico report");
  LogGPParams& p = m.params;
  p.G = std::llround(whole.G);
  // g at the largest G: LogGOPSim sets a NIC free at t + g + (n - 1)G,
  // unsigned, so an empty message sent before time G would wrap its clock
  // around without it; a gap of G per message (ns) is far below what the
  // fit resolves.
  p.g = p.G;
  for (const BandLine& b : bands) p.g = std::max<std::int64_t>(p.g, std::llround(b.G));
  p.reduce_ps_per_byte = options.reduce_ps_per_byte;

  // S: the library's eager limit, which counts its header, so a payload of
  // the whole limit already goes rendezvous; else where the sendrecv times
  // jump between bands; else every message is eager.
  const std::optional<std::uint64_t> jump = protocol_break(bands);
  std::optional<std::uint64_t> eager = options.eager_limit;
  if (!eager && options.ask_library) {
    std::string why;
    const ReportFacts facts = report_facts(report);
    eager = library_eager_limit(m.library, facts.mpi_version, m.scope, why);
    out.notes.push_back(eager ? "eager limit: " + why : "eager limit not from the library: " + why);
  }
  if (eager) {
    p.S = static_cast<std::int64_t>(std::clamp<std::uint64_t>(*eager, 1, kMaxParameter)) - 1;
    if (jump && (*jump > static_cast<std::uint64_t>(p.S) || *jump * 2 <= static_cast<std::uint64_t>(p.S)))
      out.notes.push_back(fmt::format("the sendrecv times jump above {} B, not at the eager limit {} B: something "
                                      "else (a shaper's burst, a socket buffer) changes there",
                                      *jump, *eager));
  } else if (jump) {
    p.S = static_cast<std::int64_t>(std::min<std::uint64_t>(*jump, kMaxParameter));
    out.notes.push_back(fmt::format("S = {} B: where the sendrecv times jump (give --eager-limit for the library's)", p.S));
  } else {
    p.S = kEagerAlways;
  }

  // x = (latency scale, o, reduction ps/B, O, exchange factor): every band's
  // L + 2o (and the whole line's) times the scale, L = that - 2o.
  constexpr std::size_t kN = 5;
  using Vec = std::array<double, kN>;
  double shortest = std::max(whole.latency_ps, whole.G + 1);
  for (const BandLine& b : bands) shortest = std::min(shortest, std::max(b.latency_ps, b.G + 1));
  auto at = [&](const Vec& x) {
    LogGPParams q = p;
    q.o = std::llround(x[1]);
    // L + 2o at least G: LogGOPSim takes an empty message in at its arrival
    // + o + (0 - 1)G, unsigned, which must not fall before time 0.
    auto latency = [&](const BandLine& line) {
      return std::max<std::int64_t>(
          0, std::max<std::int64_t>(std::llround(x[0] * line.latency_ps), std::llround(line.G) + 1) - 2 * q.o);
    };
    q.L = latency(whole);
    q.bands.clear();
    for (const BandLine& b : bands)
      q.bands.push_back({.up_to = b.up_to, .L = latency(b), .o = q.o, .G = std::llround(b.G)});
    q.reduce_ps_per_byte = x[2];
    q.O = std::llround(x[3]);
    q.exchange_factor = x[4];
    return q;
  };
  auto clamp = [&](Vec x) {
    x[0] = std::clamp(x[0], 0.05, static_cast<double>(kMaxParameter) / std::max(whole.latency_ps, 1.0));
    x[1] = std::clamp(x[1], 0.0, x[0] * shortest / 2);
    x[2] = std::clamp(x[2], 0.0, 1e6);
    // O at most o: LogGOPSim charges an empty message (n - 1)O = -O of CPU
    // after o, and a clock set before 0 wraps around (2^64 ps).
    x[3] = std::clamp(x[3], 0.0, std::min(1e5, x[1]));
    x[4] = std::clamp(x[4], 1.0, 100.0);
    return x;
  };
  auto p2p_ps = [&](const LogGPParams& q) {
    std::vector<double> t;
    for (const P2P& pt : p2p) t.push_back(sendrecv_ps(q, pt.point.bytes, pt.pair));
    return t;
  };
  auto p2p_error = [&](const LogGPParams& q) {
    std::vector<double> predicted, measured;
    const std::vector<double> t = p2p_ps(q);
    for (std::size_t i = 0; i < p2p.size(); ++i) {
      predicted.push_back(t[i] * 1e-12);
      measured.push_back(p2p[i].point.seconds);
    }
    return relative_error(predicted, measured);
  };
  Vec x = clamp({1, shortest / 4, options.reduce_ps_per_byte, 0, 1});

  // L against o, O, the exchange factor and the reduction cost, from the reference algorithms.
  const std::vector<MeasuredSchedule> refs = reference_cases(cases);
  if (refs.empty()) {
    x[1] = 0;
    p = at(x);
    m.p2p = p2p_error(p);
    out.notes.push_back("no measured reference-algorithm cases: o = 0 (L = L + 2o), O = 0, no exchange factor and "
                        "the reduction cost is the given one; add `{library: reference, algorithms: all}` to the "
                        "experiment");
    return out;
  }
  if (!options.simulator)
    out.notes.push_back("LogGOPSim not found: the reference cases were simulated by pico's LogGP evaluator "
                        "(no g or rendezvous); install LogGOPSim or give --loggopsim DIR");
  std::vector<double> measured;
  for (const auto& r : refs) measured.push_back(r.measured_s);
  // Residuals r = predicted / measured - 1: the simulated cases, then the
  // sendrecv points, so that L + 2o answers to both.
  auto residuals = [&](const Vec& x, const std::vector<double>& simulated) {
    std::vector<double> r;
    for (std::size_t i = 0; i < simulated.size(); ++i) r.push_back(simulated[i] / measured[i] - 1);
    const std::vector<double> t = p2p_ps(at(x));
    for (std::size_t i = 0; i < p2p.size(); ++i) r.push_back(t[i] * 1e-12 / p2p[i].point.seconds - 1);
    return r;
  };
  auto squared = [](const std::vector<double>& r) {
    double sum = 0;
    for (double v : r) sum += v * v;
    return sum;
  };
  const Vec steps_floor{0.01, 1, 1, 1, 0.02};
  std::vector<double> t0 = simulate_all(options.simulator, refs, at(x), options.threads);
  std::vector<double> r0 = residuals(x, t0);
  double error = squared(r0);
  for (int iteration = 0; iteration < options.iterations; ++iteration) {
    // Jacobian columns by forward differences (backward where the bound is near).
    std::array<std::vector<double>, kN> column;
    for (std::size_t k = 0; k < kN; ++k) {
      Vec xk = x;
      const double h = std::max(steps_floor[k], std::abs(x[k]) / 20);
      xk[k] += h;
      if (clamp(xk) != xk) xk[k] -= 2 * h;
      xk = clamp(xk);
      const double step = xk[k] - x[k];
      std::vector<double> rk =
          step == 0 ? r0 : residuals(xk, simulate_all(options.simulator, refs, at(xk), options.threads));
      column[k].resize(r0.size());
      for (std::size_t i = 0; i < r0.size(); ++i) column[k][i] = step == 0 ? 0 : (rk[i] - r0[i]) / step;
    }
    // Normal equations (J^T J) d = -J^T r.
    std::array<Vec, kN> a{};
    Vec b{};
    for (std::size_t i = 0; i < r0.size(); ++i)
      for (std::size_t j = 0; j < kN; ++j) {
        b[j] -= column[j][i] * r0[i];
        for (std::size_t k = 0; k < kN; ++k) a[j][k] += column[j][i] * column[k][i];
      }
    for (std::size_t j = 0; j < kN; ++j) a[j][j] *= 1 + 1e-9;  // a flat direction stays put
    Vec d = solve(a, b);
    // Times are piecewise linear in the parameters: take the step, or half of
    // it, as long as the error falls.
    bool improved = false;
    for (int halving = 0; halving < 4 && !improved; ++halving) {
      Vec xn = x;
      for (std::size_t k = 0; k < kN; ++k) xn[k] += d[k];
      xn = clamp(xn);
      auto t = simulate_all(options.simulator, refs, at(xn), options.threads);
      auto r = residuals(xn, t);
      if (const double e = squared(r); e < error) {
        x = xn;
        error = e;
        t0 = std::move(t);
        r0 = std::move(r);
        improved = true;
      }
      for (double& v : d) v /= 2;
    }
    if (!improved) break;
  }
  p = at(x);
  m.collectives = relative_error(t0, measured);
  m.p2p = p2p_error(p);
  // o at its bound leaves L at 0 (issue 36: "L 0.000 us" without a word).
  if (p.L == 0 && p.o > 0)
    out.notes.push_back(fmt::format(
        "L fitted to 0: the reference cases put all of L + 2o = {:.3f} us into the overhead o ({:.3f} us, its bound), "
        "so this report does not separate network latency from CPU overhead (predictions keep their sum); add "
        "reference cases at more sizes and process counts to separate them",
        static_cast<double>(2 * p.o) * 1e-6, static_cast<double>(p.o) * 1e-6));
  return out;
}

}  // namespace pico
