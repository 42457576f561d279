#include "config/error.hpp"

#include <utility>

#include <fmt/format.h>

namespace pico {
namespace {

// The compiler-style "file:line:col: error: ..." form lets editors and
// terminals jump straight to the offending spot.
std::string render(const std::string& file, int line, int column, const std::string& message,
                   const std::string& hint) {
  std::string where = file.empty() ? std::string("<input>") : file;
  if (line > 0) where += fmt::format(":{}", line);
  if (line > 0 && column > 0) where += fmt::format(":{}", column);
  std::string text = fmt::format("{}: error: {}", where, message);
  if (!hint.empty()) text += fmt::format("\n  hint: {}", hint);
  return text;
}

}  // namespace

ConfigError::ConfigError(std::string file_, int line_, int column_, std::string message_, std::string hint_)
    : std::runtime_error(render(file_, line_, column_, message_, hint_)),
      file(std::move(file_)),
      line(line_),
      column(column_),
      message(std::move(message_)),
      hint(std::move(hint_)) {}

}  // namespace pico
