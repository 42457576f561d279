// SPDX-License-Identifier: BSD-3-Clause
#include "config/slurm_spec.hpp"

#include <regex>

#include <fmt/format.h>

namespace pico {
namespace {

using yaml::Map;
using yaml::Value;

// A value written into the job script must stay one line: sbatch reads
// #SBATCH options line by line, and a newline would start a new option or command.
std::string single_line(const Value& v, std::string_view what) {
  std::string s = v.as_string(what);
  if (s.find_first_of(std::string("\n\r\0", 3)) != std::string::npos)
    v.fail(fmt::format("{} contains a line break or NUL, which cannot be written into an #SBATCH line", what),
           "write it on one line");
  return s;
}

std::vector<std::string> single_line_list(const Value& v, std::string_view what) {
  std::vector<std::string> out;
  for (const auto& item : v.as_list(what)) out.push_back(single_line(item, what));
  return out;
}

// Slurm's --time forms: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S.
std::string parse_time_limit(const Value& v) {
  const std::string s = single_line(v, "slurm time");
  static const std::regex form(R"(\d+(:\d{1,2}){0,2}|\d+-\d{1,2}(:\d{1,2}){0,2})");
  if (!std::regex_match(s, form))
    v.fail(fmt::format("'{}' is not a Slurm time limit", s),
           "write minutes or HH:MM:SS (e.g. \"00:30:00\"), or D-HH:MM:SS; quote it so YAML keeps it a string");
  return s;
}

std::vector<std::string> parse_extra_sbatch(const Value& v) {
  std::vector<std::string> out = single_line_list(v, "slurm extra_sbatch option");
  const auto items = v.as_list("slurm extra_sbatch");
  for (std::size_t k = 0; k < out.size(); ++k)
    if (!out[k].starts_with("-"))
      items[k].fail(fmt::format("'{}' is not an sbatch option", out[k]),
                    "write one option per item, as --name=value (e.g. --mem=0)");
  return out;
}

}  // namespace

const std::vector<std::string>& slurm_keys() {
  static const std::vector<std::string> keys{
      "partition",  "account",     "qos",         "time",     "nodes",   "ntasks_per_node", "cpus_per_task",
      "gpus_per_node", "exclusive", "constraint", "reservation", "job_name", "comment", "extra_sbatch",
      "modules",    "setup",       "signal_before_limit"};
  return keys;
}

SlurmSpec parse_slurm(const Value& v) {
  const Map m = v.as_map("slurm", slurm_keys());
  SlurmSpec s;
  s.file = v.file();
  auto text = [&](std::string_view key, std::string& field) {
    if (auto x = m.get(key)) field = single_line(*x, fmt::format("slurm {}", key));
  };
  text("partition", s.partition);
  text("account", s.account);
  text("qos", s.qos);
  text("constraint", s.constraint);
  text("reservation", s.reservation);
  text("job_name", s.job_name);
  text("comment", s.comment);
  if (auto x = m.get("time")) s.time = parse_time_limit(*x);
  if (auto x = m.get("nodes")) {
    s.nodes = static_cast<int>(x->as_int("slurm nodes", 1, 1'000'000));
    s.nodes_line = x->line();
    s.nodes_column = x->column();
  }
  if (auto x = m.get("ntasks_per_node")) {
    s.ntasks_per_node = static_cast<int>(x->as_int("slurm ntasks_per_node", 1, 100'000));
    if (!s.nodes) {
      s.nodes_line = x->line();
      s.nodes_column = x->column();
    }
  }
  if (auto x = m.get("cpus_per_task")) s.cpus_per_task = static_cast<int>(x->as_int("slurm cpus_per_task", 1, 100'000));
  if (auto x = m.get("gpus_per_node")) s.gpus_per_node = static_cast<int>(x->as_int("slurm gpus_per_node", 0, 1'000));
  if (auto x = m.get("exclusive")) s.exclusive = x->as_bool("slurm exclusive");
  if (auto x = m.get("extra_sbatch")) s.extra_sbatch = parse_extra_sbatch(*x);
  if (auto x = m.get("modules")) s.modules = single_line_list(*x, "slurm module");
  // Setup commands are shell by design (the platform's author writes them); one line each keeps the script readable.
  if (auto x = m.get("setup")) s.setup = single_line_list(*x, "slurm setup command");
  if (auto x = m.get("signal_before_limit"))
    s.signal_before_limit_s = static_cast<int>(x->as_int("slurm signal_before_limit (seconds)", 1, 65'535));
  if (s.nodes_line == 0) {
    s.nodes_line = v.line();
    s.nodes_column = v.column();
  }
  return s;
}

}  // namespace pico
