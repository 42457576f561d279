// SPDX-License-Identifier: BSD-3-Clause
// FNV-1a 64: a stable, dependency-free hash for case ids and result fingerprints.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace pico {

inline std::uint64_t fnv1a64(std::span<const std::byte> bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const std::byte b : bytes) {
    hash ^= static_cast<unsigned char>(b);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

}  // namespace pico
