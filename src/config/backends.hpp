// The backends an experiment may name and the algorithms each offers. A
// backend with catalogues (configs/catalog/*.yaml) takes its algorithm names
// from them; `all` is expanded per collective when the run is planned.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace pico {

struct BackendInfo {
  std::string library;
  std::vector<std::string> catalogs;    // catalogue files its algorithms come from
  std::vector<std::string> algorithms;  // every name any of its catalogues knows (or its fixed list)
  std::vector<std::string> parameters;  // algorithm parameters its catalogues know (segment_size, ...)
  bool has_default = true;              // offers the library's own choice as "default"
  bool test_only = false;               // accepted only when PICO_ENABLE_TEST_BACKENDS=1
  std::string description;
  std::string (*status)() = nullptr;    // whether this build and machine can run it, where that varies
};

std::span<const BackendInfo> known_backends();
const BackendInfo* find_backend(const std::string& library);
bool test_backends_enabled();

}  // namespace pico
