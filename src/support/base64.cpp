// SPDX-License-Identifier: BSD-3-Clause
#include "support/base64.hpp"

#include <array>
#include <stdexcept>

namespace pico {
namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<int, 256> decoding_table() {
  std::array<int, 256> t{};
  for (auto& v : t) v = -1;
  for (std::size_t i = 0; i < kAlphabet.size(); ++i) t[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int>(i);
  return t;
}

}  // namespace

std::string base64_encode(std::span<const std::byte> bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t left = bytes.size() - i;
    std::uint32_t v = std::to_integer<std::uint32_t>(bytes[i]) << 16;
    if (left > 1) v |= std::to_integer<std::uint32_t>(bytes[i + 1]) << 8;
    if (left > 2) v |= std::to_integer<std::uint32_t>(bytes[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += left > 1 ? kAlphabet[(v >> 6) & 63] : '=';
    out += left > 2 ? kAlphabet[v & 63] : '=';
  }
  return out;
}

std::vector<std::byte> base64_decode(std::string_view text) {
  static constexpr auto kTable = decoding_table();
  if (text.size() % 4 != 0) throw std::runtime_error("base64: length is not a multiple of 4");
  std::vector<std::byte> out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    std::uint32_t v = 0;
    int padding = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const char ch = text[i + k];
      const bool pad = ch == '=' && i + 4 == text.size() && k >= 2;
      if (pad) ++padding;
      const int d = pad ? 0 : kTable[static_cast<unsigned char>(ch)];
      if (d < 0 || (padding > 0 && !pad)) throw std::runtime_error("base64: a character outside the alphabet");
      v = (v << 6) | static_cast<std::uint32_t>(d);
    }
    out.push_back(static_cast<std::byte>((v >> 16) & 0xFF));
    if (padding < 2) out.push_back(static_cast<std::byte>((v >> 8) & 0xFF));
    if (padding < 1) out.push_back(static_cast<std::byte>(v & 0xFF));
  }
  return out;
}

}  // namespace pico
