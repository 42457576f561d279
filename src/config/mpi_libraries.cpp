// SPDX-License-Identifier: BSD-3-Clause
#include "config/mpi_libraries.hpp"

#include <filesystem>
#include <regex>

#include <fmt/format.h>

#include "config/data_files.hpp"
#include "config/yaml_reader.hpp"
#include "support/input_error.hpp"

namespace pico {
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kLibrariesKeys{"unknown_as", "libraries"};
const std::vector<std::string> kLibraryKeys{"launcher_version", "run_as_root_flag", "oversubscribe_flag", "worker",
                                            "worker_build",     "interposer",       "counter"};
constexpr const char* kFile = "configs/mpi_libraries.yaml";

// A pattern that std::regex takes and whose group 1 can hold the version.
std::string launcher_pattern(const yaml::Value& v) {
  const std::string pattern = v.as_nonempty_string("launcher_version");
  try {
    if (std::regex(pattern).mark_count() == 0)
      v.fail("launcher_version has no group: its group 1 is the library's version",
             "put the version's digits in parentheses, as (\\d+(\\.\\d+)*)");
  } catch (const std::regex_error& e) {
    v.fail(fmt::format("launcher_version is not a regular expression: {}", e.what()), "write an ECMAScript pattern");
  }
  return pattern;
}

MpiLibraryTable read_table() {
  for (const fs::path& file : data_file_candidates(kFile, false)) {
    std::error_code ec;
    if (fs::symlink_status(file, ec).type() == fs::file_type::not_found || ec) continue;
    return parse_mpi_libraries(read_config_file(file.string(), "the MPI library table", "reinstall pico"),
                               file.string());
  }
  throw InputError(kFile, 0, 0, "is not installed beside pico nor in its source tree", "reinstall pico");
}

}  // namespace

MpiLibraryTable parse_mpi_libraries(const std::string& yaml_text, const std::string& file_for_messages) {
  const yaml::Value doc = yaml::Value::parse_document(yaml_text, file_for_messages);
  const yaml::Map top = doc.as_map("the MPI library table", kLibrariesKeys);
  MpiLibraryTable table;
  for (const auto& [key, value] : top.require("libraries").as_entries("libraries")) {
    const yaml::Map m = value.as_map("an MPI library", kLibraryKeys);
    MpiLibraryEntry l;
    l.name = key.as_path_component("library");
    l.launcher_version = launcher_pattern(m.require("launcher_version"));
    if (auto v = m.get("run_as_root_flag")) l.run_as_root_flag = v->as_nonempty_string("run_as_root_flag");
    if (auto v = m.get("oversubscribe_flag")) l.oversubscribe_flag = v->as_nonempty_string("oversubscribe_flag");
    l.worker = m.require("worker").as_path_component("worker");
    l.worker_build = m.require("worker_build").as_nonempty_string("worker_build");
    if (auto v = m.get("interposer")) l.interposer = v->as_path_component("interposer");
    l.counter = m.require("counter").as_path_component("counter");
    table.libraries.push_back(std::move(l));
  }
  if (table.libraries.empty()) top.require("libraries").fail("names no library", "describe at least one");
  std::vector<std::string> names;
  for (const MpiLibraryEntry& l : table.libraries) names.push_back(l.name);
  table.unknown_as = top.require("unknown_as").as_choice("unknown_as", names);
  return table;
}

const MpiLibraryTable& mpi_library_table() {
  static const MpiLibraryTable table = read_table();
  return table;
}

const std::vector<MpiLibraryEntry>& mpi_libraries() { return mpi_library_table().libraries; }

const MpiLibraryEntry* find_mpi_library(const std::string& name) {
  for (const MpiLibraryEntry& l : mpi_libraries())
    if (l.name == name) return &l;
  return nullptr;
}

const MpiLibraryEntry& launched_as(const std::string& name) {
  if (const MpiLibraryEntry* l = find_mpi_library(name)) return *l;
  return *find_mpi_library(mpi_library_table().unknown_as);
}

}  // namespace pico
