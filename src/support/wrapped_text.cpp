// SPDX-License-Identifier: BSD-3-Clause
#include "support/wrapped_text.hpp"

#include <algorithm>

namespace pico {

namespace {

// One line of text (no line break), wrapped; its own lines after the first begin with indent.
void wrap_line(std::string_view text, std::size_t width, std::string_view indent, std::string& out) {
  // A line's own leading blanks ("  (tune --objective p95...") are its indent, not words.
  std::size_t at = std::min(text.find_first_not_of(' '), text.size());
  std::string line(text.substr(0, at));
  std::size_t prefix = at;  // what of `line` is indent, not text
  while (at < text.size()) {
    const std::size_t end = std::min(text.find(' ', at), text.size());
    const std::string_view word = text.substr(at, end - at);
    if (line.size() > prefix && line.size() + 1 + word.size() > width) {
      out += line + '\n';
      line.assign(indent);
      prefix = indent.size();
    }
    if (line.size() > prefix) line += ' ';
    line += word;
    at = end + 1;
  }
  out += line + '\n';
}

}  // namespace

std::string wrapped(std::string_view text, std::size_t width, std::string_view indent) {
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  std::string out;
  std::size_t at = 0;
  do {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    wrap_line(text.substr(at, end - at), width, indent, out);
    at = end + 1;
  } while (at <= text.size());
  return out;
}

std::string wrapped_command(std::string_view first, const std::vector<std::string>& words, std::size_t width,
                            std::string_view indent) {
  std::string out, line(first);
  std::size_t prefix = first.size();  // what of `line` is not the command's
  for (std::size_t w = 0; w < words.size(); ++w) {
    const std::string& word = words[w];
    // Room for the " \" that a line goes on with, if a word comes after this one.
    const std::size_t room = w + 1 < words.size() ? 2 : 0;
    if (line.size() > prefix && line.size() + 1 + word.size() + room > width) {
      out += line + " \\\n";
      line.assign(indent);
      prefix = indent.size();
    }
    if (line.size() > prefix) line += ' ';
    line += word;
  }
  return out + line + '\n';
}

std::string warning_text(std::string_view text) {
  return wrapped(std::string("pico: warning: ") + std::string(text), kProseWidth, "  ");
}

}  // namespace pico
