// SPDX-License-Identifier: BSD-3-Clause
// The one rule for the names of environment variables pico sets (platform
// env, catalogue launch variables, what a resumed run reads back), and what
// marks a variable of the dynamic loader. Names reach a shell (--dry-run), a
// Slurm job script (`env NAME=VALUE`) and setenv, so an odd one (`X; touch Y`,
// `-S...`, GNU env's option) must never get that far.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "config/yaml_reader.hpp"

namespace pico {

// POSIX names: a letter or '_', then letters, digits and '_'.
bool is_env_name(std::string_view name);

// Why `name` may not be set ("'X Y' is not a valid environment variable
// name"), or nullopt when it may; kEnvNameHint says what to write instead.
std::optional<std::string> env_name_problem(std::string_view name);
inline constexpr const char* kEnvNameHint = "use letters, digits and '_', not starting with a digit";

// Why the value of `name` may not be set, or nullopt: newlines are legal in an
// environment, but a Slurm job script exports each variable on one line, and
// keeping both schedulers alike avoids a file valid only locally.
std::optional<std::string> env_value_problem(std::string_view name, std::string_view value);
inline constexpr const char* kEnvValueHint = "write the value on one line";

// A YAML map of variables (a platform's env, a catalogue's launch variables,
// an application variant's env), each name and value by the rules above;
// InputError at the offending key or value. `what` names it in messages.
std::map<std::string, std::string> parse_env_map(const yaml::Value& v, std::string_view what);

// LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT, ...: the loader runs what they name
// in every process started with them.
bool is_loader_variable(std::string_view name);

// text names a loader variable anywhere (`-x LD_PRELOAD=/x`,
// `--export=ALL,LD_AUDIT=...`, `mca_base_env_list=LD_PRELOAD=...`): an LD_
// that does not continue a longer name.
bool mentions_loader_variable(std::string_view text);

}  // namespace pico
