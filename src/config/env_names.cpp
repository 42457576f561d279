// SPDX-License-Identifier: BSD-3-Clause
#include "config/env_names.hpp"

#include <fmt/format.h>

namespace pico {
namespace {

bool is_name_char(char c) {
  return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

}  // namespace

// Shells and setenv disagree on odd names; holding to POSIX names avoids a
// variable that silently never reaches the worker.
bool is_env_name(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s)
    if (!is_name_char(c)) return false;
  return true;
}

std::optional<std::string> env_name_problem(std::string_view name) {
  if (is_env_name(name)) return std::nullopt;
  return fmt::format("'{}' is not a valid environment variable name", name);
}

std::optional<std::string> env_value_problem(std::string_view name, std::string_view value) {
  if (value.find_first_of(std::string_view("\n\r\0", 3)) == std::string_view::npos) return std::nullopt;
  return fmt::format("env variable {} contains a line break or NUL", name);
}

std::map<std::string, std::string> parse_env_map(const yaml::Value& v, std::string_view what) {
  std::map<std::string, std::string> env;
  for (const auto& [key, value] : v.as_entries(what)) {
    const std::string name = key.as_string(what);
    if (const auto problem = env_name_problem(name)) key.fail(*problem, kEnvNameHint);
    // Numbers and booleans are kept as written, which is what the worker's environment sees.
    env[name] = value.as_string(fmt::format("{} variable {}", what, name));
    if (const auto problem = env_value_problem(name, env[name])) value.fail(*problem, kEnvValueHint);
  }
  return env;
}

bool is_loader_variable(std::string_view name) { return name.starts_with("LD_"); }

bool mentions_loader_variable(std::string_view text) {
  for (std::size_t at = text.find("LD_"); at != std::string_view::npos; at = text.find("LD_", at + 1))
    if (at == 0 || !is_name_char(text[at - 1])) return true;
  return false;
}

}  // namespace pico
