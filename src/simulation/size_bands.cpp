// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/size_bands.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

#include <fmt/format.h>

#include "support/command_output.hpp"

namespace pico {
namespace {

// Least squares of t = a + b n on relative error (weights 1/t^2, closed
// form), with b kept at 0 or above: a slope below 0 is noise in a flat band.
BandLine line_through(const std::vector<SizePoint>& pts, std::size_t begin, std::size_t end) {
  double s00 = 0, s01 = 0, s11 = 0, r0 = 0, r1 = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const SizePoint& p = pts[i];
    const double w = 1 / (p.seconds * p.seconds);
    s00 += w;
    s01 += w * p.bytes;
    s11 += w * p.bytes * p.bytes;
    r0 += w * p.seconds;
    r1 += w * p.bytes * p.seconds;
  }
  const double det = s00 * s11 - s01 * s01;
  double a = 0, b = 0;
  if (det > 0) {
    a = (r0 * s11 - r1 * s01) / det;
    b = (s00 * r1 - s01 * r0) / det;
  }
  if (!(det > 0) || b < 0) {  // flat: t = a
    b = 0;
    a = r0 / s00;
  } else if (a + b < 0) {  // no latency left: t = b (n - 1), what LogGP can express
    double num = 0, den = 0;
    for (std::size_t i = begin; i < end; ++i) {
      const double n1 = pts[i].bytes - 1, w = 1 / (pts[i].seconds * pts[i].seconds);
      num += w * n1 * pts[i].seconds;
      den += w * n1 * n1;
    }
    b = den > 0 ? num / den : 0;
    a = -b;
  }
  BandLine line{.latency_ps = (a + b) * 1e12, .G = b * 1e12};
  for (std::size_t i = begin; i < end; ++i) {
    line.up_to = std::max(line.up_to, static_cast<std::uint64_t>(pts[i].bytes));
    const double r = (a + b * pts[i].bytes) / pts[i].seconds - 1;
    line.squared_error += r * r;
  }
  return line;
}

}  // namespace

BandLine fit_line(const std::vector<SizePoint>& points) { return line_through(points, 0, points.size()); }

std::vector<BandLine> fit_size_bands(std::vector<SizePoint> points) {
  std::sort(points.begin(), points.end(), [](const SizePoint& a, const SizePoint& b) { return a.bytes < b.bytes; });
  // Where each distinct size starts: a band boundary falls between sizes.
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (i == 0 || points[i].bytes != points[i - 1].bytes) starts.push_back(i);
  const std::size_t sizes = starts.size();
  starts.push_back(points.size());
  constexpr std::size_t kMinSizes = 3, kMaxBands = 3;
  auto lines = [&](const std::vector<std::size_t>& cuts) {  // cuts: indices into starts, ascending
    std::vector<BandLine> out;
    std::size_t from = 0;
    for (std::size_t k = 0; k <= cuts.size(); ++k) {
      const std::size_t to = k < cuts.size() ? cuts[k] : sizes;
      out.push_back(line_through(points, starts[from], starts[to]));
      from = to;
    }
    return out;
  };
  auto total = [](const std::vector<BandLine>& ls) {
    double sum = 0;
    for (const BandLine& l : ls) sum += l.squared_error;
    return sum;
  };
  std::vector<BandLine> best = lines({});
  double best_error = total(best);
  // Each added band must pass the F test below against the fewer bands. best.
  for (std::size_t bands = 2; bands <= kMaxBands && sizes >= bands * kMinSizes; ++bands) {
    std::vector<BandLine> candidate;
    double candidate_error = std::numeric_limits<double>::infinity();
    std::vector<std::size_t> cuts(bands - 1);
    // Every placement of the cuts leaving kMinSizes sizes or more per band (at most ~30 sizes: brute force).
    auto place = [&](auto&& self, std::size_t k, std::size_t from) -> void {
      if (k == cuts.size()) {
        if (sizes - from < kMinSizes) return;
        std::vector<BandLine> ls = lines(cuts);
        if (const double e = total(ls); e < candidate_error) {
          candidate_error = e;
          candidate = std::move(ls);
        }
        return;
      }
      for (std::size_t c = from + kMinSizes; c + kMinSizes <= sizes; ++c) {
        cuts[k] = c;
        self(self, k + 1, c);
      }
    };
    place(place, 0, 0);
    // An F test of the extra line's two parameters against the residual
    // spread: F above 10 is a change of regime (p < 0.01 from 12 points up),
    // not measurement noise.
    const double freedom = static_cast<double>(points.size()) - 2.0 * static_cast<double>(bands);
    if (!(freedom > 0) || !(candidate_error > 0 ? (best_error - candidate_error) / 2 / (candidate_error / freedom) > 10
                                                : best_error > 0))
      break;
    best = std::move(candidate);
    best_error = candidate_error;
  }
  return best;
}

