// SPDX-License-Identifier: BSD-3-Clause
// The nccl backend's own keys: `gpus_per_process` and `rotate_buffers`.
#include <string>

#include <fmt/format.h>

#include "config/backend_options.hpp"
#include "config/units.hpp"
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
  if (auto v = entry.get(kRotateBuffers)) {
    std::string why;
    const auto span = parse_size(v->as_string(kRotateBuffers), &why);
    if (!span) v->fail(why, "write a size such as 1GiB (nccl-tests' -e)");
    if (*span > (std::uint64_t{64} << 30))
      v->fail(fmt::format("{} of {} per buffer is more than any GPU holds", kRotateBuffers, format_size(*span)),
              "1GiB moves each call out of a 50 MB L2 cache");
    if (*span > 0) options[kRotateBuffers] = std::to_string(*span);
  }
  return options;
}

}  // namespace

BackendOptions nccl_backend_options() { return {{kGpusPerProcess, kRotateBuffers}, parse_nccl_options}; }

}  // namespace pico
