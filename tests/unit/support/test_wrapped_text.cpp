// SPDX-License-Identifier: BSD-3-Clause
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support/wrapped_text.hpp"

using namespace pico;

TEST_CASE("wrapped breaks at spaces within the width", "[wrapped_text]") {
  CHECK(wrapped("one two three", 7) == "one two\nthree\n");
  CHECK(wrapped("one two three", 100) == "one two three\n");
  CHECK(wrapped("", 10) == "\n");
  // A word longer than the line stays whole, on a line of its own.
  CHECK(wrapped("a " + std::string(12, 'x') + " b", 10) == "a\n" + std::string(12, 'x') + "\nb\n");
}

TEST_CASE("wrapped indents its further lines and keeps the text's own", "[wrapped_text]") {
  CHECK(wrapped("pico: warning: a b c d", 16, "  ") == "pico: warning: a\n  b c d\n");
  // The text's line breaks and each line's leading blanks stay; a break at the end is not doubled.
  CHECK(wrapped("first line\n  second line here\n", 12, "  ") == "first line\n  second\n  line here\n");
  CHECK(wrapped("unlimited stays on one line", static_cast<std::size_t>(-1)) == "unlimited stays on one line\n");
}

TEST_CASE("warning_text is pico's warning in 100 columns", "[wrapped_text]") {
  const std::string text = warning_text(std::string(50, 'a') + " " + std::string(50, 'b'));
  CHECK(text == "pico: warning: " + std::string(50, 'a') + "\n  " + std::string(50, 'b') + "\n");
  CHECK(warning_text("short") == "pico: warning: short\n");
}

TEST_CASE("wrapped_command breaks a command between words, each line going on ended by a backslash",
          "[wrapped_text]") {
  const std::vector<std::string> words = {"A=1", "mpirun", "-np", "4", "'a b c'", "/path/to/worker"};
  // Never within a quoted word, and the lines paste into a shell as one command.
  CHECK(wrapped_command("  [2 cases] ", words, 30, "      ") ==
        "  [2 cases] A=1 mpirun -np 4 \\\n      'a b c' /path/to/worker\n");
  // Room for the " \\" is kept: a line is at most the width with it.
  CHECK(wrapped_command("", {"aaaa", "bbbb", "cccc"}, 11, "  ") == "aaaa bbbb \\\n  cccc\n");
  CHECK(wrapped_command("", {"aaaa", "bbbb", "cccc"}, 14, "  ") == "aaaa bbbb cccc\n");
  // A word longer than the line stays whole, on a line of its own; unlimited keeps one line.
  CHECK(wrapped_command("$ ", {"x", std::string(20, 'p'), "y"}, 10, "  ") ==
        "$ x \\\n  " + std::string(20, 'p') + " \\\n  y\n");
  CHECK(wrapped_command("$ ", words, static_cast<std::size_t>(-1), "  ") ==
        "$ A=1 mpirun -np 4 'a b c' /path/to/worker\n");
}
