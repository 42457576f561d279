// SPDX-License-Identifier: BSD-3-Clause
#include "support/input_error.hpp"

#include <utility>

#include <fmt/format.h>

namespace pico {

// Control characters from the input (a newline inside a quoted name, an
// escape sequence) are shown escaped: the message stays one line per part,
// and a file cannot drive the user's terminal.
std::string printable(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    const auto c = static_cast<unsigned char>(ch);
    // C1 controls (U+0080-U+009F: NEL, CSI, ...) are two bytes in UTF-8, 0xC2 then 0x80-0x9F.
    if (c == 0xC2 && i + 1 < text.size() && (static_cast<unsigned char>(text[i + 1]) & 0xE0) == 0x80) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(text[++i]));
      continue;
    }
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\t')
      out += "\\t";
    else if (c < 0x20 || c == 0x7f)
      out += fmt::format("\\x{:02x}", c);
    else
      out += ch;
  }
  return out;
}

std::string render_error(const std::string& where, const std::string& message, const std::string& hint) {
  std::string text = fmt::format("pico: error: {}: {}", printable(where.empty() ? std::string("<input>") : where),
                                 printable(message));
  if (!hint.empty()) text += fmt::format("\n  hint: {}", printable(hint));
  return text;
}

namespace {

std::string located(const std::string& file, int line, int column) {
  std::string where = file.empty() ? std::string("<input>") : file;
  if (line > 0) where += fmt::format(":{}", line);
  if (line > 0 && column > 0) where += fmt::format(":{}", column);
  return where;
}

}  // namespace

InputError::InputError(std::string where_, int line_, int column_, std::string message_, std::string hint_)
    : std::runtime_error(render_error(located(where_, line_, column_), message_, hint_)),
      file(std::move(where_)),
      line(line_),
      column(column_),
      message(std::move(message_)),
      hint(std::move(hint_)) {}

}  // namespace pico
