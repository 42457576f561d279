#include "core/input_error.hpp"

#include <utility>

#include <fmt/format.h>

namespace pico {

std::string render_error(const std::string& where, const std::string& message, const std::string& hint) {
  std::string text = fmt::format("pico: error: {}: {}", where.empty() ? std::string("<input>") : where, message);
  if (!hint.empty()) text += fmt::format("\n  hint: {}", hint);
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
