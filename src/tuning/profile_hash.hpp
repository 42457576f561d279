// SPDX-License-Identifier: BSD-3-Clause
// A profile file's fingerprint: FNV-1a 64 of its bytes, 16 hex digits. pico
// run --profile records it (provenance.profile.hash) and tune --check
// compares it, so a run is matched to the very file it loaded.
#pragma once

#include <span>
#include <string>

#include <fmt/format.h>

#include "support/hash.hpp"

namespace pico {

inline std::string profile_file_hash(const std::string& text) {
  return fmt::format("{:016x}", fnv1a64(std::as_bytes(std::span(text.data(), text.size()))));
}

}  // namespace pico
