// SPDX-License-Identifier: BSD-3-Clause
// pico list libraries|algorithms|backends|collectives|platforms [--library L] [--collective C]
#include <algorithm>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/catalog_table.hpp"
#include "cli/commands.hpp"
#include "config/backends.hpp"
#include "config/catalog.hpp"
#include "config/platform.hpp"
#include "config/yaml_reader.hpp"
#include "launch/worker_inventory.hpp"
#include "support/input_error.hpp"

namespace pico::cli {
namespace {

// The first column's width: the longest name.
template <class Range, class Name>
std::size_t widest(const Range& items, Name name) {
  std::size_t width = 0;
  for (const auto& item : items) width = std::max(width, std::string(name(item)).size());
  return width;
}

// An unknown name would list nothing and look like an empty catalogue.
void reject_unknown(const char* flag, const std::string& value, const std::vector<std::string>& known,
                    std::string_view label) {
  if (value.empty() || std::find(known.begin(), known.end(), value) != known.end()) return;
  throw InputError(flag, fmt::format("unknown name '{}'", value), yaml::suggest_and_list(value, known, label));
}

}  // namespace

void add_list(CLI::App& app, int& /*exit_code: errors throw InputError*/) {
  auto* cmd = app.add_subcommand("list", "List libraries, algorithms, backends, collectives or platforms");
  struct Options {
    std::string what, library, collective, mpi_version, format = "text";
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("what", opts->what, "libraries | algorithms | backends | collectives | platforms")
      ->required()
      ->check(CLI::IsMember({"libraries", "algorithms", "backends", "collectives", "platforms"}));
  cmd->add_option("--library", opts->library, "Only this library's catalogue (see `pico list libraries`)");
  cmd->add_option("--collective", opts->collective, "Only this collective");
  cmd->add_option("--mpi-version", opts->mpi_version,
                  "algorithms: only those a library of this version has (5.0.7; the catalogue's `versions`)");
  cmd->add_option("--format", opts->format, "text | markdown")->check(CLI::IsMember({"text", "markdown"}));
  cmd->callback([opts] {
    const auto libraries = catalog_libraries();
    reject_unknown("--library", opts->library, libraries, "libraries with a catalogue");
    std::vector<std::string> collectives;
    for (Collective c : all_collectives()) collectives.emplace_back(name(c));
    reject_unknown("--collective", opts->collective, collectives, "collectives");
    if (!opts->mpi_version.empty() &&
        opts->mpi_version.find_first_not_of("0123456789.") != std::string::npos)
      throw InputError("--mpi-version", fmt::format("'{}' is not a version", opts->mpi_version),
                       "give the library's version as numbers and dots (5.0.7; `mpirun --version` says it)");
    if (opts->what == "libraries") {
      const std::size_t width = widest(libraries, [](const std::string& lib) { return lib; });
      for (const auto& lib : libraries) {
        const Catalog& cat = catalog_for(lib);
        const std::string where =
            cat.mpi_t_versions.empty() ? "" : fmt::format(" (MPI_T on {}, else env)", cat.mpi_t_versions);
        fmt::print("{:<{}} selection: {:<8} {}{}\n", lib, width, name(cat.mechanism), cat.description, where);
      }
      // Which MPI each built worker runs on: a platform picks one by its `mpi: library` or `worker:`.
      const auto workers = workers_beside_pico();
      fmt::print("\nworkers beside pico{}:\n", workers.empty() ? " (none found)" : "");
      const std::size_t name_width = widest(workers, [](const WorkerFound& w) { return w.name; });
      for (const WorkerFound& w : workers)
        fmt::print("  {:<{}} {}  {}\n", w.name, name_width, w.mpi.empty() ? "(" + w.failure + ")" : w.mpi,
                   w.path.string());
    } else if (opts->what == "algorithms") {
      fmt::print("{}", opts->format == "markdown"
                           ? render_algorithms_markdown(opts->library, opts->collective, opts->mpi_version)
                           : render_algorithms_text(opts->library, opts->collective, opts->mpi_version));
      // Which files those rows came from (PICO_CATALOG_DIR can replace pico's own); not in the generated docs.
      if (opts->format == "text")
        for (const auto& [library, file] : catalog_files_read()) fmt::print("catalogue of {}: {}\n", library, file);
    } else if (opts->what == "backends") {
      const auto& backends = known_backends();
      const std::size_t width = widest(backends, [](const auto& b) { return b.name; });
      for (const auto& b : backends) {
        fmt::print("{:<{}} {}{}\n", b.name, width, b.description, b.test_only ? " [test only]" : "");
        if (b.status != nullptr) fmt::print("{:<{}} {}\n", "", width, b.status());
      }
    } else if (opts->what == "collectives") {
      for (Collective c : all_collectives()) fmt::print("{}\n", name(c));
    } else {
      for (const KnownPlatform& p : known_platforms()) fmt::print("{:<16} {}\n", p.name, p.path);
    }
  });
}

}  // namespace pico::cli
