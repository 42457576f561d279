// SPDX-License-Identifier: BSD-3-Clause
// Base64 (RFC 4648, with padding), for the report's compact per-rank samples
// (core/rank_timing.hpp): JSON holds no bytes, and text numbers cost twice the space.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pico {

std::string base64_encode(std::span<const std::byte> bytes);
// Throws std::runtime_error on a character outside the alphabet or a length not a multiple of 4.
std::vector<std::byte> base64_decode(std::string_view text);

}  // namespace pico
