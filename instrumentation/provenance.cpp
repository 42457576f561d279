// SPDX-License-Identifier: BSD-3-Clause
#include "instrumentation/provenance.hpp"

#include <unistd.h>

#include <array>
#include <ctime>
#include <string_view>

#include <fmt/format.h>

#include "core/build_info.hpp"
#include "support/input_error.hpp"
#include "support/plain_text.hpp"

extern char** environ;

namespace pico {

bool is_relevant_env_name(const std::string& name) {
  static constexpr std::array<std::string_view, 9> prefixes{"OMPI_", "MPICH_", "MPIR_CVAR_", "NCCL_", "UCX_",
                                                            "FI_",   "SLURM_", "PMIX_",      "PICO_"};
  for (auto p : prefixes)
    if (name.starts_with(p)) return true;
  return false;
}

nlohmann::json relevant_environment() {
  nlohmann::json env = nlohmann::json::object();
  for (char** e = environ; *e != nullptr; ++e) {
    std::string_view entry(*e);
    const auto eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    std::string key(entry.substr(0, eq));
    if (!is_relevant_env_name(key)) continue;
    const std::string_view value = entry.substr(eq + 1);
    if (const auto problem = utf8_problem(entry))
      throw InputError(fmt::format("environment variable {}", printable(key)),
                       fmt::format("its {} {} at byte {}", problem->byte < key.size() ? "name" : "value",
                                   problem->what, problem->byte),
                       "pico records it in run.json and the report, which are UTF-8: fix it or unset it");
    env[key] = std::string(value);
  }
  return env;
}

std::string host_name() {
  std::array<char, 256> buf{};
  if (gethostname(buf.data(), buf.size() - 1) != 0) return "unknown";
  return buf.data();
}

namespace {
std::string utc_format(const char* format) {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::array<char, 64> buf{};
  std::strftime(buf.data(), buf.size(), format, &tm);
  return buf.data();
}
}  // namespace

std::string utc_timestamp_iso() { return utc_format("%Y-%m-%dT%H:%M:%SZ"); }
std::string utc_timestamp_compact() { return utc_format("%Y%m%dT%H%M%SZ"); }

nlohmann::json build_provenance() {
  return {{"version", build::version},   {"git_hash", build::git_hash},     {"compiler", build::compiler},
          {"cxx_flags", build::cxx_flags}, {"build_type", build::build_type}};
}

}  // namespace pico
