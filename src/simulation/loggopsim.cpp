// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/loggopsim.hpp"
#include "simulation/size_bands.hpp"

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "collectives/schedule_export.hpp"
#include "support/command_output.hpp"
#include "support/executable_search.hpp"
#include "support/external_error.hpp"
#include "support/file_io.hpp"
#include "support/input_error.hpp"

namespace pico {
namespace fs = std::filesystem;
namespace {

std::optional<LogGOPSimTools> in_dir(const fs::path& dir) {
  const fs::path t = dir / "txt2bin", s = dir / "LogGOPSim";
  if (is_executable_file(t) && is_executable_file(s)) return LogGOPSimTools{t.string(), s.string()};
  return std::nullopt;
}

// The last lines of a program's output, for an error message.
std::string tail(const std::string& text, std::size_t lines = 6) {
  std::size_t at = text.size();
  for (std::size_t n = 0; n <= lines && at != std::string::npos && at > 0; ++n) at = text.rfind('\n', at - 1);
  return at == std::string::npos ? text : text.substr(at + 1);
}

}  // namespace

std::optional<LogGOPSimTools> find_loggopsim(const std::string& dir) {
  if (!dir.empty()) return in_dir(dir);
  if (const char* env = std::getenv("PICO_LOGGOPSIM_DIR"); env && *env) return in_dir(env);
  for (const std::string& entry : path_entries())
    if (!entry.empty())
      if (auto found = in_dir(entry)) return found;
  return std::nullopt;
}

std::uint64_t simulate_goal(const LogGOPSimTools& tools, const fs::path& goal, const LogGPParams& p, double timeout_s) {
  fs::path bin = goal;
  bin += ".bin";
  const CommandOutput conv = run_command({tools.txt2bin, "-i", goal.string(), "-o", bin.string()}, timeout_s);
  if (!conv.started || !conv.exit.ok() || !fs::exists(bin))
    throw ExternalError(fmt::format("txt2bin rejected {} ({}): {}", goal.string(), conv.exit.describe(),
                                         tail(conv.output)));
  for (std::int64_t v : {p.L, p.o, p.g, p.G, p.O, p.S})
    if (v < 0 || v > kMaxLogGOPSimParameter) throw std::logic_error(fmt::format("LogGOPSim parameter {} is outside [0, 2^31)", v));
  const CommandOutput sim = run_command({tools.loggopsim, "-f", bin.string(), "-b", "-L", std::to_string(p.L), "-o",
                                         std::to_string(p.o), "-g", std::to_string(p.g), "-G", std::to_string(p.G),
                                         "-O", std::to_string(p.O), "-S", std::to_string(p.S)},
                                        timeout_s);
  std::error_code ignored;
  fs::remove(bin, ignored);
  if (!sim.started || !sim.exit.ok())
    throw ExternalError(fmt::format("LogGOPSim failed on {} ({}): {}", goal.string(), sim.exit.describe(),
                                         tail(sim.output)));
  if (sim.output.find("unexpected queue") != std::string::npos || sim.output.find("receive queue") != std::string::npos)
    throw std::runtime_error(fmt::format("LogGOPSim left operations of {} unmatched: {}", goal.string(),
                                         tail(sim.output)));
  const auto time = finishing_time(sim.output);
  if (!time)
    throw ExternalError(fmt::format("LogGOPSim printed no finishing time for {} (or one past 2^64 ps): {}",
                                         goal.string(), printable(tail(sim.output).substr(0, 2000))));
  return *time;
}

std::optional<std::uint64_t> finishing_time(std::string_view output) {
  // Scanned, not std::regex: its backtracking recurses per character and a long run of digits overflowed the stack.
  static constexpr std::string_view kLine = "Maximum finishing time at host ";
  const auto at = output.find(kLine);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = output.substr(at + kLine.size());
  auto digits = [](std::string_view& s) {
    std::size_t n = 0;
    while (n < s.size() && s[n] >= '0' && s[n] <= '9') ++n;
    const std::string_view d = s.substr(0, n);
    s.remove_prefix(n);
    return d;
  };
  if (digits(rest).empty() || !rest.starts_with(": ")) return std::nullopt;
  rest.remove_prefix(2);
  const std::string_view t = digits(rest);
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
  return v;
}

std::uint64_t simulate_request(const LogGOPSimTools& tools, const reference::ScheduleRequest& req,
                               const LogGPParams& p, const fs::path& work_dir) {
  const fs::path goal = work_dir / "schedule.goal";
  {
    std::ofstream out(goal, std::ios::binary);
    write_goal(req, out, 1,
               GoalOptions{.reduce_ps_per_byte = p.reduce_ps_per_byte, .exchange_factor = p.exchange_factor, .tag_base = 0});
    if (!out) throw WriteError(goal.string(), errno != 0 ? errno : EIO);
  }
  return simulate_goal(tools, goal, params_for(req, p));
}

}  // namespace pico
