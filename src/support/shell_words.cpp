// SPDX-License-Identifier: BSD-3-Clause
#include "support/shell_words.hpp"

namespace pico {

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") ==
                        std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string shell_join(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + shell_quote(a);
  return out;
}

std::string shell_join_wrapped(const std::string& head, const std::vector<std::string>& argv, std::size_t width) {
  constexpr const char* kContinuation = " \\\n    ";
  constexpr std::size_t kIndent = 4, kBackslash = 2;  // "    " opens a continued line, " \\" closes one
  std::string out = head;
  std::size_t line = head.size();
  for (const auto& a : argv) {
    const std::string word = shell_quote(a);
    // The word, a space before it and room for a closing " \\" (a next word may follow).
    if (line > kIndent && line + 1 + word.size() + kBackslash > width) {
      out += kContinuation;
      line = kIndent;
    } else if (!out.empty()) {
      out += ' ';
      ++line;
    }
    out += word;
    line += word.size();
  }
  return out;
}

}  // namespace pico
