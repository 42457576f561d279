// The backends an experiment may name and the algorithms each offers.
// Library algorithm catalogues (Open MPI, MPICH) arrive as data files with
// algorithm selection; until then the mpi backend runs the library default.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace pico {

struct BackendInfo {
  std::string library;
  std::vector<std::string> algorithms;
  bool test_only = false;  // accepted only when PICO_ENABLE_TEST_BACKENDS=1
  std::string description;
};

std::span<const BackendInfo> known_backends();
const BackendInfo* find_backend(const std::string& library);
bool test_backends_enabled();

}  // namespace pico
