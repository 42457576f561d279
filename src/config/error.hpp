// A configuration error that points at the place in the user's file.
#pragma once

#include <stdexcept>
#include <string>

namespace pico {

struct ConfigError : std::runtime_error {
  // line and column are 1-based; 0 means "not known" (the message then names only the file).
  ConfigError(std::string file, int line, int column, std::string message, std::string hint = {});

  std::string file;
  int line = 0;
  int column = 0;
  std::string message;
  std::string hint;  // what to do about it, e.g. "did you mean 'sizes'?"
};

}  // namespace pico
