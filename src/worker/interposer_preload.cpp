// SPDX-License-Identifier: BSD-3-Clause
#include "worker/interposer_preload.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

namespace pico {
namespace {

// Set on the re-executed process, so that a preload that did not take cannot loop.
constexpr const char* kTriedVariable = "PICO_INTERPOSER_TRIED";

bool interposer_loaded() { return ::dlsym(RTLD_DEFAULT, "pico_interposer") != nullptr; }

}  // namespace

std::string preload_interposer(char** argv, const std::string& file) {
  if (interposer_loaded()) return "";
  if (const char* off = std::getenv("PICO_INTERPOSER"); off != nullptr && std::string(off) == "off")
    return "the interposer is switched off (PICO_INTERPOSER=off)";
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "the worker cannot find its own executable (/proc/self/exe), so not its interposer";
  const auto library = self.parent_path() / file;
  if (!std::filesystem::exists(library, ec)) return fmt::format("no {} next to the worker", library.string());
  if (std::getenv(kTriedVariable) != nullptr)
    return fmt::format("LD_PRELOAD={} did not load it (a setuid launcher, or a loader that ignores LD_PRELOAD?)",
                       library.string());
  const char* existing = std::getenv("LD_PRELOAD");
  const std::string preload =
      existing != nullptr && *existing != '\0' ? fmt::format("{}:{}", library.string(), existing) : library.string();
  ::setenv("LD_PRELOAD", preload.c_str(), 1);
  ::setenv(kTriedVariable, "1", 1);
  ::execv(self.c_str(), argv);
  return fmt::format("re-executing the worker with LD_PRELOAD failed: {}", std::strerror(errno));
}

}  // namespace pico
