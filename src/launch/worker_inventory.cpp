// SPDX-License-Identifier: BSD-3-Clause
#include "launch/worker_inventory.hpp"

#include <algorithm>

#include "support/command_output.hpp"
#include "support/executable_search.hpp"

namespace pico {
namespace fs = std::filesystem;

namespace {

// The worker's "MPI: ..." line (src/worker/main.cpp), tabs (MPICH's "Version:\t4.0.2") as spaces.
void ask_worker(WorkerFound& w) {
  const CommandOutput out = run_command({w.path.string(), "--version"}, 20);
  if (!out.started) {
    w.failure = "did not start";
    return;
  }
  const auto at = out.output.find("\nMPI: ");
  if (!out.exit.ok() || at == std::string::npos) {
    w.failure = "`--version` named no MPI library (a worker older than this pico?)";
    return;
  }
  const auto begin = at + 6;
  w.mpi = out.output.substr(begin, out.output.find('\n', begin) - begin);
  std::replace(w.mpi.begin(), w.mpi.end(), '\t', ' ');
}

}  // namespace

std::vector<WorkerFound> workers_beside_pico(const fs::path& dir) {
  const fs::path where = dir.empty() ? this_program_dir() : dir;
  std::vector<WorkerFound> found;
  std::error_code ec;
  if (where.empty() || !fs::is_directory(where, ec)) return found;
  for (const auto& entry : fs::directory_iterator(where, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("pico-worker", 0) != 0 || !is_executable_file(entry.path())) continue;
    if (name != "pico-worker" && name[11] != '-') continue;  // pico-workerfoo is not one of pico's names
    found.push_back({name, entry.path(), "", ""});
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  for (auto& w : found) ask_worker(w);
  return found;
}

}  // namespace pico
