// SPDX-License-Identifier: BSD-3-Clause
#include "support/plain_text.hpp"

#include <fmt/format.h>

namespace pico {
namespace {

// Length of the UTF-8 sequence starting at text[i], or 0 when it is not a valid one.
std::size_t sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  const std::size_t n = (lead & 0xE0) == 0xC0 ? 2 : (lead & 0xF0) == 0xE0 ? 3 : (lead & 0xF8) == 0xF0 ? 4 : 0;
  if (n == 0) return 0;
  char32_t cp = lead & (0x7F >> n);  // the lead byte's payload bits
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  const char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < smallest[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

}  // namespace

std::optional<TextProblem> utf8_problem(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = sequence_length(text, i);
    if (n == 0)
      return TextProblem{i, fmt::format("is not valid UTF-8 (byte 0x{:02x})", static_cast<unsigned char>(text[i]))};
    i += n;
  }
  return std::nullopt;
}

std::optional<TextProblem> one_line_problem(std::string_view text) {
  if (auto problem = utf8_problem(text)) return problem;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n' || c == '\r') return TextProblem{i, "holds a line break"};
    if (c < 0x20 || c == 0x7F) return TextProblem{i, fmt::format("holds a control character (0x{:02x})", c)};
    // C1 controls (U+0080-U+009F) are 0xC2 0x80-0x9F in UTF-8; U+2028/U+2029 break lines too.
    if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xA0)
      return TextProblem{i, "holds a control character (C1)"};
    if (c == 0xE2 && text.substr(i, 3) == "\xE2\x80\xA8") return TextProblem{i, "holds a line break (U+2028)"};
    if (c == 0xE2 && text.substr(i, 3) == "\xE2\x80\xA9") return TextProblem{i, "holds a line break (U+2029)"};
  }
  return std::nullopt;
}

}  // namespace pico
