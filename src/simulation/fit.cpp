#include "simulation/fit.hpp"

#include <algorithm>
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
  const auto& hosts = report.value("provenance", nlohmann::json::object()).value("hosts", nlohmann::json::array());
  if (!hosts.is_array() || hosts.empty()) return "unknown";
  if (hosts.size() == 1) return "intra-node";
  for (const auto& h : hosts)
    if (!h.contains("ranks") || h["ranks"].size() != 1) return "mixed";
  return "inter-node";
}

std::int64_t ps(double seconds) { return std::max<std::int64_t>(0, std::llround(seconds * 1e12)); }

// Solves the 2x2 system [a b; b c] x = [u v]; false when singular.
bool solve2(double a, double b, double c, double u, double v, double& x, double& y) {
  const double det = a * c - b * b;
  if (!(std::abs(det) > 1e-300)) return false;
  x = (u * c - b * v) / det;
  y = (a * v - b * u) / det;
  return true;
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

std::vector<double> simulate_all(const LogGOPSimTools& tools, const std::vector<MeasuredSchedule>& cases,
                                 const LogGPParams& p, int threads) {
  std::vector<double> out(cases.size());
  const int n = threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto work = [&] {
    TempDir dir;
    for (std::size_t i; (i = next++) < cases.size();) {
      try {
        out[i] = static_cast<double>(simulate_request(tools, cases[i].request, p, dir.path())) * 1e-12;
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next = cases.size();
      }
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
    if (r.c.collective == Collective::sendrecv && r.measured() && r.c.np >= 2 && r.timing->median_s > 0) {
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
  if (!options.simulator) {
    out.notes.push_back("LogGOPSim not found: o = 0 (L = L + 2o) and the reduction cost is the given one; "
                        "install LogGOPSim or give --loggopsim DIR");
    return out;
  }
  std::vector<double> measured;
  for (const auto& r : refs) measured.push_back(r.measured_s);
  auto at = [&](double o, double gamma) {
    LogGPParams q = p;
    q.o = std::llround(o);
    q.L = latency - 2 * q.o;
    q.reduce_ps_per_byte = gamma;
    return q;
  };
  const double o_max = static_cast<double>(latency) / 2;
  auto squared_error = [&](const std::vector<double>& t) {
    double sum = 0;
    for (std::size_t i = 0; i < t.size(); ++i) sum += (t[i] / measured[i] - 1) * (t[i] / measured[i] - 1);
    return sum;
  };
  double o = o_max / 2, gamma = options.reduce_ps_per_byte;
  std::vector<double> t0 = simulate_all(*options.simulator, refs, at(o, gamma), options.threads);
  double error = squared_error(t0);
  for (int iteration = 0; iteration < 3; ++iteration) {
    const double d_o = std::max(1.0, o_max / 20), d_gamma = std::max(1.0, gamma / 4);
    const double o1 = o + d_o <= o_max ? o + d_o : o - d_o;
    const auto to = simulate_all(*options.simulator, refs, at(o1, gamma), options.threads);
    const auto tg = simulate_all(*options.simulator, refs, at(o, gamma + d_gamma), options.threads);
    // Gauss-Newton on r_i = t_i / m_i - 1 with columns d r / d o and d r / d gamma.
    double joo = 0, jog = 0, jgg = 0, uo = 0, ug = 0;
    for (std::size_t i = 0; i < refs.size(); ++i) {
      const double r = t0[i] / measured[i] - 1;
      const double jo = (to[i] - t0[i]) / (o1 - o) / measured[i];
      const double jg = (tg[i] - t0[i]) / d_gamma / measured[i];
      joo += jo * jo;
      jog += jo * jg;
      jgg += jg * jg;
      uo -= jo * r;
      ug -= jg * r;
    }
    double step_o = 0, step_g = 0;
    if (!solve2(joo, jog, jgg, uo, ug, step_o, step_g)) {
      // One direction is flat (e.g. no reductions measured): fit the other alone.
      if (joo > 0) step_o = uo / joo;
      if (jgg > 0) step_g = ug / jgg;
    }
    // Times are piecewise linear in the parameters: take the step, or half of
    // it, as long as the error falls.
    bool improved = false;
    for (int halving = 0; halving < 4 && !improved; ++halving, step_o /= 2, step_g /= 2) {
      const double o_new = std::clamp(o + step_o, 0.0, o_max), g_new = std::clamp(gamma + step_g, 0.0, 1e6);
      auto t = simulate_all(*options.simulator, refs, at(o_new, g_new), options.threads);
      if (const double e = squared_error(t); e < error) {
        o = o_new;
        gamma = g_new;
        error = e;
        t0 = std::move(t);
        improved = true;
      }
    }
    if (!improved) break;
  }
  p = at(o, gamma);
  m.collectives = relative_error(t0, measured);
  return out;
}

}  // namespace pico
