#include "config/backends.hpp"

#include <cstdlib>
#include <string_view>

namespace pico {

std::span<const BackendInfo> known_backends() {
  static const std::vector<BackendInfo> backends{
      {"mpi", {"default"}, false, "the MPI library's own collectives (MPI_Allreduce, ...)"},
      {"fault",
       {"corrupt", "crash", "hang"},
       true,
       "test-only: the MPI library's collective with an injected fault (one wrong element, a crash, a hang)"},
  };
  return backends;
}

const BackendInfo* find_backend(const std::string& library) {
  for (const auto& b : known_backends())
    if (b.library == library) return &b;
  return nullptr;
}

bool test_backends_enabled() {
  const char* v = std::getenv("PICO_ENABLE_TEST_BACKENDS");
  return v != nullptr && std::string_view(v) == "1";
}

}  // namespace pico
