// SPDX-License-Identifier: BSD-3-Clause
// The nccl backend's own key: `gpus_per_process`.
#include <string>

#include "config/backend_options.hpp"
#include "config/yaml_reader.hpp"
#include "core/case.hpp"

namespace pico {
namespace {

std::map<std::string, std::string> parse_nccl_options(const yaml::Map& entry) {
  std::map<std::string, std::string> options;
  if (auto v = entry.get(kGpusPerProcess)) {
    // 1 is the default and stays out of the case id.
    if (const auto gpus = v->as_int(kGpusPerProcess, 1, 1024); gpus > 1) options[kGpusPerProcess] = std::to_string(gpus);
  }
  return options;
}

}  // namespace

BackendOptions nccl_backend_options() { return {{kGpusPerProcess}, parse_nccl_options}; }

}  // namespace pico
