// SPDX-License-Identifier: BSD-3-Clause
#include "backends/nccl/tuning_log.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>

#include <fmt/format.h>

namespace pico::nccl {
namespace {

const char* const kVariables[] = {"NCCL_DEBUG", "NCCL_DEBUG_SUBSYS", "NCCL_DEBUG_FILE"};

}  // namespace

std::optional<TuningChoice> parse_tuning_line(std::string_view line) {
  // Later releases append fields (cgaClusterSize, comm): only the prefix is read.
  static const std::regex kTuning(
      R"(NCCL INFO (\w+): (\d+) Bytes -> Algo (\w+) proto (\w+) channel\{Lo\.\.Hi\}=\{(\d+)\.\.(\d+)\})");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_search(line.begin(), line.end(), m, kTuning)) return std::nullopt;
  return TuningChoice{.function = m[1].str(),
                      .bytes = std::stoull(m[2].str()),
                      .algorithm = m[3].str(),
                      .protocol = m[4].str(),
                      .channel_lo = std::stoi(m[5].str()),
                      .channel_hi = std::stoi(m[6].str())};
}

std::vector<TuningChoice> read_tuning_file(const std::filesystem::path& file) {
  std::vector<TuningChoice> choices;
  std::ifstream in(file, std::ios::binary);
  for (std::string line; std::getline(in, line);) {
    if (auto choice = parse_tuning_line(line)) {
      choices.push_back(std::move(*choice));
    } else if (line.find(" NCCL WARN ") != std::string::npos) {
      std::fprintf(stderr, "%s\n", line.c_str());
    }
  }
  return choices;
}

nlohmann::json to_json(const TuningChoice& choice) {
  return {{"function", choice.function},
          {"bytes", choice.bytes},
          {"algorithm", choice.algorithm},
          {"protocol", choice.protocol},
          {"channels", {choice.channel_lo, choice.channel_hi}}};
}

nlohmann::json reported_selection(const TuningLog& log, const std::vector<TuningChoice>& choices, int nranks) {
  if (!log.enabled()) return {{"source", "none"}, {"note", log.why()}};
  nlohmann::json reported{{"source", "nccl_debug_tuning"}, {"choices", nlohmann::json::array()}};
  for (const TuningChoice& choice : choices) reported["choices"].push_back(to_json(choice));
  if (choices.empty())
    reported["note"] = nranks == 1 ? "one rank: NCCL runs the call as a local copy or reduction, with no algorithm"
                                    : "NCCL logged no tuning choice for this call (grouped send/recv are not tuned)";
  return reported;
}

TuningLog::TuningLog(std::filesystem::path file) : file_(std::move(file)) {
  for (const char* variable : kVariables)
    if (std::getenv(variable) != nullptr) {
      why_ = fmt::format("{} is set by the user, so pico leaves NCCL's log alone", variable);
      return;
    }
  reset_ = reinterpret_cast<void (*)()>(dlsym(RTLD_DEFAULT, "ncclResetDebugInit"));
  if (reset_ == nullptr)
    why_ = "this NCCL has no ncclResetDebugInit, so its log cannot be switched on for one call "
           "(on for every timed call, it would bias them)";
}

void TuningLog::switch_on() {
  std::error_code ec;
  std::filesystem::remove(file_, ec);
  setenv("NCCL_DEBUG", "INFO", 1);
  setenv("NCCL_DEBUG_SUBSYS", "TUNING", 1);
  setenv("NCCL_DEBUG_FILE", file_.c_str(), 1);
  reset_();
}

// NCCL writes its log line by line, so the file is complete here; it is
// removed once read (NCCL opens it afresh at the next switch_on).
std::vector<TuningChoice> TuningLog::switch_off() {
  for (const char* variable : kVariables) unsetenv(variable);
  reset_();
  std::vector<TuningChoice> choices = read_tuning_file(file_);
  std::error_code ec;
  std::filesystem::remove(file_, ec);
  return choices;
}

}  // namespace pico::nccl
