// SPDX-License-Identifier: BSD-3-Clause
// The InputError a parser raises for a text; the test fails if it accepts it.
#pragma once

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "config/experiment.hpp"
#include "config/platform.hpp"
#include "support/input_error.hpp"

namespace pico::test {

template <class Parse>
InputError error_of(Parse parse, const std::string& text, const char* file) {
  try {
    parse(text, file);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("accepted:\n" << text);
  throw std::logic_error("unreachable");
}

// The InputError a loader raises for a path; the test fails if it loads it.
template <class Load>
InputError error_of_load(Load load, const std::string& path) {
  return error_of([&](const std::string& p, const char*) { load(p); }, path, path.c_str());
}

inline InputError experiment_error(const std::string& text) { return error_of(parse_experiment, text, "exp.yaml"); }
inline InputError platform_error(const std::string& text) { return error_of(parse_platform, text, "plat.yaml"); }

}  // namespace pico::test
