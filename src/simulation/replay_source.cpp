// SPDX-License-Identifier: BSD-3-Clause
#include "simulation/replay_source.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "support/counted.hpp"
#include "support/size_text.hpp"

namespace pico {

bool is_trace_path(const std::string& path) {
  if (std::filesystem::is_directory(path)) return true;
  const std::string ext = std::filesystem::path(path).extension().string();
  return path != "llm" && ext != ".yaml" && ext != ".yml" && std::filesystem::exists(path);
}

std::unique_ptr<ReplaySource> open_replay_source(const ReplayInput& in) {
  if (is_trace_path(in.path)) {
    TraceProgram t = load_trace(in.path, in.trace);
    t.scale_compute(in.compute_scale);
    return trace_source(std::move(t));
  }
  Workload w = in.path == "llm" ? llm_step_workload(in.llm) : load_workload_yaml(in.path);
  w.scale_compute(in.compute_scale);
  return workload_source(std::move(w));
}

std::vector<std::string> choice_lines(const ChoiceCounts& calls, const char* per) {
  std::vector<std::string> lines;
  for (const auto& [key, n] : calls) {
    if (lines.size() == 12) {
      lines.push_back(fmt::format("  ... and {} more", calls.size() - 12));
      break;
    }
    const auto& [c, np, bytes, algorithm] = key;
    lines.push_back(fmt::format("  {} {} on {} ranks: {} ({}{})", name(c), size_text(bytes), np, algorithm,
                                counted(n, "call"), per));
  }
  return lines;
}

}  // namespace pico
