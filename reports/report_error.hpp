// Input a report rendering cannot use (its plotting libraries are missing, a
// format that takes one report was given several): printed by the CLI as
// "pico: error: WHERE: WHAT" and "  hint: HINT", exit 2.
#pragma once

#include <stdexcept>
#include <string>

namespace pico {

struct ReportInputError : std::runtime_error {
  ReportInputError(std::string where_, std::string what_, std::string hint_)
      : std::runtime_error(where_ + ": " + what_), where(std::move(where_)), message(std::move(what_)),
        hint(std::move(hint_)) {}
  std::string where, message, hint;
};

}  // namespace pico
