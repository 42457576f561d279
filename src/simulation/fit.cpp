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
#include "core/input_error.hpp"
#include "launch/command_output.hpp"
#include "simulation/evaluator_budget.hpp"

namespace pico {
namespace {

constexpr std::int64_t kEagerAlways = 0x7fffffff;
constexpr std::int64_t kMaxParameter = 0x7fffffff;  // LogGOPSim reads -L -o -g -G -O -S as C ints

struct Point {
  double bytes, seconds;
};

// Least squares of t = a + b n on relative error: minimise sum ((a + b n - t) / t)^2.
std::pair<double, double> relative_line_fit(const std::vector<Point>& pts) {
  double s00 = 0, s01 = 0, s11 = 0, r0 = 0, r1 = 0;
  for (const Point& p : pts) {
    const double w = 1 / (p.seconds * p.seconds);
    s00 += w;
    s01 += w * p.bytes;
    s11 += w * p.bytes * p.bytes;
    r0 += w * p.seconds;
    r1 += w * p.bytes * p.seconds;
  }
  const double det = s00 * s11 - s01 * s01;
  const double a = (r0 * s11 - r1 * s01) / det;
  const double b = (s00 * r1 - s01 * r0) / det;
  return {a, b};
}

// "intra-node" when every rank ran on one host, "inter-node" when each host ran one rank.
std::string scope_of(const nlohmann::json& report) {
  const std::vector<ReportHost> hosts = report_facts(report).hosts;
  if (hosts.empty()) return "unknown";
  if (hosts.size() == 1) return "intra-node";
  for (const ReportHost& h : hosts)
    if (h.ranks != 1) return "mixed";
  return "inter-node";
}

std::int64_t ps(double seconds) { return std::max<std::int64_t>(0, std::llround(seconds * 1e12)); }

// Solves the 3x3 system a x = b by Gaussian elimination with partial
// pivoting; a singular direction gets 0.
std::array<double, 3> solve3(std::array<std::array<double, 3>, 3> a, std::array<double, 3> b) {
  constexpr std::size_t n = 3;
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
  std::array<double, 3> x{};
  for (std::size_t c = n; c-- > 0;) {
    if (!(std::abs(a[c][c]) > 1e-300)) continue;
    double v = b[c];
    for (std::size_t k = c + 1; k < n; ++k) v -= a[c][k] * x[k];
    x[c] = v / a[c][c];
  }
  return x;
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
      const std::uint64_t bytes = evaluator_bytes(c.request);
      if (bytes > kEvaluatorBudgetBytes)
        throw InputError(c.label, fmt::format("about {} million operations, {} in pico's LogGP evaluator, over its {}",
                                              estimated_operations(c.request) / 1000000, format_size(bytes),
                                              format_size(kEvaluatorBudgetBytes)),
                         "give --loggopsim DIR (LogGOPSim reads the schedule from a file), or fewer ranks");
      largest = std::max(largest, bytes);
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
      if (tools) dir.emplace();
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

  // Point to point.
  std::vector<Point> p2p;
  std::set<std::uint64_t> sizes;
  for (const CaseResult& r : cases)
    if (spec_for(r.c.collective).point_to_point && r.measured() && r.c.np >= 2 && r.timing->median_s > 0) {
      p2p.push_back({static_cast<double>(r.c.bytes), r.timing->median_s});
      sizes.insert(r.c.bytes);
    }
  if (sizes.size() < 2)
    throw InputError(report_path,
                     fmt::format("the report has {} measured sendrecv size(s); the fit needs at least two", sizes.size()),
                     "measure point to point first: pico run configs/examples/fit.yaml");
  const auto [a, b] = relative_line_fit(p2p);
  LogGPParams& p = m.params;
  p.G = ps(b);
  const std::int64_t intercept = ps(a);  // L + 2o - G
  const std::int64_t latency = intercept + p.G;  // L + 2o
  if (latency > kMaxParameter || p.G > kMaxParameter)
    throw InputError(report_path,
                     fmt::format("the sendrecv cases give L + 2o = {:.3f} ms and G = {:.3f} ns/B; LogGOPSim takes its "
                                 "parameters as 32-bit integers of ps, at most {:.3f} ms",
                                 static_cast<double>(latency) * 1e-9, static_cast<double>(p.G) * 1e-3,
                                 static_cast<double>(kMaxParameter) * 1e-9),
                     "a latency of milliseconds is no network's: check the run (an oversubscribed or loaded machine, "
                     "TCP delayed acknowledgements) with pico report");
  if (a < 0) out.notes.push_back("the sendrecv line's intercept is negative: L + 2o is taken as 0");
  p.g = 0;
  p.O = 0;
  p.S = kEagerAlways;
  p.o = 0;
  p.L = latency;
  p.reduce_ps_per_byte = options.reduce_ps_per_byte;
  {
    std::vector<double> predicted, measured;
    for (const Point& pt : p2p) {
      predicted.push_back(static_cast<double>(p.L + 2 * p.o + p.G * (std::max(pt.bytes, 1.0) - 1)) * 1e-12);
      measured.push_back(pt.seconds);
    }
    m.p2p = relative_error(predicted, measured);
  }

  // L against o, and the reduction cost, from the reference algorithms.
  const std::vector<MeasuredSchedule> refs = reference_cases(cases);
  if (refs.empty()) {
    out.notes.push_back("no measured reference-algorithm cases: o = 0 (L = L + 2o) and the reduction cost is the "
                        "given one; add `{library: reference, algorithms: all}` to the experiment");
    return out;
  }
  if (!options.simulator)
    out.notes.push_back("LogGOPSim not found: the reference cases were simulated by pico's LogGP evaluator "
                        "(no g, O or rendezvous); install LogGOPSim or give --loggopsim DIR");
  std::vector<double> measured;
  for (const auto& r : refs) measured.push_back(r.measured_s);
  // x = (L + 2o, o, reduction ps/B); L = x0 - 2 x1. The sendrecv points stay
  // in the fit (closed form, G fixed by the line) so that L + 2o answers to both.
  using Vec = std::array<double, 3>;
  auto at = [&](const Vec& x) {
    LogGPParams q = p;
    q.o = std::llround(x[1]);
    q.L = std::llround(x[0]) - 2 * q.o;
    q.reduce_ps_per_byte = x[2];
    return q;
  };
  auto clamp = [](Vec x) {
    x[0] = std::clamp(x[0], 0.0, static_cast<double>(kMaxParameter));
    x[1] = std::clamp(x[1], 0.0, x[0] / 2);
    x[2] = std::clamp(x[2], 0.0, 1e6);
    return x;
  };
  // Residuals r = predicted / measured - 1: the simulated cases, then the sendrecv points.
  auto residuals = [&](const Vec& x, const std::vector<double>& simulated) {
    std::vector<double> r;
    for (std::size_t i = 0; i < simulated.size(); ++i) r.push_back(simulated[i] / measured[i] - 1);
    for (const Point& pt : p2p)
      r.push_back((x[0] + static_cast<double>(p.G) * (std::max(pt.bytes, 1.0) - 1)) * 1e-12 / pt.seconds - 1);
    return r;
  };
  auto squared = [](const std::vector<double>& r) {
    double sum = 0;
    for (double v : r) sum += v * v;
    return sum;
  };
  Vec x = clamp({static_cast<double>(latency), static_cast<double>(latency) / 4, options.reduce_ps_per_byte});
  std::vector<double> t0 = simulate_all(options.simulator, refs, at(x), options.threads);
  std::vector<double> r0 = residuals(x, t0);
  double error = squared(r0);
  for (int iteration = 0; iteration < 4; ++iteration) {
    // Jacobian columns by forward differences (backward where the bound is near).
    std::array<std::vector<double>, 3> column;
    for (int k = 0; k < 3; ++k) {
      Vec xk = x;
      const double h = k == 2 ? std::max(1.0, x[2] / 4) : std::max(1.0, x[0] / 20);
      xk[static_cast<std::size_t>(k)] += h;
      if (clamp(xk) != xk) xk[static_cast<std::size_t>(k)] -= 2 * h;
      xk = clamp(xk);
      const double step = xk[static_cast<std::size_t>(k)] - x[static_cast<std::size_t>(k)];
      std::vector<double> rk = step == 0 ? r0 : residuals(xk, simulate_all(options.simulator, refs, at(xk), options.threads));
      column[static_cast<std::size_t>(k)].resize(r0.size());
      for (std::size_t i = 0; i < r0.size(); ++i)
        column[static_cast<std::size_t>(k)][i] = step == 0 ? 0 : (rk[i] - r0[i]) / step;
    }
    // Normal equations (J^T J) d = -J^T r, 3x3.
    std::array<Vec, 3> a{};
    Vec b{};
    for (std::size_t i = 0; i < r0.size(); ++i)
      for (std::size_t j = 0; j < 3; ++j) {
        b[j] -= column[j][i] * r0[i];
        for (std::size_t k = 0; k < 3; ++k) a[j][k] += column[j][i] * column[k][i];
      }
    for (std::size_t j = 0; j < 3; ++j) a[j][j] *= 1 + 1e-9;  // a flat direction stays put
    Vec d = solve3(a, b);
    // Times are piecewise linear in the parameters: take the step, or half of
    // it, as long as the error falls.
    bool improved = false;
    for (int halving = 0; halving < 4 && !improved; ++halving) {
      const Vec xn = clamp({x[0] + d[0], x[1] + d[1], x[2] + d[2]});
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
  std::vector<double> p2p_predicted, p2p_measured;
  for (const Point& pt : p2p) {
    p2p_predicted.push_back(static_cast<double>(p.L + 2 * p.o + p.G * (std::max(pt.bytes, 1.0) - 1)) * 1e-12);
    p2p_measured.push_back(pt.seconds);
  }
  m.p2p = relative_error(p2p_predicted, p2p_measured);
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