std::optional<std::uint64_t> protocol_break(const std::vector<BandLine>& bands) {
  std::optional<std::uint64_t> at;
  double rise = 0;
  for (std::size_t i = 1; i < bands.size(); ++i)
    if (const double r = bands[i].latency_ps - bands[i - 1].latency_ps; r > rise) {
      rise = r;
      at = bands[i - 1].up_to;
    }
  return at;
}

std::uint64_t largest_message(const reference::ScheduleRequest& req) {
  transport::RankSchedule rs;
  reference::record_rank(req, 0, rs);
  return largest_message(rs);
}

std::uint64_t largest_message(const transport::RankSchedule& rank0) {
  std::uint64_t largest = 0;
  for (const transport::RecordedOp& op : rank0.ops)
    if (op.kind == transport::OpKind::send || op.kind == transport::OpKind::recv) largest = std::max(largest, op.bytes);
  return largest;
}

LogGPParams params_for(const reference::ScheduleRequest& req, const LogGPParams& p) {
  return p.bands.empty() ? p : p.for_message(largest_message(req));
}

std::optional<std::uint64_t> library_eager_limit(const std::string& library, const std::string& version,
                                                 const std::string& scope, std::string& note) {
  if (library != "openmpi") {
    note = fmt::format("no eager limit known for library '{}'", library.empty() ? "unknown" : library);
    return std::nullopt;
  }
  const CommandOutput out = run_command({"ompi_info", "--all", "--parsable"}, 60);
  if (!out.started || !out.exit.ok()) {
    note = "ompi_info did not run here";
    return std::nullopt;
  }
  // Lines as "ompi:version:full:4.1.4" and "mca:btl:tcp:param:btl_tcp_eager_limit:value:65536".
  const std::string text = "\n" + out.output;
  auto value_of = [&](std::string_view key) -> std::optional<std::string> {
    const std::size_t at = text.find(key);
    if (at == std::string::npos) return std::nullopt;
    const std::size_t from = at + key.size(), to = text.find('\n', from);
    return text.substr(from, to == std::string::npos ? std::string::npos : to - from);
  };
  const auto here = value_of("\nompi:version:full:");
  if (!here || (!version.empty() && *here != version)) {
    note = fmt::format("ompi_info here is Open MPI {}, the report's is {}", here.value_or("unknown"), version);
    return std::nullopt;
  }
  const char* btl = scope == "intra-node" ? "vader" : "tcp";
  const auto limit = value_of(fmt::format(":btl_{}_eager_limit:value:", btl));
  if (!limit || limit->empty() || limit->find_first_not_of("0123456789") != std::string::npos) {
    note = fmt::format("ompi_info shows no btl_{}_eager_limit", btl);
    return std::nullopt;
  }
  note = fmt::format("btl_{}_eager_limit {} (ompi_info, Open MPI {})", btl, *limit, *here);
  return std::stoull(*limit);
}

}  // namespace pico
